# Buttons to button-name events: debouncing, the diode key matrix, the minimal layout's pins.
#
# Pins come in as callables (Hinch style): a machine.Pin is callable, pin() reads it and
# pin(v) drives it, so tests pass plain functions. Nothing here allocates per scan or poll:
# bitmaps are small ints (at most 30 keys, so every bit fits a small int on a 32-bit port).
#
# Debounce rule: a press registers on its first pressed reading (no delay); the key is then
# "down" until it has read released for _RELEASE_MS in a row, so a contact that bounces for
# 20 ms gives one press, and the next press of that key needs a real release. A held key never
# repeats; after _LONG_MS it is reported once to on_long, after _STUCK_MS once to on_stuck.
# A long press is an event of its own, after the press (which still fires at once): the
# controller makes ROLL held during a person's play the HINT (docs/firmware.md). Bounces
# while the key is held do not restart its time; only a real release (_RELEASE_MS) does.
# Each key has its own state, so a stuck key blocks nothing else (nor forms chords).
#
# Chords (minimal layout): LEFT and RIGHT held together give MENU. Nothing is delayed: the
# first key's press is reported at once, the second key's press too, then MENU as soon as the
# second goes down while the first is (debounced) down and not stuck. The controller so sees
# LEFT, RIGHT, MENU: the cursor moves one way and back before the menu opens. There is no
# "pressed within 150 ms" window on top: a quick LEFT tap followed by a RIGHT tap must stay a
# cursor move, and a sloppy chord keeps the first key down long enough anyway.
from hw.ticks import ticks_diff, ticks_ms

try:
    import asyncio
except ImportError:  # pragma: no cover - a MicroPython build without asyncio
    asyncio = None

from kernels.compat import const

_RELEASE_MS = const(30)  # a release must read stable this long before the next press counts
_LONG_MS = const(800)
_STUCK_MS = const(5000)
_POLL_MS = const(5)
_MAX_KEYS = const(30)  # bit 29 is the highest that stays a small int on 32-bit ports

if asyncio is not None and hasattr(asyncio, "sleep_ms"):
    sleep_ms = asyncio.sleep_ms
else:  # CPython

    def sleep_ms(ms):
        return asyncio.sleep(ms / 1000)


def _noop(name, now_ms):
    pass


class Debouncer:
    """Per-key debounce of a raw pressed-bitmap; new presses go to on_press(name, now_ms).

    `names[i]` names bit i (None for an unused bit). Callbacks: on_press, on_release,
    on_long, on_stuck, each called as f(name, now_ms).
    """

    def __init__(
        self,
        names,
        on_press=None,
        on_release=None,
        on_long=None,
        on_stuck=None,
        release_ms=_RELEASE_MS,
        long_ms=_LONG_MS,
        stuck_ms=_STUCK_MS,
    ):
        self.names = tuple(names)
        self.count = len(self.names)
        if self.count > _MAX_KEYS:
            raise ValueError("too many keys")
        self.on_press = on_press or _noop
        self.on_release = on_release or _noop
        self.on_long = on_long or _noop
        self.on_stuck = on_stuck or _noop
        self.release_ms = release_ms
        self.long_ms = long_ms
        self.stuck_ms = stuck_ms
        self.down = 0  # debounced: the key counts as pressed
        self.releasing = 0  # down, but reading released since rel_at[i]
        self.long = 0  # long press reported
        self.stuck = 0  # stuck reported (cleared on release)
        self.since = [0] * self.count  # when the press registered
        self.rel_at = [0] * self.count

    def poll(self, raw, now_ms):
        """Feeds one raw reading (bit i set = key i reads pressed) taken at now_ms."""
        active = raw | self.down
        if not active:
            return
        for i in range(self.count):
            bit = 1 << i
            if not active & bit:
                continue
            if raw & bit:
                if self.down & bit:
                    self.releasing &= ~bit
                    held = ticks_diff(now_ms, self.since[i])
                    if held >= self.long_ms and not self.long & bit:
                        self.long |= bit
                        self._report(self.on_long, i, now_ms)
                    if held >= self.stuck_ms and not self.stuck & bit:
                        self.stuck |= bit
                        self._report(self.on_stuck, i, now_ms)
                else:
                    self.down |= bit
                    self.long &= ~bit
                    self.stuck &= ~bit
                    self.since[i] = now_ms
                    self._report(self.on_press, i, now_ms)
            elif not self.releasing & bit:
                self.releasing |= bit
                self.rel_at[i] = now_ms
            elif ticks_diff(now_ms, self.rel_at[i]) >= self.release_ms:
                self.down &= ~bit
                self.releasing &= ~bit
                self.stuck &= ~bit
                self._report(self.on_release, i, now_ms)

    def _report(self, callback, i, now_ms):
        name = self.names[i]
        if name is not None:
            callback(name, now_ms)

    def bit(self, name):
        """The bit of a key name (0 when there is no such key)."""
        for i in range(self.count):
            if self.names[i] == name:
                return 1 << i
        return 0


