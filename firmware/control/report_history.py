# The `history` reply: the game's record and the match's games as plain dicts, plays in
# notation, turns and games as generators for streaming. Loaded by control/report.py for each
# request and dropped after it (history is asked for seldom: at a game's end, an export).
from gammon.play import Play
from gammon.position import Position
from model.game import OVER

# A match's games come from control/report_match.py, imported only when a game has a match.


def turns(g):
    """The record's turns as {"player", "dice", "play"}, one at a time (for streaming),
    read from the game's compact record (no text of it all is built): the record as it
    is now, whatever the game does before the last is read."""
    pos = g.start[0] if g.start else Position.start()
    return _turns(pos, g.first, g.codes, g.rolls, len(g.codes))


def _turns(pos, first, codes, rolls, n):
    for i in range(n):
        r = rolls[i]
        code = codes[i]
        d1, d2 = r >> 3, r & 7
        text = ""
        if code:
            play = Play(pos, (d1, d2), code)
            text = str(play)
            pos = play.result
        yield {"player": (first + i) & 1, "dice": [d1, d2], "play": text}
        pos = pos.swap()


def _start(g):
    return {"position_id": g.start[0].position_id(), "turn": g.start[1]} if g.start else None


def _current(g, listed):
    """The game in play as the last of `history`'s games. Cubeless money play (no
    MatchPlay): its game stands alone, played with the cube at 1, the match code unloaded."""
    if g.mp:
        from control.report_match import current

        return current(g, listed, turns(g), _start(g))
    b = list(g.plain)
    over = g.phase == OVER
    if over:
        b[g.winner] -= g.result
    t = turns(g)
    return {
        "game": 1,
        "opening": g.opening,
        "start": _start(g),
        "turns": list(t) if listed else t,
        "moves": True,
        "actions": [],
        "score": b,
        "crawford": False,
        "winner": g.winner,
        "result": g.result,
        "points": g.result if over else None,
        "ended": "played" if over else None,
    }


def _games(g, listed):
    """The match's games, the one in play last: a list, or (`listed` False) a generator
    of the games as they are now."""
    games = list(g.mp.games) if g.mp else []
    cur = _current(g, listed)
    if g.mp:
        from control.report_match import past

        if listed:
            return [past(p, True) for p in games] + [cur]
        return _each(past, games, cur)
    return [cur] if listed else _each(None, games, cur)


def _each(past, games, cur):
    for p in games:
        yield past(p, False)
    yield cur


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
        "games": _games(g, listed),
    }
