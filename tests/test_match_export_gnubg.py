"""The .mat of a whole match against GNU Backgammon itself: random matches and money sessions
with doubles, takes, drops and resignations are played in gnubg through its commands while the
board's `history` of them is written down as the protocol gives it; gnubg's own export of the
match and ours then have the same lines, cell for cell, and gnubg reads ours back to the same
games, moves, cube actions and results."""

from __future__ import annotations

import random
from typing import Any

import gnubg
import pytest
from gammon import legal_plays
from gammon.match import Match
from gammon.matchid import decode
from gammon.position import Position
from gnubg_capture import BY_HAND, answer, next_game, quiet
from ledgammon import export, matfile

KEPT = ("move", "double", "take", "drop", "resign")  # what a .mat holds of gnubg's records


@pytest.fixture(scope="module")
def gnu():
    for cmd in BY_HAND + ("set seed 13",):
        quiet(cmd)  # the seed: gnubg throws each opening itself, the same ones every run
    return gnubg


class Recorder:
    """One match played in gnubg and in gammon.match side by side, written down as the
    board's `history` reply: every game's turns, cube actions and resignations."""

    def __init__(self, rnd: random.Random, length: int, jacoby: bool = False) -> None:
        self.rnd = rnd
        self.match = Match(length, True, jacoby)
        self.games: list[dict[str, Any]] = []
        self.start_game()

    def start_game(self) -> None:
        d = decode(gnubg.matchid())  # gnubg throws the opening itself
        self.on_roll, self.dice = d["move"], (d["die1"], d["die2"])
        self.pos = Position.start()
        m = self.match
        self.game = {"game": m.game_number, "opening": sorted(self.dice, reverse=True),
                     "start": None, "turns": [], "actions": [], "score": list(m.score),
                     "crawford": m.crawford, "winner": None, "result": None, "points": None}
        self.games.append(self.game)

    def act(self, kind: str, player: int, value: int = 0) -> None:
        offered = self.match.offer_value  # a resignation's 1-3, for its accept
        getattr(self.match, kind)(player, *((value,) if kind == "resign" else ()))
        quiet("%s %d" % (kind, value) if kind == "resign" else kind)
        self.game["actions"].append({"turn": len(self.game["turns"]),
                                     "rolled": self.dice is not None, "player": player,
                                     "action": kind, "value": value or self.match.cube})
        if self.match.ended:
            self.end(self.match.winner, offered if kind == "accept" else 1)

    def end(self, winner: int, result: int) -> None:
        self.game.update(winner=winner, result=result, points=self.match.points)

    def history(self) -> dict[str, Any]:
        m = self.match
        return {"games": self.games, "match_length": m.length, "jacoby": m.jacoby,
                "cube_on": True}

    def step(self) -> bool:
        """One random action in both; False once the match (or session) is over."""
        m, rnd = self.match, self.rnd
        if m.ended:
            return next_game(m, self.start_game)
        if m.offer:
            self.act(answer(rnd, m), m.deciding(self.on_roll))
            return True
        r = rnd.random()
        # a resignation before the throw: one after it has dice the board does not record
        if r < 0.04 and m.declined < 3 and self.dice is None:
            self.act("resign", self.on_roll, rnd.randint(m.declined + 1, 3))
            return True
        if self.dice is None:
            if r < 0.3 and m.may_double(self.on_roll):
                self.act("double", self.on_roll)
                return True
            self.dice = (rnd.randint(1, 6), rnd.randint(1, 6))
            quiet("set dice %d %d" % self.dice)
            m.went_on()
        plays = legal_plays(self.pos, self.dice)
        play = plays[rnd.randrange(len(plays))] if plays else None
        quiet("move %s" % play if play else "move")
        m.went_on()
        self.game["turns"].append({"player": self.on_roll, "dice": list(self.dice),
                                   "play": str(play) if play else ""})
        if play:
            self.pos = play.result
        won = self.pos.outcome()
        if won:
            m.finish(self.on_roll, won)
            self.end(self.on_roll, won)
        else:
            self.pos, self.on_roll = self.pos.swap(), 1 - self.on_roll
        self.dice = None
        return True


def play(rnd: random.Random, length: int, jacoby: bool = False) -> Recorder:
    if length:
        quiet("new match %d" % length)
    else:
        quiet("set jacoby %s" % ("on" if jacoby else "off"))
        quiet("new session")
    rec = Recorder(rnd, length, jacoby)
    while rec.step():
        pass
    return rec


def cells(line: str) -> tuple[str, ...]:
    """A move line's columns; a move as its dice and number of hops (gnubg orders a play's
    hops its own way: 8/7 7/3 or 8/4 4/3; the positions gnubg reads back are compared in
    `records`)."""
    def norm(cell: str) -> str:
        head, _, hops = cell.strip().partition(": ")
        return "%s %d" % (head, len(hops.split())) if hops else cell.strip()

    if not line[:4].strip().rstrip(")").isdigit():
        return (line.rstrip().replace(" and the match", ""),)
    return (line[:4], norm(line[5:33]), norm(line[33:]))


