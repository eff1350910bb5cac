# protocol.py, lines.py, jsonout.py: one reply per request line, events apart, bad input harmless.
# Runs under CPython (pytest) and MicroPython (tests/mprun.py); no sleeping: time is passed in.

import fakes
from link.commands import BUTTONS
from link.jsonout import write_json
from link.lines import MAX_LINE, LineReader, guess_id
from link.protocol import PROTOCOL, Protocol
from wire import INFO, Wire
from wire import ask as _ask
from wire import one as _one
from wire import snap as _snap


class Strip:
    def __init__(self, count):
        self.buf = bytearray(3 * count)


def _make(seed=3, selftest=None):
    ctl, rec = fakes.make(seed=seed)
    wire = Wire()
    stops = []
    strip = Strip(452)
    proto = Protocol(
        ctl, INFO, wire, 0, strip=strip, selftest=selftest, stop=lambda: stops.append(1)
    )
    ctl.emit = proto.event
    return proto, ctl, wire, stops


def _done(ctl):
    fakes.rmtree(ctl.store.root)


def test_hello_and_ids():
    proto, ctl, wire, _ = _make()
    r = _one(proto, wire, b'{"cmd": "hello", "id": 7}\n')
    assert r["ok"] and r["id"] == 7 and r["protocol"] == PROTOCOL
    assert r["board"] == "pico" and r["layout"] == "full" and r["leds"] == 440
    assert "firmware" in r
    r = _one(proto, wire, b'{"cmd": "hello", "id": "abc"}\n')
    assert r["id"] == "abc"
    r = _one(proto, wire, b'{"cmd": "hello"}\n')
    assert r["ok"] and "id" not in r
    ev = proto.boot_event()
    assert ev["event"] == "boot" and ev["protocol"] == PROTOCOL and "ok" not in ev
    _done(ctl)


def test_every_request_one_reply():
    proto, ctl, wire, _ = _make(selftest=lambda now: None)
    lines = [
        '{"cmd":"hello","id":1}',
        '{"cmd":"state","id":2}',
        '{"cmd":"leds","id":3}',
        '{"cmd":"roll","id":4}',
        '{"cmd":"press","button":"ROLL","id":5}',
        '{"cmd":"undo","id":6}',
        '{"cmd":"history","id":7}',
        '{"cmd":"config","id":8}',
        '{"cmd":"config","set":{"autoplay":true},"id":9}',
        '{"cmd":"new","id":10}',
        '{"cmd":"selftest","id":11}',
        '{"cmd":"move","play":"13/11","id":12}',
        '{"cmd":"nope","id":13}',
    ]
    for i in range(len(lines)):
        replies, _ = _ask(proto, wire, (lines[i] + "\n").encode(), 10 * i)
        assert len(replies) == 1 and replies[0]["id"] == i + 1, (lines[i], replies)
    _done(ctl)


def test_state_fields_and_plays():
    proto, ctl, wire, _ = _make()
    r = _one(proto, wire, b'{"cmd":"state","id":1}\n')
    assert r["phase"] == "opening" and r["position_id"] == "4HPwATDgc/ABMA"
    assert r["plays"] == [] and r["steps"] == [] and r["winner"] is None
    r = _one(proto, wire, b'{"cmd":"roll","dice":[3,1],"id":2}\n')
    assert r["ok"] and r["dice"] == [3, 1]
    r = _one(proto, wire, b'{"cmd":"state","id":3}\n')
    assert r["phase"] == "move" and r["turn"] == 0 and r["dice"] == [3, 1]
    assert "8/5 6/5" in r["plays"] and len(r["plays"]) == 16, r["plays"]
    assert r["pips"] == [167, 167]
    _done(ctl)


def test_events_are_lines_of_their_own():
    proto, ctl, wire, _ = _make()
    replies, events = _ask(proto, wire, b'{"cmd":"roll","dice":[3,1],"id":1}\n')
    assert [e["event"] for e in events] == ["roll"] and events[0]["dice"] == [3, 1]
    replies, events = _ask(proto, wire, b'{"cmd":"move","play":"8/5 6/5","id":2}\n')
    assert replies[0]["ok"] and replies[0]["steps"] == ["8/5", "6/5"]
    assert [e["event"] for e in events] == ["step", "step"]
    assert (events[0]["from"], events[0]["to"]) == (8, 5)
    replies, events = _ask(proto, wire, b'{"cmd":"press","button":"ROLL","id":3}\n')
    kinds = [e["event"] for e in events]
    assert kinds[:3] == ["press", "turn", "roll"], kinds
    _done(ctl)


