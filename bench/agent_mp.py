# The board's own player for bench/strength.py: the firmware's Opponent, run by MicroPython.
#
#   MICROPYPATH=DIR micropython -m agent_mp WEIGHTS     (DIR: firmware/gammon, this, chance)
#
# Reads one request a line, "POSITION_ID D1 D2 LEVEL SEED", and answers each with one line:
# "RESULT_ID EVALUATIONS MICROSECONDS" (the position after its play, the mover still the
# first side), "- EVALUATIONS MICROSECONDS" when nothing can move, or "! MESSAGE" when the
# request is bad. SEED feeds the easy level's chance (seeded, so a run repeats);
# "strong" ignores it. Ends at the end of its input.
#
# Cube decisions (bench/strength_cube.py): "double POSITION_ID MATCH_ID LEVEL [interim]" (the
# player on roll, before rolling: does it double?) and "take POSITION_ID MATCH_ID LEVEL
# [interim]" (the player on roll doubles: does the other take?), the position with the
# player on roll (the doubler) first and gnubg's Match ID before the double; answered
# "yes EVALUATIONS MICROSECONDS" or "no ...". The board's own decisions (gammon/cube.py, from
# the network's cubeless chances) decide; where that module is missing, or with "interim",
# the rule the board had before it: never double, take at 25% or more to win. "rule" is
# answered "cube" or "interim": the rule that decides without "interim".
import sys

from chance import chance
from gammon import Position
from gammon.matchid import decode
from gammon.opponent import Opponent
from gammon.play import check_dice
from kernels.net import Net

try:
    from time import ticks_diff, ticks_us
except ImportError:  # CPython, for a quick look; the bench runs MicroPython
    from time import perf_counter_ns

    def ticks_us():
        return perf_counter_ns() // 1000

    def ticks_diff(a, b):
        return a - b


try:
    from gammon import cube as _cube
except ImportError:  # a firmware from before the board's cube decisions
    _cube = None

_TAKE_POINT = 1024  # 25% of kernels.net.PROB_ONE


def _terms(fields):
    """gammon.cube.Terms for the doubler (the player on roll) from a decoded Match ID."""
    me = fields["move"]
    owner = fields["owner"]
    if owner >= 0:
        owner = 0 if owner == me else 1
    n = fields["length"]
    score = (fields["score0"], fields["score1"])
    away_me = n - score[me] if n else 0
    away_opp = n - score[1 - me] if n else 0
    return _cube.Terms(
        fields["cube"], owner, n, away_me, away_opp, fields["crawford"], not fields["jacoby_off"]
    )


def cube_answer(opponent, parts):
    """The reply to a cube request (parts: kind, position ID, Match ID, level[, interim])."""
    if not 4 <= len(parts) <= 5 or parts[0] not in ("double", "take"):
        return "! want: double|take POSITION_ID MATCH_ID LEVEL [interim]"
    try:
        position = Position.from_id(parts[1])
        fields = decode(parts[2])
        if parts[3] not in ("easy", "strong"):
            raise ValueError("unknown level %r" % parts[3])
        interim = len(parts) == 5
        if interim and parts[4] != "interim":
            raise ValueError("unknown rule %r" % parts[4])
        net = opponent.net
        start = ticks_us()
        board = position.key()
        net.equity(board, 0)  # the doubler's chances, it on roll
        p = net.probabilities()
        if interim or _cube is None:
            yes = parts[0] == "take" and 4096 - p[0] >= _TAKE_POINT
        else:
            t = _terms(fields)
            x = _cube.efficiency(board)
            yes = _cube.doubles(p, t, x) if parts[0] == "double" else _cube.takes(p, t, x)
        took = ticks_diff(ticks_us(), start)
    except Exception as exc:  # a bad request is answered, never fatal
        return "! %s" % (exc,)
    return "%s %d %d" % ("yes" if yes else "no", 1, took)


def answer(opponent, line):
    """The reply line to one request line."""
    parts = line.split()
    if parts and parts[0] in ("double", "take"):
        return cube_answer(opponent, parts)
    if parts == ["rule"]:  # which cube rule decides when "interim" is not asked for
        return "interim" if _cube is None else "cube"
    if len(parts) != 5:
        return "! want: POSITION_ID D1 D2 LEVEL SEED"
    try:
        position = Position.from_id(parts[0])
        dice = check_dice((int(parts[1]), int(parts[2])))
        rand = chance(int(parts[4]))
        start = ticks_us()
        play = opponent.choose(position, dice, parts[3], rand)
        took = ticks_diff(ticks_us(), start)
    except Exception as exc:  # a bad request is answered, never fatal
        return "! %s" % (exc,)
    result = play.result.position_id() if play is not None else "-"
    return "%s %d %d" % (result, opponent.evaluations, took)


def main(args):
    if len(args) != 1:
        print("usage: micropython -m agent_mp WEIGHTS")
        return 2
    opponent = Opponent(Net(args[0]))
    while True:
        line = sys.stdin.readline()
        if not line:
            return 0
        if line.strip():
            sys.stdout.write(answer(opponent, line) + "\n")
            flush = getattr(sys.stdout, "flush", None)
            if flush:
                flush()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
