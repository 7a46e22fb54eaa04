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
    """Module name -> source path: the engine package and the firmware's
    flat modules (flashed to the device's root, imported by bare name)."""
    found = {}
    for name in sorted(os.listdir(os.path.join(ROOT, "engine"))):
        if name.endswith(".py"):
            mod = "engine" if name == "__init__.py" else "engine." + name[:-3]
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


def imports_of(source, known):
    """The modules of ``known`` that ``source`` imports, anywhere in it."""
    out = set()

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
                if alias.name in known:
                    out.add(alias.name)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:       # from engine import options: a module
                sub = node.module + "." + alias.name
                out.add(sub if sub in known else node.module)
        visit(node)

    visit(ast.parse(source))
    return out & set(known)


def graph(modules):
    g = {}
    for mod, path in modules.items():
        with open(path, encoding="utf-8") as f:
            g[mod] = sorted(imports_of(f.read(), modules) - {mod})
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
