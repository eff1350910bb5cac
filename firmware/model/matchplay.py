# The match side of a game: the Match (cube, offers, score), the record of this game's cube
# actions and resignations, the finished games of the match (model/past.py), and the Game's
# actions of them (Game.double and the others). Loaded only when a game asks for it:
# cubeless money play, the default, never does (heap: the board's plain game keeps ~8 KB free).
from array import array

from gammon.match import PLAYED, Match
from kernels.compat import const

_ROLL = const(1)  # model/game.py's ROLL, MOVE, DONE and OVER
_MOVE = const(2)
_DONE = const(3)
_OVER = const(4)
_SLOTS = const(4096)  # an action's slot (2 a turn) is written in 3 hex digits
# The cube actions and resignations of the record (model/past.py's ACTIONS names them;
# A_RESIGN + value - 1 is a resignation of 1-3).
A_DOUBLE = const(1)
A_TAKE = const(2)
A_DROP = const(3)
A_RESIGN = const(4)
A_ACCEPT = const(7)
A_REJECT = const(8)
PLAIN = (0, False, True)  # model/game.py's PLAIN: cubeless money play


class MatchPlay:
    """`match` with `acts`, one slot << 5 | action << 1 | player per cube action or
    resignation of the game in play (slot: twice the number of turns recorded before it,
    plus one once that turn's dice are thrown), and `games`, the finished games (Past)."""

    def __init__(self, terms, base):
        """`terms` (length, cube on, Jacoby); `base` (score0, score1, Crawford,
        post-Crawford, game in match) where the match resumes (ValueError if it cannot)."""
        m = Match(terms[0], terms[1], terms[2])
        m.resume([base[0], base[1]], base[2], base[3], base[4])
        self.match = m
        self.games = []
        self.start()

    def start(self):
        """A game of the match begins: no actions yet; the score and Crawford state noted."""
        m = self.match
        self.acts = array("i")
        self.won = None  # the match as it was before a winning play (undo)
        self.before = (m.score[0], m.score[1], m.crawford, m.post_crawford)

    def resume_games(self, games):
        """The finished games read back from a save (model/savefile.py replayed them)."""
        self.games = games
        self.start()

    def _act(self, action, player, slot):
        self.acts.append(slot << 5 | action << 1 | player)

    # --- the cube and resignations for the game (phase, player, slot); ValueError: nothing
    def double(self, phase, player, slot):
        if phase != _ROLL or slot + 1 >= _SLOTS:
            raise ValueError("a double is offered before rolling")
        self.match.double(player)
        self._act(A_DOUBLE, player, slot)

    def take(self, player, slot):
        self.match.take(player)
        self._act(A_TAKE, player, slot)

    def drop(self, player, slot):
        """(winner, result) of the game the drop ends."""
        self.match.drop(player)
        self._act(A_DROP, player, slot)
        return self.match.winner, 1

    def resign(self, phase, player, value, slot):
        if phase not in (_ROLL, _MOVE, _DONE) or slot + 1 >= _SLOTS:
            raise ValueError("a resignation is offered on your turn")
        self.match.resign(player, value)
        self._act(A_RESIGN - 1 + value, player, slot)

    def accept(self, player, slot):
        """(winner, result) of the game the accepted resignation ends."""
        self.match.accept(player)
        self._act(A_ACCEPT, player, slot)
        return self.match.winner, self.match.offer_value

    def reject(self, player, slot):
        self.match.reject(player)
        self._act(A_REJECT, player, slot)

    # --- the end of a game played out, and its undoing
    def finish(self, winner, result):
        self.won = self.match.snapshot()
        self.match.finish(winner, result)

    def unfinish(self):
        """Takes the played-out end back; False (nothing changed) after a drop or a
        resignation, which are final."""
        if self.match.ended != PLAYED or self.won is None:
            return False
        self.match.restore(self.won)
        self.won = None
        return True

    # --- from game to game
    def under_way(self, phase):
        """Whether a match to points has begun and goes on: new terms wait for its end."""
        m = self.match
        return m.length > 0 and not m.over() and (
            len(self.games) > 0 or phase != 0 or m.game_number > 1 or m.ended > 0
        )

    def next(self, g):
        """The next game of the match after game `g` (kept when finished; an unfinished
        game is abandoned and counts for nothing)."""
        m = self.match
        if m.ended:
            from model.past import of, trim

            self.games.append(of(g, self))
            trim(self.games)
            m.next_game()
        else:
            m.abandon()

    def base(self):
        """(score0, score1, crawford, post_crawford, game in match) at the start of the
        oldest game kept: where a save's replay of the match begins."""
        g = self.games
        return g[0].before + (g[0].number,) if g else self.before + (self.match.game_number,)

    def chunks(self):
        """The save's part of the match, after the game's terms and score."""
        m = self.match
        yield ',"cb":[%d,%d],"x":[%d,%d,%d,%d,%d],"a":"' % (
            m.cube, m.owner, m.offer, m.offer_by, m.offer_value, m.crawford, m.post_crawford,
        )
        for a in self.acts:
            yield "%03x%d%d" % (a >> 5, (a >> 1) & 15, a & 1)
        yield '","b":[%d,%d,%d,%d,%d],"g":[' % self.base()
        if self.games:
            from model.past import chunks

            yield from chunks(self.games)
        yield "]"

    def match_id(self, turn, dice):
        """gnubg's Match ID (a money score is written modulo 2^15, as its 15 bits hold)."""
        from gammon.matchid import encode

        f = self.match.id_fields(turn, dice)
        f["score0"] &= 0x7FFF
        f["score1"] &= 0x7FFF
        return encode(f)


