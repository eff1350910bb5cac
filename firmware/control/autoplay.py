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
# The cube and resignations (control/autoplay_cube.py, loaded only when the game's terms are
# not cubeless money play or an offer is made to one of its sides; gammon/cube_play.py
# decides, in one slice of one network evaluation): before each of its throws the board may
# offer to resign (a race it cannot win, or not without a gammon) or double; an offer made
# to one of its sides (a double, a resignation) it answers a pace after it is made. Every
# action goes through control/cube_actions.act(..., by_board=True), as a person's buttons.
from gc import collect

from display.view import BLINK_MS, ROLL_MS, target_of
from hw.ticks import ticks_add, ticks_diff
from model.game import DONE, MOVE, PLAIN, ROLL

from control import loader, present
from control.plan import Plan
from control.turns import emit_steps


def unload():
    """The player leaves (no side is the board's): its modules and weights go; None."""
    return loader.unload()


def cube_advice(ctl):
    """HINT on a person's cube decision now (for control/hint.py): see autoplay_cube."""
    from control.autoplay_cube import cube_advice as advice

    return advice(ctl)


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
        self.cube = None  # autoplay_cube.Cube once the cube is in play (or an offer made)

    def doing(self, ctl):
        """For `state`: None (not the board's to act), "roll", "think", "move" or "cube"
        (answering an offer made to one of its sides)."""
        g = ctl.game
        who = ctl.offered_to()
        if who >= 0:
            return "cube" if ctl.by_board(who) else None
        if not ctl.busy():
            return None
        if g.phase != MOVE:
            return "roll"
        ready = self.hops is not None and self.key == _key(g, ctl.settings.level)
        return "move" if ready else "think"

    def tick(self, ctl, now):
        """The board's next action when it is due (a throw, a cube decision, a slice of its
        thinking, a step shown or made); True when it thought a slice and more are to come."""
        if ctl.menu_item >= 0:
            return
        who = ctl.offered_to()
        if who >= 0 and not ctl.by_board(who):
            return  # a person answers the offer on the table
        if who < 0 and not ctl.busy():
            return
        if self.due and ticks_diff(self.due, now) > 0:
            return
        self.due = 0
        try:
            if who >= 0:  # seen, decided, answered: a pace, a tick, a pace
                wait = self._cubes().answer(self.opp, ctl, now)
                if not wait:
                    return True  # the next tick at once
                self._wait(now, wait)
            else:
                return self._act(ctl, now)
        except Exception as exc:  # a bug, no memory: said plainly, and a person plays on
            self._give_back(ctl, now, exc, who)

    def _give_back(self, ctl, now, exc, who=-1):
        side = ctl.game.turn if who < 0 else who  # (at the opening or a pass: one is enough)
        self.plan = self.hops = None
        try:
            message = "the board's player failed (%r): player %d is a person's now" % (exc, side)
        except MemoryError:  # not even room for the words (these are made already)
            message = "the board's player failed: no memory left"
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
            if g.phase == ROLL and g.terms != PLAIN:  # the cube first, a tick of its own
                wait = self._cubes().before_throw(self.opp, ctl, now)
                if wait is not None:  # decided (0: act at once), or doubled, or resigned
                    return self._wait(now, wait) if wait else True
            ctl.apply_roll(None, now)
            return
        if v.rolling_until and ticks_diff(v.rolling_until, now) > ROLL_MS - pace:
            return  # the dice are still rolling
        key = _key(g, ctl.settings.level)
        if self.hops is None or self.key != key:
            return self._think(ctl, key, now)
        frm, to = self.hops[0]
        if ctl.sel != frm:  # show the step: its checker and where it goes
            ctl.select(frm, now, {to: None})
            return self._wait(now, pace * 2 // 3)
        self.hops.pop(0)
        emit_steps(ctl, g.step(frm, to), g.turn)
        ctl.changed(now)  # saved; the selection goes
        self.key = _key(g, ctl.settings.level)
        self._wait(now, pace - pace * 2 // 3 if g.phase == MOVE else 2 * pace)

    def _cubes(self):
        """Its cube decisions (autoplay_cube.py), loaded when first needed."""
        if self.cube is None:
            from control.autoplay_cube import Cube

            self.cube = Cube()
        return self.cube

    def _think(self, ctl, key, now):
        """One slice of the plan for `key` (a new plan when the game or level changed since
        the last); its steps light from the next tick once it is made. True while more
        slices are to come (tick() returns it: the next frame can start at once)."""
        g = ctl.game
        p = self.plan
        if p is None or self.plan_key != key:
            level = ctl.settings.level
            rand = None
            if level == "easy":  # seeded by the board's dice: a seeded simulator repeats
                from gammon.opponent import chance

                b = ctl.dice.randbytes(2)
                rand = chance(b[0] << 8 | b[1])
            c = ctl.collector  # a choice starts with a collection: in the app's idle step
            self.opp.collect = c.soon if c is not None else collect
            p = self.plan = Plan(self.opp, g, level, rand)
            self.plan_key = key
            glow = 0
            for pt in g.turn_state.movable():
                glow |= 1 << target_of(g.turn, pt)
            self.glow = glow
        if not p.step():
            present.glow(ctl.view, self.glow)  # thinking: the checkers it may move glow
            return True
        self.plan = None
        self.hops = p.hops
        self.key = key
        ctl.refresh(now)  # the glow goes

