# Edge positions for the contact inputs' tests (MicroPython too: tests/engine/
# test_features_native.py; and tests/test_features_kernel.py on CPython): the extremes of
# each input's arithmetic, both sides seen from each.
from positions import pos


def edge_boards():
    """50-byte boards, each also swapped (the other side on roll)."""
    outer = [0] * 25  # a six-point prime on the mover's points 7-12, three on its 6
    for i in range(6, 12):
        outer[i] = 2
    outer[5] = 3
    sides = [
        ({25: 15}, {25: 15}),  # everyone on the bar
        ({25: 15}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 7: 3}),  # the bar against a closed board
        ({25: 15}, {}),  # 15 on the bar, the other side all off: the largest mobility
        ({25: 8, 1: 7}, {25: 8, 1: 7}),  # bar-heavy both ways
        ({25: 3, 24: 2, 6: 10}, {25: 2, 21: 2, 18: 2, 2: 9}),  # both on the bar, anchors
        ({1: 1}, {1: 1}),  # all borne off but one, each
        ({24: 1}, {6: 15}),  # all off but one, left on the opponent's 1 point
        ({25: 1}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}),  # all off but one, on the bar, shut out
        ({24: 15}, {24: 15}),  # all on the opponent's 1 point
        ({24: 2, 2: 3}, {24: 1, 6: 14}),  # crashed: few left in play
        ({1: 13, 2: 2}, {21: 2, 20: 2, 6: 11}),  # crashed: everything on the lowest points
        ({2: 2, 1: 4}, {25: 1, 13: 2, 6: 12}),  # crashed, the opponent on the bar
        ({20: 2, 22: 3, 6: 5, 8: 5}, {6: 5, 4: 5, 2: 2, 13: 3}),  # a back game
        ({13: 2, 14: 2, 16: 2, 17: 2, 6: 7}, {25: 1, 6: 14}),  # outfield points, on the bar
        ({12: 15}, {12: 15}),  # all in the outfield, no point held in the opponent's home
        ({6: 15}, {6: 15}),  # a race's start: no contact
        ({}, {24: 3}),  # the mover all off
        ({13: 15}, {}),  # the other side all off
    ]
    out = []
    for me, opp in sides:
        p = pos(me, opp)
        out.append(p.key())
        out.append(p.swap().key())
    from gammon import Position

    prime = Position(outer, [0] * 21 + [2, 0, 0, 0])  # two on its 22 point behind a prime
    out += [prime.key(), prime.swap().key(), Position.start().key()]
    return out
