"""Game records for GNU Backgammon: the Jellyfish .mat format, Position ID and Match ID.

The board keeps its record as the protocol's `history` (dice and a play in notation per
turn); gnubg, Jellyfish, XG and BGBlitz all import .mat, so that is what a player takes
to an analyser. A .mat move lists one `from/to` hop per die, in the mover's own numbers,
25 for the bar, 0 for off and `*` on a hit, which needs the position before each play:
the game is replayed with the rules engine to find each play's hops.
"""

from __future__ import annotations

import base64
import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from gammon.notation import find_play
from gammon.play import legal_plays
from gammon.position import Position

_LEFT = 28  # width of the left player's column in a .mat move line (as gnubg writes it)
_GAME_STATES = {"opening": 1, "roll": 1, "move": 1, "done": 1, "over": 2}

History = Mapping[str, Any]


def _points(n: int) -> str:
    return "%d point%s" % (n, "" if n == 1 else "s")


def _turns(history: History) -> list[tuple[int, tuple[int, int], str]]:
    """(player, dice, .mat move text) per turn, replayed from the start position."""
    start = history.get("start")
    if start:
        raise ValueError("a game set up from a position cannot be written as .mat")
    out: list[tuple[int, tuple[int, int], str]] = []
    pos, pos_player = Position.start(), -1
    for n, turn in enumerate(history.get("turns") or ()):
        player = int(turn["player"])
        d1, d2 = (int(d) for d in turn["dice"])
        if pos_player < 0:
            pos_player = player
        elif player != pos_player:
            pos = pos.swap()
            pos_player = player
        text = (turn.get("play") or "").strip()
        if not text or text in ("-", "none", "(no move)"):
            if legal_plays(pos, (d1, d2)):
                raise ValueError("turn %d: no play recorded but %d-%d can move" % (n + 1, d1, d2))
            out.append((player, (d1, d2), ""))
            continue
        try:
            play = find_play(pos, (d1, d2), text)
        except ValueError as exc:
            raise ValueError("turn %d (%d-%d %s): %s" % (n + 1, d1, d2, text, exc)) from None
        hops = " ".join("%d/%d%s" % (f, t, "*" if hit else "") for f, t, hit in play.steps)
        out.append((player, (d1, d2), hops))
        pos = play.result
    return out


def _game_lines(
    history: History, number: int, score: Sequence[int], names: Sequence[str]
) -> tuple[list[str], int, int]:
    """The lines of one game, the winner (-1 if unfinished) and the points won."""
    lines = [" Game %d" % number, " %-30s %s : %d" % ("%s : %d" % (names[0], score[0]),
                                                      names[1], score[1])]
    cells: list[str] = []  # left column (player 0), right column (player 1), in turn
    for player, dice, hops in _turns(history):
        if len(cells) % 2 != player:
            cells.append("")  # player 1 opened, or a side had two turns in a row
        cells.append(("%d%d: %s" % (dice[0], dice[1], hops)).rstrip())
    for i in range(0, len(cells), 2):
        right = cells[i + 1] if i + 1 < len(cells) else ""
        left = cells[i].ljust(_LEFT - 1) + " "  # the right column at 33, one space at least
        lines.append(("%3d) %s%s" % (i // 2 + 1, left, right)).rstrip())
    winner, points = history.get("winner"), 0
    if winner is None or winner < 0:
        return lines, -1, 0
    points = int(history.get("result") or 1) * int(history.get("cube") or 1)
    indent = 6 if winner == 0 else 6 + _LEFT
    lines.append(" " * indent + "Wins " + _points(points))
    return lines, int(winner), points


def to_mat(
    history: History | Sequence[History],
    match_length: int = 0,
    score: Sequence[int] = (0, 0),
    game: int = 1,
    names: Sequence[str] = ("Player 0", "Player 1"),
    date: datetime.date | None = None,
) -> str:
    """A .mat file of one game (`history` as the protocol's reply) or of several in order.

    `match_length` 0 is a money game; `score` is the score before the first game given;
    later games add the points each game won. `game` is the board's number of the first
    game, kept as a comment: the file numbers games from 1, as gnubg refuses a match file
    that starts at another game. Player 0 is the left column (gnubg's X), player 1 the
    right (O). ValueError on a record that is not a legal game from the start position.
    """
    games = [history] if isinstance(history, Mapping) else list(history)
    when = date or datetime.date.today()
    out = [
        '; [Site "ledgammon"]',
        '; [Player 1 "%s"]' % names[0],
        '; [Player 2 "%s"]' % names[1],
        '; [EventDate "%s"]' % when.strftime("%Y.%m.%d"),
        '; [Variation "Backgammon"]',
        '; [Board game "%d"]' % game,
        '; [Jacoby "Off"]' if not match_length else '; [Crawford "On"]',
        "",
        " %d point match" % match_length,
        "",
    ]
    running = [int(score[0]), int(score[1])]
    for i, record in enumerate(games):
        lines, winner, points = _game_lines(record, i + 1, running, names)
        out += lines + [""]
        if winner >= 0:
            running[winner] += points
    return "\n".join(out)


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

    The dice count once the player on roll has thrown them (phases move and done), the
    higher first as gnubg writes them; at the opening and before a roll they are 0-0.
    """
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
    """The Position ID of a `state` reply (player on roll's view), checked by decoding it."""
    pid = state.get("position_id")
    if not isinstance(pid, str):
        raise ValueError("the state has no position_id")
    Position.from_id(pid)  # raises ValueError on a malformed ID
    return pid


def gnubg_id(state: Mapping[str, Any]) -> str:
    """`PositionID:MatchID`, what gnubg's `set gnubgid` (and its Edit menu) accepts."""
    return "%s:%s" % (position_id(state), match_id(state))
