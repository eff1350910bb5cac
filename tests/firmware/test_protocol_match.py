# The cube, resignations and matches over the link: the requests, `state`'s and `history`'s
# fields, `config`'s terms, `new`, the events; bad or ill-timed requests change nothing.
import json

import fakes
from gammon.match import Match
from gammon.matchid import encode
from wire import ask, make, one, snap

PLAIN_FIELDS = {"cube": 1, "cube_owner": None, "may_double": False, "offer": None,
                "match_length": 0, "score": [0, 0], "crawford": False, "match_over": False,
                "match_winner": None}


def _req(proto, wire, i, cmd, **args):
    args["cmd"] = cmd
    args["id"] = i
    return ask(proto, wire, (json.dumps(args) + "\n").encode(), 10 * i)


def _ok(proto, wire, i, cmd, **args):
    replies, events = _req(proto, wire, i, cmd, **args)
    assert len(replies) == 1 and replies[0]["ok"] and replies[0]["id"] == i, (cmd, replies)
    return replies[0], events


def _refused(proto, ctl, wire, i, code, cmd, **args):
    before = snap(ctl)
    replies, events = _req(proto, wire, i, cmd, **args)
    assert len(replies) == 1 and not replies[0]["ok"], (cmd, replies)
    assert replies[0]["error"]["code"] == code, (cmd, replies)
    assert snap(ctl) == before and not [e for e in events if e["event"] != "error"]


def _state(proto, wire):
    r = one(proto, wire, b'{"cmd":"state"}\n')
    del r["plays"]
    return r


def _opening(proto, wire, i):
    _ok(proto, wire, i, "roll", dice=[3, 1])
    _ok(proto, wire, i + 1, "move", play="8/5 6/5")


def test_state_of_cubeless_money_play():
    proto, ctl, wire = make()
    s = _state(proto, wire)
    for k in PLAIN_FIELDS:
        assert s[k] == PLAIN_FIELDS[k], k
    # the Match ID of cubeless money play at the opening, as gammon.match writes it (gnubg's
    # own: tests/test_match_gnubg.py)
    assert s["match_id"] == encode(Match(0, False, True).id_fields(0))
    assert ctl.game.mp is None
    for cmd in ("double", "take", "drop", "accept", "reject"):
        _refused(proto, ctl, wire, 2, "wrong_phase", cmd)
    _opening(proto, wire, 3)
    _refused(proto, ctl, wire, 5, "illegal", "double")  # the cube is off
    assert ctl.game.mp is None  # and the match code is still not loaded for it
    fakes.done(ctl)


def test_config_terms_apply_from_the_next_match():
    proto, ctl, wire = make()
    for bad in ({"match_length": 26}, {"match_length": -1}, {"match_length": "3"},
                {"match_length": True}, {"cube": "yes"}, {"jacoby": 1.5},
                {"cube": True, "match_length": 99}):
        _refused(proto, ctl, wire, 1, "bad_args", "config", set=bad)
    r, events = _ok(proto, wire, 2, "config", set={"match_length": 3, "cube": True})
    assert r["settings"]["match_length"] == 3 and r["settings"]["cube"] is True
    assert _state(proto, wire)["match_length"] == 0  # this game keeps its terms
    r, events = _ok(proto, wire, 3, "new")
    s = _state(proto, wire)
    assert s["match_length"] == 3 and s["cube"] == 1 and s["score"] == [0, 0]
    fakes.done(ctl)


