# renderer.py: what each LED shows for a View, read back from the frame the strip was sent.
import gc
import sys

from hw.output import FakeStrip

# The 452-LED strip comes first, as on the board (hardware_setup makes the NeoPixel before
# the rest): on the unix port's small test heap the modules loaded later leave no 1.3 KB hole.
STRIP = FakeStrip(452)

from display import glyphs  # noqa: E402
from display.palette import (  # noqa: E402
    E_CURSOR,
    E_DEST,
    E_ERR,
    E_FULL,
    E_GLOW,
    E_MENU,
    E_SEL,
    E_SPARK,
    PALETTE_NAMES,
    PALETTES,
    stack_entry,
)
from display.renderer import STEP_MS, Renderer, segment_pixels, target_segment  # noqa: E402
from display.view import (  # noqa: E402
    MENU,
    PALETTE_COUNT,
    TARGET_BAR,
    TARGET_DICE,
    TARGET_OFF,
    View,
)
from hw.boards import pico  # noqa: E402
from hw.ticks import ticks_add  # noqa: E402
from xorshift import XorShift32  # noqa: E402

OPENING, ROLL, MOVE, OVER = 0, 1, 2, 4  # game.py's phases (checked below)
ROLL_STEP = glyphs.ROLL_STEP_MS


class Board:
    """A board module stand-in: pico's chain with other segment sizes or supply."""

    def __init__(self, per_point=15, bar=15, off=15, supply_ma=None):
        segments = {}
        first = 0
        for name in pico.CHAIN:
            n, step = pico.SEGMENTS[name][1:]
            if name[0] == "p":
                n = per_point
            elif name[:3] == "bar":
                n = bar
            elif name[:3] == "off":
                n = off
            segments[name] = (first, n, step)
            first += n
        self.SEGMENTS = segments
        self.CHAIN = pico.CHAIN
        self.LED_COUNT = first
        self.LEDS_PER_POINT = per_point
        self.LED_ORDER = pico.LED_ORDER
        self.SUPPLY_MA = supply_ma or pico.SUPPLY_MA
        self.RESERVE_MA = pico.RESERVE_MA
        self.LED_MA_PER_CHANNEL = pico.LED_MA_PER_CHANNEL
        self.LED_IDLE_MA = pico.LED_IDLE_MA
        self.BRIGHTNESS_LEVELS = pico.BRIGHTNESS_LEVELS


def make(board=pico, now_ms=0):
    if board.LED_COUNT == len(STRIP.buf) // 3:
        strip = STRIP
        strip.writes = 0
    else:
        strip = FakeStrip(board.LED_COUNT, board.LED_ORDER)
    return Renderer(board, strip, now_ms), strip, View()


def start(v):
    """The starting position, player 0 to move."""
    for point, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
        v.pts0[point] = n
        v.pts1[25 - point] = n
    v.phase = MOVE
    v.brightness = 255


def rgbs(board, strip, name):
    return [strip.rgb(i) for i in segment_pixels(board, name)]


def levels_of(r):
    """rgb -> (player, level, layers) of every checker entry of the current table."""
    out = {}
    for lay in range(1, glyphs.MAX_LAYERS + 1):
        for p in range(2):
            for k in range(1, lay + 1):
                key = (r.colours.rgb(stack_entry(p, lay, k)), lay)
                assert out.get(key, (p, k)) == (p, k), key  # no two look the same
                out[key] = (p, k)
    return out


def decode(r, board, strip, name, table=None):
    """(count, owner) a stack segment shows: the levels of its LEDs added up."""
    table = table or levels_of(r)
    lay = glyphs.layers(board.SEGMENTS[name][1])
    count, owner = 0, -1
    for c in rgbs(board, strip, name):
        if c == (0, 0, 0):
            continue
        p, k = table[(c, lay)]  # KeyError: a colour no checker has
        assert owner in (-1, p), (name, c)
        owner = p
        count += k
    return count, owner


def random_view(v, rng):
    for p in range(2):
        mine, theirs = (v.pts0, v.pts1) if p == 0 else (v.pts1, v.pts0)
        for _ in range(15):
            while True:
                t = rng.below(26)
                if t >= 24 or theirs[t + 1] == 0:
                    break
            if t == 24:
                v.bar[p] += 1
            elif t == 25:
                v.off[p] += 1
            else:
                mine[t + 1] += 1
    v.turn = rng.below(2)
    v.phase = MOVE


