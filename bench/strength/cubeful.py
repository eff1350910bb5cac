"""GNU Backgammon with the cube, for bench/strength/cube.py: its cubeful checker play and its
cube decisions at the match score, and its cube analysis at any depth to judge the board's.

gnubg's Python bindings evaluate cubelessly (`evaluate` ignores a cubeful context) and their
`hint()` refuses cube decisions, so a cube decision is what the `hint` command prints for
the position set with `set gnubgid POSITION:MATCH` (the Match ID carries cube, owner, score,
Crawford and Jacoby): the cubeful equities of no double, double/take and double/pass.
Checker play is `findbestmoves` with a cubeful context and a cube-info of the match state.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from dataclasses import dataclass
from typing import Any

from gammon import Play, Position, legal_plays
from gammon.match import Match
from gammon.matchid import encode

from bench.strength.players import best_play

_PROPER = "Proper cube action: "
_CUBE_LINE = re.compile(r"^\s*\d\.\s+(No double|Double, take|Double, pass)\s+([-+]?\d+\.\d+)(%?)")


@dataclass(frozen=True)
class CubeAnalysis:
    """gnubg's cubeful equities for the player on roll before its roll: money equity per
    cube (double/pass is +1) in money play, its match winning chance (0-1) in a match."""

    no_double: float
    take: float  # double, take
    drop: float  # double, pass
    plies: int
    proper: str = ""  # gnubg's "Proper cube action", e.g. "No double, take"

    def doubles(self) -> bool:
        """The right action for the doubler: double when that gains, whatever the answer
        (gnubg's own verdict, which it makes from unrounded equities, where it is known)."""
        if self.proper:
            return self.proper.startswith(("Double", "Redouble"))
        return min(self.take, self.drop) > self.no_double

    def takes(self) -> bool:
        """The right answer to a double: take unless the doubler gains more by it."""
        if self.proper:
            return self.proper.endswith(("take", "beaver"))
        return self.take <= self.drop

    def double_loss(self, doubled: bool) -> float:
        """What the doubler loses by doubling (or not), the answer being the right one."""
        best = max(self.no_double, min(self.take, self.drop))
        return best - (min(self.take, self.drop) if doubled else self.no_double)

    def take_loss(self, took: bool) -> float:
        """What the doubled player loses by taking (or dropping), for that player."""
        return (self.take if took else self.drop) - min(self.take, self.drop)


def match_id(match: Match, on_roll: int) -> str:
    """gnubg's Match ID of `match` before `on_roll`'s roll."""
    return encode(match.id_fields(on_roll))


class Gnubg:
    """The gnubg module with its printing captured (it writes to file descriptor 1)."""

    def __init__(self) -> None:
        import gnubg

        self.gnubg = gnubg
        self._out = tempfile.TemporaryFile()
        for cmd in (
            "set threads 1",  # hint and friends hang without it
            "set display off",
            "set player 0 human",
            "set player 1 human",
            "set jacoby on",
            "set beavers 0",
            "set output mwc on",
            "set evaluation cubedecision evaluation cubeful on",
            "set evaluation cubedecision evaluation prune off",
        ):
            self.command(cmd)

    def command(self, cmd: str) -> str:
        sys.stdout.flush()
        sys.stderr.flush()
        self._out.seek(0)
        self._out.truncate()
        saved = os.dup(1), os.dup(2)
        os.dup2(self._out.fileno(), 1)
        os.dup2(self._out.fileno(), 2)
        try:
            self.gnubg.command(cmd)
        finally:
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])
        self._out.seek(0)
        return self._out.read().decode("utf-8", "replace")

    def analyse(
        self, position: Position, match: Match, on_roll: int, plies: int, mwc: bool = True
    ) -> CubeAnalysis:
        """The cube decision of `on_roll` (to play `position`, before the roll) at `plies`;
        in a match as winning chances, or with `mwc` False as equities normalized to the
        cube (as in money play)."""
        return self.analyse_id(position.position_id(), match_id(match, on_roll), plies, mwc)

    def analyse_id(self, pid: str, mid: str, plies: int, mwc: bool = True) -> CubeAnalysis:
        """The same from a Position ID (the player on roll first) and a Match ID."""
        # set each time, not remembered: gnubg is one per process, and another user of it
        # in the same process (the tests' tests/gnubg_cube.py) may have changed them
        self.command("set evaluation cubedecision evaluation plies %d" % plies)
        self.command("set output mwc %s" % ("on" if mwc else "off"))
        gid = "%s:%s" % (pid, mid)
        self.command("set gnubgid " + gid)
        if self.gnubg.gnubgid() != gid:
            raise ValueError("gnubg refused %s (it has %s)" % (gid, self.gnubg.gnubgid()))
        found = {}
        proper = ""
        for line in self.command("hint").splitlines():
            m = _CUBE_LINE.match(line)
            if m:
                value = float(m.group(2))
                found[m.group(1)] = value / 100 if m.group(3) else value
            elif line.startswith(_PROPER):
                proper = line[len(_PROPER) :].split(" (")[0].strip()
        if len(found) != 3 or not proper:
            raise ValueError("no cube analysis from gnubg for %s" % gid)
        take, drop = found["Double, take"], found["Double, pass"]
        return CubeAnalysis(found["No double"], take, drop, plies, proper)


