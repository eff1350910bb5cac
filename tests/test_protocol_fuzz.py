"""Fuzzing the protocol (hypothesis): random and mutated request lines, random bytes.

The bulk runs in-process against firmware/link/protocol.py under CPython with a real Controller;
a smaller batch goes through the pty to the simulator under MicroPython. The oracle:
- every line gets exactly one reply (blank lines none), in order, and every line written is
  JSON; the game and the settings are unchanged after every error reply (each reply is
  checked the moment it is written, so a mixed batch is judged line by line);
- a Ctrl-C byte stops the protocol only at the start of a line;
- afterwards a legal request is answered and the board's state is consistent.
Requests include `hint` and the board player's settings (`players`, `level`), good values
often; one test lets the board play a side while the fuzz goes on between its actions.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
from typing import Any

import pytest
from control.boot import boot
from gammon.dice import Dice, SeededBytes
from hw.storage import GAME, Store
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from link.protocol import Protocol
from simkit import connect, start_sim

CMDS = "hello state leds press roll move undo new history hint config selftest repl bogus".split()
GAME_KEYS = (
    "phase turn dice steps position_id current_id board winner result game cube score settings"
).split()
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**40), 2**40),
    st.floats(allow_nan=False),
    st.text(max_size=12),
    st.sampled_from(["p1", "ROLL", "8/5 6/5", "bar/22", "6/off", "brightness", "<PLAY>"]),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
PLAYERS = [["human", "board"], ["board", "human"], ["board", "board"], ["human", "human"]]
# good values of the board player's settings, so that they are set (and refused) often
SETTINGS = PLAYERS + [["board"], ["human", "robot"], "easy", "strong", "hard", "board"]
# "<PLAY>" and "<STEP>" are replaced, when the line is fed, by a legal play of the board
# and the first step of one, so that moves (and the undo after them) succeed often enough.
ARGS = {
    "press": (
        "button",
        st.sampled_from(
            ["p%d" % i for i in range(1, 25)] + "BAR OFF ROLL UNDO MENU LEFT RIGHT SELECT".split()
        ),
    ),
    "roll": ("dice", st.lists(st.integers(0, 7), max_size=3)),
    "move": (
        "play",
        st.sampled_from(
            ["<PLAY>", "<STEP>", "<STEP>", "13/11", "24/23 8/3", "bar/22*", "6/off", "24/18(2)"]
        ),
    ),
    "config": (
        "set",
        st.dictionaries(
            st.sampled_from(
                ["brightness", "autoplay", "physical_dice", "palette", "players", "level"]
            ),
            st.integers(0, 300) | st.booleans() | st.sampled_from(SETTINGS) | VALUES,
            max_size=2,
        ),
    ),
}


def _request(cmd: str) -> st.SearchStrategy[dict[str, Any]]:
    key, good = ARGS.get(cmd, ("junk", VALUES))
    return st.fixed_dictionaries(
        {"cmd": st.just(cmd)},
        optional={"id": st.integers(0, 10**6) | VALUES, key: good | VALUES, "x": VALUES},
    )


# The board player's settings, often good: the board then plays a side for the rest of
# the input (refusing a person's requests meanwhile), or sets its level.
BOARD_CONFIG = st.fixed_dictionaries(
    {
        "cmd": st.just("config"),
        "set": st.dictionaries(
            st.sampled_from(["players", "level"]),
            st.sampled_from(SETTINGS) | VALUES,
            min_size=1,
            max_size=2,
        ),
    },
    optional={"id": st.integers(0, 10**6)},
)
REQUESTS = st.one_of(
    st.sampled_from(CMDS).flatmap(_request),
    st.fixed_dictionaries({"cmd": VALUES}, optional={"id": VALUES, "play": VALUES}),
    BOARD_CONFIG,
).map(lambda d: json.dumps(d).encode())


@st.composite
def mutated(draw: Any) -> bytes:
    """A request line with bytes flipped, cut, inserted or repeated."""
    line = bytearray(draw(REQUESTS))
    for _ in range(draw(st.integers(0, 4))):
        op = draw(st.sampled_from(["flip", "cut", "insert", "repeat"]))
        i = draw(st.integers(0, max(0, len(line) - 1)))
        if op == "flip" and line:
            line[i] = draw(st.integers(0, 255))
        elif op == "cut":
            del line[i : i + draw(st.integers(1, 8))]
        elif op == "insert":
            line[i:i] = draw(st.binary(min_size=1, max_size=6))
        else:
            line[i:i] = line[i : i + draw(st.integers(1, 600))]
    return bytes(line)


LINES = st.one_of(
    REQUESTS,
    mutated(),
    st.binary(max_size=80),
    st.binary(min_size=500, max_size=900),
    st.text(max_size=60).map(str.encode),
)
INPUTS = st.lists(LINES, min_size=1, max_size=4).map(lambda ls: b"\n".join(ls) + b"\n")


class Judge:
    """Collects the protocol's output; checks each reply against the game at that moment."""

    def __init__(self, ctl: Any) -> None:
        self.ctl = ctl
        self.buf = b""
        self.replies: list[dict[str, Any]] = []
        self.events: dict[str, int] = {}  # kinds of events written, internal errors apart
        self.before = self.snap()

    def snap(self) -> str:
        """The game, its record and the settings (not the UI: menu, selection)."""
        st = self.ctl.state(False)
        game = {k: st[k] for k in GAME_KEYS}
        return json.dumps([game, self.ctl.history_dict()], sort_keys=True)

    def __call__(self, data: bytes) -> None:
        self.buf += bytes(data)
        while b"\n" in self.buf:
            line, self.buf = self.buf.split(b"\n", 1)
            obj = json.loads(line)  # every line the board writes is JSON
            assert isinstance(obj, dict)
            if "event" in obj:
                kind = obj["event"] if obj.get("code") != "internal" else "internal"
                self.events[kind] = self.events.get(kind, 0) + 1
                continue
            now = self.snap()
            if not obj["ok"]:
                assert now == self.before, obj  # an error reply changed the game
                assert obj["error"]["code"] in (
                    "bad_json",
                    "too_long",
                    "not_object",
                    "unknown_cmd",
                    "bad_args",
                    "illegal",
                    "wrong_phase",
                    "unavailable",
                ), obj
            self.before = now
            self.replies.append(obj)