def test_bad_json_and_types_change_nothing():
    proto, ctl, wire, _ = _make()
    _one(proto, wire, b'{"cmd":"roll","dice":[6,4],"id":1}\n')
    before = _snap(ctl)
    cases = [
        (b'{"cmd": "state", "id": 5\n', "bad_json", 5),
        (b"}{\n", "bad_json", None),
        (b"[1, 2, 3]\n", "not_object", None),
        (b'"state"\n', "not_object", None),
        (b'{"id": 4}\n', "bad_args", 4),
        (b'{"cmd": 3, "id": 4}\n', "bad_args", 4),
        (b'{"cmd": "teleport", "id": 4}\n', "unknown_cmd", 4),
        (b'{"cmd": "state", "id": 1.5}\n', "bad_args", None),
        (b'{"cmd": "state", "id": [1]}\n', "bad_args", None),
        (b'{"cmd": "roll", "dice": [7, 1], "id": 4}\n', "bad_args", 4),
        (b'{"cmd": "roll", "dice": "31", "id": 4}\n', "bad_args", 4),
        (b'{"cmd": "roll", "dice": [3, true], "id": 4}\n', "bad_args", 4),
        (b'{"cmd": "roll", "dice": [3, 1, 2], "id": 4}\n', "bad_args", 4),
        (b'{"cmd": "roll", "id": 4}\n', "wrong_phase", 4),
        (b'{"cmd": "move", "id": 4}\n', "bad_args", 4),
        (b'{"cmd": "move", "play": 85, "id": 4}\n', "bad_args", 4),
        (b'{"cmd": "move", "play": "", "id": 4}\n', "bad_args", 4),
        (b'{"cmd": "move", "play": "24/23 24/23", "id": 4}\n', "illegal", 4),
        (b'{"cmd": "move", "play": "13/3 6/4", "id": 4}\n', "illegal", 4),
        (b'{"cmd": "move", "play": "hello world", "id": 4}\n', "bad_args", 4),
        (b'{"cmd": "move", "play": "' + b"1" * 70 + b'", "id": 4}\n', "bad_args", 4),
        (b'{"cmd": "press", "button": "p25", "id": 4}\n', "bad_args", 4),
        (b'{"cmd": "press", "button": null, "id": 4}\n', "bad_args", 4),
        (b'{"cmd": "press", "button": "p1", "id": 4}\n', "illegal", 4),
        (b'{"cmd": "undo", "id": 4}\n', "illegal", 4),
        (b'{"cmd": "config", "set": {"brightness": 999}, "id": 4}\n', "bad_args", 4),
        (b'{"cmd": "config", "set": {"palette": 1, "bogus": 1}, "id": 4}\n', "bad_args", 4),
        (b'{"cmd": "config", "set": [1], "id": 4}\n', "bad_args", 4),
        (b'{"cmd": "selftest", "id": 4}\n', "unavailable", 4),
        (b"\xff\xfe\x00\x80garbage\n", "bad_json", None),
        (b'{"cmd": "state", "id": 6, "x": "\xff"}\n', "bad_json", 6),
    ]
    for line, code, rid in cases:
        r = _one(proto, wire, line)
        assert not r["ok"] and r["error"]["code"] == code, (line, r)
        assert r.get("id") == rid, (line, r)
        assert isinstance(r["error"]["message"], str)
        assert _snap(ctl) == before, line
    assert ctl.settings.palette == 0
    _done(ctl)


def test_too_long_line_one_reply_then_resync():
    proto, ctl, wire, _ = _make()
    before = _snap(ctl)
    line = b'{"id": 9, "cmd": "move", "play": "' + b"x" * 700 + b'"}\n'
    r = _one(proto, wire, line)
    assert r["error"]["code"] == "too_long" and r["id"] == 9
    # In pieces, the overflow in the middle of a chunk, the newline in a later one.
    for piece in (b'{"cmd":"state",', b"y" * 300, b"z" * 300):
        replies, _ = _ask(proto, wire, piece, 1)
        assert len(replies) == (1 if piece[0] == 122 else 0), (piece[:5], replies)
    replies, _ = _ask(proto, wire, b"zzz\n" + b'{"cmd":"hello","id":2}\n', 2)
    assert [r.get("id") for r in replies] == [2] and replies[0]["ok"]
    # exactly MAX_LINE bytes is still a line
    pad = MAX_LINE - len(b'{"cmd":"hello","id":3,"p":""}')
    r = _one(proto, wire, b'{"cmd":"hello","id":3,"p":"' + b"a" * pad + b'"}\n', 3)
    assert r["ok"] and r["id"] == 3
    r = _one(proto, wire, b'{"cmd":"hello","id":4,"p":"' + b"a" * (pad + 1) + b'"}\n', 4)
    assert r["error"]["code"] == "too_long" and r["id"] == 4
    assert len(proto.lines.buf) == MAX_LINE + 1 and _snap(ctl) == before
    _done(ctl)


