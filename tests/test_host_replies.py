"""Host commands against a board that answers nonsense (a fake board on a pty): every
command either succeeds or says one clear line on stderr with a non-zero exit code, never a
traceback, and export/snapshot write no file from a malformed reply. Hypothesis then tries
any reply object in place of each one."""

from __future__ import annotations

import copy
import json
import os
from typing import Any

import pytest
from fakeboard import GOOD, FakeBoard
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ledgammon import boardinfo, terminal
from ledgammon.cli import main
from ledgammon.client import Client
from ledgammon.replies import BadReply, check, event_ok

BOARD = boardinfo.load("pico")
# each command line, and the requests it makes besides `hello`
COMMANDS: list[tuple[list[str], set[str]]] = [
    (["hello"], set()),
    (["state"], {"state"}),
    (["state", "--json"], {"state"}),
    (["roll"], {"roll"}),
    (["roll", "3", "1"], {"roll"}),
    (["move", "8/5", "6/5"], {"move"}),
    (["undo"], {"undo"}),
    (["new"], {"new"}),
    (["history"], {"history"}),
    (["config"], {"config"}),
    (["config", "brightness=9", "--json"], {"config"}),
    (["hint"], {"hint"}),
    (["press", "p8", "p5"], {"press", "state"}),
    (["export", "{dir}/game.mat"], {"history", "state"}),
    (["snapshot", "{dir}/board.png"], {"leds", "state"}),
]


def run(capsys: Any, port: str, argv: list[str], where: str) -> tuple[int, str, str]:
    """main(argv) against `port` -> (exit code, stdout, stderr); an exception fails the test."""
    argv = [a.format(dir=where) for a in argv] + ["--port", port]
    if "--timeout" not in argv:
        argv += ["--timeout", "5"]  # a loaded test machine is slow
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def files(where: str) -> list[str]:
    return sorted(os.listdir(where))


def check_outcome(code: int, out: str, err: str, argv: list[str], where: str) -> None:
    """Success, or one line "ledgammon: ..." and a non-zero code with no file written."""
    assert "Traceback" not in out + err, (argv, out, err)
    if code == 0:
        assert err == "", (argv, err)
        return
    assert err.startswith("ledgammon: ") and err.count("\n") == 1, (argv, code, err)
    assert files(where) == [], (argv, files(where))


def test_a_well_behaved_fake_board_serves_every_command(capsys, tmp_path):
    """The fake board's good answers: every command succeeds (so the failures below are the
    replies' doing), and export/snapshot write their files."""
    with FakeBoard() as board:
        for argv, _ in COMMANDS:
            code, out, err = run(capsys, board.port, argv, str(tmp_path))
            assert code == 0 and err == "", (argv, err)
    assert files(str(tmp_path)) == ["board.png", "game.mat"]


def _without(reply: dict[str, Any], key: str) -> dict[str, Any]:
    out = dict(reply)
    del out[key]
    return out


def _with(cmd: str, path: str, value: Any) -> dict[str, Any]:
    """GOOD[cmd] with the field at dotted `path` set to `value`."""
    reply = copy.deepcopy(GOOD[cmd])
    *outer, last = path.split(".")
    d = reply
    for key in outer:
        d = d[key]
    d[last] = value
    return reply


