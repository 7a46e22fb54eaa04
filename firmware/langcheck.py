"""The checks a language's files pass before the table uses them (issue
40: a damaged file stopped the table at power-up, every time). Loaded by
i18n.load and text.load only while a language loads, and dropped after:
none of it is on the heap during play. A file that fails is not used
(i18n.py: English, then the texts built into the firmware)."""


def check(line, k):
    """ValueError unless a key line is sound: an ASCII key, a UTF-8 text
    whose braces are ``{{``, ``}}`` or a placeholder ``{N}`` (N a digit)."""
    for i in range(k):
        if not 32 < line[i] < 127:
            raise ValueError("a key that is not ASCII")
    line[k + 3:].decode()    # UnicodeError (a ValueError) if not UTF-8
    i = k + 3
    n = len(line)
    while i < n:
        b = line[i]
        if b == 123:         # "{"
            if i + 1 < n and line[i + 1] == 123:
                i += 2
                continue
            if not (i + 2 < n and 48 <= line[i + 1] <= 57 and line[i + 2] == 125):
                raise ValueError("a placeholder that is not {0}..{9}")
            i += 3
            continue
        if b == 125:         # "}"
            if not (i + 1 < n and line[i + 1] == 125):
                raise ValueError("a lone }")
            i += 2
            continue
        i += 1


def index(f, _hash, LINE_MAX, SIZE_MAX):
    """(hash << 16 | offset) of every key line of a catalogue (``_hash``,
    ``LINE_MAX``, ``SIZE_MAX``: i18n's), sorted; ValueError naming the line that is not sound (check)."""
    idx = []
    off = 0
    ln = 0
    while True:
        line = f.readline(LINE_MAX + 1)
        if not line:
            break
        ln += 1
        n = len(line)
        if n > LINE_MAX:
            raise ValueError("line %d: over %d bytes" % (ln, LINE_MAX))
        if line[0] != 35:    # "#"
            k = line.find(b" = ")
            if k > 0:
                try:
                    check(line, k)
                except ValueError as e:
                    raise ValueError("line %d: %s" % (ln, e))
                idx.append(_hash(line[:k].decode()) << 16 | off)
        off += n
        if off > SIZE_MAX:
            raise ValueError("catalogue over 64 KB")
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
        last = -1
        for i in range(0, len(t), 2):
            v = t[i] | t[i + 1] << 8
            if v <= last:
                raise ValueError
            last = v
    if narrow[0] != 32 or narrow[188] != 126 or narrow[1] or narrow[189]:
        raise ValueError
    return narrow, wide, note
