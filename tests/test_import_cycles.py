"""Import rules (docs/architecture.md, "Imports"): no import circle anywhere
in the project, and no module imports a command but okgin's command table.

Read statically from the source (the AST), so an import inside a function,
which runs only when that function does, counts as much as one at the top:
a circle that only closes at run time is still a circle. So does one that
only a type checker follows (the engine's ``if 0:`` blocks, ``if
TYPE_CHECKING:``): a reader follows it too. The engine's modules that need
each other's types for annotations only meet in engine/views.pyi.

The modules, by the names they run under: the engine (``engine`` on a
board, ``okgin.engine`` on the host: both read as ``engine``), the
firmware's flat modules and the MicroPython scripts that run beside them
(the virtual board's vmachine, the web page's webhal and webmain, the
wiring sheet's scripts), and the host package ``okgin`` (host/).
"""
import ast
import functools
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# flat modules outside firmware/: they run with the firmware's on the path
FLAT = ("host/vboard/mp", "host/web/mp", "hardware")
# what no one imports but okgin.cli, until its library part moves out:
# module -> why (okgin flash's is in okgin.table.flashing now)
NOT_YET: "dict[str, str]" = {}


def _walk(folder):
    for dirpath, dirs, files in os.walk(os.path.join(ROOT, folder)):
        dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", "node_modules", "mp"))
        for name in sorted(files):
            if name.endswith(".py"):
                yield os.path.join(dirpath, name)


@functools.lru_cache(maxsize=None)
def _modules():
    """Module name -> source path, for every Python file of the project
    but the tests (a package is known by ``pkg.__init__``)."""
    found = {}

    def add(mod, path):
        assert mod not in found, "two files run as %s: %s and %s" % (mod, found[mod], path)
        found[mod] = path

    for path in _walk("engine"):
        add("engine." + os.path.basename(path)[:-3], path)
    for path in _walk("firmware"):
        add(os.path.basename(path)[:-3], path)
    for folder in FLAT:
        for name in sorted(os.listdir(os.path.join(ROOT, folder))):
            if name.endswith(".py"):
                add(name[:-3], os.path.join(ROOT, folder, name))
    for path in _walk("host"):
        rel = os.path.relpath(path, os.path.join(ROOT, "host"))[:-3].replace(os.sep, ".")
        add("okgin." + rel, path)
    return found


def _absolute(name):
    """The engine is ``okgin.engine`` on the host and ``engine`` on the device."""
    return name[len("okgin."):] if name.startswith("okgin.engine") else name


def imports_of(source, known, module=""):
    """The modules of ``known`` that ``source`` (the module named ``module``:
    a package's own file is ``pkg.__init__``) imports, anywhere in it.
    Relative imports are resolved against ``module``'s package;
    ``from pkg import name`` is the module pkg.name where there is one,
    else pkg's __init__ (where the name is defined)."""
    out = set()

    def pick(name):
        # a package is known by its __init__
        return name if name in known else name + ".__init__"

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                out.add(pick(_absolute(alias.name)))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")[:-node.level]
                name = _absolute(".".join(base + ([node.module] if node.module else [])))
            else:
                name = _absolute(node.module)
            for alias in node.names:       # from engine import options: a module
                sub = name + "." + alias.name
                out.add(pick(sub) if pick(sub) in known else pick(name))
    return out & set(known)


def graph(modules):
    g = {}
    for mod, path in modules.items():
        with open(path, encoding="utf-8") as f:
            g[mod] = sorted(imports_of(f.read(), modules, mod) - {mod})
    return g