# --- model.game.Game's actions of its match (Game.double and the others call these)
def make(g, base):
    """The MatchPlay of game `g` at `base`, or from its plain score (its game counted)."""
    b = list(base or (g.plain[0], g.plain[1], False, False, 1))
    if g.phase == _OVER and not base:  # the score holds the game's result already
        b[g.winner] -= g.result
    mp = MatchPlay(g.terms, b)
    if g.phase == _OVER:
        mp.finish(g.winner, g.result)
    return mp


def following(g, terms):
    """What Game.new_game starts after game `g`: (terms, plain score) of a new match or
    money session, or None for the next game of the match (made ready here)."""
    mp = g.mp
    if terms and tuple(terms) != g.terms and not (mp and mp.under_way(g.phase)):
        return tuple(terms), [0, 0]
    if mp.match.over():
        return g.terms, [0, 0]
    if g.terms == PLAIN and not mp.games:  # cubeless money play: the games stand alone
        return PLAIN, list(mp.match.score)
    mp.next(g)
    return None


def _slot(g):
    """Where an action falls in game `g`'s record: before or after this turn's throw."""
    return 2 * len(g.codes) + (1 if g.phase in (_MOVE, _DONE) else 0)


def double(g):
    g._play().double(g.phase, g.turn, _slot(g))


def take(g):
    g._play().take(1 - g.turn, _slot(g))


def drop(g):
    g._free(g._play().drop(1 - g.turn, _slot(g)))


def resign(g, value):
    g._play().resign(g.phase, g.turn, value, _slot(g))


def accept(g):
    g._free(g._play().accept(1 - g.turn, _slot(g)))


def reject(g):
    g._play().reject(1 - g.turn, _slot(g))


def match_id(g):
    """The play complete (DONE) and nothing offered: as gnubg has it once a play is made,
    the other player to roll."""
    mp = g._play()
    if g.phase == _DONE and not mp.match.offer:
        return mp.match_id(1 - g.turn, None)
    return mp.match_id(g.turn, g.dice if g.phase >= _MOVE else None)


def new_match(g, terms):
    """A new match (or money session) now, the one in progress given up."""
    g.renew((tuple(terms), [0, 0]))
