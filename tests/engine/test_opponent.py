# The board's player: only legal plays, within its budget, the same numbers both ways
# (MicroPython too, where the counts are larger because the viper code is fast); its choice
# in slices, each bounded, equal to the one-piece choice it replaced.
import sys

from gammon import Position, legal_plays
from gammon.dice import Dice, SeededBytes
from gammon.opponent import LEVELS, SLICE, Opponent, _packed, _play, chance
from kernels.movegen import play_codes
from kernels.net import Net
from positions import is_legal, pos

MICROPY = sys.implementation.name == "micropython"
WEIGHTS = "firmware/weights.bin"  # the runners start in the repository's root

_opp = None


def opponent():
    global _opp
    if _opp is None:
        _opp = Opponent(Net(WEIGHTS))
    return _opp


def _rand_from(dice):
    def rand(n):
        return (dice.die() * 6 + dice.die()) * 7919 % n

    return rand


def _games(seed, count, level, opp=None):
    """Positions and dice met in `count` games of the board (`opp`, else the 40-unit one)
    against itself at `level`."""
    dice = Dice(SeededBytes(seed))
    rand = _rand_from(dice)
    opp = opp or opponent()
    for _ in range(count):
        position = Position.start()
        while True:
            roll = dice.roll()
            play = opp.choose(position, roll, level, rand)
            yield position, roll, play
            if play is None:
                position = position.swap()
                continue
            after = play.result
            if after.outcome():
                break
            position = after.swap()


def _check_legal(seed, games, level):
    moves = 0
    for position, roll, play in _games(seed, games, level):
        if play is None:
            assert len(legal_plays(position, roll)) == 0, (position.position_id(), roll)
        else:
            assert is_legal(position, roll, play), (position.position_id(), roll, str(play))
            moves += 1
    return moves


def test_strong_plays_only_legal_moves_to_the_end_of_games():
    assert _check_legal(11, 12 if MICROPY else 1, "strong") > 0


def test_easy_plays_only_legal_moves_to_the_end_of_games():
    assert _check_legal(12, 30 if MICROPY else 3, "easy") > 0


def test_no_legal_move_gives_none():
    closed = pos({25: 1, 6: 5, 8: 3, 13: 6}, {1: 3, 2: 2, 3: 2, 4: 2, 5: 3, 6: 3})
    for level in LEVELS:
        assert opponent().choose(closed, (6, 6), level, lambda n: 0) is None


def test_takes_a_winning_bear_off():
    # two checkers left on the one point: any 1-1 bears both off and wins
    position = pos({1: 2}, {1: 15})
    for level in LEVELS:
        play = opponent().choose(position, (2, 1), level, lambda n: n - 1)
        assert play.result.outcome() > 0, str(play)


def test_strong_hits_a_lone_blot_in_its_home_with_a_shot_it_cannot_miss():
    # the opponent's only checker back is a blot on our 5 point; otherwise a pure race we lead
    position = pos({6: 5, 7: 5, 8: 5}, {20: 1, 1: 14})
    play = opponent().choose(position, (1, 2))
    assert any(hit for _, _, hit in play.steps), str(play)


def test_changed_inputs_give_the_same_equity_as_a_full_evaluation():
    net = opponent().net
    dice = Dice(SeededBytes(5))
    after = bytearray(50)
    checked = 0
    for position, roll, _ in _games(13, 2 if MICROPY else 1, "easy"):
        board = position.key()
        net.set_base(board, 25)
        codes = play_codes(bytearray(board), roll)
        for i in range(0, len(codes), 1 if MICROPY else 7):
            _play(net.after, board, codes[i], _packed(roll))
            after[:] = net.after
            assert net.equity_after() == net.equity(after, 25)
            checked += 1
        dice.die()
    assert checked > 50


def test_equity_and_probabilities_are_in_range():
    net = opponent().net
    start = Position.start().key()
    e = net.equity(start, 0)
    assert -4096 < e < 4096
    p = net.probabilities()
    assert all(0 <= x <= 4096 for x in p) and p[1] <= p[0] + 64


