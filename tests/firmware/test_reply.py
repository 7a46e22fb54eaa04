"""The computer's reply (issue 41): its whole turn is saved in one write
and shown in one update, while the player's own move is on the ink, and no
move of the computer reaches the ink before it is in game.okg
(docs/reliability.md: every action is saved before anything shows it).

The real game (not test mode's), started from the menu against hard and
played with the buttons; the virtual board's flash directory is read at
each refresh of the player's panel, as the refresh starts."""
from tests.support.real_game import boot, new_real_game, saved

from okgin.benches.board import _choose
from okgin.engine import Match, deadwood
from okgin.lib.presses import Presses


def _saved_actions(flash):
    try:
        return len(Match.from_record(saved(flash).decode(), recover=True)._actions)
    except (OSError, ValueError):
        return -1


def test_the_computers_reply_reaches_the_ink_only_once_saved(flash):
    b = boot(flash)
    shown = []      # (panel 0's ink, actions in game.okg) as each of its refreshes starts

    def on_event(ev):
        if ev[0] == "refresh" and ev[1] == 0:
            shown.append((bytes(b.vb.pins.panels[0].ink), _saved_actions(flash)))

    try:
        m = new_real_game(b, flash, row=3)        # against hard
        assert m.players == ("human", "hard")
        b.vb.on_event = on_event
        keys = Presses()
        replies = 0
        while replies < 10 and m.winner is None:
            hand_no = m.hand_no
            obs = m.observation(0)
            assert obs["to_move"] == 0
            act = _choose(obs, deadwood)
            buttons = keys.for_action(0, act, obs["hand"])
            for button in buttons[:-1]:
                b.vb.press(0, button)
                b.ok("sync")
            del shown[:]
            b.vb.press(0, buttons[-1])
            b.ok("sync")                 # the computer has played, the panels settled
            before = obs["hand"]
            was = len(m._actions)
            m = Match.from_record(saved(flash).decode())
            if m.winner is not None:
                break                    # the game is won: its record is put away with it
            if m.hand_no != hand_no:
                b.vb.press(0, "ok")      # the showdown: on to the next deal
                b.ok("sync")
                keys.reset()
                m = Match.from_record(saved(flash).decode())
                continue
            keys.played(0, before, m.observation(0)["hand"])
            if len(m._actions) <= was + 1:
                continue                 # the player's draw: still their turn
            replies += 1
            final = bytes(b.vb.pins.panels[0].ink)
            n = len(m._actions)
            at = [k for ink, k in shown if ink == final]
            assert at, "no refresh of the player's panel showed the computer's reply"
            assert min(at) >= n, ("the computer's reply reached the ink with %d of its %d "
                                  "actions in game.okg" % (min(at), n))
            # the player's own move, then the reply: never its draw alone
            inks = [ink for ink, _k in shown]
            first = inks.index(final)
            assert first <= 1, ("%d updates before the reply's (each update: the actions then in "
                                "game.okg, and whether it showed the same picture as the one before: %s)"
                                % (first, [(k, i > 0 and inks[i] == inks[i - 1])
                                           for i, (_ink, k) in enumerate(shown)]))
        assert replies >= 5
    finally:
        b.stop()
