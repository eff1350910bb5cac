# The board's player in the positions with the most legal plays known (MicroPython too):
# a module of its own so a 64 KB heap holds nothing else while 2,226 plays are ranked.
from gammon import Position, legal_plays
from gammon.opponent import BUDGET, LEVELS, Opponent
from kernels.net import Net
from positions import is_legal

WEIGHTS = "firmware/weights.bin"  # the runners start in the repository's root
WORST = (("AAAA/3+UUkpJKQ", (1, 1), 2226), ("d7cNAABUqqqqAA", (1, 1), 1720))


def test_worst_case_positions_stay_within_budget():
    opp = Opponent(Net(WEIGHTS))
    for pid, roll, count in WORST:
        position = Position.from_id(pid)
        for level in LEVELS:
            play = opp.choose(position, roll, level, lambda n: n // 2)
            assert play is not None and is_legal(position, roll, play), (pid, level)
            assert opp.evaluations <= BUDGET + count, (pid, level, opp.evaluations)
        assert len(legal_plays(position, roll)) == count
