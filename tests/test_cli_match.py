"""`ledgammon double|take|drop|resign|accept|reject`, `history` and `export` of a match against
a scripted board (tests/fakeboard.py): the request each sends, what each prints, the board's
refusals and bad arguments as one line on stderr with their exit codes."""

from __future__ import annotations

import copy
import json
import os
from typing import Any

import gnubg
import pytest
from fakeboard import STATE, FakeBoard
from gammon import legal_plays
from gammon.matchid import encode
from gammon.position import Position
from ledgammon.cli import main

MATCH_STATE = dict(STATE, phase="roll", turn=1, dice=None, plays=[], match_length=5, score=[2, 1],
                   cube=2, cube_owner=1, cube_on=True, jacoby=False, may_double=False,
                   offer={"kind": "double", "by": 1, "value": 4}, crawford=False,
                   match_over=False, match_winner=None)


def run(capsys: Any, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv) + ["--timeout", "5"])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    "argv, wanted",
    [
        (["double"], {"cmd": "double"}),
        (["take"], {"cmd": "take"}),
        (["drop"], {"cmd": "drop"}),
        (["accept"], {"cmd": "accept"}),
        (["reject"], {"cmd": "reject"}),
        (["resign", "2"], {"cmd": "resign", "value": 2}),
        (["resign", "Backgammon"], {"cmd": "resign", "value": 3}),
        (["resign", "single"], {"cmd": "resign", "value": 1}),
    ],
)
def test_each_cube_command_sends_its_request_and_says_the_state(capsys, argv, wanted):
    replies: dict[str, Any] = {
        "double": {"ok": True, "by": 1, "cube": 4}, "take": {"ok": True, "by": 0, "cube": 4},
        "drop": {"ok": True, "by": 0, "winner": 1, "points": 2},
        "resign": {"ok": True, "by": 1, "value": 2},
        "accept": {"ok": True, "by": 0, "winner": 1, "points": 4},
        "reject": {"ok": True, "by": 0}, "state": MATCH_STATE}
    with FakeBoard(replies) as board:
        code, out, err = run(capsys, *argv, "-p", board.port)
        sent = [{k: v for k, v in r.items() if k != "id"} for r in board.requests]
    assert code == 0 and err == ""
    assert sent[1] == wanted and sent[-1] == {"cmd": "state"}
    assert out == ("game 1: player 1 to roll; player 1 doubles to 4: player 0, take or drop?; "
                   "pips 167-167; cube 2, player 1's; match to 5: 2-1; position 4HPwATDgc/ABMA\n")
    raw = dict(replies[wanted["cmd"]], note="a field of a newer firmware")
    with FakeBoard(dict(replies, **{wanted["cmd"]: raw})) as board:
        code, out, _ = run(capsys, *argv, "-p", board.port, "--json")
    assert code == 0 and json.loads(out) == dict(raw, id=2)
    broken = {"ok": True, "by": 7}  # a reply the protocol does not allow: exit 8, one line
    with FakeBoard(dict(replies, **{wanted["cmd"]: broken})) as board:
        code, out, err = run(capsys, *argv, "-p", board.port)
    assert code == 8 and out == "" and err.count("\n") == 1 and "malformed" in err


def test_a_refusal_is_one_line_and_exit_5(capsys):
    refused = {"ok": False, "error": {"code": "wrong_phase",
                                      "message": "no doubling in the Crawford game"}}
    with FakeBoard({"double": refused}) as board:
        code, out, err = run(capsys, "double", "-p", board.port)
        assert code == 5 and out == ""
        assert err == "ledgammon: wrong_phase: no doubling in the Crawford game\n"
        code, out, err = run(capsys, "double", "-p", board.port, "--json")
        assert code == 5 and json.loads(out)["error"]["code"] == "wrong_phase"
        assert err.count("\n") == 1


def test_a_bad_resignation_value_is_refused_before_anything_is_sent(capsys, tmp_path):
    with FakeBoard() as board:
        for value in ("4", "0", "gamon", "-1"):
            code, out, err = run(capsys, "resign", value, "-p", board.port)
            assert code == 1 and out == "" and err.count("\n") == 1 and "resign takes" in err
        assert board.requests == []
    code, _, err = run(capsys, "take", "-p", str(tmp_path / "ttyNONE"))
    assert code == 2 and err.count("\n") == 1
    with pytest.raises(SystemExit):  # argparse: no value at all
        main(["resign"])


