# What a button press means in play (inputs.py names the keys; MENU and the dice entry are
# menu.py's and dice_entry.py's, the cube's cube_page.py's): while the board is to act a
# press is refused; ROLL and UNDO are commands; LEFT, RIGHT and SELECT move and press the
# cursor (minimal layout); a point, the bar or the tray selects a checker, moves it there,
# or flashes red (`fail`).
# Controller.press calls route, long_press held (and reports what they raise); the controller
# keeps the state.
from display.view import TARGET_DICE, point_of, target_of_button
from model.game import MOVE

from control.refusal import fail
from control.turns import emit_steps


def route(ctl, name, now):
    """Hands a press to the module whose it is now: MENU and the open menu (menu.py), the
    dice entry (dice_entry.py), DOUBLE and every press while the cube page is open or an
    offer waits (cube_page.py, unless the board is to act: refused below), else press()."""
    if name == "MENU" or ctl.menu_item >= 0:
        from control import menu

        return menu.press(ctl, name, now)
    if ctl.throw.entry:
        from control import dice_entry

        return dice_entry.press(ctl, name, now)
    if name == "DOUBLE" or ctl.page is not None or ctl.offer_waiting():
        if not ctl.busy():
            from control import cube_page

            return cube_page.press(ctl, name, now)
    press(ctl, name, now)


def held(ctl, name, now):
    """A key held 800 ms (Controller.long_press): ROLL held while a person plays (its press
    was refused: the play is not done), or on the cube page or while an offer waits (refused
    there too: a cube decision is asked), starts a HINT; MENU held in the minimal layout
    (its press opened the menu: closed again) opens the cube page, a double or a
    resignation, also in cubeless money play, where MENU alone opens the settings. In this
    module, loaded in every game: a held key's first press allocates no module."""
    if name == "ROLL" and ctl.hint_ready:
        ctl.start_hint(now)
    elif name == "ROLL" and (ctl.page is not None or ctl.offer_waiting()):
        from control import hint_cube  # lit at once: no slices, control/hint.py not loaded

        hint_cube.start(ctl, now)
    elif name == "MENU" and ctl.layout == "minimal" and ctl.menu_item == 0:
        from control import cube_page

        ctl.emit({"event": "menu", "item": None})
        ctl.open_menu(-1, now)
        cube_page.open_page(ctl, name, now)


def press(ctl, name, now):
    """A button event on controller `ctl`, the menu closed and no dice being entered."""
    if ctl.busy():
        t = target_of_button(name)
        return fail(ctl, "wrong_phase", "the board is playing", name, t, now)
    if name == "ROLL":
        ok, e = ctl.roll(now)
    elif name == "UNDO":
        if ctl.sel >= 0:
            return ctl.select(-1, now)
        ok, e = ctl.undo(now)
    elif name == "LEFT" or name == "RIGHT":
        return ctl.move_cursor(name == "RIGHT", now)
    elif name == "SELECT":
        return press_target(ctl, ctl.view.cursor, name, now)
    else:
        t = target_of_button(name)
        if t < 0:
            return fail(ctl, "bad_args", "no button %r" % (name,), name, t, now)
        return press_target(ctl, t, name, now)
    if not ok:
        fail(ctl, e["code"], e["message"], name, TARGET_DICE, now)


def press_target(ctl, target, name, now):
    """A point, the bar or the tray pressed (or chosen with the cursor)."""
    g = ctl.game
    if g.phase != MOVE or target < 0:
        return fail(ctl, "wrong_phase", "no checker to move now", name, target, now)
    pt = point_of(g.turn, target)
    if ctl.sel >= 0 and pt in ctl.dests:
        emit_steps(ctl, g.step(ctl.sel, pt), g.turn)
        return ctl.changed(now)
    if pt == ctl.sel:
        return ctl.select(-1, now)
    if pt in ctl.movable:
        return ctl.select(pt, now)
    fail(ctl, "illegal", "no legal move there", name, target, now)