def check_counts(r, board, strip, v):
    table = levels_of(r)
    for k in range(1, 25):  # names made here, not kept in a list: heap
        name = "p%d" % k
        a, b = v.pts0[k], v.pts1[k]
        want = (a, 0) if a else ((b, 1) if b else (0, -1))
        assert decode(r, board, strip, name, table) == want, (name, want)
    for p in range(2):
        for name, n in (("bar%d" % p, v.bar[p]), ("off%d" % p, v.off[p])):
            assert decode(r, board, strip, name, table) == (n, p if n else -1), name


def test_phase_numbers_are_games():
    if sys.implementation.name == "micropython":
        return  # the same numbers on either: checked on CPython (game loads the engine: 26 KB)
    import scenes  # test_output's, bench/render_bench's (not loaded here on MicroPython: heap)
    from model import game

    assert (game.OPENING, game.ROLL, game.MOVE, game.OVER) == (OPENING, ROLL, MOVE, OVER)
    assert (scenes.OPENING, scenes.ROLL, scenes.MOVE, scenes.OVER) == (OPENING, ROLL, MOVE, OVER)
    assert MENU not in (game.OPENING, game.ROLL, game.MOVE, game.DONE, game.OVER)


def test_segment_pixels_run_base_to_tip_and_cover_the_chain():
    assert segment_pixels(pico, "p1") == list(range(0, 15))
    assert segment_pixels(pico, "p2") == list(range(29, 14, -1))
    seen = bytearray(pico.LED_COUNT)
    for name in pico.CHAIN:
        for i in segment_pixels(pico, name):
            seen[i] += 1
    assert seen == bytearray(b"\x01" * pico.LED_COUNT)
    assert target_segment(TARGET_BAR, 1) == "bar1" and target_segment(TARGET_OFF, 0) == "off0"
    assert target_segment(23, 0) == "p24"


def test_checkers_in_the_owners_colour_from_the_base():
    r, strip, v = make()
    start(v)
    r.render(v, 0)
    warm, red = (255, 150, 50), (200, 0, 10)  # palette 0 at full brightness
    assert rgbs(pico, strip, "p24")[:3] == [warm, warm, (0, 0, 0)]
    assert rgbs(pico, strip, "p1")[:3] == [red, red, (0, 0, 0)]
    assert rgbs(pico, strip, "p13")[4:6] == [warm, (0, 0, 0)]
    assert strip.rgb(segment_pixels(pico, "turn0")[0]) == warm
    assert strip.rgb(segment_pixels(pico, "turn1")[0]) == (0, 0, 0)


def test_random_views_decode_to_their_counts():
    rng = XorShift32(7)
    r, strip, v = make()
    for i in range(24):
        v = View()
        random_view(v, rng)
        v.brightness = pico.BRIGHTNESS_LEVELS[i % 5]
        v.palette = i % PALETTE_COUNT
        r.render(v, i * 37)
        check_counts(r, pico, strip, v)
        turn = segment_pixels(pico, "turn%d" % v.turn)[0]
        assert strip.rgb(turn) == r.colours.rgb(E_FULL + v.turn)


def test_fewer_leds_per_point_show_every_count_distinctly():
    for n in (5, 6, 8, 15):
        board = Board(n, bar=n, off=n)
        patterns = ({}, {})
        r, strip, v = make(board)
        for count in range(16):
            v.pts0[1] = count
            v.pts1[24] = count
            v.bar[1] = count
            v.brightness = 255
            r.render(v, 0)
            assert decode(r, board, strip, "p1") == (count, 0 if count else -1)
            assert decode(r, board, strip, "p24") == (count, 1 if count else -1)
            assert decode(r, board, strip, "bar1") == (count, 1 if count else -1)
            for p, name in ((0, "p1"), (1, "p24")):
                key = bytes(bytearray(b for c in rgbs(board, strip, name) for b in c))
                assert key not in patterns[p], (n, count)
                patterns[p][key] = count
        assert len(patterns[0]) == 16 and len(patterns[1]) == 16
        board = r = strip = v = patterns = None  # the next build's strip needs the heap
        gc.collect()


def test_random_views_on_a_five_led_build():
    rng = XorShift32(99)
    board = Board(5, bar=5, off=8)
    r, strip, v = make(board)
    for i in range(12):
        v = View()
        random_view(v, rng)
        v.brightness = board.BRIGHTNESS_LEVELS[2 + i % 3]
        v.palette = i % PALETTE_COUNT
        r.render(v, i)
        check_counts(r, board, strip, v)


