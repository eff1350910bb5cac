# The contact inputs of gammon/features.py in floating point, written from their definitions
# again (each checker and each of the 36 rolls one by one, no masks, no tables), for the
# tests to hold the integer encoder to, under CPython and MicroPython alike. Each is what GNU
# Backgammon's eval.c computes (its CalculateHalfInputs), with gnubg's rounding where it
# rounds (the spread's mean and mean square, rounded up).


def _held(side, j):
    """Whether the side's counts `side` hold its index j (two or more)."""
    return 0 <= j < 24 and side[j] >= 2


def escapes(mover, blocker, at):
    """Rolls of 36 that carry a checker of `mover` on its index `at` past `blocker`."""
    def blocked(dist):  # the point `dist` pips ahead, within 12, held by the blocker
        to = at - dist
        return dist <= 12 and to >= 0 and _held(blocker, 23 - to)

    n = 0
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            if not blocked(d1 + d2) and not (blocked(d1) and blocked(d2)):
                n += 1
    return n


def side_inputs(me, opp):
    """The 18 inputs of the side with counts `me` against `opp`, in floats."""
    on = sum(me)
    off = 15 - on
    checkers = [i for i in range(25) for _ in range(me[i])]
    theirs = [j for j in range(25) for _ in range(opp[j])]
    out = [min(off, 5) / 5, min(max(off - 5, 0), 5) / 5, max(off - 10, 0) / 5]
    if theirs:
        rear = 23 - max(theirs)  # their rearmost checker in my numbering
        out.append(sum(i - rear + 1 for i in checkers if i > rear) / 167)  # to pass it
    else:
        out.append(0.0)
    back = max(checkers) if checkers else 0
    out.append(back / 24)
    anchors = [i for i in range(24) if me[i] >= 2]
    out.append((max(anchors) + 1) / 24 if anchors else 0.0)
    home = [24 - i for i in range(18, 24) if me[i] >= 2]  # the opponent's points held
    outfield = [24 - i for i in range(12, 18) if me[i] >= 2]
    out.append(max(home) / 6 if home else min(outfield) / 6 if outfield else 2.0)
    rearmost = max(theirs) if theirs else -1
    out.append(escapes(opp, me, rearmost) / 36)  # their back checker past my points
    a = min([escapes(opp, me, j) for j in range(15, 25) if j <= rearmost] or [36])
    c = min(escapes(opp, me, j) for j in range(15, 24))
    out += [1 - a / 36, (1 - a / 36) ** 2, 1 - c / 36, (1 - c / 36) ** 2]
    out.append(sum(escapes(me, opp, i) * (i - 5) for i in checkers if i >= 6) / 3600)
    mean = -(-sum(checkers) // len(checkers)) if checkers else 0  # indices, rounded up
    beyond = [(i - mean) ** 2 for i in checkers if i > mean]
    out.append(-(-sum(beyond) // len(beyond)) / 400 if beyond else 0.0)
    closed = sum(1 for j in range(6) if opp[j] >= 2)
    out.append(1 - (1 - closed / 6) ** 2)
    points = sum(1 for i in range(18, 24) if me[i] >= 2)
    there = sum(me[18:25])
    out.append((there - 3) / 4 if points >= 2 else 0.0)
    out.append(there / 8 if points == 1 else 0.0)
    out.append(sum(i + 1 for i in checkers) / 167)
    return out


def inputs(board):
    """Both sides' inputs for a 50-byte board, the side on roll's first."""
    me, opp = list(board[:25]), list(board[25:])
    return side_inputs(me, opp) + side_inputs(opp, me)
