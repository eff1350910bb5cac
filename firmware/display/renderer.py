# LED renderer: draws a View and the time into the strip's one preallocated frame.
#
# What the LEDs show (segments of the board module; LED 0 of a line is at its base):
# - Points, bars, trays: one LED per checker from the base, in the owner's colour. With N
#   LEDs per segment (N < 15 on smaller builds), LED i stands for the checkers i, i+N, i+2N
#   that are present and lights at the brightness of that *level* (1, 2 or 3; 4 for N = 4);
#   the top level is full, lower ones dimmer (glyphs.LAYER_SCALE). The levels add up to the
#   count, so every count 0..15 has its own pattern.
# - movable: the LED past the top checker glows (pulsing); on a full segment the top
#   checker alternates with the glow. dests: the same place blinks in the destination
#   colour. selected: the top checker pulses in the selection colour. cursor: the tip LED
#   (alternating with a checker there). flash: the whole segment (or both dice) red.
# - Dice, the game over and the match's end: display/dice_leds.py. The cube, offers, HINT's
#   cube advice and the score between games of a match: display/cube_leds.py, loaded when
#   first drawn (heap).
# - turn0/turn1: the player on roll. Menu: the board dimmed, die0 menu_item + 1 pips, die1
#   menu_value + 1 (both 0-based; all nine cells past 6).
# Deadlines (rolling_until, blink_until, flash_until) are ticks: 0 is none, and one more
# than 10 s ahead counts as stale. Time is read on a 64 ms grid (STEP_MS, from the
# renderer's start), so time alone changes the frame at most ~16 times a second however
# often render() is called: the glow and selection pulse in 8 steps a second, blinks (an
# offer too) every 256 ms, the rolling dice every 64 ms, the game-over chases every 128 ms;
# a strip write (13 ms of bit-banging on an RP2040) only when the picture really moves.
# Then brightness (the colour table is scaled by power.level_scale) and the supply limiter
# (power.frame_current_ma / limit_scale, the scale applied as power.dim does). render()
# allocates nothing: the frame is one byte per LED (a colour-table entry) expanded into
# strip.buf and written, only when the entries or the colours differ from the last frame.
from hw.ticks import TICKS_MAX, ticks_diff
from kernels.compat import const
from kernels.frame import GEO, channel_sum, copy, dim, expand, fill, stacks, uses

from display import dice_leds, marks, power
from display.glyphs import (  # noqa: F401 (segment_pixels, target_segment: tests, host)
    FACE_ALL,
    MAX_LAYERS,
    PIPS,
    layers,
    segment_pixels,
    slot_names,
    target_segment,
)
from display.palette import (
    C_GLOW,
    C_SEL,
    E_ERR,
    E_FULL,
    E_GLOW,
    E_MENU,
    E_SEL,
    Colours,
)
from display.snapshot import Snapshot
from display.view import MENU, TARGET_BAR, TARGET_DICE, TARGET_OFF

_OPENING = const(0)  # game.py's phases
_OVER = const(4)
_SLOT_BAR = const(24)  # + player; slots 0-23 are the points p1-p24
_SLOT_OFF = const(26)  # + player
_SLOT_DIE = const(28)  # + die
_SLOT_TURN = const(30)  # + player
_STACKS = const(28)  # slots that hold checkers
_SLOTS = const(34)  # ... then the cube's rows, 32 + player
_ONE = const(256)
STEP_MS = const(64)  # the animation clock's grid (a power of two: a mask)
_PULSE_SHIFT = const(7)  # the pulse steps every 128 ms, 8 steps a period of 1024 ms
_BLINK_SHIFT = const(8)  # highlights blink and alternate every 256 ms
_active = dice_leds.active


def _ahead(until, now_ms):
    return until != 0 and ticks_diff(until, now_ms) > 0


def _animates(view, phase, now_ms):
    """Whether time alone can change the frame of `view` (erring towards yes): a highlight
    pulses or blinks, a die rolls, blinks or is being entered, a deadline is still ahead, the
    game-over chase runs."""
    if view.movable or view.dests or view.selected >= 0 or view.cursor >= 0:
        return True
    if view.entering >= 0 or (phase == _OVER and view.winner >= 0) or view.ask:
        return True  # (view.ask: an offer or the cube page blinks)
    return (
        _ahead(view.rolling_until, now_ms)
        or _ahead(view.blink_until, now_ms)
        or _ahead(view.flash_until, now_ms)
    )


