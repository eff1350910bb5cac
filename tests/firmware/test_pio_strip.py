# hw/pio_strip.py against fakes of rp2's PIO and DMA (tests/firmware/fake_hw/rp2.py): the
# program, the words sent, one transfer at a time, no allocation per frame.
import gc
import sys

if sys.implementation.name != "micropython":  # the fake beside this file, not the type stubs
    import os

    _FAKES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_hw")
    sys.path.insert(0, _FAKES)
    sys.modules.pop("rp2", None)
import rp2  # noqa: E402 (MicroPython: tests/fake_hw is on the runner's path)

if sys.implementation.name != "micropython":
    sys.path.remove(_FAKES)

from hw import pio_strip  # noqa: E402
from hw.pio_strip import PioStrip, program, tx_dreq  # noqa: E402
from kernels.compat import unload  # noqa: E402
from kernels.strip_words import words  # noqa: E402

MP = sys.implementation.name == "micropython"
# pico-examples' ws2812.pio as pioasm assembles it (side-set 1 bit, T1 2, T2 5, T3 3)
WS2812 = [0x6221, 0x1123, 0x1400, 0xA442]


def _drop_board(name):
    """Unloads board module `name` and the modules it takes whole (pico2 takes pico, every
    board common), so the next board loaded starts from the same heap."""
    for leaf in (name, "pico", "common"):
        unload("hw.boards." + leaf)


class Clock:
    """ticks_us stand-in: time moves only when a test says so."""

    def __init__(self):
        self.now = 1000

    def __call__(self):
        return self.now


def make(count=8, sm_id=0):
    sm = rp2.StateMachine(sm_id, program(rp2), freq=pio_strip.PIO_HZ, sideset_base=16)
    dma = rp2.DMA()
    dma.record = True
    clock = Clock()
    return PioStrip(sm, dma, count, tx_dreq(sm_id), clock), sm, dma, clock


def colours(sent, count):
    """The LEDs as the PIO shifts them out: each word's top 24 bits, MSB first."""
    out = []
    for i in range(count):
        w = int.from_bytes(sent[4 * i : 4 * i + 4], "little")
        assert w & 255 == 0, hex(w)  # the low byte is never shifted out (autopull at 24)
        out.append((w >> 24, w >> 16 & 255, w >> 8 & 255))
    return out


def frame(strip, seed):
    x = seed
    for i in range(len(strip.buf)):
        x = (x * 75 + 74) % 65537
        strip.buf[i] = x & 255


def test_the_program_is_the_standard_ws2812_one():
    p = program(rp2)
    assert p.words == WS2812 and (p.wrap_target, p.wrap) == (0, 3)
    assert p.sideset_bits == 1 and p.autopull and p.pull_thresh == 24
    assert p.out_shiftdir == rp2.PIO.SHIFT_LEFT
    assert pio_strip.PIO_HZ == 800000 * 10  # 10 cycles a bit (T1 + T2 + T3)
    assert [tx_dreq(k) for k in (0, 1, 3, 4, 7, 8, 11)] == [0, 1, 3, 8, 11, 16, 19]


def test_a_write_sends_the_frame_as_words_by_dma_into_the_fifo():
    strip, sm, dma, clock = make(count=12, sm_id=5)
    assert sm.active() and strip.count == 12 and len(strip.buf) == 36
    frame(strip, 3)
    assert strip.write() and strip.writes == 1 and dma.transfers == 1
    assert colours(dma.sent, 12) == [tuple(strip.buf[3 * i : 3 * i + 3]) for i in range(12)]
    assert dma.read is strip.words and dma.write is sm and dma.count == 12
    ctrl = rp2.DMA.unpack_ctrl(dma.ctrl)
    assert ctrl["size"] == 2 and ctrl["inc_read"] == 1 and ctrl["inc_write"] == 0
    assert ctrl["treq_sel"] == tx_dreq(5) == 9 and ctrl["enable"] == 1


def test_never_a_transfer_over_one_still_running():
    strip, sm, dma, clock = make()
    dma.busy_polls = 3  # the DMA still feeding the FIFO for 3 polls
    frame(strip, 1)
    assert strip.write()
    first = bytes(dma.sent)
    frame(strip, 2)  # the next frame, drawn while the first is on the wire
    assert not strip.write() and strip.pending and strip.refused == 1
    assert not strip.write() and strip.refused == 2
    assert dma.transfers == 1 and dma.sent == first
    # the DMA is done, but the last words and the latch gap are not through yet
    while dma.active():
        pass
    clock.now += strip.frame_us - 1
    assert not strip.write() and dma.transfers == 1
    clock.now += 1
    assert strip.write() and not strip.pending and dma.transfers == 2
    assert colours(dma.sent, 8) == [tuple(strip.buf[3 * i : 3 * i + 3]) for i in range(8)]
    assert dma.starts_while_active == 0 and dma.torn == 0
    clock.now -= 5000  # a clock that went back (ticks wrapped): not mistaken for busy
    while dma.active():
        pass
    assert strip.write()


