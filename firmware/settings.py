# The MENU options (brightness, autoplay, dice, colours, players), saved apart from the game.
# Checking and saving them lives in menu.py, loaded only when a setting changes (heap).

DEFAULT_LEVELS = (32, 64, 128, 192, 255)  # the board module's BRIGHTNESS_LEVELS
# The sides' players; "board" (the board plays that side) comes with issue 6.
PLAYER_MODES = (("human", "human"),)
KEYS = ("brightness", "autoplay", "physical_dice", "palette", "players")
SETTINGS_VERSION = 1


class Settings:
    """brightness (LED level 1-255), autoplay (forced plays), physical_dice (enter the numbers
    of real dice), palette (0-2), players (["human", "human"])."""

    def __init__(self, levels=DEFAULT_LEVELS):
        self.levels = tuple(levels)
        self.brightness = self.levels[len(self.levels) // 2]
        self.autoplay = False
        self.physical_dice = False
        self.palette = 0
        self.players = list(PLAYER_MODES[0])

    def set(self, key, value):
        """Changes one setting; ValueError (nothing changed) when the key or value is bad."""
        import menu

        menu.set_setting(self, key, value)

    def as_dict(self):
        import menu

        return menu.settings_dict(self)

    def to_json(self):
        """The settings file's text."""
        import menu

        return menu.settings_json(self)
