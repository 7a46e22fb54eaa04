"""Bad input gets ``ERR <reason>`` and never crashes the firmware (protocol.md)."""
import pytest

from okgin.lib import transport


def _alive(board):
    assert board.hello()["proto"] == "1"


@pytest.mark.parametrize("line", [
    "frobnicate",                    # unknown command
    "press",                         # missing arguments
    "testmode maybe",                # wrong argument
    "x" * 500,                       # over-long line (limit 200)
])
def test_bad_requests_get_err_and_board_keeps_answering(board, line):
    with pytest.raises(transport.ProtocolError):
        board.request(line)
    _alive(board)


def test_binary_bytes_get_err(board):
    board.send_raw(b"\xff\xfe\x80hello\x01\x02\n")
    with pytest.raises(transport.ProtocolError):
        board.read_answer("binary")
    _alive(board)


def test_empty_lines_and_noise_do_not_desync_answers(board):
    # Ten requests written at once: exactly ten answers, in order.
    board.send_raw(b"hello\n" * 10)
    for _ in range(10):
        assert "proto=1" in board.read_answer("hello")
    _alive(board)


@pytest.mark.parametrize("line", [
    "press 0 right", "screen 0", "newgame seed=1", "record", "reset", "mem",
])
def test_test_mode_commands_are_locked_outside_test_mode(board, line):
    board.request("testmode off")
    with pytest.raises(transport.ProtocolError) as e:
        board.request(line)
    assert "test mode" in e.value.reason
    _alive(board)


def test_sync_is_public(board):
    board.request("testmode off")
    assert board.sync() == ""          # it tells when the table is idle, nothing else
    _alive(board)


# Each case below needs a board in test mode with a known game: one
# test mode visit serves all the lines of a test (entering it redraws
# both panels, about 5 s of a Pico's time each), and each line must
# leave the record as it was and the board answering.
STRAY = ("reset now", "mem x", "newgame seed=+1", "newgame seed=1_0", "newgame seed=4294967296")
BAD_IN_TEST_MODE = ("press 2 left", "press 0 jump", "press 0 ok sideways", "screen 5",
                    "newgame seed=abc", "newgame vs=grandmaster seed=1")


def _each_gets_err(testboard, lines):
    for line in lines:
        before = testboard.record()
        try:
            testboard.request(line)
        except transport.ProtocolError:
            pass
        else:
            pytest.fail("%r was answered OK, not ERR" % line)
        # the game in progress is untouched
        assert testboard.record() == before, line
        _alive(testboard)


def test_stray_arguments_and_odd_seeds_get_err(testboard):
    _each_gets_err(testboard, STRAY)


def test_bad_arguments_in_test_mode_get_err(testboard):
    _each_gets_err(testboard, BAD_IN_TEST_MODE)
