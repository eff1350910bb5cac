# HINT: lights the rest of the play the board would make (its strong level) from the steps
# made, the checkers it moves glowing and their destinations blinking, until the next press.
#
# ROLL held (Controller.long_press) starts a Hint that the controller's tick thinks out one
# slice a frame (plan.py, as the board's own player does), so the loop goes on: the LEDs
# show it is thinking (the selection is put back and the checkers that can move glow) and
# every press is taken (a press cancels it; ROLL held again starts a new one). A change of
# the game meanwhile (a step by the protocol, the sides, the menu) drops it unlit. The
# protocol's `hint` request answers at once: hint() thinks out every slice in one go.
from display.view import target_of
from model.game import MOVE, hop_text

from control.errors import err

# The steps of a Hint: the play is thought out, its steps found, then it is lit.
_THINK = 0
_LIGHT = 1
_DONE = 2


def _why_not(ctl):
    """None when a hint can be had now (a person's play, dice thrown, no menu or dice entry
    open), else the wrong_phase error."""
    g = ctl.game
    if g.phase != MOVE or ctl.busy() or ctl.entry or ctl.menu_item >= 0:
        return err("wrong_phase", "a hint is for a person's play, the dice thrown")
    return None


def _key(g):
    """What a hint is for: the game, its turn and the steps made."""
    return (g.game_number, len(g.codes), len(g.turn_state.steps))


def start(ctl, now):
    """(True, Hint) to be thought out by its step() calls, or (False, error): wrong_phase
    outside a person's play, no_player when the board's player cannot be loaded (no
    weights, no memory)."""
    g = ctl.game
    if (g.mp is not None or g.terms[1]) and g.phase != MOVE and not ctl.entry:
        # a person's cube decision (to double, take or drop, accept a resignation): the
        # board's advice (control/autoplay.cube_advice), in the same slice
        from control.autoplay import cube_advice

        try:
            advice = cube_advice(ctl)
        except Exception as exc:  # MemoryError, no file, a broken file
            return False, err("no_player", "no hint: the board's player failed: %r" % exc)
        if advice is not None:
            return True, CubeHint(advice)
    e = _why_not(ctl)
    if e is not None:
        return False, e
    from control import loader
    from control.plan import Plan

    try:
        opp = loader.opponent()
    except Exception as exc:  # MemoryError, no file, a broken file
        return False, err("no_player", "no hint: the board's player cannot be loaded: %r" % exc)
    return True, Hint(Plan(opp, ctl.game, "strong"), _key(ctl.game))


class CubeHint:
    """The cube's advice, known at once: `result` is {"cube": autoplay.cube_advice(ctl)}
    (the action advised and the equities behind it); nothing is lit on the points."""

    def __init__(self, advice):
        self.result = {"cube": advice}

    def step(self, ctl, now):
        return True


class Hint:
    """A hint being thought out; step(ctl, now) does one slice and returns True once it is
    over: lit (`result` is {"play", "steps"}) or dropped (the game changed: `result` None).
    """

    def __init__(self, plan, key):
        self.plan = plan
        self.key = key
        self.stage = _THINK
        self.result = None

    def step(self, ctl, now):
        if self.stage == _DONE:
            return True
        g = ctl.game
        if _why_not(ctl) is not None or _key(g) != self.key:
            self.stage = _DONE  # the game moved on: this hint is for nothing now
            return True
        try:
            if self.stage == _THINK:
                if self.plan.step():
                    self.stage = _LIGHT  # the lights in a slice of their own
                return False
            self._light(ctl, g, now)
        except Exception as exc:  # a bug, no memory: said, and the play goes on unlit
            self.plan = None
            ctl.emit({"event": "error", "code": "no_player", "message": "no hint: %r" % exc})
        self.stage = _DONE
        return True

    def _light(self, ctl, g, now):
        plan = self.plan
        t = g.turn_state
        made = []
        for frm, to in plan.hops:  # made and taken back: which steps hit, hop by hop
            made += t.step(frm, to)
        for _ in made:
            t.undo()
        src = dst = 0
        for frm, to, _ in made:
            src |= 1 << target_of(g.turn, frm)
            dst |= 1 << target_of(g.turn, to)
        ctl.set_hint((src, dst), now)
        self.result = {"play": str(plan.play), "steps": [hop_text(h) for h in made]}
        self.plan = None


def hint(ctl, now):
    """The protocol's `hint`: (True, {"play", "steps"}) with the hint lit, or {"cube": advice}
    on a person's cube decision, or (False, error) as start() says; every slice in one go."""
    ok, h = start(ctl, now)
    if not ok:
        return False, h
    while not h.step(ctl, now):
        pass
    return True, h.result
