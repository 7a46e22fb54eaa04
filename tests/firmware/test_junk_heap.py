"""Junk on the serial port cannot grow the heap (issue 29, item 4): names a
client makes up are never turned into MicroPython identifiers (interned
strings, which are never freed), so any amount of junk leaves the heap
where it was and the real game playable."""
import random

from okgin.engine import Match


def _alloc(board):
    r = board.ok("mem")
    return int(dict(kv.split("=") for kv in r.split()[1:])["alloc"])


def test_newgame_with_made_up_option_names_leaves_the_heap_flat(board):
    # the reproduction: 400 newgame lines naming options that do
    # not exist took the free heap from 47 KB to 3.8 KB, and the real game
    # was on an error screen after testmode off
    board.ok("testmode on")
    board.ok("newgame seed=5")
    rng = random.Random(29)
    heap = []
    for i in range(440):
        if i % 40 == 0:
            heap.append(_alloc(board))    # after a collection
        name = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz_") for _ in range(12)) + str(i)
        r = board.cmd("newgame seed=%d %s=1" % (i, name))
        assert r.startswith("ERR unknown rules option %r" % name), r
    heap.append(_alloc(board))
    # the first error loads the engine's error texts (engine/explain.py,
    # once); from then on 400 more lines move the heap by less than 2 KB
    assert max(heap[1:]) - heap[1] < 2048, "the heap in use, every 40 lines: %s" % heap
    # test mode's game is the one before the junk, and the board plays on
    assert Match.from_record(board.record()).seed == 5
    assert board.ok("testmode off") == "OK testmode=0"
    assert board.status()["screen"] != "error"
