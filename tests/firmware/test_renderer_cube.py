# cube_leds.py and dice_leds.py: the cube's rows, offers, the score between games, the end of
# a match, read back from the frame the strip was sent.
from hw.output import FakeStrip

STRIP = FakeStrip(452)  # first, as on the board (see test_renderer.py)

from display.palette import E_CUBE, E_DEST, E_ERR, E_FULL, E_HALF, E_YES  # noqa: E402
from display.renderer import STEP_MS, Renderer, segment_pixels  # noqa: E402
from display.view import (  # noqa: E402
    ADVICE_ACCEPT,
    ADVICE_DOUBLE,
    ADVICE_TAKE,
    ADVICE_TOO_GOOD,
    ASK_ACCEPT,
    ASK_DROP,
    ASK_OFFER,
    ASK_TAKE,
    OFFER_DOUBLE,
    OFFER_RESIGN,
    View,
)
from hw.boards import pico  # noqa: E402

ROLL, OVER, OPENING = 1, 4, 0
DARK = (0, 0, 0)


def make():
    STRIP.writes = 0
    v = View()
    v.brightness = 255
    v.phase = v.game_phase = ROLL
    v.cube_on = 1
    return Renderer(pico, STRIP, 0), v


def row(r, name):
    return [STRIP.rgb(i) for i in segment_pixels(pico, name)]


def lit(r, name, entry):
    """How many LEDs of a segment, from its base, show `entry` (the rest must be dark)."""
    c = r.colours.rgb(entry)
    leds = row(r, name)
    n = 0
    while n < len(leds) and leds[n] == c:
        n += 1
    assert all(x == DARK for x in leds[n:]), (name, leds)
    return n


def test_a_centred_cube_lights_the_first_led_of_both_rows():
    r, v = make()
    r.render(v, 0)
    assert lit(r, "cube0", E_CUBE) == lit(r, "cube1", E_CUBE) == 1


def test_an_owned_cube_is_a_bar_of_its_value_in_the_owners_row():
    r, v = make()
    for owner in (0, 1):
        for k in range(1, 7):
            v.cube, v.cube_owner = 1 << k, owner
            r.render(v, 0)
            assert lit(r, "cube%d" % owner, E_FULL + owner) == k
            assert row(r, "cube%d" % (1 - owner)) == [DARK] * 6


def test_no_cube_rows_without_cube_play_and_red_marks_in_the_crawford_game():
    r, v = make()
    v.cube_on = 0
    r.render(v, 0)
    assert row(r, "cube0") == row(r, "cube1") == [DARK] * 6
    v.cube_on = v.crawford = 1
    r.render(v, 0)
    assert lit(r, "cube0", E_ERR) == lit(r, "cube1", E_ERR) == 1


def frames(r, v, steps=8):
    """The (cube0, cube1, turn0, turn1) pictures over `steps` steps of the clock."""
    out = []
    for k in range(steps):
        r.render(v, k * STEP_MS)
        out.append((row(r, "cube0"), row(r, "cube1"), row(r, "turn0"), row(r, "turn1")))
    return out


def test_a_double_blinks_the_cube_offered_in_the_answerers_row_and_their_turn_led():
    r, v = make()
    v.offer, v.offer_by, v.offer_value = OFFER_DOUBLE, 0, 4  # player 0 redoubles to 4
    v.cube, v.cube_owner = 2, 0
    v.ask, v.ask_of = ASK_TAKE, 1
    seen = frames(r, v)
    c = r.colours.rgb(E_CUBE)
    on = [f for f in seen if f[1][0] != DARK]
    off = [f for f in seen if f[1][0] == DARK]
    assert on and off  # it blinks
    for f in on:
        assert f[1] == [c, c] + [DARK] * 4  # 4 = two LEDs, in player 1's row
        assert f[3] == [r.colours.rgb(E_FULL + 1)]  # whose answer it is
    for f in seen:
        assert f[0][0] == r.colours.rgb(E_FULL) and f[0][1:] == [DARK] * 5  # the cube at 2
        assert f[2] == [DARK]
    assert all(f[1] == [DARK] * 6 and f[3] == [DARK] for f in off)


def test_a_resignation_blinks_its_value_and_drop_is_a_red_row():
    r, v = make()
    v.offer, v.offer_by, v.offer_value = OFFER_RESIGN, 1, 2  # player 1 resigns a gammon
    v.ask, v.ask_of = ASK_ACCEPT, 0
    d = r.colours.rgb(E_DEST)
    shown = [f[0] for f in frames(r, v)]
    assert [d, d] + [DARK] * 4 in shown and [DARK] * 6 in shown
    v.offer, v.offer_by, v.offer_value, v.ask, v.ask_of = OFFER_DOUBLE, 1, 2, ASK_DROP, 0
    assert all(f[0] == [r.colours.rgb(E_ERR)] * 6 for f in frames(r, v))


def test_the_cube_page_shows_what_would_be_offered_in_the_opponents_row():
    r, v = make()
    v.ask, v.ask_of, v.shown_kind, v.shown_value = ASK_OFFER, 0, OFFER_DOUBLE, 2
    c = r.colours.rgb(E_CUBE)
    shown = [f[1] for f in frames(r, v)]
    assert [c] + [DARK] * 5 in shown and [DARK] * 6 in shown
    v.shown_kind, v.shown_value = OFFER_RESIGN, 3
    d = r.colours.rgb(E_DEST)
    assert [d, d, d] + [DARK] * 3 in [f[1] for f in frames(r, v)]


