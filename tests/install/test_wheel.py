"""The wheel as a user installs it, walked the whole way a new user walks it
(README; issue 39: a shorter walk had hidden three commands that did not
work installed).

- Built by the standard backend (`python -m build`), installed into a fresh
  virtual environment in a temporary folder.
- Every command runs from another temporary folder, with no checkout in
  sight, in a clean environment: PATH (the venv's bin, then the system's)
  and an empty HOME, nothing else (no PYTHONPATH, no OKGIN_RP2_DIR, no
  cache: `env -i` style).
- The RP2040 images are fetched by okgin's own download code from a local
  HTTP server on 127.0.0.1 standing in for the internet (OKGIN_RP2_MIRROR:
  the same files under their official names); npm fetches its packages as
  it does for a user (into the empty HOME's cache).

Its `okgin` must find everything it needs inside the installed package
(host/lib/paths.py): the firmware, the board definition, the web page, the
HIL suite, the case model, the fault campaign.

Duration here (2 shared cores): about 4 minutes, most of it the case
(OpenSCAD), the fault rows and the emulated Pico's npm install.
"""
import json
import os
import shutil
import signal
import subprocess
import zipfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"     # as tests/install/conftest.py gives the commands


def test_the_wheel_is_one_package_carrying_what_the_commands_need(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    assert tops == {"okgin", "okgin-0.1.0.dist-info"}            # no top-level host, engine
    for need in ("okgin/firmware/main.py", "okgin/firmware/display.pyi", "okgin/engine/match.py",
                 "okgin/hardware/data/board.json", "okgin/hardware/data/layout.json",
                 "okgin/hardware/data/parts.json", "okgin/hardware/data/case/case.scad",
                 "okgin/web/page/index.html", "okgin/web/package-lock.json",
                 "okgin/chip/glue.mjs", "okgin/chip/uf2drop.mjs", "okgin/chip/package-lock.json",
                 "okgin/vboard/mp/vmachine.py", "okgin/tests/hil/conftest.py",
                 "okgin/tests/firmware/golden/upcard_mover.png", "okgin/hardware/data/board-2in9.json",
                 "okgin/tests/firmware/golden/upcard_mover-400x300.png", "okgin/tests/mp/run_engine.py"):
        assert need in names, need
    # every Python file of the host tool and the engine (okgin.faults was
    # once left out: `okgin faults` was a traceback in every pip install),
    # and every module of the emulated Pico's Node half
    for top, pkg in (("host", "okgin"), ("engine", "okgin/engine")):
        for here, subdirs, files in os.walk(os.path.join(ROOT, top)):
            subdirs[:] = [d for d in subdirs if d not in ("node_modules", "__pycache__")]
            for f in files:
                if f.endswith((".py", ".mjs")):
                    rel = os.path.relpath(os.path.join(here, f), os.path.join(ROOT, top))
                    assert pkg + "/" + rel.replace(os.sep, "/") in names, os.path.join(top, rel)
    # every file the firmware flashes, as in the checkout
    from okgin.lib.firmware_files import firmware_files
    want = {os.path.relpath(host, ROOT).replace(os.sep, "/") for _d, host, _c in firmware_files(ROOT)}
    # (the modules, and the languages' catalogues and glyph files)
    have = {n[len("okgin/"):] for n in names if n.startswith(("okgin/firmware/", "okgin/engine/"))
            and (n.endswith(".py") or n.startswith("okgin/firmware/lang/"))}
    assert want == have


def test_the_installed_okgin_is_outside_the_checkout(installed):
    run, cwd = installed
    r = run("python", "-c", "import okgin, okgin.lib.paths as p; print(okgin.__file__); "
                            "print(p.INSTALLED, p.BOARD)")
    assert r.returncode == 0, r.stderr
    where, flag, board = r.stdout.split()
    assert where.startswith(str(run.venv)) and flag == "True" and os.path.isfile(board)
    assert not os.path.commonpath([where, ROOT]) == ROOT
    site = os.path.dirname(os.path.dirname(where))
    assert not os.path.exists(os.path.join(site, "host"))
    assert not os.path.exists(os.path.join(site, "engine"))


def test_every_command_and_subcommand_has_its_help(installed):
    run, cwd = installed
    # the command table as the installed okgin builds it, sub-commands included
    r = run("python", "-c", "import argparse, json\n"
                            "from okgin import cli\n"
                            "def walk(p, path):\n"
                            "    yield path\n"
                            "    for a in p._actions:\n"
                            "        if isinstance(a, argparse._SubParsersAction):\n"
                            "            for name, sp in a.choices.items():\n"
                            "                yield from walk(sp, path + [name])\n"
                            "print(json.dumps(list(walk(cli.build_parser(), []))))\n")
    assert r.returncode == 0, r.stderr
    paths = json.loads(r.stdout)
    from okgin import cli
    assert {p[0] for p in paths if len(p) == 1} == set(cli.COMMANDS)
    assert ["hardware", "build"] in paths
    r = run("okgin", "--version")
    assert r.returncode == 0 and r.stdout.startswith("okgin 0.1.0 (firmware 0.1.0, protocol 1; MicroPython v1.28.0")
    for p in paths:
        r = run("okgin", *p, "--help")
        assert r.returncode == 0 and "Traceback" not in r.stderr, (p, r.stderr[-2000:])
        assert r.stdout.startswith("usage: okgin" + "".join(" " + w for w in p)), (p, r.stdout[:200])


def test_uf2_on_a_new_machine_downloads_micropython_only(installed, need_mirror, tmp_path):
    """README's one file for a new Pico: nothing cached, MicroPython fetched
    from the (stand-in) internet by okgin itself, never the bootrom a .uf2
    does not need; the file is byte for byte the checkout's."""
    url, requests, firmware = need_mirror
    run, cwd = installed
    del requests[:]
    r = run("okgin", "uf2", "-o", "okgin.uf2")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "downloading MicroPython v1.28.0 for the Pico" in r.stderr and "bootrom" not in r.stderr
    assert "hold BOOTSEL" in r.stdout and "okgin flash" in r.stdout
    assert [p for p in requests if "b1" in p] == [] and len(requests) == 1
    cached = run.home / ".cache" / "okgin" / "rp2" / "RPI_PICO-v1.28.0.uf2"
    assert cached.read_bytes() == open(firmware, "rb").read()
    from okgin.lib import uf2image as uf2
    mine = tmp_path / "okgin.uf2"
    uf2.write(str(mine), firmware)
    assert (cwd / "okgin.uf2").read_bytes() == mine.read_bytes()
    # the second time: from the cache, nothing downloaded
    r = run("okgin", "uf2", "-o", "again.uf2")
    assert r.returncode == 0 and "downloading" not in r.stderr and len(requests) == 1


def test_sim_headless_plays_a_script(installed):
    run, cwd = installed
    (cwd / "s.txt").write_text("sync\nserial hello\npress 0 right\nsync\nshot a\n")
    r = run("okgin", "sim", "--headless", "--script", "s.txt", "--shots", "shots")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "OK okgin fw=" in r.stdout
    assert (cwd / "shots" / "a.png").stat().st_size > 1000


def test_board_then_flash_onto_it_then_hello(installed):
    """A blank virtual board (an empty flash: it boots to the REPL like a
    new Pico), the whole firmware flashed onto it by okgin flash, and the
    firmware answering hello."""
    run, cwd = installed
    (cwd / "flash").mkdir()
    board = subprocess.Popen([str(run.venv / "bin" / "okgin"), "board", "--flash-dir", "flash",
                              "--speed", "0", "--quiet"], cwd=str(cwd), env=run.env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        first = board.stdout.readline()
        assert first.startswith("virtual board on /dev/"), first
        port = first.split()[3]
        r = run("okgin", "flash", "--port", port)
        assert r.returncode == 0, r.stdout + r.stderr
        assert "verified" in r.stdout and "READY okgin" in r.stdout
        assert (cwd / "flash" / "main.py").exists() and (cwd / "flash" / "engine").is_dir()
        r = run("python", "-c", "from okgin.lib import transport\n"
                                "with transport.Board(%r) as b:\n"
                                "    b.wait_ready(30)\n"
                                "    print(b.request('hello'))" % port)
        assert r.returncode == 0, r.stderr
        assert r.stdout.startswith("okgin fw=0.1.0 proto=1 board=okgin-pico-2p")
    finally:
        board.send_signal(signal.SIGTERM)
        board.wait(30)


def test_the_emulated_pico_downloads_its_images_and_boots(installed, need_mirror, tmp_path):
    """okgin sim --chip on a new machine (an empty cache): both images
    fetched by okgin's own download code, the firmware booted once to check
    it, the emulator installed by npm into the user's cache, the game
    flashed onto the chip; then a script's hello over its USB serial."""
    if not shutil.which("npm", path=SYSTEM_PATH) and not os.environ.get("CI"):
        pytest.skip("npm is not installed")
    run, cwd = installed
    (cwd / "hello.txt").write_text("sync\nserial hello\n")
    env = dict(run.env, XDG_CACHE_HOME=str(tmp_path / "cache"))
    r = subprocess.run([str(run.venv / "bin" / "okgin"), "sim", "--chip", "--headless", "--script",
                        "hello.txt"], cwd=str(cwd), env=env, capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-3000:]
    assert "> hello\nOK" in r.stdout
    err = r.stderr
    assert "READY okgin fw=0.1.0" in err                  # flashed, and the game started
    assert "downloading the RP2040 bootrom" in err and "downloading MicroPython v1.28.0" in err, err
    assert "MicroPython v1.28.0 on" in err and "Raspberry Pi Pico with RP2040" in err      # booted once
    rp2 = tmp_path / "cache" / "okgin" / "rp2"
    assert (rp2 / "rp2040-bootrom-b1.bin").exists() and (rp2 / "RPI_PICO-v1.28.0.uf2").exists()


def test_web_build_writes_the_site(installed):
    run, cwd = installed
    r = run("okgin", "web", "--build", "site", timeout=600)
    if r.returncode and "npm not found" in r.stderr and not os.environ.get("CI"):
        pytest.skip(r.stderr.strip())
    assert r.returncode == 0, r.stdout + r.stderr
    with open(cwd / "site" / "site.json") as f:
        site = json.load(f)
    assert "main.py" not in site["firmware"] and "app.mpy" in site["firmware"]
    assert (cwd / "site" / "index.html").exists() and (cwd / "site" / "mp" / "micropython.wasm").exists()
    if "OKGIN_RP2_MIRROR" in run.env:      # the Pico's one file, offered by the page
        assert site["uf2"]["file"] == "okgin.uf2" and (cwd / "site" / "okgin.uf2").stat().st_size > 600000
    # installed, npm's files go to the user's cache, not into site-packages
    assert not list(run.venv.glob("lib/python*/site-packages/okgin/web/node_modules"))


def test_hil_replay_tourney_stats_bench(installed):
    run, cwd = installed
    r = run("okgin", "hil", "--sim", "-k", "handshake or game")
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr
    assert " passed" in r.stdout and "failed" not in r.stdout
    rec = os.path.join(ROOT, "tests", "firmware", "fixtures", "v1-vs-easy.okg")
    with open(rec) as f:
        (cwd / "game.okg").write_text(f.read())
    r = run("okgin", "replay", "game.okg", "--quiet", "--shots", "replay")
    assert r.returncode == 0, r.stdout + r.stderr
    assert len(list((cwd / "replay").glob("*.png"))) > 5
    r = run("okgin", "tourney", "hard", "greedy", "--games", "2")
    assert r.returncode == 0, r.stdout + r.stderr
    (cwd / "flash-stats").mkdir()
    r = run("okgin", "stats", "--flash-dir", "flash-stats", "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(r.stdout)["games"] == 0
    r = run("okgin", "bench", "engine", "--quick")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Traceback" not in r.stderr and r.stdout.strip()


def test_faults_runs_from_the_wheel(installed):
    run, cwd = installed
    r = run("okgin", "faults", "--quick", "--rows", "damage", "--seed", "1", timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    row = [line for line in r.stdout.splitlines() if line.startswith("| damage |")]
    assert row, r.stdout[-2000:]
    injected, survived, lost, wrong, stuck = (int(c) for c in row[0].strip("|").split("|")[1:6])
    assert injected > 0 and survived == injected and lost == wrong == stuck == 0


def test_hardware_build_from_the_wheel(installed):
    """The printable case from the installed package's hardware data (it
    was "No module named 'boarddef'": the build looked for the checkout)."""
    run, cwd = installed
    if not shutil.which("openscad", path=SYSTEM_PATH) and not os.environ.get("CI"):
        pytest.skip("openscad is not installed")
    from tests.support.case import FAILING_TODAY
    r = run("okgin", "hardware", "build", "--out", "case", "--no-renders", timeout=900)
    with open(cwd / "case" / "manifest.json") as f:
        manifest = json.load(f)
    # the checks as in the checkout: today's table fails legibility alone
    # (issue 36), measured from the golden screens the wheel carries
    failing = tuple(c["check"] for c in manifest["checks"] if not c["ok"])
    assert failing == FAILING_TODAY, r.stdout[-3000:] + r.stderr[-3000:]
    assert r.returncode == (1 if FAILING_TODAY else 0) and "Traceback" not in r.stderr, r.stderr[-3000:]
    assert "could not be measured" not in r.stdout, r.stdout[-3000:]
    with open(os.path.join(ROOT, "hardware", "case", "manifest.json")) as f:
        committed = json.load(f)
    # the same parts as the committed case
    assert sorted(manifest["parts"]) == sorted(committed["parts"])
    # installed, the repository's copy is not a place to write
    r = run("okgin", "hardware", "build", "--no-renders")
    assert r.returncode == 1 and "--out DIR" in r.stderr and "Traceback" not in r.stderr


def test_doctor_lists_every_optional_part_and_how_to_get_a_missing_one(installed):
    """okgin doctor in the user's environment, then with only the venv on
    PATH (no Node.js, npm, OpenSCAD or chromium: really absent there)."""
    run, cwd = installed
    r = run("okgin", "doctor")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    from okgin.doctor import PARTS
    for name, _needs, _ways in PARTS:
        assert ("found    " + name) in r.stdout or ("missing  " + name) in r.stdout, name
    assert "found    MicroPython unix port" in r.stdout          # pip installed it with okgin
    assert "missing  OpenSpiel" in r.stdout and "pip install open_spiel" in r.stdout   # an extra
    env = dict(run.env, PATH=str(run.venv / "bin"))
    r = subprocess.run([str(run.venv / "bin" / "okgin"), "doctor"], cwd=str(cwd), env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    for name, debian in (("Node.js >= 18", "sudo apt install nodejs"), ("OpenSCAD", "sudo apt install openscad"),
                         ("npm", "sudo apt install npm")):
        assert "missing  " + name in r.stdout
        assert "Debian/Ubuntu/Raspberry Pi OS: " + debian in r.stdout
    assert "macOS: brew install node" in r.stdout and "Windows: winget install OpenSCAD.OpenSCAD" in r.stdout
