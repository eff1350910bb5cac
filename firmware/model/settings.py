# The board's settings (brightness, autoplay, dice, colours, players, level, the match's
# terms): plain data, the values each one takes (check: the menu, `config` and the saved
# file all go through `set`), and their save text. Saved apart from the game.
import json

DEFAULT_LEVELS = (32, 64, 128, 192, 255)  # the board module's BRIGHTNESS_LEVELS
# Who plays each side: [player 0's, player 1's] (game.py's turn numbers); "board" is the
# board's own player (control/autoplay.py).
PLAYER_MODES = (("human", "human"), ("human", "board"), ("board", "human"), ("board", "board"))
LEVELS = ("easy", "strong")  # the board player's levels (gammon.opponent.LEVELS)
PALETTES = 3  # the renderer's colour sets (display.view.PALETTE_COUNT: test_controller_menu)
KEYS = ("brightness", "autoplay", "physical_dice", "palette", "players", "level",
        "match_length", "cube", "jacoby")
FLAG = (False, True)  # the values of autoplay, physical_dice, cube and jacoby
# a file without a key (written before it existed) keeps that key's default
SETTINGS_VERSION = 1


def check(key, value):
    """The value setting `key` keeps for `value`; ValueError naming what the key takes.

    Types count: 1.0 is no flag, a dict is no pair of sides, "1" is no number.
    """
    t = type(value)
    if key == "brightness" or key == "palette" or key == "match_length":
        # brightness 0 is a dark board; match_length 0 is money play (gammon.match: 1-25)
        lo, hi = (1, 255) if key == "brightness" else (0, 25 if key[0] == "m" else PALETTES - 1)
        if t is int and lo <= value <= hi:  # not True, not 1.0
            return value
        takes = "a whole number %d-%d" % (lo, hi)
    elif key == "autoplay" or key == "physical_dice" or key == "cube" or key == "jacoby":
        if t is bool or (t is int and 0 <= value <= 1):
            return FLAG[value]
        takes = "true or false"
    elif key == "players":
        if (t is list or t is tuple) and len(value) == 2:
            for mode in PLAYER_MODES:
                if value[0] == mode[0] and value[1] == mode[1]:
                    return list(mode)  # the interned strings, not the request's
        takes = 'a pair of "human" or "board"'
    elif key == "level":
        if t is str and value in LEVELS:
            return LEVELS[LEVELS.index(value)]  # the interned string, not the request's
        takes = '"easy" or "strong"'
    else:
        raise ValueError("no setting %r" % (key,))
    raise ValueError("%s: %s" % (key, takes))


class Settings:
    """brightness (LED level 1-255), autoplay (forced plays), physical_dice (enter the numbers
    of real dice), palette (0-2), players (["human", "human"]), level (the board player's:
    "easy" or "strong"), match_length (0 money play, 1-25 points), cube (cube play on or off)
    and jacoby (the Jacoby rule in money play). `levels` are the brightness steps of the
    board's menu. The match's three apply from the next new game that starts a match or
    money session (Game.new_game): a match to points in progress keeps its terms.

    Defaults: money play with the cube off, as the board played before the cube existed;
    the Jacoby rule on, for when the cube is turned on (the usual money-play rule).
    """

    def __init__(self, levels=DEFAULT_LEVELS):
        self.levels = tuple(levels)
        self.brightness = self.levels[len(self.levels) // 2]
        self.autoplay = False
        self.physical_dice = False
        self.palette = 0
        self.players = list(PLAYER_MODES[0])
        self.level = LEVELS[1]
        self.match_length = 0
        self.cube = False
        self.jacoby = True  # (match_length, cube, jacoby): the terms of model/game.py

    def set(self, key, value):
        """Changes one setting; ValueError (nothing changed) when the key or value is bad."""
        setattr(self, key, check(key, value))

    def as_dict(self):
        d = {}
        for key in KEYS:
            d[key] = getattr(self, key)
        d["players"] = list(self.players)
        return d

    def to_json(self):
        """The settings file's text."""
        d = self.as_dict()
        d["v"] = SETTINGS_VERSION
        return json.dumps(d, separators=(",", ":"))
