# The doubling cube, resignations and match play: the rules, shared by the board and the host.
# A Match holds what lasts across the games (length, score, the Crawford state, the settings)
# and what one game adds to it (the cube, its owner, an offer on the table, how it ended).
# Where the checkers stand and whose turn it is stay with the game; the game asks here.
from kernels.compat import const

_CUBE_MAX = const(64)
MAX_LENGTH = const(25)  # a match is to 1-25 points; 0 is money play
# A money session's total stops at SCORE_MAX and its game number wraps after GAMES_MAX:
# what its save holds (model/savetext.py's SCORE_MAX and MATCH_GAMES_MAX; a match to points
# is far from both)
SCORE_MAX = const(1 << 20)
GAMES_MAX = const(1 << 20)
# offers on the table
NO_OFFER = const(0)
DOUBLE = const(1)
RESIGN = const(2)
OFFERS = ("", "double", "resign")
# how a game ended
PLAYED = const(1)  # the last checker borne off
RESIGNED = const(2)  # a resignation accepted
DROPPED = const(3)  # a double dropped


class Match:
    """A match to `length` points (0: money play) with the cube on or off and, in money play,
    the Jacoby rule; `score` is the running total in money play. Every method that acts
    raises ValueError when the action is not allowed now and then changes nothing."""

    def __init__(self, length=0, cube_on=True, jacoby=True):
        if not isinstance(length, int) or not 0 <= length <= MAX_LENGTH:
            raise ValueError("a match is to 1-%d points, or 0 for money play" % MAX_LENGTH)
        self.length = length
        self.cube_on = bool(cube_on)
        self.jacoby = bool(jacoby)
        self.score = [0, 0]
        self.crawford = False  # this game is the Crawford game: no doubling
        self.post_crawford = False  # the Crawford game has been played
        self.game_number = 1
        self._clear()

    def _clear(self):
        self.cube = 1
        self.owner = -1  # -1: centred
        self.offer = NO_OFFER
        self.offer_by = -1
        self.offer_value = 0  # a resignation's 1, 2 or 3
        self.ended = 0  # PLAYED, RESIGNED or DROPPED once the game is over
        self.winner = -1
        self.decider = -1  # who answered the offer that ended the game
        self.declined = 0  # a resignation just rejected: until play goes on, only more
        self.points = 0  # what the game's winner scored

    # --- the match
    def over(self):
        """Whether a player has reached the match length (never in money play)."""
        return self.length > 0 and (self.score[0] >= self.length or self.score[1] >= self.length)

    def match_winner(self):
        if not self.over():
            return -1
        return 0 if self.score[0] >= self.length else 1

    def next_game(self):
        """Starts the next game of the match with the cube in the middle."""
        if not self.ended:
            raise ValueError("the game is not over")
        if self.over():
            raise ValueError("the match is over")
        self.game_number = self.game_number % GAMES_MAX + 1
        self._clear()

    def abandon(self):
        """The game in progress counts for nothing (a new game instead): the cube is reset."""
        if self.ended:
            raise ValueError("the game is over")
        self._clear()

    # --- the cube
    def may_double(self, player):
        """Whether `player` (on roll, before rolling: the game checks that) may double now."""
        return (
            self.cube_on
            and not self.crawford
            and not self.ended
            and self.offer == NO_OFFER
            and self.owner in (-1, player)
            and self.cube < _CUBE_MAX
            and not self._dead(player)
        )

    def _dead(self, player):
        """A cube that wins the match for `player` already cannot be turned (as gnubg)."""
        return self.length > 0 and self.score[player] + self.cube >= self.length

    def double(self, player):
        if not self.may_double(player):
            raise ValueError(self._why_not_double(player))
        self.declined = 0
        self._offer(DOUBLE, player, self.cube * 2)

    def _why_not_double(self, player):
        if not self.cube_on:
            return "cube play is off"
        if self.crawford:
            return "no doubling in the Crawford game"
        if self.ended:
            return "the game is over"
        if self.offer:
            return "a %s is offered" % OFFERS[self.offer]
        if self.cube >= _CUBE_MAX:
            return "the cube is at %d" % _CUBE_MAX
        if self._dead(player):
            return "the cube is dead: its value already wins the match"
        return "the cube is the other player's"

    def take(self, player):
        """The doubled player takes: the cube doubles and is theirs."""
        self._answer(DOUBLE, player)
        self.cube *= 2
        self.owner = player
        self._offer(NO_OFFER, -1, 0)

    def drop(self, player):
        """The doubled player drops: the doubler wins the cube's value (no gammons)."""
        self._answer(DOUBLE, player)
        self._end(1 - player, self.cube, DROPPED)

    # --- resignations
    def resign(self, player, value):
        """`player` offers to resign a single game (1), a gammon (2) or a backgammon (3)."""
        if value not in (1, 2, 3):
            raise ValueError("a resignation is of 1 (single), 2 (gammon) or 3 (backgammon)")
        if self.ended:
            raise ValueError("the game is over")
        if self.offer:
            raise ValueError("a %s is offered" % OFFERS[self.offer])
        if value <= self.declined:
            raise ValueError("that resignation was rejected: offer more, or play on")
        self._offer(RESIGN, player, value)

    def accept(self, player):
        """The other player accepts the resignation: the game ends with its value."""
        self._answer(RESIGN, player)
        # what was offered times the cube: the Jacoby rule counts played-out games only (gnubg)
        self._end(player, self.offer_value * self.cube, RESIGNED)

    def reject(self, player):
        """The other player rejects the resignation: play goes on."""
        self._answer(RESIGN, player)
        self.declined = self.offer_value
        self._offer(NO_OFFER, -1, 0)

    def went_on(self):
        """The game moved on (a roll, a move, a cube action): a rejected resignation may be
        offered again (gnubg forgets it at its next move record)."""
        self.declined = 0

    # --- the end of a game
    def value_of(self, result):
        """What a game won with `result` (1 single, 2 gammon, 3 backgammon) scores now: times
        the cube; in money play with the Jacoby rule a gammon counts once the cube is turned."""
        if self.length == 0 and self.cube_on and self.jacoby and self.cube == 1:
            result = 1
        return result * self.cube

    def finish(self, winner, result):
        """The game was played out: `winner` bore off the last checker with `result`."""
        if self.ended:
            raise ValueError("the game is over")
        if result not in (1, 2, 3) or winner not in (0, 1):
            raise ValueError("a game is won by 0 or 1 with 1, 2 or 3")
        self._end(winner, self.value_of(result), PLAYED)

    def _end(self, winner, points, how):
        self.decider = 1 - self.offer_by if self.offer else -1
        if how != RESIGNED:  # gnubg keeps an accepted resignation's value in the Match ID
            self._offer(NO_OFFER, -1, 0)
        else:
            self.offer = NO_OFFER
        self.ended = how
        self.winner = winner
        self.points = points
        self.score[winner] = min(self.score[winner] + points, SCORE_MAX)
        # The Crawford state moves on when a game ends, as gnubg's Match ID shows it: the
        # Crawford game is the first after a player reaches length - 1; the rest are after it.
        if self.crawford:
            self.crawford = False
            self.post_crawford = True
        elif self.length and not self.post_crawford and not self.over():
            self.crawford = self.length - 1 in self.score

    def _offer(self, kind, by, value):
        self.offer = kind
        self.offer_by = by
        self.offer_value = value

    def _answer(self, kind, player):
        if self.offer != kind:
            raise ValueError("no %s is offered" % OFFERS[kind])
        if player != 1 - self.offer_by:
            raise ValueError("the offer is for the other player to answer")

    # --- state kept and put back (small additions for the game model's undo and save)
    def snapshot(self):
        """Every field that changes, as a tuple: restore() puts it back (an undone win)."""
        return (
            self.score[0], self.score[1], self.crawford, self.post_crawford, self.game_number,
            self.cube, self.owner, self.offer, self.offer_by, self.offer_value, self.ended,
            self.winner, self.decider, self.points,
        )

    def restore(self, s):
        (s0, s1, self.crawford, self.post_crawford, self.game_number, self.cube, self.owner,
         self.offer, self.offer_by, self.offer_value, self.ended, self.winner, self.decider,
         self.points) = s
        self.score = [s0, s1]

    def resume(self, score, crawford, post_crawford, game_number, cube=1, owner=-1):
        """A match read back at the start of game `game_number` with `score` (a save; a
        save of version 1 also had room for a cube)."""
        if self.ended or self.game_number != 1 or self.score != [0, 0]:
            raise ValueError("only a new match resumes")
        if (crawford or post_crawford) and not (self.length and self.length - 1 in score):
            raise ValueError("no Crawford game without a player one point short")
        if (crawford and post_crawford) or (self.length and max(score) >= self.length):
            raise ValueError("not a match in progress")
        c = 1
        while c < cube:
            c *= 2
        if c != cube or cube > _CUBE_MAX or owner not in (-1, 0, 1) or (cube > 1) != (owner >= 0):
            raise ValueError("not a cube: %r owned by %r" % (cube, owner))
        self.score = [score[0], score[1]]
        self.crawford = bool(crawford)
        self.post_crawford = bool(post_crawford)
        self.game_number = game_number
        self.cube = cube
        self.owner = owner

    # --- gnubg's view
    def deciding(self, on_roll):
        """The player who must act: the one an offer is made to, else the player on roll."""
        return 1 - self.offer_by if self.offer else on_roll

    def id_fields(self, on_roll, dice=None):
        """The fields of gnubg's Match ID (gammon.matchid.encode) for this state with
        `on_roll` the player on roll and `dice` thrown (None before the roll). As gnubg
        writes them: once a game is played out the loser is on roll without dice; after a
        drop or an accepted resignation the player who answered is the one to act."""
        d = dice or (0, 0)
        if d[0] < d[1]:
            d = (d[1], d[0])
        turn = self.deciding(on_roll)
        if self.ended == PLAYED:
            on_roll = turn = 1 - self.winner
            d = (0, 0)
        elif self.ended:
            turn = self.decider
            if self.ended == DROPPED:
                d = (0, 0)
        return {
            "cube": self.cube,
            "owner": self.owner,
            "move": on_roll,
            "crawford": self.crawford,
            "state": (1, 2, 3, 4)[self.ended],  # playing, over, resigned, dropped
            "turn": turn,
            "doubled": self.offer == DOUBLE,
            "resigned": self.offer_value if self.offer == RESIGN or self.ended == RESIGNED else 0,
            "die1": d[0],
            "die2": d[1],
            "length": self.length,
            "score0": self.score[0],
            "score1": self.score[1],
            "jacoby_off": not (self.jacoby and self.cube_on and self.length == 0),
        }
