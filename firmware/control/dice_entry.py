# Entering real dice: own points 1-6 (full layout) or LEFT/RIGHT and SELECT (minimal layout).
# turns.Throw keeps the Entry (ctl.throw.entry, made by ROLL: turns.roll); this module changes
# the numbers in it and hands the finished dice back to Controller.apply_roll.
from display.view import TARGET_DICE, point_of, target_of_button

from control.refusal import fail


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

    def turn_die(self, delta):
        """LEFT/RIGHT: the number shown one down or up, round 1-6."""
        if delta > 0:
            self.value = self.value % 6 + 1
        else:
            self.value = (self.value - 2) % 6 + 1 if self.value else 6

    def add(self, value):
        """Takes die `value`; returns the die's index (0 or 1)."""
        self.values.append(value)
        if len(self.values) == 1 and not self.minimal:
            self.value = 0
        return len(self.values) - 1

    def restart(self):
        """Equal opening dice: both are thrown again."""
        self.values = []
        self.value = 1 if self.minimal else 0

    def take_back(self):
        """The last die entered goes (its number stays shown in the minimal layout)."""
        value = self.values.pop()
        self.value = value if self.minimal else 0


def press(ctl, name, now):
    e = ctl.throw.entry
    if name == "UNDO":
        return ctl.undo(now)
    if name == "RIGHT" or name == "LEFT":
        e.turn_die(1 if name == "RIGHT" else -1)
        return ctl.refresh(now)
    if name == "SELECT":
        if not e.value:
            return fail(ctl, "illegal", "choose the number first", name, TARGET_DICE, now)
        return accept(ctl, e.value, now)
    target = target_of_button(name)
    if 0 <= target < 24:
        k = point_of(e.player(), target)
        if 1 <= k <= 6:
            return accept(ctl, k, now)
    return fail(ctl, "illegal", "enter the die: press your point 1-6", name, target, now)


def accept(ctl, value, now):
    e = ctl.throw.entry
    die = e.add(value)
    ctl.emit({"event": "entry", "player": e.player(die), "die": die, "value": value})
    if die == 0:
        return ctl.refresh(now)
    a, b = e.values
    if e.opening and a == b:
        e.restart()
        ctl.refresh(now)
        return fail(
            ctl, "illegal", "equal opening dice: throw again", None, TARGET_DICE, now
        )
    ctl.apply_roll((a, b), now)


def undo(e, emit):
    """Takes back the last die entered of Entry `e`; False when none was (the entry ends:
    Controller.undo)."""
    if not e.values:
        return False
    e.take_back()
    die = len(e.values)
    emit({"event": "entry", "player": e.player(die), "die": die, "value": 0})
    return True
