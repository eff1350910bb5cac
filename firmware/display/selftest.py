# First-power-on self-test (hardware/README.md section 6): colours, every segment, buttons.
#
# Time-driven by now_ms and tested without sleeping:
#   1. the whole chain red, then green, then blue at the lowest brightness (COLOUR_MS each);
#   2. every segment alone in CHAIN order (SEGMENT_MS each): its base LED red, the rest blue;
#   3. from then on each press lights the segments of SELFTEST_ECHO (a point button its point)
#      in green until the next press.
# Everything reported goes to out(event_dict) as {"event": "selftest", ...}: the protocol
# sends it as a JSON line, main.py prints it; presses are echoed in every step.
from hw.ticks import ticks_diff
from kernels.compat import const

COLOUR_MS = const(1000)
SEGMENT_MS = const(500)
_COLOURS = ("red", "green", "blue")
_BUTTONS = const(-1)  # step of the button echo
_NONE = const(-2)  # not started


class SelfTest:
    """Drives `strip` (its `buf`, 3 bytes per LED in board.LED_ORDER, and `write()`)."""

    def __init__(self, board, strip, out, level=None):
        self.board = board
        self.strip = strip
        self.out = out
        self.level = level if level is not None else board.BRIGHTNESS_LEVELS[0]
        order = board.LED_ORDER
        self._r = order.index("R")
        self._g = order.index("G")
        self._b = order.index("B")
        self.count = board.LED_COUNT
        self.start_ms = None
        self.step = _NONE  # 0-2 colours, 3.. segments, _BUTTONS
        self.echo = ()  # segments lit by the last press
        self.writes = 0
        self.pending = False  # a frame the strip could not take yet

    def start(self, now_ms):
        self.start_ms = now_ms
        self.step = _NONE
        self.echo = ()
        self.tick(now_ms)

    def _step_at(self, now_ms):
        elapsed = ticks_diff(now_ms, self.start_ms)
        if elapsed < 3 * COLOUR_MS:
            return elapsed // COLOUR_MS
        elapsed -= 3 * COLOUR_MS
        k = elapsed // SEGMENT_MS
        if k < len(self.board.CHAIN):
            return 3 + k
        return _BUTTONS

    def tick(self, now_ms):
        """Advances to the step due at now_ms; True when the LEDs were written."""
        if self.start_ms is None:
            self.start(now_ms)
            return True
        step = self._step_at(now_ms)
        if step == self.step or self.step == _BUTTONS or 0 <= step < self.step:
            if self.pending:  # the strip was still sending the last frame: now
                return self._write()
            return False  # the steps only go forward
        self.step = step
        if step == _BUTTONS:
            self.out({"event": "selftest", "step": "buttons"})
            self._draw_echo()
        elif step < 3:
            self.out({"event": "selftest", "step": "colour", "colour": _COLOURS[step]})
            self._fill(step)
        else:
            name = self.board.CHAIN[step - 3]
            first, count, direction = self.board.SEGMENTS[name]
            self.out(
                {
                    "event": "selftest",
                    "step": "segment",
                    "segment": name,
                    "first": first,
                    "count": count,
                }
            )
            self._fill(-1)
            self._segment(name, 2)
            base = first if direction > 0 else first + count - 1
            self._set(base, 0)
        return self._write()

    def press(self, name, now_ms):
        """A button event: echoed on `out` always, on the LEDs once the segments are done."""
        self.out({"event": "selftest", "button": name})
        segments = self.echo_segments(name)
        self.echo = segments
        if self.step == _BUTTONS:
            self._draw_echo()
            self._write()

    def echo_segments(self, name):
        """The segments a button lights: SELFTEST_ECHO, or the segment of that name."""
        segments = self.board.SELFTEST_ECHO.get(name)
        if segments is None:
            segments = (name,) if name in self.board.SEGMENTS else ()
        return segments

    def _draw_echo(self):
        self._fill(-1)
        for name in self.echo:
            self._segment(name, 1)

    def _write(self):
        """True when the strip took the frame; a busy strip (PioStrip) leaves it pending."""
        self.pending = self.strip.write() is False
        if not self.pending:
            self.writes += 1
        return not self.pending

    def _set(self, i, colour):
        """LED i in colour 0 red, 1 green, 2 blue (-1 dark)."""
        buf = self.strip.buf
        j = 3 * i
        level = self.level
        buf[j + self._r] = level if colour == 0 else 0
        buf[j + self._g] = level if colour == 1 else 0
        buf[j + self._b] = level if colour == 2 else 0

    def _fill(self, colour):
        for i in range(self.count):
            self._set(i, colour)

    def _segment(self, name, colour):
        first, count, _ = self.board.SEGMENTS[name]
        for i in range(first, first + count):
            self._set(i, colour)

    def stop(self):
        """Blanks the LEDs."""
        self._fill(-1)
        self._write()


def run(board, strip, out, now_ms):
    """A started SelfTest: the App's render and input tasks then drive it (see App.selftest)."""
    test = SelfTest(board, strip, out)
    test.start(now_ms)
    return test
