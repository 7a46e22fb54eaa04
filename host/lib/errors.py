"""How a command stops: the one exception it raises to stop with a message
and no traceback, and the guard that ends it cleanly when its reader goes."""
import functools
import os
import sys


class CommandError(Exception):
    """Printed as ``okgin: <message>``; the command exits with status 1."""


def stdout_guarded(main):
    """``main`` with its output flushed inside the guard: a reader that went
    away (``okgin tourney ... | head``) ends it quietly with status 141, as a
    shell tool killed by SIGPIPE reports, whatever it was doing (its help, a
    command, an error). A user's stdout is block-buffered, so the output
    mostly reaches the pipe only at the interpreter's last flush, outside
    any guard ("Exception ignored ... BrokenPipeError", status 120): flushing
    here, before ``main`` returns or exits, keeps that write inside."""
    @functools.wraps(main)
    def guarded(*args, **kwargs):
        try:
            try:
                return main(*args, **kwargs)
            finally:
                sys.stdout.flush()
        except BrokenPipeError:
            # stdout goes nowhere, so the interpreter's last flush cannot fail
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            return 141
    return guarded
