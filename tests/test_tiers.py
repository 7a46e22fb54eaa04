"""The test house rules (tests/conftest.py, pyproject.toml): every test is in
a tier, any subset collects in any order, and tests reach shared helpers
through the package tests.support, never by editing sys.path or by
importing another test module."""
import ast
import os
import re
import subprocess
import sys

import pytest

from tests.conftest import TIERS, tier_of, work_unit

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# Scripts that (also) run under the micropython binary, where there is no
# pytest to set the path: they set their own (pyproject.toml's ruff lists them).
MICROPYTHON_SCRIPTS = ("tests/mp/", "tests/drivers/vm/", "tests/drivers/bench_drivers.py",
                       "tests/drivers/mp_runner.py", "tests/drivers/mp_trace.py",
                       "tests/drivers/hal_cases.py")


def _python_files():
    for dirpath, dirs, files in os.walk(HERE):
        dirs[:] = [d for d in dirs if d not in ("__pycache__", "golden", "fixtures")]
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(dirpath, f)
                yield os.path.relpath(path, ROOT).replace(os.sep, "/"), path


_COLLECTED: "dict[tuple, tuple]" = {}


def _collect(*args):
    """pytest --collect-only of ``args``: (exit code, tests, output); each
    set of arguments collected once per run (the orders below share
    their folders: 8 processes instead of 12)."""
    if args not in _COLLECTED:
        _COLLECTED[args] = _collect_now(*args)
    return _COLLECTED[args]


def _collect_now(*args):
    p = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                        *args], cwd=ROOT, capture_output=True, text=True, timeout=120)
    m = re.search(r"(\d+) tests? collected", p.stdout)
    return p.returncode, int(m.group(1)) if m else None, p.stdout + p.stderr


# eight pytest processes collecting (20 s of make check's 120 when they
# were twelve): `slow`
@pytest.mark.slow
@pytest.mark.parametrize("order", [
    ("tests/test_import_cycles.py", "tests/engine"),
    ("tests/engine", "tests/test_import_cycles.py", "tests/bots"),
    ("tests/bots", "tests/engine", "tests/drivers", "tests/app"),
])
def test_any_subset_collects_in_any_order(order):
    code, n, out = _collect(*order)
    assert code == 0 and n, out
    parts = [_collect(one)[1] for one in order]
    assert n == sum(parts), (order, parts, n)


def test_every_test_folder_has_a_tier():
    folders = {rel.split("/")[1] for rel, _ in _python_files()
               if rel.count("/") >= 2 and os.path.basename(rel).startswith("test_")}
    assert folders <= set(TIERS), folders - set(TIERS)
    assert tier_of(os.path.join(HERE, "engine", "test_api.py")) == "unit"
    assert tier_of(os.path.join(HERE, "chip", "test_chip.py")) == "chip"
    assert tier_of(os.path.join(HERE, "test_lint.py")) == "unit"


def _path_edits(tree):
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("insert", "append", "extend")
                and isinstance(node.func.value, ast.Attribute) and node.func.value.attr == "path"
                and isinstance(node.func.value.value, ast.Name) and node.func.value.value.id == "sys"):
            yield node.lineno


def test_tests_reach_helpers_through_the_support_package():
    edits, cross = [], []
    for rel, path in _python_files():
        if rel.startswith(MICROPYTHON_SCRIPTS):
            continue
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        edits += ["%s:%d" % (rel, n) for n in _path_edits(tree)]
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [node.module + "." + a.name for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            cross += ["%s imports %s" % (rel, n) for n in names
                      if re.search(r"(^|\.)test_\w+$", n) and not n.startswith("tests.support")]
    assert not edits, "sys.path edited in test code (use tests.support or pyproject's pythonpath): %s" % edits
    assert not cross, "a test module imports another (move the shared part to tests/support): %s" % cross


def test_the_rules_have_teeth():
    tree = ast.parse("import sys\nsys.path.insert(0, 'x')\ndef f():\n    sys.path.append('y')\n")
    assert list(_path_edits(tree)) == [2, 4]


def _nodeids(*files):
    p = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *files],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    return [ln.strip() for ln in p.stdout.splitlines() if "::" in ln]


