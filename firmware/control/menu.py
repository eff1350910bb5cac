# The MENU, shown on the dice: a new game, then one item per setting, stepping through the
# values the settings model defines (model/settings.py); a value chosen goes through
# Controller.configure (control/configure.py, which `config` uses without loading this). In
# the minimal layout MENU first opens the cube page (cube_page.py) when there is something
# to offer.
from display.view import target_of_button
from kernels.compat import unload as _unload
from model.settings import FLAG, LEVELS, PALETTES, PLAYER_MODES

from control.refusal import fail

# The match lengths the menu steps through (`config` takes any of 0-25; 0 is money play).
MATCH_LENGTHS = (0, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25)
# (name in `menu` events, setting, the values the menu steps through: None for the board's
# brightness levels). The first item is a new game; the seventh (level) shows all nine cells
# on the first die (the renderer: past 6); host/ledgammon/wording.py names them in order.
ITEMS = (
    ("new", None, ()),
    ("brightness", "brightness", None),
    ("autoplay", "autoplay", FLAG),
    ("dice", "physical_dice", FLAG),
    ("palette", "palette", range(PALETTES)),
    ("players", "players", PLAYER_MODES),
    ("level", "level", LEVELS),
    ("match", "match_length", MATCH_LENGTHS),  # from the next new match (model/settings.py)
    ("cube", "cube", FLAG),
    ("jacoby", "jacoby", FLAG),
)


def _values(settings, item):
    values = ITEMS[item][2]
    return settings.levels if values is None else values


def value(settings, item):
    """The value item `item` shows: the index of the setting in its values (brightness: of
    the level at or just above it; 0 for a new game)."""
    key = ITEMS[item][1]
    if key is None:
        return 0
    now = getattr(settings, key)
    if key == "players":
        now = tuple(now)
    values = _values(settings, item)
    for i in range(len(values)):
        if values[i] == now or (key == "brightness" and values[i] > now):
            return i
    return len(values) - 1 if key == "brightness" else 0


def press(ctl, name, now):
    """MENU: opens the menu, goes to the next item, closes it after the last. Another button
    while the menu is open: the next or previous value of the item. Once the menu is closed
    (after the last item, or by its new game) this module is dropped: a board set up with
    the menu then plays without its code in the heap (the next MENU loads it again)."""
    try:
        return _press(ctl, name, now)
    finally:
        if ctl.menu_item < 0:
            _unload("control.menu")


def _press(ctl, name, now):
    item = ctl.menu_item
    if name == "MENU":
        if item < 0 and _cube_first(ctl):
            from control import cube_page

            return cube_page.open_page(ctl, name, now)
        item = item + 1 if item + 1 < len(ITEMS) else -1
        ev = {"event": "menu", "item": None}
        if item >= 0:
            ev = {"event": "menu", "item": ITEMS[item][0], "value": value(ctl.settings, item)}
        ctl.emit(ev)
        return ctl.open_menu(item, now)
    if name in ("ROLL", "RIGHT", "SELECT"):
        delta = 1
    elif name in ("UNDO", "LEFT"):
        delta = -1
    else:
        t = target_of_button(name)
        return fail(ctl, "wrong_phase", "the menu is open", name, t, now)
    key = ITEMS[item][1]
    if key is None:  # a new game: one value, chosen forward but not with the cursor's RIGHT
        if delta > 0 and name != "RIGHT":
            ctl.new_game(now)
        else:
            ctl.refresh(now)
        return
    values = _values(ctl.settings, item)
    ctl.configure(key, values[(value(ctl.settings, item) + delta) % len(values)], now)


def _cube_first(ctl):
    """The minimal layout's MENU opens the cube page first on the turn of a person who may
    offer something, in a game with a Match (the cube or a match to points on)."""
    if ctl.layout != "minimal" or ctl.page is not None or ctl.game.mp is None:
        return False
    if ctl.offer_waiting():
        return False
    from control import cube_page

    return bool(cube_page.options(ctl)[1])

