"""GNU Backgammon as the oracle for legal plays; writes tests/engine/oracle_data.py.

How the results of every legal play are obtained from gnubg: `gnubg.findbestmoves` returns
one entry per distinct resulting position, best first, each with a move tuple of one-die
steps (from, to, from, to, ...; 25 = bar). A tuple stops at the first bear-off (gnubg marks
both "off" and "no more steps" with -1), so a tuple of odd length holds a bear-off and cannot
rebuild its result. When every tuple is complete, the steps are applied here (landing on a
single opposing checker hits it). Otherwise the position is set with `set board` / `set dice`
and the text of the `hint 100000` command is captured (0-ply, cubeless: every legal play is
listed); each play is parsed with `gnubg.parsemove` and applied the same way (the hint costs
~10 ms, so it is only used for bear-offs). Either way, the number of distinct results must
equal the number of findbestmoves entries; `check_hint` shows both ways agree.

Usage: python tests/gen_oracle.py [N_CASES] [SEED]   (rewrites tests/engine/oracle_data.py)
"""

import os
import random
import re
import sys
import tempfile

import gnubg
import gnubg_capture

START_ID = "4HPwATDgc/ABMA"
# The crafted corners (also used by the engine tests); checked to be legal gnubg positions.
CRAFTED = [
    ("AAAA/3+UUkpJKQ", (1, 1)),  # 2,226 plays
    ("d7cNAABUqqqqAA", (1, 1)),  # 1,720 plays
]
FULL_MAX = 4  # keep every result ID of cases with at most this many plays
ALL_ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
_HINT_LINE = re.compile(r"^\s*\d+\.\s+\S+\s+\d+-ply\s+(.+?)\s+Eq\.:")
_EVAL = None
_CUBE = None
_OUT = None


def _init():
    global _EVAL, _CUBE, _OUT
    if _OUT is not None:
        return
    _OUT = tempfile.TemporaryFile()
    _EVAL = gnubg.evalcontext(0, 0, 1, 0, 0.0)
    # money play, centred cube, spelt out: cubeinfo() copies any match another test loaded
    _CUBE = gnubg.cubeinfo(1, -1, 0, 0, (0, 0), 0, 0)
    for cmd in (
        "set threads 1",  # hint and friends hang without it
        "set display off",
        "set player 0 human",
        "set player 1 human",
        "set evaluation chequerplay evaluation plies 0",
        "set evaluation chequerplay evaluation cubeful off",  # twice as fast; same plays
        "new game",
    ):
        command(cmd)


def command(cmd):
    """Run a gnubg command, returning what it printed (gnubg writes to file descriptor 1)."""
    return gnubg_capture.command(_OUT, cmd)


def board_of(pid):
    """gnubg board (opp, me) as two lists, me = the player on roll."""
    opp, me = gnubg.positionfromid(pid)
    return list(opp), list(me)


def pid_of(board):
    return gnubg.positionid((list(board[0]), list(board[1])))


def count(board, dice):
    """Number of distinct legal plays according to findbestmoves (0 when none)."""
    return len(_moves(board, dice))


def apply(board, pairs):
    """Apply (from, to) pairs (25 = bar, 0 = off) for the player on roll; returns new board."""
    opp, me = list(board[0]), list(board[1])
    for frm, to in pairs:
        if me[frm - 1] <= 0:
            raise ValueError("no checker on %d" % frm)
        me[frm - 1] -= 1
        if to > 0:
            if opp[24 - to] == 1:  # my point `to` is the opponent's point 25 - to
                opp[24 - to] = 0
                opp[24] += 1
            elif opp[24 - to] > 1:
                raise ValueError("point %d is blocked" % to)
            me[to - 1] += 1
    return opp, me


def _moves(board, dice):
    _init()
    moves = gnubg.findbestmoves((list(board[0]), list(board[1])), _CUBE, _EVAL, tuple(dice))
    return [m["move"] for m in moves if m["move"]]


def hint_plays(board, dice):
    """[(notation, result_board)] for every legal play from gnubg's hint, best first."""
    _init()
    if not _moves(board, dice):
        return []
    plays = _hint(board, dice)
    if not plays:
        # gnubg's state is the process's: another test in this worker may have left a match
        # over or an offer pending, where `hint` lists no plays; a fresh money game, once
        command("new session")
        command("new game")
        plays = _hint(board, dice)
    return plays


def _hint(board, dice):
    pid = pid_of(board)
    if "Position ID: " + pid not in command("set board %s" % pid):
        raise ValueError("gnubg rejects the position %s" % pid)
    if "set to %d and %d" % tuple(dice) not in command("set dice %d %d" % tuple(dice)):
        raise ValueError("gnubg rejects the dice %r" % (dice,))
    plays = []
    for line in command("hint 100000").splitlines():
        m = _HINT_LINE.match(line)
        if m:
            text = m.group(1)
            plays.append((text, apply(board, gnubg.parsemove(text))))
    return plays