def test_a_match_over_the_link():
    proto, ctl, wire = make()
    _ok(proto, wire, 1, "config", set={"match_length": 3, "cube": True, "jacoby": False})
    _ok(proto, wire, 2, "new")
    _refused(proto, ctl, wire, 3, "wrong_phase", "double")  # the opening
    _opening(proto, wire, 4)
    assert _state(proto, wire)["may_double"]  # player 1, instead of rolling
    r, events = _ok(proto, wire, 6, "double")
    assert r["by"] == 1 and r["cube"] == 2
    assert {"event": "double", "by": 1, "cube": 2} in events
    s = _state(proto, wire)
    assert s["offer"] == {"kind": "double", "by": 1, "value": 2} and s["turn"] == 1
    assert not s["may_double"] and s["cube"] == 1
    _refused(proto, ctl, wire, 7, "wrong_phase", "roll")  # the double waits for its answer
    _refused(proto, ctl, wire, 8, "wrong_phase", "move", play="24/18")
    _refused(proto, ctl, wire, 9, "wrong_phase", "resign", value=1)
    _refused(proto, ctl, wire, 10, "wrong_phase", "accept")
    r, events = _ok(proto, wire, 11, "take")
    assert {"event": "take", "by": 0, "cube": 2} in events
    s = _state(proto, wire)
    assert s["cube"] == 2 and s["cube_owner"] == 0 and s["offer"] is None
    _ok(proto, wire, 12, "roll", dice=[6, 4])
    for bad in (None, 0, 4, "2", True, 2.0):
        args = {} if bad is None else {"value": bad}
        _refused(proto, ctl, wire, 13, "bad_args", "resign", **args)
    r, events = _ok(proto, wire, 14, "resign", value=1)
    assert {"event": "resign", "by": 1, "value": 1} in events
    assert _state(proto, wire)["offer"] == {"kind": "resign", "by": 1, "value": 1}
    r, events = _ok(proto, wire, 15, "reject")
    assert {"event": "reject", "by": 0} in events
    _refused(proto, ctl, wire, 16, "illegal", "resign", value=1)  # only more now
    _ok(proto, wire, 17, "resign", value=2)
    r, events = _ok(proto, wire, 18, "accept")
    assert {"event": "accept", "by": 0, "winner": 0, "points": 4} in events
    assert [e for e in events if e["event"] == "over"]
    s = _state(proto, wire)
    assert s["match_over"] and s["match_winner"] == 0 and s["score"] == [4, 0]
    assert s["phase"] == "over" and s["winner"] == 0 and s["result"] == 2
    h, _ = _ok(proto, wire, 19, "history")
    assert h["match_length"] == 3 and h["cube"] == 2 and len(h["games"]) == 1
    g = h["games"][0]
    assert [(a["action"], a["player"], a["value"]) for a in g["actions"]] == [
        ("double", 1, 2), ("take", 0, 2), ("resign", 1, 1), ("reject", 0, 1),
        ("resign", 1, 2), ("accept", 0, 2)]
    assert g["ended"] == "resigned" and g["points"] == 4 and g["winner"] == 0
    assert [t["play"] for t in g["turns"]] == ["8/5 6/5"]
    _refused(proto, ctl, wire, 20, "wrong_phase", "double")
    _ok(proto, wire, 21, "new")  # the match is over: a new one
    s = _state(proto, wire)
    assert s["score"] == [0, 0] and not s["match_over"] and s["match_length"] == 3
    fakes.done(ctl)


def test_history_keeps_every_game_of_the_match():
    proto, ctl, wire = make()
    _ok(proto, wire, 1, "config", set={"match_length": 5, "cube": True})
    _ok(proto, wire, 2, "new")
    for n in range(3):  # player 1 doubles after the opening play, player 0 drops
        _opening(proto, wire, 3)
        _ok(proto, wire, 5, "double")
        r, events = _ok(proto, wire, 6, "drop")
        assert {"event": "drop", "by": 0, "winner": 1, "points": 1} in events
        if n < 2:
            _ok(proto, wire, 7, "new")
    h, _ = _ok(proto, wire, 8, "history")
    games = h["games"]
    assert [g["game"] for g in games] == [1, 2, 3]
    assert [g["score"] for g in games] == [[0, 0], [0, 1], [0, 2]]
    assert all(g["ended"] == "dropped" and g["points"] == 1 for g in games)
    assert _state(proto, wire)["score"] == [0, 3]
    fakes.done(ctl)


def test_the_over_event_says_the_points_and_the_score():
    proto, ctl, wire = make()
    _ok(proto, wire, 1, "config", set={"match_length": 3, "cube": True})
    _ok(proto, wire, 2, "new")
    _opening(proto, wire, 3)
    _ok(proto, wire, 5, "double")
    r, events = _ok(proto, wire, 6, "drop")
    over = [e for e in events if e["event"] == "over"]
    assert over == [{"event": "over", "winner": 1, "result": 1, "points": 1, "score": [0, 1],
                     "match_over": False}]
    fakes.done(ctl)
