# asyncio wiring of the board: the input task, the render task, the serial task, the watchdog.
#
# Tasks:
#   input     every _POLL_MS: scan the keys, debounce, presses -> controller.press (or the
#             self-test while it runs), keys held hw/inputs.py's _LONG_MS ->
#             controller.long_press (HINT);
#             a stuck key becomes an "error" event (code "stuck").
#   render    every FRAME_MS, in steps of their own with the loop released between them (a
#             think slice and the strip's frame never hold it together): controller.tick(now)
#             (timed changes, the board's own player's next slice), renderer.render(view,
#             now) (the renderer writes the LEDs only when the frame changed), the save of a
#             press (controller.flush); the self-test instead while it runs. Then the
#             garbage collection when one is due (hw/collector.py), so that MicroPython's own
#             collections seldom fall inside a press, a request or a slice. While the board
#             or a HINT thinks, its slices follow each other at once, a frame drawn between
#             them whenever one is due.
#   serial    optional: `serial(app)` returns the coroutine to run (link.serve of the app's
#             Protocol); when it returns (the host asked for the REPL) the app stops.
#   watchdog  when `wdt` (anything with .feed()) is given, or made by `make_wdt()` as main()
#             starts (the board's: after booting, which may take a while): every _CHECK_MS it
#             feeds the watchdog
#             only if the input and render tasks both advanced their heartbeat counters since
#             the last check. A task that died or hangs on an await stops the feeding, and a
#             blocking hang stops the loop itself: the hardware watchdog then restarts the board,
#             which resumes the saved game.
# An exception in a task ends that task only (the loop's exception handler reports it) and the
# watchdog does the rest; the controller itself never raises on a press.
import sys

_MICROPY = sys.implementation.name == "micropython"
if _MICROPY:  # first of all, the collector every 2 KB while the firmware loads (_pack_heap)
    import gc

    gc.threshold(2048)

from hw.inputs import Inputs, sleep_ms  # noqa: E402 (the imports after that)
from hw.ticks import ticks_diff, ticks_ms  # noqa: E402

try:
    import asyncio
except ImportError:  # pragma: no cover
    asyncio = None

from kernels.compat import const  # noqa: E402

_POLL_MS = const(5)
FRAME_MS = const(20)
_CHECK_MS = const(1000)  # watchdog checks; the hardware timeout is 8 s
_START_GC = const(2048)  # bytes between collections while starting (then hw/collector.py)


def _drop(event):
    pass


def _pack_heap():
    """Keeps the heap in one piece (MicroPython; issue 11). While the firmware loads (from
    the import of this module to the end of build()) the collector runs every _START_GC
    bytes allocated, so its long-lived objects (code, the weights, buffers) lie packed at
    the bottom of the heap, not spread through it among the garbage of loading; afterwards
    the Collector (hw/collector.py) collects every 1/32 of the heap in the frames' idle
    time, so what a game keeps (its record, code loaded when first needed) is not
    scattered through a heap full of garbage either. Else no 2 KB block is left for a reply
    although half the heap is free (measured on the unix port: 57 KB free in pieces of at
    most 1.3 KB after start-up in 200 KB; 166 KB in pieces of 1.3 KB at a game's end in
    384 KB)."""
    if _MICROPY:
        gc.collect()
        gc.threshold(_START_GC)


def _collector():
    """The frames' idle collections once the firmware is loaded (MicroPython only), not
    started yet (build() starts it last)."""
    if not _MICROPY:
        return None
    from hw.collector import Collector

    return Collector(gc, start=False)


