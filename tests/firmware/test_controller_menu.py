# MENU: items, values, a new game, settings saved and read back at boot.
import gc

import fakes
from display.view import MENU, PALETTE_COUNT
from hw.storage import SETTINGS
from model.game import MOVE, OPENING
from model.settings import DEFAULT_LEVELS, PALETTES, Settings


def test_menu_walks_items_and_closes():
    ctl, rec = fakes.make(keep=16)
    v = ctl.view
    ctl.press("MENU", 10)
    assert v.phase == MENU and v.menu_item == 0 and v.game_phase == OPENING
    assert rec.of("menu")[-1]["item"] == "new"
    items = []
    for _ in range(9):
        ctl.press("MENU", 20)
        items.append(rec.of("menu")[-1]["item"])
    assert items == ["brightness", "autoplay", "dice", "palette", "players", "level", "match",
                     "cube", "jacoby"]
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
    assert ctl.settings.players == ["human", "board"] and v.menu_value == 1, rec.of("error")
    assert ctl.bot, rec.of("error")
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
    for _ in range(11):  # every item, then closed
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
        ("match_length", 26),
        ("match_length", -1),
        ("match_length", True),
        ("cube", 2),
        ("jacoby", "on"),
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
        "match_length": 0,
        "cube": False,
        "jacoby": True,
    }
    fakes.done(ctl)


def test_config_refuses_values_of_the_wrong_kind_and_says_what_it_takes():
    """`config` (issue 12 item 9): a dict is no pair of sides, 1.0 no flag, and brightness
    says the range it accepts (1-255: 0 is refused); nothing changes, nothing is saved."""
    ctl, rec = fakes.make(keep=16)
    ctl.configure("palette", 1, 5)  # one file on flash to compare against
    before = ctl.settings.as_dict()
    text = fakes.get(ctl.store.root, SETTINGS)
    pair = 'players: a pair of "human" or "board"'
    light = "brightness: a whole number 1-255"
    for key, value, says in (
        ("players", {"human": 1, "board": 2}, pair),
        ("players", {"human": "board"}, pair),
        ("players", ["human", "board", "board"], pair),
        ("players", ("board",), pair),
        ("players", "hb", pair),
        ("autoplay", 1.0, "autoplay: true or false"),
        ("autoplay", 0.0, "autoplay: true or false"),
        ("autoplay", 2, "autoplay: true or false"),
        ("physical_dice", "true", "physical_dice: true or false"),
        ("brightness", 0, light),
        ("brightness", 256, light),
        ("brightness", 128.0, light),
        ("brightness", True, light),
        ("palette", True, "palette: a whole number 0-2"),
        ("palette", -1, "palette: a whole number 0-2"),
        ("level", "Easy", 'level: "easy" or "strong"'),
        ("volume", 3, "no setting 'volume'"),
    ):
        rec.events = []
        ok, err = ctl.configure(key, value, 10)
        assert not ok and err == {"code": "bad_args", "message": says}, (key, value, err)
        assert ctl.settings.as_dict() == before and not rec.of("config"), (key, value)
        assert fakes.get(ctl.store.root, SETTINGS) == text, (key, value)
    # the edges of what is taken: 1 and 255, flags as 0/1, a pair as a tuple
    for key, value, kept in (
        ("brightness", 1, 1),
        ("brightness", 255, 255),
        ("autoplay", 1, True),
        ("autoplay", 0, False),
        ("players", ("human", "human"), ["human", "human"]),
        ("palette", PALETTES - 1, PALETTES - 1),
    ):
        ok, res = ctl.configure(key, value, 20)
        assert ok and res["settings"][key] == kept and getattr(ctl.settings, key) == kept
        assert type(getattr(ctl.settings, key)) is type(kept), (key, value)
    fakes.done(ctl)


def test_menu_and_config_take_the_same_values():
    """Every value the menu steps to is one `config` accepts, and the menu's palettes are
    the renderer's."""
    assert PALETTES == PALETTE_COUNT
    ctl, rec = fakes.make(keep=64)
    for item in range(1, 10):
        for _ in range(item + 1):
            ctl.press("MENU", 10)
        for _ in range(6):
            ctl.press("RIGHT", 11)
            d = rec.of("config")[-1]["settings"]
            scratch = Settings(ctl.settings.levels)
            for key in d:
                scratch.set(key, d[key])  # raises if the menu made a value config refuses
            assert scratch.as_dict() == d
        while ctl.menu_item >= 0:
            ctl.press("MENU", 12)
    assert ctl.configure("players", ["human", "human"], 13)[0]  # the board's player leaves
    assert ctl.bot is None
    fakes.done(ctl)


class _NoRoom:
    """An autoplay module whose player cannot be made (a heap with no room left for it)."""

    class Bot:
        def __init__(self):
            raise MemoryError("memory allocation failed")


def test_a_board_player_that_cannot_load_gives_the_sides_back_to_people():
    import sys

    from kernels.compat import unload

    real = sys.modules.get("control.autoplay")
    unload("control.autoplay")  # also from its package, where an import would find it first
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


def test_the_menu_code_leaves_the_heap_once_the_menu_is_closed():
    import sys

    ctl, rec = fakes.make(keep=16)
    ctl.press("MENU", 10)
    assert "control.menu" in sys.modules and ctl.menu_item == 0
    for _ in range(5):  # to players: human against the board
        ctl.press("MENU", 20)
    ctl.press("RIGHT", 21)
    assert ctl.settings.players == ["human", "board"] and ctl.bot
    assert "control.menu" in sys.modules  # open: kept between presses
    for _ in range(5):  # past the last item: closed
        ctl.press("MENU", 30)
    assert ctl.menu_item == -1 and "control.menu" not in sys.modules
    ctl.press("MENU", 40)  # loaded again for the next MENU
    assert ctl.menu_item == 0 and rec.of("menu")[-1]["item"] == "new"
    ctl.press("ROLL", 41)  # its new game closes it too
    assert ctl.menu_item == -1 and "control.menu" not in sys.modules
    fakes.done(ctl)
