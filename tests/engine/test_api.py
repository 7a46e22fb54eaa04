"""The engine's declared API matches what it does: engine/views.pyi's
TypedDicts name exactly the keys the observations and results carry, its
Literal types exactly the values they take, and every name the package
declares public (its __all__, read as type checkers read it) exists."""
import ast
import os

import okgin.engine as engine
from okgin.engine import Hand, Match, Rules
from okgin.engine.hand import PHASE_NAMES

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _stub():
    with open(os.path.join(ROOT, "engine", "views.pyi")) as f:
        return ast.parse(f.read())


def _typeddicts():
    """{class name: {key: annotation text}}, inherited keys included."""
    out = {}
    for node in _stub().body:
        if isinstance(node, ast.ClassDef):
            keys = {}
            for base in node.bases:
                if isinstance(base, ast.Name) and base.id in out:
                    keys.update(out[base.id])
            for st in node.body:
                if isinstance(st, ast.AnnAssign):
                    keys[st.target.id] = ast.unparse(st.annotation)
            out[node.name] = keys
    return out


def _literal(name):
    for node in _stub().body:
        if isinstance(node, ast.Assign) and node.targets[0].id == name:
            return tuple(ast.literal_eval(e) for e in node.value.slice.elts)
    raise AssertionError("no %s in engine/views.pyi" % name)


def _finished_match():
    m = Match(Rules(target=30, max_turns=40), seed=3)
    lasts = []
    while m.winner is None:
        legal = m.hand.legal_actions()
        knocks = [a for a in legal if a.startswith("knock")]
        m.play((knocks or legal)[0])    # knock when allowed: hands end in a score
        lasts.append(m.observation(0)["last_result"])
    return m, [r for r in lasts if r is not None]


def test_observation_keys_are_the_typeddicts():
    td = _typeddicts()
    h = Hand.deal(Rules(), dealer=0, seed=5)
    assert set(h.observation(0)) == set(td["Observation"])
    m = Match(Rules(), seed=5)
    assert set(m.observation(1)) == set(td["MatchObservation"])
    assert set(td["MatchObservation"]) > set(td["Observation"])


def test_result_keys_and_kinds_are_the_typeddict_and_literal():
    td = _typeddicts()
    m, results = _finished_match()
    assert results and all(set(r) == set(td["ResultView"]) for r in results)
    kinds = _literal("ResultKind")
    assert {r["kind"] for r in results} <= set(kinds)
    assert set(kinds) == {"knock", "gin", "undercut", "draw"}   # R9-R11


def test_phases_are_the_literal():
    assert _literal("Phase") == PHASE_NAMES


def test_every_public_name_exists():
    # __all__ is declared for type checkers only (engine/__init__.py says
    # why): read it from the source as they do.
    with open(os.path.join(ROOT, "engine", "__init__.py")) as f:
        tree = ast.parse(f.read())
    names = None
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "__all__":
            names = ast.literal_eval(node.value)
    assert names and len(set(names)) == len(names)
    for name in names:
        assert getattr(engine, name) is not None, name
