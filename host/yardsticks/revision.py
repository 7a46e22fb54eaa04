"""An engine level as it was at a git revision: the tournament player
``hard@REV`` (docs/bots.md, "Paired comparisons").

The computer players of ``engine/bots.py`` at revision REV of this
repository (``git show REV:engine/bots.py``), with the engine modules they
import taken from the same revision (``engine/bots_core.py``,
``engine/cards.py``, ...) when REV has them, so ``hard@REV`` decides exactly
as that revision's hard did. The game itself is refereed by today's engine:
a bot sees only the observation, so the two meet through card texts and
action texts, which R14 fixes.

Laptop only, like every yardstick. Each revision is loaded once per
process, as a module of its own: it shares no state with today's
``engine.bots`` (the search keeps its best arrangement in module lists).
"""
import builtins
import subprocess
import sys
import types

from ..lib.paths import CHECKOUT, PACKAGE

ROOT = CHECKOUT or PACKAGE

# full commit id -> the engine modules of that revision loaded, by name
# (one module that failed to load is dropped: the next call tries again)
_MODULES: "dict[str, dict[str, types.ModuleType]]" = {}


def _git(*args: str) -> "subprocess.CompletedProcess[str]":
    if CHECKOUT is None:
        raise ValueError("a revision's players need a git checkout of okgin (this okgin is "
                         "installed in %s)" % PACKAGE)
    try:
        return subprocess.run(["git", "-C", ROOT] + list(args), capture_output=True,
                              text=True, timeout=60)
    except OSError as e:
        raise ValueError("git is needed to load a revision's players: %s" % e) from e


def resolve(rev: str) -> str:
    """The full commit id of ``rev`` (any git revision: HEAD~2, a branch, a
    short id); ValueError with a one-line reason when there is none."""
    if not rev or rev.startswith("-"):
        raise ValueError("no such git revision %r" % rev)
    p = _git("rev-parse", "--verify", "--quiet", rev + "^{commit}")
    if p.returncode != 0:
        if _git("rev-parse", "--git-dir").returncode != 0:
            raise ValueError("%s is not a git checkout: a revision's players need its history"
                             % ROOT)
        raise ValueError("no such git revision %r in %s" % (rev, ROOT))
    return p.stdout.strip()


def _source(commit: str, path: str) -> "str | None":
    p = _git("show", "%s:%s" % (commit, path))
    return p.stdout if p.returncode == 0 else None


def bots_module(commit: str, name: str = "engine.bots") -> types.ModuleType:
    """That revision's ``engine.bots`` (or ``name``, another of its engine
    modules: ``engine.expert``) as a module of its own."""
    loaded = _MODULES.setdefault(commit, {})   # shared by the modules of one revision
    mod = loaded.get(name)
    if mod is not None:
        return mod
    real_import = builtins.__import__

    def load(name: str) -> types.ModuleType:
        # engine.X of the revision; a module the revision lacks is today's
        m = loaded.get(name)
        if m is not None:
            return m
        text = _source(commit, name.replace(".", "/") + ".py")
        if text is None:
            if name in ("engine.bots", "engine.expert"):
                raise ValueError("revision %s has no %s.py" % (commit[:10], name.replace(".", "/")))
            __import__("okgin." + name)   # today's engine is okgin.engine on the host
            return sys.modules["okgin." + name]
        m = types.ModuleType("%s@%s" % (name, commit[:10]))
        m.__file__ = "%s:%s.py" % (commit[:10], name.replace(".", "/"))
        hooked = dict(vars(builtins))
        hooked["__import__"] = rev_import
        m.__dict__["__builtins__"] = hooked
        loaded[name] = m
        try:
            exec(compile(text, m.__file__, "exec"), m.__dict__)
        except BaseException:
            del loaded[name]        # never served half-loaded
            raise
        return m

    def rev_import(name, globals=None, locals=None, fromlist=(), level=0):  # noqa: A002
        # the revision's own engine modules, for "from engine.x import ..."
        # (revisions before the wheel's okgin.engine) and "from .x import ..."
        if level == 0 and name.startswith("engine.") and fromlist:
            return load(name)
        if level == 1 and name and fromlist:
            return load("engine." + name)
        return real_import(name, globals, locals, fromlist, level)

    try:
        mod = load(name)
    except ValueError:
        raise
    except Exception as e:     # noqa: BLE001 (its code does not run with today's engine)
        raise ValueError("the players of revision %s do not load: %s: %s"
                         % (commit[:10], type(e).__name__, e)) from e
    return mod


def player(level: str, commit: str, seed: "int | None" = None):
    """``level``'s player as engine/bots.py had it at ``commit`` (a full
    id from ``resolve``)."""
    if level == "expert":
        # the search level is a module of its own (engine/expert.py)
        return bots_module(commit, "engine.expert").expert(seed)
    mod = bots_module(commit)
    try:
        return mod.bot(level, seed)
    except ValueError as e:
        raise ValueError("revision %s: %s" % (commit[:10], e)) from e
