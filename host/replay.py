"""``okgin replay``: replay a game record on the virtual board (``--chip``:
on the emulated Pico).

The record is checked with the engine first (a malformed record stops with
one line naming its line). Then, for every position of the game, the position
is saved on the table's flash as ``game.okg`` with the power off
(okgin.table: a host directory, or the chip's flash through its REPL) and the
table is powered on: the real firmware resumes it and draws both panels,
exactly as the table would after a power cut at that moment. Each position's panels are
printed in the terminal (Braille dots from 150 columns, as text below: the
simulator's terminal reader), and saved as PNG with ``--shots``.
"""
import os
import shutil
import sys
import tempfile
import time

from .lib.errors import CommandError



def load_record(path):
    """(the good part's text, its Match, a note or None), read as the table
    reads its saved game at boot (firmware/recover.py): line by line, the
    first damaged, malformed or illegal line ends the good part, which is
    what the table would resume; the note names that line. A record whose
    header is unusable is a CommandError naming the file and line."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise CommandError("cannot read record %s: %s" % (path, e)) from e
    from okgin.engine import Match, Rules
    from okgin.engine.record_read import Reader
    r = Reader("match", Match, Rules)
    lines = data.split(b"\n")
    while lines and not lines[-1].strip():
        lines.pop()
    good = []
    err = None
    for ln, raw in enumerate(lines, 1):
        try:
            r.feed(ln, raw.decode("utf-8"), last=ln == len(lines))
        except UnicodeDecodeError:
            err = "line %d: not text" % ln
            break
        except ValueError as e:      # IllegalAction is one
            err = str(e)
            break
        good.append(raw.decode("utf-8") + "\n")
    if r.game is None:
        raise CommandError("%s: not a valid game record: %s"
                           % (path, err or "line %d: record ends before the 'match' line" % (len(lines) + 1)))
    note = None
    if err is not None:
        note = ("%s; replaying the %d lines before it, as the table resumes this record "
                "(docs/reliability.md)" % (err, len(good)))
    return "".join(good), r.game, note


def positions(text):
    """Every position of the game, in order: [(record prefix, Match)].
    A prefix of a record that the engine accepts is the game up to that
    point, so this needs no knowledge of the record's layout."""
    from okgin.engine import Match
    lines = text.splitlines(True)
    out = []
    last = None
    for i in range(1, len(lines) + 1):
        prefix = "".join(lines[:i])
        try:
            m = Match.from_record(prefix)
        except ValueError:
            continue
        obs = m.observation(0)
        key = (obs.get("hand_no"), len(obs["history"]), obs["phase"])
        if key != last:
            out.append((prefix, m))
            last = key
    return out


def label(match):
    obs = match.observation(0)
    hist = obs["history"]
    what = ("player %s: %s" % tuple(hist[-1].split(" ", 1))) if hist else "deal"
    return "hand %s, %s" % (obs.get("hand_no", "?"), what)


def _panels(vb):
    return [vb.panel_image(0), vb.panel_image(1)]


BRAILLE_MIN = 150    # columns the two Braille panels need side by side


def _show_terminal(panels, out, reader=None):
    """Both panels: Braille dots when the terminal is wide enough for them,
    else as text (the simulator's 80x24 reader: cards, words, the cursor
    in brackets); returns the reader, made once."""
    import shutil
    cols = shutil.get_terminal_size((BRAILLE_MIN, 24)).columns
    if cols >= BRAILLE_MIN:
        from .simui.render import braille_lines, shrink_half
        rows = [braille_lines(shrink_half(p)) for p in panels]
        for a, b in zip(*rows, strict=True):
            out.write(a + "   " + b + "\n")
        return reader
    from .simui import textview
    reader = reader or textview.PanelReader(utf8=(getattr(out, "encoding", None) or "").lower()
                                            .replace("-", "") == "utf8")
    texts = []
    for p, img in enumerate(panels):
        lines = []
        for row in reader.read(img):
            lines.append("".join(("[" + t if inv and (i == 0 or not row[i - 1][1]) else t) +
                                 ("]" if inv and (i + 1 == len(row) or not row[i + 1][1]) else "")
                                 for i, (t, inv) in enumerate(row)).rstrip())
        texts.append(["Player %d" % (p + 1)] + lines)
    width = max(textview.columns(line) for t in texts for line in t)
    if 2 * width + 3 <= cols:       # side by side
        for i in range(max(len(t) for t in texts)):
            a, b = (t[i] if i < len(t) else "" for t in texts)
            out.write(a + " " * (width - textview.columns(a) + 3) + b + "\n")
    else:
        for t in texts:
            for line in t:
                out.write(textview.clip(line, cols) + "\n")
    return reader


