"""The Jellyfish .mat text of a game or a whole match, laid out as GNU Backgammon writes it.

A .mat file is what gnubg, Jellyfish, XG and BGBlitz all import. Each game is a list of
cells in two columns (player 0 left, gnubg's X; player 1 right, O), one cell per turn
(`dice: hops`, each die's hop in the mover's own numbers, 25 the bar, 0 off, `*` a hit) or
cube action (` Doubles => 4`, ` Takes`, ` Drops`), then `Wins N points` in the winner's
column. A resignation has no cell of its own (gnubg writes none): a game that ends with
`Wins` before its last checker is off is read back as resigned, for the points written. A
rejected resignation leaves no trace in the format. Hops need the position before each play,
so every game is replayed with the rules engine; a record that does not replay is refused.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from gammon.notation import find_play
from gammon.play import legal_plays
from gammon.position import Position

LEFT = 28  # width of the left player's column in a move line (as gnubg writes it)
History = Mapping[str, Any]
Cell = tuple[int, str]  # (column: the player, text)
NO_PLAY = ("", "-", "none", "(no move)")


def points(n: int) -> str:
    return "%d point%s" % (n, "" if n == 1 else "s")


def _turn_cells(history: History) -> list[tuple[int, tuple[int, int], str]]:
    """(player, dice, hops) per turn, replayed from the start position."""
    if history.get("start"):
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
        if text in NO_PLAY:
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


class _Cube:
    """The cube actions of one game, as cells, in the order the board recorded them."""

    def __init__(self, actions: Sequence[Mapping[str, Any]], turns: int) -> None:
        self.by_slot: dict[tuple[int, bool], list[Mapping[str, Any]]] = {}
        for n, a in enumerate(actions):
            at = int(a.get("turn") or 0)
            if not 0 <= at <= turns:
                raise ValueError("cube action %d is at turn %d of %d" % (n + 1, at + 1, turns))
            self.by_slot.setdefault((at, bool(a.get("rolled"))), []).append(a)
        self.value, self.offered = 1, 0

    def cells(self, turn: int, rolled: bool) -> list[Cell]:
        out: list[Cell] = []
        for a in self.by_slot.get((turn, rolled), ()):
            kind, player = a.get("action"), int(a.get("player") or 0)
            if kind == "double":
                if self.offered:
                    raise ValueError("turn %d: a double while one is offered" % (turn + 1))
                self.offered = self.value * 2
                out.append((player, " Doubles => %d" % self.offered))
            elif kind in ("take", "drop"):
                if not self.offered:
                    raise ValueError("turn %d: a %s with no double offered" % (turn + 1, kind))
                if kind == "take":
                    self.value = self.offered
                self.offered = 0
                out.append((player, " Takes" if kind == "take" else " Drops"))
            # resign, accept, reject: no cell (gnubg writes none; `Wins` says the result)
        return out


def game_cells(history: History) -> list[Cell]:
    """Every cell of one game in order: its turns and, between them, its cube actions."""
    turns = _turn_cells(history)
    # a game whose moves the board dropped for room keeps its cube actions at turns that are
    # gone: they cannot be placed, and the game is its result alone (to_mat says so)
    actions = history.get("actions") if history.get("moves") is not False else None
    cube = _Cube(actions or (), len(turns))
    cells: list[Cell] = []
    for i, (player, dice, hops) in enumerate(turns):
        cells += cube.cells(i, False)
        high, low = max(dice), min(dice)  # the higher die first, as gnubg writes them
        cells.append((player, ("%d%d: %s" % (high, low, hops)).rstrip()))
        cells += cube.cells(i, True)
    return cells + cube.cells(len(turns), False) + cube.cells(len(turns), True)


def _points_won(history: History) -> int:
    if history.get("points") is not None:
        return int(history["points"])
    return int(history.get("result") or 1) * int(history.get("cube") or 1)


def game_lines(history: History, number: int, score: Sequence[int], names: Sequence[str],
               last_of_match: bool = False) -> tuple[list[str], int, int]:
    """The lines of one game, its winner (-1 while it goes on) and the points won."""
    left = "%s : %d" % (names[0], score[0])
    lines = [" Game %d" % number, " %-30s %s : %d" % (left, names[1], score[1])]
    laid: list[str] = []  # the cells in columns: left (player 0), right (player 1), ...
    for player, text in game_cells(history):
        if len(laid) % 2 != player:
            laid.append("")  # player 1 opened, or a side had two cells in a row
        laid.append(text)
    texts = []
    for i in range(0, len(laid), 2):
        # a line of the left column only keeps its padding, as gnubg writes it: gnubg reads
        # a " Takes" that ends its line early as something else
        line = "%3d) %s" % (i // 2 + 1, laid[i].ljust(LEFT - 1) + " ")
        texts.append((line + laid[i + 1]).rstrip() if i + 1 < len(laid) else line)
    winner = history.get("winner")
    if winner is None or winner < 0:
        return lines + texts, -1, 0
    won = _points_won(history)
    wins = "Wins " + points(won) + (" and the match" if last_of_match else "")
    if winner == 1 and len(laid) % 2:  # the winner's column is next on the last line
        texts[-1] = texts[-1].rstrip().ljust(5 + LEFT) + (" " if laid[-1] == " Drops" else "")
        texts[-1] += wins
    else:  # gnubg's own columns: under the left player's moves at 6, the right one's at 34
        texts.append(" " * (6 if winner == 0 else 6 + LEFT) + wins)
    return lines + texts, int(winner), won


def _games(history: History | Sequence[History]) -> list[History]:
    if isinstance(history, Mapping):
        games = history.get("games")
        return list(games) if games else [history]
    return list(history)


def to_mat(
    history: History | Sequence[History],
    match_length: int | None = None,
    score: Sequence[int] = (0, 0),
    game: int | None = None,
    names: Sequence[str] = ("Player 0", "Player 1"),
    date: datetime.date | None = None,
    jacoby: bool | None = None,
    comments: Sequence[str] = (),
) -> str:
    """A .mat file of a protocol `history` reply (the whole match when it lists `games`), of
    one game, or of several games in order.

    `match_length` (0: money play) and `jacoby` default to the reply's own; each game's score
    line is its `score` when the record has one, else `score` (before the first game) plus
    what the games before it won. The file numbers games from 1, as gnubg refuses a match
    that starts at another game; the board's number of the first is kept in a comment, with
    `comments` (such as the IDs of the position now). Player 0 is the left column (gnubg's
    X), player 1 the right (O). ValueError on a record that does not replay legally.
    """
    games = _games(history)
    top: Mapping[str, Any] = history if isinstance(history, Mapping) else {}
    length = int(top.get("match_length") or 0) if match_length is None else match_length
    if jacoby is None:
        jacoby = bool(top.get("jacoby")) and bool(top.get("cube_on", True))
    first = game if game is not None else int((games[0] if games else top).get("game") or 1)
    when = date or datetime.date.today()
    out = [
        '; [Site "ledgammon"]',
        '; [Player 1 "%s"]' % names[0],
        '; [Player 2 "%s"]' % names[1],
        '; [EventDate "%s"]' % when.strftime("%Y.%m.%d"),
        '; [Variation "Backgammon"]',
        '; [Board game "%d"]' % first,
        '; [Crawford "On"]' if length else '; [Jacoby "%s"]' % ("On" if jacoby else "Off"),
    ]
    out += ["; %s" % c for c in comments] + ["", " %d point match" % length, ""]
    running = [int(score[0]), int(score[1])]
    for i, record in enumerate(games):
        before = record.get("score")
        if isinstance(before, Sequence) and len(before) == 2:
            running = [int(before[0]), int(before[1])]
        if record.get("crawford"):
            out.append("; game %d is the Crawford game" % (i + 1))
        if record.get("moves") is False:
            out.append("; the board kept no moves of game %d (its record made room)" % (i + 1))
        winner = record.get("winner")
        won = _points_won(record) if winner in (0, 1) else 0
        final = bool(length) and winner in (0, 1) and running[int(winner)] + won >= length
        lines, winner, won = game_lines(record, i + 1, running, names, final)
        out += lines + [""]
        if winner >= 0:
            running[winner] += won
    return "\n".join(out)
