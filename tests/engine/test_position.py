# Position: the start, counts, pips, swap, gnubg Position IDs and outcomes (MicroPython too).
from gammon import Position
from positions import pos, raises, side

START = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


# A bar checker against a 5-point board (also in test_moves); the IDs were computed with
# gnubg.positionid((opp, me)) on these boards, and with the two sides exchanged.
BAR_VS_5 = ({25: 1, 6: 5, 8: 3, 13: 6}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 13: 5})
BAR_VS_5_ID = "2zbABwDgc/ADQA"
BAR_VS_5_SWAPPED_ID = "4HPwA0DbNsAHAA"


def test_start():
    p = Position.start()
    assert p.me == START and p.opp == START
    assert len(p.me) == 25 and len(p.opp) == 25
    assert sum(p.me) == 15 and sum(p.opp) == 15
    assert p.pips() == (167, 167)
    assert p.borne_off() == (0, 0)
    assert p.outcome() == 0
    assert p.position_id() == "4HPwATDgc/ABMA"
    assert p == Position(list(START), list(START))
    assert p.swap() == p


def test_counts_and_pips():
    p = pos(*BAR_VS_5)
    assert p.me == tuple(side(BAR_VS_5[0]))
    assert p.opp == tuple(side(BAR_VS_5[1]))
    # mine: bar 25 + 6*5 + 8*3 + 13*6 = 157; theirs: 2*(1+2+3+4+5) + 13*5 = 95
    assert p.pips() == (157, 95)
    assert p.borne_off() == (0, 0)
    q = pos({6: 3, 1: 2}, {21: 1})
    assert q.pips() == (20, 21)
    assert q.borne_off() == (10, 14)


def test_swap():
    p = pos(*BAR_VS_5)
    s = p.swap()
    assert s.me == p.opp and s.opp == p.me
    assert s.pips() == (95, 157)
    assert s.swap() == p
    assert s != p
    assert s.position_id() == BAR_VS_5_SWAPPED_ID


def test_equality_and_hash():
    a = pos(*BAR_VS_5)
    b = Position(list(a.me), list(a.opp))
    assert a == b and hash(a) == hash(b)
    assert len({a, b, a.swap()}) == 2
    assert not (a != b)


def test_position_id():
    assert pos(*BAR_VS_5).position_id() == BAR_VS_5_ID
    p = Position.from_id(BAR_VS_5_ID)
    assert p == pos(*BAR_VS_5)
    assert Position.from_id("4HPwATDgc/ABMA") == Position.start()
    # the empty board and races (IDs from gnubg.positionid)
    assert pos({}, {}).position_id() == "AAAAAAAAAAAAAA"
    assert pos({}, {6: 3}).position_id() == "4AAAAAAAAAAAAA"
    assert pos({}, {1: 15}).position_id() == "/38AAAAAAAAAAA"


def test_position_id_round_trip():
    # IDs from gnubg: the start, the two largest-play-count positions known, positions of
    # random play, a bar-heavy one and a bear-off one.
    ids = (
        "4HPwATDgc/ABMA",
        "AAAA/3+UUkpJKQ",
        "d7cNAABUqqqqAA",
        "tnYEBjC+mAEMaA",
        "P5MMDQDvHQQiQA",
        "O2eCBwBmXsGACQ",
        "xOfgBwDgc/ABUA",
        "4HPwATDgc/ABYA",
        "AADc/wMlAAAAAA",
        "gP8fAAjj7gAAAA",
        "27YBBwDgc/ADQA",
        "/z8AAEAAAAAAAA",
    )
    for pid in ids:
        p = Position.from_id(pid)
        assert p.position_id() == pid, pid
        assert Position(p.me, p.opp) == p
        assert Position.from_id(p.swap().position_id()) == p.swap()


def test_malformed_ids():
    bad = (
        "",
        "4HPwATDgc/ABM",  # 13 characters
        "4HPwATDgc/ABMAA",  # 15
        "4HPwATDgc/AB!A",  # not base64
        "4HPwATDgc/AB=A",
        "4HPwATDgc ABMA",
        "4HPwATDgc/AB\u00e9A",  # 14 characters, one of them not ASCII
        "//////////////",  # 80 one-bits: far too many checkers
        "4P8PAADg/x8AAA",  # gnubg encodes 16 checkers on my 6-point, not a position
        "AACABAAAAAAAAA",  # both sides on the same point (my 1 = their 24)
        None,
        12345,
    )
    for pid in bad:
        assert raises(Position.from_id, pid), pid


def test_malformed_boards():
    assert raises(Position, [0] * 24, [0] * 25)
    assert raises(Position, [0] * 25, [0] * 26)
    assert raises(Position, side({6: 16}), side({6: 15}))
    assert raises(Position, side({6: -1}), side({6: 15}))
    assert raises(Position, side({1: 1}), side({24: 1}))  # the same point
    assert Position(side({1: 1}), side({23: 1})).pips() == (1, 23)


def test_outcome_in_play():
    assert pos({1: 1}, {1: 1}).outcome() == 0
    assert pos({25: 1}, {}).outcome() == -1


def test_outcome_single():
    p = pos({}, {6: 3})  # the loser has borne off 12
    assert p.outcome() == 1
    assert p.swap().outcome() == -1


def test_outcome_gammon():
    p = pos({}, {1: 15})
    assert p.outcome() == 2
    assert p.swap().outcome() == -2
    # a checker just outside the winner's home board (the loser's 18-point): a gammon
    q = pos({}, {18: 1, 1: 14})
    assert q.outcome() == 2
    assert q.swap().outcome() == -2


def test_outcome_backgammon():
    bar = pos({}, {25: 1, 1: 14})  # a loser's checker on the bar
    assert bar.outcome() == 3
    assert bar.swap().outcome() == -3
    for k in (19, 20, 21, 22, 23, 24):  # a loser's checker in the winner's home board
        p = pos({}, {k: 1, 1: 14})
        assert p.outcome() == 3, k
        assert p.swap().outcome() == -3, k
    # but a loser who bore off one checker only loses a single game
    assert pos({}, {25: 1, 24: 1, 1: 12}).outcome() == 1
