# Long replies across the serial task's steps (link/jsonout.py, link/outbox.py, protocol.py):
# `state` with a hundred legal plays and more, and `history` of a long game, go out one Outbox.send
# at a time, each piece made when it is written (one play's notation at most), with the
# bytes of the same reply written at once; and they say what the request saw, whatever the
# game does before their last piece goes out.
# Runs under CPython (pytest) and MicroPython (tests/mprun.py).
import gc
import json

import fakes
from gammon.play import legal_plays
from gammon.position import Position
from link.outbox import PIECE, Outbox
from link.protocol import Protocol
from wire import INFO, Wire


class Port:
    """A host that reads all it is sent and compares it as it comes with `expect`, the
    pieces of the same line written at once (no copy of a long line is made: two would not
    fit the board's heap after a long game)."""

    def __init__(self):
        self.expect = []
        self.got = 0  # bytes received
        self.at = 0  # in expect: the piece and the offset in it to compare next
        self.off = 0
        self.writes = 0
        self.longest = 0

    def ready(self):
        return True

    def write(self, mv):
        n = len(mv)
        for i in range(n):
            piece = self.expect[self.at]
            assert mv[i] == piece[self.off], (self.got + i, bytes(mv))
            self.off += 1
            if self.off == len(piece):
                self.at += 1
                self.off = 0
        self.got += n
        self.writes += 1
        self.longest = max(self.longest, n)
        return n

    def whole(self):
        """Every byte expected came, no more."""
        return self.at == len(self.expect) and not self.off


def _pair(seed=3):
    """One controller behind two protocols: one writing each line at once, one into an
    Outbox that the test drains send by send (the serial task's steps)."""
    gc.collect()  # the last test's game and lines gone: the heap in one piece again
    ctl, _ = fakes.make(seed=seed)
    wire = Wire()
    at_once = Protocol(ctl, INFO, wire, 0)
    port = Port()
    box = Outbox(port)
    stepped = Protocol(ctl, INFO, box, 0)
    ctl.emit = _drop
    return ctl, at_once, wire, stepped, box, port


def _drop(ev):
    pass


def _whole(proto, wire, line):
    """The pieces of the reply to `line` written at once."""
    proto.feed(line, 0)
    out = wire.chunks
    wire.chunks = []
    return out


def _sends(box):
    n = 0
    while box.pending():
        box.send()
        n += 1
        assert n < 200000, "the outbox never emptied"
    return n


def test_state_with_many_plays_goes_out_a_play_a_step_with_the_same_bytes():
    ctl, at_once, wire, stepped, box, port = _pair()
    ctl.game.setup(Position.from_id("d7cNAABUqqqqAA"), 0)
    _whole(at_once, wire, b'{"cmd":"roll","dice":[6,5],"id":1}\n')
    line = b'{"cmd":"state","id":2}\n'
    port.expect = _whole(at_once, wire, line)
    whole = b"".join(port.expect)
    got = json.loads(whole)
    assert got["id"] == 2 and got["dice"] == [6, 5] and len(got["plays"]) == 126
    listing = legal_plays(ctl.game.position, ctl.game.dice)  # the engine's, in its order
    assert len(listing) == 126
    for i in range(126):
        assert got["plays"][i] == str(listing[i])
    listing = None
    got = None
    stepped.feed(line, 0)
    assert box.pending() and not port.got  # queued: nothing of it made yet
    n = _sends(box)
    assert port.whole() and whole.count(b"\n") == 1  # the same bytes
    assert n > 126 and port.longest <= PIECE  # a play a step at the most
    fakes.done(ctl)


