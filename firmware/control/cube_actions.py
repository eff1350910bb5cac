# The cube and resignations for every caller (buttons, the protocol, the board's player): whose
# decision it is, whether that caller may take it, the game's action, its event and the save.
from model.game import DONE, MOVE, ROLL

from control.errors import err

KINDS = ("double", "take", "drop", "resign", "accept", "reject")
_DOUBLE = 1  # gammon.match's DOUBLE and RESIGN offers (not imported: money play stays light)
_RESIGN = 2


def offered(g):
    """The offer waiting for its answer: 0 none, 1 a double, 2 a resignation."""
    return g.mp.match.offer if g.mp else 0


def decider(g, kind):
    """The player whose decision `kind` is: the player on roll doubles (before the throw;
    once the play before is complete, its opponent: DOUBLE instead of ROLL) and resigns,
    the other answers (the doubled takes or drops, the one offered a resignation accepts
    or rejects it)."""
    if kind == "double" and g.phase == DONE:
        return 1 - g.turn
    return g.turn if kind in ("double", "resign") else 1 - g.turn


def _refusal(ctl, kind, value, by_board):
    """The error that refuses `kind` now, or None: what the game itself cannot tell
    (whose decision, the timing of offers) comes first, the rules after (the game's own
    ValueError, in act)."""
    g = ctl.game
    if kind not in KINDS:
        return err("bad_args", "an action is one of double take drop resign accept reject")
    if kind == "resign" and (value not in (1, 2, 3) or isinstance(value, bool)):
        return err("bad_args", "value: 1 (single), 2 (gammon) or 3 (backgammon)")
    player = decider(g, kind)
    if ctl.by_board(player) != bool(by_board):
        if by_board:
            return err("wrong_phase", "player %d is a person's decision" % player)
        return err("wrong_phase", "the board decides for player %d" % player)
    if ctl.throw.entry:
        return err("wrong_phase", "the dice are being entered")
    offer = offered(g)
    if kind in ("double", "resign"):
        if offer:
            return err("wrong_phase", "an offer waits for its answer")
        if kind == "double" and g.phase not in (ROLL, DONE):
            return err("wrong_phase", "a double is offered before rolling")
        if kind == "resign" and g.phase not in (ROLL, MOVE, DONE):
            return err("wrong_phase", "a resignation is offered on one's turn")
        if kind == "double" and not g.terms[1]:  # said here: the match code stays unloaded
            return err("illegal", "cube play is off")
        if kind == "double" and g.phase == DONE and not g.match.may_double(player):
            try:  # the rules' reason, before the turn is passed (nothing changes)
                g.match.double(player)
            except ValueError as exc:
                return err("illegal", str(exc))
    elif offer != (_DOUBLE if kind in ("take", "drop") else _RESIGN):
        what = "double" if kind in ("take", "drop") else "resignation"
        return err("wrong_phase", "no %s is offered" % what)
    return None


def act(ctl, kind, now, value=None, by_board=False):
    """Takes the decision `kind` ("double", "take", "drop", "resign" with `value` 1-3,
    "accept", "reject") for the player whose decision it is: (True, reply) with the
    event's fields, or (False, err(...)) and nothing changed. A person may not decide
    for a side the board plays, nor the board (`by_board`) for a person's side."""
    no = _refusal(ctl, kind, value, by_board)
    if no:
        return False, no
    g = ctl.game
    player = decider(g, kind)
    if kind == "double" and g.phase == DONE:  # the turn passes first, as ROLL passes it
        g.pass_turn()
        ctl.emit({"event": "turn", "player": g.turn})
    try:
        if kind == "resign":
            g.resign(value)
        else:
            getattr(g, kind)()
    except ValueError as exc:  # Crawford, a dead cube, the cube's owner, a rejected value
        return False, err("illegal", str(exc))
    m = g.mp.match
    out = {"by": player}
    if kind == "double":
        out["cube"] = m.offer_value
    elif kind == "take":
        out["cube"] = m.cube
    elif kind == "resign":
        out["value"] = value
    elif kind in ("drop", "accept"):
        out["winner"] = g.winner
        out["points"] = m.points
    ev = {"event": kind}
    for k in out:
        ev[k] = out[k]
    ctl.emit(ev)
    ctl.changed(now)
    return True, out
