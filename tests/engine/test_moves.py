# Legal plays in crafted corners of the rules (MicroPython too).
#
# Expected counts and result IDs were computed with GNU Backgammon: the board given to
# gnubg.findbestmoves (count) and `hint` (every play, parsed and applied), see
# tests/gen_oracle.py; each result ID is gnubg.positionid of the board after the play,
# the mover still on roll.
from gammon import Position, legal_plays
from positions import ids, pos


def _hash(text):
    h = 0x811C9DC5 & 0x3FFFFFFF
    for ch in text:
        h = ((h ^ ord(ch)) * 16777619) & 0x3FFFFFFF
    return h


def _bits():
    return [bytearray(256) for _ in range(16)]  # 32768 bits in small pieces


def _test_and_set(bits, h):
    piece, i, m = bits[h >> 11], (h >> 3) & 255, 1 << (h & 7)
    seen = piece[i] & m
    piece[i] |= m
    return seen


def all_distinct(plays):
    """True when no two plays give the same result.

    Fits a small, fragmented heap (2,226 results under MicroPython's 64 KB), so it makes
    no large block: a 32768-bit set of 15-bit hashes finds the hashes met more than once;
    the plays with those hashes are kept as small ints (index and the hash's other bits,
    in lists of 16) and where those agree too, the results are compared.
    """
    seen, clash = _bits(), _bits()
    for p in plays:
        h = _hash(p.result.position_id()) & 0x7FFF
        if _test_and_set(seen, h):
            _test_and_set(clash, h)
    del seen
    chunks = [[]]
    for k in range(len(plays)):
        h = _hash(plays[k].result.position_id())
        low = h & 0x7FFF
        if clash[low >> 11][(low >> 3) & 255] & (1 << (low & 7)):
            if len(chunks[-1]) == 16:
                chunks.append([])
            chunks[-1].append((h >> 15) << 12 | k)  # 15 more hash bits, the index
    n = 16 * (len(chunks) - 1) + len(chunks[-1])
    for i in range(n):
        a = chunks[i >> 4][i & 15]
        for j in range(i + 1, n):
            b = chunks[j >> 4][j & 15]
            if a >> 12 == b >> 12 and plays[a & 4095].result == plays[b & 4095].result:
                return False
    return True


BAR_VS_5 = pos({25: 1, 6: 5, 8: 3, 13: 6}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 13: 5})
BAR_VS_6 = pos({25: 1, 6: 5, 8: 3, 13: 6}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3})
TWO_ON_BAR = pos({25: 2, 6: 5, 8: 3, 13: 5}, {6: 5, 8: 3, 13: 5, 24: 2})
TWO_ON_BAR_ACE = pos({25: 2, 6: 5, 8: 3, 13: 5}, {1: 2, 6: 5, 8: 3, 13: 5})
BLOT_ON_22 = {3: 1, 6: 5, 8: 3, 13: 6}  # the opponent's blot on my 22-point
LONE = {24: 1, 1: 14}  # one runner; the others cannot move while it is out


def test_start_31():
    plays = legal_plays(Position.start(), (3, 1))
    assert len(plays) == 16
    assert "8/5 6/5" in [str(p) for p in plays]
    assert all_distinct(plays)
    assert legal_plays(Position.start(), (1, 3)) == list(plays)


def test_bar_entry_against_five_point_board():
    assert BAR_VS_5.position_id() == "2zbABwDgc/ADQA"
    plays = legal_plays(BAR_VS_5, (6, 4))
    assert ids(plays) == ["2zbABwDCc/ADAQ", "2zbABwDIZ/ADAQ", "2zbABwDgc+EDAQ", "2zbABwDgc/ATAA"]
    for p in plays:
        assert p.steps[0][:2] == (25, 19)
    assert len(legal_plays(BAR_VS_5, (5, 4))) == 0  # no entry: nothing else may move
    assert legal_plays(BAR_VS_5, (5, 4)) == []
    assert len(legal_plays(BAR_VS_5, (6, 6))) == 10
    six_one = legal_plays(BAR_VS_5, (6, 1))
    assert ids(six_one) == ["2zbABwDQc/ADAQ", "2zbABwDga/ADAQ", "2zbABwDgc/CDAA"]


def test_closed_board_no_move():
    for dice in ((6, 4), (6, 6), (1, 1), (5, 2)):
        plays = legal_plays(BAR_VS_6, dice)
        assert len(plays) == 0 and not plays and plays == [], dice
        assert list(plays) == []


def test_enter_all_bar_checkers_first():
    plays = legal_plays(TWO_ON_BAR, (3, 1))
    assert ids(plays) == ["4HPwATDgc/ABJA"]  # bar/24 bar/22 only
    assert sorted(s[:2] for s in plays[0].steps) == [(25, 22), (25, 24)]
    fours = legal_plays(TWO_ON_BAR, (4, 4))
    assert len(fours) == 7
    for p in fours:
        assert [s[:2] for s in p.steps[:2]] == [(25, 21), (25, 21)], str(p)
    # one checker can enter (with the 3), the other not: the 1 is lost
    plays = legal_plays(TWO_ON_BAR_ACE, (3, 1))
    assert ids(plays) == ["g8/BBwDgc/ABRA"]
    assert [s[:2] for s in plays[0].steps] == [(25, 22)]
    assert len(legal_plays(TWO_ON_BAR_ACE, (1, 1))) == 0


