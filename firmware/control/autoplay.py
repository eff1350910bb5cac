# The board's own player: throws its dice, chooses with gammon.opponent and makes its play
# step by step, paced by Controller.tick so every step can be followed on the LEDs; and HINT.
#
# Loaded only when a side is the board's (settings.players) or a hint is asked for, with the
# weights (gammon.opponent.shared, firmware/weights.bin), and dropped again when no side is
# the board's (a hint's weights stay until a restart).
# The steps go through Game.step like a person's presses, so events, saves, the record and
# the rules of UNDO are the same; after a power cut the saved steps stay and the play is
# planned again from them (the strong level chooses the same play; any choice that fits the
# steps made will do) and goes on.
#
# Pace (Controller.pace_ms, 700 ms): after a throw the dice roll, then the board thinks
# (strong: up to ~2 s on an RP2040, the LEDs still); each step lights its checker (the
# selection colour) and its destination (blinking) for 2/3 of the pace, then the checker
# moves, a hit one to the bar, and the board waits 1/3 of the pace before the next step.
# Board against board, it passes its own turn 2 paces after the play and throws again.
from display.view import BLINK_MS, ROLL_MS, target_of
from gammon.play import Play
from hw.ticks import ticks_add, ticks_diff
from kernels.compat import const
from model.game import DONE, MOVE, hop_text

from control.errors import err

_TOP = const(8)  # 0-ply candidates tried when the choice does not fit the steps made


def weights_path():
    """weights.bin beside this module: the board's root (where `ledgammon deploy` puts it),
    firmware/ in the simulator and the tests."""
    f = globals().get("__file__") or ""  # none when frozen into the firmware: the root
    f = f[: f.rfind("/")]  # control/, in the root
    return f[: f.rfind("/") + 1] + "weights.bin"


def _rand(dice):
    """rand(n) in [0, n) for the easy level's chance: seeded from the board's dice generator
    once a choice, then a small LCG (x * 75 + 74 mod 65537), so the hundreds of calls of one
    choice allocate nothing (its numbers stay small ints on a 32-bit board)."""
    b = dice.randbytes(2)
    state = [b[0] << 8 | b[1]]

    def rand(n):
        state[0] = (state[0] * 75 + 74) % 65537
        return state[0] % n

    return rand


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


def _fit(t, play, made):
    """The steps of `play` still to make after the single steps `made`, in an order the
    turn takes (a bear-off may use either die); None if the play does not keep them."""
    rest = [(s[0], s[1]) for s in play.steps]
    for hop in made:
        if hop not in rest:
            return None
        rest.remove(hop)
    out = []
    return out if _search(t, rest, play.result, out) else None


def _first(t):
    """The turn's first legal play in its own order (the highest checker first, one die a
    step): (play, steps), for when no choice can be had."""
    hops = []
    n = 0
    while not t.complete:
        frm = t.movable()[0]
        dests = t.destinations(frm)
        to = -1
        for k in dests:
            if len(dests[k]) == 1 and k > to:
                to = k
        if to < 0:
            to = min(dests)
        n += len(t.step(frm, to))
        hops.append((frm, to))
    play = t.play
    for _ in range(n):
        t.undo()
    return play, hops


def plan(ctl, level, rand=None):
    """(play, steps): the play the board makes now at `level` and its single steps still to
    make, [(frm, to)] in an order the turn takes. Never fails: if the choice raised (it is
    reported as an `error` event), the first legal play."""
    g = ctl.game
    t = g.turn_state
    made = [(s[0], s[1]) for s in t.steps]
    try:
        opp = ctl.bot.opp if ctl.bot and ctl.bot.opp else _shared()
        play = opp.choose(g.position, g.dice, level, rand)
        hops = _fit(t, play, made)
        if hops is None:  # after steps made otherwise (a hint, an easy play resumed)
            for _, code in opp.best(bytearray(g.position.key()), g.dice, _TOP):
                play = Play(g.position, g.dice, code)
                hops = _fit(t, play, made)
                if hops is not None:
                    break
        if hops is not None:
            return play, hops
    except Exception as exc:  # no weights, no memory, a bug: the game goes on regardless
        ctl.emit({"event": "error", "code": "internal", "message": "board player: %r" % exc})
    return _first(t)


