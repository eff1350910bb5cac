# The highlights drawn over the checkers: the movable glow, the destinations, the selected
# checker and the cursor (renderer.py's header says how each looks). Through the renderer's
# put/seglen/checkers/slot: the frame is the renderer's; nothing here allocates.
from display.palette import E_CURSOR, E_DEST, E_GLOW, E_SEL


def _mark(r, s, e, free_on, full_on):
    """Highlight the place past the top checker, or the top checker of a full slot."""
    n = r.seglen(s)
    c = r.checkers(s)
    if c < n:
        if free_on:
            r.put(s, c, e)
    elif full_on:
        r.put(s, (c - 1) % n, e)


def draw(r, view, turn, on):
    """view.movable, dests, selected and cursor; `on` is the blink's phase."""
    for k in range(2):
        mask = view.movable if k == 0 else view.dests
        target = 0
        while mask and target < 26:
            if mask & 1:
                if k == 0:
                    _mark(r, r.slot(target, turn), E_GLOW, True, on)
                else:
                    _mark(r, r.slot(target, turn), E_DEST, on, on)
            mask >>= 1
            target += 1
    s = r.slot(view.selected, turn)
    if s >= 0:
        c = r.checkers(s)
        r.put(s, (c - 1) % r.seglen(s) if c else 0, E_SEL)
    s = r.slot(view.cursor, turn)
    if s >= 0:
        n = r.seglen(s)
        if r.checkers(s) < n or on:
            r.put(s, n - 1, E_CURSOR)
