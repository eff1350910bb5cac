"""GNU Backgammon's cube analysis through its bindings, for tests/gen_cube.py and
tests/test_cube_gnubg.py (CPython only).

`gnubg.hint()` refuses cube decisions ("not yet implemented"), so the state is set with
`set gnubgid POSITION:MATCH` (a Match ID made by `gnubg.matchid`, player 1 on roll, no
dice) and the text of the `hint` command is read: no double, double/take and double/pass
as normalized equities (match play: gnubg's mwc2eq at the current cube), 5 decimals.
"""

import os
import random
import re
import sys
import tempfile

import gnubg
import gnubg_capture

_OUT = None
_LINE = re.compile(r"^\s*[123]\.\s+(No double|No redouble|Double, take|Redouble, take|"
                   r"Double, pass|Redouble, pass|Double, beaver|Redouble, beaver)"
                   r"\s+([+-]\d+\.\d+)", re.M)
_KIND = {"No": 0, "take": 1, "beaver": 1, "pass": 2}
_PROPER = re.compile(r"Proper cube action:\s*(.+?)(?:\s+\(|$)", re.M)
EVAL0 = None


def money_cube():
    """Money play, centred cube, spelt out: gnubg.cubeinfo() copies any match loaded."""
    return gnubg.cubeinfo(1, -1, 0, 0, (0, 0), 0, 0)


def command(cmd):
    """Runs a gnubg command; returns what it printed (gnubg writes to descriptor 1)."""
    return gnubg_capture.command(_OUT, cmd)


def init(plies=0):
    """One session: human players, cube decisions at `plies`, five decimals."""
    global _OUT, EVAL0
    if _OUT is None:
        _OUT = tempfile.TemporaryFile()
        EVAL0 = gnubg.evalcontext(0, 0, 1, 0, 0.0)
        for cmd in ("set threads 1", "set display off", "set sound enable off",
                    "set player 0 human", "set player 1 human", "set output digits 5",
                    "new match 7"):
            command(cmd)
    # set at every call: gnubg is one per process, and bench/strength/cubeful.py (in the same
    # test process) shows match winning chances where these tests read equities
    command("set output mwc off")
    command("set beavers 0")  # the board allows none ("set beavers off" is refused)
    command("set evaluation cubedecision evaluation plies %d" % plies)
    command("set evaluation cubedecision evaluation cubeful on")


def beavers():
    """gnubg's own account of the beavers it allows in money play (`show beavers`)."""
    return command("show beavers").strip()


def probabilities(pid):
    """gnubg's 0-ply cubeless (win, wg, wbg, lg, lbg) for the player on roll of `pid`."""
    return tuple(gnubg.evaluate(gnubg.positionfromid(pid), money_cube(), EVAL0)[:5])


def analyse(pid, cube=1, owner=-1, length=0, score=(0, 0), crawford=False, jacoby=True):
    """(nd, dt, dp, proper action) for the player on roll of `pid`, or None when gnubg
    says it cannot double; owner -1 centred, 0 the player on roll's, 1 the opponent's;
    score (the roller's, the opponent's)."""
    gowner = -1 if owner < 0 else (1 if owner == 0 else 0)  # gnubg: player 1 is on roll
    command("set jacoby %s" % ("on" if jacoby else "off"))
    if length:
        ci = gnubg.cubeinfo(cube, gowner, 1, length, (score[1], score[0]), int(crawford), 0)
    else:
        ci = gnubg.cubeinfo(cube, gowner, 1, 0, (0, 0), 0, 0)
        ci["jacoby"] = int(jacoby)
    mid = gnubg.matchid(ci, gnubg.posinfo(1, 0, 0, 1, (0, 0)))
    command("set gnubgid %s:%s" % (pid, mid))
    text = command("hint")
    if "cannot double" in text:
        return None
    found = {}
    for label, value in _LINE.findall(text):
        found[_KIND[label.split()[0] if label.startswith("No") else label.split()[-1]]] = (
            float(value))
    proper = _PROPER.search(text)
    if len(found) != 3 or not proper:
        raise RuntimeError("no cube analysis for %s:%s:\n%s" % (pid, mid, text))
    return found[0], found[1], found[2], proper.group(1).strip()


def positions(n, seed, noise=0.08):
    """`n` position IDs met before a roll in games of gnubg 0-ply against itself with some
    noise (so doubles, drops, races and bear-offs all come up), player on roll's view."""
    sys.path[:0] = [p for p in _paths() if p not in sys.path]
    from gammon import Position, legal_plays

    rng = random.Random(seed)
    out = []
    while len(out) < n:
        pos = Position.start()
        while pos.outcome() == 0 and len(out) < n:
            out.append(pos.position_id())
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            plays = legal_plays(pos, dice)
            if not plays:
                pos = pos.swap()
                continue
            best = None
            for play in plays:
                after = play.result
                if after.outcome():
                    score = 9.0
                else:
                    b = gnubg.positionfromid(after.swap().position_id())
                    score = -gnubg.evaluate(b, money_cube(), EVAL0)[5]
                score += rng.gauss(0, noise)
                if best is None or score > best[0]:
                    best = (score, after)
            pos = best[1]
            if pos.outcome():
                break
            pos = pos.swap()
    return out


def _paths():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return [os.path.join(root, "firmware"), os.path.join(root, "native")]
