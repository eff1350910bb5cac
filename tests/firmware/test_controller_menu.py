# MENU: items, values, a new game, settings saved and read back at boot.
import gc

import fakes
from display.view import MENU, PALETTE_COUNT
from model.game import MOVE, OPENING
from model.settings import DEFAULT_LEVELS


def test_menu_walks_items_and_closes():
    ctl, rec = fakes.make(keep=16)
    v = ctl.view
    ctl.press("MENU", 10)
    assert v.phase == MENU and v.menu_item == 0 and v.game_phase == OPENING
    assert rec.of("menu")[-1]["item"] == "new"
    items = []
    for _ in range(6):
        ctl.press("MENU", 20)
        items.append(rec.of("menu")[-1]["item"])
    assert items == ["brightness", "autoplay", "dice", "palette", "players", "level"]
    ctl.press("MENU", 30)  # after the last item: closed
    assert v.phase == OPENING and ctl.menu_item == -1
    fakes.done(ctl)


def test_values_change_and_persist():
    gc.collect()
    ctl, rec = fakes.make(keep=16)
    root = ctl.store.root
    v = ctl.view
    ctl.press("MENU", 10)
    ctl.press("MENU", 11)  # brightness
    start = v.menu_value
    assert DEFAULT_LEVELS[start] == v.brightness
    ctl.press("RIGHT", 12)
    assert v.menu_value == start + 1 and v.brightness == DEFAULT_LEVELS[start + 1]
    assert rec.of("config")[-1]["settings"]["brightness"] == v.brightness
    ctl.press("UNDO", 13)
    ctl.press("LEFT", 14)
    assert v.brightness == DEFAULT_LEVELS[start - 1]
    ctl.press("MENU", 15)  # autoplay
    ctl.press("SELECT", 16)
    assert ctl.settings.autoplay is True and v.menu_value == 1
    ctl.press("MENU", 17)  # dice
    ctl.press("ROLL", 18)
    assert ctl.settings.physical_dice is True
    ctl.press("MENU", 19)  # palette
    for i in range(PALETTE_COUNT):
        assert v.palette == i
        ctl.press("RIGHT", 20)
    assert v.palette == 0
    ctl.press("LEFT", 21)
    assert v.palette == PALETTE_COUNT - 1
    ctl.press("MENU", 22)  # players: human/human, human/board, board/human, board/board
    assert v.menu_value == 0 and ctl.bot is None
    ctl.press("RIGHT", 23)
    assert ctl.settings.players == ["human", "board"] and v.menu_value == 1 and ctl.bot
    ctl.press("LEFT", 23)
    ctl.press("LEFT", 23)
    assert ctl.settings.players == ["board", "board"] and v.menu_value == 3
    ctl.press("RIGHT", 23)
    assert ctl.settings.players == ["human", "human"] and ctl.bot is None
    ctl.press("p5", 24)  # a point while the menu is open
    assert rec.of("error")[-1]["code"] == "wrong_phase" and v.flash_target == 4
    ctl.press("MENU", 25)  # level: easy, strong
    assert v.menu_item == 6 and v.menu_value == 1 and ctl.settings.level == "strong"
    ctl.press("ROLL", 26)
    assert ctl.settings.level == "easy" and v.menu_value == 0
    assert rec.of("config")[-1]["settings"]["level"] == "easy"
    brightness = v.brightness
    ctl = rec = v = None
    gc.collect()
    ctl, rec = fakes.make(root)  # power off and on: the settings come back
    s = ctl.settings
    assert s.brightness == brightness and s.autoplay and s.physical_dice
    assert s.players == ["human", "human"] and s.level == "easy" and ctl.bot is None
    assert s.palette == PALETTE_COUNT - 1 and ctl.view.palette == PALETTE_COUNT - 1
    assert ctl.boot_error is None
    fakes.done(ctl)


def test_new_game_item():
    gc.collect()
    ctl, rec = fakes.make(keep=16)
    ctl.roll(5, (6, 1))
    ctl.press("p13", 6)
    ctl.press("p7", 7)
    ctl.press("MENU", 10)
    ctl.press("RIGHT", 11)  # one value only: nothing happens
    assert ctl.game.game_number == 1 and ctl.view.phase == MENU
    ctl.press("SELECT", 12)
    assert ctl.game.game_number == 2 and ctl.game.phase == OPENING
    assert ctl.view.phase == OPENING and rec.of("new")[-1]["game"] == 2
    fakes.done(ctl)


def test_menu_closes_over_a_turn_in_play():
    ctl, rec = fakes.make(keep=16)
    ctl.roll(5, (6, 1))
    ctl.press("p13", 6)
    assert ctl.view.selected == 12
    for _ in range(8):  # every item, then closed
        ctl.press("MENU", 10)
    assert ctl.view.phase == MOVE and ctl.view.selected == -1 and ctl.view.movable
    fakes.done(ctl)


def test_configure():
    ctl, rec = fakes.make(keep=16)
    ok, res = ctl.configure("palette", 2)
    assert ok and res["settings"]["palette"] == 2 and ctl.view.palette == 2
    for key, value in (
        ("palette", 3),
        ("brightness", 0),
        ("brightness", 300),
        ("autoplay", "yes"),
        ("players", ["board", "nobody"]),
        ("players", "board"),
        ("players", None),
        ("level", "hard"),
        ("level", 1),
        ("level", ["easy"]),
        ("volume", 1),
    ):
        ok, err = ctl.configure(key, value)
        assert not ok and err["code"] == "bad_args", (key, value)
    assert ctl.settings.as_dict() == {
        "brightness": 128,
        "autoplay": False,
        "physical_dice": False,
        "palette": 2,
        "players": ["human", "human"],
        "level": "strong",
    }
    fakes.done(ctl)


class _NoRoom:
    """An autoplay module whose player cannot be made (a heap with no room left for it)."""

    class Bot:
        def __init__(self):
            raise MemoryError("memory allocation failed")


def test_a_board_player_that_cannot_load_gives_the_sides_back_to_people():
    import sys

    real = sys.modules.get("control.autoplay")
    sys.modules["control.autoplay"] = _NoRoom
    try:
        ctl, rec = fakes.make(keep=16)
        ok, out = ctl.configure("players", ["human", "board"], 10)
        assert ctl.bot is None and ctl.settings.players == ["human", "human"]
        assert rec.of("error")[-1]["code"] == "no_player"
        assert "memory" in rec.of("error")[-1]["message"]
        # saved as people: the next boot does not try again
        again = fakes.make(root=ctl.store.root, keep=16)[0]
        assert again.settings.players == ["human", "human"] and again.bot is None
        fakes.play_game(again)  # and the game goes on by buttons
        # a saved board side that cannot be loaded at boot: the board still boots
        ctl.store.save_settings('{"players":["board","human"],"v":1}')
        booted, rec = fakes.make(root=ctl.store.root, keep=16)
        assert booted.settings.players == ["human", "human"] and booted.bot is None
        fakes.done(ctl)
    finally:
        if real is None:
            del sys.modules["control.autoplay"]
        else:
            sys.modules["control.autoplay"] = real
