"""The snapshot picture and the board layout it stands on: every LED drawn where
hardware/board.json puts it, in the colour the frame gives it."""

import os
import runpy

import pytest
from ledgammon import boardinfo, export, picture, resources, wording
from ledgammon.board_text import player_colours
from PIL import Image

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
BOARD = boardinfo.load("pico")


@pytest.fixture(scope="module")
def midgame():
    return picture.demo()


def centre(name, i):
    x, y = BOARD.positions()[name][i]
    px, py = picture._px(x, y)
    return round(px), round(py)


def test_the_board_module_and_geometry_are_read_from_the_packages_files():
    assert BOARD.name == "pico" and BOARD.led_count == 452 and BOARD.order == "GRB"
    assert sum(s.count for s in BOARD.segments.values()) == BOARD.led_count
    assert BOARD.segments["p2"].index(0) == 29  # step -1: the base is the segment's end
    assert BOARD.segments["p1"].index(0) == 0
    assert boardinfo.load("esp32s3").segments == BOARD.segments
    with pytest.raises(ValueError):
        boardinfo.load("../hardware/board")
    with pytest.raises(ValueError):
        boardinfo.load("nosuchboard")


def test_a_board_module_is_read_as_data_not_run(tmp_path):
    """The host reads the literal constants only: code in a board module never runs there."""
    path = tmp_path / "odd.py"
    path.write_text(
        "import machine\nNAME = 'odd'\nLED_COUNT = 2\nSEGMENTS = {'p1': (0, 2, 1)}\n"
        "PIN = machine.Pin(3)\nraise SystemExit\n"
    )
    assert boardinfo.read_module(str(path)) == {
        "NAME": "odd", "LED_COUNT": 2, "SEGMENTS": {"p1": (0, 2, 1)}
    }
    boards = os.path.join(resources.firmware(), "hw", "boards")
    for name in sorted(os.listdir(boards)):
        if name.endswith(".py") and name != "__init__.py":  # every generated module: all data
            path = os.path.join(boards, name)
            ran = {k: v for k, v in runpy.run_path(path).items() if not k.startswith("__")}
            assert boardinfo.read_module(path) == ran, name
    assert resources.board_json().endswith(os.path.join("hardware", "board.json"))


def test_led_places_agree_with_the_hardware_description():
    desc = runpy.run_path(os.path.join(ROOT, "hardware", "description.py"))
    want = desc["positions"](desc["load"]())  # chain index -> (x, y)
    mine = BOARD.positions()
    for name, seg in BOARD.segments.items():
        for i in range(seg.count):
            assert mine[name][i] == pytest.approx(want[seg.index(i)])


def test_decoding_takes_the_strips_byte_order():
    frame = bytearray(BOARD.led_count * 3)
    frame[29 * 3 : 29 * 3 + 3] = bytes((10, 20, 30))  # GRB: g=10 r=20 b=30
    leds = BOARD.decode(frame)
    assert leds["p2"][0] == (20, 10, 30)
    assert BOARD.decode(b"")["p1"][0] == (0, 0, 0)  # a short frame is dark, not an error


def test_screen_colours():
    assert boardinfo.to_screen((0, 0, 0)) == (0, 0, 0)
    assert boardinfo.to_screen((255, 0, 0)) == (255, 0, 0)
    dim = boardinfo.to_screen((64, 32, 0))
    assert dim[0] > 64 and dim[0] == 2 * dim[1]  # brighter for the eye, same hue
    assert boardinfo.gain(bytes((0, 128, 0))) == pytest.approx(255 / 128)
    assert boardinfo.gain(bytes((0, 2, 0)), (32,)) == pytest.approx(255 / 32)  # faint stays
    assert boardinfo.gain(b"") == 1.0
    for c, word in (((200, 0, 10), "red"), ((255, 110, 0), "orange"), ((0, 70, 255), "blue"),
                    ((255, 255, 255), "white"), ((0, 255, 40), "green"), ((0, 0, 0), "dark")):
        assert boardinfo.colour_name(c) == word


def test_every_led_is_drawn_at_its_place_in_its_colour(midgame):
    frame, state = midgame
    img = picture.render(frame, BOARD, state)
    k = boardinfo.gain(frame, BOARD.brightness_levels)
    leds = BOARD.decode(frame)
    for name, seg in BOARD.segments.items():
        for i in range(seg.count):
            c = leds[name][i]
            want = boardinfo.to_screen(c, k) if max(c) else picture.DARK_LED
            assert img.getpixel(centre(name, i)) == want, (name, i)
    colours = [boardinfo.to_screen(c, k) for c in player_colours(leds, state)]
    turn, own = state["turn"], state["selected"]
    picked = own if turn == 0 else 25 - own  # its top checker shows the selection colour
    for p in range(2):
        for kk in range(1, 25):
            seg = BOARD.segments["p%d" % kk]
            lit = [img.getpixel(centre("p%d" % kk, i)) for i in range(seg.count)]
            n = state["board"]["p%d" % p][kk - 1]
            assert lit.count(colours[p]) == n - (p == turn and kk == picked)


