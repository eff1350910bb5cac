# inputs.py: debouncing, the diode matrix scan, the minimal layout's pins and chord.
# Plain test functions: collected by pytest and run under MicroPython by tests/mprun.py.
import sys

from fake_matrix import matrix_keys
from hw.boards import pico
from hw.inputs import Debouncer, DirectKeys, Inputs, MatrixKeys
from hw.ticks import ticks_ms
from xorshift import XorShift32

MICROPY = sys.implementation.name == "micropython"


class Log:
    """Records callbacks as (kind, name, now_ms)."""

    def __init__(self):
        self.events = []

    def cb(self, kind):
        def f(name, now_ms):
            self.events.append((kind, name, now_ms))

        return f

    def names(self, kind="press"):
        return [e[1] for e in self.events if e[0] == kind]


def _debouncer(names=("A", "B", "C")):
    log = Log()
    deb = Debouncer(names, log.cb("press"), log.cb("release"), log.cb("long"), log.cb("stuck"))
    return deb, log


def _bouncy_press(rnd, t0, bounce_ms, hold_ms, release_bounce_ms):
    """[(t, pressed)] of one press: random on/off every 1-3 ms for bounce_ms, held, then
    a bouncing release, then released; the contact first closes at t0."""
    changes = [(t0, 1)]
    t = t0
    level = 1
    while True:
        t += 1 + rnd.below(3)
        if t >= t0 + bounce_ms:
            break
        level ^= 1
        changes.append((t, level))
    changes.append((t0 + bounce_ms, 1))
    t = t0 + bounce_ms + hold_ms
    end = t + release_bounce_ms
    level = 0
    changes.append((t, 0))
    while True:
        t += 1 + rnd.below(3)
        if t >= end:
            break
        level ^= 1
        changes.append((t, level))
    changes.append((end, 0))
    return changes


def _level(changes, t):
    level = 0
    for when, value in changes:
        if when > t:
            break
        level = value
    return level


def test_bouncing_contact_registers_once():
    for seed in (1, 2, 3, 4, 5):
        rnd = XorShift32(seed)
        for period in (1, 2, 5):
            deb, log = _debouncer()
            changes = []
            t0 = 10
            for _ in range(4):  # four separate bouncy presses of key B
                changes += _bouncy_press(rnd, t0, 20, 150, 20)
                t0 += 20 + 150 + 20 + 60
            for t in range(0, t0, period):
                deb.poll(_level(changes, t) << 1, t)
            assert log.names() == ["B"] * 4, (seed, period, log.events)
            assert log.names("release") == ["B"] * 4
            # instant response: each press registers on its first pressed reading
            firsts = [e[2] for e in log.events if e[0] == "press"]
            assert firsts[0] - 10 < period


def test_bounce_between_presses_needs_stable_release():
    deb, log = _debouncer()
    deb.poll(1, 0)
    deb.poll(0, 5)
    deb.poll(1, 25)  # released only 20 ms: still the same press
    deb.poll(0, 30)
    deb.poll(0, 55)
    deb.poll(0, 60)  # stable for 30 ms: released
    deb.poll(1, 65)  # a new press
    assert log.names() == ["A", "A"]
    assert [e[2] for e in log.events if e[0] == "press"] == [0, 65]


def test_very_short_taps_count():
    deb, log = _debouncer()
    t = 0
    for _ in range(5):
        deb.poll(4, t)  # one 5 ms reading pressed
        for _ in range(7):
            t += 5
            deb.poll(0, t)
        t += 5
    assert log.names() == ["C"] * 5
    assert log.names("release") == ["C"] * 5


def test_held_button_does_not_repeat():
    deb, log = _debouncer()
    for t in range(0, 10000, 5):
        deb.poll(1, t)
    assert log.names() == ["A"]
    assert log.names("long") == ["A"]
    assert log.names("stuck") == ["A"]
    long_at = [e[2] for e in log.events if e[0] == "long"][0]
    stuck_at = [e[2] for e in log.events if e[0] == "stuck"][0]
    assert 800 <= long_at < 810 and 5000 <= stuck_at < 5010
    for t in range(10000, 10100, 5):
        deb.poll(0, t)
    deb.poll(1, 10100)
    assert log.names() == ["A", "A"]


def test_stuck_button_does_not_block_others():
    deb, log = _debouncer()
    t = 0
    for _ in range(10):  # A held throughout (stuck after 5 s); B pressed ten times
        for _ in range(20):
            deb.poll(1 | 2, t)
            t += 5
        for _ in range(100):
            deb.poll(1, t)
            t += 5
    assert t > 5000
    assert log.names() == ["A"] + ["B"] * 10
    assert log.names("stuck") == ["A"]


