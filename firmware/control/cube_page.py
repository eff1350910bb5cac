# The cube and resignations with the buttons (docs/firmware.md, "The cube on the board"):
# the page of what the person on roll may offer (a double; a resignation of a single game,
# a gammon or a backgammon) and the answer to an offer, each action through
# control/cube_actions.act as the protocol's are. The controller keeps the Page
# (Controller.page, through set_page); this module changes the choice in it. Loaded only
# when the cube is touched (DOUBLE, an offer waiting, MENU with a match on: minimal layout).
from display.view import (
    ASK_ACCEPT,
    ASK_DROP,
    ASK_NONE,
    ASK_OFFER,
    ASK_TAKE,
    OFFER_DOUBLE,
    OFFER_RESIGN,
    TARGET_DICE,
    point_of,
    target_of_button,
)
from model.game import DONE, MOVE, ROLL

from control.refusal import fail

YES = ("DOUBLE", "SELECT")  # take, accept: the full layout's DOUBLE, the minimal's SELECT
NO = "UNDO"  # reject; drop when pressed twice (the first lights the row red: "drop?")
RESIGNS = ((OFFER_RESIGN, 1), (OFFER_RESIGN, 2), (OFFER_RESIGN, 3))


class Page:
    """`options` [(kind, value)] player `by` may offer, `i` the one shown (the minimal
    layout steps through them); `drop`: the first NO to a double, waiting for the second.
    `glow`: the own points that resign (full layout: point 1, 2 or 3)."""

    def __init__(self, options=(), minimal=False, by=-1, drop=False):
        self.options = options
        self.i = 0
        self.minimal = minimal
        self.by = by
        self.drop = drop
        self.glow = [] if minimal else [v for k, v in options if k == OFFER_RESIGN]

    def shown(self):
        """(kind, value) lit in the opponent's row: the option chosen (minimal layout), else
        the double when there is one."""
        if not self.options:
            return 0, 0
        if self.minimal:
            return self.options[self.i]
        k, v = self.options[0]
        return (k, v) if k == OFFER_DOUBLE else (0, 0)


def waiting(ctl):
    """The game's Match when an offer waits for its answer, else None."""
    return ctl.game.mp.match if ctl.offer_waiting() else None


def options(ctl):
    """(player, [(kind, value)]): what a person may offer now, the double first; [] for
    nothing (the board's decision, an offer or a dice entry in progress, no game under
    way). Once a play is complete the next player may double (DOUBLE instead of ROLL);
    resignations are offered on one's turn. Cubeless money play (no Match made yet) offers
    the resignations without loading the match code."""
    g = ctl.game
    if g.phase not in (ROLL, MOVE, DONE) or ctl.throw.entry or ctl.offer_waiting():
        return -1, []
    if g.phase == DONE:
        p = 1 - g.turn
        if g.may_double and not ctl.by_board(p):
            return p, [(OFFER_DOUBLE, g.cube * 2)]
        return p, []
    if ctl.busy():
        return -1, []
    out = [(OFFER_DOUBLE, g.cube * 2)] if g.may_double else []
    declined = g.mp.match.declined if g.mp else 0
    for kind, value in RESIGNS:
        if value > declined:  # a rejected resignation is offered again only higher
            out.append((kind, value))
    return g.turn, out


def asking(ctl):
    """(view.ASK_*, of whom, kind shown, value shown) for the view and the state reply."""
    m = waiting(ctl)
    p = ctl.page
    if m is not None:
        who = 1 - m.offer_by
        if p is not None and p.drop:
            return ASK_DROP, who, 0, 0
        return (ASK_TAKE if m.offer == OFFER_DOUBLE else ASK_ACCEPT), who, 0, 0
    if p is not None and p.options:
        k, v = p.shown()
        return ASK_OFFER, p.by, k, v
    return ASK_NONE, -1, 0, 0


def open_page(ctl, name, now):
    """DOUBLE (or MENU in the minimal layout): the page of what may be offered."""
    by, opts = options(ctl)
    if not opts:
        return fail(ctl, "wrong_phase", "nothing to offer now", name, TARGET_DICE, now)
    ctl.set_page(Page(opts, ctl.layout == "minimal", by), now)


def press(ctl, name, now):
    """A press while an offer waits or the page is open, or DOUBLE (buttons.press)."""
    m = waiting(ctl)
    if m is not None:
        return _answer(ctl, m, name, now)
    p = ctl.page
    if p is None or not p.options:
        return open_page(ctl, name, now)
    if name == NO:  # closed, nothing offered
        return ctl.set_page(None, now)
    if p.minimal:
        if name == "LEFT" or name == "RIGHT":
            p.i = (p.i + (1 if name == "RIGHT" else -1)) % len(p.options)
            return ctl.refresh(now)
        if name in YES:
            return _offer(ctl, p.options[p.i], name, now)
    elif name == "DOUBLE":
        if p.options[0][0] == OFFER_DOUBLE:
            return _offer(ctl, p.options[0], name, now)
        msg = "no double now: resign with your point 1, 2 or 3"
        return fail(ctl, "illegal", msg, name, TARGET_DICE, now)
    else:
        t = target_of_button(name)
        if 0 <= t < 24 and point_of(p.by, t) in p.glow:
            return _offer(ctl, (OFFER_RESIGN, point_of(p.by, t)), name, now)
    msg = "offer with %s, UNDO closes" % ("SELECT" if p.minimal else "DOUBLE or point 1-3")
    fail(ctl, "wrong_phase", msg, name, target_of_button(name), now)


def _offer(ctl, option, name, now):
    kind, value = option
    ctl.set_page(None, now)
    if kind == OFFER_DOUBLE:
        return _act(ctl, "double", None, name, now)
    _act(ctl, "resign", value, name, now)


def _answer(ctl, m, name, now):
    """The answer of the person offered a double or a resignation: YES takes or accepts,
    NO rejects; a drop is NO twice (the first lights the row red), YES then still takes."""
    p = ctl.page
    double = m.offer == OFFER_DOUBLE
    if name in YES:
        return _act(ctl, "take" if double else "accept", None, name, now)
    if name == NO:
        if double and (p is None or not p.drop):
            return ctl.set_page(Page(drop=True), now)
        return _act(ctl, "drop" if double else "reject", None, name, now)
    if p is not None:  # a drop half asked is called off
        ctl.set_page(None, now)
    yes = "SELECT" if ctl.layout == "minimal" else "DOUBLE"
    if double:
        msg = "answer the double: %s takes, UNDO twice drops" % yes
    else:
        msg = "answer the resignation: %s accepts, UNDO rejects" % yes
    fail(ctl, "wrong_phase", msg, name, target_of_button(name), now)


def _act(ctl, kind, value, name, now):
    from control.cube_actions import act

    ok, out = act(ctl, kind, now, value)
    if not ok:
        fail(ctl, out["code"], out["message"], name, TARGET_DICE, now)
