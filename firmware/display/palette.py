# Renderer colours: the palettes, and the small colour table a frame is expanded from.
#
# The renderer draws a frame as one byte per LED, an *entry* of this table; the table holds
# each entry's three bytes in the strip's byte order, already scaled by the entry's level
# and the brightness setting. It is rebuilt only when the palette, the brightness or the
# menu dimming changes; two entries (the pulsing glow and selection) change every frame.

from kernels.compat import const

from display.glyphs import LAYER_SCALE

PALETTE_NAMES = ("standard", "colour-blind safe", "high contrast")

# Colour slots of a palette (RGB triples), then two levels (0-255).
_C_P0 = const(0)  # player 0's checkers
_C_P1 = const(1)  # player 1's checkers
C_GLOW = const(2)  # movable checkers
_C_DEST = const(3)  # destinations of the selected checker
C_SEL = const(4)  # the selected checker
_C_ERR = const(5)  # an illegal press
_C_CURSOR = const(6)  # the cursor of the minimal layout
_C_MENU = const(7)  # the menu on the dice
_DIM = const(24)  # byte: level of a used die (its player's colour)
_BOARD = const(25)  # byte: level of the board while the menu is open
_STRIDE = const(26)

# fmt: off
PALETTES = bytes((
    # 0 standard: warm white against red
    255, 150, 50,   200, 0, 10,    0, 255, 40,    0, 90, 255,
    255, 255, 255,  255, 0, 0,     180, 0, 255,   0, 200, 160,   24, 64,
    # 1 colour-blind safe: blue against orange; highlights differ in lightness too, so
    # every pair stays apart under protanopia and deuteranopia (tests/firmware check it)
    0, 70, 255,     255, 110, 0,   0, 255, 255,   255, 0, 128,
    255, 255, 128,  255, 0, 0,     255, 255, 0,   255, 255, 255,  32, 64,
    # 2 high contrast: white against blue, saturated highlights, brighter dim levels
    255, 255, 255,  0, 0, 255,     0, 255, 0,     255, 255, 0,
    255, 0, 255,    255, 0, 0,     0, 255, 255,   255, 128, 0,   56, 96,
))
# fmt: on

# Table entries (the bytes of the frame's index buffer).
E_OFF = const(0)
_E_STACK = const(1)  # + player * 10 + layer_base(L) + level - 1: checkers, L layers
E_FULL = const(21)  # + player: dice, turn indicator, game-over chase
E_HALF = const(23)  # + player: a half-used die (doubles)
E_DIM = const(25)  # + player: a used die
E_GLOW = const(27)  # pulsing
E_DEST = const(28)
E_SEL = const(29)  # pulsing
E_ERR = const(30)
E_CURSOR = const(31)
E_MENU = const(32)
E_SPARK = const(33)  # the game-over chase on the winner's tray
E_CUBE = const(34)  # the cube centred, an offered cube (the selection colour, not pulsing)
E_YES = const(35)  # HINT's cube advice to act (double, take, accept): the glow colour, steady
_ENTRIES = const(36)
_STACKS = const(10)  # stack entries per player: 1 + 2 + 3 + 4 layers

_HALF = const(127)
_FULL = const(255)


class Colours:
    """The colour table for a strip byte order ("GRB", "RGB", ...)."""

    def __init__(self, order):
        self.table = bytearray(_ENTRIES * 3)
        self._ro = order.index("R")
        self._go = order.index("G")
        self._bo = order.index("B")
        self.palette = -1
        self.bscale = -1
        self.menu = -1

    def update(self, palette, bscale, menu):
        """Rebuilds the table when a setting changed; `bscale` is a power.dim() scale."""
        if palette < 0 or palette >= len(PALETTE_NAMES):
            palette = 0
        if palette == self.palette and bscale == self.bscale and menu == self.menu:
            return False
        self.palette = palette
        self.bscale = bscale
        self.menu = menu
        base = palette * _STRIDE
        board = PALETTES[base + _BOARD] if menu else _FULL
        for player in range(2):
            e = _E_STACK + player * _STACKS
            for k in range(_STACKS):  # LAYER_SCALE has the levels of L = 1..4 in order
                self.set(e + k, player, ((LAYER_SCALE[k] + 1) * (board + 1) >> 8) - 1)
            self.set(E_FULL + player, player, _FULL)
            self.set(E_HALF + player, player, _HALF)
            self.set(E_DIM + player, player, PALETTES[base + _DIM])
        self.set(E_GLOW, C_GLOW, _FULL)
        self.set(E_DEST, _C_DEST, _FULL)
        self.set(E_SEL, C_SEL, _FULL)
        self.set(E_ERR, _C_ERR, _FULL)
        self.set(E_CURSOR, _C_CURSOR, _FULL)
        self.set(E_MENU, _C_MENU, _FULL)
        self.set(E_SPARK, C_SEL, _FULL)
        self.set(E_CUBE, C_SEL, _FULL)
        self.set(E_YES, C_GLOW, _FULL)
        return True

    def set(self, entry, slot, level):
        """Entry := palette colour `slot` at `level` (0-255) and the brightness scale."""
        c = self.palette * _STRIDE + slot * 3
        s = self.bscale
        t = self.table
        o = entry * 3
        level += 1
        t[o + self._ro] = (PALETTES[c] * level >> 8) * s >> 8
        t[o + self._go] = (PALETTES[c + 1] * level >> 8) * s >> 8
        t[o + self._bo] = (PALETTES[c + 2] * level >> 8) * s >> 8

    def clear(self, entry):
        o = entry * 3
        self.table[o] = self.table[o + 1] = self.table[o + 2] = 0

    def rgb(self, entry):
        """(r, g, b) of an entry as the strip shows it (tests and host views; allocates)."""
        o = entry * 3
        t = self.table
        return (t[o + self._ro], t[o + self._go], t[o + self._bo])


def stack_entry(player, count_layers, level):
    """The entry of a checker LED of `player` at `level` (1..L) in a segment of L layers."""
    return _E_STACK + player * _STACKS + (count_layers * (count_layers - 1) >> 1) + level - 1
