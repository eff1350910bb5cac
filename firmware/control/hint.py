# HINT: lights the rest of the play the board would make (its strong level) from the steps
# made, the checkers it moves glowing and their destinations blinking, until the next press.
from display.view import target_of
from model.game import MOVE, hop_text

from control.errors import err


def hint(ctl, now):
    """(True, {"play", "steps"}), or (False, error): wrong_phase outside a person's play,
    no_player when the board's player cannot be loaded (no weights, no memory)."""
    g = ctl.game
    if g.phase != MOVE or ctl.busy() or ctl.entry or ctl.menu_item >= 0:
        return False, err("wrong_phase", "a hint is for a person's play, the dice thrown")
    from control import loader
    from control.plan import Plan

    try:
        opp = loader.opponent()
    except Exception as exc:  # MemoryError, no file, a broken file
        return False, err("no_player", "no hint: the board's player cannot be loaded: %r" % exc)
    plan = Plan(opp, g, "strong").finish()
    t = g.turn_state
    made = []
    for frm, to in plan.hops:
        made += t.step(frm, to)
    for _ in made:
        t.undo()
    src = dst = 0
    for frm, to, _ in made:
        src |= 1 << target_of(g.turn, frm)
        dst |= 1 << target_of(g.turn, to)
    ctl.set_hint((src, dst), now)
    return True, {"play": str(plan.play), "steps": [hop_text(h) for h in made]}