def test_a_board_that_cannot_show_fifteen_checkers_is_refused():
    try:
        make(Board(3))
    except ValueError:
        return
    raise AssertionError("3 LEDs per point accepted")


FACES = {1: (4,), 2: (0, 8), 3: (0, 4, 8), 4: (0, 2, 6, 8), 5: (0, 2, 4, 6, 8),
         6: (0, 2, 3, 5, 6, 8)}  # fmt: skip


def lit_cells(board, strip, die):
    return tuple(i for i, c in enumerate(rgbs(board, strip, "die%d" % die)) if c != (0, 0, 0))


def test_dice_faces_in_the_colour_of_the_player_on_roll():
    r, strip, v = make()
    start(v)
    v.turn = 1
    for a in range(7):
        b = 7 - a if a else 0
        v.dice[0], v.dice[1] = a, b
        r.render(v, 0)
        assert lit_cells(pico, strip, 0) == FACES.get(a, ())
        assert lit_cells(pico, strip, 1) == FACES.get(b, ())
        for cell in FACES.get(a, ()):
            assert rgbs(pico, strip, "die0")[cell] == (200, 0, 10)


def test_used_dice_are_dimmed():
    r, strip, v = make()
    start(v)
    v.dice[0], v.dice[1] = 4, 4
    r.render(v, 0)
    full = rgbs(pico, strip, "die0")[0]
    v.dice_used[0], v.dice_used[1] = 1, 2
    r.render(v, 0)
    half, used = rgbs(pico, strip, "die0")[0], rgbs(pico, strip, "die1")[0]
    assert half == tuple(c * 128 >> 8 for c in full)
    assert used == tuple(c * (PALETTES[24] + 1) >> 8 for c in full) and sum(used) > 0
    assert lit_cells(pico, strip, 1) == FACES[4]


def test_opening_dice_in_each_players_colour():
    r, strip, v = make()
    start(v)
    v.phase, v.turn = OPENING, 1
    v.dice[0], v.dice[1] = 6, 2
    v.dice_used[0] = 2  # ignored at the opening
    r.render(v, 0)
    assert lit_cells(pico, strip, 0) == FACES[6] and lit_cells(pico, strip, 1) == FACES[2]
    assert rgbs(pico, strip, "die0")[0] == (255, 150, 50)
    assert rgbs(pico, strip, "die1")[0] == (200, 0, 10)


def face_of(cells):
    for k, v in FACES.items():
        if v == cells:
            return k
    return 0


def test_rolling_dice_cycle_through_faces_then_show_the_roll():
    r, strip, v = make(now_ms=1000)
    start(v)
    v.phase = ROLL
    v.dice[0], v.dice[1] = 3, 1
    v.rolling_until = 1600
    seen = []
    for now in range(1000, 1600, ROLL_STEP):
        r.render(v, now)
        a, b = face_of(lit_cells(pico, strip, 0)), face_of(lit_cells(pico, strip, 1))
        assert a and b, (now, a, b)
        seen.append(a)
    assert all(seen[i] != seen[i + 1] for i in range(len(seen) - 1)), seen
    assert len(set(seen)) >= 5
    faces = glyphs.ROLL_FACES
    assert all(faces[i] != faces[(i + 1) % len(faces)] for i in range(len(faces)))
    assert sorted(set(faces)) == [1, 2, 3, 4, 5, 6]
    r.render(v, 1600 + STEP_MS)  # deadlines take effect on the animation clock's grid
    assert lit_cells(pico, strip, 0) == FACES[3] and lit_cells(pico, strip, 1) == FACES[1]
    wrap = ticks_add(0, -200)  # (at -256 the faces shown happen to be the roll's, 3-1)
    for now, until, rolling in ((1600, 0, 0), (1600, 30000, 0), (wrap, ticks_add(wrap, 320), 1)):
        v.rolling_until = until  # 0: none; far ahead: a stale deadline; across the wrap
        r.render(v, now)
        assert (
            lit_cells(pico, strip, 0) != FACES[3] or lit_cells(pico, strip, 1) != FACES[1]
        ) == rolling


def test_dice_blink_while_no_move():
    r, strip, v = make()
    start(v)
    v.dice[0], v.dice[1] = 5, 5
    v.blink_until = 1000
    lit = []
    for now in range(0, 1000, 100):
        r.render(v, now)
        lit.append(lit_cells(pico, strip, 0) == FACES[5])
    # 200 ms on, 200 ms off, counted back from blink_until so that the blink ends lit
    assert lit == [False, True, True, False, False, True, True, False, False, True], lit
    r.render(v, 1000)
    assert lit_cells(pico, strip, 0) == FACES[5]


