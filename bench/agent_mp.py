# The board's own player for bench/strength.py: the firmware's Opponent, run by MicroPython.
#
#   MICROPYPATH=DIR micropython -m agent_mp WEIGHTS     (DIR: firmware/gammon, this, chance)
#
# Reads one request a line, "POSITION_ID D1 D2 LEVEL SEED", and answers each with one line:
# "RESULT_ID EVALUATIONS MICROSECONDS" (the position after its play, the mover still the
# first side), "- EVALUATIONS MICROSECONDS" when nothing can move, or "! MESSAGE" when the
# request is bad. SEED feeds the easy level's chance (seeded, so a run repeats);
# "strong" ignores it. Ends at the end of its input.
import sys

from chance import chance
from gammon import Position
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


def answer(opponent, line):
    """The reply line to one request line."""
    parts = line.split()
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
