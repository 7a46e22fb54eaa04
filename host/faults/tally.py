"""What a row counts: every injection survived, lost or wrong (with a note
per case), and the Markdown table docs/reliability.md shows."""


class Row:
    """Tally of one row. ``lost``/``wrong``/``stuck`` keep a note per case
    (the first few are printed), so a failure says what happened."""

    def __init__(self, name):
        self.name = name
        self.injected = 0
        self.survived = 0
        self.lost = 0
        self.wrong = 0
        self.stuck = 0          # the table stopped answering, or kept an error screen
        self.notes = []
        self.info = []          # figures for the report (not failures)
        self.seconds = 0.0
        self.deals = 0          # the shuffle row's
        self.broken = None      # the harness's error when the row stopped early

    def ok(self):
        self.injected += 1
        self.survived += 1

    def bad(self, kind, note):
        self.injected += 1
        if kind == "lost":
            self.lost += 1
        elif kind == "stuck":
            self.stuck += 1
        else:
            self.wrong += 1
        self.notes.append("%s: %s" % (kind, note))

    def bad_many(self, kind, count, note):
        """``count`` inputs of one kind that failed alike: one note."""
        for _ in range(count):
            self.bad(kind, note)
        del self.notes[len(self.notes) - count + 1:]

    def passed(self):
        """Every case survived, there was at least one, and the row ran to
        its end (a row stopped by its own harness proves nothing more)."""
        return (self.lost == 0 and self.wrong == 0 and self.stuck == 0 and self.injected > 0
                and self.broken is None)


def table(rows, target="virtual board"):
    """The Markdown table docs/reliability.md shows: per row and, last,
    the whole table (stuck: a table that stopped answering or stayed on an
    error screen; counted within wrong, shown on its own)."""
    out = ["| row (%s) | injected | survived | lost | wrong | stuck |" % target,
           "|---|---:|---:|---:|---:|---:|"]
    tot = [0, 0, 0, 0, 0]
    for r in rows:
        label = r.name
        if r.name == "shuffle":
            label = "shuffle (%d deals; per card position)" % r.deals
        elif r.name in ("serial", "heap"):
            label = "%s (inputs)" % r.name
        if r.broken is not None:
            label += " (stopped early: the harness failed)"
        cells = [r.injected, r.survived, r.lost, r.wrong, r.stuck]
        out.append("| %s | %s |" % (label, " | ".join(str(c) for c in cells)))
        tot = [a + b for a, b in zip(tot, cells, strict=True)]
    out.append("| **all rows** | %s |" % " | ".join(str(c) for c in tot))
    return "\n".join(out)
