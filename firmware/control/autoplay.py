# The board's own player, Controller.bot while a side is the board's: throws its dice,
# thinks in slices (plan.py, one per frame, so LEDs and buttons go on), then makes its play
# step by step, paced so every step can be followed on the LEDs.
#
# Made by sides.player, which reports a player that cannot be loaded (no weights, a
# broken file, no memory: Bot() raises) and gives the sides back to people; dropped again
# by unload() when no side is the board's. The steps go through Game.step like a person's
# presses, so events, saves, the record and the rules of UNDO are the same; after a power
# cut the saved steps stay and the play is planned again from them (the strong level
# chooses the same play; another choice is completed from the steps made) and goes on.
#
# Pace (Controller.pace_ms, 700 ms): after a throw the dice roll, then the board thinks
# (its checkers that can move glow, one slice of the choice a frame, ~0.5-2 s on an RP2040
# for the strong level); each step lights its checker (the selection colour) and its
# destination (blinking) for 2/3 of the pace, then the checker moves, a hit one to the
# bar, and the board waits 1/3 of the pace before the next step. Board against board, it
# passes its own turn 2 paces after the play and throws again. A choice that fails (a bug,
# no memory) is reported (`no_player`) and the side goes back to a person.
#
# The cube and resignations (only when the game's terms are not cubeless money play, so the
# cube code stays unloaded otherwise; gammon/cube_play.py decides, in one slice of one
# network evaluation): before each of its throws the board may offer to resign (a race it
# cannot win, or not without a gammon) or double; an offer made to one of its sides (a
# double, a resignation) it answers a pace after it is made. Every action goes through
# control/cube_actions.act(..., by_board=True), as a person's buttons do.
from display.view import BLINK_MS, ROLL_MS, target_of
from hw.ticks import ticks_add, ticks_diff
from model.game import DONE, MOVE, PLAIN, ROLL

from control import loader
from control.plan import Plan


def unload():
    """The player leaves (no side is the board's): its modules and weights go; None."""
    return loader.unload()


def cube_advice(ctl):
    """HINT on a person's cube decision now (for control/hint.py): None when there is none
    (cubeless money play, a play under way, the board's own decision, a cube that cannot
    be turned), else gammon/cube_play.advice's dict (the strong level's "action" and the
    equities behind it) with "player", who decides, and "kind": "double" (before its
    throw, also while the other's play is complete), "take" (a double offered) or "accept"
    (a resignation offered)."""
    g = ctl.game
    if g.mp is None and g.terms == PLAIN:
        return None
    who = _offered_to(g)
    m = g.match
    if who >= 0:
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


def _offered_to(g):
    """The player who must answer the offer on the table (a double, a resignation), or -1."""
    mp = g.mp
    if mp is None:
        return -1
    m = mp.match
    return 1 - m.offer_by if m.offer else -1


def _key(g, level):
    """What a plan is for: the game, its turn, the steps made when it was made, the level."""
    return (g.game_number, len(g.codes), len(g.turn_state.steps) if g.turn_state else -1, level)