def cube_info(gnubg: Any, match: Match, on_roll: int) -> Any:
    """gnubg's cube-info for `on_roll` to play with the cube, owner and score of `match`."""
    ci = gnubg.cubeinfo(
        match.cube,
        match.owner,
        on_roll,
        match.length,
        (match.score[0], match.score[1]),
        int(match.crawford),
        0,
    )
    if match.length == 0:
        ci["jacoby"] = int(match.jacoby and match.cube_on)
    return ci


class GnubgCubePlayer:
    """GNU Backgammon at `plies` with the cube: cubeful checker play, its own cube decisions."""

    name = "gnubg"

    def __init__(self, plies: int = 0, oracle: Gnubg | None = None) -> None:
        self.oracle = oracle or Gnubg()
        self.plies = plies
        g = self.oracle.gnubg
        self.cubeful = g.evalcontext(1, plies, 0, 0, 0.0)
        self.cubeless = g.evalcontext(0, plies, 0, 0, 0.0)
        self.bear_off_fallbacks = 0

    def choose(
        self, position: Position, dice: tuple[int, int], seed: int, match: Match, me: int
    ) -> Play | None:
        """gnubg's best play by its cubeful evaluation; when that play bears off, its move
        tuple cannot be rebuilt (it stops at the first bear-off), so the cubeless
        evaluation at the score ranks the engine's plays instead."""
        plays = legal_plays(position, dice)
        if len(plays) < 2:
            return plays[0] if plays else None
        g = self.oracle.gnubg
        board = (list(position.opp), list(position.me))
        moves = g.findbestmoves(board, cube_info(g, match, me), self.cubeful, dice)
        tup = moves[0]["move"] if moves else ()
        if tup and len(tup) % 2 == 0:
            me_after, opp_after = list(position.me), list(position.opp)
            for frm, to in zip(tup[::2], tup[1::2], strict=True):
                me_after[frm - 1] -= 1
                if to > 0:
                    if opp_after[24 - to] == 1:
                        opp_after[24 - to] = 0
                        opp_after[24] += 1
                    me_after[to - 1] += 1
            want = Position(me_after, opp_after)
            for play in plays:
                if play.result == want:
                    return play
            raise ValueError("gnubg's play %r is not legal in %s %r" % (tup, position, dice))
        self.bear_off_fallbacks += 1
        info = cube_info(g, match, 1 - me)

        def score(after: Position) -> float:
            won = after.outcome()
            if won:
                return 10.0 * won
            # the equity of the side on roll after the play: money, or normalized at the score
            return -g.evaluate((list(after.me), list(after.opp)), info, self.cubeless)[5]

        return best_play(plays, score)

    def double(self, position: Position, match: Match, me: int) -> bool:
        return self.oracle.analyse(position, match, me, self.plies).doubles()

    def take(self, position: Position, match: Match, me: int) -> bool:
        """`position` is the doubler's (it on roll, player 1 - me)."""
        return self.oracle.analyse(position, match, 1 - me, self.plies).takes()
