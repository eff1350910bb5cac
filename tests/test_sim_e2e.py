"""End to end through a real pseudo-terminal: pyserial client <-> the firmware under MicroPython.

Complete games through the client, a game followed through its events, the simulator killed
(SIGKILL) mid-game and restarted on the same flash, half lines and garbage on the wire.
"""

from __future__ import annotations

import json
import os
import random
import time

from ledgammon import boardinfo
from ledgammon.board_text import player_colours
from ledgammon.client import Client
from link.lines import QUIET_MS
from simkit import (
    MICROPYTHON,
    Tracker,
    connect,
    play_game,
    play_turn_by_move,
    press_turn,
    replay,
    start_sim,
)

# The MicroPython unix port is pinned in requirements.txt: without it these tests fail.
assert os.path.exists(MICROPYTHON), "the MicroPython unix port is missing: run make setup"
BOARD = boardinfo.load("pico")
QUIET_S = QUIET_MS / 1000 * 1.5  # a pause the firmware takes for silence before Ctrl-C


def test_complete_games_through_the_client(tmp_path):
    """Three whole games with roll and move requests; each record replays legally on the
    host engine and ends in the board's final position and result."""
    with start_sim(str(tmp_path), seed=11) as sim, connect(sim.port) as client:
        assert client.info["protocol"] == 1 and client.info["board"] == "pico"
        assert client.info["network_units"] == 40  # the Pico's network (deploy.WEIGHTS)
        rng = random.Random(5)
        for n in range(3):
            if n:
                assert client.new_game()["game"] == n + 1
            st = play_game(client, rng)
            hist = client.history()
            last = replay(hist)
            assert last.position_id() == st["current_id"]
            assert st["winner"] == hist["winner"] and st["result"] == hist["result"]
            assert last.outcome() == st["result"] and st["result"] in (1, 2, 3)
            assert st["game"] == n + 1 and len(hist["turns"]) > 10


def test_game_followed_through_events(tmp_path):
    """A game played with button presses only; the events on the same connection rebuild
    the board exactly, and the game-over event matches the state."""
    with start_sim(str(tmp_path), seed=23) as sim, connect(sim.port) as client:
        rng = random.Random(7)
        tracker = Tracker()
        presses = 0
        for _ in range(2000):
            st = client.state()
            for ev in client.events():
                tracker.event(ev)
            assert tracker.board() == st["board"], (st["steps"], tracker.kinds[-8:])
            if st["phase"] == "over":
                break
            press_turn(client, st, rng)
            presses += 1
        else:
            raise AssertionError("the game did not end")
        # cubeless money play: the game's points are its result, the score the running total
        assert tracker.over == {"event": "over", "winner": st["winner"], "result": st["result"],
                                "points": st["result"], "score": st["score"],
                                "match_over": False}
        assert tracker.kinds.count("press") >= presses and "roll" in tracker.kinds
        # an undo is an event too, and the tracker follows it back
        client.undo()
        st = client.state()
        for ev in client.events():
            tracker.event(ev)
        assert st["phase"] == "move" and tracker.board() == st["board"]


def _snapshot(client: Client) -> dict:
    st = client.state()
    keep = ("phase", "turn", "dice", "steps", "position_id", "current_id", "game", "board")
    hist = client.history()
    del hist["id"]
    return {"state": {k: st[k] for k in keep}, "history": hist}


def test_killed_and_restarted_resumes(tmp_path):
    """SIGKILL mid-turn (after a step) and again after a roll: the restarted simulator on
    the same flash has the same position, steps and record; the game then plays on."""
    flash = str(tmp_path)
    rng = random.Random(3)
    sim = start_sim(flash, seed=5)
    try:
        client = connect(sim.port)
        for _ in range(12):
            play_turn_by_move(client, client.state(), rng)
        st = client.state()
        if st["phase"] != "move":
            client.roll()
            st = client.state()
        first = st["plays"][0].split()[0]
        client.move(first)  # one step of a play: mid-turn
        before = _snapshot(client)
        assert before["state"]["steps"]
        client.close()
        sim.kill()
        sim = start_sim(flash, seed=99)
        client = connect(sim.port)
        assert _snapshot(client) == before
        # and again right after a roll
        for _ in client.state()["steps"]:
            client.undo()
        client.move(rng.choice(client.state()["plays"]))
        client.roll()
        before = _snapshot(client)
        client.close()
        sim.kill()
        sim = start_sim(flash, seed=1234)
        client = connect(sim.port)
        assert _snapshot(client) == before
        st = play_game(client, rng)
        assert replay(client.history()).position_id() == st["current_id"]
        client.close()
    finally:
        sim.stop()