def test_bad_weight_files_are_refused():
    import os

    name = "opponent_test_weights.tmp"
    with open(WEIGHTS, "rb") as f:
        head = f.read(100)  # a file cut short (not the whole file: 8 KB in one piece)
    for data in (b"", b"NOPE" + bytes(8), head):
        with open(name, "wb") as f:
            f.write(data)
        try:
            Net(name)
            raise AssertionError("accepted %r" % data[:8])
        except ValueError:
            pass
    os.remove(name)


def _positions(seed, games, limit=1000):
    """Positions and dice with a play, from `games` games of the easy level against itself
    (quick to play), at most `limit` of them."""
    for position, roll, play in _games(seed, games, "easy"):
        if play is not None:
            yield position, roll
            limit -= 1
            if not limit:
                return


def test_the_sliced_choice_equals_the_one_piece_choice():
    """Play for play, both levels (easy from the same seeds), as chosen before slices."""
    from opponent_reference import Reference

    opp = opponent()
    ref = Reference(opp.net)
    checked = 0
    for position, roll in _positions(31, 8 if MICROPY else 1, 1000 if MICROPY else 10):
        seed = checked * 7919 & 0xFFFF
        assert opp.choose(position, roll, "strong") == ref.choose(position, roll, "strong")
        ease = opp.choose(position, roll, "easy", chance(seed))
        assert ease == ref.choose(position, roll, "easy", chance(seed))
        checked += 1
    assert checked >= 10


# A slice spends SLICE evaluations, and may pass it by one search of the move generator
# (counted as 1 + plays / 8 evaluations), at most that of the 2,226 plays known worst.
_SEARCH = 1 + (2226 >> 3)


def test_each_slice_spends_at_most_a_slice_of_evaluations():
    opp = opponent()
    checked = 0
    for position, roll in _positions(32, 2 if MICROPY else 1, 1000 if MICROPY else 8):
        for level in LEVELS:
            c = opp.think(position, roll, level, chance(checked))
            spent = 0
            while not c.step():
                assert 0 <= SLICE - opp.left <= SLICE + _SEARCH, (SLICE, opp.left)
                spent += SLICE - opp.left
            spent += SLICE - opp.left
            assert SLICE - opp.left <= SLICE + _SEARCH
            # every evaluation is counted in some slice (the searches of replies too); the
            # first slice only collects the heap
            assert spent >= opp.evaluations and c.slices > opp.evaluations // SLICE
            checked += 1
    assert checked >= 16


def test_a_choice_interrupted_by_another_starts_again_and_ends_the_same():
    opp = opponent()
    position = Position.start()
    alone = opp.choose(position, (6, 5), "strong")
    c = opp.think(position, (6, 5), "strong")
    assert not c.step()
    other = opp.choose(pos({6: 5, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 2}), (4, 4))
    assert other is not None
    while not c.step():
        pass
    assert c.play == alone


def test_play_codes_into_kept_lists_are_movegen_s():
    opp = opponent()
    n = 0
    for position, roll in _positions(33, 1):
        board = bytearray(position.key())
        want = play_codes(board, roll)
        got = opp.play_codes(board, roll)
        assert [got[i] for i in range(len(got))] == [want[i] for i in range(len(want))]
        n += 1
    assert n > 20


def test_the_easy_chance_stays_a_small_int_and_repeats():
    a = chance(0xFFFF)
    b = chance(0xFFFF)
    seq = [a(65537) for _ in range(200)]
    assert seq == [b(65537) for _ in range(200)] and max(seq) < 65537
    seq.sort()
    assert sum(1 for i in range(1, 200) if seq[i] != seq[i - 1]) > 150


def test_the_larger_network_of_the_boards_with_room_plays_as_the_small_one_does():
    # firmware/weights-64.bin, which `ledgammon deploy` installs on a Pico 2 or an ESP32-S3
    big = Opponent(Net("firmware/weights-64.bin"))
    assert big.net.hidden == 64 and opponent().net.hidden == 40
    after = bytearray(50)
    moves = 0
    for position, roll, play in _games(21, 1, "strong", big):
        if play is None:
            continue
        assert is_legal(position, roll, play), (position.position_id(), roll, str(play))
        board = position.key()
        big.net.set_base(board, 25)
        _play(big.net.after, board, play.code, _packed(roll))
        after[:] = big.net.after
        assert big.net.equity_after() == big.net.equity(after, 25)
        moves += 1
    assert moves > 10
