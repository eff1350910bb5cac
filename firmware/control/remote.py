# Plays given in notation (the protocol's `move`, a board player): applied step by step.
from gammon.notation import check_marks, find_play, parse_steps
from model.game import MOVE, hop_text

from control.errors import err
from control.turns import emit_steps


def move(ctl, text, now):
    """Applies "13/11", "24/18/13" or "8/5 6/5"; on any illegal step takes back what was
    applied and answers (False, illegal). At the start of a turn a text that names a whole
    legal play makes that play (its steps in any order); otherwise the steps are made as
    written, one by one."""
    g = ctl.game
    if ctl.busy():
        return False, err("wrong_phase", "the board is playing")
    if g.phase != MOVE or ctl.throw.entry:
        return False, err("wrong_phase", "no move to make now")
    try:
        hops = parse_steps(text)
    except ValueError as exc:
        return False, err("bad_args", str(exc))
    player = g.turn
    made = []
    play = None
    if not g.steps():  # a whole play as `plays` lists it ("2/off" can be 2/1/off)
        try:
            play = find_play(g.position, g.dice, text)
        except ValueError:
            pass
    try:
        if play:
            try:
                _steps(g, [(s[0], s[1]) for s in play.steps], made)
            except ValueError:  # the engine took another die on the way: as written then
                _undo(g, made)
                _steps(g, hops, made)
        else:
            _steps(g, hops, made)
        check_marks(text, made)  # "24/23*" is refused when nothing was hit on 23
    except ValueError as exc:
        _undo(g, made)
        return False, err("illegal", str(exc))
    emit_steps(ctl, made, player)
    ctl.changed(now)
    return True, {"steps": [hop_text(h) for h in made]}


def _steps(g, hops, made):
    for frm, to in hops:
        made += g.step(frm, to)


def _undo(g, made):
    for _ in made:
        g.undo()
    del made[:]