def test_hit_from_the_bar():
    plays = legal_plays(pos({25: 2, 6: 5, 8: 3, 13: 5}, BLOT_ON_22), (3, 1))
    assert ids(plays) == ["4HPwA0Dgc/ABJA"]  # bar/24 bar/22*
    assert (25, 22, True) in plays[0].steps
    p = pos({25: 1, 6: 5, 8: 3, 13: 5, 24: 1}, BLOT_ON_22)
    plays = legal_plays(p, (3, 5))
    assert len(plays) == 7
    hits = [q for q in plays if (25, 22, True) in q.steps]
    assert ids(hits) == ["4HPwA0DBc/ABJA", "4HPwA0DEZ/ABJA", "4HPwA0Dg8+ABJA"]
    for q in hits:
        assert q.result.opp[24] == 1  # the hit checker is on the opponent's bar
        assert q.result.pips()[1] == p.pips()[1] + 22


def test_bear_off_from_the_highest_point():
    p = pos({1: 1, 2: 1, 4: 1}, {19: 3, 20: 12})
    assert p.position_id() == "AADc/wMlAAAAAA"
    assert ids(legal_plays(p, (6, 5))) == ["AADc/wMBAAAAAA"]  # 4/off 2/off
    assert ids(legal_plays(p, (5, 3))) == ["AADc/wMBAAAAAA", "AADc/wMDAAAAAA"]
    assert len(legal_plays(p, (2, 1))) == 4
    for dice in ((4, 4), (6, 6)):  # everything off
        plays = legal_plays(p, dice)
        assert ids(plays) == ["AADc/wMAAAAAAA"]
        assert plays[0].result.outcome() > 0
    # checkers on 5 and 3, the 1-point held: a 6 takes a 5-point checker off, but a 4 can
    # neither move (5/1 blocked) nor bear off the 3 (a checker is still on the 5)
    q = pos({5: 2, 3: 1}, {24: 3, 13: 12})
    assert ids(legal_plays(q, (6, 4))) == ["APD/ADgkAAAAAA"]
    assert [s for s in legal_plays(q, (6, 4))[0].steps] == [(5, 0, False)]
    plays = legal_plays(q, (4, 3))  # only the 3 plays: 3/off or 5/2
    assert ids(plays) == ["APD/ADgwAAAAAA", "APD/ADhKAAAAAA"]
    for play in plays:
        assert len(play.steps) == 1


def test_larger_die_when_only_one_can_be_played():
    p = pos(LONE, {10: 2, 6: 13})  # 24/18 or 24/21, never both (15 is held)
    plays = legal_plays(p, (6, 3))
    assert ids(plays) == ["4P/DAAD/PwCAAA"]
    assert plays[0].steps == ((24, 18, False),)
    assert legal_plays(p, (3, 6)) == list(plays)


def test_smaller_die_when_the_larger_cannot_move():
    plays = legal_plays(pos(LONE, {7: 2, 10: 2, 6: 11}), (6, 3))
    assert ids(plays) == ["4P/GAAD/PwAABA"]
    assert plays[0].steps == ((24, 21, False),)


def test_both_dice_through_the_smaller_first():
    plays = legal_plays(pos(LONE, {7: 2, 6: 13}), (6, 1))  # 24/18 blocked, 24/23/17 open
    assert ids(plays) == ["4P8bAAD/PwBAAA"]
    assert plays[0].steps == ((24, 23, False), (23, 17, False))


def test_doubles_played_partly():
    plays = legal_plays(pos(LONE, {13: 2, 6: 13}), (4, 4))  # the 12-point is held
    assert ids(plays) == ["4P8DBgD/PwAgAA"]
    assert plays[0].steps == ((24, 20, False), (20, 16, False))


def test_no_legal_move():
    p = pos(LONE, {7: 2, 4: 2, 6: 11})
    assert p.position_id() == "mP8bAAD/PwAAIA"
    assert len(legal_plays(p, (6, 3))) == 0


def test_hits_during_bear_off():
    p = pos({6: 3, 5: 3, 4: 3, 1: 2}, {22: 1, 8: 14})  # their blot on my 3-point
    plays = legal_plays(p, (6, 3))
    assert ids(plays) == ["gP8fAAjHbgAAAA", "gP8fAAjLbQAAAA", "gP8fAEDTXQAAAA"]
    hit = [q for q in plays if q.result.position_id() == "gP8fAEDTXQAAAA"][0]
    assert sorted(hit.steps) == [(6, 0, False), (6, 3, True)]
    assert hit.result.opp[24] == 1 and hit.result.borne_off() == (5, 0)
    assert len(legal_plays(p, (3, 3))) == 19
    assert len(legal_plays(p, (2, 1))) == 14
    assert all_distinct(legal_plays(p, (3, 3)))


def test_most_plays_known():
    p = Position.from_id("AAAA/3+UUkpJKQ")
    assert p.opp[24] == 15 and sum(p.me) == 15
    plays = legal_plays(p, (1, 1))
    assert len(plays) == 2226
    assert all_distinct(plays)
    q = Position.from_id("d7cNAABUqqqqAA")
    plays = legal_plays(q, (1, 1))
    assert len(plays) == 1720
    assert all_distinct(plays)


def test_results_keep_the_checkers():
    for pid in ("4HPwATDgc/ABMA", "xOfgBwDgc/ABUA", "gP8fAAjj7gAAAA"):
        p = Position.from_id(pid)
        for dice in ((6, 5), (3, 3), (2, 1)):
            for play in legal_plays(p, dice):
                r = play.result
                assert sum(r.me) + r.borne_off()[0] == 15
                assert sum(r.opp) + r.borne_off()[1] == 15
                used = 0
                for frm, to, hit in play.steps:
                    assert 0 <= to < frm <= 25
                    assert not (hit and to == 0)  # nothing is hit off the board
                    used += frm - to
                assert p.pips()[0] - r.pips()[0] == used


def test_all_distinct_finds_twins():
    plays = list(legal_plays(Position.start(), (6, 5)))
    assert all_distinct(plays)
    assert not all_distinct(plays + [plays[-1]])
