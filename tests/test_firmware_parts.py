"""The firmware's app keeps one job (issue 38; docs/architecture.md, the
firmware's modules): ``App`` is the table's state and its main loop
(buttons -> actions -> save -> redraw), and what is not the loop is a part
of its own that gets the app as its context. The parts a game needs only
for a moment (the computer's turn, the coach, test mode, the menu...) are
loaded when needed and dropped after, so their code is off the heap the
rest of the time (docs/memory.md): no module imports them at its top,
where they would stay loaded for good.

Read from the source (the AST), as tests/test_import_cycles.py reads the
imports."""
import ast
import os
import subprocess

from tests.support import micropython

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
ENGINE = os.path.join(ROOT, "engine")

# App grew back to 728 lines after its first split (the review of issue
# 38); what it may hold is the loop, not the parts
APP_LINES = 500
# loaded for a moment, dropped after (sys.modules.pop in the module that
# loads them, or heap.unload)
ON_DEMAND = ("botturn", "coachstep", "coachview", "testmode", "testcmds", "testmem",
             "menu", "newgame", "recover", "stats", "statsview", "endview", "padview", "asleep", "crash",
             "langcheck", "basetext")


def _tree(name):
    with open(os.path.join(FIRMWARE, name), encoding="utf-8") as f:
        return ast.parse(f.read())


def test_the_app_class_is_the_loop_and_no_more():
    app = [n for n in _tree("app.py").body if isinstance(n, ast.ClassDef) and n.name == "App"]
    assert len(app) == 1, "firmware/app.py has no class App"
    lines = app[0].end_lineno - app[0].lineno + 1
    assert lines <= APP_LINES, (
        "firmware/app.py's App is %d lines (at most %d): what is not the loop (buttons -> "
        "actions -> save -> redraw) goes to a part of its own that gets the app as its "
        "context (docs/architecture.md, the firmware's modules)" % (lines, APP_LINES))


def _top_imports(body):
    """The imports a module runs when it is loaded: at its top, and in the
    if/try blocks there (not inside functions or classes)."""
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, (ast.If, ast.Try)):
            yield from _top_imports(node.body)
            yield from _top_imports(node.orelse)
            for h in getattr(node, "handlers", ()):
                yield from _top_imports(h.body)
            yield from _top_imports(getattr(node, "finalbody", ()))


def test_the_parts_of_a_moment_are_loaded_only_when_needed():
    for name in ON_DEMAND:
        assert os.path.isfile(os.path.join(FIRMWARE, name + ".py")), name
    kept = []
    for fn in sorted(os.listdir(FIRMWARE)):
        if not fn.endswith(".py"):
            continue
        for node in _top_imports(_tree(fn).body):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                names = [node.module or ""]
            kept += ["%s imports %s" % (fn, n) for n in names if n.split(".")[0] in ON_DEMAND]
    assert not kept, ("loaded for good by an import at a module's top, where a part of a "
                      "moment should be imported inside the function that needs it: "
                      + "; ".join(kept))


def _imported_names():
    """The top-level names of every module the firmware and the engine
    import anywhere (inside functions too; not under ``if 0:``, which
    only type checkers read), with the file that imports each."""
    def walk(node, out, fn):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and isinstance(child.test, ast.Constant) and not child.test.value:
                continue
            if isinstance(child, ast.Import):
                for a in child.names:
                    out.setdefault(a.name.split(".")[0], fn)
            elif isinstance(child, ast.ImportFrom) and not child.level and child.module:
                out.setdefault(child.module.split(".")[0], fn)
            walk(child, out, fn)
    out = {}
    for folder in (FIRMWARE, ENGINE):
        for fn in sorted(os.listdir(folder)):
            if fn.endswith(".py"):
                with open(os.path.join(folder, fn), encoding="utf-8") as f:
                    walk(ast.parse(f.read()), out, fn)
    return out


def test_every_builtin_a_file_could_replace_is_taken_once_at_boot(tmp_path):
    # An "extensible" built-in (time, os, json...: a time.py on the flash
    # would replace it) is never kept in sys.modules, so each import of it
    # searches the flash (~10 ms of an RP2040). main.py takes each one the
    # firmware imports once, by its u-name, and keeps it
    # (docs/emulated-pico.md, "Boot"): one missing from its list costs every import that runs.
    # Which ones a file replaces is asked of the real MicroPython.
    main = _tree("main.py")
    listed = [ast.literal_eval(n.value) for n in main.body if isinstance(n, ast.Assign)
              and any(getattr(t, "id", None) == "BUILTINS" for t in n.targets)]
    assert len(listed) == 1, "firmware/main.py has no BUILTINS tuple"
    listed = listed[0]
    own = {fn[:-3] for folder in (FIRMWARE, ENGINE) for fn in os.listdir(folder) if fn.endswith(".py")}
    own |= {"engine", "vmachine"}       # the package; the virtual board's stand-in (host/vboard/mp)
    names = {n: fn for n, fn in _imported_names().items() if n not in own}
    for n in names:
        (tmp_path / (n + ".py")).write_text("STAND_IN = 1\n")
    probe = ("import sys\nsys.path[:] = [%r]\nfor n in %r:\n"
             "    try:\n        m = __import__(n)\n    except ImportError:\n        continue\n"
             "    if hasattr(m, 'STAND_IN'):\n        print('file', n)\n"
             "for n in %r:\n    print('u', n, __import__('u' + n).__name__)\n"
             % (str(tmp_path), sorted(names), listed))
    r = subprocess.run([micropython(), "-c", probe], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    lines = [ln.split() for ln in r.stdout.splitlines()]
    replaceable = sorted(w[1] for w in lines if w[0] == "file")
    assert "time" in replaceable and "gc" not in replaceable    # the probe tells them apart
    missing = ["%s (imported by %s)" % (n, names[n]) for n in replaceable if n not in listed]
    assert not missing, ("firmware/main.py's BUILTINS lacks built-ins a file could replace, "
                         "searched on the flash at every import: " + ", ".join(missing))
    # each listed one is that built-in under its u-name, and still imported
    assert sorted(w[1] for w in lines if w[0] == "u" and w[1] == w[2]) == sorted(listed)
    assert not [n for n in listed if n not in names], "listed in BUILTINS but imported by none"