def test_the_score_and_the_goal_on_the_trays_between_games():
    r, v = make()
    v.match_length, v.score0, v.score1 = 5, 3, 0
    v.phase = v.game_phase = OPENING
    r.render(v, 0)
    t0, t1 = row(r, "off0"), row(r, "off1")
    p0, cube = r.colours.rgb(E_FULL), r.colours.rgb(E_CUBE)
    assert t0[:5] == [p0, p0, p0, DARK, cube] and t0[5:] == [DARK] * 10
    assert t1[:5] == [DARK] * 4 + [cube]
    v.match_length, v.score0, v.score1 = 25, 7, 24  # two points a LED past 15
    r.render(v, 0)
    t0, t1 = row(r, "off0"), row(r, "off1")
    assert t0[:5] == [p0] * 3 + [r.colours.rgb(E_HALF), DARK] and t0[12] == cube
    assert t1[:12] == [r.colours.rgb(E_FULL + 1)] * 12 and t1[12] == cube
    v.match_length = 0  # money play: the trays hold the checkers borne off, as ever
    v.off[0] = 2
    r.render(v, 0)
    assert row(r, "off0")[2:] == [DARK] * 13 and row(r, "off0")[0] != DARK


def test_the_end_of_a_match_runs_lights_round_every_point():
    r, v = make()
    v.phase = v.game_phase = OVER
    v.winner, v.result, v.match_length, v.score1, v.match_over = 1, 2, 3, 4, 1
    tips = []
    for k in range(4):
        r.render(v, k * 128)
        tips.append([row(r, "p%d" % i)[-1] != DARK for i in range(1, 25)])
    assert all(sum(t) == 8 for t in tips) and tips[0] != tips[1]
    assert tips[0] == tips[3]  # every third point, moving on a point each 128 ms


def test_the_strip_is_written_only_when_the_cube_picture_moves():
    """A still cube and score: one write however often render() is called; an offer blinks
    at 256 ms, so about four writes a second and never one a frame."""
    r, v = make()
    v.cube, v.cube_owner, v.match_length, v.score0 = 4, 1, 5, 2
    v.phase = v.game_phase = OPENING
    for k in range(100):  # two seconds of 20 ms frames
        r.render(v, k * 20)
    assert STRIP.writes == 1
    v.phase = v.game_phase = ROLL
    v.offer, v.offer_by, v.offer_value, v.ask, v.ask_of = OFFER_DOUBLE, 1, 8, ASK_TAKE, 0
    STRIP.writes = 0
    for k in range(100):
        r.render(v, 2000 + k * 20)
    assert 6 <= STRIP.writes <= 10


def _advice_row(r, code):
    """HINT's advice as its row shows it: dots of green (act) or red (do not), too good red
    with green between."""
    yes, no = r.colours.rgb(E_YES), r.colours.rgb(E_ERR)
    if code == ADVICE_TOO_GOOD:
        return [no, yes] * 3
    if code in (ADVICE_DOUBLE, ADVICE_TAKE, ADVICE_ACCEPT):
        return [yes, DARK] * 3
    return [no, DARK] * 3


def _steady(r, v, name, want, steps=8):
    """Segment `name` shows `want` in every step of the clock; the turn LEDs' states seen."""
    turns = set()
    for k in range(steps):
        r.render(v, k * STEP_MS)
        assert row(r, name) == want, (name, row(r, name), want)
        turns.add((STRIP.rgb(segment_pixels(pico, "turn0")[0]),
                   STRIP.rgb(segment_pixels(pico, "turn1")[0])))
    return turns


def test_hints_cube_advice_is_steady_dots_in_the_deciders_row():
    r, v = make()
    r.render(v, 0)
    assert len({r.colours.rgb(e) for e in (E_YES, E_ERR, E_CUBE, E_DEST)}) == 4
    cube = [r.colours.rgb(E_CUBE)] + [DARK] * 5
    for p in (0, 1):
        for code in range(1, 8):
            v.advice, v.advice_of = code, p
            _steady(r, v, "cube%d" % p, _advice_row(r, code))
            assert row(r, "cube%d" % (1 - p)) == cube  # the other row as it was
    v.advice, v.advice_of = 0, -1
    r.render(v, 0)
    assert row(r, "cube0") == row(r, "cube1") == cube


def test_the_advice_on_an_offer_stays_steady_while_the_question_blinks():
    """The answerer's row holds the advice instead of the offer's blinking bar, their turn
    LED still blinks: the question is still asked. A resignation's advice shows without the
    cube too (cubeless money play)."""
    r, v = make()
    v.offer, v.offer_by, v.offer_value = OFFER_DOUBLE, 0, 2
    v.ask, v.ask_of = ASK_TAKE, 1
    v.advice, v.advice_of = ADVICE_TAKE, 1
    r.render(v, 0)
    turns = _steady(r, v, "cube1", _advice_row(r, ADVICE_TAKE))
    assert {t[1] for t in turns} == {DARK, r.colours.rgb(E_FULL + 1)}  # it blinks
    v.cube_on = 0
    v.offer, v.offer_by, v.offer_value, v.ask, v.ask_of = OFFER_RESIGN, 1, 1, ASK_ACCEPT, 0
    v.advice, v.advice_of = ADVICE_ACCEPT, 0
    _steady(r, v, "cube0", _advice_row(r, ADVICE_ACCEPT))
    _steady(r, v, "cube1", [DARK] * 6)


def test_a_still_advice_writes_the_strip_once():
    r, v = make()
    v.advice, v.advice_of = ADVICE_DOUBLE, 0
    for k in range(100):  # two seconds of 20 ms frames
        r.render(v, k * 20)
    assert STRIP.writes == 1
