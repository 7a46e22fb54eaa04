"""What today's printable case is expected to fail, for every test that
builds it (tests/hardware, tests/install): the checks `okgin hardware
build` reports failed on the committed layout.

Today's 2.9" table is too small to read from the chair (issue 36): its
legibility check fails and every other passes. The day the new table
lands, FAILING_TODAY becomes () and those tests require every check to
pass (docs/legibility.md)."""

FAILING_TODAY = ("legibility",)