def _expected_lines(data: bytes) -> int:
    """Non-blank lines (each gets one reply: a line over 512 bytes gets too_long)."""
    return sum(1 for line in data.split(b"\n")[:-1] if line.strip(b" \t\r"))


def _interrupt_at(data: bytes) -> int:
    """Where a Ctrl-C at a line start (after CRs at most) stops the reader, or -1."""
    start = 0
    for i, b in enumerate(data):
        if b == 10:
            start = i + 1
        elif b == 3 and all(c == 13 for c in data[start:i]):
            return i
    return -1


TURNS = [0, 1, 2, 5, 6, 9, 15, 22, 40]  # the boards fuzzed: requests into a game this far
_SAVES: dict[tuple[int, int], str | None] = {}
_DIR: list[str] = []


@pytest.fixture(scope="module", autouse=True)
def _scratch(tmp_path_factory):
    """One folder of flash for every example of this module."""
    _DIR.append(str(tmp_path_factory.mktemp("flash")))
    yield
    _DIR.pop()


def _save(seed: int, turns: int) -> str | None:
    """A game some way in (every phase gets its share of fuzz), as its save file."""
    if (seed, turns) not in _SAVES:
        with tempfile.TemporaryDirectory() as root:
            ctl = boot(Store(root), Dice(SeededBytes(seed)), "full", None, 0)
            rng = random.Random(seed)
            for _ in range(turns):
                st = ctl.state()
                if st["phase"] == "move":
                    for _ in st["steps"]:  # `plays` are whole plays from the turn's start
                        assert ctl.undo(0)[0]
                    play = rng.choice(st["plays"])
                    ok, _ = ctl.move(play.split()[0] if rng.random() < 0.5 else play, 0)
                    assert ok
                else:
                    assert ctl.roll(0)[0]
            path = os.path.join(root, GAME)
            if os.path.exists(path):
                with open(path) as f:
                    _SAVES[(seed, turns)] = f.read()
            else:
                _SAVES[(seed, turns)] = None
    return _SAVES[(seed, turns)]


def _pristine(ctl: Any) -> str:
    """All a request can change, UI included: a board equal to this behaves the same."""
    v = ctl.view
    ui = [v.selected, v.cursor, ctl.hint]
    return json.dumps([ctl.state(False), ctl.history_dict(), ui], sort_keys=True)


_BOARDS: dict[tuple[int, int], tuple[Any, Protocol, Judge, str]] = {}


