# output.py and what the renderer hands it: written only on change, brightness, the supply
# limit, and no allocation per frame (heap_lock on MicroPython).
import sys

from display import power
from display.renderer import Renderer, segment_pixels
from display.view import MENU, TARGET_DICE, TARGET_OFF, View
from hw.boards import pico
from hw.output import AdafruitStrip, FakeStrip, NeoPixelStrip
from scenes import MOVE, OPENING, OVER, ROLL, Supply, start


def make(board=pico):
    strip = FakeStrip(board.LED_COUNT, board.LED_ORDER)
    return Renderer(board, strip), strip, View()


def current(board, frame):
    return power.frame_current_ma(
        frame, board.LED_COUNT, board.LED_MA_PER_CHANNEL, board.LED_IDLE_MA
    )


def budget(board):
    return power.budget_ma(board.SUPPLY_MA, board.RESERVE_MA)


def test_fake_strip_keeps_the_last_frame_written():
    s = FakeStrip(2, "GRB")
    s.buf[0:3] = b"\x01\x02\x03"
    assert s.rgb(0) == (0, 0, 0) and s.writes == 0
    s.write()
    assert s.rgb(0) == (2, 1, 3) and s.writes == 1 and bytes(s.frame) == bytes(s.buf)
    s.deinit()
    assert bytes(s.frame) == bytes(6) and s.writes == 2


def test_no_write_when_nothing_changed():
    r, strip, v = make()
    start(v)
    assert r.render(v, 0) and strip.writes == 1
    assert not r.render(v, 0) and not r.render(v, 5000) and strip.writes == 1
    v.pts0[6] = 4
    assert r.render(v, 5000) and strip.writes == 2
    v.movable = 1 << 5  # a pulsing glow: a new frame as time goes on, none at the same time
    assert r.render(v, 5000) and not r.render(v, 5000) and not r.render(v, 5050)
    assert r.render(v, 5120)  # the pulse's next step (every 128 ms)
    assert strip.writes == 4
    strip.buf[0] = 77  # someone else drew: invalidate() sends the frame again
    r.invalidate()
    assert r.render(v, 5100) and strip.writes == 5
    assert bytes(strip.frame) == bytes(strip.buf) and strip.buf[0] != 77


def test_brightness_scales_every_channel():
    r, strip, v = make()
    start(v)
    v.dice[0], v.dice[1] = 6, 6
    r.render(v, 0)
    full = bytes(strip.frame)
    for level in pico.BRIGHTNESS_LEVELS:
        v.brightness = level
        r.render(v, 0)
        s = power.level_scale(level)
        assert r.scale == 256
        assert bytes(strip.frame) == bytes(bytearray(b * s >> 8 for b in full)), level


def test_an_all_white_frame_stays_within_the_supply():
    for board in (pico, Supply(1000)):
        r, strip, v = make(board)
        assert current(board, bytes(board.LED_COUNT * 3 * b"\xff")) > budget(board)
        assert r.render_solid((255, 255, 255), brightness=255)
        mA = current(board, strip.frame)
        assert mA <= budget(board) and r.scale < 256 and min(strip.frame) > 0, mA
        if board is pico:  # dimmed, not darkened (a 1 A supply leaves scale 3/256)
            assert mA > budget(board) * 4 // 5, mA
        r.render_solid((255, 0, 0), first=20, count=5, brightness=64)  # one segment, dim
        lit = [i for i in range(board.LED_COUNT) if strip.rgb(i) != (0, 0, 0)]
        assert lit == list(range(20, 25)) and strip.rgb(20) == (64, 0, 0) and r.scale == 256


def test_the_limiter_is_power_limit():
    """The renderer's fast sum and scale give the same frame as power.limit()."""
    r, strip, v = make(Supply(1200))
    x = 12345
    for k in range(6):
        for i in range(len(strip.buf)):
            x = (x * 1103 + 12345) % 65521
            strip.buf[i] = x & 255 if (i >> 6) % 6 <= k else 0
        want = bytearray(strip.buf)
        scale = power.limit(want, pico.LED_COUNT, pico.LED_MA_PER_CHANNEL, pico.LED_IDLE_MA,
                            budget(r.board))  # fmt: skip
        r.invalidate()
        r._finish()
        assert r.scale == scale and bytes(strip.frame) == bytes(want), k
    assert scale < 256