def test_dice_being_entered_blink():
    r, strip, v = make()
    start(v)
    v.entering = 0
    r.render(v, 0)
    assert lit_cells(pico, strip, 0) == tuple(range(9))
    assert rgbs(pico, strip, "die0")[0] == r.colours.rgb(E_CURSOR)
    r.render(v, 256)
    assert lit_cells(pico, strip, 0) == ()
    v.dice[0], v.entering = 4, 1
    r.render(v, 0)
    assert lit_cells(pico, strip, 0) == FACES[4] and lit_cells(pico, strip, 1) == tuple(range(9))


def test_movable_glow_past_the_top_checker():
    r, strip, v = make()
    start(v)
    v.bar[0] = 1
    v.movable = (1 << 23) | (1 << 12) | (1 << TARGET_BAR)
    for now in (0, 300, 700):
        r.render(v, now)
        glow = r.colours.rgb(E_GLOW)
        assert rgbs(pico, strip, "p24")[2] == glow and rgbs(pico, strip, "p24")[3] == (0, 0, 0)
        assert rgbs(pico, strip, "p13")[5] == glow
        assert rgbs(pico, strip, "bar0")[1] == glow
        assert rgbs(pico, strip, "p8")[3] == (0, 0, 0)
    v.pts0[6] = 15  # a full point: the top checker alternates with the glow
    v.movable = 1 << 5
    r.render(v, 0)
    assert rgbs(pico, strip, "p6")[14] == r.colours.rgb(E_GLOW)
    r.render(v, 256)
    assert decode(r, pico, strip, "p6") == (15, 0)


def test_destinations_blink_and_selection_cursor_flash():
    r, strip, v = make()
    start(v)
    v.selected, v.dests = 23, (1 << 19) | (1 << 17)
    r.render(v, 0)
    assert rgbs(pico, strip, "p24")[1] == r.colours.rgb(E_SEL)
    assert rgbs(pico, strip, "p20")[0] == r.colours.rgb(E_DEST)
    assert rgbs(pico, strip, "p18")[0] == r.colours.rgb(E_DEST)
    r.render(v, 256)
    assert rgbs(pico, strip, "p20")[0] == (0, 0, 0)
    v.cursor = 4
    r.render(v, 256)
    assert rgbs(pico, strip, "p5")[14] == r.colours.rgb(E_CURSOR)
    v.flash_target, v.flash_until = 9, 500
    r.render(v, 300)
    assert rgbs(pico, strip, "p10") == [r.colours.rgb(E_ERR)] * 15
    r.render(v, 500)  # the grid step of 500 is 448: still lit
    assert rgbs(pico, strip, "p10") == [r.colours.rgb(E_ERR)] * 15
    r.render(v, 512)
    assert rgbs(pico, strip, "p10") == [(0, 0, 0)] * 15
    v.flash_target, v.flash_until = TARGET_DICE, 800
    r.render(v, 600)
    assert lit_cells(pico, strip, 0) == tuple(range(9))
    assert rgbs(pico, strip, "die1")[4] == r.colours.rgb(E_ERR)


def test_game_over_shows_the_result_and_a_chase():
    r, strip, v = make()
    start(v)
    for i in range(25):
        v.pts0[i] = 0
    v.off[0] = 15
    v.phase, v.winner, v.result, v.over_since = OVER, 0, 2, 1024
    sparks = []
    for now in (1000, 1024, 1152, 1280, 1600):  # the first frame a grid step before
        r.render(v, now)
        assert lit_cells(pico, strip, 0) == FACES[2] and lit_cells(pico, strip, 1) == FACES[2]
        assert rgbs(pico, strip, "die0")[0] == (255, 150, 50)
        tray = rgbs(pico, strip, "off0")
        sparks.append(tray.index(r.colours.rgb(E_SPARK)))
    assert sparks[:4] == [0, 0, 1, 2] and len(set(sparks)) == 4


