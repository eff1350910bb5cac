# 32-bit integers (issue 11.5): the kernels and the seeded generators stay within a 32-bit
# port's small ints (+-2**30) and viper's 32-bit machine words.
#
# CPython: the kernels' plain-Python path runs with every intermediate value checked
# (tests/range32.py rewrites their source) over thousands of positions from seeded games,
# the worst known for the move generator (../shared/NOTES.md), random and extreme boards for
# the network, the board's player at both levels and the renderer. MicroPython: the same
# work on the compiled kernels, checking what they leave in their buffers and return.
import sys

from gammon.dice import Dice, SeededBytes

MICROPY = sys.implementation.name == "micropython"
WEIGHTS = "firmware/weights.bin"  # the runners start in the repository's root
WORST = ("AAAA/3+UUkpJKQ", "d7cNAABUqqqqAA")  # 1-1: 2,226 and 1,720 distinct plays
SMALL_MAX = 0x3FFFFFFF
GAMES = 24  # about 2,300 positions
SEQUENCE = [464, 284, 949, 380, 113, 864]  # gammon.opponent.chance(0xBEEF), rand(1000)


def _small(v):
    return -SMALL_MAX - 1 <= v <= SMALL_MAX


def _packed(roll):
    hi, lo = (roll[0], roll[1]) if roll[0] >= roll[1] else (roll[1], roll[0])
    return hi | lo << 3


def _cases(games, seed, worst=True):
    """(position, roll, its legal plays) from seeded random games, then the worst doubles
    known; one list of plays alive at a time (the worst is 9 KB of a 64 KB heap)."""
    from gammon import Position, legal_plays

    dice = Dice(SeededBytes(seed))
    for _ in range(games):
        p = Position.start()
        while not p.outcome():
            roll = dice.roll()
            plays = legal_plays(p, roll)
            yield p, roll, plays
            if len(plays):
                p = plays[dice.die() * 97 % len(plays)].result
            plays = None
            p = p.swap()
    for pid in WORST if worst else ():
        p = Position.from_id(pid)
        yield p, (1, 1), legal_plays(p, (1, 1))


def _boards(count, seed):
    """50-byte boards: random spreads of 15 checkers a side (some off), and extremes."""
    rnd = SeededBytes(seed)
    for pts in ({24: 15}, {25: 15}, {1: 15}, {}, {25: 8, 1: 7}, {6: 5, 13: 5, 25: 5}):
        b = bytearray(50)
        for k in pts:
            b[k - 1] = pts[k]
        for k in ({25: 15}, {1: 15}, {24: 15}, {}):
            b2 = bytearray(b)
            for j in k:
                b2[25 + j - 1] = k[j]
            yield b2
    for _ in range(count):
        b = bytearray(50)
        for side in (0, 25):
            left = 15 - rnd(1)[0] % 4
            while left:
                i = rnd(1)[0] % 25
                other = 25 - side + (23 - i if i < 24 else 24)
                if i < 24 and b[other]:
                    continue
                b[side + i] += 1
                left -= 1
        yield b


def _check_sums(net):
    """The hidden sums kept in acc[h:4h] hold an offset of 2**30 and |sum| < 2**29."""
    units = net.hidden
    acc = net.acc
    for i in range(units, 4 * units):
        v = acc[i] - 0x20000000 - 0x20000000
        assert -0x20000000 < v < 0x20000000, (i, acc[i])
    for i in range(units):
        assert 0 <= acc[i] <= 4096, (i, acc[i])


