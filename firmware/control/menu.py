# The MENU, shown on the dice: new game, brightness, autoplay, dice, colours, players, level.
import json

from display.view import PALETTE_COUNT, target_of_button
from model.settings import KEYS, LEVELS, PLAYER_MODES, SETTINGS_VERSION

from control import buttons

# The seventh item (level) shows all nine cells on the first die (the renderer: past 6).
ITEMS = ("new", "brightness", "autoplay", "dice", "palette", "players", "level")


def count(ctl, item):
    """How many values item `item` has."""
    if item == 1:
        return len(ctl.settings.levels)
    if item in (2, 3, 6):
        return 2
    if item == 4:
        return PALETTE_COUNT
    if item == 5:
        return len(PLAYER_MODES)
    return 1


def value(ctl, item):
    s = ctl.settings
    if item == 1:
        for i in range(len(s.levels)):  # the level at or just above the brightness
            if s.levels[i] >= s.brightness:
                return i
        return len(s.levels) - 1
    if item == 2:
        return 1 if s.autoplay else 0
    if item == 3:
        return 1 if s.physical_dice else 0
    if item == 4:
        return s.palette
    if item == 5:
        return max(players_index(s.players), 0)
    if item == 6:
        return 0 if s.level == LEVELS[0] else 1
    return 0


def _set(ctl, item, v):
    s = ctl.settings
    if item == 1:
        s.brightness = s.levels[v]
    elif item == 2:
        s.autoplay = v == 1
    elif item == 3:
        s.physical_dice = v == 1
    elif item == 4:
        s.palette = v
    elif item == 5:
        s.players = list(PLAYER_MODES[v])
    elif item == 6:
        s.level = LEVELS[v]


def _next_item(ctl, now):
    """MENU: opens the menu, goes to the next item, closes it after the last."""
    if ctl.menu_item < 0:
        ctl.entry = None
        ctl.sel = -1
        ctl.dests = {}
        ctl.menu_item = 0
    elif ctl.menu_item + 1 < len(ITEMS):
        ctl.menu_item += 1
    else:
        ctl.menu_item = -1
    item = ctl.menu_item
    if item < 0:
        ctl.emit({"event": "menu", "item": None})
    else:
        ctl.emit({"event": "menu", "item": ITEMS[item], "value": value(ctl, item)})
    ctl.refresh(now)


def press(ctl, name, now):
    """MENU, or a button while the menu is open: the next or previous value of the item."""
    if name == "MENU":
        return _next_item(ctl, now)
    item = ctl.menu_item
    if name in ("ROLL", "RIGHT", "SELECT"):
        delta = 1
    elif name in ("UNDO", "LEFT"):
        delta = -1
    else:
        return buttons.fail(
            ctl, "wrong_phase", "the menu is open", name, target_of_button(name), now
        )
    if item == 0:
        if delta > 0 and name != "RIGHT":
            ctl.new_game(now)
        else:
            ctl.refresh(now)
        return
    _set(ctl, item, (value(ctl, item) + delta) % count(ctl, item))
    settings_changed(ctl, now)


def configure(ctl, key, value, now):
    try:
        set_setting(ctl.settings, key, value)
    except ValueError as exc:
        return False, {"code": "bad_args", "message": str(exc)}
    settings_changed(ctl, now)
    return True, {"settings": settings_dict(ctl.settings)}


def settings_changed(ctl, now):
    """Saves the settings, announces them and shows them."""
    if ctl.entry and not ctl.settings.physical_dice:
        ctl.entry = None
    try:
        ctl.store.save_settings(settings_json(ctl.settings))
    except OSError as exc:
        ctl.emit({"event": "error", "code": "storage", "message": repr(exc)})
    ctl.emit({"event": "config", "settings": settings_dict(ctl.settings)})
    sides_changed(ctl, now)


def sides_changed(ctl, now):
    """The board's own player (autoplay.py) joins when a side becomes the board's, and
    leaves with its weights when none is."""
    if "board" not in ctl.settings.players:
        if ctl.bot is not None:
            from control import autoplay

            ctl.bot = autoplay.unload()  # None
    elif ctl.bot is None:
        start_bot(ctl)
    ctl.turn_changed(now)


def start_bot(ctl):
    """Creates the board's player; when it cannot be loaded (no memory left for its code),
    the sides go back to people, and the error says why, rather than a side nobody plays."""
    try:
        from control import autoplay

        ctl.bot = autoplay.Bot()
    except Exception as exc:  # MemoryError above all; the board must go on
        ctl.bot = None
        ctl.settings.players = list(PLAYER_MODES[0])
        message = "the board cannot play a side: %r" % (exc,)
        ctl.emit({"event": "error", "code": "no_player", "message": message})
        try:
            ctl.store.save_settings(settings_json(ctl.settings))
        except OSError:
            pass


def settings_dict(s):
    d = {}
    for key in KEYS:
        d[key] = getattr(s, key)
    d["players"] = list(s.players)
    return d


def settings_json(s):
    d = settings_dict(s)
    d["v"] = SETTINGS_VERSION
    return json.dumps(d, separators=(",", ":"))


def players_index(value):
    """Index in PLAYER_MODES of a players list, -1 if it is none of them."""
    try:
        value = tuple(value)
    except TypeError:
        return -1
    for i in range(len(PLAYER_MODES)):
        if PLAYER_MODES[i] == value:
            return i
    return -1


def set_setting(s, key, value):
    """Changes one setting of `s`; ValueError (nothing changed) for a bad key or value."""
    if key == "players":
        mode = players_index(value)
        if mode < 0:
            raise ValueError("players: one of %r" % (PLAYER_MODES,))
        s.players = list(PLAYER_MODES[mode])
        return
    if key == "level":
        if value not in LEVELS:
            raise ValueError("level: one of %r" % (LEVELS,))
        s.level = LEVELS[LEVELS.index(value)]  # the interned string, not the request's
        return
    if key not in KEYS:
        raise ValueError("no setting %r" % (key,))
    if key == "autoplay" or key == "physical_dice":
        if value not in (True, False):  # also 0 and 1
            raise ValueError("%s: true or false" % key)
        value = bool(value)
    else:
        top = 255 if key == "brightness" else PALETTE_COUNT - 1
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= top:
            raise ValueError("%s: 0-%d" % (key, top))
        if key == "brightness" and not value:
            raise ValueError("brightness: 1-255")
    setattr(s, key, value)
