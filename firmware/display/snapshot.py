# What the renderer last drew from: the View's fields it reads, kept so that a frame which
# cannot differ is not drawn at all (a whole frame is milliseconds of an RP2040's time, and
# the render task asks for one 50 times a second). Preallocated; nothing allocated per frame.
from kernels.frame import copy

# The View's match fields (display/cube_leds.py; HINT's cube advice too), compared by name:
# small ints all
MATCH = (
    "cube_on", "cube", "cube_owner", "offer", "offer_by", "offer_value", "shown_kind",
    "shown_value", "ask", "ask_of", "advice", "advice_of", "match_length", "score0", "score1",
    "crawford", "match_over",
)


class Snapshot:
    """The renderer's inputs from a View; same(view) is True when none has changed since
    keep(view)."""

    def __init__(self):
        self.pts0 = bytearray(25)
        self.pts1 = bytearray(25)
        self.bar = bytearray(2)
        self.off = bytearray(2)
        self.dice = bytearray(2)
        self.used = bytearray(2)
        self.vals = [0] * 19
        self.match = [0] * len(MATCH)
        self.valid = False

    def same(self, v):
        if not self.valid:
            return False
        k = self.vals
        return (
            k[0] == v.turn
            and k[1] == v.phase
            and k[2] == v.movable
            and k[3] == v.dests
            and k[4] == v.selected
            and k[5] == v.cursor
            and k[6] == v.entering
            and k[7] == v.rolling_until
            and k[8] == v.blink_until
            and k[9] == v.flash_target
            and k[10] == v.flash_until
            and k[11] == v.winner
            and k[12] == v.result
            and k[13] == v.over_since
            and k[14] == v.menu_item
            and k[15] == v.menu_value
            and k[16] == v.palette
            and k[17] == v.brightness
            and k[18] == v.game_phase
            and self._same_match(v)
            and v.pts0 == self.pts0
            and v.pts1 == self.pts1
            and v.bar == self.bar
            and v.off == self.off
            and v.dice == self.dice
            and v.dice_used == self.used
        )

    def _same_match(self, v):
        m = self.match
        for i in range(len(MATCH)):
            if m[i] != getattr(v, MATCH[i]):
                return False
        return True

    def keep(self, v):
        k = self.vals
        k[0] = v.turn
        k[1] = v.phase
        k[2] = v.movable
        k[3] = v.dests
        k[4] = v.selected
        k[5] = v.cursor
        k[6] = v.entering
        k[7] = v.rolling_until
        k[8] = v.blink_until
        k[9] = v.flash_target
        k[10] = v.flash_until
        k[11] = v.winner
        k[12] = v.result
        k[13] = v.over_since
        k[14] = v.menu_item
        k[15] = v.menu_value
        k[16] = v.palette
        k[17] = v.brightness
        k[18] = v.game_phase
        m = self.match
        for i in range(len(MATCH)):
            m[i] = getattr(v, MATCH[i])
        copy(self.pts0, v.pts0, 25)
        copy(self.pts1, v.pts1, 25)
        copy(self.bar, v.bar, 2)
        copy(self.off, v.off, 2)
        copy(self.dice, v.dice, 2)
        copy(self.used, v.dice_used, 2)
        self.valid = True