def test_the_long_files_are_handed_out_first():
    """make test's workers take work in collection order: the files
    tests/conftest.py lists as LONG, longest first, then the other files
    with a slow or chip test, then those of the tiers that wait on their
    tables with the unit tier's (short, computing) spread among them, the
    last quarter of the unit tier's at the end (they pack both cores to the
    finish); each file's tests together and in their own order, so a long
    one never starts last."""
    files = [n.split("::")[0] for n in _nodeids("tests/engine/test_api.py", "tests/chip/test_images.py",
                                                "tests/test_lint.py", "tests/host/test_faults.py",
                                                "tests/web/test_site.py", "tests/firmware/test_font.py")]
    order = [f for i, f in enumerate(files) if i == 0 or files[i - 1] != f]
    assert order == ["tests/host/test_faults.py", "tests/chip/test_images.py",
                     "tests/web/test_site.py", "tests/engine/test_api.py",
                     "tests/firmware/test_font.py", "tests/test_lint.py"], order


def test_the_unit_files_are_spread_among_the_waiting_ones_and_end_the_run():
    from tests.conftest import mixed
    waiting = ["w%d" % i for i in range(12)]
    computing = ["c%d" % i for i in range(8)]
    out = mixed(waiting, computing)
    assert sorted(out) == sorted(waiting + computing)                 # each once
    assert [f for f in out if f[0] == "w"] == waiting                 # both in their own order
    assert [f for f in out if f[0] == "c"] == computing
    assert out[-2:] == ["c6", "c7"]                                   # the last quarter at the end
    # the rest spread: never two waiting stretches of more than 12 / 6 = 2 files
    # without one, and none before the first waiting file
    assert out[0] == "w0"
    run = longest = 0
    for f in out[:-2]:
        run = run + 1 if f[0] == "w" else 0
        longest = max(longest, run)
    assert longest <= 2, out
    assert mixed([], computing) == computing and mixed(waiting, []) == waiting


def test_a_file_goes_to_one_worker_unless_its_tests_share_nothing():
    """make test's scheduler (tests/conftest.py work_unit): a file is one
    unit of work (its module fixtures set up once, its tests in order),
    tests/install one for its package-scoped wheel; the emulated Pico's
    files whose tests each start their own chip (SPREAD) are handed out
    test by test, so both workers take them."""
    ids = _nodeids("tests/engine/test_api.py", "tests/chip/test_chip.py", "tests/install")
    units = {n: work_unit(n) for n in ids}
    assert {n.split("::")[0] for n in ids} >= {"tests/engine/test_api.py", "tests/chip/test_chip.py",
                                               "tests/install/test_wheel.py", "tests/install/test_errors.py"}
    for nodeid, unit in units.items():
        path = nodeid.split("::")[0]
        if path == "tests/chip/test_chip.py":
            assert unit == nodeid
        elif path.startswith("tests/install/"):
            assert unit == "tests/install"
        else:
            assert unit == path
    assert len({u for n, u in units.items() if "test_chip.py" in n}) > 5


def test_make_test_uses_that_scheduler():
    """The scheduler is tests/conftest.py's for --dist loadfile, which the
    Makefile asks for (xdist's loadgroup marks do nothing under pytest 9)."""
    with open(os.path.join(ROOT, "Makefile")) as f:
        assert "--dist loadfile --no-loadscope-reorder" in f.read()
    from tests import conftest

    class Config:
        def getvalue(self, name):
            return {"dist": "load"}[name]
    assert conftest.pytest_xdist_make_scheduler(Config(), None) is None     # other modes: xdist's own