def test_unnamed_bits_are_silent():
    deb, log = _debouncer(("A", None))
    deb.poll(3, 0)
    assert log.names() == ["A"]


def _matrix():
    return matrix_keys(pico, log=True)


def _pressed_names(keys, bits):
    return sorted(keys.names[i] for i in range(len(keys.names)) if bits & (1 << i))


def test_matrix_maps_every_key_to_its_name():
    fake, keys = _matrix()
    assert fake.level == [1] * 5  # idle: no row driven
    assert keys.scan() == 0
    seen = []
    for r, line in enumerate(pico.KEYMAP):
        for c, name in enumerate(line):
            fake.pressed = {(r, c)}
            fake.reads_with_low_rows = []
            bits = keys.scan()
            assert fake.level == [1] * 5
            assert fake.reads_with_low_rows == [1] * 30  # exactly one row active per read
            if name is None:
                assert _pressed_names(keys, bits) == [None]
            else:
                assert _pressed_names(keys, bits) == [name]
                seen.append(name)
    assert len(seen) == 30 and "MENU" in seen and "DOUBLE" in seen and "p24" in seen


def test_matrix_two_and_three_keys_at_once():
    fake, keys = _matrix()
    fake.pressed = {(0, 2), (3, 2)}  # p3 and p21: same column, different rows
    assert _pressed_names(keys, keys.scan()) == ["p21", "p3"]
    fake.pressed = {(1, 0), (4, 3)}  # p7 and UNDO
    assert _pressed_names(keys, keys.scan()) == ["UNDO", "p7"]
    fake.pressed = {(0, 0), (0, 1), (1, 0)}  # three corners of a rectangle: no ghost p8
    assert _pressed_names(keys, keys.scan()) == ["p1", "p2", "p7"]


def test_matrix_active_high():
    level = [0, 0]
    pressed = {(1, 1)}

    def row(r):
        def f(v):
            level[r] = v

        return f

    def col(c):
        return lambda: 1 if any(cc == c and level[r] for r, cc in pressed) else 0

    keys = MatrixKeys([row(0), row(1)], [col(0), col(1)], (("a", "b"), ("c", "d")), False)
    assert _pressed_names(keys, keys.scan()) == ["d"]


def _direct(clock=ticks_ms, period_ms=5, on_press=None, long=False):
    state = {n: 1 for n in pico.MINIMAL_PINS}
    pins = {n: (lambda n=n: state[n]) for n in pico.MINIMAL_PINS}
    keys = DirectKeys(pins)
    log = Log()
    inputs = Inputs(
        keys, clock, period_ms, log.cb("long") if long else None, log.cb("stuck"),
        on_press or log.cb("press"),
    )
    return state, inputs, log


def _run(state, inputs, steps, t):
    """steps: [(ms, {name: 0/1 level changes})]; polls every 5 ms; returns the time."""
    for ms, levels in steps:
        state.update(levels)
        end = t + ms
        while t < end:
            inputs.poll(t)
            t += 5
    return t


def test_direct_keys_each_button():
    state, inputs, log = _direct()
    assert inputs.keys.names == ("LEFT", "RIGHT", "SELECT", "ROLL", "UNDO")
    t = 0
    for name in ("UNDO", "ROLL", "SELECT", "LEFT", "RIGHT"):
        t = _run(state, inputs, [(50, {name: 0}), (50, {name: 1})], t)
    assert log.names() == ["UNDO", "ROLL", "SELECT", "LEFT", "RIGHT"]


def test_chord_left_right_gives_menu():
    state, inputs, log = _direct()
    both_up = {"LEFT": 1, "RIGHT": 1}
    t = _run(state, inputs, [(40, {"LEFT": 0}), (300, {"RIGHT": 0}), (50, both_up)], 0)
    assert log.names() == ["LEFT", "RIGHT", "MENU"]  # held: no repeat
    t = _run(state, inputs, [(20, {"RIGHT": 0}), (60, {"LEFT": 0}), (50, both_up)], t)
    assert log.names()[3:] == ["RIGHT", "LEFT", "MENU"]
    _run(state, inputs, [(10, {"RIGHT": 0, "LEFT": 0}), (50, both_up)], t)
    assert log.names()[6:] == ["LEFT", "RIGHT", "MENU"]  # the same poll


def test_quick_taps_in_turn_are_no_chord():
    state, inputs, log = _direct()
    steps = [(40, {"LEFT": 0}), (40, {"LEFT": 1}), (40, {"RIGHT": 0}), (40, {"RIGHT": 1})]
    _run(state, inputs, steps * 3, 0)
    assert log.names() == ["LEFT", "RIGHT"] * 3