def test_a_dark_board_and_a_single_led(tmp_path):
    frame = bytearray(BOARD.led_count * 3)
    img = picture.render(frame, "pico")
    assert all(img.getpixel(centre(n, 0)) == picture.DARK_LED for n in BOARD.segments)
    i = BOARD.segments["die1"].index(4)
    frame[i * 3 : i * 3 + 3] = bytes((0, 255, 0))  # red at full: the die's centre pip
    img = picture.render(frame, "pico")
    assert img.getpixel(centre("die1", 4)) == (255, 0, 0)
    assert img.getpixel(centre("die1", 3)) == picture.DARK_LED
    x, y = centre("die1", 4)
    halo = img.getpixel((x, y + 12))  # between two dots: the glow reddens the felt
    felt = picture.render(bytearray(len(frame)), "pico").getpixel((x, y + 12))
    assert halo[0] > felt[0] + 20


def test_save_png_writes_a_picture_with_a_caption(tmp_path, midgame):
    frame, state = midgame
    path = str(tmp_path / "board.png")
    picture.save_png(frame, "pico", path)
    plain = Image.open(path)
    assert plain.format == "PNG" and plain.mode == "RGB" and plain.size[0] > 1000
    picture.save_png(frame, BOARD, path, state)
    captioned = Image.open(path)
    assert captioned.size == (plain.size[0], plain.size[1] + picture.CAPTION)


def test_the_demo_is_mid_game_with_a_checker_picked_up(midgame):
    frame, state = midgame
    assert state["phase"] == "move" and state["selected"] is not None
    assert 30 < sum(state["pips"]) < 2 * 167
    assert max(frame) > 0


def test_the_readme_picture_is_there():
    img = Image.open(os.path.join(ROOT, "docs", "board.png"))
    frame, state = picture.demo()
    assert img.format == "PNG"
    assert img.size == picture.render(frame, BOARD, state).size


@pytest.mark.parametrize(
    "extra, words",
    [
        ({"bot": "think"}, "Player 1 ({1}): the board is thinking"),
        ({"bot": "move", "steps": ["24/18", "13/11"]}, "the board plays 24/18 13/11"),
        ({"phase": "done", "steps": ["8/2", "6/2"]}, "the board played 8/2 6/2: ROLL for your"),
        ({"turn": 0}, "Player 0 ({0}), your turn: select a checker"),
    ],
)
def test_the_caption_says_what_the_board_is_doing(midgame, extra, words):
    """The caption is the terminal's status line (wording.py), so it knows the board's side."""
    frame, state = midgame
    leds = BOARD.decode(frame)
    st = dict(state, selected=None, settings={"players": ["human", "board"]})
    st.update({"turn": 1}, **extra)
    lines = picture.caption(leds, st)
    ids = "Position ID %s" % export.position_id(st)  # the one its Match ID goes with
    if state.get("match_id"):
        ids += " · Match ID %s" % state["match_id"]
    assert lines == [wording.status_line(st, player_colours(leds, st)), ids]
    names = [boardinfo.colour_name(c) for c in player_colours(leds, st)]
    assert words.format(*names) in lines[0], lines[0]
    plain = picture.caption(leds, dict(state, selected=None))[0]
    assert "board" not in plain and "your turn" not in plain


def _cube_state(midgame, **extra):
    frame, state = midgame
    st = dict(state, selected=None, match_length=5, score=[1, 3], cube_on=True, crawford=False,
              cube=2, cube_owner=1, offer=None)
    st.update(extra)
    return frame, st


def _ringed(img, place):
    """Whether the yellow ring of an offer is drawn around `place` (millimetres)."""
    cx, cy = picture._px(*place)
    h = 28 * picture.S / 2
    return any(img.getpixel((round(cx + dx), round(cy - h))) == picture.OFFER
               for dx in range(-5, 6))


def _cube_at(img, place):
    cx, cy = picture._px(*place)
    return img.getpixel((round(cx - 8 * picture.S), round(cy - 8 * picture.S))) == picture.CUBE


def test_the_picture_shows_the_cube_where_it_stands_and_an_offer(midgame):
    places = picture.cube_places(BOARD)
    assert places["0"][1] > places["middle"][1] > places["1"][1]  # player 0 sits below
    for owner, where in ((1, "1"), (0, "0"), (None, "middle")):
        frame, st = _cube_state(midgame, cube_owner=owner, cube=2 if owner is not None else 1)
        img = picture.render(frame, BOARD, st)
        assert _cube_at(img, places[where]), where
        assert not [p for p in ("0", "1", "middle") if p != where and _cube_at(img, places[p])]
        assert not _ringed(img, places["offer0"]) and not _ringed(img, places["offer1"])
    frame, st = _cube_state(midgame, offer={"kind": "double", "by": 1, "value": 4})
    img = picture.render(frame, BOARD, st)
    assert _ringed(img, places["offer0"]) and not _ringed(img, places["offer1"])
    lines = picture.caption(BOARD.decode(frame), st)
    assert "player 1 doubles to 4: player 0, take or drop?" in lines[0]
    assert lines[1] == "cube 2, player 1's · match to 5: 1-3"
    frame, st = _cube_state(midgame, offer={"kind": "resign", "by": 0, "value": 2})
    img = picture.render(frame, BOARD, st)
    assert _ringed(img, places["offer1"]) and not _ringed(img, places["offer0"])
    assert "player 0 resigns a gammon (4 points): player 1, accept or reject?" in (
        picture.caption(BOARD.decode(frame), st)[0])
    assert img.size[1] == picture.render(frame, BOARD, dict(st, offer=None)).size[1]
    frame, st = midgame  # cubeless money play: no cube drawn
    img = picture.render(frame, BOARD, dict(st, cube_on=False, match_length=0))
    assert not [p for p in places if _cube_at(img, places[p])]
