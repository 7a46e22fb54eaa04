"""The test tiers (pyproject.toml [tool.pytest.ini_options] markers): each
folder of tests/ is one tier, so a new test lands in its tier by where it
is written. `make check` runs `-m "unit and not slow"` (under a minute on a
quiet machine); `make test` runs them all. A test may add `slow` to its
folder's tier: a tournament, anything long, leaves make check that way."""
import collections
import os
import pathlib
import resource
import shutil
import tempfile
import time

import pytest

HERE = pathlib.Path(__file__).parent

TIERS = {
    "engine": "unit",      # the rules engine, CPython and the micropython binary
    "bots": "unit",        # the computer players and the yardsticks
    "drivers": "unit",     # the firmware's drivers on recording fakes
    "app": "unit",         # the firmware's app on the web page's board, in one micropython process
    "firmware": "board",   # the real firmware on the virtual board
    "vboard": "board",     # the virtual board itself
    "host": "board",       # okgin's commands, against the virtual board
    "hil": "board",        # the hardware-in-loop suite (run by okgin hil)
    "chip": "chip",        # the emulated Pico
    "sim": "ui",           # the simulator's window and terminal
    "web": "ui",           # the web page in chromium
    "hardware": "slow",    # the printable case (OpenSCAD)
    "install": "slow",     # the wheel, built and installed in a fresh venv outside the checkout
}


def tier_of(path):
    """The tier of a test file under tests/ (files at the top: unit)."""
    rel = pathlib.Path(path).resolve().relative_to(HERE.resolve()).parts
    if len(rel) == 1:
        return "unit"      # lint, types, import rules, the Makefile
    tier = TIERS.get(rel[0])
    if tier is None:
        raise pytest.UsageError("tests/%s/ has no tier: add it to TIERS in tests/conftest.py" % rel[0])
    return tier


# The order make test hands out its work (pytest-xdist, --dist loadfile,
# --no-loadscope-reorder: in collection order), longest first: a long file
# handed out last keeps one worker busy while the other has nothing left
# (the chip's fault campaign alone: 13 minutes of a loaded run's tail).
# LONG: the files that take longest, the longest first (CPU seconds each
# took in a run of 2026-12-06: the chip's campaign 336 (its rows heap 98,
# crashlock 70, langfiles 56, switch 37, ...), its HIL suite 165 in three
# parts, its UF2 file 120, its sleep file 117, the virtual board's
# campaign 18 but 110 s of its table's waits; make check's: the types 20
# s of CPU, the expert 9, the screens' fit 7, the coach 7), and the board's
# and the front ends' files of 30-50 s each (a quiet run of 2026-12-06,
# night: the memory budget 47 s, the firmware's sleep 46, Korean in the
# simulator 44, the page 40, the crash lock 34; last in collection order,
# they were the run's tail, the two cores half idle for its last 150 s);
# then the other files with a slow or chip test; then the files of the
# tiers that wait on their tables (board, ui) with the unit tier's, short
# and computing, spread among them, and the last quarter of the unit
# tier's at the very end, to fill both cores to the finish (``mixed``: a
# quiet run of 2026-12-07, morning: in collection order the tail was the
# board's and the page's files, vboard/ and web/, waiting with the cores
# ~60 % busy; with the whole unit tier after them, the waiting block
# still left the cores ~65 % busy for ~100 s before it). (The case handed out first, to compute while one
# worker flashes the run's emulated Pico and the other chip tests wait for
# it, met an OpenSCAD crash at its first picture in the one run tried,
# 2026-12-07: "Can't create OpenGL OffscreenView", exit -11; not kept.
# The crash was the private Xvfb's reset as a picture's OpenSCAD left,
# turning the other away: -noreset since, okgin.lib.xserver.)
# The wheel and the type check go first instead (2026-12-07, afternoon):
# both compute from their first second (python -m build and pip into a
# fresh venv; mypy), while the first chip test flashes the run's emulated
# Pico and the other chip tests wait for it (a quiet fresh clone: the
# cores ~50 % busy for the first 45 s, the chip's flash ~10 s of it).
# (Tried the same day and not kept: the waiting files spread among the
# chip's right after the six longest, the unit tier's all at the end. The
# idle time moved from the run's last 100 s to its middle, 94 core-s in
# all as before, and firmware/test_reply's check that the computer's
# reply is never shown in two updates failed: its virtual board, starved
# among four emulated Picos, let a refresh end between two steps.)
LONG = ("install/test_wheel.py", "test_typecheck.py",
        "chip/test_faults_chip.py", "chip/test_hil_chip.py", "chip/test_sleep.py", "chip/test_uf2.py",
        "host/test_faults.py", "chip/test_panel_4in2_chip.py", "chip/test_sim_chip_terminal.py",
        "hardware/test_case.py", "firmware/test_memory.py", "firmware/test_sleep.py",
        "sim/test_sim_lang.py", "web/test_page.py", "firmware/test_crash_lock.py",
        "test_tiers.py", "bots/test_bots.py", "drivers/test_vboard_driver.py",
        "bots/test_expert.py", "app/test_fit.py", "bots/test_coach.py")
