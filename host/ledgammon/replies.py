"""What each reply and event of protocol 1 must hold (docs/protocol.md), checked on arrival.

The client checks every reply once, where it arrives, against the table below: a field
missing or of the wrong type, an error reply without its code, `ok` that is not true or
false, all become one BadReply (one line for the user) before any command reads the reply,
so a board that answers nonsense can neither crash a command nor have a file written from
its answer. Fields a table does not name are let through (a newer firmware may add some).
"""

from __future__ import annotations

from typing import Any

from .checks import (
    BASE64,
    BOOL,
    CHECKERS,
    COUNT,
    DICE,
    INT,
    OBJECT,
    PLAYER,
    STR,
    TEXTS,
    Check,
    either,
    fields,
    is_int,
    kind,
    list_of,
    maybe,
    one_of,
    ranged,
    show,
)
from .errors import BadReply

PROTOCOL = 1  # the protocol version these tools speak

CUBE = either(
    kind("a power of two", lambda v: is_int(v) and v >= 1 and not v & (v - 1)),
    fields({"value": INT}, {"owner": maybe(ranged(-1, 1))}),
)
SETTINGS = fields({}, {"players": list_of(one_of("human", "board"), 2)})
BOARD = fields(
    {
        "p0": list_of(CHECKERS, 24),
        "p1": list_of(CHECKERS, 24),
        "bar": list_of(CHECKERS, 2),
        "off": list_of(CHECKERS, 2),
    }
)
NEXT_TERMS = fields({"match_length": COUNT, "cube": BOOL, "jacoby": BOOL,
                    "from": one_of("next game", "next match")},
                   {"score": list_of(COUNT, 2)})
OFFER = fields({"kind": one_of("double", "resign"), "by": PLAYER, "value": ranged(1, 64)})
STATE = fields(
    {
        "phase": one_of("opening", "roll", "move", "done", "over"),
        "turn": PLAYER,
        "dice": maybe(DICE),
        "steps": TEXTS,
        "position_id": STR,
        "plays": TEXTS,
        "pips": list_of(COUNT, 2),
        "board": BOARD,
        "winner": maybe(PLAYER),
        "result": maybe(ranged(1, 3)),
        "game": COUNT,
        "cube": CUBE,
        "score": list_of(COUNT, 2),
        "match_length": COUNT,
        "settings": SETTINGS,
    },
    {
        "current_id": STR,
        "cube_owner": maybe(ranged(-1, 1)),
        "entering": maybe(list_of(INT)),
        "menu": maybe(INT),
        "error": maybe(STR),
        "selected": maybe(INT),
        "bot": maybe(STR),
        "crawford": BOOL,
        "jacoby": BOOL,
        "may_double": BOOL,
        "offer": maybe(OFFER),
        "match_over": BOOL,
        "match_winner": maybe(PLAYER),
        "match_id": STR,
        "cube_on": BOOL,
    },
)
TURN = fields({"player": PLAYER, "dice": DICE, "play": STR})
ACTION = fields({
    "turn": COUNT,
    "rolled": BOOL,
    "player": PLAYER,
    "action": one_of("double", "take", "drop", "resign", "accept", "reject"),
    "value": ranged(1, 64),
})
GAME = fields(  # one game of history's "games"
    {
        "game": COUNT,
        "opening": maybe(DICE),
        "turns": list_of(TURN),
        "actions": list_of(ACTION),
        "score": list_of(COUNT, 2),
        "winner": maybe(PLAYER),
        "result": maybe(ranged(1, 3)),
        "points": maybe(COUNT),
        "ended": maybe(one_of("played", "resigned", "dropped")),
    },
    {"start": maybe(OBJECT), "moves": BOOL, "crawford": BOOL},
)
WON = {"by": PLAYER, "winner": PLAYER, "points": COUNT}  # a drop, an accepted resignation
# The cube's replies and events are the same lines: an action's reply is its event.
CUBE_LINES: dict[str, Check] = {
    "double": fields({"by": PLAYER, "cube": ranged(2, 64)}),
    "take": fields({"by": PLAYER, "cube": ranged(2, 64)}),
    "drop": fields(WON),
    "resign": fields({"by": PLAYER, "value": ranged(1, 3)}),
    "accept": fields(WON),
    "reject": fields({"by": PLAYER}),
}
PLAY_HINT = fields({"play": STR, "steps": TEXTS})
ADVICE = fields({  # HINT on a cube decision: the board's advice (docs/protocol.md, `hint`)
    "action": one_of("double", "no double", "too good", "take", "drop", "accept", "reject"),
    "units": one_of("equity", "mwc"),
    "no_double": INT,
    "double_take": INT,
    "double_pass": INT,
    "win": ranged(0, 1000),
    "player": PLAYER,
    "kind": one_of("double", "take", "accept"),
})
CUBE_HINT = fields({"cube": ADVICE})
REPLIES: dict[str, Check] = {
    "hello": fields(
        {
            "protocol": INT,
            "firmware": STR,
            "board": STR,
            "layout": one_of("full", "minimal"),
            "leds": COUNT,
        },
        {"order": STR, "network_units": maybe(COUNT)},
    ),
    "state": STATE,
    "leds": fields({"frame": BASE64}, {"count": COUNT, "order": STR}),
    "press": fields({"button": STR}),
    "roll": fields({"dice": maybe(DICE)}, {"player": PLAYER, "entering": BOOL, "board": BOOL}),
    "move": fields({"steps": TEXTS}),
    "undo": fields({}, {"step": maybe(STR), "settings": SETTINGS}),
    "new": fields({"game": COUNT}),
    "history": fields(
        {
            "opening": maybe(DICE),
            "turns": list_of(TURN),
            "winner": maybe(PLAYER),
            "result": maybe(ranged(1, 3)),
        },
        {
            "game": COUNT,
            "start": maybe(OBJECT),
            "cube": CUBE,
            "games": list_of(GAME),
            "match_length": COUNT,
            "jacoby": BOOL,
            "cube_on": BOOL,
        },
    ),
    "hint": lambda reply, name: (CUBE_HINT if "cube" in reply else PLAY_HINT)(reply, name),
    "config": fields({"settings": SETTINGS}, {"next_terms": maybe(NEXT_TERMS)}),
    **CUBE_LINES,
}
ERROR = fields({"error": fields({"code": STR, "message": STR})})
# Events are advisory: one that does not fit is dropped, never fatal (see Client._parse).
EVENTS: dict[str, Check] = {
    "press": fields({}, {"button": STR}),
    "roll": fields({"player": PLAYER, "dice": DICE}),
    "nomove": fields({"player": PLAYER}, {"dice": DICE}),
    "step": fields({"player": PLAYER, "from": ranged(0, 25), "to": ranged(0, 25)},
                   {"hit": BOOL}),
    "undo": fields({"player": PLAYER, "from": ranged(0, 25), "to": ranged(0, 25)},
                   {"hit": BOOL}),
    "error": fields({}, {"code": STR, "message": STR, "button": STR}),
    "over": fields({"winner": PLAYER, "result": ranged(1, 3)},
                   {"points": COUNT, "score": list_of(COUNT, 2), "match_over": BOOL}),
    **CUBE_LINES,
}


