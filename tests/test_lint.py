"""Lint: ruff over the whole tree, configured in pyproject.toml ([tool.ruff]).

The configuration knows which files run on MicroPython (the engine, the
firmware, the MicroPython scripts under host/ and tests/): their syntax is
checked against what MicroPython compiles, and rules whose advice does not
exist there (``zip(strict=)``, ``raise ... from``) are off for them.
"""
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def ruff(*args, cwd=ROOT):
    p = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache",
                        "--output-format", "concise"] + list(args),
                       cwd=cwd, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout + p.stderr


def test_the_tree_is_lint_clean():
    code, out = ruff()
    assert code == 0, "ruff check (pyproject.toml [tool.ruff]):\n" + out


def _tree(tmp_path, files):
    shutil.copy(os.path.join(ROOT, "pyproject.toml"), tmp_path)
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_micropython_code_gets_micropython_advice(tmp_path):
    # The same unchecked zip() is a finding on the host (CPython >= 3.10 has
    # strict=) and not in the engine or the firmware, where MicroPython has
    # no strict= to give it.
    pair = "def pairs(a, b):\n    return list(zip(a, b))\n"
    _tree(tmp_path, {"host/x.py": pair, "engine/x.py": pair, "firmware/x.py": pair})
    code, out = ruff(cwd=str(tmp_path))
    assert code != 0
    assert "host/x.py" in out and "B905" in out, out
    assert "engine/x.py" not in out and "firmware/x.py" not in out, out


def test_syntax_micropython_cannot_compile_is_reported_in_device_code(tmp_path):
    # a match statement: fine for the host's Python 3.10, not for MicroPython
    match = "def kind(x):\n    match x:\n        case 1:\n            return 'one'\n    return 'other'\n"
    _tree(tmp_path, {"host/x.py": match, "firmware/x.py": match})
    code, out = ruff(cwd=str(tmp_path))
    assert code != 0
    assert "firmware/x.py" in out and "match" in out, out
    assert "host/x.py" not in out, out
