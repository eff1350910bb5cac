# The one file that makes hardware objects: pins, the LED strip, the watchdog, flash, entropy.
#
# Everything else takes these through constructors, so the simulator and the tests pass fakes
# to the same code. Only imported on a board (or with fake `machine` and `neopixel` modules).
import os
import sys

import machine
import neopixel

from hw.inputs import DirectKeys, MatrixKeys
from hw.output import NeoPixelStrip

BOARDS = ("pico", "esp32s3")  # firmware/hw/boards/<name>.py, tried in turn
WDT_MS = 8000  # the RP2040's longest is 8388 ms
NO_WDT = "nowdt"  # a file of this name at the root: no watchdog (development)


def board_module(platform=None):
    """The board module whose PLATFORM is this sys.platform (or `platform`)."""
    platform = platform or sys.platform
    for name in BOARDS:
        full = "hw.boards." + name
        module = __import__(full, None, None, ("PLATFORM",))
        if module.PLATFORM == platform:
            return module
        del sys.modules[full]  # keep only the board in use on the heap
        try:
            delattr(sys.modules["hw.boards"], name)
        except (AttributeError, KeyError, TypeError):
            pass
    raise OSError("no board module for platform %r" % platform)


class Hardware:
    """The board's objects: board, layout, keys, strip, store, dice; make_wdt()."""

    def __init__(self, board, layout=None, root="/"):
        from gammon.dice import Dice

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
        np = neopixel.NeoPixel(Pin(board.LED_PIN, Pin.OUT), board.LED_COUNT)
        self.strip = NeoPixelStrip(np)
        self.store = Store(root)
        self.dice = Dice(os.urandom)
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

    def keep_fed(self, period_ms=1000):
        """Feeds the watchdog from a timer: the REPL the host asked for stays up (until a
        soft reset stops the timer; then the watchdog restarts the board into the game)."""
        if self.wdt is None:
            return None
        wdt = self.wdt
        Timer = machine.Timer
        try:
            self._timer = Timer(
                -1, mode=Timer.PERIODIC, period=period_ms, callback=lambda t: wdt.feed()
            )
        except (ValueError, TypeError):  # ESP32: hardware timers only
            self._timer = Timer(
                0, mode=Timer.PERIODIC, period=period_ms, callback=lambda t: wdt.feed()
            )
        return self._timer


def setup(layout=None, platform=None, root="/"):
    """The Hardware of this board."""
    return Hardware(board_module(platform), layout, root)