def test_a_played_frame_within_the_supply():
    board = Supply(1000)
    r, strip, v = make(board)
    start(v, palette=2)
    v.movable, v.dice[0], v.dice[1] = 0xFFFFFF, 6, 6
    for now in (0, 300, 700):
        r.render(v, now)
        assert r.scale < 256 and current(board, strip.frame) <= budget(board)
    r, strip, v = make()
    start(v, palette=2)
    r.render(v, 0)
    assert r.scale == 256


class MicroNeoPixel:
    """MicroPython's neopixel.NeoPixel as the adapter sees it: buf, bpp, write()."""

    def __init__(self, n, bpp=3):
        self.buf = bytearray(n * bpp)
        self.bpp = bpp
        self.sent = []

    def write(self):
        self.sent.append(bytes(self.buf))


def test_neopixel_strip_sends_the_frame():
    np = MicroNeoPixel(pico.LED_COUNT)
    strip = NeoPixelStrip(np)
    r = Renderer(pico, strip)
    v = View()
    start(v)
    assert r.render(v, 0) and not r.render(v, 0)
    assert len(np.sent) == 1 and np.sent[0] == bytes(np.buf) and strip.writes == 1
    assert np.buf[3 * segment_pixels(pico, "p24")[0]] == 150  # GRB: green first
    strip.deinit()
    assert np.sent[-1] == bytes(len(np.buf))
    try:
        NeoPixelStrip(MicroNeoPixel(4, bpp=4))
    except ValueError:
        return
    raise AssertionError("RGBW accepted")


class AdafruitPixels:
    """The part of Adafruit's neopixel.NeoPixel that AdafruitStrip uses (see its docstring):
    len, byteorder, auto_write, [i] = 0xRRGGBB, [a:b] = list of ints, show(), fill(int).
    Like the library it keeps the bytes in `byteorder` and sends them all on show()."""

    def __init__(self, n, order="GRB"):
        self.byteorder = order
        self.auto_write = True
        self.raw = bytearray(3 * n)
        self.sent = []
        self.items = self.slices = 0

    def __len__(self):
        return len(self.raw) // 3

    def _put(self, i, v):
        o = self.byteorder
        self.raw[3 * i + o.index("R")] = v >> 16
        self.raw[3 * i + o.index("G")] = v >> 8 & 255
        self.raw[3 * i + o.index("B")] = v & 255

    def __setitem__(self, i, v):
        if isinstance(i, slice):
            self.slices += 1
            for k in range(i.start, i.stop):
                self._put(k, v[k - i.start])
        else:
            self.items += 1
            self._put(i, v)

    def fill(self, v):
        for i in range(len(self)):
            self._put(i, v)

    def show(self):
        self.sent.append(bytes(self.raw))


def changed(a, b):
    """How many LEDs differ between two frames."""
    return sum(1 for i in range(0, len(a), 3) if a[i : i + 3] != b[i : i + 3])


def drive_adafruit(pixels):
    """Frames through AdafruitStrip(pixels); returns the bytes of each frame rendered."""
    strip = AdafruitStrip(pixels)
    assert not pixels.auto_write
    r = Renderer(pico, strip)
    v = View()
    start(v)
    frames = []
    r.render(v, 0)
    frames.append(bytes(strip.buf))
    v.dests = 1 << 19  # one LED changes
    r.render(v, 0)
    frames.append(bytes(strip.buf))
    v.brightness = 64  # the lit LEDs change, a few of all
    r.render(v, 0)
    frames.append(bytes(strip.buf))
    r.render_solid((255, 255, 255))  # all of them
    frames.append(bytes(strip.buf))
    strip.deinit()
    frames.append(bytes(strip.buf))
    return frames