def test_stuck_left_does_not_turn_right_into_menu():
    state, inputs, log = _direct()
    t = _run(state, inputs, [(5200, {"LEFT": 0})], 0)
    assert log.names("stuck") == ["LEFT"]
    _run(state, inputs, [(50, {"RIGHT": 0}), (50, {"RIGHT": 1})] * 3, t)
    assert log.names() == ["LEFT", "RIGHT", "RIGHT", "RIGHT"]


def test_inputs_held_reads_raw_state():
    state, inputs, log = _direct()
    assert not inputs.held("SELECT")
    state["SELECT"] = 0
    assert inputs.held("SELECT") and not inputs.held("ROLL") and not inputs.held("MENU")


def test_scan_and_poll_allocate_nothing():
    fake, keys = _matrix()
    count = [0]

    def on_press(name, now_ms):
        count[0] += 1

    inputs = Inputs(keys, on_press=on_press)
    fake.reads_with_low_rows = None  # the fake's log would allocate

    fake.pressed = {(4, 2), (0, 0)}
    keys.cols = tuple(_static_col(fake, c) for c in range(6))
    if MICROPY:
        import micropython

        micropython.heap_lock()
    try:
        t = 0
        for _ in range(200):
            inputs.poll(t)
            t += 5
    finally:
        if MICROPY:
            micropython.heap_unlock()
    assert count[0] == 2
    assert inputs.deb.down == (1 << 26) | 1


def _static_col(fake, c):
    """A column read that allocates nothing: the pressed rows of column c, preset."""
    rows = tuple(r for r, cc in fake.pressed if cc == c)
    level = fake.level

    def read():
        for r in rows:
            if level[r] == 0:
                return 0
        return 1

    return read


def test_input_task_runs_under_asyncio():
    import asyncio

    clock = [0]

    def now():
        clock[0] += 5
        return clock[0]

    got = []
    state, inputs, log = _direct(now, 0, lambda name, t: got.append((name, t)))

    async def main():
        task = asyncio.create_task(inputs.run())
        for i in range(40):
            if i == 10:
                state["ROLL"] = 0
            await asyncio.sleep(0)
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass

    asyncio.run(main())
    assert [g[0] for g in got] == ["ROLL"]
    assert inputs.beats > 20


def _direct_long():
    return _direct(long=True)


def test_long_press_is_an_event_of_its_own_once():
    """The press fires on the first reading as before; holding _LONG_MS adds one long event
    (no repeat however long it is held); a short press gives none."""
    state, inputs, log = _direct_long()
    t = _run(state, inputs, [(300, {"ROLL": 0}), (50, {"ROLL": 1})], 0)  # short
    assert log.names() == ["ROLL"] and log.names("long") == []
    assert [e[2] for e in log.events if e[0] == "press"] == [0]
    t0 = t
    t = _run(state, inputs, [(3000, {"ROLL": 0}), (50, {"ROLL": 1})], t)  # held 3 s
    assert log.names() == ["ROLL", "ROLL"] and log.names("long") == ["ROLL"]
    press_at = [e[2] for e in log.events if e[0] == "press"][1]
    long_at = [e[2] for e in log.events if e[0] == "long"][0]
    assert press_at == t0 and 800 <= long_at - t0 < 805
    t = _run(state, inputs, [(900, {"UNDO": 0}), (50, {"UNDO": 1})], t)  # another key
    assert log.names("long") == ["ROLL", "UNDO"]


def test_long_press_survives_bounces_but_not_a_release():
    """Contact bounces while held do not restart the hold; a real release (_RELEASE_MS)
    does, so two 500 ms presses are no long press."""
    state, inputs, log = _direct_long()
    steps = [(10, {"ROLL": 0}), (10, {"ROLL": 1})] * 5  # a bouncy start
    steps += [(400, {"ROLL": 0}), (15, {"ROLL": 1}), (500, {"ROLL": 0}), (50, {"ROLL": 1})]
    t = _run(state, inputs, steps, 0)
    assert log.names() == ["ROLL"] and log.names("long") == ["ROLL"]
    long_at = [e[2] for e in log.events if e[0] == "long"][0]
    assert 800 <= long_at < 805
    t = _run(state, inputs, [(500, {"SELECT": 0}), (40, {"SELECT": 1})] * 2, t)
    assert log.names()[1:] == ["SELECT", "SELECT"] and log.names("long") == ["ROLL"]
    _run(state, inputs, [(700, {"LEFT": 0, "RIGHT": 0}), (50, {"LEFT": 1, "RIGHT": 1})], t)
    assert log.names()[3:] == ["LEFT", "RIGHT", "MENU"] and log.names("long") == ["ROLL"]