def test_half_line_then_silence_is_dropped(tmp_path):
    """The only test that waits: a half line, 2.2 s of silence, then a request."""
    with start_sim(str(tmp_path)) as sim, connect(sim.port) as client:
        client.transport.port.write(b'{"cmd":"new","id":77')
        time.sleep(2.2)
        assert client.request("hello")["ok"]
        assert client.state()["game"] == 1  # the half `new` never ran
        client.transport.port.write(b'{"cmd":"he')
        assert client.request("hello")["error"]["code"] == "bad_json"  # joined within 2 s


def test_garbage_on_the_wire(tmp_path):
    """Overlong lines, binary bytes and bad requests through the pty: every line gets its
    error, the next request is answered and the game has not changed."""
    with start_sim(str(tmp_path), seed=2) as sim, connect(sim.port) as client:
        client.roll()
        before = _snapshot(client)
        port = client.transport.port
        port.write(b'{"id": 5, "cmd": "move", "play": "' + b"1" * 3000 + b'"}\n')
        port.write(bytes(range(4, 256)) + b"\n")
        port.write(b'{"cmd":"move","play":"24/1","id":6}\n{"cmd":"roll","dice":[0,9],"id":7}\n')
        replies = {}
        deadline = time.monotonic() + 5
        while len(replies) < 4 and time.monotonic() < deadline:
            line = client.transport.read_line(0.5)
            if line and b'"ok"' in line:
                r = json.loads(line)
                replies[r.get("id", "none")] = r["error"]["code"]
        assert replies == {5: "too_long", "none": "bad_json", 6: "illegal", 7: "bad_args"}
        assert _snapshot(client) == before


def test_minimal_layout_and_cpython_sim(tmp_path):
    """--button-layout minimal, and the same firmware under CPython (--python)."""
    with start_sim(str(tmp_path / "a"), layout="minimal") as sim, connect(sim.port) as client:
        assert client.info["layout"] == "minimal"
        assert client.press("ROLL")["ok"] and client.state()["phase"] == "move"
        assert client.press("RIGHT")["ok"]
    with start_sim(str(tmp_path / "b"), python=True) as sim, connect(sim.port) as client:
        st = play_game(client, random.Random(1))
        assert replay(client.history()).position_id() == st["current_id"]


def test_a_simulated_pico_2_plays_with_the_network_deploy_gives_it(tmp_path):
    """`--board pico2` (and esp32s3): that board's module and the 64-unit network that
    `ledgammon deploy` installs on it, which its own player and HINT then use."""
    with start_sim(str(tmp_path), board="pico2") as sim, connect(sim.port) as client:
        assert client.info["board"] == "pico2" and client.info["network_units"] == 64
        assert client.press("ROLL")["ok"] and client.state()["phase"] == "move"
        hint = client.call("hint")
        assert hint["ok"] and hint["steps"], hint


def test_lit_board_within_two_seconds(tmp_path):
    """`make sim`'s promise once set up: from start to a lit LED frame in under 2 s."""
    start = time.monotonic()
    with start_sim(str(tmp_path)) as sim, connect(sim.port) as client:
        frame = client.frame()
        elapsed = time.monotonic() - start
        assert len(frame) == 3 * client.info["leds"] and any(frame)
    assert elapsed < 2.0, elapsed


