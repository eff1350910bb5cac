# Games at any point of the save's range, each save read back (tests/test_save_range.py): the
# game number, the scores and the game number of a match or money session at any value the
# reader takes, a game ended (played out, a double dropped, a resignation accepted) at a
# single game, a gammon or a backgammon, after a double taken or not, and the next game;
# every save the board writes on the way must load back to the same text. Runs on CPython
# and, through `serve` (one case a JSON line on stdin), on MicroPython.
from gammon.position import Position
from model import savefile
from model.game import OVER, Game

# The winner on roll with one checker on its 1 point; the loser with one off (a single
# game), none off and none in the winner's home (a gammon), or one there (a backgammon).
_LOSER = ({6: 14}, {12: 15}, {23: 1, 12: 14})


def _side(points):
    out = [0] * 25
    for k in points:
        out[k - 1] = points[k]
    return out


def _winning(result):
    """The position with the winner on roll one throw from a win of `result`."""
    return Position(_side({1: 1}), _side(_LOSER[result - 1]))


def roundtrip(g):
    """The save of g, which must load back to the same text."""
    text = g.to_json()
    again = savefile.load(Game, text).to_json()
    if again != text:
        raise AssertionError("a save loads back as another: %s / %s" % (text, again))
    return text


def _end(g, end, result, double, winner):
    """Ends game `g` as `end` says ("played", "drop": with the cube on, "resign"), won by
    `winner` with `result`, after a double taken when `double` (and the rules allow it: a
    double they refuse, dead or in the Crawford game, leaves the game played out)."""
    if end == "resign":
        g.setup(_winning(result).swap(), 1 - winner)  # the loser on roll resigns
        roundtrip(g)
        g.resign(result)
        roundtrip(g)
        g.accept()
        return
    g.setup(_winning(result), winner)
    roundtrip(g)
    if g.terms[1] and (double or end == "drop"):
        try:
            g.double()
        except ValueError:  # dead, Crawford: the rules refuse it
            pass
        else:
            roundtrip(g)
            if end == "drop":
                g.drop()
                return
            g.take()
            roundtrip(g)
    g.roll((2, 1))
    g.step(1, 0)


def run(case):
    """Plays `case` ({"n", "terms", "score", "mg", "ends": [[end, result, double, winner],
    ...]}); returns the saves written, each read back."""
    terms = tuple(case["terms"])
    s0, s1 = case["score"]
    g = Game(case["n"], terms, (s0, s1, False, False, case["mg"]))
    texts = [roundtrip(g)]
    for end, result, double, winner in case["ends"]:
        n = g.game_number
        _end(g, end, result, double, winner)
        if g.phase != OVER:
            raise AssertionError("the game did not end")
        texts.append(roundtrip(g))
        g.new_game(terms)
        if g.game_number != n % 0x3FFFFFFF + 1:
            raise AssertionError("game %d came after %d" % (g.game_number, n))
        texts.append(roundtrip(g))
    return texts


def refusal(text):
    """Why the save `text` is refused (its ValueError's message), or None: it loads."""
    try:
        savefile.load(Game, text)
    except ValueError as exc:
        return str(exc)
    return None


def serve():
    """One case a JSON line on stdin ({"refusal": text}: why a save is refused); for each a
    line: "ok" and the last save (or the refusal), or the error."""
    import json
    import sys

    while True:
        line = sys.stdin.readline()
        if not line:
            return
        try:
            case = json.loads(line)
            if "refusal" in case:
                out = "ok " + str(refusal(case["refusal"]))
            else:
                out = "ok " + run(case)[-1]
        except Exception as exc:  # the test fails with it
            out = "error %r" % (exc,)
        sys.stdout.write(out + "\n")
        sys.stdout.flush()
