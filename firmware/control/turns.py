# The commands that take a game from turn to turn: ROLL (pass a complete play, throw, or
# start the entry of physical dice; at game over the next game), the throw itself, UNDO and
# a new game. Controller.roll/apply_roll/undo/new call them; they change the game and the
# turn's dice (Throw, the controller's `throw`: owned and written here), emit the events
# and save through ctl.changed. The dice animations are the View's deadlines (present.py).
from display.view import BLINK_MS, ROLL_MS
from gammon.play import check_dice
from model.game import DONE, MOVE, OPENING, OVER, ROLL, hop_text

from control.errors import err
from control.present import rolled


class Throw:
    """The turn's dice outside the game: `entry`, the dice_entry.Entry of physical dice
    being entered (None: none); `shown`, the dice of a throw with no legal move, shown
    until their blink ends; `pending`, the throw a ROLL press that passed the turn left to
    the next tick (so that the press and the throw are steps of the loop of their own)."""

    def __init__(self):
        self.entry = None
        self.shown = None
        self.pending = False

    def stop_entry(self):
        """The entry in progress ends unfinished (the menu opens, physical dice are off)."""
        self.entry = None

    def taken(self):
        """Whether a throw was left to this tick; it is taken either way (a press first
        takes it back: the next press's to make)."""
        p = self.pending
        self.pending = False
        return p

    def blinked(self, blinking):
        """The shown dice go once their blink is over (`blinking`: the View's deadline);
        True when they went (the View to fill again)."""
        if self.shown and not blinking:
            self.shown = None
            return True
        return False


def roll(ctl, now, dice=None):
    """ROLL: (ok, {"dice", "player"}, {"dice": None, "entering": True}, the turn passed
    to the board {"dice": None, "player", "board": True}, or, the app's button passing the
    turn, {"dice": None, "player"}: thrown in the next tick) or (False, err)."""
    g = ctl.game
    if ctl.busy():
        return False, err("wrong_phase", "the board is playing")
    if ctl.offer_waiting():
        return False, err("wrong_phase", "an offer waits for its answer")
    if g.phase == MOVE:
        return False, err("wrong_phase", "finish the play first")
    if dice is not None:
        try:
            dice = check_dice(dice)
        except ValueError as exc:
            return False, err("bad_args", str(exc))
        if g.phase in (OPENING, OVER) and dice[0] == dice[1]:
            return False, err("illegal", "the opening dice must differ")
    t = ctl.throw
    t.entry = None
    if g.phase == OVER:
        new(ctl, now)
    passed = g.phase == DONE
    if passed:
        g.pass_turn()
        ctl.emit({"event": "turn", "player": g.turn})
    # the board throws its own dice electronically, also with the physical-dice setting:
    # its player (control/autoplay.py) throws on its next tick, a frame later (with the
    # cube it may double or resign first), so that the press passing the turn does not
    # also hold the loop for the board's throw (issue 11)
    board = g.phase == ROLL and ctl.by_board(g.turn)
    if board and dice is None:
        ctl.changed(now)
        return True, {"dice": None, "player": g.turn, "board": True}
    if dice is None and ctl.settings.physical_dice and not board:
        from control.dice_entry import Entry

        t.entry = Entry(g.phase == OPENING, g.turn, ctl.layout == "minimal")
        t.shown = None
        ctl.changed(now)
        return True, {"dice": None, "entering": True}
    if passed and dice is None and ctl.frame_first:
        # the app's ROLL button passed the turn: the throw is the next frame's (controller
        # tick), so that no step of the loop holds both (issue 11); a request throws at once
        ctl.changed(now)
        t.pending = True
        return True, {"dice": None, "player": g.turn}
    return apply_roll(ctl, dice, now)


def apply_roll(ctl, dice, now):
    """Throws (dice None) or takes the dice; the game is in OPENING or ROLL."""
    g = ctl.game
    t = ctl.throw
    t.entry = t.shown = None
    player = g.turn
    opening = g.phase == OPENING
    if opening:
        dice = dice or ctl.dice.opening()
        g.roll_opening(dice)
        player = g.turn
        moved = True
    else:
        dice = dice or ctl.dice.roll()
        moved = g.roll(dice)
    thrown = list(dice)  # one list for the events and the reply (a press allocates little)
    ctl.emit({"event": "roll", "player": player, "dice": thrown, "opening": opening})
    if not moved:
        t.shown = dice
        ctl.emit({"event": "nomove", "player": player, "dice": thrown})
        ctl.emit({"event": "turn", "player": g.turn})
    rolled(ctl.view, now, ROLL_MS, 0 if moved else BLINK_MS)
    if g.phase == MOVE and ctl.settings.autoplay and g.turn_state.forced:
        if not ctl.by_board(player):  # the board plays its forced moves step by step
            emit_steps(ctl, g.play_forced(), player)
    ctl.changed(now)
    return True, {"dice": thrown, "player": player}


def undo(ctl, now):
    """UNDO: the last die entered (physical dice), else the last step of the turn."""
    t = ctl.throw
    if t.entry:
        from control import dice_entry

        if not dice_entry.undo(t.entry, ctl.emit):
            t.entry = None  # nothing entered yet: the entry ends
        ctl.refresh(now)
        return True, {"step": None}
    g = ctl.game
    player = g.turn
    if ctl.by_board(player) and g.phase >= MOVE:  # MOVE, DONE, OVER
        return False, err("illegal", "the board's play cannot be taken back")
    hop = g.undo()
    if hop is None:
        return False, err("illegal", "nothing to undo")
    ctl.emit({"event": "undo", "player": player, "from": hop[0], "to": hop[1], "hit": hop[2]})
    ctl.changed(now)
    return True, {"step": hop_text(hop)}


def new(ctl, now):
    """The next game (of the match), with the terms set (model/settings.py)."""
    t = ctl.throw
    t.entry = t.shown = None
    s = ctl.settings
    ctl.game.new_game((s.match_length, s.cube, s.jacoby))
    ctl.emit({"event": "new", "game": ctl.game.game_number})


def emit_steps(ctl, made, player):
    """The `step` events of the single steps `made` [(frm, to, hit)] by `player`."""
    for f, t, hit in made:
        ctl.emit({"event": "step", "player": player, "from": f, "to": t, "hit": hit})


def over_event(g):
    """The `over` event of game `g`: its result, points, the score, the match's end
    (cubeless money play has no Match: its points are the result, its score the plain one)."""
    m = g.mp.match if g.mp else None
    return {"event": "over", "winner": g.winner, "result": g.result,
            "points": m.points if m else g.result, "score": list(m.score if m else g.plain),
            "match_over": m.over() if m else False}