def test_half_line_dropped_after_silence():
    proto, ctl, wire, _ = _make()
    replies, _ = _ask(proto, wire, b'{"cmd":"roll","di', 1000)
    assert replies == []
    replies, _ = _ask(proto, wire, b'{"cmd":"hello","id":2}\n', 3001)
    assert [r["id"] for r in replies] == [2] and replies[0]["ok"]
    assert proto.lines.dropped == 1 and ctl.game.dice is None
    # within the timeout the two halves make one (bad) line
    _ask(proto, wire, b'{"cmd":"hel', 5000)
    r = _one(proto, wire, b'lo"}{"id":3}\n', 6999)
    assert r["error"]["code"] == "bad_json" and r["id"] == 3
    # expire() drops it without new bytes coming
    _ask(proto, wire, b'{"cmd":"new"', 8000)
    assert not proto.expire(9000) and proto.expire(10001) and not proto.lines.pending()
    _done(ctl)


def test_garbage_bytes_never_harm():
    proto, ctl, wire, stops = _make()
    _one(proto, wire, b'{"cmd":"roll","dice":[5,2],"id":1}\n')
    before = _snap(ctl)
    data = bytes(range(4, 256)) + bytes(range(0, 256))
    for i in range(0, len(data), 37):
        proto.feed(b"x" + data[i : i + 37], i)
    proto.feed(b"\n", 600)
    replies = wire.take()
    assert len(replies) == 3, replies  # the two newlines in the data and the last one
    for r in replies:
        assert r["error"]["code"] in ("bad_json", "too_long"), r
    r = _one(proto, wire, b'{"cmd":"hello","id":2}\n', 601)
    assert r["ok"] and r["id"] == 2
    assert _snap(ctl) == before and not stops
    _done(ctl)


def test_repl_request_stops():
    proto, ctl, wire, stops = _make()
    r = _one(proto, wire, b'{"cmd":"repl","id":1}\n')
    assert r["ok"] and proto.stopped and stops == [1]
    _done(ctl)


def test_crlf_and_blank_lines():
    proto, ctl, wire, _ = _make()
    replies, _ = _ask(
        proto, wire, b'\n\r\n   \n{"cmd":"hello","id":1}\r\n{"cmd":"hello","id":2}\n'
    )
    assert [r["id"] for r in replies] == [1, 2]
    _done(ctl)


def test_leds_frame_base64():
    from binascii import a2b_base64

    proto, ctl, wire, _ = _make()
    for i in range(len(proto.strip.buf)):
        proto.strip.buf[i] = i * 7 & 255
    r = _one(proto, wire, b'{"cmd":"leds","id":1}\n')
    assert r["count"] == 452 and r["order"] == "GRB"
    assert a2b_base64(r["frame"]) == bytes(proto.strip.buf)
    _done(ctl)


def test_config_sets_all_or_nothing():
    proto, ctl, wire, _ = _make()
    r = _one(proto, wire, b'{"cmd":"config","set":{"palette":2,"autoplay":true},"id":1}\n')
    assert r["ok"] and r["settings"]["palette"] == 2 and r["settings"]["autoplay"] is True
    r = _one(proto, wire, b'{"cmd":"config","set":{"palette":1,"brightness":0},"id":2}\n')
    assert not r["ok"] and ctl.settings.palette == 2
    _done(ctl)


def test_press_buttons_and_history():
    proto, ctl, wire, _ = _make()
    assert "p1" in BUTTONS and "p24" in BUTTONS and "SELECT" in BUTTONS and len(BUTTONS) == 32
    r = _one(proto, wire, b'{"cmd":"press","button":"ROLL","id":1}\n')
    assert r["ok"] and ctl.game.dice is not None
    st = _one(proto, wire, b'{"cmd":"state","id":2}\n')
    r = _one(proto, wire, ('{"cmd":"move","play":"%s","id":3}\n' % st["plays"][0]).encode())
    assert r["ok"], r
    h = _one(proto, wire, b'{"cmd":"history","id":4}\n')
    assert h["turns"] == [] and h["opening"] == st["dice"]
    _one(proto, wire, b'{"cmd":"press","button":"ROLL","id":5}\n')
    h = _one(proto, wire, b'{"cmd":"history","id":6}\n')
    assert len(h["turns"]) == 1 and h["turns"][0]["play"] == st["plays"][0]
    _done(ctl)


def test_selftest_called():
    calls = []
    proto, ctl, wire, _ = _make(selftest=calls.append)
    r = _one(proto, wire, b'{"cmd":"selftest","id":1}\n', 77)
    assert r["ok"] and calls == [77]
    _done(ctl)


