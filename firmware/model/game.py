# One game of backgammon: its state, its record and its save text (no hardware, no UI); the
# save is read back by model/savefile.py, which imports this module (not the other way).
from array import array

from gammon.play import check_dice, legal_plays
from gammon.position import Position
from gammon.turn import Turn
from kernels.compat import const

OPENING = const(0)  # waiting for the opening roll
ROLL = const(1)  # waiting for `turn` to roll
MOVE = const(2)  # `turn` is entering a play
DONE = const(3)  # the play is complete; UNDO still works until the next roll
OVER = const(4)  # `winner` won `result` (1 single, 2 gammon, 3 backgammon)
PHASES = ("opening", "roll", "move", "done", "over")
VERSION = const(1)


def _name(n):
    return "bar" if n == 25 else ("off" if n == 0 else str(n))


def hop_text(hop):
    """One single step (frm, to, hit) in notation: "13/11", "bar/22*", "6/off"."""
    return "%s/%s%s" % (_name(hop[0]), _name(hop[1]), "*" if hop[2] else "")


class Game:
    """The position, dice, turn, the steps of the turn being played and the record.

    `position` is the position at the start of the current turn seen by `turn`;
    `current()` includes the steps entered so far. `history` holds one
    [player, d1, d2, play_code] per finished turn (code 0: no legal move).
    """

    def __init__(self, game_number=1):
        self.game_number = game_number
        self.cube = 1  # room for the cube and for matches
        self.cube_owner = -1
        self.match_length = 0
        self.score = [0, 0]
        self.reset()

    def reset(self):
        self.phase = OPENING
        self.turn = 0
        self.position = Position.start()
        self.start = None  # (Position, turn) of a set-up game, None for the usual start
        self.dice = None
        self.turn_state = None
        self.codes = array("i")  # the record, compact: play code of each finished turn
        self.rolls = bytearray()  # ... and its dice, d1 * 8 + d2
        self.first = 0  # the player of the first recorded turn (turns alternate)
        self.opening = None
        self.winner = None
        self.result = None

    def new_game(self):
        self.game_number += 1
        self.reset()

    def setup(self, position, turn=0):
        """Starts from `position` (seen by `turn`) with `turn` to roll: no opening roll."""
        if position.outcome():
            raise ValueError("that game is already over")
        self.reset()
        self.start = (position, turn)
        self.position = position
        self.turn = turn
        self.phase = ROLL

    @property
    def history(self):
        """[[player, d1, d2, play_code], ...]: one per finished turn (code 0: no move)."""
        out = []
        for i in range(len(self.codes)):
            r = self.rolls[i]
            out.append([(self.first + i) & 1, r >> 3, r & 7, self.codes[i]])
        return out

    def _record(self, code):
        if not self.codes:
            self.first = self.turn
        self.codes.append(code)
        self.rolls.append(self.dice[0] * 8 + self.dice[1])

    def current(self):
        """The position now, steps of this turn included, seen by `turn`."""
        return self.turn_state.result if self.turn_state else self.position

    def steps(self):
        return self.turn_state.steps if self.turn_state else ()

    def roll_opening(self, dice):
        """The opening roll (player 0's die, player 1's die): the higher plays both."""
        a, b = check_dice(dice)
        if self.phase != OPENING:
            raise ValueError("not the opening")
        if a == b:
            raise ValueError("the opening dice must differ")
        self.opening = [a, b]
        self.turn = 0 if a > b else 1
        return self._begin((a, b))

    def roll(self, dice):
        """`turn` throws `dice`; False when there is no legal move (the turn has passed)."""
        dice = check_dice(dice)
        if self.phase == DONE:
            self.pass_turn()
        if self.phase != ROLL:
            raise ValueError("not the time to roll")
        return self._begin(dice)

    def _begin(self, dice):
        t = Turn(self.position, dice)
        self.dice = dice
        if t.length == 0:
            self._record(0)
            self._pass(self.position)
            return False
        self.turn_state = t
        self.phase = MOVE
        return True

    def pass_turn(self):
        """Records the complete play and gives the dice to the other player."""
        if self.phase != DONE:
            raise ValueError("the play is not complete")
        t = self.turn_state
        self._record(t.code())
        self._pass(t.result)

    def _pass(self, position):
        self.position = position.swap()
        self.turn ^= 1
        self.dice = None
        self.turn_state = None
        self.phase = ROLL

    def step(self, frm, to):
        """Moves a checker (mover's numbers); returns the single steps made [(frm, to, hit)].

        ValueError when it is not a legal step now.
        """
        if self.phase != MOVE:
            raise ValueError("no move to make now")
        t = self.turn_state
        made = t.step(frm, to)
        if t.complete:
            outcome = t.result.outcome()
            if outcome:
                self._record(t.code())
                self.winner = self.turn if outcome > 0 else 1 - self.turn
                self.result = outcome if outcome > 0 else -outcome
                self.score[self.winner] += self.result * self.cube
                self.phase = OVER
            else:
                self.phase = DONE
        return made

    def play_forced(self):
        """Plays the only legal play, if the turn has one and nothing is entered yet."""
        if self.phase != MOVE or not self.turn_state.forced or self.turn_state.steps:
            return []
        made = []
        for frm, to, _ in legal_plays(self.position, self.dice)[0].steps:
            made += self.step(frm, to)
        return made

    def undo(self):
        """Takes back the last step of this turn (also a finished or winning play)."""
        t = self.turn_state
        if self.phase not in (MOVE, DONE, OVER) or not t or not t.steps:
            return None
        if self.phase == OVER:
            self.codes = self.codes[:-1]
            self.rolls = self.rolls[:-1]
            self.score[self.winner] -= self.result * self.cube
            self.winner = self.result = None
        self.phase = MOVE
        return t.undo()

    # The save format: replayed and checked move by move when loaded.
    def chunks(self):
        """The save as pieces of JSON text, so no large string or list is built."""
        d = self.dice
        yield '{"v":%d,"n":%d,"ph":%d,"t":%d,"o":%s,"d":%s,"s":[' % (
            VERSION,
            self.game_number,
            self.phase,
            self.turn,
            "[%d,%d]" % tuple(self.opening) if self.opening else "null",
            "[%d,%d]" % d if d else "null",
        )
        sep = ""
        for s in self.steps():
            yield "%s[%d,%d]" % (sep, s[0], s[1])
            sep = ","
        yield '],"w":%d,"r":%d,"cb":[%d,%d],"ml":%d,"sc":[%d,%d],"id":"%s"' % (
            -1 if self.winner is None else self.winner,
            self.result or 0,
            self.cube,
            self.cube_owner,
            self.match_length,
            self.score[0],
            self.score[1],
            self.position.position_id(),
        )
        if self.start:
            yield ',"st":["%s",%d]' % (self.start[0].position_id(), self.start[1])
        # The record: 9 characters a turn, d1 d2 and the play code in 7 hex digits.
        yield ',"f":%d,"h":"' % self.first
        for i in range(len(self.codes)):
            r = self.rolls[i]
            yield "%d%d%07x" % (r >> 3, r & 7, self.codes[i])
        yield '"}'

    def to_json(self):
        return "".join(self.chunks())
