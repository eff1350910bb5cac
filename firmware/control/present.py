# The controller's presenter, the View's one writer: fill_view makes the View from the game
# and the controller's state (its selection, dice entry, menu, hint: a play's masks or the
# cube's advice, cube page, the match: read, never written); the moments between two fills
# are its small writers below (a refused press's flash, the dice rolling or blinking, an
# error, the game's end, the board's glow while it thinks) and the cursor (minimal layout).
# The board's own player shows its steps through the selection (autoplay.py). The renderer
# (display/) reads the View only.
from display.view import FLASH_MS, MENU, TARGET_DICE, target_of
from hw.ticks import ticks_add, ticks_diff


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
    e = ctl.throw.entry
    m = 0
    if e:
        for k in range(1, 7):
            m |= 1 << target_of(e.player(), k)
    elif ctl.page is not None:  # the cube page: the points that resign (full layout)
        for k in ctl.page.glow:
            m |= 1 << target_of(ctl.page.by, k)
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
    h = ctl.hint
    v.advice = 0
    v.advice_of = -1
    if type(h) is int:  # HINT on a cube decision: advice | player << 3 (control/hint_cube.py)
        v.advice = h & 7
        v.advice_of = h >> 3
    elif h:  # HINT: the sources glow, the destinations blink (both: alternately)
        v.movable, v.dests = h
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
    v.error = ctl.error
    _match(ctl, g, v)
    v.changed += 1
    return cands


def _match(ctl, g, v):
    """The cube, the offer, the score and what is being asked, of whom (cube_leds.py; the
    terminal view says it in words). Cubeless money play has no Match: none of it."""
    mp = g.mp
    if mp is None:
        v.cube_on = v.offer = v.offer_value = v.match_length = v.crawford = v.match_over = 0
        v.cube = 1
        v.cube_owner = v.offer_by = -1
        v.score0, v.score1 = g.plain
    else:
        m = mp.match
        v.cube_on = 1 if m.cube_on else 0
        v.cube = m.cube
        v.cube_owner = m.owner
        v.offer = m.offer
        v.offer_by = m.offer_by
        v.offer_value = m.offer_value
        v.match_length = m.length
        v.score0, v.score1 = m.score
        v.crawford = 1 if m.crawford else 0
        v.match_over = 1 if m.over() else 0
    v.ask, v.ask_of, v.shown_kind, v.shown_value = ctl.asking()


def _dice(ctl, g, v):
    d = v.dice
    u = v.dice_used
    e = ctl.throw.entry
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
            n = len(t.done)  # (t.steps would make a tuple of them)
            u[0] = n if n < 2 else 2
            u[1] = n - 2 if n > 2 else 0
        else:
            rest = t.remaining
            u[0] = 0 if d[0] in rest else 2
            u[1] = 0 if d[1] in rest else 2
    elif ctl.throw.shown:
        d[0], d[1] = ctl.throw.shown
        u[0] = u[1] = 2
    else:
        d[0] = d[1] = 0


def _cursor(ctl, v, old_selected):
    """Minimal layout: the cursor stays on a candidate; a new selection moves it on.

    Returns the candidates (a mask of target indices): the selected checker and its
    destinations, else the movable checkers, else every point; 0 without a cursor.
    """
    if ctl.layout != "minimal" or ctl.throw.entry or ctl.menu_item >= 0 or ctl.busy():
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


def expire(v, now_ms):
    """Deadlines of View `v` reached go back to 0 (none) before the ticks' wrap makes them
    look ahead again; nothing shown changes (v.changed stays)."""
    if v.flash_until and ticks_diff(v.flash_until, now_ms) <= 0:
        v.flash_until = 0
    if v.rolling_until and ticks_diff(v.rolling_until, now_ms) <= 0:
        v.rolling_until = 0
    if v.blink_until and ticks_diff(v.blink_until, now_ms) <= 0:
        v.blink_until = 0


def flash(v, target, now):
    """A refused press: the red flash on `target` (a target index; -1: the dice)."""
    v.flash_target = target if target >= 0 else TARGET_DICE
    v.flash_until = ticks_add(now, FLASH_MS) or 1  # ticks wrap; 0 is 'none'
    v.changed += 1


def rolled(v, now, roll_ms, blink_ms=0):
    """The dice thrown: they roll for `roll_ms`, and blink for `blink_ms` (no legal move)."""
    if blink_ms:
        v.blink_until = ticks_add(now, blink_ms) or 1
    v.rolling_until = ticks_add(now, roll_ms) or 1


def over(v, now):
    """The game's end, shown from `now` (the renderer's game-over animation)."""
    v.over_since = now


def glow(v, mask):
    """The board's player thinking: its checkers that can move glow (a mask of targets)."""
    v.movable = mask
