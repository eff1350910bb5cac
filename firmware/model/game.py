# One game of backgammon within its match (the cube, resignations, the score): its state, its
# record and the finished games of the match (no hardware, no UI); its save text is written
# by model/savetext.py and read back by model/savefile.py, which imports this module.
from array import array

from gammon.play import check_dice
from gammon.position import Position
from gammon.turn import Turn
from kernels.compat import const

from model.savetext import GAME_WRAP, PLAIN, SCORE_MAX, pieces

TYPE_CHECKING = const(0)  # mypy reads the block below as true; the board compiles it away
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

OPENING = const(0)  # waiting for the opening roll
ROLL = const(1)  # waiting for `turn` to roll
MOVE = const(2)  # `turn` is entering a play
DONE = const(3)  # the play is complete; UNDO still works until the next roll
OVER = const(4)  # `winner` won `result` (1 single, 2 gammon, 3 backgammon)
PHASES = ("opening", "roll", "move", "done", "over")
# PLAIN, the default terms (cubeless money play, as before the cube), is model/savetext.py's.


def _name(n):
    return "bar" if n == 25 else ("off" if n == 0 else str(n))


def hop_text(hop):
    """One single step (frm, to, hit) in notation: "13/11", "bar/22*", "6/off"."""
    return "%s/%s%s" % (_name(hop[0]), _name(hop[1]), "*" if hop[2] else "")


