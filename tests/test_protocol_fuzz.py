"""Fuzzing the protocol (hypothesis): random and mutated request lines, random bytes.

The bulk runs in-process against firmware/link/protocol.py under CPython with a real Controller;
a smaller batch goes through the pty to the simulator under MicroPython. The oracle:
- every line gets exactly one reply (blank lines none), in order, and every line written is
  JSON; the game and the settings are unchanged after every error reply (each reply is
  checked the moment it is written, so a mixed batch is judged line by line);
- every line the board writes is valid UTF-8 (CPython's strict decoder) and JSON; invalid
  UTF-8 anywhere in a request gets bad_json;
- no byte stream stops the board but the exact escape to the REPL after a silence (see
  link/lines.py), modelled here independently; random bytes full of 0x03, 0x01, 0x04 and
  \r keep the board playing;
- afterwards a legal request is answered and the board's state is consistent.
Requests include `hint` and the board player's settings (`players`, `level`), good values
often; one test lets the board play a side while the fuzz goes on between its actions; one
plays random sequences of the cube's requests, resignations, new games and match terms among
throws and moves, and checks `state` against the match gammon.match replays from `history`.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
from typing import Any

import pytest
from bad_utf8 import BAD_UTF8
from control.boot import boot
from fuzzkit import examples, mutate
from gammon.dice import Dice, SeededBytes
from gammon.match import Match
from hw.storage import GAME, Store
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from link.lines import QUIET_MS, WINDOW_MS
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
    edits = ("flip", "cut", "insert", "repeat")
    bytes_in = st.binary(min_size=1, max_size=6)
    return mutate(draw, draw(REQUESTS), st.integers(0, 4), bytes_in, 600, edits)


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
            obj = json.loads(line.decode("utf-8"))  # valid UTF-8 and JSON, every line
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


def _escape_in(chunks: list[tuple[bytes, int]]) -> tuple[int, int]:
    """Where the escape to the REPL stops the reader in chunks fed with those gaps (ms of
    silence before each): (chunk index, bytes of it consumed), or (-1, 0). The rule: after
    QUIET_MS of silence (or before anything was read), carriage returns at most, Ctrl-C, and
    within WINDOW_MS a carriage return, Ctrl-A or Ctrl-C; a chunk that ends at that Ctrl-C
    waits for the next one."""
    armed = None  # the time of a Ctrl-C that waits for its confirmation
    t = 0
    last = -QUIET_MS  # the time of the last byte read
    for i, (data, gap) in enumerate(chunks):
        t += gap
        if not data:
            continue
        quiet = t - last >= QUIET_MS
        last = t
        if armed is not None and t - armed <= WINDOW_MS and data[0] in b"\r\x01\x03":
            return i, 1
        armed = None
        if quiet:
            k = len(data) - len(data.lstrip(b"\r"))
            if data[k : k + 1] == b"\x03":
                if k + 1 == len(data):
                    armed = t
                elif data[k + 1] in b"\r\x01\x03":
                    return i, k + 2
    return -1, 0


def _not_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def _no_escape(data: bytes) -> bytes:
    """The data with every Ctrl-C that a confirming byte follows made a Ctrl-D: whatever the
    silences and the chunks a reader sees, it cannot hold the escape (other Ctrl-Cs stay)."""
    out = bytearray(data)
    for i in range(len(out) - 1):
        if out[i] == 3 and out[i + 1] in b"\r\x01\x03":
            out[i] = 4
    return bytes(out)


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
    proto.feed(b"\n", 0)  # every example then comes within the same burst: no silence
    _BOARDS[key] = (ctl, proto, judge, _pristine(ctl))
    return ctl, proto, judge


def _fill(data: bytes, plays: list[str], pick: int) -> bytes:
    """Puts a legal play / first step of the board where the line says <PLAY> / <STEP>."""
    play = plays[pick % len(plays)] if plays else "24/23"
    return data.replace(b"<PLAY>", play.encode()).replace(b"<STEP>", play.split()[0].encode())


def _check(data: bytes, seed: int, turns: int, pick: int = 0) -> None:
    """Lines fed with no silence before them: whatever the bytes, nothing stops the board
    but a `repl` request; every non-blank line gets one reply."""
    ctl, proto, judge = _board(seed, turns)
    if b"<PLAY>" in data or b"<STEP>" in data:
        data = _fill(data, ctl.state()["plays"], pick)
    consumed = proto.feed(data, 0)
    assert consumed == len(data)
    assert len(judge.replies) == _expected_lines(data), judge.replies
    assert proto.stopped == any(r.get("repl") for r in judge.replies)
    proto.stopped = False  # the app would end here; the check below goes on
    _answers(ctl, proto, judge, 0)


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
    max_examples=examples(800),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@FUZZ
@given(data=INPUTS, seed=st.integers(1, 3), turns=st.sampled_from(TURNS), pick=st.integers(0, 99))
def test_fuzz_lines_in_process(data, seed, turns, pick):
    _check(data, seed, turns, pick)


# random bytes full of the REPL's control characters, line ends and JSON punctuation
CONTROL_BYTES = st.lists(
    st.sampled_from(b'\x03\x03\x01\x04\r\r\n{}":x') | st.integers(0, 255), max_size=300
).map(bytes)


@settings(FUZZ, max_examples=examples(500))
@given(
    data=st.binary(min_size=1, max_size=1500) | CONTROL_BYTES,
    seed=st.integers(1, 3),
    cut=st.integers(0, 1500),
)
def test_fuzz_random_bytes_in_chunks(data, seed, cut):
    """Raw bytes, fed in two chunks at an arbitrary cut within one burst, then a newline
    to end the line: never a stop, every line answered."""
    ctl, proto, judge = _board(seed, 6)
    data = data + b"\n"
    proto.feed(data[:cut], 0)
    proto.feed(data[cut:], 0)
    assert not proto.stopped
    assert len(judge.replies) == _expected_lines(data)
    _check(b"\n", seed, 6)


@settings(FUZZ, max_examples=examples(400))
@given(
    chunks=st.lists(
        st.tuples(
            CONTROL_BYTES.filter(len), st.sampled_from([0, 1, 50, 99, 100, 250, 300, 301, 1500])
        ),
        min_size=1,
        max_size=6,
    ),
    seed=st.integers(1, 3),
)
def test_fuzz_control_bytes_with_silences_stop_only_at_the_exact_escape(chunks, seed):
    """Chunks of those bytes with silences between them (the first after a long one; none
    long enough to drop a half line): the reader stops exactly where the escape is, or
    never; the lines before were answered; and the board plays on afterwards."""
    ctl, proto, judge = _board(seed, 6)
    t = 5000
    seq = [(data, gap if i else 5000) for i, (data, gap) in enumerate(chunks)]
    at, used = _escape_in(seq)
    fed = b""
    for i, (data, gap) in enumerate(seq):
        t += gap
        n = proto.feed(data, t)
        if i == at:
            assert proto.stopped and n == used, (seq, i)
            fed += data[:n]
            break
        assert not proto.stopped and n == len(data), (seq, i)
        fed += data
    if at < 0:
        assert not proto.stopped
        fed += b"\n"
        proto.feed(b"\n", t)
        assert len(judge.replies) == _expected_lines(fed)
    else:
        assert len(judge.replies) == _expected_lines(fed[: fed.rfind(b"\n") + 1])
        proto.stopped = False
        proto.feed(b"\n", t)  # (a stopped board would leave for the REPL here)
    judge.replies = []
    proto.feed(b'{"cmd":"roll"}\n{"cmd":"state","id":"check"}\n', t)
    assert judge.replies[-1]["id"] == "check" and judge.replies[-1]["ok"], judge.replies
    assert judge.replies[-1]["position_id"] == ctl.game.position.position_id()
    _BOARDS.pop((seed, 6), None)  # times moved on: the next example boots afresh


@settings(FUZZ, max_examples=examples(300))
@given(
    line=REQUESTS,
    bad=st.sampled_from(BAD_UTF8) | st.binary(min_size=1, max_size=4).filter(_not_utf8),
    where=st.integers(0, 10**6),
    text=st.text(min_size=1, max_size=12),
)
def test_fuzz_invalid_utf8_is_bad_json_and_valid_text_comes_back(line, bad, where, text):
    """Invalid UTF-8 anywhere in a request gets bad_json (its id back only when it is an
    integer the reply can carry); any valid text as an id comes back as it was."""
    ctl, proto, judge = _board(1, 6)
    quote = [i for i in range(len(line)) if line[i : i + 1] == b'"'] or [0]
    i = quote[where % len(quote)] + (where // 7) % 2  # inside a string, or just before it
    proto.feed(line[:i] + bad + line[i:] + b"\n", 0)
    (reply,) = judge.replies
    assert reply["error"]["code"] in ("bad_json", "too_long"), reply
    judge.replies = []
    tid = json.dumps({"cmd": "hello", "id": text}, ensure_ascii=False).encode("utf-8", "strict")
    proto.feed(tid + b"\n", 0)
    (reply,) = judge.replies
    if len(text) <= 32 and not any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        assert reply["ok"] and reply["id"] == text, (text, reply)
    _answers(ctl, proto, judge, 0)


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

    @settings(FUZZ, max_examples=examples(200), database=None)
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
            # two paces of frames: the board thinks in slices, one a frame, then acts
            for _ in range(2 * ctl.pace_ms // 20 + 1):
                now += 20
                ctl.tick(now)
            judge.before = judge.snap()
            judge.replies = []
            data = _no_escape(line) + b"\n"  # silences pass here: no escape
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


# The cube, resignations and matches: their requests with good arguments mostly (and bad
# ones), interleaved with throws, moves, undos, new games and new terms.
TERMS = st.fixed_dictionaries(
    {},
    optional={
        "match_length": st.sampled_from([0, 1, 3, 5, 25, 26, -1, "3", True]),
        "cube": st.booleans() | st.sampled_from([1, "on", None]),
        "jacoby": st.booleans() | st.sampled_from([0, "off"]),
    },
)
_PLAY = st.sampled_from(
    [{"cmd": "move", "play": "<PLAY>"}] * 4 + [{"cmd": "move", "play": "<STEP>"}])
_ROLL = st.just({"cmd": "roll"}) | st.fixed_dictionaries(
    {"cmd": st.just("roll"), "dice": st.lists(st.integers(1, 6), min_size=2, max_size=2)})
_CUBE = st.sampled_from(["double", "double", "take", "drop", "accept", "reject"]).map(
    lambda c: {"cmd": c})
MATCH_REQUEST = st.one_of(  # throws and plays half the time, so that the game goes on
    _ROLL, _PLAY, _ROLL, _PLAY, _CUBE, _CUBE,
    st.sampled_from(["undo", "new", "state", "history", "hint"]).map(lambda c: {"cmd": c}),
    st.fixed_dictionaries(
        {"cmd": st.just("resign")},
        optional={"value": st.sampled_from([1, 2, 3, 1, 2, 3, 0, 4, "2", True, None, 2.0])},
    ),
    st.fixed_dictionaries({"cmd": st.just("config"), "set": TERMS}),
)
# a whole turn (a throw and its play) as often as a single request, so games go on
_TURN = st.just([{"cmd": "roll"}, {"cmd": "move", "play": "<PLAY>"}])
# ... or a turn and then a double or a resignation, with an answer of any kind
_ANSWER = st.sampled_from(["drop", "take", "reject", "accept", "roll"]).map(lambda c: {"cmd": c})
_OFFER = st.tuples(st.sampled_from([{"cmd": "double"}, {"cmd": "resign", "value": 1},
                                    {"cmd": "resign", "value": 2}]), _ANSWER).map(
    lambda t: [{"cmd": "roll"}, {"cmd": "move", "play": "<PLAY>"}, t[0], t[1]])
MATCH_SCRIPT = st.lists(_TURN | _OFFER | MATCH_REQUEST.map(lambda r: [r]), min_size=5,
                        max_size=40).map(lambda parts: [r for part in parts for r in part])


def _replayed(history: dict[str, Any]) -> Match:
    """The match as gammon.match plays history's games: each game's cube actions and
    resignations, in order, and its end; ValueError if any is refused there."""
    games = history["games"]
    first = games[0]
    m = Match(history["match_length"], history["cube_on"], history["jacoby"])
    m.resume(first["score"], first["crawford"], False, first["game"])
    for i, g in enumerate(games):
        assert g["score"] == m.score and g["game"] == m.game_number, (g, m.score)
        slot = None
        for a in g["actions"]:
            if (a["turn"], a["rolled"]) != slot:  # play went on between them
                m.went_on()
                slot = (a["turn"], a["rolled"])
            kind = a["action"]
            if kind == "resign":
                m.resign(a["player"], a["value"])
            else:
                getattr(m, kind)(a["player"])
        if g["ended"] == "played":
            m.finish(g["winner"], g["result"])
        if g["ended"]:
            assert m.winner == g["winner"] and m.points == g["points"], (g, m.points)
        if i < len(games) - 1:
            m.next_game()
    return m


def test_fuzz_cube_and_match_requests():
    """Random sequences of the cube's requests, resignations, new games and terms among
    throws and moves: every line answered, a refused one changes nothing, no internal
    error, and `state` always agrees with the match gammon.match replays from `history`
    (score, cube, owner, offer, Crawford, the end of the match)."""
    seen: dict[str, int] = {}

    @settings(FUZZ, max_examples=examples(200), database=None)
    @given(script=MATCH_SCRIPT, seed=st.integers(1, 3), pick=st.integers(0, 99),
           start=st.sampled_from([(3, True, False), (0, True, True), (1, True, False),
                                  (0, False, True), (5, True, False)]))
    def run(script, seed, pick, start):
        with tempfile.TemporaryDirectory() as root:
            ctl = boot(Store(root), Dice(SeededBytes(seed)), "full", None, 0)
            judge = Judge(ctl)
            proto = Protocol(ctl, {"board": "pico", "layout": "full", "leds": 452}, judge, 0)
            ctl.emit = proto.event
            terms = {"match_length": start[0], "cube": start[1], "jacoby": start[2]}
            for i, req in enumerate([{"cmd": "config", "set": terms}, {"cmd": "new"}] + script):
                req = dict(req, id=i)
                data = _fill(json.dumps(req).encode(), ctl.state()["plays"], pick + i) + b"\n"
                judge.replies = []
                proto.feed(data, i)
                assert len(judge.replies) == 1 and judge.replies[0]["id"] == i, judge.replies
                r = judge.replies[0]
                key = req["cmd"] + ":" + (r["error"]["code"] if not r["ok"] else "ok")
                seen[key] = seen.get(key, 0) + 1
                st_ = ctl.state(False)
                m = _replayed(ctl.history_dict())
                assert st_["score"] == m.score and st_["cube"] == m.cube
                assert st_["cube_owner"] == (m.owner if m.owner >= 0 else None)
                assert st_["crawford"] == m.crawford and st_["match_over"] == m.over()
                offer = st_["offer"]
                assert (offer is None) == (not m.offer)
                if offer:
                    assert offer["by"] == m.offer_by and offer["value"] == m.offer_value
                if st_["match_over"]:
                    assert st_["match_winner"] == m.match_winner()
            assert "internal" not in judge.events, judge.events
            for kind, n in judge.events.items():
                seen[kind] = seen.get(kind, 0) + n

    run()
    for key in ("double:ok", "take:ok", "drop:ok", "resign:ok", "accept:ok", "reject:ok",
                "double:wrong_phase", "resign:bad_args", "take:wrong_phase", "new:ok",
                "config:bad_args", "over"):
        assert seen.get(key, 0) > 0, (key, json.dumps(sorted(seen.items())))


def test_fuzz_through_the_pty_under_micropython(tmp_path):
    """Fuzz inputs through the pty (300 under --deep); after each a state request must come
    back with the game unchanged (unless some line of that input was a request that
    succeeded).

    The two documented ways to leave for the REPL would end the simulator: inputs naming
    "repl" are left out and a Ctrl-C that a confirming byte follows becomes a Ctrl-D (the
    in-process fuzz covers both); every other Ctrl-C stays, after newlines too. Raw bytes
    full of control characters are among the inputs. A side given to the board is given
    back after the example, as the board plays on by itself in real time."""
    rng = random.Random(17)
    inputs = []

    @settings(
        max_examples=examples(300),
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(INPUTS | CONTROL_BYTES.map(lambda b: b + b"\n"))
    def collect(data):
        if b"repl" not in data:
            inputs.append(_no_escape(data))

    collect()
    set_players = 0
    with start_sim(str(tmp_path), seed=4) as sim, connect(sim.port) as client:
        for _ in range(9):
            client.roll() if client.state()["phase"] != "move" else client.move(
                rng.choice(client.state()["plays"])
            )
        for n, data in enumerate(inputs):
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
                    obj = json.loads(line.decode("utf-8"))  # strict UTF-8, then JSON
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


def test_the_escape_ends_the_simulator_and_garbage_does_not(tmp_path):
    """Through the pty under MicroPython: a burst with Ctrl-Cs after newlines, even in the
    escape's own order, is answered line by line and the simulator plays on; the exact
    escape after a silence (mpremote's "\\r\\x03\\r\\x01") ends it (in the simulator
    there is no REPL to hand the port to) after its `repl` event."""
    import time

    with start_sim(str(tmp_path), seed=4) as sim, connect(sim.port) as client:
        port = client.transport.port
        burst = b'{"cmd":"hello","id":1}\n\x03\x03\r\x01\n\r\x03\r\x01\n' + bytes(range(256))
        port.write(burst + b'\n{"cmd":"hello","id":2}\n')
        ids = []
        while 2 not in ids:
            line = client.transport.read_line(10)
            assert line is not None, ids
            obj = json.loads(line.decode("utf-8"))
            if "event" not in obj:
                ids.append(obj.get("id"))
        assert ids[0] == 1 and ids[-1] == 2 and len(ids) == 6, ids  # bad_json for the rest
        assert sim.alive() and client.state()["phase"] == "opening"
        time.sleep(0.3)  # silence, then mpremote's interrupt
        port.write(b"\r\x03\r\x01")
        deadline = time.monotonic() + 10
        while sim.alive() and time.monotonic() < deadline:  # read only once it has ended:
            time.sleep(0.02)  # its last words stay readable (Simulator.LINGER_S)
        assert not sim.alive()
        events = []
        while True:
            line = client.transport.read_line(10)
            if line is None:
                break
            events.append(json.loads(line.decode("utf-8")))
            if events[-1].get("event") == "repl":
                break
        assert events and events[-1] == {"event": "repl"}, events
        assert sim.wait(10) == 0


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
