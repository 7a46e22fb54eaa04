"""Deals from a wide key (issue 40): a table's real game deals every
hand from fresh entropy (engine/match.py Match(entropy=...)). Loaded for a
deal and dropped after it (Match._deal): a seeded game
never has it on the heap, a table's only while it deals."""
if 0:  # for type checkers only (engine/views.pyi): mpy-cross compiles none of it
    from typing import Any


def deal(cls, rules, dealer, m):
    """Match m's next hand (a Hand of class ``cls``): from the key its
    record named (m._next), else from m.entropy(16); the key goes into
    m._deals, which the record writes."""
    k = m._next
    m._next = None
    if k is None:
        if m.entropy is None:
            raise ValueError("hand %d has no deal (deal=) and no entropy to deal it"
                             % m.hand_no)
        k = bytes(m.entropy(16))
        if len(k) != 16:
            raise ValueError("entropy gave %d bytes, not 16" % len(k))
    deck = bytearray(range(52))
    shuffle_key(deck, k)
    m._deals.append((len(m._actions), k))
    return cls(rules, dealer, deck)


def shuffle_key(items: "bytearray | list[Any]", key: bytes) -> None:
    """Fisher-Yates in place, driven by a wide key (bytes, 8 to 32 of
    them: a table's fresh entropy, docs/reliability.md "Deals"). The draws
    are the bytes of SHA-256(key + block number), one byte per draw with
    the bytes that would bias it skipped: uniform if the key is, and no
    key of fewer bits than it has gives the same deal. No int here grows
    past 2**16 (small ints on a 32-bit board); hashlib.sha256 is in every
    MicroPython this table runs on (rp2, unix, the web page's
    WebAssembly port)."""
    from hashlib import sha256
    if type(key) is not bytes or not 8 <= len(key) <= 32:
        raise ValueError("a deal key is 8 to 32 bytes")
    block = b""
    k = 0          # next byte of block
    n = 0          # blocks made
    i = len(items) - 1
    while i > 0:
        m = i + 1
        lim = 256 - 256 % m     # bytes at or above lim would favour low j
        while True:
            if k == len(block):
                block = sha256(key + bytes((n & 255, n >> 8))).digest()
                n += 1
                k = 0
            b = block[k]
            k += 1
            if b < lim:
                break
        j = b % m
        items[i], items[j] = items[j], items[i]
        i -= 1
