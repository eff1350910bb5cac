# selftest.py: the order of the steps, what each lights, the button echo; no sleeping.
from display import power
from display.selftest import COLOUR_MS, SEGMENT_MS, SelfTest
from hw.boards import esp32s3, pico
from scenes import NullStrip


def _make(board=pico):
    strip = NullStrip(board.LED_COUNT)
    events = []
    return SelfTest(board, strip, events.append), strip, events


def _rgb(board, strip, i):
    order = board.LED_ORDER
    j = 3 * i
    return (
        strip.buf[j + order.index("R")],
        strip.buf[j + order.index("G")],
        strip.buf[j + order.index("B")],
    )


def _lit(strip):
    return [i for i in range(len(strip.buf) // 3) if strip.buf[3 * i : 3 * i + 3] != b"\0\0\0"]


def _seg_range(board, name):
    first, count, _ = board.SEGMENTS[name]
    return list(range(first, first + count))


def test_steps_in_order():
    test, strip, events = _make()
    end = 3 * COLOUR_MS + len(pico.CHAIN) * SEGMENT_MS + 2000
    changes = []
    for t in range(0, end, 10):
        if test.tick(t):
            changes.append(t)
    steps = [e.get("colour") or e.get("segment") or e["step"] for e in events]
    assert steps == ["red", "green", "blue"] + list(pico.CHAIN) + ["buttons"]
    assert all(e["event"] == "selftest" for e in events)
    expected = [0, 1000, 2000] + [3000 + 500 * k for k in range(len(pico.CHAIN) + 1)]
    assert changes == expected
    assert strip.writes == len(expected)  # nothing written between steps
    seg = events[3 + pico.CHAIN.index("p13")]
    assert (seg["first"], seg["count"]) == pico.SEGMENTS["p13"][:2]


def test_colours_fill_the_chain_in_led_order_at_lowest_level():
    test, strip, events = _make()
    level = pico.BRIGHTNESS_LEVELS[0]
    budget = power.budget_ma(pico.SUPPLY_MA, pico.RESERVE_MA)
    assert pico.LED_ORDER == "GRB"
    for k, t in enumerate((0, COLOUR_MS, 2 * COLOUR_MS)):
        test.tick(t)
        want = [0, 0, 0]
        want[k] = level
        for i in range(pico.LED_COUNT):
            assert _rgb(pico, strip, i) == tuple(want)
        current = power.frame_current_ma(
            strip.buf, pico.LED_COUNT, pico.LED_MA_PER_CHANNEL, pico.LED_IDLE_MA
        )
        assert current <= budget, current
    test.tick(0 + COLOUR_MS - 1)  # no going back in time: still blue
    assert _rgb(pico, strip, 0) == (0, 0, level)
    test.start(5000)
    assert strip.buf[:3] == bytes((0, level, 0))  # red is the second byte in GRB


def test_each_segment_base_red_rest_blue():
    test, strip, events = _make()
    test.tick(0)
    level = test.level
    for k, name in enumerate(pico.CHAIN):
        test.tick(3 * COLOUR_MS + k * SEGMENT_MS + 250)
        first, count, direction = pico.SEGMENTS[name]
        base = first if direction == 1 else first + count - 1
        assert _lit(strip) == _seg_range(pico, name), name
        assert _rgb(pico, strip, base) == (level, 0, 0), name
        for i in _seg_range(pico, name):
            if i != base:
                assert _rgb(pico, strip, i) == (0, 0, level), (name, i)
    # p2 runs backwards: its base is the last LED of its range
    assert pico.SEGMENTS["p2"] == (15, 15, -1)


def test_buttons_echo_their_segments():
    test, strip, events = _make()
    t = 3 * COLOUR_MS + len(pico.CHAIN) * SEGMENT_MS
    test.tick(0)
    test.press("ROLL", 100)  # during the colours: echoed on serial only
    assert events[-1] == {"event": "selftest", "button": "ROLL"}
    assert _rgb(pico, strip, 5) == (pico.BRIGHTNESS_LEVELS[0], 0, 0)
    test.tick(t)
    assert events[-1] == {"event": "selftest", "step": "buttons"}
    assert _lit(strip) == _seg_range(pico, "die0") + _seg_range(pico, "die1")
    cases = [
        ("p5", ["p5"]),
        ("p24", ["p24"]),
        ("BAR", ["bar0", "bar1"]),
        ("OFF", ["off1", "off0"]),
        ("UNDO", ["turn0"]),
        ("MENU", ["turn1"]),
        ("SELECT", ["turn1"]),
        ("LEFT", ["p12", "p13"]),
        ("RIGHT", ["p1", "p24"]),
        ("NOPE", []),
    ]
    for name, segs in cases:
        writes = strip.writes
        test.press(name, t + 10)
        assert events[-1] == {"event": "selftest", "button": name}
        assert strip.writes == writes + 1
        want = []
        for s in segs:
            want += _seg_range(pico, s)
        assert _lit(strip) == sorted(want), name
        for i in want:
            assert _rgb(pico, strip, i) == (0, test.level, 0)
    assert not test.tick(t + 60000)  # the echo stays until the next press


def test_other_board_and_stop():
    test, strip, events = _make(esp32s3)
    test.tick(7)
    assert len(_lit(strip)) == esp32s3.LED_COUNT
    test.stop()
    assert _lit(strip) == []


class BusyStrip(NullStrip):
    """A strip still sending its last frame for the next `busy` writes (as PioStrip is)."""

    def __init__(self, count):
        super().__init__(count)
        self.busy = 0
        self.frames = []

    def write(self):
        if self.busy:
            self.busy -= 1
            return False
        self.writes += 1
        self.frames.append(bytes(self.buf[:3]))
        return True


def test_a_frame_the_strip_was_busy_for_is_sent_at_the_next_tick():
    strip = BusyStrip(pico.LED_COUNT)
    test = SelfTest(pico, strip, [].append)
    test.start(0)
    strip.busy = 1
    assert not test.tick(COLOUR_MS) and test.pending and strip.writes == 1  # green refused
    assert test.tick(COLOUR_MS + 20) and not test.pending and strip.writes == 2
    assert not test.tick(COLOUR_MS + 40) and strip.writes == 2  # then nothing more
    level = test.level
    assert strip.frames == [bytes((0, level, 0)), bytes((level, 0, 0))]  # GRB: red, green
    assert test.writes == 2
