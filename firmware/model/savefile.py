# The save format read back: a saved game replayed turn by turn and checked (its match's
# finished games and cube actions by model/savematch.py), saved settings taken value by
# value. Needed only at boot: callers drop this module again (heap).
# Version 1 (a single game, before the cube was played) loads as a game of a money session.
# A save file is ASCII JSON without escapes (the board writes nothing else): a byte over 127
# or a backslash is not a save, which keeps invalid UTF-8 (raw, or a `\ud800` escape, which
# MicroPython's json turns into one) out of the strings read back and the error reported.
import json

from gammon.play import Play
from gammon.position import Position

from model.game import DONE, MOVE, OPENING, OVER, ROLL
from model.savecheck import number as _int
from model.savecheck import pair as _pair
from model.savetext import GAME_WRAP, SCORE_MAX, VERSION
from model.settings import KEYS, SETTINGS_VERSION

# A save with a match or cube actions in it is read with model/savematch.py, imported only
# then: a save of cubeless money play loads without the match code (gammon.match,
# model.matchplay, model.past: ~15 KB of heap).


def load_settings(settings, text):
    """Takes the valid settings of a saved file (a bad value keeps its default)."""
    d = _json(text)
    if not isinstance(d, dict) or d.get("v") != SETTINGS_VERSION:
        raise ValueError("not a settings file of version %d" % SETTINGS_VERSION)
    for key in KEYS:
        if key in d:
            try:
                settings.set(key, d[key])
            except ValueError:
                pass


def load(cls, text):
    """A `cls` (Game) from save `text`; ValueError when it is not a consistent, legal game."""
    try:
        return _load(cls, _json(text))
    except ValueError:
        raise
    except KeyError as exc:  # a field the save's version has is missing
        raise ValueError("bad save: it has no %r" % (exc.args[0],)) from None
    except Exception as exc:  # a wrong type anywhere
        raise ValueError("bad save: %r" % (exc,)) from None


def _json(text):
    """The JSON value of a save's text (str or bytes); ValueError when it is not ASCII JSON
    without escapes."""
    if isinstance(text, bytes):
        high, escape = 127, b"\\"
    else:
        high, escape = "\x7f", "\\"
    if text and max(text) > high:
        raise ValueError("not a save: a byte that is not ASCII")
    if escape in text:
        raise ValueError("not a save: an escape")
    return json.loads(text)


def _replay_play(g, code):
    for frm, to, _ in Play(g.position, g.dice, code).steps:
        g.step(frm, to)
    if g.phase not in (DONE, OVER):
        raise ValueError("bad save: an incomplete play in the record")


def _version(d):
    """The save's version, 1 or VERSION: an int (2.0 and true are none)."""
    if not isinstance(d, dict):
        raise ValueError("not a save: not a JSON object")
    v = d.get("v")
    if type(v) is not int or not (v == 1 or v == VERSION):
        shown = json.dumps(v)[:24] if "v" in d else "missing"
        raise ValueError("not a save: its version is %s, not the number 1 or %d" % (
            shown, VERSION))
    return v


# What a save of version 2 holds and one of version 1 never did: the match's terms and the
# cube's part (model/savetext.py's "m", model/matchplay.py's chunks)
_MATCH_KEYS = ("m", "x", "a", "b", "g")


def _v1(cls, d, n):
    """The Game of a save of version 1 (written before the cube was played): a game of
    cubeless money play, with the score it was saved at."""
    for key in _MATCH_KEYS:
        if key in d:
            raise ValueError("bad save: version 1 holds no match, but this save has %r "
                             "(version 2's)" % key)
    if d["cb"] != [1, -1] or d["ml"]:
        raise ValueError("bad save: a cube or a match in a save of version 1")
    return _plain(cls, d, n)


def _v2(cls, d, n):
    """The Game of a save of version 2, still at its opening: cubeless money play with its
    score, or (with a base: "b") a match or money session replayed from its base."""
    if "b" in d:
        from model.savematch import match

        return match(cls, d, n)
    if d["m"] != [0, 0, 1]:
        raise ValueError("bad save: a match without its base")
    return _plain(cls, d, n)