# The cases (12.6): the reply, the words its line must contain, and the commands
# that must fail (None: every command that makes that request).
BAD: list[tuple[str, dict[str, Any], str, set[str] | None]] = [
    ("hello", _with("hello", "protocol", "1"), "protocol should be an integer", None),
    ("hello", _without(GOOD["hello"], "board"), "has no board", None),
    ("hello", _with("hello", "board", "x"), "'x'", {"snapshot"}),  # a board we cannot draw
    ("hello", {"ok": False, "error": "text"}, "error should be an object", None),
    ("state", {"ok": False, "error": "text"}, "error should be an object", None),
    ("state", _with("state", "dice", "ab"), "dice should be null or a list", None),
    ("state", _with("state", "steps", 3), "steps should be a list", None),
    ("state", _with("state", "score", 1), "score should be a list of 2", None),
    ("state", _with("state", "board", "x"), "board should be an object", None),
    ("state", _with("state", "settings", []), "settings should be an object", None),
    ("state", _with("state", "board.p0", [1] * 23), "board.p0 should be a list of 24", None),
    ("state", _without(GOOD["state"], "game"), "has no game", None),
    ("state", _with("state", "position_id", "x"), "Position ID", {"export"}),
    ("state", _with("state", "score", [0, 40000]), "fit", {"export"}),
    ("history", _with("history", "turns", "x"), "turns should be a list", None),
    ("history", _with("history", "turns", [{"player": 0, "dice": [3, 1]}]),
     "has no turns[0].play", None),
    ("history", _with("history", "turns", [{"player": 0, "dice": [3, 1], "play": "1/9"}]),
     "turn 1", {"export"}),
    ("config", _with("config", "settings", []), "settings should be an object", None),
    ("roll", _with("roll", "dice", "ab"), "dice", None),
    ("roll", _without(GOOD["roll"], "player"), "player", None),
    ("move", _with("move", "steps", 3), "steps should be a list", None),
    ("undo", {"ok": "yes"}, "ok should be true or false", None),
    ("new", _with("new", "game", "2"), "game should be an integer", None),
    ("hint", _without(GOOD["hint"], "play"), "has no play", None),
    ("press", _with("press", "button", 8), "button should be a string", None),
    ("leds", _with("leds", "frame", "not base64!"), "frame should be base64", None),
]


@pytest.mark.parametrize("cmd, reply, words, failing", BAD,
                         ids=["%s-%d" % (case[0], i) for i, case in enumerate(BAD)])
def test_each_malformed_reply_is_one_clear_line(capsys, tmp_path, cmd, reply, words, failing):
    """Every command that makes that request fails with one line naming what is wrong and
    writes no file; the others (which never read that reply, or read it as text) succeed."""
    where = str(tmp_path)
    with FakeBoard({cmd: reply}) as board:
        for argv, uses in COMMANDS:
            uses_it = cmd == "hello" or cmd in uses
            if not uses_it and argv != ["hello"]:  # `hello` stands for the commands not using it
                continue
            code, out, err = run(capsys, board.port, argv, where)
            check_outcome(code, out, err, argv, where)
            if uses_it and (failing is None or argv[0] in failing):
                assert code != 0 and words in err, (argv, code, err)
            else:
                assert code == 0, (argv, err)
            for name in files(where):
                os.remove(os.path.join(where, name))


@pytest.mark.parametrize("reply, words", [(r, w) for c, r, w, _ in BAD if c == "hello"])
def test_watch_and_play_fail_before_the_screen_on_a_malformed_hello(capsys, tmp_path, reply,
                                                                   words):
    """`watch` and `play --port` stop at the connection (or at a board they cannot draw),
    with one line, before curses takes the terminal."""
    with FakeBoard({"hello": reply}) as board:
        for argv in (["watch"], ["play"]):
            code, out, err = run(capsys, board.port, argv, str(tmp_path))
            check_outcome(code, out, err, argv, str(tmp_path))
            assert code != 0 and words in err, (argv, err)


def test_error_replies_are_board_errors_and_json_keeps_them(capsys, tmp_path):
    refusal = {"ok": False, "error": {"code": "illegal", "message": "no"}}
    with FakeBoard({"roll": refusal, "press": refusal}) as board:
        code, out, err = run(capsys, board.port, ["roll", "--json"], str(tmp_path))
        assert code == 5 and json.loads(out)["error"]["code"] == "illegal"
        assert err == "ledgammon: illegal: no\n"
        code, out, err = run(capsys, board.port, ["press", "p8"], str(tmp_path))
        assert code == 5 and err == "ledgammon: illegal: p8: no\n"


def test_other_protocol_versions_and_unanswered_requests(capsys, tmp_path):
    for version, words in ((2, "update ledgammon"), (0, "update the firmware")):
        with FakeBoard({"hello": _with("hello", "protocol", version)}) as board:
            code, _, err = run(capsys, board.port, ["state"], str(tmp_path))
            assert code == 4 and words in err and err.count("\n") == 1, err
    wrong_id = dict(GOOD["state"], id=999)  # a reply to someone else: no answer to ours
    with FakeBoard({"state": wrong_id}) as board:
        code, _, err = run(capsys, board.port, ["state", "--timeout", "0.5"], str(tmp_path))
        assert code == 3 and "no answer" in err and err.count("\n") == 1, err
    with FakeBoard({"hello": dict(GOOD["hello"], id=True)}) as board:  # true is not id 1
        code, _, err = run(capsys, board.port, ["hello", "--timeout", "0.5"], str(tmp_path))
        assert code == 3 and "no answer" in err, err


