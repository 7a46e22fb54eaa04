"""The oracle: the engine reads a saved record back (Match.from_record) and
the board's public ``status`` must match it; what a power cut or damage
may leave, and what is lost or wrong."""
import itertools


def public(m):
    """What ``status`` says of match ``m`` (public fields)."""
    if m is None:
        return {}
    o = m.observation(0)
    return {
        "hand_no": str(o["hand_no"]), "dealer": str(o["dealer"]),
        "to_move": "-" if o["to_move"] is None else str(o["to_move"]),
        "phase": o["phase"], "stock": str(o["stock_count"]),
        "discard": o["discard_top"] or "-", "knock_limit": str(o["knock_limit"]),
        "scores": "%d,%d" % tuple(o["scores"]),
    }


def parse(rec):
    """The match a saved record holds, or None if it is not one."""
    from okgin.engine import Match
    if rec is None:
        return None
    try:
        return Match.from_record(rec.decode("utf-8"))
    except (ValueError, UnicodeError):
        return None


def agrees(t, m):
    """'' if the board's status matches match ``m`` (its game, its seats),
    else what differs."""
    return status_agrees(t.status(), m)


def status_agrees(st, m):
    if m is None:
        return "" if st["screen"] == "menu" else "status %s, no saved game" % st["screen"]
    if st["screen"] == "error":
        return "the error screen"
    want = public(m)
    diff = ["%s=%s (record: %s)" % (k, st.get(k), v) for k, v in want.items() if st.get(k) != v]
    seat = m.players[1]
    if st.get("vs") != seat:
        diff.append("vs=%s (record: %s)" % (st.get("vs"), seat))
    return ", ".join(diff)


def changed(saved, real):
    """Why the saved game is not ``real`` (both bytes), or "" if it is: the
    first line that differs, so a failure says what moved (a cursor, an
    action, a cut)."""
    if saved == real:
        return ""
    if saved is None:
        return "the saved game is gone"
    for i, (x, y) in enumerate(itertools.zip_longest(real.splitlines(), saved.splitlines()), 1):
        if x != y:
            return "the saved game changed: line %d %r became %r" % (i, x, y)
    return "the saved game changed (its line ends)"


def ladder(r, what, *steps):
    """One case's verdict on row ``r``: the first of ``steps`` that holds,
    each (verdict, why) with a ``why`` that is empty or false when it does
    not hold (the order is the row's: what matters most first, e.g. lost,
    then stuck, then wrong); none holds: survived. Returns the verdict."""
    for verdict, why in steps:
        if why:
            r.bad(verdict, "%s: %s" % (what, why))
            return verdict
    r.ok()
    return "ok"


def action_of(line):
    """(player, action) of a saved record's action line "N P action
    [deal=KEY] ;SEAL": the deal key an action that deals the next hand
    carries (engine/record.py) is not part of the action."""
    body = line.rsplit(" ;", 1)[0]
    i = body.find(" deal=")
    if i >= 0:
        body = body[:i]
    w = body.split(" ", 2)
    return w[1], w[2] if len(w) > 2 else ""


def judge_power(before, after, expect):
    """("ok"|"lost"|"wrong", why) for a power cut."""
    if after is None:
        return "lost", "no saved game after the boot"
    ma = parse(after)
    if ma is None:
        return "wrong", "the saved game does not read: %r" % after[:80]
    if after == before:
        return "ok", ""
    if expect[0] == "newgame":
        # a whole new game (its status must match its own seats, checked by
        # the caller), never the old deal with another opponent; which
        # opponent the menu presses chose is the buttons row's business
        mb = parse(before)
        if mb is not None and ma.seed == mb.seed:
            return "wrong", "the old deal with other seats or rules (%s)" % (ma.players,)
        if ma.players[1] != expect[1]:
            return "ok", "menu: %s chosen, %s started" % (expect[1], ma.players[1])
        return "ok", ""
    if after.startswith(before):
        added = after[len(before):].decode().splitlines()
        mb = parse(before)
        # the first new line is the action started, the rest the computer's
        if action_of(added[0]) != (str(expect[2]), expect[1]):
            return "wrong", "saved %r, the press was %s %s" % (added[0], expect[2], expect[1])
        for ln in added[1:]:
            if ln.split(" ")[1] != "1" or mb.players[1] == "human":
                return "wrong", "an extra action %r" % ln
        return "ok", ""
    if before.startswith(after):
        return "lost", "%d completed action(s) gone" % (
            before.count(b"\n") - after.count(b"\n"))
    return "wrong", "the saved game is another one"


