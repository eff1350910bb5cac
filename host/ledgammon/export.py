"""Game records for GNU Backgammon: the .mat file (matfile.py), Position ID and Match ID.

The board keeps its record as the protocol's `history` (every game of the match: dice and
a play in notation per turn, the cube actions and resignations); gnubg, Jellyfish, XG and
BGBlitz all import .mat, so that is what a player takes to an analyser. The IDs name the
position now, for gnubg's `set gnubgid`.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from typing import Any

from gammon.matchid import decode
from gammon.position import Position

from .matfile import to_mat

__all__ = ["encode_match_id", "gnubg_id", "match_id", "position_id", "to_mat"]

_GAME_STATES = {"opening": 1, "roll": 1, "move": 1, "done": 1, "over": 2}


def _bits(fields: Sequence[tuple[int, int]]) -> str:
    """Packs (value, width) fields least significant bit first, as gnubg's IDs are."""
    key, at = 0, 0
    for value, width in fields:
        if not 0 <= value < 1 << width:
            raise ValueError("%d does not fit in %d bits" % (value, width))
        key |= value << at
        at += width
    raw = key.to_bytes((at + 7) // 8, "little")
    return base64.b64encode(raw).decode().rstrip("=")


def encode_match_id(
    cube: int = 1,
    cube_owner: int = -1,
    dice_owner: int = 0,
    crawford: bool = False,
    game_state: int = 1,
    turn: int = 0,
    doubled: bool = False,
    resigned: int = 0,
    dice: Sequence[int] = (0, 0),
    match_length: int = 0,
    score: Sequence[int] = (0, 0),
    jacoby: bool = False,
) -> str:
    """gnubg's Match ID: 66 bits in 9 bytes, base64 (12 characters).

    cube_owner -1 is a centred cube; game_state 0 none, 1 playing, 2 over, 3 resigned,
    4 dropped; `turn` is the player to decide, `dice_owner` the player on roll. Recent
    gnubg adds a 67th bit, set when the Jacoby rule is off (always so in a match); the
    board counts gammons without a cube, so money games default to Jacoby off.
    """
    if cube < 1 or cube & (cube - 1):
        raise ValueError("the cube is a power of two: %r" % cube)
    return _bits(
        (
            (cube.bit_length() - 1, 4),
            (3 if cube_owner < 0 else cube_owner, 2),
            (dice_owner, 1),
            (int(crawford), 1),
            (game_state, 3),
            (turn, 1),
            (int(doubled), 1),
            (resigned, 2),
            (dice[0], 3),
            (dice[1], 3),
            (match_length, 15),
            (score[0], 15),
            (score[1], 15),
            (int(not jacoby), 1),
        )
    )


def match_id(state: Mapping[str, Any]) -> str:
    """The Match ID of the position in a protocol `state` reply.

    The board's own `match_id` when the reply has one (it knows the offer on the table and
    how the game ended), checked by decoding it; else worked out from the other fields: the
    dice count once the player on roll has thrown them (phases move and done), the higher
    first as gnubg writes them; at the opening and before a roll they are 0-0.
    """
    given = state.get("match_id")
    if given is not None:
        decode(given)  # ValueError on anything but a Match ID
        return str(given)
    phase = state.get("phase", "roll")
    turn = int(state.get("turn") or 0)
    dice = state.get("dice") if phase in ("move", "done") else None
    cube = state.get("cube") or 1
    owner = state.get("cube_owner", -1)
    if isinstance(cube, Mapping):  # a board may report the cube as {"value", "owner"}
        owner = cube.get("owner", -1)
        cube = cube.get("value", 1)
    return encode_match_id(
        cube=int(cube),
        cube_owner=-1 if owner is None else int(owner),
        dice_owner=turn,
        crawford=bool(state.get("crawford", False)),
        game_state=_GAME_STATES.get(phase, 1),
        turn=turn,
        dice=sorted((int(dice[0]), int(dice[1])), reverse=True) if dice else (0, 0),
        match_length=int(state.get("match_length") or 0),
        score=tuple(state.get("score") or (0, 0)),
        jacoby=bool(state.get("jacoby", False)),
    )


def position_id(state: Mapping[str, Any]) -> str:
    """The Position ID of a `state` reply, seen by the player on roll as its Match ID has
    it: the position at the start of the turn, or once a play is complete (phase done, the
    board's Match ID having the other player to roll) the position after it, turned round.
    Checked by decoding it."""
    pid = state.get("position_id")
    if not isinstance(pid, str):
        raise ValueError("the state has no position_id")
    Position.from_id(pid)  # raises ValueError on a malformed ID
    now, mid = state.get("current_id"), state.get("match_id")
    if state.get("phase") == "done" and isinstance(now, str) and isinstance(mid, str):
        if decode(mid)["move"] != state.get("turn"):
            return Position.from_id(now).swap().position_id()
    return pid


def gnubg_id(state: Mapping[str, Any]) -> str:
    """`PositionID:MatchID`, what gnubg's `set gnubgid` (and its Edit menu) accepts."""
    return "%s:%s" % (position_id(state), match_id(state))
