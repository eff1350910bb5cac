# The one file that makes hardware objects: pins, the LED strip, the watchdog, flash, entropy.
#
# Everything else takes these through constructors, so the simulator and the tests pass fakes
# to the same code. Only imported on a board (or with fake `machine`, `neopixel` and `rp2`).
import os
import sys

import machine
import neopixel

from hw.boards import TARGETS
from hw.inputs import DirectKeys, MatrixKeys
from hw.output import NeoPixelStrip

WDT_MS = 8000  # the RP2040's longest is 8388 ms
NO_WDT = "nowdt"  # a file of this name at the root: no watchdog (development)
LED_SM = 0  # the PIO state machine that drives the LEDs on an RP2 (PIO0, machine 0)


def machine_name():
    """os.uname().machine: it names the chip ("Raspberry Pi Pico 2 with RP2350"), where
    sys.platform is "rp2" for the RP2040 and the RP2350 alike."""
    try:
        return os.uname().machine
    except (AttributeError, OSError):
        return ""


def board_name(platform=None, machine=None):
    """The board module for this sys.platform (or `platform`): of several for one platform
    (pico, pico2), the one whose chip the machine name contains, else the first."""
    platform = platform or sys.platform
    machine = machine_name() if machine is None else machine
    first = None
    for name, plat, chip in TARGETS:
        if plat == platform:
            if chip in machine:
                return name
            if first is None:
                first = name
    if first is None:
        raise OSError("no board module for platform %r" % platform)
    return first


def board_module(platform=None, machine=None):
    """The board module itself: only that one is loaded (heap), with the modules it takes
    whole (hw/boards/common.py, and pico.py for the Pico 2 that shares its pins)."""
    return __import__("hw.boards." + board_name(platform, machine), None, None, ("NAME",))


def make_strip(board, pin):
    """The LED output: PIO + DMA on an RP2 (no CPU time, interrupts on while a frame is sent);
    neopixel elsewhere, and on an RP2 whose MicroPython lacks rp2.DMA, a free channel or
    native code (hw.pio_strip's frame conversion)."""
    if board.PLATFORM == "rp2":
        sm = None
        try:
            import rp2

            from hw.pio_strip import PIO_HZ, PioStrip, program, tx_dreq

            sm = rp2.StateMachine(LED_SM, program(rp2), freq=PIO_HZ, sideset_base=pin)
            return PioStrip(sm, rp2.DMA(), board.LED_COUNT, tx_dreq(LED_SM))
        except (ImportError, AttributeError, OSError, ValueError, SyntaxError):
            if sm is not None:
                sm.active(0)
    return NeoPixelStrip(neopixel.NeoPixel(pin, board.LED_COUNT))


class Hardware:
    """The board's objects: board, layout, keys, strip, store, randbytes (the entropy the
    dice are thrown with: main.py makes them); make_wdt()."""

    def __init__(self, board, layout=None, root="/"):
        from hw.storage import Store

        Pin = machine.Pin
        self.board = board
        self.layout = layout or board.BUTTON_LAYOUT
        self.root = root
        self.pins = []
        if self.layout == "full":
            low = board.MATRIX_ACTIVE_LOW
            pull = Pin.PULL_UP if low else Pin.PULL_DOWN
            rows = [Pin(n, Pin.OUT, value=1 if low else 0) for n in board.MATRIX_ROWS]
            cols = [Pin(n, Pin.IN, pull) for n in board.MATRIX_COLS]
            self.pins = rows + cols
            self.keys = MatrixKeys(rows, cols, board.KEYMAP, low)
        else:
            pins = {}
            for name in board.MINIMAL_PINS:
                pins[name] = Pin(board.MINIMAL_PINS[name], Pin.IN, Pin.PULL_UP)
            self.pins = list(pins.values())
            self.keys = DirectKeys(pins, True)
        self.strip = make_strip(board, Pin(board.LED_PIN, Pin.OUT))
        self.store = Store(root)
        self.randbytes = os.urandom
        self.wdt = None
        self._timer = None

    def make_wdt(self):
        """The hardware watchdog (once started it cannot be stopped); None when the file
        NO_WDT exists at the root, for development sessions."""
        try:
            os.stat(self.store.path(NO_WDT))
            return None
        except OSError:
            pass
        self.wdt = machine.WDT(timeout=WDT_MS)
        return self.wdt

    def keep_fed(self, period_ms=1000, feed=None):
        """Feeds the watchdog from a timer: the REPL the host asked for stays up (until a
        soft reset stops the timer; then the watchdog restarts the board into the game).
        `feed`: called instead of the watchdog's feed(), to decide whether to feed it."""
        if self.wdt is None:
            return None
        wdt = feed or self.wdt.feed
        Timer = machine.Timer
        try:
            self._timer = Timer(
                -1, mode=Timer.PERIODIC, period=period_ms, callback=lambda t: wdt()
            )
        except (ValueError, TypeError):  # ESP32: hardware timers only
            self._timer = Timer(
                0, mode=Timer.PERIODIC, period=period_ms, callback=lambda t: wdt()
            )
        return self._timer


def setup(layout=None, platform=None, root="/", machine=None):
    """The Hardware of this board (`platform` and `machine`: this one's unless given)."""
    return Hardware(board_module(platform, machine), layout, root)