class Game:
    """The position, dice, turn, the steps of the turn being played and the record, in a
    match: `match`, a gammon.match.Match (cube, offers, score), kept with this game's cube
    actions and the match's finished games by a model.matchplay.MatchPlay (`mp`).

    `position` is the position at the start of the current turn seen by `turn`;
    `current()` includes the steps entered so far. `history` holds one
    [player, d1, d2, play_code] per finished turn (code 0: no legal move).

    Cubeless money play (the default terms) is played as before the cube existed: its
    games stand alone (no finished games kept), the score is `plain`, and the MatchPlay
    is made only when something asks for it (gammon.match costs ~8 KB of heap).
    """

    def __init__(self, game_number=1, terms=None, base=None):
        """`base`: (score0, score1, Crawford, post-Crawford, game in match) of a match read
        back from a save; `terms` (length, cube on, Jacoby) default to PLAIN."""
        self.game_number = game_number  # the board's count of games (never restarts)
        self.terms = tuple(terms) if terms else PLAIN
        self.mp = None  # the MatchPlay, once made (model/matchplay.py)
        self.plain = [base[0], base[1]] if base else [0, 0]  # the score with no MatchPlay
        self.reset()
        if self.terms != PLAIN:
            self._play(base)

    def _play(self, base=None):
        """The MatchPlay, made (from the plain score, or `base`) when first asked for."""
        if not self.mp:
            from model.matchplay import make

            self.mp = make(self, base)
        return self.mp

    # The views of the record, cube and score (model/views.py's view(), no match code
    # needed) and the match's actions (model/matchplay.py's functions: each acts for the
    # right player or raises ValueError and changes nothing), both loaded when first asked
    # for, through __getattr__. Declared here for the type checker; on the board these
    # annotations take no room (each explicit property or method measured 3.2 KB more of a
    # money game's heap for the 21 of them on the unix port).
    history: "list[list[int]]"  # [[player, d1, d2, play_code], ...] one per finished turn
    score: "list[int]"
    match_length: int
    cube: int
    cube_owner: int  # -1: centred
    crawford: bool
    may_double: bool
    match_over: bool
    match_winner: "int | None"  # None until the match is over
    games: "Any"  # the finished games, model/past.py's Past
    points: "int | None"
    ended: "str | None"
    match: "Any"  # the gammon.match.Match, made when first asked for
    match_id: "Callable[[], str]"
    double: "Callable[[], None]"
    take: "Callable[[], None]"
    drop: "Callable[[], None]"
    resign: "Callable[[int], None]"
    accept: "Callable[[], None]"
    reject: "Callable[[], None]"
    new_match: "Callable[[Any], None]"

    def __getattr__(self, name):
        """A view (model/views.py), `match`, or a match action bound to this game
        (model/matchplay.py, views.ACTIONS); any other name raises AttributeError with no
        match code loaded (a mistyped name, hasattr)."""
        from model.views import ACTIONS, MISSING, view

        v = view(self, name)
        if v is not MISSING:
            return v
        if name == "match":
            return self._play().match
        if name not in ACTIONS:
            raise AttributeError(name)
        from model import matchplay

        act = getattr(matchplay, name)
        return lambda *args: act(self, *args)

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
        if self.mp:
            self.mp.start()

    def new_game(self, terms=None):
        """The next game of the match; a new match when it is over, or with other `terms`
        (length, cube on, Jacoby, from the settings) when no match to points is under way
        (money play, or nothing played yet). A match in progress keeps its terms."""
        self.game_number = self.game_number % GAME_WRAP + 1  # the save's range, wrapped
        if self.mp or (terms and tuple(terms) != self.terms):
            from model.matchplay import following

            self.renew(following(self, terms))
        else:
            self.reset()

    def renew(self, terms_plain):
        """A new match or money session: (terms, plain score); None: the match goes on."""
        if terms_plain:
            self.terms, self.plain = terms_plain
            self.mp = None
        self.reset()
        if self.terms != PLAIN:
            self._play()

    def _free(self, won=None):
        """ValueError while a double or a resignation waits for its answer; with `won`
        (MatchPlay's (winner, result) of a drop or an accepted resignation) the game ends."""
        if won:
            self.winner, self.result = won
            self.phase = OVER
        elif self.mp and self.mp.match.offer:
            raise ValueError("an offer waits for its answer")

    def setup(self, position, turn=0):
        """Starts from `position` (seen by `turn`) with `turn` to roll: no opening roll."""
        if position.outcome() or self.phase == OVER:
            raise ValueError("that game is already over")
        self._free()
        self.reset()
        self.start = (position, turn)
        self.position = position
        self.turn = turn
        self.phase = ROLL

    def _record(self, code):
        if self.mp:  # a move: a rejected resignation may be offered again (gammon.match)
            self.mp.match.went_on()
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
        self._free()
        if self.phase == DONE:
            self.pass_turn()
        if self.phase != ROLL:
            raise ValueError("not the time to roll")
        return self._begin(dice)

    def _begin(self, dice):
        if self.mp:  # a throw: the same
            self.mp.match.went_on()
        t = Turn(self.position, dice)
        self.dice = dice
        if t.length == 0:
            self._record(0)
            self._pass(self.position.swap())
            return False
        self.turn_state = t
        self.phase = MOVE
        return True

    def pass_turn(self):
        """Records the complete play and gives the dice to the other player."""
        if self.phase != DONE:
            raise ValueError("the play is not complete")
        self._free()
        t = self.turn_state
        self._record(t.code())
        self._pass(t.passed())

    def _pass(self, position):
        """The dice to the other player, who sees `position`."""
        self.position = position
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
        self._free()
        t = self.turn_state
        return self._made(t.step(frm, to))

    def _made(self, made):
        """After the steps `made`: the play complete (DONE), or the game won (OVER)."""
        t = self.turn_state
        if t.complete:
            outcome = t.result.outcome()
            if outcome:
                self._record(t.code())
                self.winner = self.turn if outcome > 0 else 1 - self.turn
                self.result = outcome if outcome > 0 else -outcome
                if self.mp:
                    self.mp.finish(self.winner, self.result)
                else:
                    w = self.winner  # the total stops at what the save holds
                    self.plain[w] = min(self.plain[w] + self.result, SCORE_MAX)
                self.phase = OVER
            else:
                self.phase = DONE
        return made

    def play_forced(self):
        """Plays the only legal play, if the turn has one and nothing is entered yet."""
        t = self.turn_state
        if self.phase != MOVE or not t.forced or t.done or (self.mp and self.mp.match.offer):
            return []
        return self._made(t.play_forced())

    def undo(self):
        """Takes back the last step of this turn (also a finished or winning play)."""
        t = self.turn_state
        mp = self.mp
        if self.phase not in (MOVE, DONE, OVER) or not t or not t.done or (
                mp and mp.match.offer):
            return None
        if self.phase == OVER:
            if mp:
                if not mp.unfinish():  # a drop or a resignation is final
                    return None
            else:
                self.plain[self.winner] -= self.result
            self.codes = self.codes[:-1]
            self.rolls = self.rolls[:-1]
            self.winner = self.result = None
        self.phase = MOVE
        return t.undo()

    # The save format (model/savetext.py writes it): replayed and checked when loaded.
    def chunks(self, full=None):
        """The save in pieces of about `full` bytes (by default savetext.FULL), each good
        only until the next is made: what the board writes to flash, building no string."""
        return pieces(self, full)

    def save_text(self):
        """The whole save text in one string (tests, hosts; the board writes chunks)."""
        out = []
        for p in pieces(self):  # a piece is a str, or bytes of the save buffer
            out.append(p if isinstance(p, str) else str(p, "ascii"))
        return "".join(out)

    to_json = save_text
