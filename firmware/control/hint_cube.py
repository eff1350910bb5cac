# HINT on a person's cube decision: the board's advice (control/autoplay.cube_advice, the
# strong level's action and the equities behind it), lit at once in the decider's cube row
# (display/cube_leds.py: green dots act, red dots do not, red and green too good) until the
# next press, as a checker hint is; the `hint` request returns it as {"cube": advice}.
#
# Loaded only when a cube decision may be a person's (an offer waiting, the cube page open,
# the cube's terms before a throw: control/buttons.held, control/hint.start), so a checker
# hint's press loads none of it, and a cube hint's press none of control/hint.py.
from control.errors import err

# gammon/cube_play.advice's "action" words, in the order of display/view.ADVICE_* (1-7)
ACTIONS = ("double", "no double", "too good", "take", "drop", "accept", "reject")


def start(ctl, now):
    """(True, CubeHint) lit now, (False, no_player) when the board's player cannot be had,
    or None: no cube decision of a person's now, or the menu or a dice entry open
    (control/hint.py then says why not). ROLL held calls it directly (control/buttons.py):
    the advice needs no slices, so that press loads no more than this module."""
    if ctl.menu_item >= 0 or ctl.throw.entry:
        return None
    from control.autoplay import cube_advice

    try:
        advice = cube_advice(ctl)
    except Exception as exc:  # MemoryError, no file, a broken file
        return False, err("no_player", "no hint: the board's player failed: %r" % exc)
    if advice is None:
        return None
    action = advice["action"]
    if action in ACTIONS:  # (an action the LEDs have no dots for is still said)
        ctl.set_hint(ACTIONS.index(action) + 1 | advice["player"] << 3, now)
    return True, CubeHint(advice)


class CubeHint:
    """The cube's advice, known and lit at once: `result` is {"cube": advice}."""

    def __init__(self, advice):
        self.result = {"cube": advice}

    def step(self, ctl, now):
        return True
