"""The checks a language's files pass before the table uses them (issue
40: a damaged file stopped the table at power-up, every time). Loaded by
i18n.load and text.load only while a language loads, and dropped after:
none of it is on the heap during play. A file that fails is not used
(i18n.py: English, then the texts built into the firmware).

They run at every power-on, so the catalogue is read in blocks and each
line is checked by the C code of bytes' find, min and max and of one decode
per block, not byte by byte in Python: English's 14 KB took 360 ms
of an RP2040's boot that way, ~60 ms this way (docs/emulated-pico.md,
"Boot"). Same checks, same damage caught (tests/app/test_lang_damage.py)."""

BLOCK = 2048    # bytes read at a time: over i18n's LINE_MAX, so a whole line fits


def check(key, d, i, e, utf=False):
    """ValueError unless a key line is sound: ``key`` ASCII (33..126: no
    space), its text ``d[i:e]`` UTF-8 (``utf``: known to be already) with
    braces that are ``{{``, ``}}`` or a placeholder ``{N}`` (N a digit)."""
    if min(key) < 33 or max(key) > 126:
        raise ValueError("a key that is not ASCII")
    if not utf:
        d[i:e].decode()      # UnicodeError (a ValueError) if not UTF-8
    while True:
        # from one brace to the next: the text between is not looked at
        a = d.find(b"{", i, e)
        b = d.find(b"}", i, e)
        if b >= 0 and (a < 0 or b < a):
            if b + 1 < e and d[b + 1] == 125:    # "}}"
                i = b + 2
                continue
            raise ValueError("a lone }")
        if a < 0:
            return
        if a + 1 < e and d[a + 1] == 123:        # "{{"
            i = a + 2
        elif a + 2 < e and 48 <= d[a + 1] <= 57 and d[a + 2] == 125:
            i = a + 3
        else:
            raise ValueError("a placeholder that is not {0}..{9}")


def index(f, _hash, LINE_MAX, SIZE_MAX):
    """(hash << 16 | offset) of every key line of a catalogue (``_hash``,
    ``LINE_MAX``, ``SIZE_MAX``: i18n's), sorted; ValueError naming the
    line that is not sound (check), over LINE_MAX bytes, or past SIZE_MAX.
    What it reads is garbage once the index is made: no collection while
    it works (main.py's threshold would make one every 4 KB read)."""
    import gc
    th = gc.threshold()
    gc.threshold(-1)
    try:
        return _index(f, _hash, LINE_MAX, SIZE_MAX)
    finally:
        gc.threshold(th)


def _index(f, _hash, LINE_MAX, SIZE_MAX):
    idx = []
    base = 0        # the file's offset of d[0]
    ln = 0          # lines before d
    while True:
        d = f.read(BLOCK)
        n = len(d)
        if not n:
            break
        # whole lines only; a line the block cuts is read again with the
        # next block (a shorter read is the end of the file: its last line
        # may have no newline, as a file cut short does)
        end = d.rfind(b"\n") + 1 if n == BLOCK else n
        if not end:          # a whole block without a newline
            raise ValueError("line %d: over %d bytes" % (ln + 1, LINE_MAX))
        try:
            d[:end].decode()
            utf = True       # every line is UTF-8: not decoded one by one
        except ValueError:
            utf = False      # check decodes each text: the one at fault says so
        i = 0
        while i < end:
            e = d.find(b"\n", i, end) + 1 or end
            ln += 1
            if e - i > LINE_MAX:
                raise ValueError("line %d: over %d bytes" % (ln, LINE_MAX))
            if d[i] != 35:   # "#"
                k = d.find(b" = ", i, e)
                if k > i:
                    key = d[i:k]
                    # most lines have no brace: sound without a call
                    if not utf or min(key) < 33 or max(key) > 126 or d.find(b"{", k, e) >= 0 \
                            or d.find(b"}", k, e) >= 0:
                        try:
                            check(key, d, k + 3, e, utf)
                        except ValueError as x:
                            raise ValueError("line %d: %s" % (ln, x))
                    idx.append(_hash(key) << 16 | (base + i))
            i = e
            if base + i > SIZE_MAX:
                raise ValueError("catalogue over 64 KB")
        if n < BLOCK:
            break
        base += end
        f.seek(base)
    idx.sort()
    return idx


def glyphs(f, size, H):
    """(narrow, wide, note length) of a glyph file (``H``: text.py's line
    height) that passes its checks
    (issue 40: a file cut short or with damaged counts stopped the table at
    power-up): the header, a size that is exactly what the counts say,
    printable ASCII as the first 95 narrow glyphs, code points ascending.
    Raises (anything) otherwise; the caller names the file."""
    head = f.read(12)
    if len(head) != 12 or head[:4] != b"OKGF" or head[4] != 2 or head[5] != H:
        raise ValueError
    nn = head[6] | head[7] << 8
    nw = head[8] | head[9] << 8
    note = head[10] | head[11] << 8
    if nn < 95 or size != 12 + note + 18 * nn + 34 * nw:
        raise ValueError
    f.seek(12 + note)
    narrow = f.read(2 * nn)
    wide = f.read(2 * nw)
    for t in (narrow, wide):
        # ascending, each once, pair by pair: no list and set of the code
        # points, whose ~4 KB set a heap cut up by play could not always
        # give (a serial `lang ko` at the deal then fell back to English,
        # 7 times in 76 sims on a loaded host; this loop: ~340 turns)
        prev = -1
        for i in range(0, len(t), 2):
            v = t[i] | t[i + 1] << 8
            if v <= prev:
                raise ValueError
            prev = v
    if narrow[0] != 32 or narrow[188] != 126 or narrow[1] or narrow[189]:
        raise ValueError
    return narrow, wide, note