def test_adafruit_strip_against_the_api_subset():
    pixels = AdafruitPixels(pico.LED_COUNT)
    frames = drive_adafruit(pixels)
    assert frames == pixels.sent and len(frames) == 5
    lit = changed(frames[1], frames[2])
    assert 30 < lit < pico.LED_COUNT // 4
    assert pixels.slices == 2  # the first frame and the all-white one: the whole strip
    assert pixels.items == 1 + lit  # one item per changed LED
    try:
        AdafruitStrip(AdafruitPixels(4, "GRBW"))
    except ValueError:
        return
    raise AssertionError("RGBW accepted")


KINDS = 9


def scene(v, kind, now):
    """Kind of frame `kind` (no allocation: small ints into the preallocated View)."""
    v.phase = MOVE
    v.winner = v.entering = -1
    v.movable = v.dests = 0
    v.selected = v.cursor = v.flash_target = -1
    v.dice[0] = v.dice[1] = 6
    v.dice_used[0] = 1
    v.dice_used[1] = 0
    v.rolling_until = v.blink_until = v.flash_until = now + 100
    if kind == 0:  # playing, with every highlight
        v.movable = (1 << 26) - 1
        v.dests = 0x3F0000
        v.selected = 23
        v.cursor = 4
        v.rolling_until = v.blink_until = 0
    elif kind == 1:  # rolling (and blinking)
        v.phase = ROLL
    elif kind == 2:  # flash of a point, and of the dice
        v.flash_target = 9
    elif kind == 3:
        v.flash_target = TARGET_DICE
    elif kind == 4:
        v.phase = MENU
        v.menu_item = 3
        v.menu_value = 1
    elif kind == 5:
        v.phase = OVER  # one field a line: unpacking 4+ values builds a tuple
        v.winner = 1
        v.result = 3
        v.over_since = now - 500
    elif kind == 6:
        v.phase = OPENING
    elif kind == 7:  # entering physical dice
        v.entering = 0
    elif kind == 8:
        v.entering = 1
        v.cursor = TARGET_OFF


class Five:
    """A build with 5 LEDs per point and bar, 8 per tray (a board module stand-in)."""

    def __init__(self):
        self.SEGMENTS = {}
        first = 0
        for name in pico.CHAIN:
            n, step = pico.SEGMENTS[name][1:]
            n = 5 if name[0] == "p" or name[0] == "b" else (8 if name[0] == "o" else n)
            self.SEGMENTS[name] = (first, n, step)
            first += n
        self.LED_COUNT = first
        for name in ("LED_ORDER", "SUPPLY_MA", "RESERVE_MA", "LED_MA_PER_CHANNEL"):
            setattr(self, name, getattr(pico, name))
        self.LED_IDLE_MA = pico.LED_IDLE_MA


def test_heap_lock_no_allocation_in_any_kind_of_frame():
    """Every kind of frame, on MicroPython under heap_lock (CPython: just renders), on
    NeoPixelStrip and FakeStrip, with and without the supply limiter acting."""
    mp = sys.implementation.name == "micropython"
    if mp:
        import micropython
    cases = ((pico, 128, 0, 0), (Five(), 128, 0, 1), (Supply(1000), 255, 1, 0))
    for board, level, limited, neo in cases:
        if neo:
            strip = NeoPixelStrip(MicroNeoPixel(board.LED_COUNT))
            strip.np.write = lambda: None  # the driver's own write() is C on the board
        else:
            strip = FakeStrip(board.LED_COUNT)
        r = Renderer(board, strip)
        v = View()
        start(v, palette=2, level=level)  # white checkers: the 1 A board's limiter acts
        written = bytearray(KINDS * 8)
        scales = bytearray(KINDS * 8)
        if mp:
            micropython.heap_lock()
        try:
            for i in range(KINDS * 8):
                now = i * 70
                scene(v, i % KINDS, now)
                written[i] = r.render(v, now)
                scales[i] = r.scale < 256
        finally:
            if mp:
                micropython.heap_unlock()
        assert sum(written) > KINDS * 6
        assert sum(scales) == KINDS * 8 * limited


