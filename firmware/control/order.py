# Orders a chosen play's single steps so the turn takes each one, after the steps made.
# A play is a set of single steps; Turn.step wants them one by one in an order it accepts
# (a bear-off that either die could make, a checker that must move before another can).


def _search(t, rest, target, out):
    """Makes the steps `rest` on Turn `t` in some order it accepts, ending on `target`;
    the order found goes to `out`. `t` is left as it was."""
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
        out.append(hop)
        ok = _search(t, rest[:i] + rest[i + 1 :], target, out)
        for _ in made:
            t.undo()
        if ok:
            return True
        out.pop()
    return False


def fit(t, play, made):
    """The steps of `play` still to make after the single steps `made` [(frm, to)], in an
    order Turn `t` takes; None if the play does not keep them."""
    rest = [(s[0], s[1]) for s in play.steps]
    for hop in made:
        if hop not in rest:
            return None
        rest.remove(hop)
    out = []
    return out if _search(t, rest, play.result, out) else None
