# Fixed LED patterns and layout for the renderer: dice pips, the rolling sequence, checker
# layers, the segments in drawing order. Tables are `bytes`: a board image freezes them.

# Dice: 3x3 grids, row-major as seen from player 0 (cell 0 top left), 9 bytes per face.
# Face 0 is dark, 1-6 the usual faces, 7 every cell (a die waiting to be entered).
PIPS = bytes(
    (
        0, 0, 0, 0, 0, 0, 0, 0, 0,  # 0
        0, 0, 0, 0, 1, 0, 0, 0, 0,  # 1
        1, 0, 0, 0, 0, 0, 0, 0, 1,  # 2
        1, 0, 0, 0, 1, 0, 0, 0, 1,  # 3
        1, 0, 1, 0, 0, 0, 1, 0, 1,  # 4
        1, 0, 1, 0, 1, 0, 1, 0, 1,  # 5
        1, 0, 1, 1, 0, 1, 1, 0, 1,  # 6
        1, 1, 1, 1, 1, 1, 1, 1, 1,  # 7: all cells
    )
)  # fmt: skip
FACE_ALL = 7

# Faces shown while the dice roll: a new one every ROLL_STEP_MS. No face follows itself
# (also across the wrap), and die 1 reads the table ROLL_OFFSET places further on.
ROLL_FACES = bytes(
    (3, 6, 1, 4, 2, 5, 1, 3, 6, 2, 4, 1, 5, 3, 2, 6, 4, 5, 2, 1, 6, 3, 5, 4, 1, 2, 6, 5, 1)
)
ROLL_STEP_MS = 64  # one step of the renderer's animation clock (renderer.STEP_MS)
ROLL_OFFSET = 11

# Checker layers. A point of N LEDs shows up to 15 checkers: LED i stands for the checkers
# i, i + N, i + 2N, ... that are present, so it carries `level` = how many of them there
# are (0 = dark). A build with N >= 15 has one layer (a lit LED = one checker); N = 8 has
# two, N = 5..7 three, N = 4 four. LAYER_SCALE[layer_base(L) + k - 1] is the brightness
# (channel * (scale + 1) >> 8) of level k when a segment has L layers: the top level is
# always full, lower levels clearly dimmer, so the pattern of every count 0..15 differs.
LAYER_SCALE = bytes((255, 55, 255, 31, 95, 255, 23, 63, 127, 255))
MAX_LAYERS = 4
CHECKERS = 15


def layers(n):
    """How many layers a segment of `n` LEDs needs to show 15 checkers."""
    return (CHECKERS + n - 1) // n


def layer_base(count_layers):
    """Index in LAYER_SCALE of level 1 for a segment with that many layers."""
    return count_layers * (count_layers - 1) >> 1


def slot_names():
    """Segment names in slot order (points, bars, trays, dice, turn indicators, the cube's
    rows)."""
    names = ["p%d" % i for i in range(1, 25)]
    names += ["bar0", "bar1", "off0", "off1", "die0", "die1", "turn0", "turn1"]
    return names + ["cube0", "cube1"]


def segment_pixels(board, name):
    """Chain indices of a segment's LEDs from its base to its tip (tests, host views)."""
    start, count, step = board.SEGMENTS[name]
    if step > 0:
        return list(range(start, start + count))
    return list(range(start + count - 1, start - 1, -1))


def target_segment(target, turn):
    """Segment name of a target index (0-23 points, 24 bar, 25 tray of `turn`)."""
    if target == 24:  # view.TARGET_BAR
        return "bar%d" % turn
    if target == 25:  # view.TARGET_OFF
        return "off%d" % turn
    return "p%d" % (target + 1)
