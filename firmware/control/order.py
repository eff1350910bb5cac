# Orders a chosen play's single steps so the turn takes each one, after the steps made.
# A play is a set of single steps; Turn.step wants them one by one in an order it accepts
# (a bear-off that either die could make, a checker that must move before another can).
from gammon.turn import Turn


def _search(t, rest, target, out):
    """Makes the steps `rest` on Turn `t` in some order it accepts, ending on `target`;
    the order found goes to `out`. A generator: it yields after each step tried (each
    allocates 1-3 KB) and returns whether an order was found; `t` is left as it was."""
    if not rest:
        return t.complete and t.result == target
    tried = []
    for i in range(len(rest)):
        hop = rest[i]
        if hop in tried:
            continue
        tried.append(hop)
        try:
            made = t.step(hop[0], hop[1])
        except ValueError:
            continue
        yield
        out.append(hop)
        ok = yield from _search(t, rest[:i] + rest[i + 1 :], target, out)
        for _ in made:
            t.undo()
        if ok:
            return True
        out.pop()
    return False


def _rest(t, play, made):
    """The steps of `play` not in `made`; None if the play does not keep them; and whether
    the play's own order is the answer: with no step made and none bearing off, each of its
    single steps is reached by its own die alone, and the play itself completes the turn
    after each, so no step has to be tried (trying allocates ~10 KB)."""
    rest = [(s[0], s[1]) for s in play.steps]
    for hop in made:
        if hop not in rest:
            return None, False
        rest.remove(hop)
    if made or t.steps:
        return rest, False
    for hop in rest:
        if hop[1] == 0:
            return rest, False
    return rest, True


def fit(t, play, made):
    """The steps of `play` still to make after the single steps `made` [(frm, to)], in an
    order Turn `t` takes; None if the play does not keep them. In one go."""
    rest, own = _rest(t, play, made)
    if rest is None or own:
        return rest
    out = []
    found = False
    search = _search(t, rest, play.result, out)
    try:
        while True:
            next(search)
    except StopIteration as stop:
        found = stop.value
    return out if found else None


class Order:
    """fit() in slices for game `g`, one step tried a slice, on a Turn of its own (the
    game's never holds a trial step between two frames). step() returns True once `hops`
    is known (None: the play does not keep the steps made)."""

    def __init__(self, g, play, made):
        self.hops = None
        self.done = False
        rest, own = _rest(g.turn_state, play, made)
        if rest is None or own:
            self.hops = rest
            self.done = True
            return
        self._out = []
        self._gen = self._slices(g, made, rest, play.result)

    def _slices(self, g, made, rest, target):
        t = Turn(g.position, g.dice)
        yield
        for frm, to in made:  # the steps made, again on this turn
            t.step(frm, to)
            yield
        found = yield from _search(t, rest, target, self._out)
        self.hops = self._out if found else None

    def step(self):
        if not self.done:
            try:
                next(self._gen)
            except StopIteration:
                self.done = True
                self._gen = None
        return self.done
