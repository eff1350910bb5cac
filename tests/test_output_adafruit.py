"""AdafruitStrip against Adafruit's own library (adafruit-circuitpython-neopixel and its
pixelbuf, through Blinka on CPython) when it is installed: the bytes that reach
neopixel_write must be the renderer's frames, exactly as with the stand-in of the API
subset in tests/firmware/test_output.py (which always runs). Nothing is installed here."""

import importlib
import importlib.util
import sys

import pytest
import test_output as fw  # tests/firmware/test_output.py
from hw.boards import pico

HAVE_PIXELBUF = importlib.util.find_spec("adafruit_pixelbuf") is not None
HAVE_NEOPIXEL = HAVE_PIXELBUF and importlib.util.find_spec("neopixel_write") is not None
HAVE_BLINKA_MP = importlib.util.find_spec("micropython") is not None  # CPython: only Blinka's
# adafruit-circuitpython-neopixel (with Blinka) is pinned in requirements.txt: these tests
# drive the real library, so its absence fails them rather than skipping them.
assert HAVE_NEOPIXEL and HAVE_BLINKA_MP, "adafruit-circuitpython-neopixel is missing"


def _captured(base):
    """A subclass of the library's class that keeps what show() transmits."""

    class Captured(base):
        def _transmit(self, buffer):
            self.sent.append(bytes(buffer))

    return Captured


def _check(pixels):
    pixels.sent = []
    frames = fw.drive_adafruit(pixels)
    assert pixels.sent == frames  # every show() sent the frame, in the strip's byte order
    stand_in = fw.AdafruitPixels(pico.LED_COUNT, pico.LED_ORDER)
    assert fw.drive_adafruit(stand_in) == frames and stand_in.sent == frames


def test_adafruit_strip_on_the_real_pixelbuf():
    import adafruit_pixelbuf

    pixels = _captured(adafruit_pixelbuf.PixelBuf)(
        pico.LED_COUNT, byteorder=pico.LED_ORDER, auto_write=True
    )
    _check(pixels)


def test_adafruit_strip_on_blinka_neopixel(monkeypatch):
    """neopixel.NeoPixel on Blinka's OS-agnostic board (no GPIO touched)."""
    monkeypatch.setenv("BLINKA_OS_AGNOSTIC", "1")
    import board
    import neopixel

    try:
        pixels = _captured(neopixel.NeoPixel)(
            board.NEOPIXEL, pico.LED_COUNT, pixel_order=pico.LED_ORDER, auto_write=True
        )
        _check(pixels)
    finally:  # `neopixel` is MicroPython's to the firmware tests that follow (fake_hw's)
        sys.modules.pop("neopixel", None)
        sys.modules.pop("board", None)


def test_firmware_ignores_blinkas_micropython_module():
    """Blinka installs a CPython module named `micropython` whose viper raises: the frame
    code must pick its emitters by interpreter, not by whether that import works."""
    import micropython

    with pytest.raises(SyntaxError):
        micropython.viper(lambda: 0)
    from display import palette, renderer

    importlib.reload(palette)
    importlib.reload(renderer)
    r, strip, v = fw.make()
    fw.start(v)
    assert r.render(v, 0) and strip.rgb(0) == (200, 0, 10)
