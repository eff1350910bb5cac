# Boards, strips and views for test_output, test_selftest and the benches (MicroPython too).
from hw.boards import pico

# game.py's phases, without loading the game (test_renderer checks them against game.py)
OPENING, ROLL, MOVE, OVER = 0, 1, 2, 4


class NullStrip:
    """The frame buffer alone; write() only counts (a neopixel write takes ~30 us a LED)."""

    def __init__(self, count):
        self.buf = bytearray(3 * count)
        self.writes = 0

    def write(self):
        self.writes += 1


class Supply:
    """pico with another supply (a board module stand-in)."""

    def __init__(self, supply_ma):
        for name in dir(pico):
            if name[0] != "_":
                setattr(self, name, getattr(pico, name))
        self.SUPPLY_MA = supply_ma


def start(v, palette=0, level=255):
    """The start position on View `v`, player 0 to move, in `palette` at `level`."""
    for point, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
        v.pts0[point] = n
        v.pts1[25 - point] = n
    v.phase = MOVE
    v.palette = palette
    v.brightness = level