def body(text: str) -> list[tuple[str, ...]]:
    """The lines of a .mat after its header, comments left out."""
    lines = [ln.rstrip() for ln in text.splitlines() if not ln.startswith(";")]
    start = next(i for i, ln in enumerate(lines) if ln.endswith("point match"))
    return [cells(ln) for ln in lines[start:] if ln]


def records(match: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Per game: its score, winner, points and how it ended; then what a .mat keeps of each
    of its records: who, the dice, the position before it (so every play but a game's last
    is compared by where it leads) and a resignation's value."""
    out: list[tuple[Any, ...]] = []
    for game in match["games"]:
        info = game["info"]
        out.append((info["score-X"], info["score-O"], info["winner"], info["points-won"],
                    info["resigned"], info.get("crawford", False)))
        for r in game["game"]:
            if r["action"] in KEPT:
                out.append((r["action"], r["player"], tuple(r.get("dice") or ()),
                            r.get("board"), r.get("points")))
    return out


def test_our_mat_is_gnubgs_own_export_of_the_same_match(gnu, tmp_path):
    rnd = random.Random(29)
    seen: set[str] = set()
    for k in range(14):
        length = (0, 1, 3, 5, 7, 5, 3)[k % 7]
        rec = play(rnd, length, jacoby=k % 2 == 0)
        theirs = tmp_path / ("theirs%d.mat" % k)
        quiet("export match mat %s" % theirs)
        info = gnubg.match()
        names = (info["match-info"]["X"]["name"], info["match-info"]["O"]["name"])
        ours = matfile.to_mat(rec.history(), names=names)
        assert body(ours) == body(theirs.read_text()), k
        quiet("import mat %s" % theirs)
        want = records(gnubg.match())
        mine = tmp_path / ("ours%d.mat" % k)
        mine.write_text(ours)
        quiet("import mat %s" % mine)
        got = gnubg.match()
        assert records(got) == want, k
        assert got["match-info"]["match-length"] == length
        for g in rec.games:
            for a in g["actions"]:
                seen.add(a["action"])
            if g["crawford"]:
                seen.add("crawford")
    assert {"double", "take", "drop", "resign", "accept", "reject", "crawford"} <= seen, seen


def test_the_wins_line_goes_where_gnubg_reads_it(gnu, tmp_path):
    """A drop or a resignation by either side, and the winner's `Wins` in its column: gnubg
    reads each file back with the right winner, points and way of ending."""
    start = Position.start()
    p31 = str(legal_plays(start, (3, 1))[0])
    cases = [  # (history, winner, points, resigned)
        ({"turns": [{"player": 0, "dice": [3, 1], "play": p31}],
          "actions": [{"turn": 1, "rolled": False, "player": 1, "action": "double"},
                      {"turn": 1, "rolled": False, "player": 0, "action": "drop"}],
          "winner": 1, "result": 1, "points": 1}, "O", 1, False),
        ({"turns": [{"player": 1, "dice": [3, 1], "play": p31}],
          "actions": [{"turn": 1, "rolled": False, "player": 0, "action": "double"},
                      {"turn": 1, "rolled": False, "player": 1, "action": "drop"}],
          "winner": 0, "result": 1, "points": 1}, "X", 1, False),
        ({"turns": [{"player": 1, "dice": [3, 1], "play": p31}],
          "actions": [{"turn": 1, "rolled": False, "player": 0, "action": "resign", "value": 2},
                      {"turn": 1, "rolled": False, "player": 1, "action": "accept"}],
          "winner": 1, "result": 2, "points": 2}, "O", 2, True),
        ({"turns": [{"player": 0, "dice": [3, 1], "play": p31}],
          "actions": [{"turn": 1, "rolled": False, "player": 1, "action": "double"},
                      {"turn": 1, "rolled": False, "player": 0, "action": "take"},
                      {"turn": 1, "rolled": True, "player": 1, "action": "resign", "value": 3},
                      {"turn": 1, "rolled": True, "player": 0, "action": "accept"}],
          "winner": 0, "result": 3, "points": 6}, "X", 6, True),
    ]
    for n, (history, winner, points, resigned) in enumerate(cases):
        path = tmp_path / ("case%d.mat" % n)
        path.write_text(matfile.to_mat(history, match_length=7))
        quiet("import mat %s" % path)
        info = gnubg.match()["games"][0]["info"]
        assert (info["winner"], info["points-won"], info["resigned"]) == (
            winner, points, resigned), (n, path.read_text())


def test_a_record_that_does_not_fit_is_refused():
    turn = {"player": 0, "dice": [3, 1], "play": "8/5 6/5"}
    bad = [
        [{"turn": 3, "rolled": False, "player": 1, "action": "double"}],  # past the record
        [{"turn": 1, "rolled": False, "player": 1, "action": "take"}],  # nothing offered
        [{"turn": 1, "rolled": False, "player": 1, "action": "double"},
         {"turn": 1, "rolled": False, "player": 0, "action": "double"}],
    ]
    for actions in bad:
        with pytest.raises(ValueError):
            export.to_mat({"turns": [turn], "actions": actions, "winner": None})
