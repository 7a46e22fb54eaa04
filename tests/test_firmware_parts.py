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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")

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