def _match_history() -> tuple[dict[str, Any], dict[str, Any]]:
    """A board's history of a 5-point match, two games in: game 1 doubled, taken, redoubled
    and dropped; game 2 in play after a rejected resignation; and its state."""
    start = Position.start()
    p31 = legal_plays(start, (3, 1))[0]
    p62 = legal_plays(p31.result.swap(), (6, 2))[0]
    turns = [{"player": 0, "dice": [3, 1], "play": str(p31)},
             {"player": 1, "dice": [6, 2], "play": str(p62)}]
    game1 = {"game": 1, "opening": [3, 1], "start": None, "turns": turns, "moves": True,
             "actions": [{"turn": 2, "rolled": False, "player": 0, "action": "double",
                          "value": 2},
                         {"turn": 2, "rolled": False, "player": 1, "action": "take",
                          "value": 2},
                         {"turn": 2, "rolled": False, "player": 1, "action": "double",
                          "value": 4},
                         {"turn": 2, "rolled": False, "player": 0, "action": "drop",
                          "value": 4}],
             "score": [0, 0], "crawford": False, "winner": 1, "result": 1, "points": 2,
             "ended": "dropped"}
    game2 = {"game": 2, "opening": [6, 2], "start": None,
             "turns": [{"player": 1, "dice": [6, 2], "play": str(legal_plays(start, (6, 2))[0])}],
             "moves": True,
             "actions": [{"turn": 1, "rolled": False, "player": 0, "action": "resign",
                          "value": 1},
                         {"turn": 1, "rolled": False, "player": 1, "action": "reject",
                          "value": 1}],
             "score": [0, 2], "crawford": False, "winner": None, "result": None,
             "points": None, "ended": None}
    history = {"ok": True, "opening": [6, 2], "turns": game2["turns"], "winner": None,
               "result": None, "game": 2, "start": None, "cube": 1, "match_length": 5,
               "jacoby": False, "cube_on": True, "games": [game1, game2]}
    pos = legal_plays(start, (6, 2))[0].result.swap()
    mid = encode({"cube": 1, "owner": -1, "move": 0, "crawford": False, "state": 1, "turn": 0,
                  "doubled": False, "resigned": 0, "die1": 0, "die2": 0, "length": 5,
                  "score0": 0, "score1": 2, "jacoby_off": True})
    state = dict(MATCH_STATE, game=2, turn=0, score=[0, 2], cube=1, cube_owner=None,
                 offer=None, position_id=pos.position_id(), match_id=mid)
    return history, state


def test_history_lists_every_game_with_its_cube_actions(capsys):
    history, state = _match_history()
    with FakeBoard({"history": history, "state": state}) as board:
        code, out, _ = run(capsys, "history", "-p", board.port)
    assert code == 0
    lines = out.splitlines()
    assert lines[:4] == ["match to 5 points", "game 1, score 0-0", "  opening 3-1",
                         "    1. player 0 3-1: %s" % history["games"][0]["turns"][0]["play"]]
    said = [ln.strip() for ln in lines]
    game2 = said.index("game 2, score 0-2")
    assert said[4:game2] == [
        "2. player 1 6-2: %s" % history["games"][0]["turns"][1]["play"],
        "player 0 doubles to 2", "player 1 takes", "player 1 doubles to 4", "player 0 drops",
        "player 1 wins 2 points (single game, dropped)"]
    assert said[game2 + 3:] == ["player 0 resigns a single game",
                                "player 1 rejects the resignation"]


def test_export_writes_the_whole_match_and_gnubg_reads_it(capsys, tmp_path):
    history, state = _match_history()
    path = tmp_path / "match.mat"
    with FakeBoard({"history": history, "state": state}) as board:
        code, out, err = run(capsys, "export", str(path), "-p", board.port)
    assert code == 0 and err == "", err
    assert out.splitlines() == ["wrote %s (2 games, 3 turns)" % path,
                                "Position ID: %s" % state["position_id"],
                                "Match ID: %s" % state["match_id"]]
    text = path.read_text()
    assert "; now: Position ID %s, Match ID %s" % (state["position_id"], state["match_id"]) in text
    assert " Doubles => 2" in text and " Takes" in text and " Doubles => 4" in text
    assert " Drops" in text and "Wins 2 points" in text and " 5 point match" in text
    gnubg.command("set threads 1")
    fd = os.dup(1)
    with open(os.devnull, "w") as null:
        os.dup2(null.fileno(), 1)
        try:
            gnubg.command("import mat %s" % path)
        finally:
            os.dup2(fd, 1)
            os.close(fd)
    games = gnubg.match()["games"]
    assert [g["info"]["winner"] for g in games] == ["O", None]
    assert [(g["info"]["score-X"], g["info"]["score-O"]) for g in games] == [(0, 0), (0, 2)]
    assert [r["action"] for r in games[0]["game"] if r["action"] != "set"] == [
        "move", "move", "double", "take", "double", "drop"]


def test_export_refuses_a_record_that_does_not_replay(capsys, tmp_path):
    history, state = _match_history()
    bad = copy.deepcopy(history)
    bad["games"][0]["turns"][1]["play"] = "24/1"
    path = tmp_path / "match.mat"
    with FakeBoard({"history": bad, "state": state}) as board:
        code, out, err = run(capsys, "export", str(path), "-p", board.port)
    assert code == 1 and out == "" and err.count("\n") == 1 and "turn 2" in err
    assert not path.exists()