class App:
    """The board's runtime around one Controller; `await app.main()` runs it until stop().
    `link(app)`, when given, makes the app's Protocol (its self-test and stop are the
    app's); `serial(app)` the serial task's coroutine."""

    def __init__(
        self,
        board,
        layout,
        controller,
        renderer,
        keys,
        serial=None,
        wdt=None,
        clock=ticks_ms,
        strip=None,
        out=None,
        poll_ms=_POLL_MS,
        frame_ms=FRAME_MS,
        check_ms=_CHECK_MS,
        collector=None,
        link=None,
        make_wdt=None,
    ):
        self.board = board
        self.layout = layout
        self.ctl = controller
        self.renderer = renderer
        self.strip = strip if strip is not None else getattr(renderer, "strip", None)
        self.serial = serial
        self.wdt = wdt
        self.make_wdt = make_wdt
        self.clock = clock
        self.out = out or getattr(controller, "emit", None) or _drop  # events of the app
        self.frame_ms = frame_ms
        self.check_ms = check_ms
        self.inputs = Inputs(keys, clock, poll_ms, self.long_press, self._stuck, self.press)
        self.frames = 0  # the render task's heartbeat: a beat a step (wraps at 16 bits)
        self.feeds = 0
        self.stalls = 0  # checks that found a task without progress
        self.test = None  # the SelfTest while it runs
        self.tasks = []
        self.stopped = False
        self.collector = collector  # hw.collector.Collector, or None: MicroPython's own
        self._done = None
        self.protocol = link(self) if link is not None else None

    # The tasks' steps (also called directly by tests and benchmarks)
    def press(self, name, now_ms):
        if self.test is not None:
            self.test.press(name, now_ms)
        else:
            self.ctl.press(name, now_ms, True)  # the frame first; flush() saves right after it

    def long_press(self, name, now_ms):
        if self.test is None:
            self.ctl.long_press(name, now_ms, True)

    def frame(self, now_ms):
        """One frame in one go (tests, benchmarks; the render task makes its three parts
        steps of their own, the loop released between them); True when the LEDs were
        written."""
        self.tick(now_ms)
        wrote = self.render(now_ms)
        self.flush()
        return wrote

    def tick(self, now_ms):
        """A frame's work: the controller's timed changes, the board's or a hint's next
        slice, or the save of the last frame's own change (controller.tick); True while a
        choice is being thought out, more slices to come."""
        more = self.test is None and self.ctl.tick(now_ms)
        self.frames = (self.frames + 1) & 0xFFFF
        return more

    def render(self, now_ms):
        """The frame drawn (the renderer writes the LEDs only when it changed; the
        self-test's step instead while it runs); True when the LEDs were written."""
        if self.test is not None:
            wrote = self.test.tick(now_ms)
        else:
            wrote = self.renderer.render(self.ctl.view, now_ms)
        self.frames = (self.frames + 1) & 0xFFFF
        return wrote

    def flush(self):
        """A press's save, once its frame is drawn (controller.flush)."""
        if self.test is None:
            self.ctl.flush()
        self.frames = (self.frames + 1) & 0xFFFF

    def collect(self):
        """The idle part of a frame, a step of its own: a garbage collection when one is due
        (hw/collector.py); True when it collected."""
        self.frames = (self.frames + 1) & 0xFFFF
        c = self.collector
        return c is not None and c.idle()

    def _stuck(self, name, now_ms):
        self.out(
            {
                "event": "error",
                "code": "stuck",
                "button": name,
                "message": "%s held for 5 s: stuck? (other buttons still work)" % name,
            }
        )

    # The self-test (hardware/README.md section 6): the protocol's `selftest` request and
    # main.py's power-on check start it; it runs until end_selftest() or a reset.
    def selftest(self, now_ms=None):
        if self.strip is None:
            raise ValueError("no LED strip to test")
        from display.selftest import SelfTest  # loaded only when needed (heap)

        self.test = SelfTest(self.board, self.strip, self.out)
        self.test.start(self.clock() if now_ms is None else now_ms)
        return self.test

    def end_selftest(self):
        self.test = None
        if hasattr(self.renderer, "invalidate"):
            self.renderer.invalidate()  # the strip holds the self-test's frame

    # asyncio
    async def _input_task(self):
        await self.inputs.run()

    async def _render_task(self):
        clock = self.clock
        drawn = None  # when the last frame was drawn
        while True:
            start = clock()
            more = self.tick(start)  # each part a step: presses, the serial task between
            await sleep_ms(0)
            # While a choice is thought out, its slices follow each other at once, the loop
            # released between them, and a frame is drawn (and a press saved) only when one
            # is due: slices of control/plan.py's _FRAME_SLICE evaluations keep each step
            # short, and the draw's time is not paid again for each of them. The idle
            # collection follows either way (a choice's first slice asks for one:
            # gammon/opponent.py).
            if not more or drawn is None or ticks_diff(start, drawn) >= self.frame_ms:
                drawn = start
                self.render(start)
                await sleep_ms(0)
                self.flush()
            if self.collector is not None:
                await sleep_ms(0)
                self.collect()
            wait = 0 if more else self.frame_ms - ticks_diff(clock(), start)
            await sleep_ms(wait if wait > 0 else 0)

    async def _watchdog_task(self):
        last_in = self.inputs.beats
        last_fr = self.frames
        self.wdt.feed()
        self.feeds += 1
        while True:
            await sleep_ms(self.check_ms)
            beats = self.inputs.beats
            frames = self.frames
            if beats != last_in and frames != last_fr:
                self.wdt.feed()
                self.feeds += 1
            else:
                self.stalls += 1
            last_in = beats
            last_fr = frames

    async def _serial_task(self):
        try:
            await self.serial(self)
        finally:
            self.stop()

    async def main(self):
        """Runs every task until stop() (or the serial task's end); then cancels them."""
        self.stopped = False
        self._done = asyncio.Event()
        if self.wdt is None and self.make_wdt is not None:
            self.wdt = self.make_wdt()  # once started it cannot be stopped
        self.tasks = [
            asyncio.create_task(self._input_task()),
            asyncio.create_task(self._render_task()),
        ]
        if self.wdt is not None:
            self.tasks.append(asyncio.create_task(self._watchdog_task()))
        if self.serial is not None:
            self.tasks.append(asyncio.create_task(self._serial_task()))
        try:
            await self._done.wait()
        finally:
            for task in self._cancel():  # let them run their cleanup (kbd_intr, ...)
                try:
                    await task
                except (asyncio.CancelledError, Exception):
                    pass

    def stop(self):
        """Ends main() (the protocol's `stop` callback: the host asked for the REPL)."""
        self.stopped = True
        if self._done is not None:
            self._done.set()

    def _cancel(self):
        tasks = self.tasks
        self.tasks = []
        for task in tasks:
            if not task.done():
                task.cancel()
        return tasks

    def deinit(self):
        """Cancels the tasks, saves what a press changed and blanks the LEDs (main's cleanup)."""
        self.stop()
        self._cancel()
        if self.test is None and self.ctl is not None:
            self.ctl.flush()
        strip = self.strip
        if strip is None:
            return
        if hasattr(strip, "deinit"):
            strip.deinit()
        else:
            buf = strip.buf
            for i in range(len(buf)):
                buf[i] = 0
            strip.write()


