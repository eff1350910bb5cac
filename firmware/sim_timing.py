# The simulator at a real board's speed (--board-timing): slowed computing, strip, USB serial.
#
# Pace slows the firmware's own work to the board's CPU: PacedApp and the protocol's feed
# (paced() gives both to app.build) time each step (a press, a frame with the board's thinking, a
# request) and Pace then blocks for (factor - 1) times it; the time the step spent in
# simulated I/O is left out. The render task's idle collection (App.collect) is paced by
# GC_FACTORS instead: it is MicroPython's C code, not bytecode (hardware/README.md section
# 5 has the estimate). The board's own App has none of this. TimedStrip
# makes each strip write take its time on the wire (neopixel: ~30 us a LED with the loop
# held; the RP2040's PIO + DMA path: a small set-up, waiting only for a frame still being
# sent). UsbCdc is the Pico's USB serial: poll says POLLOUT only when a 64-byte packet fits,
# and a write with no room blocks up to 500 ms. Host-only (not deployed); MicroPython and CPython.
import sys
import time

from app import App
from hw.output import FakeStrip
from hw.storage import Store
from hw.ticks import ticks_diff, ticks_us

# RP2040 / this machine's unix port, measured by instruction counts (issue 11); the ESP32-S3
# is about 2.4 times faster than the RP2040.
FACTORS = {"pico": 180, "pico-dma": 180, "esp32s3": 75}
# A garbage collection's board time over its time here, estimated from the collector's loops
# (cycles per word of the live heap and per block of the heap: ~6.5 ms for an RP2040's 190 KB
# against ~0.27 ms for this port's board-sized heap), not measured on a board.
GC_FACTORS = {"pico": 25, "pico-dma": 25, "esp32s3": 10}
TIMINGS = ("none", "pico", "pico-dma", "esp32s3")
NEOPIXEL_US_PER_LED = 30  # 24 bits at 800 kHz, plus the latch: bit-banged or RMT, waited for
DMA_SETUP_US = 150  # the PIO/DMA adapter's write at board pace: arm one DMA transfer
PACKET = 64  # a USB full-speed bulk packet
BLOCK_MS = 500  # MicroPython's stdout on the Pico's USB CDC gives up after this

if hasattr(time, "sleep_us"):
    _sleep_us = time.sleep_us
else:

    def _sleep_us(us):
        time.sleep(us / 1000000)


def block_us(us):
    """Holds the whole process (the event loop with it), as busy code on the board does."""
    if us > 0:
        _sleep_us(us)


class Pace:
    """Slows each timed step to `factor` times its host time; `io_us` is simulated I/O time
    (strip, serial) that steps leave out: it already takes the board's time."""

    def __init__(self, factor, clock=ticks_us, block=block_us, gc_factor=None):
        self.factor = factor
        self.gc_factor = gc_factor or factor  # for the idle collections (end(gc=True))
        self.clock = clock
        self.block = block
        self.io_us = 0
        self.depth = 0
        self.steps = 0
        self.added_us = 0  # total blocked for, for the curious (wraps on the board: host only)
        self._t0 = 0
        self._io0 = 0

    def begin(self):
        """Start of a step; a step inside a step is part of the outer one."""
        self.depth += 1
        if self.depth == 1:
            self._io0 = self.io_us
            self._t0 = self.clock()

    def end(self, gc=False):
        """End of a step; `gc`: a garbage collection's, at gc_factor."""
        self.depth -= 1
        if self.depth:
            return
        work = ticks_diff(self.clock(), self._t0) - (self.io_us - self._io0)
        if work > 0:
            extra = ((self.gc_factor if gc else self.factor) - 1) * work
            self.steps += 1
            self.added_us += extra
            self.block(extra)

    def timed(self, func):
        """func as one step (the protocol's feed: a request and its reply)."""

        def step(*args):
            self.begin()
            try:
                return func(*args)
            finally:
                self.end()

        return step


