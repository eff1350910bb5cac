# Commands from the serial link (or a board player): move in notation, state, history.
import fakes
from gammon.position import Position
from model.game import DONE, MOVE
from positions import pos


def test_move_steps_and_plays():
    ctl, rec = fakes.make(keep=16)
    ctl.roll(1, (6, 4))
    assert ctl.move("24/18", 2) == (True, {"steps": ["24/18"]})
    assert ctl.game.phase == MOVE and rec.of("step")[-1]["to"] == 18
    assert ctl.move("18/14", 3) == (True, {"steps": ["18/14"]})
    assert ctl.game.phase == DONE
    ctl.undo(4)
    ctl.undo(5)
    assert ctl.move("24/14", 6)[1]["steps"] == ["24/18", "18/14"]  # both dice, one checker
    ctl.undo(7)
    ctl.undo(8)
    assert ctl.move("24/18/14", 9)[0] and ctl.game.phase == DONE
    ctl.undo(10)
    ctl.undo(11)
    assert ctl.move("8/2 6/2", 12)[1]["steps"] == ["8/2", "6/2"]
    fakes.done(ctl)


def test_illegal_moves_change_nothing():
    ctl, rec = fakes.make(keep=16)
    ctl.roll(1, (6, 4))
    before = ctl.game.to_json()
    for text, code in (
        ("24/17", "illegal"),
        ("8/2 6/1", "illegal"),
        ("13/3 13/9", "illegal"),
        ("x/y", "bad_args"),
        ("", "bad_args"),
    ):
        ok, err = ctl.move(text, 2)
        assert not ok and err["code"] == code, (text, err)
        assert ctl.game.to_json() == before, text
    ctl.move("24/18 18/14", 3)
    ok, err = ctl.move("13/7", 4)
    assert not ok and err["code"] == "wrong_phase"
    fakes.done(ctl)


def test_play_written_in_another_order():
    # On the bar: "13/11 bar/22" names the play bar/22 13/11.
    ctl, rec = fakes.make(keep=16)
    ctl.game.setup(pos({25: 1, 13: 5, 8: 3, 6: 5, 24: 1}, {6: 5, 13: 5, 8: 5}))
    ctl.roll(1, (3, 2))
    ok, res = ctl.move("13/11 bar/22", 2)
    assert ok and sorted(res["steps"]) == ["13/11", "bar/22"]
    fakes.done(ctl)


def test_a_listed_play_is_made_whole():
    # Checkers on 2 and 1, 3-1: "2/off" is listed for 2/1/off, not the 3 alone.
    ctl, rec = fakes.make(keep=16)
    ctl.game.setup(Position.from_id("9wE1QAZ/AQAAAA"), 0)
    ctl.roll(1, (3, 1))
    plays = ctl.state()["plays"]
    assert "2/off" in plays
    for play in plays:
        ok, res = ctl.move(play, 2)
        assert ok and ctl.game.phase in (DONE, 4) and len(res["steps"]) == 2, (play, res)
        while ctl.undo(3)[0]:
            pass
    fakes.done(ctl)


def test_state_and_history():
    ctl, rec = fakes.make(keep=16)
    s = ctl.state()
    assert s["phase"] == "opening" and s["dice"] is None and s["plays"] == []
    assert s["pips"] == [167, 167] and s["position_id"] == "4HPwATDgc/ABMA"
    assert s["board"]["p0"][5] == 5 and s["board"]["p1"][18] == 5 and s["board"]["off"] == [0, 0]
    assert s["game"] == 1 and s["cube"] == 1 and s["score"] == [0, 0] and s["winner"] is None
    assert s["settings"]["players"] == ["human", "human"]
    ctl.roll(1, (3, 1))
    s = ctl.state()
    assert s["phase"] == "move" and s["turn"] == 0 and s["dice"] == [3, 1]
    assert "8/5 6/5" in s["plays"] and len(s["plays"]) == 16
    from control import report  # (loaded when asked, as by the controller)

    assert sorted(report.plays_iter(ctl.game)) == sorted(s["plays"])
    ctl.move("8/5", 2)
    s = ctl.state(False)
    assert s["steps"] == ["8/5"] and s["plays"] is None and s["pips"] == [164, 167]
    assert s["position_id"] == "4HPwATDgc/ABMA" and s["current_id"] != s["position_id"]
    ctl.move("6/5", 3)
    ctl.roll(4, (6, 4))
    ctl.move("24/14", 5)
    ctl.roll(6, (2, 1))
    h = ctl.history_dict()
    assert h["opening"] == [3, 1] and h["winner"] is None
    assert h["turns"] == [
        {"player": 0, "dice": [3, 1], "play": "8/5 6/5"},
        {"player": 1, "dice": [6, 4], "play": "24/14"},
    ]
    assert ctl.state(False)["turn"] == 0
    fakes.done(ctl)