class MatrixKeys:
    """A diode key matrix: rows are driven active one at a time, every column is read.

    `rows` take 0/1, `cols` return 0/1; bit row * ncols + col is named by keymap[row][col].
    Active low (the board): the driven row is 0 and a pressed key reads 0.
    """

    chords = ()

    def __init__(self, rows, cols, keymap, active_low=True):
        self.rows = tuple(rows)
        self.cols = tuple(cols)
        names = []
        for r in range(len(self.rows)):
            line = keymap[r] if r < len(keymap) else ()
            for c in range(len(self.cols)):
                names.append(line[c] if c < len(line) else None)
        if len(names) > _MAX_KEYS:
            raise ValueError("too many keys")
        self.names = tuple(names)
        self._on = 0 if active_low else 1
        self._off = 1 - self._on
        for row in self.rows:
            row(self._off)

    def scan(self):
        """The pressed-bitmap of the whole matrix; leaves every row inactive."""
        on = self._on
        off = self._off
        bits = 0
        i = 0
        for row in self.rows:
            row(on)
            for col in self.cols:
                if col() == on:
                    bits |= 1 << i
                i += 1
            row(off)
        return bits


_DIRECT_ORDER = ("LEFT", "RIGHT", "SELECT", "ROLL", "UNDO")


class DirectKeys:
    """One pin per button (the minimal layout); LEFT + RIGHT held together give MENU."""

    chords = (("LEFT", "RIGHT", "MENU"),)

    def __init__(self, pins_by_name, active_low=True):
        names = [n for n in _DIRECT_ORDER if n in pins_by_name]
        names += sorted(n for n in pins_by_name if n not in _DIRECT_ORDER)
        if len(names) > _MAX_KEYS:
            raise ValueError("too many keys")
        self.names = tuple(names)
        self.pins = tuple(pins_by_name[n] for n in names)
        self._on = 0 if active_low else 1

    def scan(self):
        on = self._on
        bits = 0
        i = 0
        for pin in self.pins:
            if pin() == on:
                bits |= 1 << i
            i += 1
        return bits


class Inputs:
    """The input task: scans `keys` every period_ms, debounces, forms chords, reports presses
    to on_press and keys held _LONG_MS to on_long (once a press), each as f(name, now_ms).

    `beats` counts polls (wrapping at 16 bits): the watchdog's sign of life of this task.
    """

    def __init__(
        self, keys, clock=ticks_ms, period_ms=_POLL_MS, on_long=None, on_stuck=None,
        on_press=None,
    ):
        self.keys = keys
        self.clock = clock
        self.period_ms = period_ms
        self.on_press = on_press or _noop
        self.on_long = on_long or _noop
        self.deb = Debouncer(keys.names, self._pressed, None, self._long, on_stuck)
        chords = []
        for a, b, out in getattr(keys, "chords", ()):
            bit_a = self.deb.bit(a)
            bit_b = self.deb.bit(b)
            if bit_a and bit_b:
                chords.append((a, bit_a, b, bit_b, out))
        self._chords = tuple(chords)
        self.beats = 0

    def _pressed(self, name, now_ms):
        self.on_press(name, now_ms)
        deb = self.deb
        for a, bit_a, b, bit_b, out in self._chords:
            if name == a:
                other = bit_b
            elif name == b:
                other = bit_a
            else:
                continue
            if deb.down & other and not deb.stuck & other:
                self.on_press(out, now_ms)

    def _long(self, name, now_ms):
        self.on_long(name, now_ms)

    def poll(self, now_ms):
        """One scan and debounce step."""
        self.deb.poll(self.keys.scan(), now_ms)
        self.beats = (self.beats + 1) & 0xFFFF

    def held(self, name):
        """Whether a key reads pressed right now (raw, undebounced): the power-on check."""
        return bool(self.keys.scan() & self.deb.bit(name))

    async def run(self):
        """Polls forever, calling on_press(name, now_ms) for every press and chord, and
        on_long(name, now_ms) for a key held _LONG_MS."""
        while True:
            self.poll(self.clock())
            await sleep_ms(self.period_ms)