def result_boards(board, dice, use_hint=False):
    """Result boards (mover on roll) of every legal play, best first, checked against the
    findbestmoves count."""
    moves = _moves(board, dice)
    if use_hint or any(len(m) % 2 for m in moves):
        boards = [b for _, b in hint_plays(board, dice)]
    else:
        boards = [apply(board, zip(m[::2], m[1::2], strict=True)) for m in moves]
    if len(set(pid_of(b) for b in boards)) != len(moves) or len(boards) != len(moves):
        raise AssertionError(
            "gnubg gave %d results for %d plays in %s %r"
            % (len(boards), len(moves), pid_of(board), dice)
        )
    return boards


def results(board, dice, use_hint=False):
    """Sorted Position IDs (mover on roll) of the results of every legal play."""
    return sorted(pid_of(b) for b in result_boards(board, dice, use_hint))


def check_hint(board, dice):
    """True when the hint way and the move-tuple way give the same results (no bear-off)."""
    return results(board, dice, True) == results(board, dice)


def random_positions(n, seed, greedy=0.3):
    """n (board, dice, result ids) met in games of random play (a fraction `greedy` of the
    plays are gnubg's 0-ply best, to reach races and bear-offs too), from the start, seeded."""
    rng = random.Random(seed)
    out = []
    board = board_of(START_ID)
    while len(out) < n:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        boards = result_boards(board, dice)
        out.append((board, dice, sorted(pid_of(b) for b in boards)))
        if boards:
            after = boards[0] if rng.random() < greedy else rng.choice(boards)
        else:
            after = board
        if sum(after[1]) == 0:  # the mover has borne off everything: a new game
            board = board_of(START_ID)
        else:
            board = (after[1], after[0])  # pass the turn
    return out


def fingerprint(ids):
    """Order-free 30-bit checksum of result IDs: the sum of each ID's FNV-1a hash.
    tests/engine/test_oracle.py computes the same while it walks the plays, holding none."""
    total = 0
    for pid in ids:
        h = 0x811C9DC5 & 0x3FFFFFFF
        for ch in pid:
            h = ((h ^ ord(ch)) * 16777619) & 0x3FFFFFFF
        total += h
    return total & 0x3FFFFFFF


def cases(n, seed):
    """Oracle cases: (position id, dice, sorted result ids), crafted ones first, then a
    sample of the positions met in 10 * n turns of random play."""
    out = []
    for pid, dice in CRAFTED:
        out.append((pid, dice, results(board_of(pid), dice)))
    met = random_positions(10 * n, seed)
    for board, dice, ids in random.Random(seed).sample(met, n - len(out)):
        out.append((pid_of(board), dice, ids))
    return out


def write(path, rows, full_max=FULL_MAX, per_string=8):
    """One line per case: "ID DICE COUNT FINGERPRINT [RESULT_IDS]"; the result IDs (sorted,
    concatenated, 14 characters each) only when there are at most full_max. Lines are
    grouped a few to a string, so MicroPython loads them with no large block of heap."""
    lines = []
    for pid, dice, ids in rows:
        line = "%s %d%d %d %d" % (pid, dice[0], dice[1], len(ids), fingerprint(ids))
        if len(ids) <= full_max:
            line += " " + "".join(ids)
        lines.append(line)
    out = [
        '"""Legal plays from GNU Backgammon, for test_oracle.py; made by tests/gen_oracle.py."""',
        "",
        "# %d cases (crafted, then positions of seeded random play), one a line:" % len(rows),
        "# position ID, dice, number of distinct plays, the fingerprint of their result IDs",
        "# (mover on roll; see gen_oracle.fingerprint), and the sorted result IDs when few.",
        "CASES = (",
    ]
    for i in range(0, len(lines), per_string):
        group = lines[i : i + per_string]
        for line in group[:-1]:
            out.append('    "%s\\n"' % line)
        out.append('    "%s",' % group[-1])
    out.append(")")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main(argv):
    n = int(argv[1]) if len(argv) > 1 else 300
    seed = int(argv[2]) if len(argv) > 2 else 2024
    rows = cases(n, seed)
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "engine", "oracle_data.py")
    write(path, rows)
    total = sum(len(r[2]) for r in rows)
    print("%d cases, %d plays, %d bytes -> %s" % (len(rows), total, os.path.getsize(path), path))


if __name__ == "__main__":
    main(sys.argv)