def circles(g):
    """Every set of modules that import each other in a loop (the strongly
    connected components of more than one module), each sorted; Tarjan's
    algorithm, without recursion."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    for root in sorted(g):
        if root in index:
            continue
        work = [(root, iter(g.get(root, ())))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            mod, deps = work[-1]
            dep = next(deps, None)
            if dep is not None:
                if dep not in index:
                    index[dep] = low[dep] = len(index)
                    stack.append(dep)
                    on_stack.add(dep)
                    work.append((dep, iter(g.get(dep, ()))))
                elif dep in on_stack:
                    low[mod] = min(low[mod], index[dep])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[mod])
            if low[mod] == index[mod]:
                ring = []
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    ring.append(m)
                    if m == mod:
                        break
                if len(ring) > 1:
                    found.append(sorted(ring))
    return sorted(found)


def _commands():
    from okgin.cli import COMMANDS
    return {mod if mod in _modules() else mod + ".__init__" for mod, _ in COMMANDS.values()}


@functools.lru_cache(maxsize=None)
def _project():
    return graph(_modules())


def test_no_import_circle_anywhere():
    rings = circles(_project())
    assert not rings, "import circles:\n" + "\n".join(" <-> ".join(r) for r in rings)


def test_no_module_imports_a_command():
    # A command parses its arguments and calls library code (host/lib/ and
    # the packages); what two commands share is library code, never one
    # command imported by another part.
    commands = _commands()
    g = _project()
    bad, waiting = [], set()
    for mod, deps in sorted(g.items()):
        if mod == "okgin.cli":
            continue
        for dep in sorted(set(deps) & commands):
            if dep in NOT_YET:
                waiting.add(dep)
            else:
                bad.append("%s imports the command %s" % (mod, dep))
    assert not bad, "\n".join(bad)
    assert waiting == set(NOT_YET), "nothing imports %s any more: drop it from NOT_YET" % (
        ", ".join(sorted(set(NOT_YET) - waiting)))


def test_every_project_file_is_read():
    modules = _modules()
    assert {"engine.hand", "app", "okgin.cli", "okgin.lib.transport", "okgin.chip.chipboard",
            "vmachine", "webmain", "gen_wiring"} <= set(modules)
    assert len([m for m in modules if m.startswith("okgin.")]) > 60
    commands = _commands()
    assert {"okgin.sim", "okgin.web.command", "okgin.hardware.command"} <= commands
    assert commands <= set(modules)


def test_no_command_is_a_package():
    """A command is a module of its own (host/<name>.py, or host/<package>/
    command.py: faults, hardware, web), never a package's __init__.py:
    importing any part of that package would run the command's module."""
    assert not sorted(m for m in _commands() if m.endswith(".__init__"))


def test_relative_imports_are_followed():
    known = {"engine.__init__": "", "engine.hand": "", "engine.cards": "", "engine.options": ""}
    assert imports_of("from .cards import card_str\nfrom . import options\n", known,
                      "engine.hand") == {"engine.cards", "engine.options"}
    assert imports_of("from .hand import Hand\n", known, "engine.__init__") == {"engine.hand"}
    assert imports_of("from okgin.engine.cards import x\nimport engine\n", known,
                      "app") == {"engine.cards", "engine.__init__"}


def test_a_name_from_a_package_face_is_an_import_of_the_face():
    known = {"okgin.yardsticks.__init__": "", "okgin.yardsticks.pimc": "",
             "okgin.yardsticks.legal": ""}
    assert imports_of("from okgin.yardsticks import forced\n", known,
                      "okgin.yardsticks.pimc") == {"okgin.yardsticks.__init__"}
    assert imports_of("from okgin.yardsticks import legal\n", known,
                      "okgin.yardsticks.pimc") == {"okgin.yardsticks.legal"}


def test_a_circle_through_a_function_level_or_type_only_import_is_found():
    # The check has teeth: the pattern it exists to forbid (a screen module
    # that imports back from the app, inside a function) is reported, and
    # so is a loop that only a type checker would follow.
    known = {"app": "", "menu": "", "screens": ""}
    g = {"app": sorted(imports_of("def open_menu():\n    import menu\n", known)),
         "menu": sorted(imports_of("def pick():\n    from app import LEVELS\n", known)),
         "screens": []}
    assert circles(g) == [["app", "menu"]]
    for guard in ("if 0:", "if TYPE_CHECKING:"):
        g["menu"] = sorted(imports_of(guard + "\n    from app import App\n", known))
        assert circles(g) == [["app", "menu"]]
    # three modules in a loop are one circle, found whole
    g = {"app": ["menu"], "menu": ["screens"], "screens": ["app"]}
    assert circles(g) == [["app", "menu", "screens"]]


