# HINT: lights the rest of the play the board would make (its strong level) from the steps
# made, the checkers it moves glowing and their destinations blinking, until the next press.
#
# ROLL held (Controller.long_press) starts a Hint that the controller's tick thinks out one
# slice at a time (plan.py, as the board's own player does), so the loop goes on: the LEDs
# show it is thinking (the selection is put back and the checkers that can move glow) and
# every press is taken (a press cancels it; ROLL held again starts a new one). A change of
# the game meanwhile (a step by the protocol, the sides, the menu) drops it unlit. The
# protocol's `hint` request answers at once: hint() thinks out every slice in one go.
# On a person's cube decision the advice is control/hint_cube.py's (loaded only then).
from display.view import target_of
from model.game import DONE, MOVE, ROLL, hop_text

from control.errors import err

# The steps of a Hint: the play is thought out, its single steps found, then it is lit.
_THINK = 0
_STEPS = 1
_LIGHT = 2
_DONE = 3


def _why_not(ctl):
    """None when a hint can be had now (a person's play, dice thrown, no menu or dice entry
    open, no offer waiting), else the wrong_phase error."""
    g = ctl.game
    if g.phase != MOVE or ctl.busy() or ctl.throw.entry or ctl.menu_item >= 0 or (
            ctl.offer_waiting()):
        return err("wrong_phase", "a hint is for a person's play, the dice thrown")
    return None


def _key(g):
    """What a hint is for: the game, its turn and the steps made, as one small int (a
    tuple would be heap; t.done, as t.steps would make a tuple of the steps)."""
    return (g.game_number * 4096 + len(g.codes)) * 8 + len(g.turn_state.done)


def start(ctl, now):
    """(True, Hint) to be thought out by its step() calls, or (False, error): wrong_phase
    outside a person's play or cube decision, no_player when the board's player cannot be
    loaded (no weights, no memory). A person's cube decision (to double before the throw or
    instead of ROLL, to take or drop, to accept a resignation) is control/hint_cube.py's,
    lit at once."""
    g = ctl.game
    before_throw = (g.mp is not None or g.terms[1]) and (g.phase == ROLL or g.phase == DONE)
    if before_throw or ctl.offer_waiting():
        from control.hint_cube import start as cube

        out = cube(ctl, now)
        if out is not None:
            return out
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


class Hint:
    """A hint being thought out; step(ctl, now) does one slice and returns True once it is
    over: lit (`result` is {"play", "steps"}) or dropped (the game changed: `result` None).
    """

    def __init__(self, plan, key):
        self.plan = plan
        self.key = key
        self.stage = _THINK
        self.result = None
        self._made = None  # the play's single steps (frm, to, hit), found in _STEPS

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
                    self.stage = _STEPS  # the steps and the lights in slices of their own
                return False
            # with loops, not comprehensions: each function is code loaded with the module,
            # in the first HINT's press
            plan = self.plan
            t = g.turn_state
            # The single steps, then the lights, each a step of the loop: together, with a
            # play of doubles (four steps, each with its searches) and its notation, they
            # held it ~250-300 us here.
            if self.stage == _STEPS:  # made and taken back: which steps hit, hop by hop
                made = []
                for frm, to in plan.hops:
                    made += t.step(frm, to)
                for _ in made:
                    t.undo()
                self._made = made
                self.stage = _LIGHT
                return False
            made = self._made
            self._made = None
            src = dst = 0
            steps = []
            for h in made:
                src |= 1 << target_of(g.turn, h[0])
                dst |= 1 << target_of(g.turn, h[1])
                steps.append(hop_text(h))
            ctl.set_hint((src, dst), now)
            self.result = {"play": str(plan.play), "steps": steps}
            self.plan = None
        except Exception as exc:  # a bug, no memory: said, and the play goes on unlit
            self.plan = None
            ctl.emit({"event": "error", "code": "no_player", "message": "no hint: %r" % exc})
        self.stage = _DONE
        return True


def hint(ctl, now):
    """The protocol's `hint` in one go: (True, {"play", "steps"}) with the hint lit, or
    {"cube": advice} (lit too) on a person's cube decision, or (False, error) as start()
    says."""
    ok, h = start(ctl, now)
    if not ok:
        return False, h
    while not h.step(ctl, now):
        pass
    return True, h.result
