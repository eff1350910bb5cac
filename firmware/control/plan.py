# Works out, in slices, what the board plays now and the single steps still to make: the
# level's choice, or, when that play does not keep the steps already made (after a power
# cut in an easy play, a person's steps before a hint), the best play at 0-ply that does.
# In a match to points both count gammons at the score (gammon/score_values.py).
from gammon.play import Play
from kernels.compat import const

from control.order import Order, fit

# Evaluations a slice of the board's thinking spends (~8.4 us each on the unix port): ~100 us
# a slice (~200 at the slowest; a reply roll's move search starts a slice of its own:
# gammon/opponent.py), ~18 ms on an RP2040, well
# within issue 11's 250 us (~45 ms there) a step, whose figure varies by ~30% from run to
# run on a shared machine; 24 a slice took ~200 us, ~350 at the slowest. Slices follow each
# other at once while the board thinks, a frame drawn between them only when one is due
# (app.py), so a smaller slice costs little: board against board, the simulator plays at the
# same rate with 24, 16 and 12 (bench: serial_read_actions_per_s 7.66). The strong choice's
# worst (2,400) takes ~270 slices, about 2 s on an RP2040 (estimated), against 1.8 s in one
# piece that held the loop.
_FRAME_SLICE = const(12)


def at_score(game):
    """The gammons' and backgammons' values for the player on roll in the game's match to
    points (gammon/score_values.py, loaded only then); None in money play."""
    mp = game.mp
    if mp is None or not mp.match.length:
        return None
    from gammon.score_values import values

    return values(mp.match, game.turn)


class Plan:
    """step() does one slice (about _FRAME_SLICE evaluations, or the ordering of the chosen
    play's steps); once it returns True, `play` is the Play and `hops` its single
    steps still to make, [(frm, to)] in an order the turn takes. Raises when the choice
    fails (a bug, no memory)."""

    def __init__(self, opp, game, level, rand=None):
        self.opp = opp
        self.game = game
        t = game.turn_state
        self.made = [(s[0], s[1]) for s in t.steps] if t.done else []  # (steps: a tuple)
        self.values = at_score(game)
        self.choice = self._think(level, rand, None)
        self.keeping = False  # the second choice: among the plays that keep the steps
        self.play = None
        self.hops = None
        self._order = None  # the Order of the chosen play's steps
        self._kept = None

    def step(self, evaluations=_FRAME_SLICE):
        c = self.choice
        if not c.done:
            c.step(evaluations)
            return False  # the order of the steps in slices of their own (Order)
        if c.play is None:
            raise ValueError("no legal play to choose from")
        g = self.game
        if self.keeping:
            hops = self._kept
        else:
            o = self._order
            if o is None:
                o = self._order = Order(g, c.play, self.made)
            if not o.step():
                return False
            hops = o.hops
            if hops is None:
                self.keeping = True
                self.choice = self._think("strong", None, self._keeps)
                return False
        self.play = c.play
        self.hops = hops
        return True

    def _think(self, level, rand, keeps):
        """The opponent's Choice; the values at the score only in a match (a chooser of
        money play's, a test's, need not know them)."""
        g = self.game
        if self.values is None:
            return self.opp.think(g.position, g.dice, level, rand, keeps)
        return self.opp.think(g.position, g.dice, level, rand, keeps, self.values)

    def _keeps(self, code):
        """Whether the play `code` keeps the steps made (its steps still to make kept)."""
        g = self.game
        hops = fit(g.turn_state, Play(g.position, g.dice, code), self.made)
        if hops is None:
            return False
        self._kept = hops
        return True
