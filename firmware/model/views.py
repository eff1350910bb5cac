# A Game's views of its record, cube and score (view()), answered with or without its match:
# cubeless money play has no MatchPlay and loads none of the match code for them; and the
# names of the match's actions (ACTIONS, model/matchplay.py's functions). Loaded only when
# one is first asked for (model/game.py's __getattr__).
from kernels.compat import const

_ROLL = const(1)  # model/game.py's ROLL, DONE and OVER
_DONE = const(3)
_OVER = const(4)
ENDS = (None, "played", "resigned", "dropped")  # gammon.match's PLAYED, RESIGNED, DROPPED
MISSING = ENDS  # what view() answers for a name that is none of its views
# The match's actions, model/matchplay.py's functions of these names: only these load it.
ACTIONS = ("match_id", "double", "take", "drop", "resign", "accept", "reject", "new_match")


def view(g, name):
    """Game g's view `name` (one function, not a table of them: fewer objects in the heap):
    history ([[player, d1, d2, play_code], ...] one per finished turn, code 0: no move),
    score, match_length, cube, cube_owner (-1: centred), crawford, may_double (by the
    player on roll before the throw, or by the opponent once the play is complete),
    match_over, match_winner, games (the finished games, model/past.py's Past), points
    (what the winner scored with this game), ended ("played", "resigned", "dropped"; None
    while the game goes on). MISSING for any other name."""
    mp = g.mp
    m = mp.match if mp else None
    if name == "history":
        out = []
        for i in range(len(g.codes)):
            r = g.rolls[i]
            out.append([(g.first + i) & 1, r >> 3, r & 7, g.codes[i]])
        return out
    if name == "score":
        return list(m.score if m else g.plain)
    if name == "match_length":
        return g.terms[0]
    if name == "cube":
        return m.cube if m else 1
    if name == "cube_owner":
        return m.owner if m else -1
    if name == "crawford":
        return bool(m) and m.crawford
    if name == "may_double":
        if not m or g.phase not in (_ROLL, _DONE):
            return False
        return m.may_double(g.turn if g.phase == _ROLL else 1 - g.turn)
    if name == "match_over" or name == "match_winner":
        over = bool(m) and m.over()
        return over if name == "match_over" else (m.match_winner() if over else None)
    if name == "games":
        return mp.games if mp else []
    if name == "points" or name == "ended":
        if g.phase != _OVER:
            return None
        if name == "points":
            return m.points if m else g.result
        return ENDS[m.ended] if m else "played"
    return MISSING