def _board(seed: int, turns: int) -> tuple[Any, Protocol, Judge]:
    """A board booted from that save, and its protocol; reused while nothing changed it (a
    boot replays the whole record, and most fuzz changes nothing)."""
    key = (seed, turns)
    if key in _BOARDS:
        ctl, proto, judge, mark = _BOARDS[key]
        if not proto.stopped and _pristine(ctl) == mark:
            judge.replies = []
            judge.events = {}
            judge.before = judge.snap()
            return ctl, proto, judge
    root = os.path.join(_DIR[0], "%d-%d" % key)
    text = _save(seed, turns)
    if os.path.isdir(root):
        for name in os.listdir(root):
            os.remove(os.path.join(root, name))
    else:
        os.mkdir(root)
    store = Store(root)
    if text is not None:
        store.save_game(text)
    ctl = boot(store, Dice(SeededBytes(seed)), "full", None, 0)
    judge = Judge(ctl)
    proto = Protocol(
        ctl, {"board": "pico", "layout": "full", "leds": 440}, judge, 0, stop=lambda: None
    )
    ctl.emit = proto.event
    _BOARDS[key] = (ctl, proto, judge, _pristine(ctl))
    return ctl, proto, judge


def _fill(data: bytes, plays: list[str], pick: int) -> bytes:
    """Puts a legal play / first step of the board where the line says <PLAY> / <STEP>."""
    play = plays[pick % len(plays)] if plays else "24/23"
    return data.replace(b"<PLAY>", play.encode()).replace(b"<STEP>", play.split()[0].encode())


def _check(data: bytes, seed: int, turns: int, pick: int = 0) -> None:
    ctl, proto, judge = _board(seed, turns)
    if b"<PLAY>" in data or b"<STEP>" in data:
        data = _fill(data, ctl.state()["plays"], pick)
    consumed = proto.feed(data, 0)
    stop = _interrupt_at(data)
    if stop >= 0:  # the lines before the Ctrl-C were answered, nothing after it was read
        assert proto.stopped and consumed == stop + 1
        assert len(judge.replies) == _expected_lines(data[: stop + 1])
        proto.stopped = False  # the app would end here; the check below goes on
    else:
        assert consumed == len(data)
        assert len(judge.replies) == _expected_lines(data), judge.replies
        assert proto.stopped == any(r.get("repl") for r in judge.replies)
    _answers(ctl, proto, judge, 1)


def _answers(ctl: Any, proto: Protocol, judge: Judge, now: int) -> None:
    """A legal request afterwards: answered, consistent with the engine; no internal error
    was reported on the way."""
    before = judge.snap()
    judge.replies = []
    proto.feed(b'{"cmd":"state","id":"check"}\n', now)
    (reply,) = judge.replies
    assert reply["ok"] and reply["id"] == "check" and judge.snap() == before
    assert reply["position_id"] == ctl.game.position.position_id()
    assert "internal" not in judge.events, judge.events


