"""The fault campaign (docs/reliability.md), as a library; ``okgin faults``
is its command (command.py).

Each row injects one kind of fault into the real firmware, many times, and
sorts every injection into survived, lost (a completed action, a press, a
saved game that is gone), wrong (anything else: a different game, a state
that does not match the record, a card shown outside test mode's own game)
or stuck (a table that stopped answering or stays on an error screen).

- tables.py: the tables under test (okgin.table's Table and ChipTable)
  with the campaign's own knobs: CampaignTable (the virtual board) and
  CampaignChipTable (the emulated Pico); a row is given the class to run on;
- judge.py: the oracle (the engine reads the saved record back, the
  board's public ``status`` must match it) and what each fault may leave;
- play.py: playing the real game with the buttons;
- kinds/: one module per fault kind (its name, goal, sizes, run), found by
  registry.registry() (registry.py, with ``Kind``);
- campaign.py: runs the rows and prints the table; tally.py counts.
"""
