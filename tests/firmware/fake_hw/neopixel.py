# A stand-in for MicroPython's `neopixel` (tests of hardware_setup.py).


class NeoPixel:
    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        self.writes = 0

    def write(self):
        self.writes += 1
