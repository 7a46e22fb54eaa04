# The driver case files run again under the real micropython binary (the
# unix port of the firmware's interpreter, with the real framebuf): what
# passes on CPython must pass where the firmware runs. One micropython
# process per case file; each of its tests becomes one pytest test here.
import ast
import os
import subprocess

import pytest

from tests.support import micropython

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MODULES = ("test_boarddef", "test_buttons", "ssd1680_cases", "ssd1683_cases", "hal_cases", "tick_cases", "lfs_cases")


def case_names(module):
    with open(os.path.join(HERE, module + ".py")) as f:
        tree = ast.parse(f.read())
    return [n.name for n in tree.body
            if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")]


_results: dict = {}


def run_module(module):
    if module not in _results:
        p = subprocess.run([micropython(), os.path.join("tests", "drivers", "mp_runner.py"), module],
                           cwd=ROOT, capture_output=True, text=True, timeout=120)
        lines = p.stdout.splitlines()
        if "DONE" not in lines:
            pytest.fail("micropython crashed running %s:\n%s\n%s" % (module, p.stdout, p.stderr))
        res = {}
        for line in lines:
            if line.startswith("PASS "):
                res[line[5:]] = None
            elif line.startswith("FAIL "):
                name, _, err = line[5:].partition(": ")
                res[name] = err
        _results[module] = res
    return _results[module]


@pytest.mark.parametrize("module,name", [(m, n) for m in MODULES for n in case_names(m)])
def test_under_micropython(module, name):
    res = run_module(module)
    assert name in res, "%s.%s did not run under micropython" % (module, name)
    assert res[name] is None, res[name]