def _fake_rp2():
    """tests/firmware/fake_hw/rp2.py (on CPython ahead of the rp2 type stubs)."""
    if sys.implementation.name == "micropython":
        import rp2  # tests/fake_hw is on the runner's path

        return rp2
    import os

    d = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_hw")
    sys.path.insert(0, d)
    sys.modules.pop("rp2", None)
    try:
        import rp2
    finally:
        sys.path.remove(d)
    return rp2


def test_the_renderer_on_pio_and_dma_resends_a_frame_the_strip_was_busy_for():
    import gc

    from hw.pio_strip import PioStrip, program, tx_dreq

    gc.collect()

    rp2 = _fake_rp2()
    clock = [0]
    sm = rp2.StateMachine(0, program(rp2), freq=8000000, sideset_base=pico.LED_PIN)
    dma = rp2.DMA()
    dma.record = True
    dma.sent = bytearray(4 * pico.LED_COUNT)  # the fake's copy, made while the heap is whole
    strip = PioStrip(sm, dma, pico.LED_COUNT, tx_dreq(0), lambda: clock[0])
    plain = FakeStrip(pico.LED_COUNT, pico.LED_ORDER)
    r, rp = Renderer(pico, strip), Renderer(pico, plain)
    v = View()
    start(v)

    def sent_is(fake):
        w = dma.sent
        return all(
            w[4 * i + 3] == fake.frame[3 * i] and w[4 * i + 2] == fake.frame[3 * i + 1]
            and w[4 * i + 1] == fake.frame[3 * i + 2] and w[4 * i] == 0
            for i in range(pico.LED_COUNT)
        )  # fmt: skip

    assert r.render(v, 0) and rp.render(v, 0) and sent_is(plain)
    clock[0] += strip.frame_us
    dma.busy_polls = 1  # the next frame comes while this one is still being sent
    v.pts0[6] = 4
    assert r.render(v, 20)
    clock[0] += strip.frame_us
    v.pts0[6] = 3
    assert not r.render(v, 40) and strip.pending and r.writes == 2
    assert r.render(v, 60) and rp.render(v, 60) and sent_is(plain)  # unchanged, yet sent
    assert not r.render(v, 60) and dma.transfers == 3 == strip.writes == r.writes
    assert dma.starts_while_active == 0 and dma.torn == 0
    mp = sys.implementation.name == "micropython"
    if mp:
        import micropython
    dma.record = False
    dma.busy_polls = 0
    written = 0
    if mp:
        micropython.heap_lock()
    try:
        for i in range(KINDS * 4):
            now = 100 + i * 70
            clock[0] += strip.frame_us
            scene(v, i % KINDS, now)
            written += r.render(v, now)
    finally:
        if mp:
            micropython.heap_unlock()
    assert written > KINDS * 3 and strip.writes == 3 + written


def test_a_frame_skipped_unseen_is_the_frame_that_would_have_been_drawn():
    """The renderer skips drawing when nothing it reads changed and nothing animates: after
    every call its strip holds what a renderer drawing every frame in full shows, through
    every kind of scene, each held for a while so its deadlines pass unseen by the view."""
    mp = sys.implementation.name == "micropython"
    if mp:
        import micropython
    r, strip, v = make()
    full = FakeStrip(pico.LED_COUNT, pico.LED_ORDER)
    rf = Renderer(pico, full)
    start(v)
    now = 0
    bad = -1
    if mp:
        micropython.heap_lock()
    try:
        for i in range(KINDS * 2):
            scene(v, i % KINDS, now)
            if i % 3 == 1:  # nothing left to animate once the deadlines pass
                v.movable = v.dests = 0
                v.selected = v.cursor = v.entering = -1
                v.phase = MOVE
            for k in range(24):
                now += 5 + (k * 37 + i * 11) % 40
                r.render(v, now)
                rf.invalidate()
                rf.render(v, now)
                if strip.frame != full.frame and bad < 0:
                    bad = i * 100 + k
    finally:
        if mp:
            micropython.heap_unlock()
    assert bad < 0, bad  # kind i % KINDS, frame k: the skipped frame was wrong
    calls = KINDS * 2 * 24
    assert rf.draws == calls and calls // 5 < r.draws < calls * 2 // 3, r.draws
