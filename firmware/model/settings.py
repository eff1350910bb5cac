# The MENU options (brightness, autoplay, dice, colours, players, level), saved apart from
# the game.
# Checking and saving them lives in menu.py, loaded only when a setting changes (heap).

DEFAULT_LEVELS = (32, 64, 128, 192, 255)  # the board module's BRIGHTNESS_LEVELS
# Who plays each side: [player 0's, player 1's] (game.py's turn numbers); "board" is the
# board's own player (autoplay.py).
PLAYER_MODES = (("human", "human"), ("human", "board"), ("board", "human"), ("board", "board"))
LEVELS = ("easy", "strong")  # the board player's levels (gammon.opponent.LEVELS)
KEYS = ("brightness", "autoplay", "physical_dice", "palette", "players", "level")
SETTINGS_VERSION = 1  # a file without "level" (written before it existed) keeps its default


class Settings:
    """brightness (LED level 1-255), autoplay (forced plays), physical_dice (enter the numbers
    of real dice), palette (0-2), players (["human", "human"]), level (the board player's:
    "easy" or "strong")."""

    def __init__(self, levels=DEFAULT_LEVELS):
        self.levels = tuple(levels)
        self.brightness = self.levels[len(self.levels) // 2]
        self.autoplay = False
        self.physical_dice = False
        self.palette = 0
        self.players = list(PLAYER_MODES[0])
        self.level = LEVELS[1]

    def set(self, key, value):
        """Changes one setting; ValueError (nothing changed) when the key or value is bad."""
        from control import menu

        menu.set_setting(self, key, value)

    def as_dict(self):
        from control import menu

        return menu.settings_dict(self)

    def to_json(self):
        """The settings file's text."""
        from control import menu

        return menu.settings_json(self)
