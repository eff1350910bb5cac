# The board's own player for bench/strength/run.py: the firmware's Opponent, run by MicroPython.
#
#   MICROPYPATH=DIR micropython -m agent_mp WEIGHTS     (DIR: firmware/gammon, this, chance)
#
# Reads one request a line, "POSITION_ID D1 D2 LEVEL SEED [MATCH_ID]", and answers each with
# one line: "RESULT_ID EVALUATIONS MICROSECONDS" (the position after its play, the mover
# still the first side), "- EVALUATIONS MICROSECONDS" when nothing can move, or "! MESSAGE"
# when the request is bad. SEED feeds the easy level's chance (seeded, so a run repeats);
# "strong" ignores it. With gnubg's MATCH_ID (the mover on roll) in a match to points, the
# play counts gammons at that score as the board's player does (gammon/score_values.py,
# control/plan.py); a firmware without that module plays money play's. "score" is answered
# "score" when it has it, "money" when not. Ends at the end of its input.
#
# Cube decisions (bench/strength/cube.py): "double POSITION_ID MATCH_ID LEVEL [interim]" (the
# player on roll, before rolling: does it double?) and "take POSITION_ID MATCH_ID LEVEL
# [interim]" (the player on roll doubles: does the other take?), the position with the
# player on roll (the doubler) first and gnubg's Match ID before the double; answered
# "yes EVALUATIONS MICROSECONDS" or "no ...". The board's own decisions decide, as its player
# makes them (gammon/cube_play.py: decide and answer, at the level); where that module is
# missing, or with "interim", the rule the board had before them: never double, take at 25%
# or more to win. "rule" is answered "cube" or "interim": the rule used without "interim".
import sys

from chance import chance
from gammon import Position
from gammon.match import Match
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
    from gammon import cube_play as _cube_play
except ImportError:  # a firmware from before the board's cube decisions
    _cube_play = None

try:
    from gammon.score_values import values as _at_score
except ImportError:  # a firmware from before checker play at the score
    _at_score = None

_TAKE_POINT = 1024  # 25% of kernels.net.PROB_ONE


def _match(fields):
    """A gammon.match.Match in the state a decoded Match ID gives (before any offer)."""
    n = fields["length"]
    m = Match(n, True, not fields["jacoby_off"])
    score = (fields["score0"], fields["score1"])
    crawford = bool(fields["crawford"])
    post = bool(n) and not crawford and (n - 1) in score
    m.resume(score, crawford, post, 2, fields["cube"], fields["owner"])
    return m


def cube_answer(opponent, parts):
    """The reply to a cube request (parts: kind, position ID, Match ID, level[, interim])."""
    if not 4 <= len(parts) <= 5 or parts[0] not in ("double", "take"):
        return "! want: double|take POSITION_ID MATCH_ID LEVEL [interim]"
    try:
        position = Position.from_id(parts[1])
        fields = decode(parts[2])
        level = parts[3]
        if level not in ("easy", "strong"):
            raise ValueError("unknown level %r" % level)
        interim = len(parts) == 5
        if interim and parts[4] != "interim":
            raise ValueError("unknown rule %r" % parts[4])
        match = _match(fields)
        doubler = fields["move"]
        net = opponent.net
        start = ticks_us()
        if interim or _cube_play is None:
            net.equity(position.key(), 0)  # the doubler's chances, it on roll
            yes = parts[0] == "take" and 4096 - net.probabilities()[0] >= _TAKE_POINT
        elif parts[0] == "double":
            # a resignation instead is not played here: the game goes on (no double)
            yes = _cube_play.decide(net, position, match, doubler, level) == "double"
        else:
            match.double(doubler)  # the offer on the table, the cube not yet turned
            yes = _cube_play.answer(net, position, match, doubler, level) == "take"
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
        return "interim" if _cube_play is None else "cube"
    if parts == ["score"]:  # whether the checker play counts gammons at the match score
        return "money" if _at_score is None else "score"
    if len(parts) not in (5, 6):
        return "! want: POSITION_ID D1 D2 LEVEL SEED [MATCH_ID]"
    try:
        position = Position.from_id(parts[0])
        dice = check_dice((int(parts[1]), int(parts[2])))
        rand = chance(int(parts[4]))
        values = None
        if len(parts) == 6:
            fields = decode(parts[5])
            if _at_score is not None:
                values = _at_score(_match(fields), fields["move"])
        start = ticks_us()
        if values is None:  # (so a firmware from before `values` runs too)
            play = opponent.choose(position, dice, parts[3], rand)
        else:
            play = opponent.choose(position, dice, parts[3], rand, values)
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
