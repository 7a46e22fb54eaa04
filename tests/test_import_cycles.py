"""No import circle in engine/ or firmware/ (docs/architecture.md, "Imports").

Read statically from the source (the AST), so an import inside a function,
which runs only when that function does, counts as much as one at the top:
a circle that only closes at run time is still a circle. Imports that
never run are left out: the engine's ``if 0:`` blocks (names only type
checkers read; mpy-cross compiles them to nothing) and ``if TYPE_CHECKING:``.
"""
import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _modules():
    """Module name -> source path: the engine package (``engine`` on the
    device, ``okgin.engine`` on the host; named ``engine`` here) and the
    firmware's flat modules (flashed to the device's root, imported by bare
    name)."""
    found = {}
    for name in sorted(os.listdir(os.path.join(ROOT, "engine"))):
        if name.endswith(".py"):
            mod = "engine.__init__" if name == "__init__.py" else "engine." + name[:-3]
            found[mod] = os.path.join(ROOT, "engine", name)
    for name in sorted(os.listdir(os.path.join(ROOT, "firmware"))):
        if name.endswith(".py"):
            found[name[:-3]] = os.path.join(ROOT, "firmware", name)
    return found


def _type_checking_only(node):
    if not isinstance(node, ast.If):
        return False
    test = node.test
    return ((isinstance(test, ast.Constant) and not test.value)
            or (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING"))


def _absolute(name):
    """The engine is ``okgin.engine`` on the host and ``engine`` on the device."""
    return name[len("okgin."):] if name.startswith("okgin.engine") else name


def imports_of(source, known, module=""):
    """The modules of ``known`` that ``source`` (the module named ``module``:
    a package's own file is ``pkg.__init__``) imports, anywhere in it.
    Relative imports are resolved against ``module``'s package."""
    out = set()

    def pick(name):
        # a package is known by its __init__
        return name if name in known else name + ".__init__"

    def visit(node):
        for child in ast.iter_child_nodes(node):
            if _type_checking_only(child):
                for stmt in child.orelse:
                    visit_one(stmt)
                continue
            visit_one(child)

    def visit_one(node):
        if isinstance(node, ast.Import):
            for alias in node.names:
                out.add(pick(_absolute(alias.name)))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")[:-node.level]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = _absolute(node.module)
            for alias in node.names:       # from engine import options: a module
                sub = name + "." + alias.name
                out.add(pick(sub) if pick(sub) in known else pick(name))
        visit(node)

    visit(ast.parse(source))
    return out & set(known)


def graph(modules):
    g = {}
    for mod, path in modules.items():
        with open(path, encoding="utf-8") as f:
            g[mod] = sorted(imports_of(f.read(), modules, mod) - {mod})
    return g


def circles(g):
    """Each import circle once, as the list of modules around it."""
    found, seen = [], set()
    state = {}

    def walk(mod, path):
        state[mod] = "open"
        path.append(mod)
        for dep in g.get(mod, ()):
            if state.get(dep) == "open":
                ring = path[path.index(dep):]
                key = frozenset(ring)
                if key not in seen:
                    seen.add(key)
                    found.append(ring + [dep])
            elif dep not in state:
                walk(dep, path)
        path.pop()
        state[mod] = "done"

    for mod in sorted(g):
        if mod not in state:
            walk(mod, [])
    return found


def test_no_import_circle_in_engine_or_firmware():
    rings = circles(graph(_modules()))
    assert not rings, "import circles:\n" + "\n".join(" -> ".join(r) for r in rings)


def test_relative_imports_are_followed():
    known = {"engine.__init__": "", "engine.hand": "", "engine.cards": "", "engine.options": ""}
    assert imports_of("from .cards import card_str\nfrom . import options\n", known,
                      "engine.hand") == {"engine.cards", "engine.options"}
    assert imports_of("from .hand import Hand\n", known, "engine.__init__") == {"engine.hand"}
    assert imports_of("from okgin.engine.cards import x\nimport engine\n", known,
                      "app") == {"engine.cards", "engine.__init__"}


def test_a_circle_through_a_function_level_import_is_found():
    # The check has teeth: the pattern it exists to forbid (a screen module
    # that imports back from the app, inside a function) is reported.
    known = {"app": "", "menu": ""}
    g = {"app": sorted(imports_of("def open_menu():\n    import menu\n", known)),
         "menu": sorted(imports_of("def pick():\n    from app import LEVELS\n", known))}
    assert circles(g) == [["app", "menu", "app"]]
    # ...and one that exists only for the type checker is not
    for guard in ("if 0:", "if TYPE_CHECKING:"):
        g["menu"] = sorted(imports_of(guard + "\n    from app import App\n", known))
        assert circles(g) == []
