# Replies for the protocol: the game's state and record as plain dicts, plays in notation.
from display.view import point_of
from gammon.play import Play, legal_plays
from gammon.position import Position
from model.game import DONE, MOVE, OVER, PHASES, ROLL, hop_text

# model/matchplay.py and model/past.py (and gammon.match, ~10 KB of heap) are imported only
# where a match needs them: cubeless money play answers `state` without them.


def plays_iter(game):
    """Every legal complete play of the turn being played, in notation, one at a time."""
    if game.phase in (MOVE, DONE):
        for play in legal_plays(game.position, game.dice):
            yield str(play)


def pips(v):
    """[player 0's, player 1's] pip counts from the view's absolute counts."""
    p0 = v.bar[0] * 25
    p1 = v.bar[1] * 25
    for a in range(1, 25):
        p0 += v.pts0[a] * a
        p1 += v.pts1[a] * (25 - a)
    return [p0, p1]


def board(v):
    """Checkers per absolute point p1-p24 for each player, on the bar and borne off."""
    return {"p0": list(v.pts0[1:]), "p1": list(v.pts1[1:]), "bar": list(v.bar), "off": list(v.off)}


def offer(m):
    """The double or resignation waiting for its answer: {"kind", "by", "value"}, or None."""
    if not m.offer:
        return None
    return {"kind": "double" if m.offer == 1 else "resign", "by": m.offer_by,
            "value": m.offer_value}


def match_state(g, d):
    """The match's fields of `state` into `d` (cubeless money play: without a Match)."""
    mp = g.mp
    t = g.terms
    if mp:
        m = mp.match
        d["cube"], owner, d["score"] = m.cube, m.owner, list(m.score)
        d["may_double"] = g.phase == ROLL and m.may_double(g.turn)
        d["offer"] = offer(m)
        d["crawford"], d["match_over"] = m.crawford, m.over()
        d["match_winner"] = m.match_winner() if m.over() else None
        d["match_id"] = g.match_id()
    else:
        from gammon.matchid import encode

        d["cube"], owner, d["score"] = 1, -1, list(g.plain)
        d["may_double"] = d["crawford"] = d["match_over"] = False
        d["offer"] = d["match_winner"] = None
        over = g.phase == OVER  # played out: gnubg has the loser on roll, without dice
        dice = sorted(g.dice, reverse=True) if g.dice and not over else (0, 0)
        on = 1 - g.winner if over else g.turn
        d["match_id"] = encode({
            "cube": 1, "owner": -1, "move": on, "crawford": False, "state": 2 if over else 1,
            "turn": on, "doubled": False, "resigned": 0, "die1": dice[0], "die2": dice[1],
            "length": 0, "score0": g.plain[0] & 0x7FFF, "score1": g.plain[1] & 0x7FFF,
            "jacoby_off": True,
        })
    d["cube_owner"] = owner if owner >= 0 else None
    d["match_length"], d["cube_on"], d["jacoby"] = t[0], t[1], t[2]


def state(ctl, plays=True):
    g = ctl.game
    v = ctl.view
    d = {
        "phase": PHASES[g.phase],
        "turn": g.turn,
        "dice": list(g.dice) if g.dice else None,
        "steps": [hop_text(s) for s in g.steps()],
        "position_id": g.position.position_id(),
        "current_id": g.current().position_id(),
        "pips": pips(v),
        "board": board(v),
        "winner": g.winner,
        "result": g.result,
        "game": g.game_number,
        "settings": ctl.settings.as_dict(),
        "entering": list(ctl.entry.values) if ctl.entry else None,
        "menu": ctl.menu_item if ctl.menu_item >= 0 else None,
        "error": ctl.boot_error,
        # the selected checker's point in the mover's numbers (25 = bar), None if none
        "selected": point_of(g.turn, v.selected) if v.selected >= 0 else None,
        # the board's own player: None, or "roll", "think", "move" while it is to act
        "bot": ctl.bot.doing(ctl) if ctl.bot else None,
    }
    match_state(g, d)
    if plays:
        d["plays"] = list(plays_iter(g))
    return d


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


def turns(g):
    """The record's turns as {"player", "dice", "play"}, one at a time (for streaming)."""
    from model.past import record_text

    pos = g.start[0] if g.start else Position.start()
    return _turns(pos, g.first, record_text(g))


def actions(text):
    """The cube actions and resignations of an actions text (the save's), in order:
    {"turn": the turn's index in "turns", "rolled": after its dice were thrown, "player",
    "action": double/take/drop/resign/accept/reject, "value": the cube offered or taken,
    the resignation's 1-3}."""
    from model.matchplay import A_DOUBLE, A_RESIGN, A_TAKE
    from model.past import ACTIONS

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


def _past(p):
    """A finished game of the match, as `history` lists it."""
    from model.matchplay import ENDS

    pos = Position.from_id(p.start[0]) if p.start else Position.start()
    return {
        "game": p.number,
        "opening": p.opening,
        "start": {"position_id": p.start[0], "turn": p.start[1]} if p.start else None,
        "turns": list(_turns(pos, p.first, p.record)) if p.record is not None else [],
        "moves": p.record is not None,  # False: the moves were dropped for room
        "actions": actions(p.acts),
        "score": [p.before[0], p.before[1]],
        "crawford": p.before[2],
        "winner": p.winner,
        "result": p.result,
        "points": p.points,
        "ended": ENDS[p.how],
    }


def _games(g):
    from model.past import acts_text

    for p in g.games:
        yield _past(p)
    m = g.match
    b = g.mp.before
    yield {
        "game": m.game_number,
        "opening": g.opening,
        "start": (
            {"position_id": g.start[0].position_id(), "turn": g.start[1]} if g.start else None
        ),
        "turns": list(turns(g)),
        "moves": True,
        "actions": actions(acts_text(g.mp)),
        "score": [b[0], b[1]],
        "crawford": b[2],
        "winner": g.winner,
        "result": g.result,
        "points": g.points,
        "ended": g.ended,
    }


def history(g, listed=True):
    """The record of the game: opening dice, every turn's dice and play, the result; and
    "games": every game of the match so far, the current one last, with its turns, cube
    actions and resignations, the score before it, Crawford, result, points and end.

    With `listed` False, "games" is a generator (a long match's list is many KB).
    """
    m = g.match
    return {
        "opening": g.opening,
        "turns": list(turns(g)),
        "winner": g.winner,
        "result": g.result,
        "game": g.game_number,
        # a game set up from a position, not the start: exporters must know
        "start": (
            {"position_id": g.start[0].position_id(), "turn": g.start[1]} if g.start else None
        ),
        "cube": g.cube,
        "match_length": m.length,
        "jacoby": m.jacoby,
        "cube_on": m.cube_on,
        "games": _games(g) if not listed else list(_games(g)),
    }