def _save_shot(panels, path):
    # host.simui.render needs only PIL, which the panel images already are
    from .simui.render import side_by_side
    side_by_side(panels, scale=2).save(path)


def replay(record_path, shots=None, speed=0.0, pause=0.0, out=sys.stdout, show=True, chip=False,
           board=None):
    text, _final, note = load_record(record_path)
    if note:
        print("okgin replay: %s: %s" % (record_path, note), file=sys.stderr, flush=True)
    steps = positions(text)
    if not steps:
        raise CommandError("%s: the record holds no position to show" % record_path)
    from .table.table import open_table
    if shots:
        os.makedirs(shots, exist_ok=True)
    seat = _final.players[1]
    out.write("%s: %s\n" % (record_path, "two players" if seat == "human" else
                             "against the computer (%s), which plays seat 1" % seat))
    if chip:
        out.write("starting the emulated Pico and flashing it (a minute or more)\n")
        out.flush()
    work = tempfile.mkdtemp(prefix="okgin-replay-")
    written = []
    t = None
    reader = None
    try:
        # the firmware's host hook: the computer (if the record has one)
        # does not move, so each position is shown as saved
        more = {"board": board} if board else {}
        t = open_table("chip" if chip else "vboard", work, "replay", speed=speed,
                       settings={"hold_computer": True}, put={"game.okg": steps[0][0]}, **more)
        t.on()
        for n, (prefix, match) in enumerate(steps):
            if n:
                # the power off, the position saved, the power on: READY
                t.session(put={"game.okg": prefix})
            st = t.status()
            panels = _panels(t.vb)
            out.write("[%d/%d] %s  (screen=%s phase=%s stock=%s vs=%s)\n"
                      % (n + 1, len(steps), label(match), st.get("screen"),
                         st.get("phase"), st.get("stock"), st.get("vs")))
            if show:
                reader = _show_terminal(panels, out, reader)
            if shots:
                path = os.path.join(shots, "%03d.png" % (n + 1))
                _save_shot(panels, path)
                written.append(path)
            out.flush()
            if pause:
                time.sleep(pause)
    finally:
        if t is not None:
            try:
                t.stop()
            except Exception:
                t.cut()
        shutil.rmtree(work, ignore_errors=True)
    return steps, written


def _nonneg(text):
    import argparse
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("not a number: %r" % text) from None
    if not 0 <= v <= 100:
        raise argparse.ArgumentTypeError("must be between 0 and 100")
    return v


def configure(parser):
    parser.add_argument("record", metavar="RECORD", help="a game record (game.okg, or `record` output)")
    parser.add_argument("--shots", metavar="DIR", help="save a PNG of both panels per position")
    from .table import options as table_options
    table_options.add(parser, "speed", "board", "chip", defaults={"speed": 0.0}, help={
        "speed": "e-ink refresh speed of the table: 0 instant (default), 1 real time",
        "board": "board definition of the table (default hardware/board.json, the 4.2in "
                 "table; board-2in9.json: the 2.9in one)",
        "chip": "on the emulated Pico (stock MicroPython rp2, flashed by okgin flash; "
                "each position goes onto its flash through its REPL: slower)"})
    parser.add_argument("--pause", type=_nonneg, default=0.0,
                        help="seconds to stay on each position")
    parser.add_argument("--quiet", action="store_true", help="no panel drawings in the terminal")
    parser.epilog = ("examples:\n  okgin replay game.okg --shots out/\n"
                     "  okgin replay game.okg --pause 1 --speed 1\n"
                     "  okgin replay game.okg --chip --quiet\n")


def run(args):
    from .table import options as table_options
    opts = table_options.resolve(args)
    steps, written = replay(args.record, args.shots, opts.speed or 0.0, args.pause,
                            show=not args.quiet, chip=opts.chip, board=opts.board)
    if args.shots:
        print("%d positions, %d shots in %s" % (len(steps), len(written), args.shots))
    return 0