def _exercise(games):
    """The kernels' whole work; returns how much was done. Checks the values it can see."""
    from gammon.opponent import Opponent, chance
    from kernels import frame
    from kernels.apply import _play
    from kernels.net import Net

    net = Net(WEIGHTS)  # first, while the heap is whole (its blocks are 4 KB)
    opp = Opponent(net)
    done = {"positions": 0, "plays": 0, "evaluations": 0, "choices": 0, "frames": 0}
    # the move generator first, over every position: every play code a small int (the worst
    # ones here on CPython only: test_moves and test_opponent_worst run them in MicroPython's
    # 64 KB heap, where a 9 KB list beside the network does not fit)
    from gammon import Position
    from gammon.turn import Turn
    from kernels.text import write_id

    for p, roll, plays in _cases(games, 11, not MICROPY):
        codes = plays.codes
        for i in range(len(codes)):
            assert 0 <= codes[i] <= SMALL_MAX
        assert Position.from_id(p.position_id()) == p  # the ID's kernel, read back
        t = Turn(p, roll)  # the movable checkers' kernel
        assert all(1 <= pt <= 25 for pt in t.movable())
        done["positions"] += 1
        done["plays"] += len(codes)
        codes = plays = None
    # the network on every third position, a play or two of each (more of the worst ones)
    for n, (p, roll, plays) in enumerate(_cases(games, 11, not MICROPY)):
        codes = plays.codes
        worst = len(codes) > 1000
        if n % 3 and not worst:
            continue
        board = p.key()
        e = net.set_base(board, 25)
        assert _small(e) and -3 * 4096 <= e <= 3 * 4096
        _check_sums(net)
        step = 7 if worst else len(codes) - 1  # the first and the last play
        for i in range(0, len(codes), step or 1):
            _play(net.after, board, codes[i], _packed(roll))
            e = net.equity_after()
            assert -3 * 4096 <= e <= 3 * 4096
            done["evaluations"] += 1
        _check_sums(net)
        codes = plays = None
        if n % 300 == 0:  # the board's player: both levels now and then, easy more often
            for level in ("strong", "easy") if n % 900 == 0 else ("easy",):
                opp.choose(p, roll, level, chance(n))
                done["choices"] += 1
    pid = bytearray(16)
    for b in _boards(150, 5):
        assert write_id(b, pid, 0) == 14  # every checker on the bar, none, all off
        for roller in (0, 25):
            e = net.equity(b, roller)
            assert -3 * 4096 <= e <= 3 * 4096
            _check_sums(net)
            done["evaluations"] += 1
    net = opp = None
    buf = bytearray(1320)  # the frame primitives at their extremes
    frame.fill(buf, len(buf), 255)
    assert frame.channel_sum(buf, len(buf)) == 255 * len(buf)
    frame.dim(buf, len(buf), 255)
    assert frame.channel_sum(buf, len(buf)) == 254 * len(buf)
    from kernels.strip_words import words
    from kernels.text import bad_at

    out = bytearray(4 * 440)  # the PIO words of a white frame
    words(out, buf, 440)
    assert out[0:4] == b"\x00\xfe\xfe\xfe"
    rnd = SeededBytes(9)
    for n in range(200):  # the link's text check on bytes of every kind
        line = rnd(1 + n % 64)
        assert -1 <= bad_at(line, 0, len(line)) < len(line)
    ok = b'{"cmd":"move","play":"8/5 6/5","id":"caf\xc3\xa9"}'
    assert bad_at(ok, 0, len(ok)) == -1
    from array import array

    from kernels.text import record_turns

    rec = bytearray(256)  # a save's record: the largest play code and roll, and the least
    codes = array("i", [0, (1 << 28) - 1, 0x123456] * 30)
    assert record_turns(rec, 0, 192, bytes([9, 54, 27] * 30), codes, 0, 90) == 22  # to n = 189
    assert rec[:27] == b"110000000" b"66fffffff" b"330123456"
    from kernels.text import text_run

    assert text_run(rec, 0, 30, b'{"v":\x01,"n":', 0) == 5 and rec[:5] == b'{"v":'  # to a marker
    assert text_run(rec, 0, 30, b"x" * 100, 0) == 31  # until n is past `full`
    assert text_run(rec, 250, 300, b"y" * 100, 0) == 6 and rec[-1] == 121  # to its end
    if not MICROPY:  # there the renderer's own tests run them (a 64 KB heap: not with these)
        _frames(done)
    return done


