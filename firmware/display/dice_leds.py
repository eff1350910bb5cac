# The dice's LEDs and the game-over picture, drawn by the renderer into its frame.
#
# Dice: 3x3 pips in the colour of the player on roll (at the opening each die in its
# player's colour), half level when half used, the palette's dim level when used,
# random-looking faces while rolling, blinking while blink_until; the die being entered
# (physical dice) blinks, all cells in the cursor colour until it has a value.
# Game over: the dice show the result (1-3 pips) in the winner's colour, a spark runs along
# the winner's tray and a light along the tips of the winner's home board, the winner's turn
# LED blinks. The end of a match (view.match_over) runs a chase along every point's tip in
# the winner's colour as well. Everything goes through the renderer's put/face/segment: the
# frame is the renderer's; nothing here allocates.
from hw.ticks import ticks_diff
from kernels.compat import const

from display.glyphs import FACE_ALL, ROLL_FACES, ROLL_OFFSET, ROLL_STEP_MS
from display.palette import E_CURSOR, E_DIM, E_FULL, E_HALF, E_SPARK

_OPENING = const(0)  # game.py's phase
_SLOT_OFF = const(26)  # + player (renderer's slots)
_SLOT_DIE = const(28)  # + die
_SLOT_TURN = const(30)  # + player
_BLINK_SHIFT = const(8)  # highlights blink and alternate every 256 ms
_SPARK_SHIFT = const(7)  # the game-over spark moves every 128 ms, the home light every 256
_DICE_BLINK_MS = const(200)
_AHEAD_MS = const(10000)  # no animation lasts longer


def active(until, now_ms):
    """A deadline still ahead. 0 is none, and one more than _AHEAD_MS ahead is stale: ticks
    wrap every 2**30 ms, so an old deadline comes round as 'ahead' again after 6 days."""
    if not until:
        return False
    d = ticks_diff(until, now_ms)
    return 0 < d <= _AHEAD_MS


def dice(r, view, now_ms, t, turn):
    """Both dice of `view` at animation step `t` (ms on the renderer's grid)."""
    opening = view.phase == _OPENING
    rolling = active(view.rolling_until, now_ms)
    dark = 0
    if active(view.blink_until, now_ms):  # counted back from the end: it ends lit
        dark = (ticks_diff(view.blink_until, now_ms) // _DICE_BLINK_MS) & 1
    for d in range(2):
        player = d if opening else turn
        e = E_FULL + player
        if rolling:
            face = ROLL_FACES[(t // ROLL_STEP_MS + d * ROLL_OFFSET) % len(ROLL_FACES)]
        else:
            face = view.dice[d]
            used = 0 if opening else view.dice_used[d]
            if used == 1:
                e = E_HALF + player
            elif used:
                e = E_DIM + player
        if d == view.entering:
            if not face:
                face = FACE_ALL
                e = E_CURSOR
            if (t >> _BLINK_SHIFT) & 1:
                face = 0
        if dark or face > 6 and face != FACE_ALL:
            face = 0
        r.face(_SLOT_DIE + d, face, e)


def over(r, view, now_ms, on):
    """The game-over picture (and the match's end)."""
    w = view.winner & 1
    result = view.result
    r.face(_SLOT_DIE, result if 0 < result < 4 else 0, E_FULL + w)
    r.face(_SLOT_DIE + 1, result if 0 < result < 4 else 0, E_FULL + w)
    since = ticks_diff(now_ms, view.over_since)  # the grid may lie just before it
    if since < 0:
        since = 0
    tray = _SLOT_OFF + w
    r.put(tray, (since >> _SPARK_SHIFT) % r.seglen(tray), E_SPARK)
    if view.match_over:  # every third tip lit, the lights running round the board
        k = since >> _SPARK_SHIFT
        for s in range(24):
            if (s + k) % 3 == 0:
                r.put(s, r.seglen(s) - 1, E_FULL + w)
    else:
        k = (since >> (_SPARK_SHIFT + 1)) % 6
        s = k if w == 0 else 23 - k  # the winner's home board: p1-p6 or p24-p19
        r.put(s, r.seglen(s) - 1, E_FULL + w)
    if on:
        r.segment(_SLOT_TURN + w, E_FULL + w)