# -- the host's floors (docs/architecture.md, "Layers") -------------------------
# What a part of the host may not import, by module name prefix. lib/ is the
# ground floor (leaves: nothing of the host above it); the boards stand on
# it; the table under test (table/) on the boards; commands, front ends,
# benches and the fault campaign on the table.
FRONT_ENDS = ("okgin.simui.", "okgin.web.")
CAMPAIGN_AND_BENCHES = ("okgin.faults.", "okgin.benches.", "okgin.bench", "okgin.yardsticks.")


def _host_modules():
    return {m: deps for m, deps in _project().items() if m.startswith("okgin.")}


def _upward(allowed):
    """{module: [its imports of the host that ``allowed(module, dep)`` refuses]}."""
    bad = {}
    for mod, deps in sorted(_host_modules().items()):
        wrong = [d for d in deps if d.startswith("okgin.") and not allowed(mod, d)]
        if wrong:
            bad[mod] = wrong
    return bad


def test_lib_imports_nothing_of_the_host_above_it():
    # lib/ may import lib/ and the engine (below the host), nothing else of okgin
    bad = _upward(lambda mod, dep: not mod.startswith("okgin.lib.") or dep.startswith("okgin.lib."))
    assert not bad, "lib/ is the ground floor, but: %s" % bad


def test_the_boards_import_nothing_of_the_table():
    bad = _upward(lambda mod, dep: not mod.startswith(("okgin.vboard.", "okgin.chip."))
                  or not dep.startswith("okgin.table."))
    assert not bad, "the boards stand below the table under test, but: %s" % bad


def test_the_table_imports_no_command_front_end_campaign_or_bench():
    commands = _commands()
    bad = _upward(lambda mod, dep: not mod.startswith("okgin.table.")
                  or not (dep in commands or dep.startswith(FRONT_ENDS + CAMPAIGN_AND_BENCHES)))
    assert not bad, "the table under test imports what stands on it: %s" % bad


def _folder(mod):
    """The folder a module's file is in (the host's top-level files: host)."""
    return os.path.relpath(os.path.dirname(_modules()[mod]), ROOT)


def folder_graph(g, folder=_folder):
    """{folder: [the folders its modules import]} from a module graph."""
    out: "dict[str, set[str]]" = {}
    for mod, deps in g.items():
        here = folder(mod)
        out.setdefault(here, set())
        out[here].update(folder(d) for d in deps if folder(d) != here)
    return {k: sorted(v) for k, v in out.items()}


def test_no_folder_imports_another_in_a_circle():
    # each folder a room: the house has floors only if no two folders
    # import each other, however far round (faults/ finds kinds/ by name,
    # okgin.faults.registry: the kinds stand on the campaign's helpers)
    rings = circles(folder_graph(_project()))
    assert not rings, "folder circles:\n" + "\n".join(" <-> ".join(r) for r in rings)


def test_a_folder_circle_is_found():
    # the check has teeth: lib/ importing a board, which imports lib/ (the
    # circle this rule was written against) is reported
    g = {"okgin.lib.maker": ["okgin.chip.chipboard"], "okgin.chip.chipboard": ["okgin.lib.paths"],
         "okgin.lib.paths": []}
    folder = {"okgin.lib.maker": "host/lib", "okgin.lib.paths": "host/lib",
              "okgin.chip.chipboard": "host/chip"}.get
    assert circles(folder_graph(g, folder)) == [["host/chip", "host/lib"]]
    assert imports_of("from ..engine import Match\n", {"engine.__init__": ""},
                      "okgin.lib.x") == {"engine.__init__"}