def test_deinit_waits_and_sends_a_dark_frame():
    strip, sm, dma, clock = make()
    dma.busy_polls = 2
    frame(strip, 4)
    strip.write()
    clock.now += strip.frame_us
    strip.deinit()
    assert dma.transfers == 2 and dma.sent == bytes(4 * 8) and not any(strip.buf)
    assert dma.starts_while_active == 0


def test_the_kernel_makes_the_words_the_pio_program_takes():
    """LED i's bytes (b0, b1, b2) become word i (0, b2, b1, b0): little-endian, b0 highest, in
    the top 24 bits; bytes past n LEDs stay as they were."""
    src = bytearray(3 * 50)
    for i in range(len(src)):
        src[i] = (i * 37 + 11) & 255
    out = bytearray(b"\xff" * (4 * 51))
    words(out, src, 50)
    for i in range(50):
        b0, b1, b2 = src[3 * i], src[3 * i + 1], src[3 * i + 2]
        assert out[4 * i : 4 * i + 4] == bytearray((0, b2, b1, b0)), i
    assert out[200:] == b"\xff" * 4
    strip, sm, dma, clock = make()
    assert strip.convert is words  # the native kernel, not a stand-in
    frame(strip, 9)
    strip.write()
    assert dma.sent[4:8] == bytearray((0, strip.buf[5], strip.buf[4], strip.buf[3]))


def test_a_write_allocates_nothing():
    strip, sm, dma, clock = make(count=440)
    dma.record = False  # the fake's copy of the words would allocate
    frame(strip, 5)
    ok = 0
    if MP:
        import micropython

        micropython.heap_lock()
    try:
        for _ in range(20):
            ok += strip.write()
            clock.now += strip.frame_us
    finally:
        if MP:
            micropython.heap_unlock()
    assert ok == 20 and dma.transfers == 20


def test_hardware_setup_drives_an_rp2_by_pio_and_tells_the_chips_apart():
    """hw/hardware_setup.py on the fakes of tests/firmware/fake_hw (machine, neopixel, rp2)."""
    if not MP:
        sys.path.insert(0, _FAKES)
    try:
        from hw import hardware_setup as hs

        names = [
            hs.board_name(p, m)
            for p, m in (
                ("rp2", "Raspberry Pi Pico 2 W with RP2350"),
                ("rp2", "Raspberry Pi Pico with RP2040"),
                ("rp2", ""),  # an unknown machine: the first rp2 board, the RP2040 Pico
                ("esp32", "Generic ESP32S3 module with ESP32S3"),
            )
        ]
        assert names == ["pico2", "pico", "pico", "esp32s3"]
        assert hs.board_module("rp2", "Raspberry Pi Pico 2 with RP2350").NAME == "pico2"
        _drop_board("pico2")  # one board module at a time (heap)
        try:
            hs.board_name("linux", "")
            raise AssertionError("a board for linux")
        except OSError:
            pass
        import machine
        from hw.output import NeoPixelStrip

        gc.collect()
        board = hs.board_module("rp2", "RP2350")  # the test's heap holds one board module
        strip = hs.make_strip(board, machine.Pin(board.LED_PIN, machine.Pin.OUT))
        assert isinstance(strip, PioStrip) and strip.count == board.LED_COUNT
        assert strip.sm.program.words == WS2812 and strip.sm.freq == pio_strip.PIO_HZ
        assert strip.sm.sideset_base.id == board.LED_PIN and strip.sm.active()
        assert rp2.DMA.unpack_ctrl(strip.ctrl)["treq_sel"] == tx_dreq(hs.LED_SM)
        strip = board = None
        _drop_board("pico2")
        esp = hs.board_module("esp32", "")
        strip = hs.make_strip(esp, machine.Pin(esp.LED_PIN, machine.Pin.OUT))
        assert isinstance(strip, NeoPixelStrip) and strip.np.pin.id == esp.LED_PIN
    finally:
        if not MP:
            sys.path.remove(_FAKES)
        for name in ("machine", "neopixel", "hw.hardware_setup"):
            unload(name)  # from hw too: a later `from hw import hardware_setup` loads it anew