def test_malformed_events_are_dropped_not_fatal():
    noise = (b'{"event": "roll", "player": 0, "dice": 3}\n{"event": 5}\n'
             b'{"event": "press", "button": ["p1"]}\n{"event": "roll", "player": 1, '
             b'"dice": [6, 5]}\n{"ok": true, "id": 2, "button": "p8"}')
    with FakeBoard({"press": noise}) as board, Client(board.port, timeout=5) as client:
        assert client.press("p8")["button"] == "p8"
        events = client.poll_events()
        assert events == [{"event": "roll", "player": 1, "dice": [6, 5]}]
        assert client.dropped == 3


def test_lines_too_deep_or_too_long_are_skipped():
    """A line nested past json's depth, and a reply padded past the longest line kept (one
    the client would otherwise take): both skipped, the reply after them is taken."""
    from ledgammon.transport import MAX_LINE

    def answer(req: dict[str, Any]) -> bytes:
        long = json.dumps({"ok": True, "id": req["id"], "button": "long"}).encode()
        good = json.dumps({"ok": True, "id": req["id"], "button": "p8"}).encode()
        return b"[" * 100000 + b"\n" + long + b" " * MAX_LINE + b"\n" + good

    with FakeBoard({"press": answer}) as board, Client(board.port, timeout=20) as client:
        assert client.press("p8")["button"] == "p8"
        assert client.state()["phase"] == "move"  # and the line after it is whole


class QuitAfter:
    """A display for terminal.loop that records screens and presses keys, then quits."""

    def __init__(self, keys: list[str]) -> None:
        self.keys = keys + ["q"]
        self.screens = 0

    def show(self, screen: Any) -> None:
        self.screens += 1

    def key(self, timeout_ms: int) -> str | None:
        return self.keys.pop(0)


class SaidView(terminal.LiveView):
    """The live view, keeping every message it says."""

    said: list[str]

    def say(self, text: str) -> None:
        self.__dict__.setdefault("said", []).append(text)
        super().say(text)


def watch_and_play(port: str) -> list[str]:
    """The start of `play` and `watch` past connecting: the view's loop with keys that press,
    hint and start a new game; what it said on its message line."""
    with Client(port, timeout=5) as client:
        view = SaidView(client, True, board=BOARD)
        display = QuitAfter(["r", "h", "n", "n", "8", "ENTER"])
        assert terminal.loop(view, display) == 0
        assert display.screens == 7
    return view.__dict__.get("said", [])


@pytest.mark.parametrize("cmd", ["state", "leds", "press", "hint", "new"])
def test_the_live_view_says_a_malformed_reply_and_goes_on(cmd):
    with FakeBoard({cmd: {"ok": True}}) as board:
        said = watch_and_play(board.port)
    words = "board: the board on %s answered `%s` with a malformed reply" % (board.port, cmd)
    assert any(m.startswith(words) for m in said), said


NASTY = [None, True, -1, 7, 2**40, 1.5, "ab", "", [], [1], {}, {"a": 1}]


def paths(value: Any, prefix: str = "") -> list[str]:
    """Every field of a reply as a dotted path, nested objects and first list items too."""
    out = []
    items = value.items() if isinstance(value, dict) else enumerate(value[:1])
    for key, inner in items:
        path = "%s%s" % (prefix, key)
        out.append(path)
        if isinstance(inner, (dict, list)):
            out += paths(inner, path + ".")
    return out


def changed(cmd: str, path: str, value: Any) -> dict[str, Any]:
    """GOOD[cmd] with the field at `path` set to `value` (DROP: removed)."""
    reply = copy.deepcopy(GOOD[cmd])
    *outer, last = path.split(".")
    d: Any = reply
    for key in outer:
        d = d[int(key)] if isinstance(d, list) else d[key]
    if isinstance(d, list):
        if value is DROP:
            del d[int(last)]
        else:
            d[int(last)] = value
    elif value is DROP:
        del d[last]
    else:
        d[last] = value
    return reply


DROP = object()


