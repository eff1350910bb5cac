# The requests that act on the game for a host (press, roll, move, undo, new, the cube's and
# the resignations' through Controller.cube, selftest, repl): loaded by link/protocol.py
# when the first comes, so a board that is only played with its buttons, or only watched,
# never holds their code.
from kernels.compat import const

from link.requests import BadRequest, is_int, merge, outcome

_MAX_TEXT = const(64)  # longest move text accepted

# fmt: off
BUTTONS = (  # literal strings are interned: no heap
    "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p10", "p11", "p12", "p13", "p14",
    "p15", "p16", "p17", "p18", "p19", "p20", "p21", "p22", "p23", "p24", "BAR", "OFF", "ROLL",
    "UNDO", "MENU", "LEFT", "RIGHT", "SELECT",
)
# fmt: on


def answer(proto, cmd, req, now_ms):
    """The reply to request `cmd` (one of protocol.COMMANDS); BadRequest for errors."""
    return _HANDLERS[cmd](proto, req, now_ms)


def _press(proto, req, now_ms):
    button = req.get("button")
    if not isinstance(button, str) or button not in BUTTONS:
        raise BadRequest("bad_args", "button: one of p1-p24 BAR OFF ROLL UNDO MENU ...")
    err = proto.press(button, now_ms)
    if err is not None:  # the board flashed red: say why
        raise BadRequest(str(err.get("code")), str(err.get("message")))
    return {"ok": True, "button": button}


def _waits(ctl):
    """BadRequest while a double or a resignation waits for its answer (no throw, no step
    until it is answered)."""
    if ctl.offer_waiting():
        raise BadRequest("wrong_phase", "an offer waits for its answer")


def _roll(proto, req, now_ms):
    _waits(proto.ctl)
    dice = req.get("dice")
    if dice is not None:
        if not isinstance(dice, list) or len(dice) != 2:
            raise BadRequest("bad_args", "dice: [a, b], each 1-6")
        for d in dice:
            if not is_int(d) or not 1 <= d <= 6:
                raise BadRequest("bad_args", "dice: [a, b], each 1-6")
        dice = (dice[0], dice[1])
    return merge(outcome(proto.ctl.roll(now_ms, dice)))


def _move(proto, req, now_ms):
    _waits(proto.ctl)
    text = req.get("play")
    if not isinstance(text, str) or not text or len(text) > _MAX_TEXT:
        raise BadRequest("bad_args", 'play: a move in notation, e.g. "8/5 6/5"')
    return merge(outcome(proto.ctl.move(text, now_ms)), "steps")


def _undo(proto, req, now_ms):
    return merge(outcome(proto.ctl.undo(now_ms)), "step")


def _new(proto, req, now_ms):
    return merge(outcome(proto.ctl.new_game(now_ms)))


def _cube(proto, req, now_ms):
    """double, take, drop, resign {"value": 1-3}, accept, reject: for the player whose
    decision it is (a side the board plays decides for itself: wrong_phase)."""
    kind = req["cmd"]
    value = None
    if kind == "resign":
        value = req.get("value")
        if not is_int(value) or not 1 <= value <= 3:
            raise BadRequest("bad_args", "value: 1 (single), 2 (gammon) or 3 (backgammon)")
    return merge(outcome(proto.ctl.cube(kind, now_ms, value)))


def _selftest(proto, req, now_ms):
    if proto.selftest is None:
        raise BadRequest("unavailable", "no self-test on this board")
    proto.selftest(now_ms)
    return {"ok": True}


def _repl(proto, req, now_ms):
    proto.stop_now()
    return {"ok": True, "repl": True}


_HANDLERS = {
    "press": _press,
    "roll": _roll,
    "move": _move,
    "undo": _undo,
    "new": _new,
    "double": _cube,
    "take": _cube,
    "drop": _cube,
    "resign": _cube,
    "accept": _cube,
    "reject": _cube,
    "selftest": _selftest,
    "repl": _repl,
}