def test_menu_on_the_dice_over_a_dimmed_board():
    r, strip, v = make()
    start(v)
    r.render(v, 0)
    before = sum(rgbs(pico, strip, "p13")[0])
    v.phase, v.menu_item, v.menu_value = MENU, 4, 2
    r.render(v, 0)
    assert lit_cells(pico, strip, 0) == FACES[5] and lit_cells(pico, strip, 1) == FACES[3]
    assert rgbs(pico, strip, "die0")[0] == r.colours.rgb(E_MENU)
    assert 0 < sum(rgbs(pico, strip, "p13")[0]) < before // 2
    assert decode(r, pico, strip, "p13") == (5, 0)


def sim(rgb, m):
    """Viénot et al. 1999: a colour as seen with protanopia or deuteranopia (sRGB 0-255)."""

    def lin(c):
        c = c / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    def gam(x):
        x = min(max(x, 0.0), 1.0)
        return 255 * (12.92 * x if x <= 0.0031308 else 1.055 * x ** (1 / 2.4) - 0.055)

    li = [lin(c) for c in rgb]
    return [gam(sum(m[i][j] * li[j] for j in range(3))) for i in range(3)]


PROTAN = ((0.11238, 0.88762, 0.0), (0.11238, 0.88762, 0.0), (0.00401, -0.00401, 1.0))
DEUTAN = ((0.29275, 0.70725, 0.0), (0.29275, 0.70725, 0.0), (-0.02234, 0.02234, 1.0))


def test_palettes_and_the_colour_blind_one():
    assert len(PALETTE_NAMES) == PALETTE_COUNT == 3
    # on the points: players 0/1, glow, destination, selection, cursor
    slots = (0, 1, 2, 3, 4, 6)
    for pal in range(PALETTE_COUNT):
        colours = [tuple(PALETTES[pal * 26 + s * 3 + k] for k in range(3)) for s in slots]
        assert len(set(colours)) == len(colours), pal
    colours = [[PALETTES[26 + s * 3 + k] for k in range(3)] for s in slots]
    for m in (PROTAN, DEUTAN):
        seen = [sim(c, m) for c in colours]
        for i in range(len(seen)):
            for j in range(i):
                d = sum((seen[i][k] - seen[j][k]) ** 2 for k in range(3)) ** 0.5
                assert d > (200 if (i, j) == (1, 0) else 100), (slots[i], slots[j], d)


def _writes_in(v, first, ms=4000, every=5):
    """Strip writes while rendering `v` every `every` ms for `ms` ms from `first`, after the
    first frame; renderer and strip counters agree."""
    r, strip, _ = make(now_ms=first)
    r.render(v, first)
    before = strip.writes
    for now in range(first + every, first + ms + 1, every):
        r.render(v, now)
    assert r.writes == strip.writes
    # drawn at most once a grid step (and once more for the first frame), a still view once
    assert r.draws <= ms // STEP_MS + 2 and (r.draws == 1) == (strip.writes == before)
    return (strip.writes - before) * 1000 // ms


def test_time_alone_writes_the_strip_a_bounded_number_of_times():
    """However often render() is called, animations move on the 64 ms grid: the glow alone
    (a person to move, nothing pressed) at most 10 writes a second, any scene at most 16."""
    cases = []
    for kind in ("still", "glow", "person", "board", "rolling", "over", "entering"):
        v = View()
        start(v)
        v.dice[0], v.dice[1] = 5, 2
        first = 10000 + len(cases) * 7  # not on the grid
        if kind == "still":  # waiting for ROLL: nothing moves
            v.phase, v.dice_used[0], v.dice_used[1] = ROLL, 2, 2
        elif kind == "glow":
            v.movable = (1 << 23) | (1 << 12) | (1 << 7) | (1 << 5)
        elif kind == "person":  # every highlight of a person's move at once
            v.movable, v.selected, v.cursor = (1 << 12) | (1 << 7), 23, 17
            v.dests, v.dice_used[0] = (1 << 19) | (1 << 17), 1
        elif kind == "board":  # the board's step: its checker selected, the destination blinks
            v.selected, v.dests = 12, 1 << 7
        elif kind == "rolling":
            v.rolling_until = first + 5000
            v.movable = 1 << 12
        elif kind == "over":
            v.phase, v.winner, v.result, v.over_since = OVER, 1, 1, first
        else:
            v.entering = 1
        per_s = _writes_in(v, first)
        cases.append((kind, per_s))
        assert per_s <= (10 if kind in ("still", "glow") else 16), (kind, per_s)
        assert (per_s == 0) == (kind == "still"), (kind, per_s)  # the others do animate
    assert dict(cases)["rolling"] >= 14  # a new face every grid step
