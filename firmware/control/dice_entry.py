# Entering real dice: own points 1-6 (full layout) or LEFT/RIGHT and SELECT (minimal layout).
from display.view import TARGET_DICE, point_of, target_of_button
from model.game import OPENING

from control import buttons


class Entry:
    """The dice entered so far after ROLL; at the opening die i is player i's."""

    def __init__(self, opening, turn, minimal):
        self.opening = opening
        self.turn = turn
        self.minimal = minimal
        self.values = []
        self.value = 1 if minimal else 0  # the number shown on the die being entered

    def player(self, die=-1):
        """Who enters die `die` (default: the die being entered)."""
        if die < 0:
            die = len(self.values)
        return die if self.opening else self.turn


def start(ctl, now):
    g = ctl.game
    ctl.entry = Entry(g.phase == OPENING, g.turn, ctl.layout == "minimal")
    ctl.shown = None
    ctl.changed(now)


def press(ctl, name, now):
    e = ctl.entry
    if name == "UNDO":
        return undo(ctl, now)
    if name == "RIGHT":
        e.value = e.value % 6 + 1
        return ctl.refresh(now)
    if name == "LEFT":
        e.value = (e.value - 2) % 6 + 1 if e.value else 6
        return ctl.refresh(now)
    if name == "SELECT":
        if not e.value:
            return buttons.fail(ctl, "illegal", "choose the number first", name, TARGET_DICE, now)
        return accept(ctl, e.value, now)
    target = target_of_button(name)
    if 0 <= target < 24:
        k = point_of(e.player(), target)
        if 1 <= k <= 6:
            return accept(ctl, k, now)
    return buttons.fail(ctl, "illegal", "enter the die: press your point 1-6", name, target, now)


def accept(ctl, value, now):
    e = ctl.entry
    die = len(e.values)
    e.values.append(value)
    ctl.emit({"event": "entry", "player": e.player(die), "die": die, "value": value})
    if die == 0:
        if not e.minimal:
            e.value = 0
        return ctl.refresh(now)
    a, b = e.values
    if e.opening and a == b:
        e.values = []
        e.value = 1 if e.minimal else 0
        ctl.refresh(now)
        return buttons.fail(
            ctl, "illegal", "equal opening dice: throw again", None, TARGET_DICE, now
        )
    ctl.apply_roll((a, b), now)


def undo(ctl, now):
    """Takes back the last die entered, or leaves the entry when none is."""
    e = ctl.entry
    if e.values:
        value = e.values.pop()
        die = len(e.values)
        e.value = value if e.minimal else 0
        ctl.emit({"event": "entry", "player": e.player(die), "die": die, "value": 0})
    else:
        ctl.entry = None
    ctl.refresh(now)
    return True, {"step": None}
