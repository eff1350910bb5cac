# WS2812 output on the RP2040/RP2350: a PIO state machine makes the bits, DMA feeds it the frame.
#
# neopixel.write() bit-bangs the chain with interrupts off (~13 ms for 440 LEDs on an RP2040,
# each frame). Here write() only turns the frame into 32-bit words and starts one DMA transfer
# into the state machine's TX FIFO, paced by its DREQ: the CPU is free and interrupts stay on
# while the chain is sent. hardware_setup.py makes the StateMachine (with program(rp2)) and
# the DMA channel; this adapter takes them already made, as the others in output.py do.
#
# The frame's conversion is native code (kernels.strip_words): a port or build without native
# code cannot import this module (SyntaxError, or ValueError for an .mpy of another CPU), and
# hardware_setup.py then drives the chain by neopixel, as on any other failure of PIO or DMA.
from kernels.compat import const
from kernels.strip_words import words

from hw.ticks import ticks_diff, ticks_us

PIO_HZ = const(8000000)  # 10 PIO cycles a bit: 800 kHz on the wire
_US_PER_LED = const(30)  # 24 bits of 1.25 us
_LATCH_US = const(300)  # the line held low before the next frame (WS2812B: > 280 us)
_SPIN = const(100000)  # deinit's wait for a frame on the wire, in polls at most


_program = [None, None]  # rp2 module, its assembled program: assembled once


def program(rp2):
    """The standard WS2812 program (as in pico-examples): one bit per 10 cycles, the data pin
    by side-set; words shift out MSB first, 24 bits each (autopull), so a word carries an
    LED's three bytes in its top 24 bits. The names in its body are rp2.asm_pio's."""
    if _program[0] is rp2:
        return _program[1]
    pio = rp2.PIO

    @rp2.asm_pio(
        sideset_init=pio.OUT_LOW, out_shiftdir=pio.SHIFT_LEFT, autopull=True, pull_thresh=24
    )
    def ws2812():
        wrap_target()  # noqa: F821
        label("bitloop")  # noqa: F821
        out(x, 1).side(0)[2]  # noqa: F821  (T3 - 1: low, the bit stalls here)
        jmp(not_x, "do_zero").side(1)[1]  # noqa: F821  (T1 - 1: the rising edge)
        jmp("bitloop").side(1)[4]  # noqa: F821  (T2 - 1: a one stays high)
        label("do_zero")  # noqa: F821
        nop().side(0)[4]  # noqa: F821  (T2 - 1: a zero goes low early)
        wrap()  # noqa: F821

    _program[0] = rp2
    _program[1] = ws2812
    return ws2812


def tx_dreq(sm_id):
    """The DMA request line of state machine `sm_id`'s TX FIFO (PIO n, machine k: 8n + k)."""
    return (sm_id >> 2) * 8 + (sm_id & 3)


class PioStrip:
    """A strip on a running PIO state machine `sm` and a DMA channel `dma` (rp2.DMA).

    buf: 3 bytes per LED in the chain's byte order, as NeoPixelStrip's. write() returns True
    when a transfer started, False when a frame is still on the wire: the frame stays pending
    (`pending`) and the caller sends it again later (the renderer does at its next frame).
    """

    def __init__(self, sm, dma, count, dreq, clock_us=ticks_us, convert=None):
        self.sm = sm
        self.dma = dma
        self.count = count
        self.buf = bytearray(3 * count)
        # what the DMA reads, one 32-bit word an LED (a bytearray's storage is a heap block:
        # 16-byte aligned, as word reads need)
        self.words = bytearray(4 * count)
        self.clock_us = clock_us
        self.convert = convert or words
        self.ctrl = dma.pack_ctrl(size=2, inc_read=True, inc_write=False, treq_sel=dreq)
        self.frame_us = count * _US_PER_LED + _LATCH_US
        self.writes = 0  # transfers started
        self.refused = 0  # write() calls while a frame was on the wire
        self.pending = False
        self._started = 0
        self._sent_once = False
        sm.active(1)

    def sending(self):
        """A frame is still on the wire: the DMA is feeding the FIFO, or its last words and the
        latch gap are not through yet."""
        if self.dma.active():
            return True
        if not self._sent_once:
            return False
        d = ticks_diff(self.clock_us(), self._started)
        return 0 <= d < self.frame_us

    def write(self):
        if self.sending():  # never a second transfer over one still running
            self.pending = True
            self.refused += 1
            return False
        self.convert(self.words, self.buf, self.count)
        self.dma.config(
            read=self.words, write=self.sm, count=self.count, ctrl=self.ctrl, trigger=True
        )
        self._started = self.clock_us()
        self._sent_once = True
        self.pending = False
        self.writes += 1
        return True

    def _wait(self):
        """Until the wire is free, at most two frames' time (and _SPIN polls, should the
        clock stand still)."""
        t0 = self.clock_us()
        for _ in range(_SPIN):
            if not self.sending():
                return True
            if ticks_diff(self.clock_us(), t0) > 2 * self.frame_us:
                break
        return False

    def deinit(self):
        """Blank the LEDs (main.py's cleanup): waits for a frame on the wire, sends a dark one
        and waits for it too, so the board can stop the state machine or reset safely."""
        buf = self.buf
        for i in range(len(buf)):
            buf[i] = 0
        self._wait()
        self.write()
        self._wait()
