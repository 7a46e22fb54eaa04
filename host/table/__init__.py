"""The table under test: a started board (the virtual board or the emulated
Pico), its serial client, its flash as files and its power, built in one
place for every command, bench, campaign and test that drives one.

- ``boards``: what both emulated boards offer (``EmulatedBoard``) and their
  factory (``make_board``, ``start_board``);
- ``flashing``: okgin flash's build and its transaction on a board;
- ``session``: the simulator's session on a board (okgin sim, okgin stats).

It stands above the boards (okgin.vboard, okgin.chip) and the leaves
(okgin.lib), and below the commands, front ends, benches and the fault
campaign, none of which it imports (tests/test_import_cycles.py)."""