def test_line_reader_pieces():
    got = []
    longs = []
    r = LineReader(
        lambda b, n, t: got.append(bytes(b[:n])),
        lambda b, t: longs.append(t),
        lambda: got.append("C"),
        size=8,
        timeout_ms=100,
    )
    r.feed(b"ab\ncd", 0)
    r.feed(b"e\n\nfgh", 10)
    assert got == [b"ab", b"cde", b""]
    r.feed(b"ijklmnop", 20)  # "fghijklmnop" overflows 8
    assert longs == [20] and r.skipping
    r.feed(b"qrs\nt\n", 30)
    assert got[-1] == b"t" and len(got) == 4
    r.feed(b"\x03\x03", 400)  # the escape: after silence, Ctrl-C confirmed by Ctrl-C
    assert got[-1] == "C"
    r.feed(bytearray(b"uv\nwxyz"), 450, 3)  # only the first n bytes count
    assert got[-1] == b"uv" and not r.pending()
    assert len(r.buf) == 9  # and one for a final "\r"


def test_write_json_streams_generators():
    wire = Wire()

    def gen():
        for i in range(120):
            yield "p%d" % i

    write_json(wire, {"ok": True, "plays": gen(), "id": 3})
    write_json(wire, {"big": list(range(100)), "n": None})
    write_json(wire, {"empty": gen() if False else (x for x in ())})
    objs = wire.take()
    assert objs[0]["plays"] == ["p%d" % i for i in range(120)] and objs[0]["id"] == 3
    assert objs[1] == {"big": list(range(100)), "n": None}
    assert objs[2] == {"empty": []}


def test_guess_id():
    assert guess_id(b'{"id": 12, "cmd": ', 18) == 12
    assert guess_id(b'{"cmd":"x","id":-3', 18) == -3
    assert guess_id(b'{"id":"x"}', 10) is None
    assert guess_id(b'{"cmd":1}', 9) is None
    assert guess_id(b'{"id":1234567890123}', 20) is None


def test_every_listed_play_is_made_whole_by_one_move():
    """`plays` lists "2/off" for 2/1/off (dice 3-1, checkers on 2 and 1): sent back as a
    move it must make that whole play, not the single step 2/off with the 3."""
    from gammon.position import Position

    proto, ctl, wire, _ = _make()
    for pid in ("9wE1QAZ/AQAAAA", "XyowLAG/AAAAAA"):
        ctl.game.setup(Position.from_id(pid), 0)
        _one(proto, wire, b'{"cmd":"roll","dice":[3,1],"id":1}\n')
        plays = _one(proto, wire, b'{"cmd":"state","id":2}\n')["plays"]
        assert "2/off" in plays, plays
        for play in plays:
            r = _one(proto, wire, ('{"cmd":"move","play":"%s","id":3}\n' % play).encode())
            assert r["ok"], (play, r)
            st = _one(proto, wire, b'{"cmd":"state","id":4}\n')
            assert st["phase"] in ("done", "over") and len(st["steps"]) == 2, (play, st)
            while _one(proto, wire, b'{"cmd":"undo","id":5}\n')["ok"]:
                pass
    _done(ctl)


def test_a_hit_mark_where_nothing_is_hit_is_illegal():
    proto, ctl, wire, _ = _make()
    _one(proto, wire, b'{"cmd":"roll","dice":[3,1],"id":1}\n')
    before = _snap(ctl)
    for play in ("24/20*", "24/23*/20", "24/21* 6/5", "8/5* 6/5", "24/23*"):
        r = _one(proto, wire, ('{"cmd":"move","play":"%s","id":2}\n' % play).encode())
        assert r["error"]["code"] == "illegal", (play, r)
        assert _snap(ctl) == before, play
    r = _one(proto, wire, b'{"cmd":"move","play":"24/23","id":3}\n')
    assert r["ok"] and r["steps"] == ["24/23"]
    r = _one(proto, wire, b'{"cmd":"move","play":"8/5*","id":4}\n')
    assert r["error"]["code"] == "illegal"
    r = _one(proto, wire, b'{"cmd":"move","play":"8/5","id":5}\n')
    assert r["ok"]
    _done(ctl)


def test_state_has_the_request_id_or_none_and_every_field():
    proto, ctl, wire, _ = _make()
    with_id = _one(proto, wire, b'{"cmd":"state","id":"s1"}\n')
    without = _one(proto, wire, b'{"cmd":"state"}\n')
    assert with_id["id"] == "s1" and "id" not in without
    assert with_id["ok"] and without["ok"] and without["plays"] == []  # the opening: none
    del with_id["id"]
    assert with_id == without
    full = ctl.state()  # the controller's: its listing, the id's place still empty
    assert full["id"] is None and full["plays"] == [] and full["match_id"] == without["match_id"]
    for key in ("phase", "dice", "position_id", "pips", "board", "settings", "bot", "cube",
                "cube_owner", "score", "may_double", "crawford", "match_over", "offer",
                "match_winner", "match_length", "cube_on", "jacoby"):
        assert key in without, key
    _done(ctl)
