# The save format read back: a saved game replayed turn by turn and checked, saved settings
# taken value by value. Needed only at boot: callers drop this module again (heap).
# A save file is ASCII JSON without escapes (the board writes nothing else): a byte over 127
# or a backslash is not a save, which keeps invalid UTF-8 (raw, or a `\ud800` escape, which
# MicroPython's json turns into one) out of the strings read back and the error reported.
import json

from gammon.play import Play
from gammon.position import Position

from model.game import DONE, MOVE, OPENING, OVER, ROLL, VERSION
from model.settings import KEYS, SETTINGS_VERSION


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
    except Exception as exc:  # a wrong type or a missing key anywhere
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


def _int(x, lo, hi):
    if not isinstance(x, int) or isinstance(x, bool) or not lo <= x <= hi:
        raise ValueError("bad save: %r is not %d-%d" % (x, lo, hi))
    return x


def _pair(x, lo, hi):
    if not isinstance(x, list) or len(x) != 2:
        raise ValueError("bad save: %r is not a pair" % (x,))
    return _int(x[0], lo, hi), _int(x[1], lo, hi)


def _replay_play(g, code):
    for frm, to, _ in Play(g.position, g.dice, code).steps:
        g.step(frm, to)
    if g.phase not in (DONE, OVER):
        raise ValueError("bad save: an incomplete play in the record")


def _load(cls, d):
    if not isinstance(d, dict) or d.get("v") != VERSION:
        raise ValueError("not a save of version %d" % VERSION)
    g = cls(_int(d["n"], 1, 1 << 30))
    g.cube = _int(d["cb"][0], 1, 1 << 12)
    g.cube_owner = _int(d["cb"][1], -1, 1)
    g.match_length = _int(d["ml"], 0, 255)
    score = list(_pair(d["sc"], 0, 1 << 20))
    phase = _int(d["ph"], OPENING, OVER)
    if d.get("st"):
        g.setup(Position.from_id(d["st"][0]), _int(d["st"][1], 0, 1))
    elif d["o"] is not None:
        g.roll_opening(_pair(d["o"], 1, 6))
    record = d["h"]
    if not isinstance(record, str) or len(record) % 9:
        raise ValueError("bad save: the record is 9 characters a turn")
    turns = len(record) // 9
    for i in range(turns):
        dice = (_int(int(record[9 * i]), 1, 6), _int(int(record[9 * i + 1]), 1, 6))
        code = _int(int(record[9 * i + 2 : 9 * i + 9], 16), 0, (1 << 28) - 1)
        if g.phase == DONE:
            g.pass_turn()
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
        _replay_play(g, code)
        if g.turn_state.code() != code:
            raise ValueError("bad save: the record does not replay")
    if phase in (ROLL, MOVE, DONE) and g.phase == DONE:
        g.pass_turn()
    if phase in (MOVE, DONE) and g.phase == ROLL:
        if not g.roll(_pair(d["d"], 1, 6)):
            raise ValueError("bad save: a turn without a legal move")
    if phase in (MOVE, DONE):
        if g.dice != _pair(d["d"], 1, 6):
            raise ValueError("bad save: the dice differ")
        for step in d["s"]:
            frm, to = _pair(step, 0, 25)
            g.step(frm, to)
    if g.phase != phase or len(g.codes) != turns or (turns and g.first != d["f"]):
        raise ValueError("bad save: the record does not lead to the saved phase")
    if g.turn != d["t"] or g.position.position_id() != d["id"]:
        raise ValueError("bad save: the position differs from the record's")
    if phase == OVER and (g.winner != d["w"] or g.result != d["r"]):
        raise ValueError("bad save: the result differs from the record's")
    g.score = score
    return g
