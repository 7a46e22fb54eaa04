"""The one exception a command raises to stop with a message and no traceback."""


class CommandError(Exception):
    """Printed as ``okgin: <message>``; the command exits with status 1."""