def test_state_lists_the_plays_the_request_saw():
    """The game goes on before the reply's plays are written (the person makes the play
    and the turn passes): the reply still lists the plays of the position it was asked in."""
    ctl, at_once, wire, stepped, box, port = _pair()
    ctl.game.setup(Position.start(), 0)
    _whole(at_once, wire, b'{"cmd":"roll","dice":[3,3],"id":1}\n')
    line = b'{"cmd":"state","id":2}\n'
    port.expect = _whole(at_once, wire, line)
    whole = b"".join(port.expect)
    before = json.loads(whole)
    stepped.feed(line, 0)
    for _ in range(3):  # the line's head goes out, not yet its plays
        box.send()
    assert 0 < port.got < whole.find(b'"plays":[') + 10
    ok, _ = ctl.move(before["plays"][0], 10)
    assert ok and ctl.roll(20)[0] and ctl.game.turn == 1
    _sends(box)
    assert port.whole() and len(before["plays"]) == 73
    fakes.done(ctl)


def _turns(ctl, n):
    """Plays with the buttons until the record holds `n` turns (or the game ends)."""
    g = ctl.game
    now = 1000
    while len(g.codes) < n and g.phase != 4:  # model/game.py's OVER
        now += 7
        if g.phase == 2:  # MOVE
            fakes.play_step(ctl, now)
        else:
            ctl.press("ROLL", now)


def test_history_of_a_long_game_goes_out_a_turn_a_step_with_the_same_bytes():
    ctl, at_once, wire, stepped, box, port = _pair(5)
    _turns(ctl, 40)
    turns = len(ctl.game.codes)
    line = b'{"cmd":"history","id":9}\n'
    port.expect = _whole(at_once, wire, line)
    assert sum(p.count(b'"play":') for p in port.expect) == 2 * turns  # game's and match's
    stepped.feed(line, 0)
    assert box.pending() and not port.got
    n = _sends(box)
    assert port.whole()  # the same bytes
    assert n > 2 * turns  # each turn twice (the game's own and the match's), a step each
    fakes.done(ctl)


class Frame:
    """A strip's frame buffer (GRB bytes), as the protocol reads it."""

    def __init__(self, n):
        self.buf = bytearray(3 * n)


class Host:
    """A host that takes what it is sent into one line, a write at a time (the line is
    short enough to keep whole: ~1.8 KB)."""

    def __init__(self):
        self.line = bytearray()
        self.writes = 0
        self.longest = 0

    def ready(self):
        return True

    def write(self, mv):
        self.line.extend(mv)
        self.writes += 1
        self.longest = max(self.longest, len(mv))
        return len(mv)


def test_leds_goes_in_small_pieces_and_shows_one_whole_frame():
    from binascii import a2b_base64

    gc.collect()
    ctl, _ = fakes.make()
    strip = Frame(440)
    for i in range(len(strip.buf)):
        strip.buf[i] = i * 7 & 255
    first = bytes(strip.buf)
    host = Host()
    box = Outbox(host)
    proto = Protocol(ctl, INFO, box, 0, strip=strip)
    ctl.emit = _drop
    proto.feed(b'{"cmd":"leds","id":5}\n', 0)
    proto.feed(b'{"cmd":"leds","id":6}\n', 0)
    n = 0
    while b'"frame":"' not in host.line or host.line.endswith(b'"frame":"'):
        assert box.send(), "the frame never began"
        n += 1
    for i in range(len(strip.buf)):  # a new frame drawn while the first reply is written
        strip.buf[i] = 255 - strip.buf[i]
    second = bytes(strip.buf)
    while box.pending():
        box.send()
        n += 1
    lines = bytes(host.line).split(b"\n")
    assert len(lines) == 3 and lines[2] == b""
    one, two = json.loads(lines[0]), json.loads(lines[1])
    assert one["id"] == 5 and one["count"] == 440 and one["order"] == "GRB"
    assert a2b_base64(one["frame"]) == first  # the frame of its first piece, whole
    assert two["id"] == 6 and a2b_base64(two["frame"]) == second
    assert host.longest <= PIECE and n > 2 * len(one["frame"]) // PIECE  # small pieces
    fakes.done(ctl)