def test_ctrl_c_or_repl_request_ends_the_firmware(tmp_path):
    """mpremote's "\\r\\x03" and the `repl` request both stop the app (on a board: the REPL
    comes up; in the simulator the process ends), after saying so on the wire."""
    with start_sim(str(tmp_path)) as sim:
        with connect(sim.port) as client:
            client.roll()
            time.sleep(QUIET_S)  # the escape counts after silence, as when mpremote connects
            client.transport.port.write(b"\r\x03\r\x01")
            assert sim.wait(5) == 0  # sim_main returns 0 when the app stops as asked
    with start_sim(str(tmp_path)) as sim:
        with connect(sim.port) as client:
            assert client.state()["phase"] == "move"  # the game was kept
            assert client.request("repl") == {"ok": True, "repl": True, "id": 3}
        assert sim.wait(5) == 0


def test_the_boards_read_path(tmp_path):
    """The serial task as on the board (blocking reads, one byte at a time while bytes wait):
    a whole game, a bad line, and Ctrl-C leaving for the REPL."""
    with start_sim(str(tmp_path), seed=2, nonblocking=False) as sim:
        with connect(sim.port) as client:
            st = play_game(client, random.Random(1))
            assert replay(client.history()).position_id() == st["current_id"]
            client.transport.port.write(b'{"cmd":"he')
            assert client.request("hello")["error"]["code"] == "bad_json"
            time.sleep(QUIET_S)
            client.transport.port.write(b"\r\x03\r\x01")
            assert sim.wait(10) == 0


def _checker_counts(frame: bytes, colours: list) -> dict:
    """Checkers per absolute point and player as the LEDs show them (one LED a checker)."""
    leds = BOARD.decode(frame)
    return {(p, k): leds["p%d" % k].count(colours[p]) for p in (0, 1) for k in range(1, 25)}


def test_a_game_against_the_board_through_the_client(tmp_path):
    """`config` makes player 1 the board's; the person plays with button presses, the board
    throws and plays by itself: its steps come as events (the board rebuilt from events
    matches `state`), each step's checker is lit on the LEDs before it moves, and after
    its play the LEDs show its checkers where the state has them."""
    with start_sim(str(tmp_path), seed=41, pace=200) as sim, connect(sim.port) as client:
        settings = client.config(players=["human", "board"], level="strong")["settings"]
        assert settings["players"] == ["human", "board"] and settings["level"] == "strong"
        rng = random.Random(4)
        tracker = Tracker()
        colours: list = []
        lit = shown = 0
        board_steps = 0
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            st = client.state()
            for ev in client.events():
                tracker.event(ev)
                if ev["event"] == "step" and ev["player"] == 1:
                    board_steps += 1
                assert ev["event"] != "error" or ev["code"] != "internal", ev
            assert tracker.board() == st["board"], (st["steps"], tracker.kinds[-8:])
            if st["phase"] == "over":
                break
            if st["bot"] is not None:  # the board's turn: watch it, press nothing
                if st["bot"] == "move" and st["selected"] is not None and colours:
                    k = st["selected"]  # the lit checker, player 1's own point
                    if 1 <= k <= 24:
                        seen = _checker_counts(client.frame(), colours)
                        # its top checker shows the selection colour, not the checker's
                        lit += seen[(1, 25 - k)] == st["board"]["p1"][24 - k] - 1
                time.sleep(0.01)
                continue
            if st["phase"] == "done" and st["turn"] == 1:  # the board has played
                frame = client.frame()
                colours = player_colours(BOARD.decode(frame), st)
                seen = _checker_counts(frame, colours)
                assert all(seen[(p, k)] == st["board"]["p%d" % p][k - 1] for p, k in seen)
                shown += 1
            press_turn(client, st, rng)
        else:
            raise AssertionError("the game did not end")
        hist = client.history()
        assert replay(hist).position_id() == st["current_id"]
        board_turns = [t for t in hist["turns"] if t["player"] == 1]
        assert len(board_turns) > 10 and board_steps > 20 and shown > 8 and lit > 8
        assert tracker.kinds.count("press") < len(tracker.kinds) // 2
