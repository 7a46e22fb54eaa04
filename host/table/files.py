"""The files on a table's flash, behind one small interface with two kinds
(after labgrid's FileSystemProtocol): ``DirFiles``, the virtual board's
flash, a host directory; ``ReplFiles``, a board's flash through its raw
REPL (okgin.table.repl: the emulated Pico's, a real Pico's).

Both offer ``visit`` (several operations at once: on a REPL that is one
script, one visit to the board), and ``read``, ``digest``, ``put``,
``remove`` and ``tree`` one at a time. Names are paths from the flash's
root ("game.okg", "lang/ko.txt"). The power is the table's business: a
table looks at its files with the firmware stopped (okgin.table.table).
"""
import hashlib
import os
from typing import Any, Optional, Protocol

from ..lib.firmware_files import FRESH_START


class Files(Protocol):
    def visit(self, read=(), digest=(), put: "Optional[dict]" = None, remove=(),
              tree: bool = False) -> "dict[Any, Any]":
        """The reads first ({name: bytes, or None}), the digests ({name:
        (SHA-256 hex, size), or None}), the tree ({None: {path: SHA-256
        hex}} of every file but .staging/'s), then the removals, then the
        writes (each atomic: a temporary file, then a rename)."""

    def read(self, name: str) -> "Optional[bytes]": ...

    def digest(self, name: str) -> "Optional[tuple[str, int]]": ...

    def put(self, name: str, data: "bytes | str") -> None: ...

    def remove(self, name: str) -> None: ...

    def tree(self) -> "dict[str, str]": ...


class FilesBase:
    """read/digest/put/remove/tree as visits of one operation."""

    def visit(self, read=(), digest=(), put=None, remove=(), tree=False):
        raise NotImplementedError

    def read(self, name):
        return self.visit(read=[name])[name]

    def digest(self, name):
        return self.visit(digest=[name])[name]

    def put(self, name, data):
        self.visit(put={name: data})

    def remove(self, name):
        self.visit(remove=[name])

    def tree(self):
        return self.visit(tree=True)[None]


class DirFiles(FilesBase):
    """A flash that is a host directory (the virtual board's)."""

    def __init__(self, root):
        self.root = str(root)

    def path(self, name):
        return os.path.join(self.root, name)

    def _read(self, name):
        try:
            with open(self.path(name), "rb") as f:
                return f.read()
        except OSError:
            return None

    def visit(self, read=(), digest=(), put=None, remove=(), tree=False):
        out: "dict[Any, Any]" = {}
        for name in read:
            out[name] = self._read(name)
        for name in digest:
            data = self._read(name)
            out[name] = None if data is None else (hashlib.sha256(data).hexdigest(), len(data))
        if tree:
            found = {}
            for dirpath, dirnames, filenames in os.walk(self.root):
                dirnames[:] = [d for d in dirnames if d != ".staging"]
                for fn in filenames:
                    p = os.path.join(dirpath, fn)
                    with open(p, "rb") as f:
                        found[os.path.relpath(p, self.root)] = hashlib.sha256(f.read()).hexdigest()
            out[None] = found
        for name in remove:
            try:
                os.remove(self.path(name))
            except OSError:
                pass
        for name, data in (put or {}).items():
            if isinstance(data, str):
                data = data.encode()
            tmp = self.path(name) + ".put-tmp"
            with open(tmp, "wb") as f:
                f.write(data)
            os.replace(tmp, self.path(name))
        return out


class ReplFiles(FilesBase):
    """A board's flash through its raw REPL (an entered okgin.table.repl.Repl)."""

    def __init__(self, repl, timeout=600):
        self.repl = repl
        self.timeout = timeout

    def visit(self, read=(), digest=(), put=None, remove=(), tree=False):
        return self.repl.visit(read, digest, put, remove, tree, timeout=self.timeout)


def forget_saved_state(files):
    """--fresh: remove the saved game and the settings (FRESH_START), never
    anything else (a mistyped --flash-dir must not cost the user a
    directory). Returns the names removed."""
    there = files.visit(digest=FRESH_START)
    removed = [name for name in FRESH_START if there[name] is not None]
    files.visit(remove=removed)
    return removed