FUZZ = settings(
    max_examples=800,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@FUZZ
@given(data=INPUTS, seed=st.integers(1, 3), turns=st.sampled_from(TURNS), pick=st.integers(0, 99))
def test_fuzz_lines_in_process(data, seed, turns, pick):
    _check(data, seed, turns, pick)


@settings(FUZZ, max_examples=500)
@given(data=st.binary(min_size=1, max_size=1500), seed=st.integers(1, 3), cut=st.integers(0, 1500))
def test_fuzz_random_bytes_in_chunks(data, seed, cut):
    """Raw bytes, fed in two chunks at an arbitrary cut, then a newline to end the line."""
    ctl, proto, judge = _board(seed, 6)
    data = data + b"\n"
    if _interrupt_at(data) >= 0:
        _check(data, seed, 6)
        return
    proto.feed(data[:cut], 0)
    proto.feed(data[cut:], 0)
    assert len(judge.replies) == _expected_lines(data)
    _check(b"\n", seed, 6)


# well-formed requests of a person playing against the board
PERSON = st.sampled_from(
    [b'{"cmd":"%s"}' % c for c in (b"roll", b"undo", b"hint", b"state")]
    + [b'{"cmd":"press","button":"%s"}' % b for b in (b"ROLL", b"UNDO", b"MENU", b"p13")]
    + [b'{"cmd":"move","play":"<PLAY>"}', b'{"cmd":"move","play":"<STEP>"}']
)
PERSON_OR_FUZZ = st.sampled_from((PERSON, PERSON, REQUESTS, LINES)).flatmap(lambda s: s)


def test_fuzz_while_the_board_plays():
    """A side (or both) played by the board at either level, and between the fuzz lines time
    passes, so the board throws, thinks and moves: every line is still answered, a refused
    line changes nothing, the board's moves are never an error, and its play goes on."""
    seen: dict[str, int] = {}

    @settings(FUZZ, max_examples=200, database=None)
    @given(
        lines=st.lists(PERSON_OR_FUZZ, min_size=1, max_size=5),
        seed=st.integers(1, 3),
        turns=st.sampled_from(TURNS),
        players=st.sampled_from(PLAYERS[:3]),
        level=st.sampled_from(["easy", "strong"]),
        pick=st.integers(0, 99),
    )
    def run(lines, seed, turns, players, level, pick):
        ctl, proto, judge = _board(seed, turns)
        now = 1
        setting = json.dumps({"cmd": "config", "set": {"players": players, "level": level}})
        proto.feed(setting.encode() + b"\n", now)
        assert judge.replies[-1]["ok"] and ctl.bot is not None
        for line in lines:
            for _ in range(2):  # the board's next action or two (one each pace at most)
                now += ctl.pace_ms
                ctl.tick(now)
            judge.before = judge.snap()
            judge.replies = []
            data = line.replace(b"\x03", b"\x04") + b"\n"  # Ctrl-C: the in-process fuzz
            if b"repl" in data:
                continue
            data = _fill(data, ctl.state()["plays"], pick)
            assert proto.feed(data, now) == len(data)
            assert len(judge.replies) == _expected_lines(data), judge.replies
            for r in judge.replies:
                key = r["error"]["code"] if not r["ok"] else "ok"
                seen[key] = seen.get(key, 0) + 1
        for kind, n in judge.events.items():
            seen[kind] = seen.get(kind, 0) + n
        _answers(ctl, proto, judge, now)

    run()
    # the board played while the fuzz went on, and refused a person's requests meanwhile
    assert seen.get("step", 0) > 20 and seen.get("roll", 0) > 5, sorted(seen.items())
    assert seen.get("wrong_phase", 0) > 10 and seen.get("ok", 0) > 20, sorted(seen.items())


def test_fuzz_through_the_pty_under_micropython(tmp_path):
    """300 fuzz inputs through the pty; after each a state request must come back with the
    game unchanged (unless some line of that input was a request that succeeded).

    The two documented ways to leave for the REPL would end the simulator: a Ctrl-C byte
    is replaced by Ctrl-D here and inputs naming "repl" are left out (the in-process fuzz
    covers both). A side given to the board is given back after the example, as the board
    plays on by itself in real time."""
    rng = random.Random(17)
    examples = []

    @settings(
        max_examples=300,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(INPUTS)
    def collect(data):
        if b"repl" not in data:
            examples.append(data.replace(b"\x03", b"\x04"))

    collect()
    set_players = 0
    with start_sim(str(tmp_path), seed=4) as sim, connect(sim.port) as client:
        for _ in range(9):
            client.roll() if client.state()["phase"] != "move" else client.move(
                rng.choice(client.state()["plays"])
            )
        for n, data in enumerate(examples):
            before = client.state()
            data = _fill(data, before["plays"], n)
            client.transport.port.write(data)
            tag = "chk%d" % n
            client.transport.write_line(json.dumps({"cmd": "state", "id": tag}).encode())
            replies = []
            while True:
                line = client.transport.read_line(10)
                assert line is not None, "no answer after %r" % data[:80]
                try:
                    obj = json.loads(line)
                except ValueError:
                    raise AssertionError("a line that is not JSON: %r" % line[:80]) from None
                if "event" in obj:
                    continue
                if obj.get("id") == tag:
                    break
                replies.append(obj)
            assert len(replies) == _expected_lines(data), (data[:100], replies)
            if not any(r["ok"] for r in replies):
                for key in ("position_id", "current_id", "steps", "dice", "phase", "settings"):
                    assert obj[key] == before[key], (key, data[:100])
            if "board" in obj["settings"]["players"]:  # it would play on between examples
                set_players += 1
                client.config(players=["human", "human"])
    assert set_players > 3  # the board's players were set (and it played) in some examples


def test_worst_case_state_is_streamed(tmp_path):
    """The most legal plays known (2,226 for 1-1 in AAAA/3+UUkpJKQ): the `state` reply is one
    valid JSON line of about 43 KB, written in pieces of a few hundred bytes at most."""
    from gammon.play import legal_plays
    from gammon.position import Position

    ctl = boot(Store(str(tmp_path)), Dice(SeededBytes(1)), "full", None, 0)
    writes: list[bytes] = []
    proto = Protocol(ctl, {}, lambda b: writes.append(bytes(b)), 0)
    ctl.emit = proto.event
    pos = Position.from_id("AAAA/3+UUkpJKQ")
    ctl.game.setup(pos, 0)
    proto.feed(b'{"cmd":"roll","dice":[1,1]}\n', 0)
    writes.clear()
    proto.feed(b'{"cmd":"state","id":9}\n', 0)
    reply = json.loads(b"".join(writes))
    assert reply["id"] == 9 and len(reply["plays"]) == 2226
    assert reply["plays"] == [str(p) for p in legal_plays(pos, (1, 1))]
    assert len(writes) > 100 and max(len(w) for w in writes[1:]) < 600
