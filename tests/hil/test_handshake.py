"""The board introduces itself as protocol.md says (hello, status, test mode)."""
import json

from okgin.lib.paths import BOARD
PHASES = {"upcard", "draw", "discard", "over"}
SCREENS = {"menu", "game", "showdown", "over", "scorepad", "error"}


def test_hello_names_firmware_protocol_and_board(board):
    hello = board.hello()
    assert hello.get("okgin") == ""            # first word of the answer
    assert hello["proto"] == "1"
    assert hello["fw"].count(".") == 2
    with open(BOARD) as f:
        assert hello["board"] == json.load(f)["name"]
    assert int(hello["mpy"]) & 0xFF == 6        # .mpy v6: MicroPython >= 1.19


def test_status_reports_public_state_only(board):
    st = board.status()
    for key in ("screen", "hand_no", "dealer", "to_move", "phase", "stock",
                "discard", "knock_limit", "scores", "vs", "testmode"):
        assert key in st, key
    assert st["screen"] in SCREENS
    assert st["vs"] in ("human", "easy", "normal", "hard")
    assert st["testmode"] in ("0", "1")
    # no card of a hand ever appears in status: only the discard top may
    words = board.request("status").split()
    assert not [w for w in words if w.startswith(("hand=", "cards="))]


def test_stats_answers_without_test_mode(board):
    """The table's statistics are not secret (docs/protocol.md): one JSON
    line, read the way `okgin stats` reads it."""
    from okgin.stats import read_stats
    board.request("testmode off")
    d = read_stats(board)
    assert isinstance(d["games"], int) and set(d["by"]) >= {"human", "easy", "normal", "hard"}
    for c in d["by"].values():
        assert all(len(c[k]) == 2 for k in ("games", "hands", "gins", "undercuts", "best_streak"))


def test_testmode_switches_on_and_off(board):
    assert board.request("testmode on") == "testmode=1"
    assert board.status()["testmode"] == "1"
    assert board.request("testmode off") == "testmode=0"
    assert board.status()["testmode"] == "0"


def test_requests_are_case_insensitive_and_accept_crlf(board):
    board.send_raw(b"HELLO\r\n")
    assert "proto=1" in board.read_answer("HELLO")