FIRST = ("slow", "chip")
# Files whose tests share nothing (each starts its own emulated Pico, or
# its own process: the fault campaigns one row per command, the chip's
# HIL suite in three parts): make test hands their tests out one by one,
# over every worker. Every other file goes to one worker whole (--dist loadfile):
# its module fixtures are set up once and its tests run in order, as in a
# serial run; tests/install whole too (its wheel is built and installed
# once, for the package). This scheduler does it (xdist's own loadgroup
# marks do nothing under pytest 9: it renames nodes by an attribute pytest
# no longer reads, and every test went its own way).
SPREAD = ("chip/test_chip.py", "chip/test_power.py", "chip/test_uf2.py", "chip/test_faults_chip.py",
          "chip/test_hil_chip.py", "host/test_faults.py")
PACKAGES = ("install",)


def work_unit(nodeid):
    """What make test hands to one worker at once, for a test's node id."""
    path = nodeid.split("::")[0]
    rel = path[len("tests/"):] if path.startswith("tests/") else path
    if rel in SPREAD:
        return nodeid
    top = rel.split("/")[0]
    return "tests/" + top if top in PACKAGES else path


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ByFile(LoadScopeScheduling):
        def _split_scope(self, nodeid):
            return work_unit(nodeid)
    return ByFile(config, log)


def _rel(path):
    return pathlib.Path(path).resolve().relative_to(HERE.resolve()).as_posix()


# The last of the unit tier's files, by count, kept for the run's very end
# (they pack both cores to the finish); the others go among the files that
# wait on their tables
TAIL = 0.25


def mixed(waiting, computing):
    """The order after the long and the chip's files: the files that wait
    on their tables (board, ui) with the first of the unit tier's files
    spread evenly among them, then the rest of the unit tier's. In one
    block after the other, the waiting block was the run's tail with the
    cores ~65 % busy (quiet fresh clones of 2026-12-07, afternoon: four
    workers, each on a virtual board's refreshes or a window's), and the
    unit tier's ~70 s of computing came after it."""
    n = len(computing) - int(len(computing) * TAIL)     # how many are spread
    out, placed = [], 0
    for i, f in enumerate(waiting):
        out.append(f)
        due = (i + 1) * n // len(waiting)       # spread ones placed by the i-th waiting file
        out += computing[placed:due]
        placed = due
    return out + computing[placed:]


def pytest_collection_modifyitems(config, items):
    first = set()
    for item in items:
        item.add_marker(tier_of(item.path))
        if any(item.get_closest_marker(m) for m in FIRST):
            first.add(item.path)
    waiting, computing = [], []
    for item in items:
        rel = _rel(item.path)
        if rel in LONG or item.path in first:
            continue
        group = computing if tier_of(item.path) == "unit" else waiting
        if not group or group[-1] != item.path:
            group.append(item.path)
    order = {path: i for i, path in enumerate(mixed(waiting, computing))}

    def rank(item):
        rel = _rel(item.path)
        if rel in LONG:
            return LONG.index(rel)
        if item.path in first:
            return len(LONG)
        return len(LONG) + 1 + order[item.path]
    # a stable sort by file: each file's tests stay together and in order
    items.sort(key=rank)


