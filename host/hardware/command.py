"""``okgin hardware build``: the printable enclosure, its checks and pictures.

    okgin hardware build                      # into hardware/case (STLs, pictures, manifest.json)
    okgin hardware build --out /tmp/case --panel weact --buttons 6
    okgin hardware build --no-renders         # no X display needed

Reads hardware/layout.json (where things go), hardware/parts.json (what the
bought parts measure) and hardware/board.json (the button names), renders
hardware/case/case.scad with OpenSCAD, and fails (exit 1) if a check does:
see host/hardware/checks.py. Also rewrites the wiring sheet and picture
(hardware/gen_wiring.py) when building into hardware/case.
"""
import argparse
import os
import sys

from ..lib.errors import CommandError
from ..lib import paths as _paths

EXAMPLES = """examples:
  okgin hardware build                        default case into hardware/case
  okgin hardware build --out /tmp/case --panel weact --buttons 6
  okgin hardware build --out /tmp/case-6mm --buttons 6 --wall 3 --tolerance 0.2 --no-renders

Without --out it writes the committed copy in hardware/case, and only with
layout.json's defaults (other options there would leave the repository's
STLs and pictures out of step with layout.json).
"""


def configure(parser):
    parser.epilog = EXAMPLES
    sub = parser.add_subparsers(dest="action", metavar="ACTION")
    b = sub.add_parser("build", help="render the enclosure, check it, draw the pictures",
                       description="Render the printable enclosure with OpenSCAD, run the geometry "
                                   "checks and draw the pictures.",
                       epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    b.add_argument("--out", metavar="DIR", help="where to write (default: hardware/case, the committed copy)")
    b.add_argument("--panel", choices=("waveshare42", "waveshare", "weact"), help="the panel module (default: layout.json's)")
    b.add_argument("--buttons", type=int, choices=(6, 12), help="switch size in mm (default: layout.json's)")
    b.add_argument("--wall", type=float, metavar="MM", help="wall thickness of the base (default 2.4)")
    b.add_argument("--tolerance", type=float, metavar="MM", help="clearance for parts that fit into holes (default 0.3)")
    b.add_argument("--no-renders", action="store_true", help="skip the PNG pictures (no X display needed)")
    b.add_argument("--keep-work", action="store_true", help="keep the raw OpenSCAD exports in OUT/work")
    sub.add_parser("routes", help="the legibility of the routes to a bigger table, as a Markdown table",
                   description="Weigh the routes to a table readable from the chair with the build's own "
                               "legibility code (docs/legibility.md holds the output).")


def run(args):
    if getattr(args, "action", None) == "routes":
        from . import routes
        print(routes.markdown(routes.table()))
        return 0
    if getattr(args, "action", None) != "build":
        raise CommandError("say what to do: okgin hardware build (see okgin hardware --help)")
    from . import build
    if not args.out and _paths.INSTALLED:
        raise CommandError("say where to write the case: okgin hardware build --out DIR "
                           "(hardware/case is the repository's copy; this okgin is installed)")
    out = os.path.abspath(args.out) if args.out else build.CASE_DIR
    opts = {"panel": args.panel, "buttons": args.buttons, "wall": args.wall, "tolerance": args.tolerance}
    if out == build.CASE_DIR:
        given = ["--%s %s" % (k, v) for k, v in opts.items() if v is not None]
        _, layout, _, opt = build.load_inputs(opts)
        if given and opt != build.L.options(layout):
            raise CommandError("hardware/case holds the build with layout.json's defaults; write this "
                               "one elsewhere: okgin hardware build --out DIR %s" % " ".join(given))

    def progress(msg):
        print(msg, flush=True)
    try:
        m = build.build(out, opts, renders=not args.no_renders, progress=progress, keep_work=args.keep_work)
    finally:
        # the wiring sheet follows board.json whether or not a check failed
        if out == build.CASE_DIR:
            import subprocess
            subprocess.run([sys.executable, os.path.join(build.L.HARDWARE, "gen_wiring.py")], check=False)
    pr = m["print"]
    print("print: %.0f cm3 solid, about %d g of PLA and %.0f h (an estimate: %s)"
          % (pr["solid_cm3"], pr["pla_g"], pr["hours"], pr["assumes"]))
    s = m["seconds"]
    print("built %s in %.0f s (OpenSCAD %.0f s, checks %.0f s, pictures %.0f s); all checks passed"
          % (out, s["total"], s["openscad"], s["checks"], s["pictures"]))
    return 0