@pytest.mark.parametrize("cmd", sorted(GOOD))
def test_every_field_of_every_reply_spoilt_in_turn(capsys, tmp_path, cmd):
    """Each field of the reply (nested ones too) dropped or set to each of a dozen wrong
    values in turn: every command making that request (but snapshot, see below) succeeds
    or says one clear line."""
    where = str(tmp_path)
    runs = [argv for argv, uses in COMMANDS  # `state --json` and `press` read what state does
            if cmd in uses and argv[0] not in ("snapshot", "press") and "--json" not in argv]
    if cmd == "hello":
        runs = [["hello"], ["state"], ["export", "{dir}/game.mat"]]
    with FakeBoard() as board:
        for path in paths(GOOD[cmd]):
            for value in NASTY + [DROP]:
                board.replies[cmd] = changed(cmd, path, value)
                for argv in runs:
                    code, out, err = run(capsys, board.port, argv, where)
                    check_outcome(code, out, err, argv + [path, repr(value)], where)
                    for name in files(where):
                        os.remove(os.path.join(where, name))


# Any JSON value, and reply objects built from them.
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=12,
)
NAMES = sorted(GOOD)


@st.composite
def replies(draw: Any) -> tuple[str, dict[str, Any]]:
    """A command and a reply for it: the good one with a field dropped or replaced (nested
    fields too), or any object at all with `ok` true, false or anything."""
    cmd = draw(st.sampled_from(NAMES))
    how = draw(st.sampled_from(["drop", "replace", "nested", "any"]))
    reply = copy.deepcopy(GOOD[cmd])
    keys = sorted(k for k in reply if k != "ok")
    if how == "drop" and keys:
        del reply[draw(st.sampled_from(keys))]
    elif how == "replace" and keys:
        reply[draw(st.sampled_from(keys))] = draw(JSON)
    elif how == "nested":
        key = draw(st.sampled_from(keys + ["ok"]))
        value = reply[key]
        if isinstance(value, dict) and value:
            value[draw(st.sampled_from(sorted(value)))] = draw(JSON)
        elif isinstance(value, list) and value:
            value[draw(st.integers(0, len(value) - 1))] = draw(JSON)
        else:
            reply[key] = draw(JSON)
    else:
        reply = draw(st.dictionaries(st.text(max_size=8), JSON, max_size=6))
        reply["ok"] = draw(st.booleans() | JSON)
    for key in ("id", "event", "cmd"):  # those make a line no reply at all: see above
        reply.pop(key, None)
    return cmd, reply


def _any_reply(capsys: Any, where: str, case: tuple[str, dict[str, Any]], picture: bool) -> None:
    """Every command making the request answered by `case` (snapshot alone, or all but it)."""
    cmd, reply = case
    with FakeBoard({cmd: reply}) as board:
        for argv, uses in COMMANDS:
            if (argv[0] == "snapshot") != picture:
                continue
            if cmd == "hello" or cmd in uses:
                code, out, err = run(capsys, board.port, argv, where)
                check_outcome(code, out, err, argv, where)
                for name in files(where):
                    os.remove(os.path.join(where, name))
        if not picture and cmd in ("hello", "state", "leds", "press", "hint", "new"):
            try:
                watch_and_play(board.port)
            except Exception as exc:  # only the connection's own clear errors may end it
                from ledgammon.errors import LedgammonError

                assert isinstance(exc, LedgammonError) and cmd == "hello", exc


SLOW = [HealthCheck.too_slow, HealthCheck.function_scoped_fixture]


@settings(max_examples=60, deadline=None, suppress_health_check=SLOW)
@given(replies())
def test_any_reply_from_a_board_is_success_or_one_clear_line(capsys, tmp_path_factory, case):
    _any_reply(capsys, str(tmp_path_factory.mktemp("out")), case, picture=False)


@settings(max_examples=10, deadline=None, suppress_health_check=SLOW)
@given(replies().filter(lambda case: case[0] in ("hello", "leds", "state")))
def test_any_reply_to_a_snapshot_is_a_picture_or_one_clear_line(capsys, tmp_path_factory, case):
    """The same for `snapshot` (a picture takes about 2 s to draw, hence fewer examples)."""
    _any_reply(capsys, str(tmp_path_factory.mktemp("out")), case, picture=True)


KINDS = ["press", "roll", "nomove", "turn", "step", "undo", "over", "new", "config", "menu",
         "entry", "error", "selftest", "boot", "repl", "other"]


