"""The README's two commands set up .venv visibly: the first `make sim` on a
fresh machine spends about a minute in pip, and the user must see it move
(pip's own progress, not `-q`) without setuptools' "Editable installation"
notice, which reads like a problem but is not one."""
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _setup_recipe():
    # -n: print the commands without running them; -B: as if .venv were stale.
    # Run under `make test`, a sub-make would also print "Entering directory".
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAKE")}
    r = subprocess.run(["make", "--no-print-directory", "-n", "-B", ".venv/.installed"],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    return r.stdout.replace("\\\n", " ").splitlines()


def test_setting_up_the_venv_says_so_and_shows_pips_progress():
    lines = _setup_recipe()
    assert lines[0].startswith('echo "okgin: setting up .venv')
    install = [ln for ln in lines if "pip install" in ln and "-e " in ln]
    assert len(install) == 1
    assert " -q" not in install[0].split("-e ")[0]          # pip's progress is shown
    assert "PYTHONWARNINGS='ignore:Editable installation'" in install[0]
    assert lines[-1] == 'echo "okgin: .venv is ready"'