def build(
    board,
    layout,
    keys,
    strip,
    store,
    dice,
    clock=ticks_ms,
    wdt=None,
    serial=True,
    stream=None,
    out_stream=None,
    nonblocking=False,
    write=None,
    app_class=None,
    weights=None,
    host=None,
    make_wdt=None,
    protocol_class=None,
    pace_ms=700,
):
    """The whole firmware on given hardware (main.py) or fakes (tests, the simulator),
    each object made once with what it needs: the controller booted from `store`, the
    renderer, the protocol on the serial port, the App. `weights`: the board's player's
    network, by default weights.bin at the board's root; `host(app)`: a coroutine standing
    in for the serial task (tests); `app_class`, `protocol_class`: the simulator's at a
    board's speed (sim_timing.py); `pace_ms`: the board player's time per step."""
    _pack_heap()
    from control import loader

    loader.reserve(weights)  # first, while the heap is whole: the board's player's weights
    from control.boot import boot
    from display.renderer import Renderer

    sink = [None]  # the protocol, once made: the controller's events go out through it

    def emit(event):
        if sink[0] is not None:
            sink[0].event(event)

    now = clock()
    collector = _collector()  # started last: its first collection packs what build() made
    ctl = boot(store, dice, layout, emit, now, board.BRIGHTNESS_LEVELS, pace_ms, collector)
    renderer = Renderer(board, strip, now)
    make_link = None
    if serial:
        from link import port

        if protocol_class is None:
            from link.protocol import Protocol as protocol_class
        info = {
            "board": board.NAME,
            "layout": layout,
            "leds": board.LED_COUNT,
            "order": board.LED_ORDER,
            "network_units": loader.units(),  # the board's player's network (None: none)
        }
        out = write or port.make_writer(out_stream)

        def make_link(app):  # the protocol, with the app's self-test and stop
            sink[0] = protocol_class(ctl, info, out, now, strip, app.selftest, app.stop)
            return sink[0]

        if host is None:
            def host(app):
                return port.serve(app.protocol, stream, nonblocking)
    cls = app_class or App
    app = cls(
        board, layout, ctl, renderer, keys, serial=host, wdt=wdt, clock=clock, strip=strip,
        out=emit, collector=collector, link=make_link, make_wdt=make_wdt,
    )
    if collector is not None:
        collector.start()
    return app
