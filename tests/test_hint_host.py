"""HINT's cube advice on the host: the `hint` reply's cube form checked on arrival
(replies.py), said by `ledgammon hint` and by the play/watch view's `h`, and shown on the
snapshot picture as the board's LEDs show it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fakeboard import FakeBoard
from gammon.position import Position
from ledgammon import board_text, boardinfo, match_words, picture, replies, terminal
from ledgammon.cli import main
from ledgammon.errors import BadReply
from test_terminal import LocalClient

ADVICE = {"action": "drop", "units": "equity", "no_double": 998, "double_take": 3364,
          "double_pass": 1000, "win": 998, "player": 1, "kind": "take"}
ACTIONS = ("double", "no double", "too good", "take", "drop", "accept", "reject")
AHEAD = ({1: 3, 2: 3, 3: 3, 4: 3, 5: 3}, {6: 5, 8: 5, 13: 5})  # player 0 far ahead: doubles


def _position(mine: dict[int, int], theirs: dict[int, int]) -> Position:
    a, b = [0] * 25, [0] * 25
    for k, n in mine.items():
        a[k - 1] = n
    for k, n in theirs.items():
        b[k - 1] = n
    return Position(a, b)


def test_the_cube_form_of_the_hint_reply_is_checked():
    assert replies.check("hint", {"ok": True, "cube": ADVICE}, "b")["cube"] == ADVICE
    assert replies.check("hint", {"ok": True, "play": "8/5 6/5", "steps": ["8/5"]}, "b")
    for key, bad, words in (("action", "beaver", "cube.action should be one of"),
                            ("units", "points", "cube.units"),
                            ("no_double", 0.5, "cube.no_double should be an integer"),
                            ("win", 1001, "cube.win should be an integer 0-1000"),
                            ("player", 2, "cube.player"),
                            ("kind", "resign", "cube.kind")):
        with pytest.raises(BadReply, match=words):
            replies.check("hint", {"ok": True, "cube": dict(ADVICE, **{key: bad})}, "b")
    with pytest.raises(BadReply, match="has no cube.double_take"):
        advice = {k: v for k, v in ADVICE.items() if k != "double_take"}
        replies.check("hint", {"ok": True, "cube": advice}, "b")
    with pytest.raises(BadReply, match="has no play"):
        replies.check("hint", {"ok": True, "steps": []}, "b")


def test_the_advice_in_words_names_the_action_and_fits_the_message_line():
    for action in ACTIONS:
        for units, figs in (("equity", (-3000, 6000, 1000, 0)), ("mwc", (1000, 0, 1000, 1000))):
            a = dict(ADVICE, action=action, units=units, no_double=figs[0],
                     double_take=figs[1], double_pass=figs[2], win=figs[3])
            short = "hint: " + match_words.advice_words(a, short=True)
            assert len(short) <= board_text.WIDTH, short
            assert short.startswith("hint: %s · player 0's ND " % match_words.ADVICE_AS.get(
                action, action)), short
    words = match_words.advice_words(ADVICE)
    assert words == ("player 1: drop (player 0 on roll, equity a cube: no double +0.998, "
                     "double/take +3.364, double/pass +1.000; wins 99.8%)")
    mwc = match_words.advice_words(dict(ADVICE, units="mwc", no_double=621, kind="double",
                                        player=0, action="double", double_take=650))
    assert "player 0: double (player 0 on roll, match winning chance: no double 62.1%" in mwc


def _run(capsys: Any, *argv: str) -> tuple[int, str, str]:
    code = main([*argv, "--timeout", "10"])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_hint_command_says_the_cube_advice(capsys):
    with FakeBoard({"hint": {"ok": True, "cube": ADVICE}}) as board:
        code, out, err = _run(capsys, "hint", "-p", board.port)
        assert code == 0 and err == ""
        assert out == "hint for %s\n" % match_words.advice_words(ADVICE)
        code, out, err = _run(capsys, "hint", "-p", board.port, "--json")
        assert code == 0 and json.loads(out)["cube"] == ADVICE
    with FakeBoard({"hint": {"ok": True, "cube": dict(ADVICE, units=3)}}) as board:
        code, out, err = _run(capsys, "hint", "-p", board.port)
        assert code == 8 and out == "" and "malformed" in err and "cube.units" in err


def _cube_decision(client: LocalClient) -> None:
    """Money play with the cube, player 0 far ahead in a race, to roll."""
    assert client.request("config", set={"cube": True})["ok"]
    assert client.request("new")["ok"]
    ctl = client.app.ctl
    ctl.game.setup(_position(*AHEAD), 0)
    ctl.changed(client.t)


def test_h_on_a_cube_decision_says_the_advice_and_the_board_lights_it():
    client = LocalClient(seed=3)
    try:
        _cube_decision(client)
        view = terminal.LiveView(client, True, clock=lambda: 0.0)
        view.poll()
        view.key("h")
        line = view.screen().lines()[board_text.STATUS + 1]
        assert line.startswith("hint: double · player 0's ND +"), line
        v = client.app.ctl.view
        assert v.advice and v.advice_of == 0  # lit on the board too
    finally:
        client.close()


def test_the_snapshot_shows_the_advice_as_the_leds_do():
    """The picture draws the frame's LEDs: the person's cube row in dots of the advice's
    colour (green: double), every other LED of it dark."""
    client = LocalClient(seed=3)
    try:
        _cube_decision(client)
        reply = client.request("hint")
        assert reply["ok"] and reply["cube"]["action"] == "double"
        frame = client.frame()
        state = client.request("state")
    finally:
        client.close()
    board = boardinfo.load("pico")
    img = picture.render(frame, board, state)
    leds = board.decode(frame)
    k = boardinfo.gain(frame, board.brightness_levels)
    row = leds["cube0"]
    assert [max(c) > 0 for c in row] == [True, False] * 3
    assert len({tuple(c) for c in row[::2]}) == 1 and row[0][1] > row[0][0]  # green
    for i, c in enumerate(row):
        x, y = board.positions()["cube0"][i]
        px, py = picture._px(x, y)
        want = boardinfo.to_screen(c, k) if max(c) else picture.DARK_LED
        assert img.getpixel((round(px), round(py))) == want, i