def _shared():
    from gammon.opponent import shared

    return shared(weights_path())


def unload():
    """Drops this module and the opponent with its weights (no side is the board's any
    more), so the heap gets them back; returns None."""
    from kernels.compat import unload

    for name in ("control.autoplay", "gammon.opponent", "kernels.net"):
        unload(name)


def _key(g):
    """What a plan is for: the game, its turn and the steps made when it was made."""
    return (g.game_number, len(g.codes), len(g.turn_state.steps) if g.turn_state else -1)


class Bot:
    """The board's player of Controller.bot; `tick` does its next action when it is due."""

    def __init__(self):
        self.due = 0  # tick of the next action, 0: now
        self.hops = None  # the steps still to make
        self.key = None  # the _key they were planned for
        self.safe = False  # after a failure: the first legal play, no choice
        self.opp = None  # the chooser: gammon.opponent.shared() when None (tests give one)
        try:  # the weights now, while the heap is whole (at boot): ~10-20 KB in few blocks
            _shared()
        except Exception:  # MemoryError, no file: the first choice reports it
            pass

    def doing(self, ctl):
        """For `state`: None (not the board's to act), "roll", "think" or "move"."""
        g = ctl.game
        if not ctl.busy():
            return None
        if g.phase != MOVE:
            return "roll"
        return "move" if self.hops is not None and self.key == _key(g) else "think"

    def tick(self, ctl, now):
        if ctl.menu_item >= 0 or not ctl.busy():
            return
        if self.due and ticks_diff(self.due, now) > 0:
            return
        self.due = 0
        try:
            self._act(ctl, now)
        except Exception as exc:  # a bug must not stall the game: retry with the first play
            self.safe = True
            self.hops = None
            self.due = ticks_add(now, ctl.pace_ms) or 1
            ctl.emit({"event": "error", "code": "internal", "message": "board: %r" % exc})
            ctl.turn_changed(now)

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
            ctl.apply_roll(None, now)
            return
        if v.rolling_until and ticks_diff(v.rolling_until, now) > ROLL_MS - pace:
            return  # the dice are still rolling
        key = _key(g)
        if self.hops is None or self.key != key:  # think: the steps light from the next tick
            if self.safe:
                self.hops = _first(g.turn_state)[1]
                self.safe = False
            else:
                s = ctl.settings
                rand = _rand(ctl.dice) if s.level == "easy" else None
                self.hops = plan(ctl, s.level, rand)[1]
            self.key = key
            return
        frm, to = self.hops[0]
        if ctl.sel != frm:  # show the step: its checker and where it goes
            ctl.sel = frm
            ctl.dests = {to: None}
            ctl.refresh(now)
            return self._wait(now, pace * 2 // 3)
        self.hops.pop(0)
        ctl.emit_steps(g.step(frm, to), g.turn)
        ctl.changed(now)  # saved; the selection goes
        self.key = _key(g)
        self._wait(now, pace - pace * 2 // 3 if g.phase == MOVE else 2 * pace)


def hint(ctl, now):
    """HINT: lights the rest of the play the board would make (strong) from the steps made,
    its sources glowing and its destinations blinking, until the next press."""
    g = ctl.game
    if g.phase != MOVE or ctl.busy() or ctl.entry or ctl.menu_item >= 0:
        return False, err("wrong_phase", "a hint is for a person's play, the dice thrown")
    play, hops = plan(ctl, "strong")
    t = g.turn_state
    made = []
    for frm, to in hops:
        made += t.step(frm, to)
    for _ in made:
        t.undo()
    src = dst = 0
    for frm, to, _ in made:
        src |= 1 << target_of(g.turn, frm)
        dst |= 1 << target_of(g.turn, to)
    ctl.sel = -1
    ctl.dests = {}
    ctl.hint = (src, dst)
    ctl.refresh(now)
    return True, {"play": str(play), "steps": [hop_text(h) for h in made]}