class Renderer:
    """View + now_ms -> strip.buf; strip.write() only when the frame changed."""

    def __init__(self, board, strip, now_ms=0):
        self.board = board
        self.strip = strip
        self.count = n = board.LED_COUNT
        if len(strip.buf) != n * 3:
            raise ValueError("strip.buf must hold 3 bytes for each of the board's LEDs")
        self.colours = Colours(board.LED_ORDER)
        self._idx = bytearray(n)  # one colour-table entry per LED
        self._last = bytearray(n)  # the entries and colours of the frame last written
        self._last_table = bytearray(len(self.colours.table))
        self._geo = bytearray(_SLOTS * GEO)
        self._cnt = bytearray(_STACKS)
        self._own = bytearray(_STACKS)
        self._budget = power.budget_ma(board.SUPPLY_MA, board.RESERVE_MA)
        self._ma = board.LED_MA_PER_CHANNEL
        self._idle = board.LED_IDLE_MA
        self._t0 = now_ms
        self._fresh = True
        self._snap = Snapshot()  # what the last frame drawn was drawn from
        self._t_drawn = -1  # its step of the animation clock
        self._moving = False  # whether time alone could change it
        self.scale = _ONE  # the supply limiter's scale of the last frame (256: untouched)
        self.writes = 0
        self.draws = 0  # frames drawn (the others were skipped unseen: nothing could differ)
        self._cube = None  # display.cube_leds once the cube, an offer or a match is shown
        for s, name in enumerate(slot_names()):
            start, count, step = board.SEGMENTS[name]
            lay = layers(count) if s < _STACKS else 1
            if count < 1 or count > 255 or lay > MAX_LAYERS:
                raise ValueError("segment %s: %d LEDs cannot show 15 checkers" % (name, count))
            base = start if step > 0 else start + count - 1
            g = self._geo
            o = s * GEO
            g[o] = base & 255
            g[o + 1] = base >> 8
            g[o + 2] = count
            g[o + 3] = 0 if step > 0 else 1
            g[o + 4] = lay

    def invalidate(self):
        """The next frame is written even if unchanged (someone else drew on the strip)."""
        self._fresh = True

    def render(self, view, now_ms):
        """Draws the whole frame; returns True when it differed and was written. A frame that
        cannot differ from the last one (the same view, and the same step of the animation
        clock or nothing animated) is not even drawn."""
        t = (now_ms - self._t0) & TICKS_MAX & -STEP_MS
        snap = self._snap
        if not self._fresh and snap.same(view) and (t == self._t_drawn or not self._moving):
            return False
        snap.keep(view)
        self._t_drawn = t
        self.draws += 1
        phase = view.phase
        menu = phase == MENU
        level = view.brightness
        level = 0 if level < 0 else (255 if level > 255 else level)
        c = self.colours
        c.update(view.palette, power.level_scale(level), 1 if menu else 0)
        # The animation clock: t, time since the start on the STEP_MS grid (wraps as ticks),
        # and now_ms brought back onto that grid for the deadlines.
        now_ms = (self._t0 + t) & TICKS_MAX
        self._moving = _animates(view, phase, now_ms)
        tri = (t >> _PULSE_SHIFT) & 7
        if tri > 4:
            tri = 8 - tri
        c.set(E_GLOW, C_GLOW, 96 + tri * 159 // 4)  # pulses 96..255 in 8 steps every 1 s
        c.set(E_SEL, C_SEL, 96 + tri * 159 // 4)
        on = (t >> _BLINK_SHIFT) & 1 == 0
        fill(self._idx, self.count, 0)
        self._gather(view)
        stacks(self._idx, self._geo, self._cnt, self._own)
        turn = view.turn & 1
        if view.match_length and (view.game_phase == _OVER or view.game_phase == _OPENING):
            cube = self._cube_leds()  # between games of a match: the score
            if cube is not None:
                cube.score(self, view)
        if menu:
            item = view.menu_item + 1  # both 0-based (menu.py), shown as 1-6 pips
            value = view.menu_value + 1
            self.face(_SLOT_DIE, item if 0 < item < 7 else FACE_ALL, E_MENU)
            self.face(_SLOT_DIE + 1, value if 0 < value < 7 else FACE_ALL, E_MENU)
        elif phase == _OVER and view.winner >= 0:
            dice_leds.over(self, view, now_ms, on)
        else:
            marks.draw(self, view, turn, on)
            dice_leds.dice(self, view, now_ms, t, turn)
            self.segment(_SLOT_TURN + turn, E_FULL + turn)
        if view.cube_on or view.ask or view.advice:
            cube = self._cube_leds()
            if cube is not None:
                cube.cube(self, view, on)
        if view.flash_target >= 0 and _active(view.flash_until, now_ms):
            if view.flash_target == TARGET_DICE:
                self.face(_SLOT_DIE, FACE_ALL, E_ERR)
                self.face(_SLOT_DIE + 1, FACE_ALL, E_ERR)
            else:
                s = self.slot(view.flash_target, turn)
                if s >= 0:
                    self.segment(s, E_ERR)
        # The frame's bytes follow from the entries and the table (the limiter included):
        # compare those, the pulsing entries only where used, before expanding anything.
        idx = self._idx
        table = c.table
        used = uses(idx, self.count, E_GLOW, E_SEL)
        if not used & 1:
            c.clear(E_GLOW)
        if not used & 2:
            c.clear(E_SEL)
        if not self._fresh and idx == self._last and table == self._last_table:
            return False
        copy(self._last, idx, self.count)
        copy(self._last_table, table, len(table))
        expand(self.strip.buf, idx, table, self.count)
        return self._finish()

    def render_solid(self, rgb, first=0, count=-1, brightness=255):
        """LEDs first..first+count-1 in one colour, the rest dark, then the supply limiter
        (the self-test's segments, the all-white test). False when the strip was busy."""
        buf = self.strip.buf
        order = self.board.LED_ORDER
        s = power.level_scale(brightness)
        end = self.count if count < 0 else min(self.count, first + count)
        fill(buf, self.count * 3, 0)
        for i in range(first, end):
            for k in range(3):
                buf[i * 3 + k] = rgb["RGB".index(order[k])] * s >> 8
        wrote = self._finish()
        self._fresh = True  # the next render() writes whatever it draws
        return wrote

    def _finish(self):
        """Supply limiter, then write; False when the strip could not take the frame yet."""
        buf = self.strip.buf
        n = self.count
        # power.frame_current_ma's model (tests/firmware check they agree) on a fast sum:
        # its sum() over the frame takes ~60 us here, ~6 ms on the RP2040
        current = n * self._idle + channel_sum(buf, n * 3) * self._ma // 255
        self.scale = power.limit_scale(current, self._budget, n * self._idle)
        if self.scale < _ONE:
            dim(buf, n * 3, self.scale)
        if self.strip.write() is False:  # a frame still on the wire (PioStrip): next time
            self._fresh = True
            return False
        self._fresh = False
        self.writes += 1
        return True

    def _cube_leds(self):
        """display/cube_leds.py, loaded with the first cube or match; None when its code finds
        no room yet (a full heap): this frame goes without the cube's LEDs and the next one
        is drawn whole again, rather than the exception stopping the render task."""
        if self._cube is None:
            try:
                from display import cube_leds
            except MemoryError:
                self._fresh = True
                return None
            self._cube = cube_leds
        return self._cube

    def _gather(self, view):
        cnt = self._cnt
        own = self._own
        p0 = view.pts0
        p1 = view.pts1
        for i in range(24):
            a = p0[i + 1]
            if a:
                cnt[i] = a
                own[i] = 0
            else:
                cnt[i] = p1[i + 1]
                own[i] = 1
        for p in range(2):
            cnt[_SLOT_BAR + p] = view.bar[p]
            own[_SLOT_BAR + p] = p
            cnt[_SLOT_OFF + p] = view.off[p]
            own[_SLOT_OFF + p] = p

    # The frame's primitives (marks, dice_leds, cube_leds draw through them): slot s, LED i from
    # the segment's base, colour-table entry e.
    def _led(self, s, i):
        g = self._geo
        o = s * GEO
        base = g[o] | g[o + 1] << 8
        return base - i if g[o + 3] else base + i

    def seglen(self, s):
        return self._geo[s * GEO + 2]

    def put(self, s, i, e):
        self._idx[self._led(s, i)] = e

    def checkers(self, s):
        return self._cnt[s] if s < _STACKS else 0

    def slot(self, target, turn):
        if 0 <= target < 24:
            return target
        if target == TARGET_BAR:
            return _SLOT_BAR + turn
        if target == TARGET_OFF:
            return _SLOT_OFF + turn
        return -1

    def segment(self, s, e):
        for i in range(self.seglen(s)):
            self._idx[self._led(s, i)] = e

    def face(self, s, face, e):
        n = self.seglen(s)
        if n > 9:
            n = 9
        o = face * 9
        for cell in range(n):
            if PIPS[o + cell]:
                self._idx[self._led(s, cell)] = e
