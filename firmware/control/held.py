# A key held 800 ms (Controller.long_press): ROLL held during a person's play is HINT, MENU
# held in the minimal layout the cube page. Loaded on the first long press (heap: a game
# whose keys are only pressed never loads it).


def held(ctl, name, now):
    """ROLL held while a person plays (its press was refused: the play is not done) starts
    a HINT; MENU held in the minimal layout (its press opened the menu: closed again) opens
    the cube page, a double or a resignation, also in cubeless money play, where MENU alone
    opens the settings."""
    if name == "ROLL" and ctl.hint_ready:
        ctl.start_hint(now)
    elif name == "MENU" and ctl.layout == "minimal" and ctl.menu_item == 0:
        from control import cube_page

        ctl.emit({"event": "menu", "item": None})
        ctl.open_menu(-1, now)
        cube_page.open_page(ctl, name, now)
