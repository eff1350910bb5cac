# Replies for the protocol: the game's state as a plain dict, plays in notation; its record
# (history) from control/report_history.py.
from display.view import point_of
from gammon.play import legal_plays
from model.game import DONE, MOVE, OVER, PHASES, hop_text

# A match's fields come from control/report_match.py, imported only when a game has a match:
# cubeless money play answers `state` and `history` without the match code (~20 KB of heap).


def plays_iter(game):
    """Every legal complete play of the turn being played, in notation, one at a time."""
    if game.phase in (MOVE, DONE):
        yield from play_texts(game.position, game.dice)


def play_texts(position, dice):
    """The legal plays of `dice` in `position` in notation, one at a time."""
    for play in legal_plays(position, dice):
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


def match_state(g, d):
    """The match's fields of `state` into `d`; cubeless money play answers them here,
    without the match code (control/report_match.py answers a match's)."""
    t = g.terms
    d["match_length"], d["cube_on"], d["jacoby"] = t[0], t[1], t[2]
    if g.mp:
        from control.report_match import match_state

        return match_state(g, d)
    from gammon.matchid import encode

    d["cube"], d["cube_owner"], d["score"] = 1, None, list(g.plain)
    d["may_double"] = d["crawford"] = d["match_over"] = False
    d["offer"] = d["match_winner"] = None
    over = g.phase == OVER  # played out: gnubg has the loser on roll, without dice
    done = g.phase == DONE  # the play made: gnubg has the other player to roll
    dice = sorted(g.dice, reverse=True) if g.dice and not (over or done) else (0, 0)
    on = 1 - g.winner if over else (1 - g.turn if done else g.turn)
    d["match_id"] = encode({
        "cube": 1, "owner": -1, "move": on, "crawford": False, "state": 2 if over else 1,
        "turn": on, "doubled": False, "resigned": 0, "die1": dice[0], "die2": dice[1],
        "length": 0, "score0": g.plain[0] & 0x7FFF, "score1": g.plain[1] & 0x7FFF,
        "jacoby_off": True,
    })


def state(ctl, plays=True):
    """The protocol's `state` reply, as one dict made at its full size: every key is in the
    literal (the match's fields, filled by match_state; the protocol's ok, id and plays), as
    a dict grown key by key to its 32 re-allocates its table three times, the last a
    592-byte block: what failed first at the smallest heaps of a game against the board.
    `id` stays None here: link/requests.with_id sets it, or drops it for a request without
    one."""
    g = ctl.game
    v = ctl.view
    pid = g.position.position_id()
    cur = g.current()  # before the turn's first step, the same position: its ID once
    d = {
        "ok": True,
        "id": None,
        "plays": None,  # the protocol's listing when `plays` is False
        "match_length": None, "cube_on": None, "jacoby": None, "cube": None,
        "cube_owner": None, "score": None, "may_double": None, "crawford": None,
        "match_over": None, "offer": None, "match_winner": None, "match_id": None,
        "phase": PHASES[g.phase],
        "turn": g.turn,
        "dice": list(g.dice) if g.dice else None,
        "steps": [hop_text(s) for s in g.steps()],
        "position_id": pid,
        "current_id": pid if cur.key() == g.position.key() else cur.position_id(),
        "pips": pips(v),
        "board": board(v),
        "winner": g.winner,
        "result": g.result,
        "game": g.game_number,
        "settings": ctl.settings.as_dict(),
        "entering": list(ctl.throw.entry.values) if ctl.throw.entry else None,
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


def history(g, listed=True):
    """The `history` reply (control/report_history.py: loaded when first asked for and kept,
    as a host that asks once asks again at each game's end. Dropped after each reply, its
    import was the longest step of a host's game: ~130 us here, ~25 ms on an RP2040, each
    time; kept, it costs ~1.6 KB of this port's heap from then on)."""
    from control import report_history

    return report_history.history(g, listed)
