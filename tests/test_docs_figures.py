"""The figures the docs give hold against the code and the built artefacts
(issue 39): a number a page states at a named place is read there and
compared with the one the code uses (a constant, a default, a quick
computation) or the build recorded (hardware/case/manifest.json). A stale
figure fails with one line: the page, what it says, what the code says.

Cheap by design: files are read and a few modules imported, nothing is
built and no board is started. The site's size needs a built site: its
check is in tests/web/test_site_figures.py."""
import argparse
import inspect
import json
import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _text(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return f.read()


def said(rel, pattern):
    """The figure a page states at the place ``pattern`` names (its first
    group; whitespace in the pattern matches any run of whitespace, so a
    rewrapped line still matches). A place that is gone fails, naming it."""
    rx = re.sub(r"(\\ |\s)+", r"\\s+", pattern)
    m = re.search(rx, _text(rel), re.M)
    assert m, "%s: the place %r is gone (reword the check with the page)" % (rel, pattern)
    return m.group(1)


def _agree(rel, what, says, code, source):
    assert says == code, "%s says %s is %s; %s says %s" % (rel, what, says, source, code)


# ------------------------------------------------------------- the heaps

def _tools_heap():
    from okgin.vboard.vboard import HEAPSIZE
    return HEAPSIZE


def _warning_heap():
    m = re.search(r'^BUDGET = "(\d+K)"', _text("tests/firmware/test_memory.py"), re.M)
    assert m, "tests/firmware/test_memory.py: no BUDGET = \"...K\" line"
    return m.group(1)


TOOLS = "host/vboard/vboard.py HEAPSIZE"
WARNING = "tests/firmware/test_memory.py BUDGET"

# (page, the place, what it names): the tools' heap (TOOLS)
TOOLS_PLACES = [
    ("docs/simulator.md", r"\| `--heapsize SIZE` \| (\d+K) \|", "okgin sim's default heap"),
    ("docs/simulator.md", r"Heap: the virtual board runs with [^,]*, (\d+K)", "the simulator's heap"),
    ("docs/hil.md", r"`--heapsize` sets its MicroPython heap \((\d+K) by default", "hil --sim's default heap"),
    ("docs/virtual-board.md", r"micropython -X heapsize=(\d+K) -i", "the virtual board's heap"),
    ("docs/virtual-board.md", r"`--heapsize` \(default (\d+K)", "okgin board's default heap"),
    ("docs/virtual-board.md", r"`heapsize` is passed as `-X heapsize=`; by default (\d+K)", "VBoard's default heap"),
    ("docs/memory.md", r"the tools \(okgin sim, board, hil --sim\) at (\d+K)", "the tools' heap"),
    ("host/sim.py", r"MicroPython heap of the virtual board \(default (\d+K)", "okgin sim --help's heap"),
    ("host/board.py", r"MicroPython GC heap \(default (\d+K)", "okgin board --help's heap"),
    ("host/hil.py", r"the virtual board's MicroPython heap \(default (\d+K)", "okgin hil --help's heap"),
    ("host/benches/board.py", r'"OKGIN_BENCH_HEAP", "(\d+K)"', "bench board's heap"),
    ("docs/firmware.md", r"run the virtual board with (\d+K), above the test", "the tools' heap"),
]
# the same: the memory test's early warning (WARNING)
WARNING_PLACES = [
    ("docs/memory.md", r"test runs at (\d+K) as its early warning", "the memory test's warning"),
    ("docs/memory.md", r"## The warning at (\d+K)", "the memory test's warning"),
    ("docs/firmware.md", r"On the 64-bit unix port the early warning is (\d+K)", "the memory test's warning"),
    ("docs/firmware.md", r"to 100 points in `micropython -X heapsize=(\d+K)`", "the memory test's heap"),
    ("host/vboard/vboard.py", r"okgin bench memory\s+# play at (\d+K)", "the early warning"),
]
# (page, the place, what it names, the code's figure, where the code keeps it)
HEAP_PLACES = [p + (_tools_heap, TOOLS) for p in TOOLS_PLACES] + \
    [p + (_warning_heap, WARNING) for p in WARNING_PLACES] + [
    ("host/benches/memory.py", r"^BUDGET_K = (\d+)", "okgin bench memory's warning",
     lambda: _warning_heap()[:-1], WARNING),
]


@pytest.mark.parametrize("rel, place, what, code, source", HEAP_PLACES,
                         ids=["%s:%s" % (p[0], p[2]) for p in HEAP_PLACES])
def test_the_heaps_the_docs_give_are_the_codes(rel, place, what, code, source):
    _agree(rel, what, said(rel, place), code(), source)


# --------------------------------------------------- the simulator window

def test_the_window_scale_on_a_full_hd_screen():
    from okgin.simui.tkapp import fit_scale
    says = said("docs/simulator.md", r"the largest that fits the screen side by side: (\d+) on a 1920×1080 screen")
    _agree("docs/simulator.md", "the window's scale on 1920×1080", says, str(fit_scale(1920, 1080)),
           "host/simui/tkapp.py fit_scale(1920, 1080)")


def test_the_scale_of_a_scripts_shots():
    from okgin.simui import script
    code = inspect.signature(script.run).parameters["scale"].default
    says = said("docs/simulator.md", r"in e-ink colours at `--scale` \(default (\d+)\)")
    _agree("docs/simulator.md", "a script's shot scale", says, str(code), "host/simui/script.py run(scale=)")
    sim = _text("host/sim.py")
    assert "scale=args.scale or %d" % code in sim, \
        "host/sim.py passes a script's shots a scale other than %d, its documented default" % code


# ---------------------------------------------------------- the case's views

def _manifest():
    with open(os.path.join(ROOT, "hardware", "case", "manifest.json"), encoding="utf-8") as f:
        return json.load(f)


MANIFEST = "hardware/case/manifest.json"


def _readability():
    check = next(c for c in _manifest()["checks"] if c["check"] == "readability")
    steepest = max(float(d) for line in check["details"]
                   for d in re.findall(r"steepest view ([\d.]+) degrees", line))
    limit = int(re.search(r"within (\d+) degrees", check["summary"]).group(1))
    return steepest, limit


def test_the_owners_angle_in_the_readme():
    """README's promise "within N° of straight on" holds at the build's
    steepest seated view, and is the check's own limit: the figure the
    build enforces, not one a rebuild can cross without failing."""
    steepest, limit = _readability()
    says = int(said("README.md", r"footer included, within (\d+)° of straight on"))
    assert says >= steepest and says == limit, (
        "README.md says the owner sees the ink within %d°; %s says the steepest seated view is %.1f° "
        "(the readability check's limit %d°)" % (says, MANIFEST, steepest, limit))
    _agree("README.md", "the owner's steepest view", said("README.md", r"straight on \(([\d.]+)° from the steepest seat\)"),
           "%.1f" % steepest, MANIFEST)


def test_the_owners_steepest_view_in_the_case_readme_and_legibility():
    steepest, limit = _readability()
    code = "%.1f" % steepest
    _agree("hardware/case/README.md", "the steepest seated view",
           said("hardware/case/README.md", r"Result: 100%, ([\d.]+)° at worst"), code, MANIFEST)
    _agree("hardware/case/README.md", "the readability limit",
           said("hardware/case/README.md", r"no sight line is more than (\d+)° off the"), str(limit), MANIFEST)
    _agree("docs/legibility.md", "the station-turned steepest view",
           said("docs/legibility.md", r"\| station turned ±20° \|[^\n]*\| ([\d.]+)° \|"), code, MANIFEST)


# the rows of docs/legibility.md's table of the seat model's cases (manifest.json seats)
SEATS = [("seated", r"seated \|"), ("station turned", r"station turned ±20°"),
         ("corner of a square table", r"corner of a square table"), ("half-standing", r"half-standing, eyes")]


@pytest.mark.parametrize("seat, row", SEATS, ids=[s for s, _ in SEATS])
def test_the_seat_model_in_legibility(seat, row):
    built = _manifest()["seats"][seat]
    rel = "docs/legibility.md"
    cells = said(rel, r"(\| %s[^\n]*)" % row)
    figures = re.findall(r"\| ([\d.]+)%? ?°?(?= \|)", cells)
    code = ["%d" % built["opponent_eye_points"], "%g" % built["opponent_sees_pct"]]
    if "owner_sees_pct" in built:
        code += ["%d" % built["owner_eye_points"], "%g" % built["owner_sees_pct"], "%.1f" % built["owner_steepest_deg"]]
    _agree(rel, "the %s row (opponent's eye points and %%, owner's eye points, %%, steepest °)" % seat,
           figures, code, MANIFEST + " seats")


def test_the_print_time_and_plastic():
    built = _manifest()["print"]
    hours = "%d" % round(built["hours"])
    _agree("README.md", "the case's print time in hours",
           said("README.md", r"a 220 × 220 mm bed, about (\d+) hours"), hours, MANIFEST + " print.hours")
    _agree("hardware/case/README.md", "the case's print time in hours",
           said("hardware/case/README.md", r"of PLA and (\d+) hours"), hours, MANIFEST + " print.hours")
    _agree("hardware/case/README.md", "the case's solid volume in cm³",
           said("hardware/case/README.md", r"(\d+) cm³ if printed solid"), "%d" % round(built["solid_cm3"]),
           MANIFEST + " print.solid_cm3")
    grams = int(said("hardware/case/README.md", r"about (\d+) g of PLA"))
    assert abs(grams - built["pla_g"]) <= 10, (
        "hardware/case/README.md says about %d g of PLA; %s print.pla_g says %d" % (grams, MANIFEST, built["pla_g"]))


# ----------------------------------------------------- the fault campaign

def _minutes(text):
    """Minutes in "40 minutes", "1 hour", "an hour", "2 hours"."""
    m = re.match(r"(\d+|an?) (minute|hour)s?", text)
    assert m, text
    n = 1 if m.group(1) in ("a", "an") else int(m.group(1))
    return n * (60 if m.group(2) == "hour" else 1)


def test_the_long_campaigns_duration():
    """okgin faults --help and docs/reliability.md give the long run the
    same duration."""
    from okgin.faults import command
    parser = argparse.ArgumentParser()
    command.configure(parser)
    m = re.search(r"the long run, (?:~|about )(\d+ \w+|an? \w+)", parser.epilog or "")
    assert m, "okgin faults --help no longer says how long the long run takes"
    says = said("docs/reliability.md", r"okgin faults\s+# the long run, for a release \(about (\d+ \w+|an? \w+)\)")
    assert _minutes(says) == _minutes(m.group(1)), (
        "docs/reliability.md says the long run takes about %s; okgin faults --help "
        "(host/faults/command.py) says %s" % (says, m.group(1)))


# ------------------------------------------- okgin sim's options table

def _sim_parser():
    from okgin import sim
    parser = argparse.ArgumentParser()
    sim.configure(parser)
    return parser


def _options_table():
    """{option: default cell} of docs/simulator.md's Options table."""
    rows = {}
    for line in said("docs/simulator.md", r"## Options\n\n(\| option \| default \| what \|[^#]*?)\n\n").splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        for opt in re.findall(r"`(--[a-z][\w-]*)", cells[0]):
            rows[opt] = cells[1]
    return rows


def test_the_simulator_options_table_is_okgin_sims():
    """Every option of okgin sim has its row in docs/simulator.md's
    table, and every row names an option okgin sim has."""
    table = _options_table()
    have = {s for a in _sim_parser()._actions for s in a.option_strings if s.startswith("--")} - {"--help"}
    missing = sorted(have - set(table))
    extra = sorted(set(table) - have)
    assert not missing, "docs/simulator.md's Options table lacks %s, which okgin sim has" % ", ".join(missing)
    assert not extra, "docs/simulator.md's Options table has %s; okgin sim has no such option" % ", ".join(extra)


def test_the_simulator_options_defaults():
    table = _options_table()
    actions = {s: a for a in _sim_parser()._actions for s in a.option_strings}
    _agree("docs/simulator.md", "--bench-startup's default runs", table["--bench-startup"],
           str(actions["--bench-startup"].const), "okgin sim --bench-startup (host/sim.py const)")
    _agree("docs/simulator.md", "--shots' default", table["--script"], "`./%s`" % actions["--shots"].default,
           "okgin sim --shots (host/sim.py default)")


# ------------------------------------------------------------- the BOM

def test_the_bill_of_materials_total():
    """hardware/BOM.md's total is its Total column's sum, README gives the
    same total, and the printed case's row gives the build's volume."""
    rel = "hardware/BOM.md"
    table = said(rel, r"(\| # \| Part \|[^\n]*\n(?:\|[^\n]*\n)+)")
    rows = [ln for ln in table.splitlines()[2:] if ln.startswith("|")]
    column = sum(float(re.split(r"(?<!\\)\|", ln)[-2].strip()) for ln in rows)
    says = int(said(rel, r"\*\*Total: about (\d+) USD\*\*"))
    assert abs(says - column) <= 1, "%s says the total is about %d USD; its Total column sums to %.2f" % (
        rel, says, column)
    _agree("README.md", "the parts' cost in USD", said("README.md", r"is what to buy \(about (\d+) USD\)"),
           str(says), rel + " Total")
    _agree(rel, "the printed case's volume in cm³", said(rel, r"and base: (\d+) cm³ solid"),
           "%d" % round(_manifest()["print"]["solid_cm3"]), MANIFEST + " print.solid_cm3")


# ------------------------------------------------------------- okgin flash

def test_the_flashs_block_and_ready_wait():
    """docs/flashing.md's transfer block and READY wait are the flasher's."""
    import okgin.table.flashing as fl
    rel = "docs/flashing.md"
    _agree(rel, "the staged files' block", said(rel, r"as base64 blocks of (\d+) KB of a file each"),
           str(fl.PIECE // 1024), "host/table/flashing.py PIECE")
    code = inspect.signature(fl.flash_board).parameters["ready_timeout"].default
    _agree(rel, "the READY wait", said(rel, r"The wait is (\d+) s of the\s+board's time"),
           str(code), "host/table/flashing.py flash_board(ready_timeout=)")
