# The match's parts of the protocol's replies: the cube, the offer, the score and the Match ID
# of `state`, and every game of the match in `history` with its cube actions and
# resignations. Loaded by control/report.py only when the game has a match (a MatchPlay).
from gammon.play import Play
from gammon.position import Position
from model.matchplay import A_DOUBLE, A_RESIGN, A_TAKE
from model.past import ACTIONS, acts_text
from model.views import ENDS


def offer(m):
    """The double or resignation waiting for its answer: {"kind", "by", "value"}, or None."""
    if not m.offer:
        return None
    return {"kind": "double" if m.offer == 1 else "resign", "by": m.offer_by,
            "value": m.offer_value}


def match_state(g, d):
    """The fields of `state` for a game with a match (after its terms)."""
    m = g.mp.match
    d["cube"], d["score"] = m.cube, list(m.score)
    d["cube_owner"] = m.owner if m.owner >= 0 else None
    d["may_double"] = g.may_double
    d["offer"] = offer(m)
    d["crawford"], d["match_over"] = m.crawford, m.over()
    d["match_winner"] = m.match_winner() if m.over() else None
    d["match_id"] = g.match_id()


def _turns(pos, first, record):
    """{"player", "dice", "play"} of each turn of a record (the save's text), one at a time."""
    for i in range(0, len(record), 9):
        d1, d2, code = int(record[i]), int(record[i + 1]), int(record[i + 2 : i + 9], 16)
        text = ""
        if code:
            play = Play(pos, (d1, d2), code)
            text = str(play)
            pos = play.result
        yield {"player": (first + i // 9) & 1, "dice": [d1, d2], "play": text}
        pos = pos.swap()


def actions(text):
    """The cube actions and resignations of an actions text (the save's), in order:
    {"turn": the turn's index in "turns", "rolled": after its dice were thrown, "player",
    "action": double/take/drop/resign/accept/reject, "value": the cube offered or taken,
    the resignation's 1-3}."""
    out = []
    cube = value = 1
    for i in range(0, len(text), 5):
        slot, act, player = int(text[i : i + 3], 16), int(text[i + 3]), int(text[i + 4])
        if act == A_DOUBLE:
            value = cube * 2
        elif act == A_TAKE:
            cube = value
        elif A_RESIGN <= act < A_RESIGN + 3:
            value = act - A_RESIGN + 1
        out.append({"turn": slot >> 1, "rolled": bool(slot & 1), "player": player,
                    "action": ACTIONS[act], "value": value})
    return out


def past(p, listed):
    """A finished game of the match, as `history` lists it (its turns read from its record
    text one at a time; `listed` False: a generator)."""
    pos = Position.from_id(p.start[0]) if p.start else Position.start()
    # a game whose moves were dropped for room has no turns: an empty list, which the
    # line writer writes as JSON whatever `listed` is (it once was iter(()), an iterator
    # that MicroPython's json wrote as `<iterator>` after ~25 money games with the cube)
    t = _turns(pos, p.first, p.record) if p.record is not None else []
    return {
        "game": p.number,
        "opening": p.opening,
        "start": {"position_id": p.start[0], "turn": p.start[1]} if p.start else None,
        "turns": list(t) if listed else t,
        "moves": p.record is not None,  # False: the moves were dropped for room
        "actions": actions(p.acts),
        "score": [p.before[0], p.before[1]],
        "crawford": p.before[2],
        "winner": p.winner,
        "result": p.result,
        "points": p.points,
        "ended": ENDS[p.how],
    }


def current(g, listed, turns, start):
    """The game in play as the last of `history`'s games (`turns`: its turns' generator)."""
    mp = g.mp
    m = mp.match
    b = mp.before
    return {
        "game": m.game_number,
        "opening": g.opening,
        "start": start,
        "turns": list(turns) if listed else turns,
        "moves": True,
        "actions": actions(acts_text(mp)),
        "score": [b[0], b[1]],
        "crawford": b[2],
        "winner": g.winner,
        "result": g.result,
        "points": g.points,
        "ended": g.ended,
    }
