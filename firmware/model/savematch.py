# The match part of a save read back (model/savefile.py imports it only for a save with a
# match or cube actions in it): the finished games replayed by their cube actions and
# results, the actions of the game in play, and the match checked against its record.
from gammon.match import DROPPED, MAX_LENGTH, PLAYED, RESIGNED
from gammon.position import Position

from model.matchplay import A_ACCEPT, A_DOUBLE, A_DROP, A_REJECT, A_RESIGN, A_TAKE
from model.past import Past, acts_text
from model.savecheck import flag as _flag
from model.savecheck import number as _int
from model.savecheck import pair as _pair
from model.savetext import MATCH_GAMES_MAX, SCORE_MAX


def read_acts(text):
    """[(slot, action, player)] of an actions text, in order; ValueError when malformed."""
    if not isinstance(text, str) or len(text) % 5:
        raise ValueError("bad save: the actions are 5 characters each")
    out = []
    last = 0
    for i in range(0, len(text), 5):
        slot = int(text[i : i + 3], 16)
        act = _int(int(text[i + 3]), A_DOUBLE, A_REJECT)
        out.append((_int(slot, last, 4095), act, _int(int(text[i + 4]), 0, 1)))
        last = slot
    return out


def replay_act(g, act):
    """One cube action or resignation, through the game (which checks it is allowed)."""
    if act == A_DOUBLE:
        g.double()
    elif act == A_TAKE:
        g.take()
    elif act == A_DROP:
        g.drop()
    elif act == A_ACCEPT:
        g.accept()
    elif act == A_REJECT:
        g.reject()
    else:
        g.resign(act - A_RESIGN + 1)


def _replay_past(m, e, number):
    """A finished game of the match: its cube actions and end on the Match `m`; the Past."""
    if not isinstance(e, list) or len(e) != 8:
        raise ValueError("bad save: a finished game is a list of 8")
    opening = list(_pair(e[0], 1, 6)) if e[0] is not None else None
    start = None
    if e[1] is not None:
        Position.from_id(e[1][0])
        start = (e[1][0], _int(e[1][1], 0, 1))
    if (opening is None) == (start is None):
        raise ValueError("bad save: a game starts with an opening or from a position")
    first = _int(e[2], 0, 1)
    record = e[3]
    if record is not None:
        if not isinstance(record, str) or len(record) % 9:
            raise ValueError("bad save: a finished game's record is 9 characters a turn")
        if record:
            int(record, 16)  # hex digits throughout (its moves: checked when exported)
    acts = read_acts(e[4])
    how, winner, result = _int(e[5], PLAYED, DROPPED), _int(e[6], 0, 1), _int(e[7], 1, 3)
    before = (m.score[0], m.score[1], m.crawford, m.post_crawford)
    last = -1
    for slot, act, player in acts:
        if m.ended:
            raise ValueError("bad save: an action after the end of a game")
        if slot != last:  # a throw or a move between: play went on
            m.went_on()
            last = slot
        if act == A_DOUBLE:
            m.double(player)
        elif act == A_TAKE:
            m.take(player)
        elif act == A_DROP:
            m.drop(player)
        elif act == A_ACCEPT:
            m.accept(player)
        elif act == A_REJECT:
            m.reject(player)
        else:
            m.resign(player, act - A_RESIGN + 1)
    if how == PLAYED:
        if m.offer:
            raise ValueError("bad save: a game played out with an offer unanswered")
        m.finish(winner, result)
    value = m.offer_value if how == RESIGNED else 1
    if m.ended != how or m.winner != winner or (how != PLAYED and value != result):
        raise ValueError("bad save: a finished game's end differs from its actions")
    p = Past(number, opening, start, first, record, e[4], before, how, winner, result,
             m.points)
    m.next_game()
    return p


def match(cls, d, n):
    """The Game (still at its opening) with its match replayed from the save's base."""
    t = d["m"]
    b = d["b"]
    if not isinstance(t, list) or len(t) != 3 or not isinstance(b, list) or len(b) != 5:
        raise ValueError("bad save: the match's terms are 3 numbers, its base 5")
    terms = (_int(t[0], 0, MAX_LENGTH), _flag(t[1]), _flag(t[2]))
    base = _pair(b[:2], 0, SCORE_MAX) + (_flag(b[2]), _flag(b[3]),
                                          _int(b[4], 1, MATCH_GAMES_MAX))
    if not terms[0] and (base[2] or base[3]):
        raise ValueError("bad save: a Crawford game in money play")
    g = cls(n, terms, base)  # resumes its Match at the base (ValueError when it cannot)
    games = d["g"]
    if not isinstance(games, list) or (games and g.mp is None):
        raise ValueError("bad save: finished games are a list, in a match")
    past = []
    for e in games:
        past.append(_replay_past(g.match, e, g.match.game_number))
    if g.mp:
        if g.mp.match.over():
            raise ValueError("bad save: a game after the end of the match")
        g.mp.resume_games(past)  # the base of the current game: as the replay left it
    return g


def check(g, d):
    """The match replayed equals the one saved (cube, offer, Crawford, actions)."""
    m = g.mp.match if g.mp else None
    x = [m.cube, m.owner, m.offer, m.offer_by, m.offer_value, m.crawford,
         m.post_crawford] if m else [1, -1, 0, -1, 0, False, False]
    if d["cb"] + d["x"] != x or acts_text(g.mp) != d["a"]:
        raise ValueError("bad save: the match differs from its record")