def good_prefix(orig, damaged):
    """The lines of ``orig`` before the first line ``damaged`` changed:
    what must survive. A last line that lost only its newline is whole
    (its check says so): the board keeps it and adds the newline."""
    a = orig.split(b"\n")[:-1]          # orig ends with "\n"
    b = damaged.split(b"\n")
    keep = []
    for i, line in enumerate(a):
        if i < len(b) and a[i] == b[i] and (i + 1 < len(b) or line):
            keep.append(line)
        else:
            break
    return b"".join(x + b"\n" for x in keep)


def judge_damage(st, saved, bad, base, data, good):
    """``st``: the board's status after the boot; ``saved``: game.okg then;
    ``bad``: game.bad's (SHA-256 hex, size) or None."""
    import hashlib
    kept = bad == (hashlib.sha256(data).hexdigest(), len(data))
    m_good = parse(good) if good.count(b"\n") >= 3 else None
    if m_good is None:
        # the header is damaged: nothing to resume, the file kept as game.bad
        if saved is not None and parse(saved) is not None:
            return "wrong", "a game was resumed from a damaged header (%d lines)" % saved.count(b"\n")
        if data and not kept:
            return "lost", "the damaged file was not kept as game.bad"
        why = status_agrees(st, None)
        return ("ok", "") if not why else ("wrong", why)
    if saved is None:
        return "lost", "no saved game (the good part has %d lines)" % good.count(b"\n")
    m = parse(saved)
    if m is None:
        return "wrong", "the saved game does not read"
    if not saved.startswith(good):
        if good.startswith(saved):
            return "lost", "%d good line(s) dropped" % (good.count(b"\n") - saved.count(b"\n"))
        return "wrong", "the saved game is not the good part of the damaged one"
    # after the good part, only the computer's moves (it plays on at once)
    for ln in saved[len(good):].decode().splitlines():
        if m.players[1] == "human" or ln.split(" ")[1] != "1":
            return "wrong", "resumed %r past the good part" % ln
    if data != good and data != good[:-1] and not kept:
        return "lost", "the damaged file was not kept as game.bad"
    why = status_agrees(st, m)
    return ("ok", "") if not why else ("wrong", why)


def actions_since(m, m2):
    """The actions m2 has after m's (as '<player> <action>')."""
    from okgin.engine.hand import action_str
    return ["%d %s" % (a >> 7, action_str(a & 127)) for a in m2._actions[len(m._actions):]]


def expected_answers(data, max_line=200):
    """How many answer lines the protocol owes for ``data`` (docs/protocol.md:
    one per line that is not empty or blank)."""
    n = 0
    for seg in data.split(b"\n")[:-1]:
        if seg.endswith(b"\r"):
            seg = seg[:-1]
        if len(seg) > max_line:
            n += 1
        elif seg and any(c > 126 or (c < 32 and c != 9) for c in seg):
            n += 1
        elif seg.strip(b" \t"):
            n += 1
    return n


def answers(t, count, timeout=60):
    """Up to ``count`` answer lines (OK/ERR...), skipping nothing else."""
    out: "list[str]" = []
    clock = t.b.clock           # the chip's own time on the emulated Pico
    deadline = clock() + timeout
    while len(out) < count and clock() < deadline:
        line = t.b.read_line(max(0.05, deadline - clock()))
        if line is None:
            break
        out.append(line)
    return out
