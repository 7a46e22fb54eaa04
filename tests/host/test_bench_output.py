"""What `okgin bench engine` and `okgin bench board` print reads as
figures with their units, never a Python repr."""
import re
import subprocess

from tests.support.host import ROOT, okgin_cmd


def _bench(name):
    r = subprocess.run(okgin_cmd("bench", name, "--quick"), cwd=ROOT, capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    return r.stdout.splitlines()


def test_bench_engine_rows_say_what_they_count_per_second():
    lines = _bench("engine")
    head = lines.index(next(ln for ln in lines if "CPython" in ln and "MicroPython" in ln))
    assert "per second" in lines[head]
    rows = lines[head + 1:head + 6]
    for row in rows:
        label, cpython, micropython = re.match(r"(.*\S)\s+(\d+)\s+(\d+)$", row).groups()
        assert label.endswith("/s"), row
    assert all(re.search(r"\d+(\.\d+)? KB", ln) for ln in lines if "smallest MicroPython heap" in ln)


def test_bench_board_prints_figures_not_reprs():
    lines = _bench("board")
    text = "\n".join(lines)
    assert not re.search(r"[\[\]{}]|'full'", text), text
    assert re.search(r"refreshes at boot: panel 1: \d+ full, \d+ partial; panel 2: \d+ full", text), text
    assert re.search(r"heap: live after collect \d+ bytes, largest live seen \d+ bytes, free \d+ bytes", text)