class Bot:
    """The board's player; `tick` does its next action when it is due. Raises when its
    opponent cannot be loaded (`opp`: the chooser, the board's shared one by default)."""

    def __init__(self, opp=None):
        self.opp = opp or loader.opponent()  # the weights now, while the heap is whole
        self.due = 0  # tick of the next action, 0: now
        self.hops = None  # the steps still to make
        self.key = None  # the _key they were planned for
        self.plan = None  # the Plan being thought out, for plan_key
        self.plan_key = None
        self.glow = 0  # while thinking: the targets of its checkers that can move
        self.cube_key = None  # the turn (game, turns recorded) its cube was considered for
        self.offer_key = None  # the offer it saw and waits a pace to answer
        self.resigned = None  # (game, value) of its last resignation: once rejected, only more

    def doing(self, ctl):
        """For `state`: None (not the board's to act), "roll", "think", "move" or "cube"
        (answering an offer made to one of its sides)."""
        g = ctl.game
        who = _offered_to(g)
        if who >= 0:
            return "cube" if ctl.by_board(who) else None
        if not ctl.busy():
            return None
        if g.phase != MOVE:
            return "roll"
        ready = self.hops is not None and self.key == _key(g, ctl.settings.level)
        return "move" if ready else "think"

    def tick(self, ctl, now):
        if ctl.menu_item >= 0:
            return
        who = _offered_to(ctl.game)
        if who >= 0 and not ctl.by_board(who):
            return  # a person answers the offer on the table
        if who < 0 and not ctl.busy():
            return
        if self.due and ticks_diff(self.due, now) > 0:
            return
        self.due = 0
        try:
            if who >= 0:
                self._answer(ctl, who, now)
            else:
                self._act(ctl, now)
        except Exception as exc:  # a bug, no memory: said plainly, and a person plays on
            self._give_back(ctl, now, exc, who)

    def _give_back(self, ctl, now, exc, who=-1):
        side = ctl.game.turn if who < 0 else who  # (at the opening or a pass: one is enough)
        self.plan = self.hops = None
        message = "the board's player failed (%r): player %d is a person's now" % (exc, side)
        ctl.player_failed(side, message, now)

    def _wait(self, now, ms):
        self.due = ticks_add(now, ms if ms > 0 else 1) or 1

    def _act(self, ctl, now):
        g = ctl.game
        v = ctl.view
        pace = ctl.pace_ms
        if g.phase != MOVE:  # the opening (board against board), its roll, or its pass
            if v.blink_until and ticks_diff(v.blink_until, now) > BLINK_MS - 2 * pace:
                return  # the last throw had no move: its dice blink a while first
            if g.phase == DONE:
                g.pass_turn()
                ctl.emit({"event": "turn", "player": g.turn})
            if g.phase == ROLL and g.terms != PLAIN and self._cube(ctl, now):
                return self._wait(now, pace)
            ctl.apply_roll(None, now)
            return
        if v.rolling_until and ticks_diff(v.rolling_until, now) > ROLL_MS - pace:
            return  # the dice are still rolling
        key = _key(g, ctl.settings.level)
        if self.hops is None or self.key != key:
            self._think(ctl, key, now)
            return
        frm, to = self.hops[0]
        if ctl.sel != frm:  # show the step: its checker and where it goes
            ctl.select(frm, now, {to: None})
            return self._wait(now, pace * 2 // 3)
        self.hops.pop(0)
        ctl.emit_steps(g.step(frm, to), g.turn)
        ctl.changed(now)  # saved; the selection goes
        self.key = _key(g, ctl.settings.level)
        self._wait(now, pace - pace * 2 // 3 if g.phase == MOVE else 2 * pace)

    def _cube(self, ctl, now):
        """Before its throw, once a turn: whether it offers to resign or doubles (done)."""
        g = ctl.game
        key = (g.game_number, len(g.codes))
        if self.cube_key == key:
            return False
        self.cube_key = key
        from gammon.cube_play import decide

        what = decide(self.opp.net, g.position, g.match, g.turn, ctl.settings.level)
        if what is None:
            return False
        if what == "double":
            _act(ctl, "double", now)
            return True
        last = self.resigned
        if last is not None and last[0] == g.game_number and what[1] <= last[1]:
            return False  # rejected once this game: it plays on rather than ask again
        self.resigned = (g.game_number, what[1])
        _act(ctl, "resign", now, what[1])
        return True

    def _answer(self, ctl, who, now):
        """An offer to one of its sides: seen first (it waits a pace), then answered."""
        g = ctl.game
        m = g.match
        key = (g.game_number, len(g.codes), m.offer, m.offer_value)
        if self.offer_key != key:
            self.offer_key = key
            return self._wait(now, ctl.pace_ms)
        self.offer_key = None
        from gammon.cube_play import answer

        _act(ctl, answer(self.opp.net, g.position, m, g.turn, ctl.settings.level), now)
        self._wait(now, ctl.pace_ms)

    def _think(self, ctl, key, now):
        """One slice of the plan for `key` (a new plan when the game or level changed since
        the last); its steps light from the next tick once it is made."""
        g = ctl.game
        p = self.plan
        if p is None or self.plan_key != key:
            level = ctl.settings.level
            rand = None
            if level == "easy":  # seeded by the board's dice: a seeded simulator repeats
                from gammon.opponent import chance

                b = ctl.dice.randbytes(2)
                rand = chance(b[0] << 8 | b[1])
            p = self.plan = Plan(self.opp, g, level, rand)
            self.plan_key = key
            glow = 0
            for pt in g.turn_state.movable():
                glow |= 1 << target_of(g.turn, pt)
            self.glow = glow
        if not p.step():
            ctl.view.movable = self.glow  # thinking: the checkers it may move glow
            return
        self.plan = None
        self.hops = p.hops
        self.key = key
        ctl.refresh(now)  # the glow goes


def _act(ctl, kind, now, value=None):
    """A cube action or resignation for the board's side, as a person's would go; a refusal
    is a bug in the player (raised, so the side goes back to a person)."""
    from control.cube_actions import act

    ok, reply = act(ctl, kind, now, value, by_board=True)
    if not ok:
        raise ValueError("%s refused: %s" % (kind, reply.get("message", reply)))
