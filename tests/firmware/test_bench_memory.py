"""`okgin bench memory` (host/benches/memory.py) measures the right thing: it
plays a real hand on the virtual board, tells a board that did not boot
from one that did, and its search for the smallest heap copes with a
pass/fail that is not monotonic near the edge. (The figures themselves are
printed by the benchmark, never asserted; the budget test is
tests/firmware/test_memory.py.)"""
import pytest

from okgin.benches import memory as bm
from okgin.vboard import populate


@pytest.fixture(scope="module")
def flash(tmp_path_factory):
    return populate(str(tmp_path_factory.mktemp("flash")))


def test_a_hand_is_played_and_the_heap_reported(flash):
    ok, mem = bm.try_heap(flash, 256)
    assert ok, mem
    assert int(mem["peak"]) >= int(mem["alloc"]) > 0
    assert int(mem["boot_alloc"]) > 0 and int(mem["free"]) > 0


def test_a_heap_too_small_to_boot_is_a_failure_not_a_hang(flash):
    ok, why = bm.try_heap(flash, 32)
    assert not ok
    assert "did not boot" in why and "MemoryError" in why


def _fake(monkeypatch, passes):
    tried = []

    def try_heap(flash, k, seed=bm.SEED, vs=None, hands=1):
        tried.append((k, seed))
        return passes(k), {}
    monkeypatch.setattr(bm, "try_heap", try_heap)
    return tried


def test_bisection_finds_the_threshold(monkeypatch):
    tried = _fake(monkeypatch, lambda k: k >= 150)
    assert bm.smallest_heap(None) == 152          # 4K steps
    assert len(tried) == len(set(tried))          # no (size, seed) tried twice


def test_a_size_is_enough_only_if_every_seed_completes(monkeypatch):
    tried = []

    def try_heap(flash, k, seed=bm.SEED, vs=None, hands=1):
        tried.append((k, seed))
        return (k >= 150 if seed != bm.SEEDS[-1] else k >= 170), {}
    monkeypatch.setattr(bm, "try_heap", try_heap)
    assert bm.smallest_heap(None) == 172


def test_a_failure_just_above_the_answer_moves_it_up(monkeypatch):
    # 152 passes but 156 does not (fragmentation): the answer is the size
    # from which on everything passed.
    _fake(monkeypatch, lambda k: k >= 152 and k != 156)
    assert bm.smallest_heap(None) == 160


def test_nothing_fits_is_none(monkeypatch):
    _fake(monkeypatch, lambda k: False)
    assert bm.smallest_heap(None) is None