def _plain(cls, d, n):
    """A game of cubeless money play at the saved score (less its result when it is over:
    the replay adds it again)."""
    score = list(_pair(d["sc"], 0, SCORE_MAX))
    if d["ph"] == OVER:
        score[_int(d["w"], 0, 1)] -= _int(d["r"], 1, 3)
    if min(score) < 0:
        raise ValueError("bad save: the score is less than the game's result")
    return cls(n, None, (score[0], score[1], False, False, 1))


def _load(cls, d):
    v = _version(d)
    n = _int(d["n"], 1, GAME_WRAP + 1)
    g = _v1(cls, d, n) if v == 1 else _v2(cls, d, n)
    acts = []
    if v > 1 and "a" in d:
        from model.savematch import read_acts

        acts = read_acts(d["a"])
    if d.get("st"):
        g.setup(Position.from_id(d["st"][0]), _int(d["st"][1], 0, 1))
    elif d["o"] is not None:
        g.roll_opening(_pair(d["o"], 1, 6))
    phase = _int(d["ph"], OPENING, OVER)
    turns, k = _replay_record(g, d["h"], acts)
    k = _replay_turn(g, d, phase, acts, k, turns)
    _check(g, d, phase, turns)
    if v > 1 and "b" in d:
        from model.savematch import check

        check(g, d)
    return g


def _replay_record(g, record, acts):
    """Replays the record's finished turns and their actions: (turns, next action)."""
    if not isinstance(record, str) or len(record) % 9:
        raise ValueError("bad save: the record is 9 characters a turn")
    turns = len(record) // 9
    k = 0  # the next action to replay
    for i in range(turns):
        dice = (_int(int(record[9 * i]), 1, 6), _int(int(record[9 * i + 1]), 1, 6))
        code = _int(int(record[9 * i + 2 : 9 * i + 9], 16), 0, (1 << 28) - 1)
        if g.phase == DONE:
            g.pass_turn()
        k = _actions(g, acts, k, 2 * i)
        if g.phase not in (ROLL, MOVE):
            raise ValueError("bad save: a turn out of order")
        if g.phase == ROLL:
            if not g.roll(dice):
                if code:
                    raise ValueError("bad save: a play where no move was legal")
                continue
        elif dice != g.dice:
            raise ValueError("bad save: the opening dice differ")
        if not code:
            raise ValueError("bad save: no play where a move was legal")
        k = _actions(g, acts, k, 2 * i + 1)
        _replay_play(g, code)
        if g.turn_state.code() != code:
            raise ValueError("bad save: the record does not replay")
    return turns, k


def _replay_turn(g, d, phase, acts, k, turns):
    """The turn now: its actions before the throw, the dice and steps, its actions after;
    the next action (all of them replayed)."""
    if g.phase == DONE and (phase != OVER or k < len(acts)):
        g.pass_turn()
    k = _actions(g, acts, k, 2 * turns)
    offer = g.mp and g.mp.match.offer
    if g.phase == ROLL and d["d"] is not None and (phase != ROLL or offer):
        if not g.roll(_pair(d["d"], 1, 6)):
            raise ValueError("bad save: a turn without a legal move")
    if g.phase in (MOVE, DONE):
        if g.dice != _pair(d["d"], 1, 6):
            raise ValueError("bad save: the dice differ")
        for step in d["s"]:
            frm, to = _pair(step, 0, 25)
            g.step(frm, to)
    k = _actions(g, acts, k, 2 * turns + 1)
    if k < len(acts):
        raise ValueError("bad save: actions out of their turns")
    return k


def _check(g, d, phase, turns):
    """The game replayed is the one saved: phase, turn, position, result, score."""
    if g.phase != phase or len(g.codes) != turns or (turns and g.first != d["f"]):
        raise ValueError("bad save: the record does not lead to the saved phase")
    if g.turn != d["t"] or g.position.position_id() != d["id"]:
        raise ValueError("bad save: the position differs from the record's")
    if phase == OVER and (g.winner != d["w"] or g.result != d["r"]):
        raise ValueError("bad save: the result differs from the record's")
    if (g.mp.match.score if g.mp else g.plain) != list(_pair(d["sc"], 0, SCORE_MAX)):
        raise ValueError("bad save: the score differs from the match's")


def _actions(g, acts, k, slot):
    """Replays the actions of `slot` from acts[k]; the index of the next one."""
    if k < len(acts) and acts[k][0] == slot:
        from model.savematch import replay_act

        while k < len(acts) and acts[k][0] == slot:
            replay_act(g, acts[k][1])
            k += 1
    return k