class PacedApp(App):
    """App whose task steps (press, long press, a frame's parts, the idle collection) are
    each one step of `pace` (frame(), the three parts in one go, is one step)."""

    def __init__(self, pace, *args, **kwargs):
        self.pace = pace  # first: the protocol, made by App's constructor, needs none of it
        App.__init__(self, *args, **kwargs)

    def _paced(self, step, *args):
        self.pace.begin()
        try:
            return step(self, *args)
        finally:
            self.pace.end()

    def press(self, name, now_ms):
        return self._paced(App.press, name, now_ms)

    def long_press(self, name, now_ms):
        return self._paced(App.long_press, name, now_ms)

    def frame(self, now_ms):
        return self._paced(App.frame, now_ms)

    def tick(self, now_ms):
        return self._paced(App.tick, now_ms)

    def render(self, now_ms):
        return self._paced(App.render, now_ms)

    def flush(self):
        return self._paced(App.flush)

    def collect(self):
        pace = self.pace
        pace.begin()
        done = False
        try:
            done = App.collect(self)
            return done
        finally:
            pace.end(done)  # a collection at its board cost; a look without one as work


def paced(pace):
    """(app_class, protocol_class) for app.build at `pace` (None, None: the host's speed):
    PacedApp, and a Protocol whose feed (a request and its reply) is one step of `pace`."""
    if pace is None:
        return None, None
    from link.protocol import Protocol  # (the simulator's only: tests of PacedApp need none)

    class PacedProtocol(Protocol):
        def __init__(self, *args):
            Protocol.__init__(self, *args)
            self._feed = pace.timed(self._unpaced)

        def _unpaced(self, *args):
            return Protocol.feed(self, *args)

        def feed(self, *args):
            return self._feed(*args)

    def app(*args, **kwargs):
        return PacedApp(pace, *args, **kwargs)

    return app, PacedProtocol


class TimedStrip(FakeStrip):
    """A FakeStrip whose write() takes the real strip's time, blocking (input scans wait).

    dma: the PIO + DMA path: the CPU only arms a transfer (DMA_SETUP_US), waiting first for
    a previous frame still on the wire; else neopixel's ~30 us a LED, all of it blocking."""

    def __init__(self, count, order="GRB", pace=None, dma=False):
        super().__init__(count, order)
        self.pace = pace
        self.dma = dma
        self.wire_us = count * NEOPIXEL_US_PER_LED
        self.blocked_us = 0  # the last write's blocking time (tests read it)
        self._sent_at = 0
        self._sending = False

    def write(self):
        t0 = ticks_us()
        FakeStrip.write(self)
        if self.dma:
            cost = DMA_SETUP_US
            if self._sending:
                cost += self.wire_us - ticks_diff(t0, self._sent_at)
        else:
            cost = self.wire_us
        block_us(cost - ticks_diff(ticks_us(), t0))
        if self.dma:  # the transfer starts once armed, and runs beside the CPU
            self._sending = True
            self._sent_at = ticks_us()
        spent = ticks_diff(ticks_us(), t0)
        self.blocked_us = spent
        if self.pace is not None:
            self.pace.io_us += spent


class TimedStore(Store):
    """A Store whose file-system calls (open, each write, close, rename) are simulated I/O,
    left out of the pace, while making the save's text stays the firmware's work: the host's
    file system is no model of the board's littlefs, and 180 times a host write made `move`
    and `roll` 12 times the emulated RP2040's (make chip, bench/README.md)."""

    def __init__(self, root, pace):
        Store.__init__(self, root, self._open)
        self.pace = pace

    def _spent(self, t0):
        self.pace.io_us += ticks_diff(ticks_us(), t0)

    def _open(self, path, mode):
        t0 = ticks_us()
        f = open(path, mode)
        self._spent(t0)
        return _TimedFile(f, self)

    def finish(self, name):
        t0 = ticks_us()
        try:
            return Store.finish(self, name)
        finally:
            self._spent(t0)


