# The serial link's text and framing rules (link/lines.py, link/jsonout.py, link/protocol.py,
# native/kernels/text.py): the escape to the REPL, invalid UTF-8 and control
# characters, the line limit with CRLF, and the validity of every line written.
# A Protocol with no controller behind it (`hello` needs none): small enough for the
# board's heap. Runs under CPython (pytest) and MicroPython (tests/mprun.py).
from bad_utf8 import BAD_UTF8
from link.jsonout import write_json
from link.lines import MAX_LINE
from link.outbox import Outbox
from link.protocol import Protocol
from wire import INFO, Wire
from wire import ask as _ask
from wire import one as _one


def _make():
    wire = Wire()
    stops = []
    proto = Protocol(None, INFO, wire, 0, stop=lambda: stops.append(1))
    return proto, None, wire, stops


def _done(ctl):
    pass


def test_ctrl_c_alone_or_in_a_line_is_a_bad_byte():
    proto, ctl, wire, stops = _make()
    r = _one(proto, wire, b'{"cmd":\x03"hello"}\n')
    assert r["error"]["code"] == "bad_json" and not stops and not proto.stopped
    # binary garbage with Ctrl-C right after a newline, even Ctrl-C twice, in one burst
    replies, _ = _ask(proto, wire, b"x\n\x03\x03\r\x01\n\r\x03\r\x01\n", 10)
    assert [r["error"]["code"] for r in replies] == ["bad_json"] * 3
    # after silence, Ctrl-C followed by anything but CR, Ctrl-A or Ctrl-C: data
    replies, _ = _ask(proto, wire, b"\x03x\n", 1000)
    assert replies[0]["error"]["code"] == "bad_json"
    # a lone Ctrl-C confirmed too late (the window is 300 ms)
    assert proto.feed(b"\x03", 3000) == 1 and proto.lines.armed
    assert proto.feed(b"\x01", 3301) == 1 and not proto.lines.armed
    replies, _ = _ask(proto, wire, b"\n", 3302)
    assert replies[0]["error"]["code"] == "bad_json"
    # the escape's bytes inside a burst (no silence before): data
    proto.feed(b"{", 5000)
    replies, _ = _ask(proto, wire, b"\r\x03\r\x01\n", 5050)
    assert replies[0]["error"]["code"] == "bad_json"
    r = _one(proto, wire, b'{"cmd":"hello","id":1}\n', 5051)
    # a burst read in two pieces with bytes still waiting between them (the loop was held:
    # the second piece is read late), though its second piece starts as the escape does
    proto.feed(b'{"cmd":"hello","id":2}\n', 6000, -1, True)
    replies, _ = _ask(proto, wire, b"\x03\x03\n", 9000)
    assert replies[-1]["error"]["code"] == "bad_json"
    assert r["ok"] and not stops and not proto.stopped
    _done(ctl)


def test_the_escape_of_mpremote_thonny_and_a_terminal_stops():
    # mpremote: "\r\x03" then at once "\r\x01"; its Ctrl-A is left for the REPL
    for chunks in (
        [(b"\r\x03\r\x01", 0)],  # read at once (the simulator)
        [(b"\r\x03", 0), (b"\r\x01", 1)],  # byte by byte (the board): one chunk per byte
        [(b"\x03", 0), (b"\x01", 50)],  # Thonny: Ctrl-C, then its Ctrl-A poke
        [(b"\x03", 0), (b"\x03", 100)],  # Thonny's repeated Ctrl-C, a person's double Ctrl-C
        [(b"\x03\x03", 0)],  # pyboard.py's "\r\x03\x03"
    ):
        proto, ctl, wire, stops = _make()
        r = _one(proto, wire, b'{"cmd":"hello","id":1}\n', 1000)
        assert r["ok"]
        left = None
        for data, dt in chunks:
            n = proto.feed(data, 2000 + dt)
            if proto.stopped:
                left = data[n:]
                break
            assert n == len(data)
        assert proto.stopped and stops == [1], chunks
        assert wire.take() == [{"event": "repl"}], chunks
        assert left in (b"\x01", b""), (chunks, left)
        if chunks[0][0].startswith(b"\r\x03\r"):
            assert left == b"\x01"  # mpremote's Ctrl-A reaches the REPL
        _done(ctl)
    # right after boot (nothing read yet counts as silence)
    proto, ctl, wire, stops = _make()
    assert proto.feed(b"\r\x03\r\x01", 0) == 3 and proto.stopped
    _done(ctl)


def test_a_full_line_with_crlf_and_an_overlong_line_after_a_pause():
    proto, ctl, wire, _ = _make()
    pad = MAX_LINE - len(b'{"cmd":"hello","id":1,"p":""}')
    full = b'{"cmd":"hello","id":1,"p":"' + b"a" * pad + b'"}'
    assert len(full) == MAX_LINE
    r = _one(proto, wire, full + b"\r\n")
    assert r["ok"] and r["id"] == 1  # the "\r" does not count
    proto.feed(full, 1)
    proto.feed(b"\r", 2)  # the "\r" alone: its newline may still come
    r = _one(proto, wire, b"\n", 3)
    assert r["ok"] and r["id"] == 1
    r = _one(proto, wire, full + b"\rx\n", 4)  # more after that "\r": too long
    assert r["error"]["code"] == "too_long" and r["id"] == 1
    r = _one(proto, wire, full + b"\r\r\n", 5)
    assert r["error"]["code"] == "too_long"
    # one overlong line, one reply, even when its rest comes after more than 2 s
    replies, _ = _ask(proto, wire, b'{"id":7,' + b" " * 600, 10)
    assert [r["error"]["code"] for r in replies] == ["too_long"] and replies[0]["id"] == 7
    replies, _ = _ask(proto, wire, b'"cmd":"hello"}\n', 5000)
    assert replies == [], replies
    r = _one(proto, wire, b'{"cmd":"hello","id":8}\n', 5001)
    assert r["ok"] and r["id"] == 8
    _done(ctl)


