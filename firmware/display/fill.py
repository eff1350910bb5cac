# Fills the View from the game and what the controller hands it: its selection, dice entry,
# menu and hint (read, never written; it imports no control module). The board's own player
# shows its steps through the selection (autoplay.py). Also moves the cursor (minimal layout).
from display.view import MENU, target_of


def fill_view(ctl, v):
    """Writes View `v` from controller `ctl`; returns the cursor's candidates (a mask of
    target indices, Controller.cands)."""
    g = ctl.game
    t = g.turn_state
    key = (t.result if t else g.position).key()
    turn = g.turn
    mine = v.pts0 if turn == 0 else v.pts1
    theirs = v.pts1 if turn == 0 else v.pts0
    n_mine = key[24]
    n_theirs = key[49]
    for k in range(1, 25):
        a = k if turn == 0 else 25 - k
        mine[a] = key[k - 1]
        theirs[25 - a] = key[24 + k]
        n_mine += key[k - 1]
        n_theirs += key[24 + k]
    v.bar[turn] = key[24]
    v.bar[1 - turn] = key[49]
    v.off[turn] = 15 - n_mine
    v.off[1 - turn] = 15 - n_theirs
    _dice(ctl, g, v)
    e = ctl.entry
    m = 0
    if e:
        for k in range(1, 7):
            m |= 1 << target_of(e.player(), k)
    else:
        for p in ctl.movable:
            m |= 1 << target_of(turn, p)
    v.movable = m
    m = 0
    for p in ctl.dests:
        m |= 1 << target_of(turn, p)
    v.dests = m
    old = v.selected
    v.selected = target_of(turn, ctl.sel) if ctl.sel >= 0 else -1
    cands = _cursor(ctl, v, old)
    if ctl.hint:  # HINT: the sources glow, the destinations blink (both: alternately)
        v.movable, v.dests = ctl.hint
    v.turn = turn
    v.game_phase = g.phase
    v.phase = MENU if ctl.menu_item >= 0 else g.phase
    v.menu_item = ctl.menu_item if ctl.menu_item >= 0 else 0
    v.menu_value = ctl.menu_value() if ctl.menu_item >= 0 else 0
    v.winner = -1 if g.winner is None else g.winner
    v.result = g.result or 0
    v.palette = ctl.settings.palette
    v.brightness = ctl.settings.brightness
    v.game = g.game_number
    v.changed += 1
    return cands


def _dice(ctl, g, v):
    d = v.dice
    u = v.dice_used
    e = ctl.entry
    v.entering = -1
    u[0] = u[1] = 0
    if e:
        vals = e.values
        n = len(vals)
        d[0] = vals[0] if n else e.value
        d[1] = vals[1] if n > 1 else (e.value if n == 1 else 0)
        v.entering = n
    elif g.dice:
        d[0], d[1] = g.dice
        t = g.turn_state
        if t is None or t.complete:
            u[0] = u[1] = 2
        elif d[0] == d[1]:
            n = len(t.steps)
            u[0] = n if n < 2 else 2
            u[1] = n - 2 if n > 2 else 0
        else:
            rest = t.remaining
            u[0] = 0 if d[0] in rest else 2
            u[1] = 0 if d[1] in rest else 2
    elif ctl.shown:
        d[0], d[1] = ctl.shown
        u[0] = u[1] = 2
    else:
        d[0] = d[1] = 0


def _cursor(ctl, v, old_selected):
    """Minimal layout: the cursor stays on a candidate; a new selection moves it on.

    Returns the candidates (a mask of target indices): the selected checker and its
    destinations, else the movable checkers, else every point; 0 without a cursor.
    """
    if ctl.layout != "minimal" or ctl.entry or ctl.menu_item >= 0 or ctl.busy():
        v.cursor = -1
        return 0
    turn = ctl.game.turn
    if ctl.sel >= 0:
        m = v.dests | 1 << v.selected
    elif ctl.movable:
        m = v.movable
    else:
        m = (1 << 24) - 1
    if ctl.sel >= 0 and v.selected != old_selected:
        v.cursor = target_of(turn, max(ctl.dests))  # the nearest destination
    elif v.cursor < 0 or not m >> v.cursor & 1:
        if old_selected >= 0 and m >> old_selected & 1:
            v.cursor = old_selected  # back on the checker just deselected or moved from
        elif ctl.movable:
            v.cursor = target_of(turn, max(ctl.movable))
        else:
            v.cursor = 0
    return m


def move_cursor(v, cands, right):
    """LEFT/RIGHT (minimal layout): the cursor of View `v` to the next of the candidates
    `cands` that way, round the board (fill_view follows)."""
    c = v.cursor
    if cands:
        for _ in range(26):
            c = (c + (1 if right else -1)) % 26
            if cands >> c & 1:
                break
        v.cursor = c