@settings(max_examples=40, deadline=None, suppress_health_check=SLOW)
@given(st.lists(st.fixed_dictionaries(
    {"event": st.sampled_from(KINDS) | JSON},
    optional={k: JSON | st.sampled_from(["p8", "ROLL", 0, 1, [3, 1]])
              for k in ("player", "dice", "button", "from", "to", "hit", "message", "code")},
), max_size=6))
def test_any_events_are_followed_or_dropped(events):
    """Events of any shape before a reply: the client keeps those it can use, and the live
    view follows them (selection, messages) without an error."""
    lines = b"".join(json.dumps(ev).encode() + b"\n" for ev in events)

    def answer(req: dict[str, Any]) -> bytes:
        return lines + json.dumps(dict(GOOD["press"], id=req["id"])).encode()

    with FakeBoard({"press": answer}) as board, Client(board.port, timeout=5) as client:
        client.press("p8")
        kept = client.poll_events()
        assert len(kept) + client.dropped == len(events)
        view = terminal.LiveView(client, True, board=BOARD)
        view.take(kept)
        view.screen()


def _match_lines(tmp_path: Any) -> list[tuple[str, dict[str, Any]]]:
    """(request, line) of every line the firmware (in-process, CPython) writes in a short
    match with a double, a take, a rejected and an accepted resignation, and a drop."""
    from control.boot import boot
    from gammon.dice import Dice, SeededBytes
    from hw.storage import Store
    from link.protocol import Protocol

    out: list[tuple[str, dict[str, Any]]] = []
    cmd = [""]
    buf = bytearray()

    def write(b: bytes) -> None:  # a long line comes in pieces
        buf.extend(b)
        while b"\n" in buf:
            i = buf.index(b"\n")
            out.append((cmd[0], json.loads(bytes(buf[:i]))))
            del buf[: i + 1]

    ctl = boot(Store(str(tmp_path)), Dice(SeededBytes(1)), "full", lambda ev: None, 0)
    proto = Protocol(ctl, {"board": "pico", "layout": "full", "leds": 452}, write)
    ctl.emit = proto.event
    script = [
        {"cmd": "config", "set": {"match_length": 7, "cube": True}}, {"cmd": "new"},
        {"cmd": "roll", "dice": [3, 1]}, {"cmd": "move", "play": "8/5 6/5"},
        {"cmd": "double"}, {"cmd": "state"}, {"cmd": "take"}, {"cmd": "roll", "dice": [6, 4]},
        {"cmd": "resign", "value": 1}, {"cmd": "state"}, {"cmd": "reject"},
        {"cmd": "resign", "value": 2}, {"cmd": "accept"}, {"cmd": "history"}, {"cmd": "new"},
        {"cmd": "roll", "dice": [3, 1]}, {"cmd": "move", "play": "8/5 6/5"},
        {"cmd": "double"}, {"cmd": "drop"}, {"cmd": "state"}, {"cmd": "history"},
    ]
    for n, req in enumerate(script):
        cmd[0] = req["cmd"]
        req["id"] = n
        proto.feed((json.dumps(req) + "\n").encode(), 10 * n)
    return out


def test_the_firmwares_match_replies_and_events_pass_the_checks(tmp_path):
    lines = _match_lines(tmp_path)
    kinds = set()
    for cmd, line in lines:
        if "event" in line:
            assert event_ok(line), line
            kinds.add(line["event"])
        else:
            assert line["ok"], (cmd, line)
            assert check(cmd, line, "the board") is line
            kinds.add(cmd)
    assert {"double", "take", "drop", "resign", "accept", "reject", "over", "history"} <= kinds
    history = [line for cmd, line in lines if cmd == "history" and "ok" in line][-1]
    assert len(history["games"]) == 2 and history["games"][0]["ended"] == "resigned"
    # a wrong type in a new field is a malformed reply or an unusable event
    spoilt = [
        ("state", "offer", {"kind": "beaver", "by": 0, "value": 2}),
        ("state", "may_double", 1),
        ("state", "match_winner", 2),
        ("double", "cube", 1),
        ("accept", "points", -1),
        ("history", "games", [{"game": 1}]),
    ]
    for cmd, key, bad in spoilt:
        line = copy.deepcopy([x for c, x in lines if c == cmd and "ok" in x][0])
        line[key] = bad
        with pytest.raises(BadReply):
            check(cmd, line, "the board")
    for event, key, bad in (("double", "by", 2), ("over", "score", [1]), ("reject", "by", None)):
        ev = copy.deepcopy([x for c, x in lines if x.get("event") == event][0])
        ev[key] = bad
        assert not event_ok(ev), ev
