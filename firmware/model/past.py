# The finished games of a match, kept for its history (the .mat export) and its save: each as
# its record's text and a few numbers, the oldest records dropped when room runs out. Loaded
# only once a game of a match (or of a money session with the cube) has ended.
from kernels.compat import const
from kernels.text import record_turns

# The finished games kept with their moves: at most this many characters of their records
# (9 a turn); older games keep their summary and cube actions only, so a save stays far
# below hw/storage.MAX_SAVE (16 KB) in any match. A money session keeps its last MAX_GAMES.
RECORD_ROOM = const(7200)
MAX_GAMES = const(50)
# The names of model/game.py's A_DOUBLE ... A_REJECT (4-6: a resignation of 1-3).
ACTIONS = ("", "double", "take", "drop", "resign", "resign", "resign", "accept", "reject")


class Past:
    """A finished game: its record as the save writes it (None once dropped for room),
    its cube actions' text, how it ended and the score and Crawford state it began with."""

    def __init__(self, number, opening, start, first, record, acts, before, how, winner,
                 result, points):
        self.number = number  # in the match
        self.opening = opening
        self.start = start  # None, or (position ID, turn) of a set-up game
        self.first = first
        self.record = record
        self.acts = acts
        self.before = before  # (score0, score1, crawford, post_crawford) at its start
        self.how = how  # gammon.match's PLAYED, RESIGNED or DROPPED
        self.winner = winner
        self.result = result
        self.points = points


def record_text(g):
    """The record of a game's turns as the save writes it (9 characters a turn), written by
    the save's own kernel into one buffer (not a string a turn, then joined)."""
    n = len(g.codes)
    buf = bytearray(9 * n)
    record_turns(buf, 0, 9 * n, g.rolls, g.codes, 0, n)
    return str(buf, "ascii")


def acts_text(mp):
    """A game's cube actions and resignations as the save writes them (5 characters each):
    of its MatchPlay `mp` (None: there are none)."""
    out = []
    for a in mp.acts if mp else ():
        out.append("%03x%d%d" % (a >> 5, (a >> 1) & 15, a & 1))
    return "".join(out)


def of(g, mp):
    """The Past of game `g` (its MatchPlay `mp`), which has just ended."""
    m = mp.match
    start = (g.start[0].position_id(), g.start[1]) if g.start else None
    return Past(m.game_number, g.opening, start, g.first, record_text(g), acts_text(mp),
                mp.before, m.ended, m.winner, g.result, m.points)


def trim(games):
    """Keeps `games` within MAX_GAMES and their records within RECORD_ROOM (newest kept)."""
    if len(games) > MAX_GAMES:  # money play only: a match has at most 49 games
        games.pop(0)
    room = RECORD_ROOM
    for i in range(len(games) - 1, -1, -1):
        p = games[i]
        if p.record is not None:
            room -= len(p.record)
            if room < 0:
                p.record = None


def chunks(games):
    """The save's list of finished games, a few pieces each: a record is a piece of its
    own, as it is kept (not copied into a longer string)."""
    sep = ""
    for p in games:
        yield '%s[%s,%s,%d,' % (
            sep,
            "[%d,%d]" % tuple(p.opening) if p.opening else "null",
            '["%s",%d]' % p.start if p.start else "null",
            p.first,
        )
        if p.record is None:
            yield "null"
        else:
            yield '"'
            yield p.record
            yield '"'
        yield ',"%s",%d,%d,%d]' % (p.acts, p.how, p.winner, p.result)
        sep = ","