def _frames(done):
    """The renderer's frame primitives: whole frames of the start and of crowded boards."""
    from display.renderer import Renderer
    from display.view import View
    from hw.boards import pico
    from hw.output import FakeStrip

    strip = FakeStrip(pico.LED_COUNT, pico.LED_ORDER)
    r = Renderer(pico, strip, 0)
    v = View()
    for t, counts in enumerate(((2, 0, 0, 0, 0, 5), (15, 0, 0, 0, 0, 0), (3, 3, 3, 3, 3, 0))):
        for i in range(6):
            v.pts0[i + 1] = counts[i]
            v.pts1[24 - i] = counts[i]
        v.bar[0] = v.off[1] = 15 - sum(counts)
        v.movable = 0x3FFFFFF
        v.brightness = 255
        v.changed += 1
        for k in range(20):
            r.render(v, 1000 * t + 37 * k)
            done["frames"] += 1


def test_kernels_stay_within_32_bits():
    if MICROPY:
        done = _exercise(GAMES)
    else:
        from range32 import KERNELS, checked_kernels

        _checker_catches()
        with checked_kernels() as mods:
            done = _exercise(GAMES)
            from gammon import play
            from gammon.opponent import Opponent
            from kernels.net import Net

            assert play.play_codes is mods["kernels.movegen"].play_codes  # the checked ones
            assert Net is mods["kernels.net"].Net and Opponent
            assert all(mods["kernels." + k].__range_sites__ > 20 for k in ("movegen", "net"))
            assert len(KERNELS) >= 5 and all(mods[name].__range_sites__ for name in KERNELS)
    assert done["positions"] > 2000, done
    assert done["plays"] > 20000 and done["choices"] >= 8, done
    assert done["frames"] == (0 if MICROPY else 60), done


def _checker_catches():
    """The checker itself (CPython): a long int, a wrapped machine word, a long literal."""
    from range32 import OutOfRange, run_checked

    def run(src):
        return run_checked(src)["f"], None

    f, _ = run("def f(x):\n    return (x << 13) & 0xFFFF\n")
    assert f(0xFFFF) == 0xE000
    f, _ = run("def f(x):\n    return (x << 13) & 0xFFFF\n")
    try:
        f(0xFFFFFFFF)  # the old xorshift's shift: a 45-bit value
        raise AssertionError("not caught")
    except OutOfRange:
        pass
    f, _ = run("@viper\ndef f(x: int) -> int:\n    y = x\n    y *= 3\n    return y >> 2\n")
    assert f(1 << 29) == (3 << 29) >> 2  # 1.5 * 2**30 fits a machine word
    try:
        f(1 << 30)
        raise AssertionError("not caught")
    except OutOfRange:
        pass
    try:
        run("X = 0xFFFFFFFF\ndef f():\n    pass\n")
        raise AssertionError("not caught")
    except OutOfRange:
        pass


def test_seeded_generators_stay_small():
    """SeededBytes keeps xorshift32's state in 16-bit halves; the easy level's LCG keeps its
    state under 65537 (so state * 75 + 74 < 2**23); both give the same numbers on every port
    (recorded under CPython, the dice's with the 32-bit state of before)."""
    src = SeededBytes(0xDEADBEEF)
    for _ in range(2000):
        src(7)
        assert 0 <= src.hi <= 0xFFFF and 0 <= src.lo <= 0xFFFF
    assert SeededBytes(12345)(8) == bytes((198, 101, 167, 116, 42, 195, 255, 219))
    from gammon.opponent import chance

    rand = chance(0xBEEF)
    assert [rand(1000) for _ in range(6)] == SEQUENCE
    rand = chance(0xFFFF)
    for _ in range(70000):  # longer than its period: rand(65537) is the state itself
        assert 0 <= rand(65537) <= 65536
