# Replies for the protocol: the game's state and record as plain dicts, plays in notation.
from display.view import point_of
from gammon.play import Play, legal_plays
from gammon.position import Position
from model.game import DONE, MOVE, OVER, PHASES, hop_text

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
        d["may_double"] = g.may_double
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
    """The record's turns as {"player", "dice", "play"}, one at a time (for streaming),
    read from the game's compact record (no text of it all is built)."""
    pos = g.start[0] if g.start else Position.start()
    for i in range(len(g.codes)):
        r = g.rolls[i]
        code = g.codes[i]
        d1, d2 = r >> 3, r & 7
        text = ""
        if code:
            play = Play(pos, (d1, d2), code)
            text = str(play)
            pos = play.result
        yield {"player": (g.first + i) & 1, "dice": [d1, d2], "play": text}
        pos = pos.swap()


def actions(text):
    """The cube actions and resignations of an actions text (the save's), in order:
    {"turn": the turn's index in "turns", "rolled": after its dice were thrown, "player",
    "action": double/take/drop/resign/accept/reject, "value": the cube offered or taken,
    the resignation's 1-3}."""
    out = []
    if not text:  # no action: the match code is not loaded for it
        return out
    from model.matchplay import A_DOUBLE, A_RESIGN, A_TAKE
    from model.past import ACTIONS

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


_ENDS = (None, "played", "resigned", "dropped")  # gammon.match's PLAYED, RESIGNED, DROPPED


def _start(g):
    return {"position_id": g.start[0].position_id(), "turn": g.start[1]} if g.start else None


def _past(p, listed):
    """A finished game of the match, as `history` lists it (its turns read from its record
    text one at a time; `listed` False: a generator)."""
    pos = Position.from_id(p.start[0]) if p.start else Position.start()
    t = _turns(pos, p.first, p.record) if p.record is not None else iter(())
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
        "ended": _ENDS[p.how],
    }


def _current(g, listed):
    """The game in play as the last of `history`'s games. Cubeless money play (no
    MatchPlay): its game stands alone, played with the cube at 1, the match code unloaded."""
    mp = g.mp
    over = g.phase == OVER
    if mp:
        from model.past import acts_text

        m = mp.match
        number, acts, b = m.game_number, actions(acts_text(mp)), mp.before
        points, ended = (m.points, _ENDS[m.ended]) if over else (None, None)
    else:
        b = list(g.plain)
        if over:
            b[g.winner] -= g.result
        number, acts, b = 1, [], (b[0], b[1], False)
        points, ended = (g.result, "played") if over else (None, None)
    t = turns(g)
    return {
        "game": number,
        "opening": g.opening,
        "start": _start(g),
        "turns": list(t) if listed else t,
        "moves": True,
        "actions": acts,
        "score": [b[0], b[1]],
        "crawford": b[2],
        "winner": g.winner,
        "result": g.result,
        "points": points,
        "ended": ended,
    }


def _games(g, listed):
    if g.mp:
        for p in g.mp.games:
            yield _past(p, listed)
    yield _current(g, listed)


def history(g, listed=True):
    """The record of the game: opening dice, every turn's dice and play, the result; and
    "games": every game of the match so far, the current one last, with its turns, cube
    actions and resignations, the score before it, Crawford, result, points and end.

    With `listed` False, "turns" and "games" are generators, and so are each game's
    "turns" (a long match's lists are many KB): nothing of it is built in one piece.
    """
    mp = g.mp
    t = g.terms
    return {
        "opening": g.opening,
        "turns": list(turns(g)) if listed else turns(g),
        "winner": g.winner,
        "result": g.result,
        "game": g.game_number,
        # a game set up from a position, not the start: exporters must know
        "start": _start(g),
        "cube": mp.match.cube if mp else 1,
        "match_length": t[0],
        "jacoby": t[2],
        "cube_on": t[1],
        "games": list(_games(g, True)) if listed else _games(g, False),
    }