def test_invalid_utf8_anywhere_is_bad_json_and_ids_go_back_only_when_valid():
    proto, ctl, wire, _ = _make()
    for bad in BAD_UTF8:
        for line in (
            b'{"cmd":"hello","id":"' + bad + b'"}',
            b'{"cmd":"he' + bad + b'llo"}',
            b'{"cmd":"hello","x":"' + bad + b'","id":5}',
            b'{"cmd":"move","play":"8/5' + bad + b'","id":5}',
            bad + b'{"cmd":"hello"}',
        ):
            r = _one(proto, wire, line + b"\n")  # Wire checks every line is valid UTF-8
            assert r["error"]["code"] == "bad_json", (line, r)
            assert r.get("id") in (None, 5), (line, r)
            assert ("id" in r) == (b'"id":5' in line), (line, r)
    # escaped surrogates decode to bytes that are not UTF-8 on MicroPython: refused too
    for esc in (b"\\ud800", b"\\uDFFF", b"\\ud83d\\ude00"):
        r = _one(proto, wire, b'{"cmd":"hello","id":"' + esc + b'"}\n')
        assert r["error"]["code"] == "bad_json" and "id" not in r, (esc, r)
    # valid text of every length comes back as sent
    for text in ("caf\u00e9", "\u20ac1", "\U0001f600", "\U0010ffff", "\ud7ff", "\ue000"):
        r = _one(proto, wire, b'{"cmd":"hello","id":"' + text.encode("utf-8") + b'"}\n')
        assert r["ok"] and r["id"] == text, (text, r)
    r = _one(proto, wire, b'{"cmd":"hello","id":"\\u00e9\\u0003"}\n')
    assert r["ok"] and r["id"] == "\u00e9\u0003"
    _done(ctl)


def test_control_characters_in_strings_are_bad_json():
    proto, ctl, wire, _ = _make()
    for line in (
        b'{"cmd":"he\x03llo"}',
        b'{"cmd":"hello","id":"a\tb"}',
        b'{"cmd":"hello","id":"a\rb"}',
        b'{"cmd":"hello","id":"\x00"}',
        b'{"cmd":"hello",\x0b"id":2}',
        b'{"cmd":"hello","id":2}\x1b',
    ):
        r = _one(proto, wire, line + b"\n")
        assert r["error"]["code"] == "bad_json", (line, r)
    r = _one(proto, wire, b'{"cmd":\t"hello",\r"id":3}\n')  # whitespace between tokens
    assert r["ok"] and r["id"] == 3
    _done(ctl)


def test_every_line_out_is_valid_text():
    """A reply or an event whose text is not valid UTF-8 (say a message built from a corrupt
    file) is replaced by an `internal` error: the host never gets bytes it cannot parse."""
    wire = Wire()
    write_json(wire, {"ok": True, "id": 4, "x": "\ud800"})
    write_json(wire, {"event": "error", "message": "bad \udfff"})
    write_json(wire, {"ok": True, "plays": ["8/5"] * 60 + ["x\ud800"] + ["6/5"] * 60, "id": 5})
    objs = wire.take()
    assert objs[0]["error"]["code"] == "internal" and objs[0]["id"] == 4
    assert objs[1]["event"] == "error" and objs[1]["code"] == "internal"
    assert objs[2]["plays"][60] is None and objs[2]["plays"][59] == "8/5" and objs[2]["id"] == 5
    assert len(objs[2]["plays"]) == 121


class Port:
    """A port the host reads at once, as much as it can (`ready` False: it stopped)."""

    def __init__(self):
        self.wire = Wire()
        self.ready_now = True

    def ready(self):
        return self.ready_now

    def write(self, mv):
        self.wire(bytes(mv))
        return len(mv)


def test_a_burst_of_requests_waits_in_the_port_while_the_writer_is_full():
    """Many requests in one read: the reader pauses after a line while the writer is more
    than a quarter full, and goes on from there once it has drained: no reply is lost."""
    port = Port()
    box = Outbox(port, size=512, slots=8)
    proto = Protocol(None, INFO, box, 0)
    data = b"".join(b'{"cmd":"hello","id":%d}\n' % i for i in range(20))
    k = proto.feed(data, 0)
    assert 0 < k < len(data) and data[k - 1 : k] == b"\n" and not proto.room()
    port.ready_now = False  # the host does not read: nothing goes, nothing more is read
    assert proto.feed(data, 1000, -1, False, k) == k and not proto.room()
    port.ready_now = True
    got = []
    while True:
        while box.pending():
            box.send()
        got += port.wire.take()
        if k == len(data):
            break
        k = proto.feed(data, 1000, -1, False, k)
    assert [r["id"] for r in got] == list(range(20)) and box.lost_total == 0
    # the rest of a paused read is no silence: an escape's bytes there are data
    proto.feed(b'{"cmd":"hello","id":1}\n\x03\x03\n', 5000)
    while box.pending():
        box.send()
    assert not proto.stopped


def test_a_list_that_fails_half_way_still_ends_its_line_as_json():
    def plays():
        for i in range(100):
            yield "%d/%d" % (i % 24 + 1, i % 23)
        raise MemoryError("no room")

    wire = Wire()
    write_json(wire, {"ok": True, "id": 8, "plays": plays()})
    (r,) = wire.take()
    assert r["id"] == 8 and r["truncated"] is True and 0 < len(r["plays"]) <= 100