def _complete(cmd: str, reply: dict[str, Any]) -> str | None:
    """What the table cannot say: a roll names its dice and player, unless dice are being
    entered or the board is to throw its own (after its cube decision, with the cube on)."""
    if cmd == "roll" and not reply.get("entering"):
        if "player" not in reply or (reply.get("dice") is None and not reply.get("board")):
            return "a roll should name its dice and player, or say entering"
    return None


def check(cmd: str, reply: Any, board: str) -> dict[str, Any]:
    """The reply to `cmd` if it is what protocol 1 says; BadReply (naming `board`) if not.

    An error reply is returned as it is (the caller decides); `hello` of another protocol
    version is left to the caller's version check, before its other fields are judged.
    """
    wrong = _problem(cmd, reply)
    if wrong:
        raise BadReply("%s answered `%s` with a malformed reply: %s" % (board, cmd, wrong))
    assert isinstance(reply, dict)
    return reply


def _problem(cmd: str, reply: Any) -> str | None:
    if not isinstance(reply, dict):
        return "not an object"
    ok = reply.get("ok")
    if not isinstance(ok, bool):
        return "ok should be true or false, not %s" % show(ok)
    if not ok:
        return ERROR(reply, "")
    if cmd == "hello":
        version = INT(reply.get("protocol"), "protocol")
        if version or reply["protocol"] != PROTOCOL:
            return version  # None: another version, for the caller to report as such
    schema = REPLIES.get(cmd)
    return (schema(reply, "") if schema else None) or _complete(cmd, reply)


def event_ok(ev: dict[str, Any]) -> bool:
    """True if an event line can be used: a string kind and, for the known kinds, fields of
    the right types."""
    kind_ = ev.get("event")
    if not isinstance(kind_, str):
        return False
    schema = EVENTS.get(kind_)
    return schema is None or schema(ev, "") is None
