# Replies for the protocol: the game's state and record as plain dicts, plays in notation.
from display.view import point_of
from gammon.play import Play, legal_plays
from gammon.position import Position
from model.game import DONE, MOVE, PHASES, hop_text


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
        "cube": g.cube,
        "cube_owner": g.cube_owner,
        "score": list(g.score),
        "match_length": g.match_length,
        "settings": ctl.settings.as_dict(),
        "entering": list(ctl.entry.values) if ctl.entry else None,
        "menu": ctl.menu_item if ctl.menu_item >= 0 else None,
        "error": ctl.boot_error,
        # the selected checker's point in the mover's numbers (25 = bar), None if none
        "selected": point_of(g.turn, v.selected) if v.selected >= 0 else None,
        # the board's own player: None, or "roll", "think", "move" while it is to act
        "bot": ctl.bot.doing(ctl) if ctl.bot else None,
    }
    if plays:
        d["plays"] = list(plays_iter(g))
    return d


def turns(g):
    """The record's turns as {"player", "dice", "play"}, one at a time (for streaming)."""
    pos = g.start[0] if g.start else Position.start()
    for player, d1, d2, code in g.history:
        text = ""
        if code:
            play = Play(pos, (d1, d2), code)
            text = str(play)
            pos = play.result
        yield {"player": player, "dice": [d1, d2], "play": text}
        pos = pos.swap()


def history(g, listed=True):
    """The record of the game: opening dice, every turn's dice and play, the result.

    With `listed` False, "turns" is a generator (a long game's list is several KB).
    """
    t = turns(g)
    return {
        "opening": g.opening,
        "turns": list(t) if listed else t,
        "winner": g.winner,
        "result": g.result,
        "game": g.game_number,
        # a game set up from a position, not the start: exporters must know
        "start": (
            {"position_id": g.start[0].position_id(), "turn": g.start[1]} if g.start else None
        ),
    }