# Where the time went, said at the end of every run (CI's log keeps it):
# the tests' own durations (setup, call, teardown) summed per tier and for
# the longest files, and the CPU seconds of each pytest process with its
# finished children (the boards, emulators and commands it started; not a
# tmux server, which leaves its parent), with the run's wall time.
_SPENT = {"tier": collections.Counter(), "file": collections.Counter(), "file_cpu": collections.Counter(),
          "cpu": {}, "t0": time.monotonic()}


_CPU0 = pytest.StashKey[float]()


def _cpu_s(children=True):
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + (kids.ru_utime + kids.ru_stime if children else 0.0)


# An emulated Pico with okgin on it is flashed once a run per board (by
# the real okgin flash, okgin.table.flashed): every test, worker and
# command the run starts (the campaign's two processes, okgin hil --chip,
# okgin replay --chip, a new okgin sim --chip Pico) copies it. Set by the
# controller before xdist starts its workers, who inherit it; one a run,
# so each run flashes afresh (set OKGIN_CHIP_CACHE yourself to keep the
# images between runs: they are named by a digest of what they hold).
_CHIP_CACHE = []


def pytest_configure(config):
    if hasattr(config, "workerinput") or os.environ.get("OKGIN_CHIP_CACHE"):
        return
    folder = tempfile.mkdtemp(prefix="okgin-chip-cache-")
    os.environ["OKGIN_CHIP_CACHE"] = folder
    _CHIP_CACHE.append(folder)


def pytest_unconfigure(config):
    for folder in _CHIP_CACHE:
        shutil.rmtree(folder, ignore_errors=True)
        os.environ.pop("OKGIN_CHIP_CACHE", None)


def pytest_sessionstart(session):
    _SPENT["t0"] = time.monotonic()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    item.stash[_CPU0] = _cpu_s()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_makereport(item, call):
    # the CPU a test took with what it started and waited for (the boards,
    # the emulators, the commands), its module fixtures' set-up and
    # tear-down included: sent with its last report (to xdist's controller)
    if call.when == "teardown" and _CPU0 in item.stash:
        item.user_properties.append(("cpu_s", _cpu_s() - item.stash[_CPU0]))


def pytest_runtest_logreport(report):
    # on xdist's controller every worker's reports arrive here too
    path = report.nodeid.split("::")[0]
    try:
        tier = tier_of(HERE.parent / path)
    except (ValueError, pytest.UsageError):
        return
    _SPENT["tier"][tier] += report.duration
    _SPENT["file"][path] += report.duration
    _SPENT["file_cpu"][path] += dict(report.user_properties).get("cpu_s", 0.0)


def pytest_sessionfinish(session):
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:     # an xdist worker: its figure goes to the controller
        workeroutput["cpu_s"] = _cpu_s()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    cpu = getattr(node, "workeroutput", {}).get("cpu_s")
    if cpu is not None:
        _SPENT["cpu"][node.gateway.id] = cpu


def pytest_terminal_summary(terminalreporter):
    spent = _SPENT["tier"]
    if not spent:
        return
    w = terminalreporter
    w.write_sep("=", "where the time went")
    w.write_line("tests' own durations: %.0f s (%s)" % (sum(spent.values()), ", ".join(
        "%s %.0f s" % (t, s) for t, s in spent.most_common())))
    # xdist's controller: its own, the workers (its children) said theirs
    cpu = dict(_SPENT["cpu"], main=_cpu_s(children=not _SPENT["cpu"]))
    w.write_line("CPU with the boards and commands started: %.0f s (%s) in %.0f s of wall time" % (
        sum(cpu.values()), ", ".join("%s %.1f s" % kv for kv in sorted(cpu.items())),
        time.monotonic() - _SPENT["t0"]))
    w.write_line("longest files: " + ", ".join(
        "%s %.0f s" % kv for kv in _SPENT["file"].most_common(12)))
    w.write_line("most CPU (with their boards and commands): " + ", ".join(
        "%s %.0f s" % kv for kv in _SPENT["file_cpu"].most_common(12)))
