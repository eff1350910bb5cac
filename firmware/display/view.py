# What the renderer draws: preallocated once, written by the controller, read every frame.
from kernels.compat import const

# view.phase: the game phases of game.py (OPENING 0, ROLL 1, MOVE 2, DONE 3, OVER 4), or MENU
MENU = const(5)
PALETTE_COUNT = const(3)  # 0 standard, 1 colour-blind safe, 2 high contrast (renderer's colours)

# Target indices (masks, cursor, selection, flash): 0-23 absolute points p1-p24,
# 24 the bar of the player on roll, 25 the borne-off tray of the player on roll,
# 26 the dice (flash_target only: an illegal ROLL or UNDO).
TARGET_BAR = const(24)
TARGET_OFF = const(25)
TARGET_DICE = const(26)
TARGETS = const(26)  # point, bar and tray targets (the masks' width)

# view.ask: what is being asked now (of view.ask_of), for the LEDs and the terminal view
ASK_NONE = const(0)
ASK_TAKE = const(1)  # take or drop the cube offered
ASK_ACCEPT = const(2)  # accept or reject the resignation offered
ASK_DROP = const(3)  # drop? (the first NO of a double): NO again drops, YES takes
ASK_OFFER = const(4)  # the cube page is open: double, or resign a single game/gammon/backgammon
# view.offer and view.shown_kind: gammon.match's NO_OFFER, DOUBLE, RESIGN
OFFER_DOUBLE = const(1)
OFFER_RESIGN = const(2)
# view.advice: HINT's advice on a cube decision of player view.advice_of (display/cube_leds.py
# lights it in that player's row, steady until the next press); 0 none. In the order of
# control/hint_cube.ACTIONS, gammon/cube_play.advice's "action" words.
ADVICE_DOUBLE = const(1)
ADVICE_NO_DOUBLE = const(2)
ADVICE_TOO_GOOD = const(3)  # no double: too good, play on for the gammon
ADVICE_TAKE = const(4)
ADVICE_DROP = const(5)
ADVICE_ACCEPT = const(6)
ADVICE_REJECT = const(7)

FLASH_MS = const(300)  # red flash of an illegal press
ROLL_MS = const(600)  # dice animation
BLINK_MS = const(1500)  # dice blink: no legal move


class View:
    """The state the renderer draws (see docs/firmware.md). Fields only: no allocation
    happens when reading it; the controller increments `changed` after every update."""

    def __init__(self):
        self.pts0 = bytearray(25)  # player 0's checkers on absolute point i (1-24)
        self.pts1 = bytearray(25)  # player 1's
        self.bar = bytearray(2)  # per player
        self.off = bytearray(2)  # per player
        self.turn = 0
        self.phase = 0
        self.game_phase = 0  # the game's phase, also while the menu is open
        self.dice = bytearray(2)  # shown values, 0 = dark
        self.dice_used = bytearray(2)  # 0 unused, 1 half used (doubles), 2 used
        self.entering = -1  # physical dice: index of the die being entered, -1 none
        self.rolling_until = 0
        self.blink_until = 0
        self.movable = 0  # bitmask of target indices (entering dice: the buttons to press)
        self.dests = 0  # bitmask of target indices
        self.selected = -1
        self.cursor = -1
        self.flash_target = -1
        self.flash_until = 0
        self.winner = -1
        self.result = 0
        self.over_since = 0
        self.menu_item = 0
        self.menu_value = 0
        self.palette = 0
        self.brightness = 128
        self.game = 1  # game number
        self.error = 0  # 1: the save was found corrupt at boot (kept aside); 2: no board player
        # The match (display/cube_leds.py): all 0 (cube 1, owner -1) in cubeless money play
        self.cube_on = 0  # the cube is in play in this game's terms
        self.cube = 1
        self.cube_owner = -1  # -1 centred
        self.offer = 0  # OFFER_DOUBLE or OFFER_RESIGN waiting for its answer, 0 none
        self.offer_by = -1
        self.offer_value = 0  # the cube offered (2-64) or the resignation's 1-3
        self.shown_kind = 0  # the cube page: what the person would offer (OFFER_*), 0 none
        self.shown_value = 0  # ... its value (the cube offered, or 1-3)
        self.ask = 0  # ASK_*: what is being asked now, of ask_of
        self.ask_of = -1
        self.advice = 0  # ADVICE_*: HINT's advice on a cube decision, 0 none
        self.advice_of = -1  # ... of this player's decision (their row shows it)
        self.match_length = 0  # 0: money play (no score shown)
        self.score0 = 0
        self.score1 = 0
        self.crawford = 0  # 1: this is the Crawford game (no doubling)
        self.match_over = 0  # 1: the game over is the match's (winner: its winner)
        self.changed = 0


def target_of(turn, point):
    """Target index of the mover's point (1-24, 25 bar, 0 off) when `turn` is on roll."""
    if point == 25:
        return TARGET_BAR
    if point == 0:
        return TARGET_OFF
    return point - 1 if turn == 0 else 24 - point


def point_of(turn, target):
    """The mover's point number (25 bar, 0 off) of a target index."""
    if target == TARGET_BAR:
        return 25
    if target == TARGET_OFF:
        return 0
    return target + 1 if turn == 0 else 24 - target


def target_of_button(name):
    """Target index of a point/bar/tray button name, -1 for other buttons."""
    if name == "BAR":
        return TARGET_BAR
    if name == "OFF":
        return TARGET_OFF
    if len(name) > 1 and name[0] == "p" and name[1:].isdigit():
        n = int(name[1:])
        if 1 <= n <= 24:
            return n - 1
    return -1


def button_of_target(target):
    if target == TARGET_BAR:
        return "BAR"
    if target == TARGET_OFF:
        return "OFF"
    return "p%d" % (target + 1)
