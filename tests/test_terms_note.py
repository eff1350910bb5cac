"""New match terms reset the score from the next game: said where the user sees it (issue 28, 5).

In money play, a change of `jacoby`, `cube` or `match_length` starts a new session at the
next `new`, its running total at 0-0 (model/matchplay.following). The `config` reply says so
in `next_terms` (the terms waiting, from when, the score they reset), `ledgammon config`
prints it in a sentence, and the view's status line says it while it holds.
"""

from __future__ import annotations

import json

import wire  # tests/firmware: the protocol over a controller, lines taken back
from ledgammon import match_words, wording

COLOURS = [(255, 255, 255), (200, 0, 10)]


def _ask(proto, w, i, cmd, **args):
    args["cmd"] = cmd
    args["id"] = i
    replies, _ = wire.ask(proto, w, (json.dumps(args) + "\n").encode(), 10 * i)
    assert len(replies) == 1 and replies[0]["ok"], replies
    return replies[0]


def _drop_a_game(proto, w, i):
    """Player 0 opens, player 1 doubles, player 0 drops: player 1 wins a point."""
    _ask(proto, w, i, "roll", dice=[3, 1])
    _ask(proto, w, i + 1, "move", play="8/5 6/5")
    _ask(proto, w, i + 2, "double")
    _ask(proto, w, i + 3, "drop")


def test_the_config_reply_says_when_new_terms_reset_the_money_total():
    proto, ctl, w = wire.make()
    r = _ask(proto, w, 1, "config")
    assert r["next_terms"] is None  # nothing waits
    r = _ask(proto, w, 2, "config", set={"cube": True})
    assert r["next_terms"] == {"match_length": 0, "cube": True, "jacoby": True,
                               "from": "next game", "score": [0, 0]}
    _ask(proto, w, 3, "new")
    assert _ask(proto, w, 4, "config")["next_terms"] is None
    for n in range(2):  # a money session with the cube: 0-2
        _drop_a_game(proto, w, 10 + 10 * n)
        _ask(proto, w, 15 + 10 * n, "new")
    state = _ask(proto, w, 40, "state")
    assert state["score"] == [0, 2]
    r = _ask(proto, w, 41, "config", set={"jacoby": False})
    nt = r["next_terms"]
    assert nt["from"] == "next game" and nt["score"] == [0, 2] and nt["jacoby"] is False
    words = match_words.next_terms_words(nt)
    assert words == ("money play, cube on, Jacoby off from the next game: the score then "
                     "starts again at 0-0 (now 0-2)")
    state = _ask(proto, w, 42, "state")
    line = wording.status_line(state, COLOURS)
    assert "new terms next game: score to 0-0" in line and len(line) <= 80, line
    _ask(proto, w, 43, "new")  # what it said: a new session at 0-0
    state = _ask(proto, w, 44, "state")
    assert state["score"] == [0, 0] and not state["jacoby"]
    assert "new terms" not in wording.status_line(state, COLOURS)
    # a match under way keeps its terms to its end: the new ones wait for the next match
    _ask(proto, w, 45, "config", set={"match_length": 5})
    _ask(proto, w, 46, "new")
    _drop_a_game(proto, w, 50)
    r = _ask(proto, w, 55, "config", set={"match_length": 3})
    assert r["next_terms"]["from"] == "next match" and r["next_terms"]["score"] == [0, 1]
    assert "after this match" in match_words.next_terms_words(r["next_terms"])
    state = _ask(proto, w, 56, "state")
    line = wording.status_line(state, COLOURS)
    assert "new terms after this match: score to 0-0" in line, line

