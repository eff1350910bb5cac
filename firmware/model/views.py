# A Game's views of its record, cube and score (VIEWS), answered with or without its match:
# cubeless money play has no MatchPlay and loads none of the match code for them. Loaded only
# when one is first asked for (model/game.py's __getattr__).
from kernels.compat import const

_ROLL = const(1)  # model/game.py's ROLL, DONE and OVER
_DONE = const(3)
_OVER = const(4)
ENDS = (None, "played", "resigned", "dropped")  # gammon.match's PLAYED, RESIGNED, DROPPED


def _history(g):
    """[[player, d1, d2, play_code], ...]: one per finished turn (code 0: no move)."""
    out = []
    for i in range(len(g.codes)):
        r = g.rolls[i]
        out.append([(g.first + i) & 1, r >> 3, r & 7, g.codes[i]])
    return out


def _may_double(g):
    """Whether a double may be offered now: by the player on roll before the throw, or by
    the opponent once the play is complete (DOUBLE instead of ROLL)."""
    mp = g.mp
    if not mp or g.phase not in (_ROLL, _DONE):
        return False
    return mp.match.may_double(g.turn if g.phase == _ROLL else 1 - g.turn)


def _over(g):
    return bool(g.mp) and g.mp.match.over()


def _points(g):
    """What the winner scored with this game (None while it goes on)."""
    if g.phase != _OVER:
        return None
    return g.mp.match.points if g.mp else g.result


def _ended(g):
    """How the game ended: "played", "resigned", "dropped" (None while it goes on)."""
    if g.phase != _OVER:
        return None
    return ENDS[g.mp.match.ended] if g.mp else "played"


VIEWS = {
    "history": _history,
    "score": lambda g: list(g.mp.match.score if g.mp else g.plain),
    "match_length": lambda g: g.terms[0],
    "cube": lambda g: g.mp.match.cube if g.mp else 1,
    "cube_owner": lambda g: g.mp.match.owner if g.mp else -1,  # -1: centred
    "crawford": lambda g: bool(g.mp) and g.mp.match.crawford,
    "may_double": _may_double,
    "match_over": _over,
    "match_winner": lambda g: g.mp.match.match_winner() if _over(g) else None,
    "games": lambda g: g.mp.games if g.mp else [],  # finished games (model/past.py's Past)
    "points": _points,
    "ended": _ended,
}
