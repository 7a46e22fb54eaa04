"""CI (.ci/run) runs the README's test command in what a user's shell has:
a test that passes only with a CI runner's PYTHONUNBUFFERED (or PYTHONPATH,
PYTEST_ADDOPTS...) passes for no user. Run here for real, with a stand-in
`make` that records how it was called."""
import os
import shutil
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

RECORDER = """#!/bin/sh
# stands in for make (and for id: not root, so no apt-get): records its call
case "$(basename "$0")" in id) echo 1000; exit 0;; esac
echo "$@" > "$(dirname "$0")/../make-args"
env > "$(dirname "$0")/../make-env"
"""


def test_ci_runs_make_test_without_a_runners_python_variables(tmp_path):
    clone = tmp_path / "clone"
    (clone / ".ci").mkdir(parents=True)
    shutil.copy(os.path.join(ROOT, ".ci", "run"), clone / ".ci" / "run")
    fake = tmp_path / "bin"
    fake.mkdir()
    for name in ("make", "id"):
        (fake / name).write_text(RECORDER)
        (fake / name).chmod(0o755)
    env = {"PATH": "%s%s%s" % (fake, os.pathsep, os.environ["PATH"]), "HOME": str(tmp_path),
           "LANG": "C.UTF-8", "CI": "true", "OKGIN_RP2_DIR": "/images/rp2",
           "https_proxy": "http://proxy:3128", "PIP_CERT": "/etc/ca.pem",
           "PYTHONUNBUFFERED": "1", "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPATH": "/elsewhere",
           "PYTEST_ADDOPTS": "-p no:randomly", "VIRTUAL_ENV": "/other/venv", "RUNNER_TOKEN": "x"}
    r = subprocess.run(["bash", str(clone / ".ci" / "run")], env=env, capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    assert (tmp_path / "make-args").read_text().split() == ["test"]     # the README's command
    seen = dict(line.split("=", 1) for line in (tmp_path / "make-env").read_text().splitlines()
                if "=" in line)
    for name in ("PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE", "PYTHONPATH", "PYTEST_ADDOPTS",
                 "VIRTUAL_ENV", "RUNNER_TOKEN"):
        assert name not in seen, name
    # what CI needs, and what a user's shell has (the network's set-up for installing)
    assert seen["CI"] == "true" and seen["OKGIN_RP2_DIR"] == "/images/rp2"
    assert seen["HOME"] == str(tmp_path) and seen["LANG"] == "C.UTF-8"
    assert seen["https_proxy"] == "http://proxy:3128" and seen["PIP_CERT"] == "/etc/ca.pem"