class _TimedFile:
    def __init__(self, f, store):
        self.f = f
        self.store = store

    def write(self, text):
        t0 = ticks_us()
        n = self.f.write(text)
        self.store._spent(t0)
        return n

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        t0 = ticks_us()
        self.f.close()
        self.store._spent(t0)


if sys.implementation.name == "micropython":  # select.poll calls ioctl() of an io.IOBase
    from io import IOBase as _Stream
else:
    _Stream = object


class UsbCdc(_Stream):
    """The board's USB serial port on the simulator's pty (MicroPython: a stream that
    select.poll and the link's writer use as they use sys.stdout.buffer on the board).

    One 64-byte packet is held until the pty takes it; POLLOUT only while it is empty.
    write() takes what fits in the packet now, and while nothing fits waits (blocking, the
    loop held) up to BLOCK_MS for the host to read, as MicroPython's stdout on the Pico."""

    def __init__(self, stream, pace=None):
        import select

        self.stream = stream
        self.pace = pace
        self.packet = bytearray(PACKET)
        self.n = 0
        self.blocks = 0  # writes that waited for room
        self.timeouts = 0  # writes that gave up after BLOCK_MS
        self._poll = select.poll()
        self._poll.register(stream, select.POLLOUT)
        self._out = select.POLLOUT

    def _flush(self):
        """Moves the packet into the pty as far as it has room now; True once it is empty."""
        n = self.n
        if not n:
            return True
        if not self._poll.poll(0):
            return False
        try:
            k = self.stream.write(memoryview(self.packet)[:n])
        except OSError:  # EAGAIN on a port that reported room
            k = None
        if not k:
            return False
        if k < n:
            self.packet[: n - k] = self.packet[k:n]
        self.n = n - k
        return self.n == 0

    def write(self, data):
        t0 = ticks_us()
        mv = memoryview(data)
        total = len(mv)
        off = 0
        waited = False
        while off < total:
            self._flush()
            room = PACKET - self.n
            if room > 0:
                k = min(room, total - off)
                self.packet[self.n : self.n + k] = mv[off : off + k]
                self.n += k
                off += k
                self._flush()
                continue
            if not waited:
                waited = True
                self.blocks += 1
            if ticks_diff(ticks_us(), t0) >= BLOCK_MS * 1000:
                self.timeouts += 1
                break
            block_us(1000)
        if self.pace is not None:
            self.pace.io_us += ticks_diff(ticks_us(), t0)
        return off

    def flush(self):
        pass

    def ready(self):
        """Room for a packet now (the link's Outbox asks this before each piece)."""
        return self._flush()

    def ioctl(self, req, arg):
        """MicroPython's stream poll (MP_STREAM_POLL = 3): POLLOUT when a packet fits."""
        if req == 3:
            return arg & self._out if self._flush() else 0
        return -1

    def fileno(self):
        raise OSError("a simulated port: use write() and poll")


def setup(timing, board, pace_factor=None):
    """(pace, strip, port stream) for `--board-timing timing` on `board`; "none": the host's
    own speed, (None, FakeStrip, None)."""
    if timing not in TIMINGS:
        raise ValueError("--board-timing is one of " + ", ".join(TIMINGS))
    if timing == "none":
        return None, FakeStrip(board.LED_COUNT, board.LED_ORDER), None
    pace = Pace(pace_factor or FACTORS[timing], gc_factor=GC_FACTORS[timing])
    strip = TimedStrip(board.LED_COUNT, board.LED_ORDER, pace, dma=timing == "pico-dma")
    if sys.implementation.name == "micropython":
        stream = sys.stdout.buffer
    else:  # the raw descriptor: a non-blocking write that takes nothing returns None
        import os

        sys.stdout.flush()
        stream = os.fdopen(sys.stdout.fileno(), "wb", buffering=0, closefd=False)
    return pace, strip, UsbCdc(stream, pace)
