# hw/collector.py and the App's idle step: the garbage is collected in idle time only (never
# inside a press, a frame's work or a think slice), at most once a frame, and no press is
# lost; the board's choice asks for its collection there instead of making it in its slice.
import asyncio

import fakes
from app import App
from control.boot import boot
from display.renderer import Renderer
from gammon.dice import Dice, SeededBytes
from hw.boards import pico
from hw.collector import Collector
from hw.inputs import DirectKeys
from hw.output import FakeStrip
from hw.storage import Store
from model.game import MOVE

HEAP = 64 * 1024  # the fake heap's size


class FakeGc:
    """gc as the Collector uses it: `used` bytes in use (the test grows it with alloc), a
    collection brings it back to `live`. `busy` is set while firmware code works (a press,
    a frame): a collection then is one inside a step."""

    def __init__(self, heap=HEAP, live=20000):
        self.heap = heap
        self.live = live
        self.used = live
        self.thr = None  # the threshold set
        self.collects = 0
        self.in_step = 0
        self.busy = False

    def mem_alloc(self):
        return self.used

    def mem_free(self):
        return self.heap - self.used

    def threshold(self, n):
        self.thr = n

    def collect(self):
        self.collects += 1
        if self.busy:
            self.in_step += 1
        self.used = self.live

    def alloc(self, n):
        self.used = min(self.heap, self.used + n)


def test_collects_once_the_heap_grew_by_a_share_of_it():
    g = FakeGc()
    c = Collector(g, every=1)
    assert g.collects == 1  # the first: what was loaded lies packed
    assert c.limit == HEAP // 32
    assert g.thr == 16 * c.limit  # MicroPython's own: a safety net at half the heap
    g.alloc(c.limit - 1)
    assert not c.idle() and g.collects == 1
    g.alloc(1)
    assert c.idle() and g.collects == 2 and g.used == g.live
    assert not c.idle() and g.collects == 2  # nothing grew since


def test_a_frame_asks_the_heap_once():
    # gc.mem_alloc() and gc.mem_free() each scan the whole allocation table on the board
    g = FakeGc()
    c = Collector(g, every=1)
    calls = []
    g.mem_free = lambda: calls.append("free") or g.heap - g.used
    g.mem_alloc = lambda: calls.append("alloc") or g.used
    assert not c.idle()
    assert calls == ["alloc"]


def _counting(g):
    looks = []
    g.mem_alloc = lambda: looks.append(1) or g.used
    return looks


def test_a_heap_that_does_not_grow_is_looked_at_one_idle_step_in_eight():
    # each look scans the allocation table (~3 ms on a Pico): not every frame, not every
    # think slice
    g = FakeGc()
    c = Collector(g)
    looks = _counting(g)
    for _ in range(33):
        assert not c.idle()
    assert len(looks) == 5  # steps 1, 9, 17, 25, 33
    c.soon()
    assert c.idle() and g.collects == 2  # the choice's collection is not kept waiting


def test_a_growing_heap_is_collected_by_the_step_after_it_is_due_whatever_its_rate():
    for rate in (1, 7, 50, 333, 1000, 2047, 2048, 5000):
        g = FakeGc()
        c = Collector(g)
        looks = _counting(g)
        most = 0
        steps = 4 * c.limit // rate + 20  # a few collections' worth
        for _ in range(steps):
            g.alloc(rate)
            most = max(most, g.used - g.live)
            c.idle()
        # the growth is seen at most one step late, and the heap looked at less often the
        # slower it grows
        assert most <= c.limit + rate, (rate, most)
        assert g.collects >= 4
        if rate <= 50:
            assert len(looks) < steps // 3, (rate, len(looks))


