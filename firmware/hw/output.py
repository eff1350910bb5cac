# LED output adapters: what the renderer writes its frame to (a strip has .buf and .write()).
#
# strip.buf holds 3 bytes per LED in the board's LED_ORDER (the order the LEDs take on
# the wire, e.g. "GRB"); write() sends it, and returns False only when the strip cannot take
# a frame yet (hw/pio_strip.py's, while one is on the wire: send it again later); `writes`
# counts the frames sent. Only hardware_setup.py makes the NeoPixel objects; these adapters
# take them already made.


class NeoPixelStrip:
    """MicroPython's built-in `neopixel.NeoPixel`: its own buffer is the frame."""

    def __init__(self, np):
        if getattr(np, "bpp", 3) != 3:
            raise ValueError("3 bytes per LED expected")
        self.np = np
        self.buf = np.buf  # the bytes NeoPixel.write() sends, in the strip's order
        self.count = len(np.buf) // 3
        self.writes = 0  # frames sent (benches read it: strip writes per second)

    def write(self):
        self.np.write()
        self.writes += 1

    def deinit(self):
        """Blank the LEDs (for main.py's cleanup)."""
        for i in range(len(self.buf)):
            self.buf[i] = 0
        self.write()


class AdafruitStrip:
    """Adafruit's `neopixel.NeoPixel` (adafruit-circuitpython-neopixel, CircuitPython or a
    Raspberry Pi through Blinka): made with auto_write=False, pixel_order = the board's
    LED_ORDER and brightness 1.0 (the renderer does brightness and the supply limit).

    It has no public raw buffer, so `buf` is our own and write() hands it over as 24-bit
    ints (no tuple per LED): a slice assignment of the whole strip when many LEDs changed,
    else one item per changed LED; then show(). The API used: len(pixels),
    pixels.byteorder, pixels.auto_write, pixels[i] = int, pixels[a:b] = list of ints,
    pixels.show(), pixels.fill(int).
    """

    def __init__(self, pixels):
        order = pixels.byteorder
        if len(order) != 3:
            raise ValueError("3 bytes per LED expected, not %s" % order)
        pixels.auto_write = False
        self.pixels = pixels
        self.count = n = len(pixels)
        self.buf = bytearray(n * 3)
        self._r = order.index("R")
        self._g = order.index("G")
        self._b = order.index("B")
        self._ints = [-1] * n  # what the pixel object holds (-1: unknown, send it)
        self._dirty = bytearray(n)
        self.writes = 0  # frames sent

    def write(self):
        buf = self.buf
        ints = self._ints
        dirty = self._dirty
        changed = 0
        j = 0
        for i in range(self.count):
            v = buf[j + self._r] << 16 | buf[j + self._g] << 8 | buf[j + self._b]
            j += 3
            if v != ints[i]:
                ints[i] = v
                dirty[i] = 1
                changed += 1
        if changed * 4 > self.count:
            self.pixels[0 : self.count] = ints
            for i in range(self.count):
                dirty[i] = 0
        elif changed:
            for i in range(self.count):
                if dirty[i]:
                    self.pixels[i] = ints[i]
                    dirty[i] = 0
        self.pixels.show()
        self.writes += 1

    def deinit(self):
        for i in range(len(self.buf)):
            self.buf[i] = 0
        self.pixels.fill(0)
        self.pixels.show()
        self.writes += 1
        for i in range(self.count):
            self._ints[i] = 0


class FakeStrip:
    """A strip for tests and the simulator: counts writes and keeps the last frame sent."""

    def __init__(self, count, order="GRB"):
        self.count = count
        self.order = order
        self.buf = bytearray(count * 3)
        self.frame = bytearray(count * 3)  # the bytes of the last write()
        self.writes = 0

    def write(self):
        frame = self.frame
        buf = self.buf
        for i in range(len(buf)):
            frame[i] = buf[i]
        self.writes += 1

    def rgb(self, i):
        """(r, g, b) of LED i in the last frame written (allocates: tests and views)."""
        o = i * 3
        f = self.frame
        order = self.order
        return (f[o + order.index("R")], f[o + order.index("G")], f[o + order.index("B")])

    def deinit(self):
        for i in range(len(self.buf)):
            self.buf[i] = 0
        self.write()
