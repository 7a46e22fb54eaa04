"""Texts that agree (issue 37; docs/glossary.md "Verbs after a name"):
every template of every catalogue filled the way the firmware fills it,
with each subject its name field can get ("you", the other player, the
computer, the human beside the computer) and with the numbers 1, 2, 5, 10,
11, 21 and 100 in its number fields, must match no form its catalogue
marks wrong ("#! wrong", host/lib/lang.py marks). A text whose name field
can be "you" has a _you form (end.win_you) or is declared a label form
that fits every subject ("#! any-subject" in en.txt); the coach's review
says what was played in its own words (coach.did.*), never with the
imperative buttons of its advice (coach.do.*)."""
import pytest

from okgin.lib import lang

CODES = lang.codes()
NUMBERS = (1, 2, 5, 10, 11, 21, 100)
CARD = "10\u2665"

# The texts the firmware fills with a player's name: field -> who can be
# named there (app.name and stats._name: the viewer is "you"; the other
# seat is P2 between two people, the computer or, on the computer's own
# panel, the human). Read from turn.py, endview.py, padview.py, statsview.py,
# i18n.why and recover.py.
ANY = ("you", "other", "cpu", "human")
THEM = ("other", "cpu", "human")
NAMED = {
    "turn.head": {1: ("you", "cpu"), 3: THEM},
    "turn.head_short": {1: ("you", "cpu"), 3: THEM},
    "turn.waiting": {0: THEM},
    "turn.last": {0: THEM},
    "turn.last_short": {0: THEM},
    "msg.wait": {0: THEM},
    "why.turn": {0: THEM},
    "end.score": {0: ANY, 2: THEM},
    "end.row": {0: ANY},
    "end.row_knocked": {0: ANY},
    "end.row_layoff": {0: ANY},
    "end.win": {0: THEM},
    "end.game": {0: THEM},
    "end.match": {0: THEM},
    # the short forms of a narrow panel (the 4.2"'s 200 logical px): the
    # reader's own seat keeps its _you form, or takes a label form
    "end.row_knocked_short": {0: THEM},
    "end.win_short": {0: ANY},
    "end.game_short": {0: THEM},
    "end.match_short": {0: THEM},
    "pad.title_hw_short": {0: THEM},
    "stats.last_game_short": {1: THEM},
    "pad.title": {0: THEM},
    "pad.title_hw": {0: THEM},
    "stats.biggest": {1: ANY},
    "stats.last_game": {1: ANY},
    "panel.title": {0: ("other",)},
    # the _you twins the firmware picks for the reader's own seat, with the
    # fields it passes (end.win_you and the older twins take no name)
    "end.row_knocked_you": {0: ("you",)},
    "end.row_layoff_you": {0: ("you",)},
    "stats.last_game_you": {1: ("you",)},
    "stats.last_game_short_you": {1: ("you",)},
}
# the fields that take a level or "2 players" (stats), not a number
WORDS = {"stats.last_game": {0: "level"}, "stats.last_game_you": {0: "level"}, "stats.biggest": {2: "level"},
         "stats.last_game_short": {0: "level"}, "stats.last_game_short_you": {0: "level"},
         "stats.title": {0: "level"}, "stats.vs": {0: "level"}, "turn.computer": {0: "level"}}


def _names(cat):
    return {"you": cat["name.you"], "other": cat["name.player"].format(2),
            "cpu": cat["name.cpu"], "human": cat["name.human"]}


def _fills(cat, key):
    """Every way the firmware can fill ``key``: (the subject named, text)."""
    text = cat[key]
    fs = sorted(lang.fields(text))
    if not fs:
        return [("", text)]
    names = _names(cat)
    named = NAMED.get(key, {})
    out = []
    for n in NUMBERS:
        whos = [()]
        for i, who in named.items():
            if key + "_you" in cat:
                # the reader's own seat takes the twin
                who = tuple(w for w in who if w != "you")
            whos = [w + ((i, x),) for w in whos for x in who]
        for w in whos:
            args = [n] * (max(fs + list(named) + list(WORDS.get(key, {}))) + 1)
            for i, kind in WORDS.get(key, {}).items():
                args[i] = cat["level.hard"] if kind == "level" else cat["stats.two"]
            for i, x in w:
                args[i] = names[x]
            out.append((",".join(x for _i, x in w), text.format(*args)))
    return out


def _rendered(code):
    cat = lang.read(code)
    out = []
    for key in cat:
        if key.startswith("page."):    # the web page's words: the browser's fonts and layout
            continue
        for who, s in _fills(cat, key):
            out.append((key, who, s))
    # the review of a move: {1} is what was played, in the coach's past or
    # neutral words (firmware/coachview.py)
    for k in cat:
        if k.startswith("coach.did."):
            played = cat[k].format(CARD)
            for n in NUMBERS:
                out.append(("coach.review_move+" + k, "you",
                            cat["coach.review_move"].format(n, played)))
    return out


def test_a_name_that_can_be_you_has_a_you_form_or_fits_every_subject():
    en = lang.read("en")
    neutral = lang.marks("en")["any-subject"]
    missing = []
    for key, fields in NAMED.items():
        assert key in en, key
        if key.endswith("_you"):
            continue
        if any("you" in who for who in fields.values()):
            if key + "_you" not in en and key not in neutral:
                missing.append(key)
    assert not missing, ("a verb after a name that can be \"you\" needs a _you form "
                         "(or '#! any-subject' for a label form): %s" % ", ".join(missing))


def test_the_review_of_a_move_has_its_own_words_for_every_action():
    en = lang.read("en")
    actions = sorted(k[len("coach.do."):] for k in en if k.startswith("coach.do."))
    assert actions == ["discard", "draw", "knock", "pass", "take"]
    missing = [a for a in actions if "coach.did." + a not in en]
    assert not missing, "coach.review_move would say 'you played' + an imperative for: %s" % missing


@pytest.mark.parametrize("code", CODES)
def test_no_template_filled_as_the_firmware_fills_it_shows_a_wrong_form(code):
    wrong = lang.marks(code)["wrong"]
    bad = []
    for key, who, s in _rendered(code):
        for rx, where in wrong:
            if rx.search(s):
                bad.append("%s (%s): %r matches %s (%s)" % (key, who or "numbers", s,
                                                             rx.pattern, where))
                break
    assert not bad, "\n".join(bad[:30]) + ("\n... %d in all" % len(bad) if len(bad) > 30 else "")


def test_every_language_marks_its_wrong_forms():
    # the languages whose verbs or nouns change with the subject or the
    # number say which forms are wrong; an expression that matches nothing
    # the catalogue could show would test nothing: each must catch the
    # defect it was written for
    caught = {
        "lt": ["Jūs pasibeldė: likutis 0", "Laimėjo Jūs 412:388 (sunkus)",
               "12 ėjimas: jūs Išmeskite 7\u2665", "Laimėjote 21 taškų", "langeliai: 1"],
        "sw": ["Wewe amegonga: mabaki 0", "Wote mmepita: vuta", "Hatua 12: ulicheza Tupa 7\u2665"],
        "ko": ["\ub0a8\uc740 \uc810\uc218 10"],
        "en": ["Move 12: you played Discard 7\u2665"],
    }
    for code, samples in caught.items():
        wrong = lang.marks(code)["wrong"]
        for s in samples:
            assert any(rx.search(s) for rx, _w in wrong), (code, s)