def test_a_nearly_full_heap_is_looked_at_every_step():
    g = FakeGc(live=HEAP - 2 * (HEAP // 32) + 100)  # less than twice `limit` free
    c = Collector(g)
    looks = _counting(g)
    for _ in range(10):
        assert not c.idle()
    assert len(looks) == 10
    g.alloc(2000)  # now less than `limit` is free
    assert c.idle()


def test_a_nearly_full_heap_is_collected_at_once():
    g = FakeGc(live=HEAP - 1000)
    c = Collector(g, limit=4000, every=1)
    assert c.idle() and g.collects == 2  # less than `every` free: every idle step collects


def test_a_collection_of_micropythons_own_starts_the_count_again():
    g = FakeGc()
    c = Collector(g, every=1)
    g.alloc(c.limit - 10)
    g.collect()  # inside some step, by MicroPython's threshold or a full heap
    g.alloc(100)
    assert not c.idle()  # 100 bytes since that one, not every - 10 + 100
    g.alloc(c.limit - 100)
    assert c.idle()


def test_soon_collects_in_the_next_idle_step_only():
    g = FakeGc()
    c = Collector(g)
    c.soon()
    assert g.collects == 1  # not at once: the caller is in a step
    assert c.idle() and g.collects == 2
    assert not c.idle() and g.collects == 2


class BusyController:
    """A real controller whose every call marks the fake heap busy and allocates, so that a
    collection inside one is seen; counts the collections between two frames."""

    def __init__(self, ctl, g):
        self.ctl = ctl
        self.g = g
        self.view = ctl.view
        self.emit = ctl.emit
        self.presses = 0
        self.most = 0  # the most collections seen between two frames' ticks
        self._seen = g.collects

    def _busy(self, func, *args):
        g = self.g
        g.busy = True
        try:
            g.alloc(1500)
            return func(*args)
        finally:
            g.busy = False

    def press(self, name, now_ms, frame_first=False):
        self.presses += 1
        self._busy(self.ctl.press, name, now_ms, frame_first)

    def long_press(self, name, now_ms, frame_first=False):
        self._busy(self.ctl.long_press, name, now_ms, frame_first)

    def tick(self, now_ms):
        g = self.g
        self.most = max(self.most, g.collects - self._seen)
        self._seen = g.collects
        self._busy(self.ctl.tick, now_ms)

    def flush(self):
        self._busy(self.ctl.flush)


class BusyRenderer(Renderer):
    def __init__(self, board, strip, g):
        super().__init__(board, strip)
        self.g = g

    def render(self, view, now_ms):
        self.g.busy = True
        try:
            return Renderer.render(self, view, now_ms)
        finally:
            self.g.busy = False


class Clock:
    def __init__(self):
        self.t = 1000

    def __call__(self):
        self.t += 1
        return self.t


def test_the_app_collects_between_steps_at_most_once_a_frame_and_loses_no_press():
    root = fakes.tmpdir()
    events = []
    g = FakeGc()
    try:
        real = boot(Store(root), Dice(SeededBytes(5)), "minimal", events.append, 0)
        ctl = BusyController(real, g)
        level = {n: 1 for n in pico.MINIMAL_PINS}
        keys = DirectKeys({n: (lambda n=n: level[n]) for n in pico.MINIMAL_PINS})
        app = App(
            pico,
            "minimal",
            ctl,
            BusyRenderer(pico, FakeStrip(pico.LED_COUNT), g),
            keys,
            clock=Clock(),
            poll_ms=0,
            frame_ms=0,
            collector=Collector(g, limit=4000),
        )
        pressed = 0

        async def scenario():
            nonlocal pressed
            main = asyncio.create_task(app.main())
            for i in range(1200):
                if i % 80 == 20:
                    level["UNDO"] = 0
                    pressed += 1
                elif i % 80 == 60:
                    level["UNDO"] = 1
                await asyncio.sleep(0)
            app.stop()
            await main

        asyncio.run(scenario())
        assert pressed == 15 and ctl.presses == pressed  # every press reached the controller
        assert len([e for e in events if e["event"] == "press"]) == pressed
        assert g.collects > 3  # the steps' allocations were collected in idle steps...
        assert g.in_step == 0  # ... never inside a press, a tick or a render
        assert ctl.most <= 1  # at most one a frame
    finally:
        fakes.rmtree(root)


def test_the_boards_choice_asks_for_its_collection_in_the_idle_step():
    root = fakes.tmpdir()
    try:
        g = FakeGc(heap=1 << 30)  # the real heap is the real gc's: only soon() counts here
        c = Collector(g, limit=1 << 28)
        ctl = boot(Store(root), Dice(SeededBytes(3)), "full", None, 0, pace_ms=20, collector=c)
        ctl.configure("players", ["board", "board"])
        now = 1000
        asked = 0
        for _ in range(400):
            now += 20
            ctl.tick(now)
            if c.due():  # a choice began in this frame: its collection waits for idle time
                asked += 1
                assert ctl.game.phase == MOVE and ctl.bot.plan is not None
                before = g.collects
                assert c.idle() and g.collects == before + 1
                if asked == 2:
                    break
            else:
                assert not c.idle()
        assert asked == 2  # the choices of two turns
    finally:
        fakes.rmtree(root)


class PaceClock:
    """Pace's clock and block: time moves only when told."""

    def __init__(self):
        self.now = 0
        self.blocked = []

    def __call__(self):
        return self.now

    def block(self, us):
        self.blocked.append(us)


class SlowGc(FakeGc):
    def __init__(self, clock):
        super().__init__()
        self.clock = clock

    def collect(self):
        FakeGc.collect(self)
        self.clock.now += 300  # a collection's time here


def test_the_simulator_paces_an_idle_collection_at_its_own_board_cost():
    from sim_timing import GC_FACTORS, Pace, PacedApp

    root = fakes.tmpdir()
    try:
        clock = PaceClock()
        g = SlowGc(clock)
        ctl = boot(Store(root), Dice(SeededBytes(5)), "full", None, 0)
        app = PacedApp(
            Pace(180, clock, clock.block, GC_FACTORS["pico"]),
            pico, "full", ctl, Renderer(pico, FakeStrip(pico.LED_COUNT)), DirectKeys({}),
            collector=Collector(g, limit=4000, every=1),
        )
        g.alloc(4000)
        assert app.collect()
        assert clock.blocked == [(GC_FACTORS["pico"] - 1) * 300]  # C code: not 180 times
        assert not app.collect()  # not due: no collection, nothing to pace
        assert len(clock.blocked) == 1 and app.pace.depth == 0
    finally:
        fakes.rmtree(root)

