# The board player's cube and resignations (autoplay.Bot.cube), loaded only once a game's
# terms bring the cube or an offer in, so cubeless money play keeps none of this code: before
# each of its throws the board may offer to resign or double (gammon/cube_play.decide, one
# network evaluation), and it answers an offer made to one of its sides a pace after it is
# made (cube_play.answer); every action goes through control/cube_actions.act(by_board=True).
# A decision and what follows it (its action, or the throw) are ticks of their own: the two
# together held the loop twice as long (~0.2-0.28 ms on the unix port in a match's game).
# Also HINT's advice on a person's cube decision (cube_advice).
from model.game import DONE, ROLL

from control import loader


class Cube:
    """What the board remembers of its cube decisions in a game."""

    def __init__(self):
        self.turn = None  # the turn (game, turns recorded) its cube was considered for
        self.what = None  # what it decided for that turn, not yet done (None: throw)
        self.seen = None  # the offer it saw and waits a pace to answer
        self.reply = None  # its answer to that offer, decided and not yet given
        self.resigned = None  # (game, value) of its last resignation: once rejected, no more

    def before_throw(self, opp, ctl, now):
        """Before its throw, once a turn: the ms to wait before its next tick (0: the
        decision is made, the next tick at once acts on it; a pace: it doubled or offered
        to resign), or None: throw now."""
        g = ctl.game
        key = (g.game_number, len(g.codes))
        if self.turn != key:
            self.turn = key
            from gammon.cube_play import decide

            self.what = decide(opp.net, g.position, g.match, g.turn, ctl.settings.level)
            return 0
        what = self.what
        self.what = None
        if what is None:
            return None
        if what == "double":
            _act(ctl, "double", now)
            return ctl.pace_ms
        last = self.resigned
        if last is not None and last[0] == g.game_number and what[1] <= last[1]:
            return None  # rejected once this game: it plays on rather than ask again
        self.resigned = (g.game_number, what[1])
        _act(ctl, "resign", now, what[1])
        return ctl.pace_ms

    def answer(self, opp, ctl, now):
        """An offer to one of its sides: the ms to wait before its next tick. Seen first (a
        pace), then decided (0: the next tick at once gives the answer), then answered (a
        pace)."""
        g = ctl.game
        m = g.match
        key = (g.game_number, len(g.codes), m.offer, m.offer_value)
        if self.seen != key:
            self.seen = key
            self.reply = None
            return ctl.pace_ms
        if self.reply is None:
            from gammon.cube_play import answer

            self.reply = answer(opp.net, g.position, m, g.turn, ctl.settings.level)
            return 0
        reply = self.reply
        self.seen = self.reply = None
        _act(ctl, reply, now)
        return ctl.pace_ms


def _act(ctl, kind, now, value=None):
    """A cube action or resignation for the board's side, as a person's would go; a refusal
    is a bug in the player (raised, so the side goes back to a person)."""
    from control.cube_actions import act

    ok, reply = act(ctl, kind, now, value, by_board=True)
    if not ok:
        raise ValueError("%s refused: %s" % (kind, reply.get("message", reply)))


def cube_advice(ctl):
    """HINT on a person's cube decision now (for control/hint.py): None when there is none
    (cubeless money play, a play under way, the board's own decision, a cube that cannot
    be turned), else gammon/cube_play.advice's dict (the strong level's "action" and the
    equities behind it) with "player", who decides, and "kind": "double" (before its
    throw, also while the other's play is complete), "take" (a double offered) or "accept"
    (a resignation offered)."""
    g = ctl.game
    if g.mp is None and not g.terms[0] and not g.terms[1]:
        return None
    m = g.match
    if m.offer:
        who = 1 - m.offer_by
        if ctl.by_board(who):
            return None
        roller = g.turn
        position = g.position
        kind = "take" if m.offer == 1 else "accept"  # gammon.match's DOUBLE
    else:
        if g.phase == ROLL:
            roller = g.turn
            position = g.position
        elif g.phase == DONE:  # the play before is complete: DOUBLE instead of ROLL
            roller = 1 - g.turn
            position = g.current().swap()
        else:
            return None
        if ctl.by_board(roller) or not m.may_double(roller):
            return None
        who = roller
        kind = "double"
    from gammon.cube_play import advice

    out = advice(loader.opponent().net, position, m, roller)
    out["player"] = who
    out["kind"] = kind
    return out
