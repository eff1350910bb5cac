# The serial writer (link/outbox.py, link/port.py's drain and flush) under port fakes that
# fill up, take part of a piece, or would block: whole lines in order, small pieces, drops
# counted and reported, and a host that never reads holds nothing up.
# Runs under CPython (pytest) and MicroPython (tests/mprun.py).
import json

from kernels.text import bad_at
from link.jsonout import encode
from link.outbox import PIECE, Outbox

try:
    import asyncio
except ImportError:  # pragma: no cover
    asyncio = None


class Cdc:
    """A Pico's USB serial seen from the board: a buffer of `room` bytes the host empties
    when it reads. ready() is POLLOUT (room left); a write when there is none would block
    up to 500 ms on the board: counted in `blocked`, and nothing is taken."""

    def __init__(self, room=256, take=None):
        self.room = room
        self.take = take  # at most this many bytes a write (None: all that fits)
        self.fifo = bytearray()
        self.part = bytearray()  # a line begun
        self.got = []  # the JSON objects of the lines received
        self.writes = []
        self.blocked = 0

    def ready(self):
        return len(self.fifo) < self.room

    def write(self, mv):
        if len(self.fifo) >= self.room:
            self.blocked += 1
            return 0
        n = min(len(mv), self.room - len(self.fifo))
        if self.take is not None:
            n = min(n, self.take)
        self.fifo.extend(mv[:n])
        if len(self.writes) < 64:
            self.writes.append(len(mv))
        elif len(mv) > min(self.writes):
            self.writes.append(len(mv))
        return n

    def read(self):
        """The host reads everything that waits: each line must be valid UTF-8 JSON."""
        self.part.extend(self.fifo)
        self.fifo = bytearray()
        j = self.part.find(b"\n")
        while j >= 0:
            line = bytes(self.part[:j])
            assert bad_at(line, 0, len(line)) < 0, line
            self.got.append(json.loads(line.decode("utf-8")))
            self.part = self.part[j + 1 :]
            j = self.part.find(b"\n")

    def lines(self):
        """The JSON objects received so far (the last line must be whole)."""
        self.read()
        assert not self.part, self.part[-80:]
        return self.got


def _pump(box, port, rounds=100000):
    """The drain task's work without a loop: a piece whenever the port is ready."""
    for _ in range(rounds):
        if not box.pending():
            return
        if port.ready():
            box.send()
        else:
            port.read()
    raise AssertionError("the outbox never emptied")


def test_lines_go_whole_in_order_in_small_pieces():
    port = Cdc(room=100, take=37)
    box = Outbox(port, size=1024, slots=8)
    sent = []
    for i in range(40):
        obj = {"event": "step", "n": i} if i % 3 else {"ok": True, "id": i, "pad": "x" * (i * 5)}
        assert box.put(obj, "ok" in obj)
        sent.append(obj)
        if i % 4 == 3:
            _pump(box, port)
    _pump(box, port)
    assert port.lines() == sent
    assert max(port.writes) <= PIECE and port.blocked == 0
    assert box.used == 0 and box.count == 0 and len(box.buf) == 1024 and box.room()


def test_a_host_that_stops_reading_loses_whole_lines_events_first_and_hears_of_it():
    port = Cdc(room=64)
    box = Outbox(port, size=1024, slots=16)
    replies = []
    kept_events = 0
    for i in range(60):  # nobody reads: an event and a reply a round
        if box.put({"event": "step", "n": i}):
            kept_events += 1
        r = {"ok": True, "id": i}
        if box.put(r, True):
            replies.append(r)
        if port.ready():
            box.send()
    assert box.lost_events > 0 and box.lost_replies > 0 and port.blocked == 0
    # events stopped first: replies were still taken after the last event was
    assert kept_events < len(replies)
    lost = box.lost_events, box.lost_replies
    assert lost[0] + kept_events == 60 and lost[1] + len(replies) == 60
    _pump(box, port)  # the host reads again
    got = port.lines()
    assert [o for o in got if "ok" in o] == replies  # every reply kept came, in order
    assert sum(1 for o in got if o.get("event") == "step") == kept_events
    report = [o for o in got if o.get("event") == "dropped"]
    assert report == [{"event": "dropped", "events": lost[0], "replies": lost[1]}], report
    assert box.lost_events == box.lost_replies == 0
    # from then on nothing is lost
    assert box.put({"event": "step", "n": 99}) and box.put({"ok": True, "id": 99}, True)
    _pump(box, port)
    assert port.lines()[-2:] == [{"event": "step", "n": 99}, {"ok": True, "id": 99}]


def test_a_long_list_streams_behind_the_lines_before_it_and_before_those_after():
    port = Cdc(room=300, take=50)
    box = Outbox(port, size=256, slots=8)
    calls = []

    def plays():
        calls.append(1)  # listed when the line goes out, not when it is queued
        for i in range(200):
            yield "%d/%d" % (i % 24 + 1, i % 23)

    box.put({"event": "roll", "dice": [1, 1]})
    box.put({"ok": True, "id": 1, "plays": plays()}, True)
    assert calls == []  # queuing the reply costs no play's notation
    box.put({"event": "press"})
    box.put({"ok": True, "id": 2, "big": "y" * 600}, True)  # longer than the ring
    _pump(box, port)
    got = port.lines()
    assert [o.get("event", o.get("id")) for o in got] == ["roll", 1, "press", 2]
    assert len(got[1]["plays"]) == 200 and got[1]["plays"][1] == "2/1"
    assert got[3]["big"] == "y" * 600 and max(port.writes) <= PIECE
    # at most two streamed lines wait; a third is dropped whole and counted
    port2 = Cdc(room=0)
    box2 = Outbox(port2, size=256, slots=8)
    assert box2.put({"ok": True, "l": list(range(100))}, True)
    assert box2.put({"ok": True, "l": list(range(100))}, True)
    assert not box2.put({"ok": True, "l": list(range(100))}, True) and box2.lost_replies == 1


def test_every_encoded_line_is_valid_text():
    for obj in ({"ok": True, "id": "caf\u00e9"}, {"event": "x", "m": "\u20ac\U0001f600"}):
        line = encode(obj)
        assert bad_at(line, 0, len(line) - 1) < 0 and json.loads(line.decode("utf-8")) == obj


def _run(coro):
    asyncio.run(coro)


def test_drain_never_waits_on_a_port_that_is_not_read():
    """The serial task writes only when the port is ready: a host that never reads makes
    nothing wait (another task keeps running at its pace), lines are dropped and counted;
    when the host reads again every kept line comes whole, then the report."""
    from link.port import drain, flush

    port = Cdc(room=128)
    box = Outbox(port, size=1024, slots=16)
    ticks = [0]

    async def other():  # the board's other tasks
        while True:
            ticks[0] += 1
            await asyncio.sleep(0)

    async def main():
        t1 = asyncio.create_task(other())
        t2 = asyncio.create_task(drain(box))
        for i in range(300):  # 300 requests unread, each answered
            box.put({"ok": True, "id": i, "pad": "z" * 40}, True)
            before = ticks[0]
            await asyncio.sleep(0)
            await asyncio.sleep(0)
            assert ticks[0] > before  # the loop went round: nothing waited
        assert box.lost_replies > 200 and port.blocked == 0
        kept = 300 - box.lost_replies
        port.room = 100000  # the host reads again
        box.put({"ok": True, "id": "last"}, True)
        await flush(box, 5000)
        assert not box.pending()
        t1.cancel()
        t2.cancel()
        return kept

    kept = [0]

    async def wrapped():
        kept[0] = await main()

    _run(wrapped())
    got = port.lines()
    ids = [o.get("id") for o in got if "ok" in o]
    assert len(ids) == kept[0] + 1 and ids[-1] == "last" and ids[:-1] == sorted(ids[:-1])
    assert [o for o in got if o.get("event") == "dropped"][0]["replies"] == 300 - kept[0]
    assert port.blocked == 0 and max(port.writes) <= PIECE


def test_flush_gives_up_on_a_port_that_stays_full():
    from link.port import flush

    port = Cdc(room=0)
    box = Outbox(port, size=256, slots=4)
    box.put({"event": "repl"})
    _run(flush(box, 30))
    assert box.pending() and port.blocked == 0


def _history_like(n_games, n_turns, seen):
    """A reply shaped as `history` (report.history(listed=False)): generators of dicts
    holding generators. `seen` counts the turns made, to see when they are made."""

    def turns(g):
        for t in range(n_turns):
            seen.append((g, t))
            yield {"player": t & 1, "dice": [t % 6 + 1, 3], "play": "%d/%d" % (24 - t % 20, 3)}

    def games():
        for g in range(n_games):
            yield {"game": g + 1, "turns": turns(g), "score": [g, 0], "end": None}

    return {"ok": True, "opening": [3, 1], "turns": turns(-1), "games": games(), "id": 7}


def _plain(obj):
    """The same object with every generator made a list (what the host reads back)."""
    if isinstance(obj, dict):
        return {k: _plain(obj[k]) for k in obj}
    if isinstance(obj, (list, tuple)) or type(obj).__name__ == "generator":
        return [_plain(x) for x in obj]
    return obj


def test_a_reply_of_nested_generators_goes_in_small_pieces_made_as_they_are_written():
    """Generators inside generators (a match's games, each with its turns) are written a
    piece at a time, each piece made when the writer asks for it, never the whole line or
    a whole list at once; the line read back is the object's JSON."""
    seen = []
    line = encode(_history_like(2, 5, seen))
    assert type(line).__name__ == "generator"
    assert seen == []  # nothing is read before the writer asks
    text = bytearray()
    n = 0
    for piece in line:
        n += 1
        text += piece
        assert len(piece) <= 100, piece  # an item or a few at most
        if n == 3:
            assert len(seen) < 4  # made as they are written
    assert text.endswith(b"\n") and text.count(b"\n") == 1 and n > 10
    assert bad_at(text, 0, len(text) - 1) < 0
    assert json.loads(text.decode("utf-8")) == _plain(_history_like(2, 5, []))
    # an empty generator, a list inside a dict inside a list of a generator
    obj = {"a": (x for x in ()), "b": {"c": [1, 2], "d": (x for x in [{"e": [None]}])}}
    got = json.loads(b"".join(encode(obj)).decode("utf-8"))
    assert got == {"a": [], "b": {"c": [1, 2], "d": [{"e": [None]}]}}


def test_a_nested_stream_that_fails_or_holds_bad_text_still_ends_as_valid_json():
    def bad_turns():
        yield {"play": "8/5"}
        yield {"play": "x\ud800"}  # not text: the item is written as null
        raise MemoryError("no room")

    def games():
        yield {"game": 1, "turns": bad_turns()}
        yield {"game": 2}

    for obj in ({"ok": True, "games": games(), "id": 3}, {"games": games()}):
        text = b"".join(encode(obj))
        assert bad_at(text, 0, len(text) - 1) < 0 and text.endswith(b"\n")
        r = json.loads(text.decode("utf-8"))
        assert r["truncated"] is True
        assert r["games"][0]["turns"] == [{"play": "8/5"}, None]
        assert r.get("id") == obj.get("id")

    def fails_at_once():
        raise ValueError("a bug")
        yield  # a generator

    text = b"".join(encode({"ok": True, "x": {"y": fails_at_once()}, "id": 4}))
    r = json.loads(text.decode("utf-8"))
    assert r["truncated"] is True and r["x"] == {"y": []}


def test_a_streamed_reply_stays_whole_while_the_host_stops_reading_half_way():
    """The host stops reading in the middle of a long streamed reply: nothing waits, events
    meanwhile are kept or dropped whole; when it reads again the reply ends whole, then
    the kept lines and the count of those dropped, every line valid JSON."""
    port = Cdc(room=90, take=30)
    box = Outbox(port, size=256, slots=8)
    seen = []
    assert box.put(_history_like(2, 5, seen), True)
    for _ in range(6):  # a little of it goes out, then the host stops reading
        if port.ready():
            box.send()
    assert port.part or port.fifo
    kept = dropped = 0
    for i in range(40):
        if box.put({"event": "step", "n": i}):
            kept += 1
        else:
            dropped += 1
        if port.ready():
            box.send()
    assert dropped > 0 and port.blocked == 0
    _pump(box, port)  # reads again
    got = port.lines()
    assert got[0] == _plain(_history_like(2, 5, []))
    steps = [o["n"] for o in got if o.get("event") == "step"]
    assert steps == sorted(steps) and len(steps) == kept
    assert [o for o in got if o.get("event") == "dropped"][0]["events"] == dropped


def test_a_short_line_goes_from_its_json_text_into_the_ring():
    """An event is copied from json's own text into the ring with its newline (no line
    string, no bytes copy): on MicroPython queuing one allocates about its text alone."""
    import gc

    port = Cdc(room=4096)
    box = Outbox(port, size=1024, slots=8)
    ev = {"event": "step", "player": 0, "from": 13, "to": 8, "hit": False, "m": "caf\u00e9"}
    assert box.put(ev) and box.put(ev)
    _pump(box, port)
    if hasattr(gc, "mem_alloc"):  # MicroPython: the heap's own count
        most = 0
        for _ in range(5):
            gc.collect()
            before = gc.mem_alloc()
            box.put(ev)
            most = max(most, gc.mem_alloc() - before)
            _pump(box, port)
        assert most <= 256, most  # its text (~128 on this port) and a view of it
    assert port.lines() == [ev] * (7 if hasattr(gc, "mem_alloc") else 2)



def test_a_streamed_line_whose_piece_cannot_be_made_ends_and_the_writer_goes_on():
    def pieces():  # a streamed line whose next piece fails even jsonout's own ending
        yield b'{"ok":true,"id":1,"plays":["8/5 6/5"'
        raise MemoryError("no room")

    port = Cdc(room=4096)  # never full: never read, its bytes stay raw (a line not JSON too)
    box = Outbox(port, size=1024, slots=8)
    assert box.put_line(pieces(), True)
    assert box.put({"ok": True, "id": 2}, True)
    _pump(box, port)  # nothing raised: the serial task lives on
    lines = bytes(port.fifo).split(b"\n")
    # the cut line ended at its newline (a host skips it: not JSON), the next line whole,
    # and the lost reply said in a `dropped` event
    assert lines[0] == b'{"ok":true,"id":1,"plays":["8/5 6/5"' and lines[-1] == b""
    got = [json.loads(line) for line in lines[1:-1]]
    assert got == [{"ok": True, "id": 2}, {"event": "dropped", "events": 0, "replies": 1}]
    assert box.lost_replies == 0 and box.lost_total == 1 and not box.pending()


class _NoRoom(dict):
    """A line whose text finds no room in the heap: looking at it raises MemoryError."""

    def __iter__(self):
        raise MemoryError("no room")


def test_a_line_with_no_room_in_the_heap_is_lost_counted_and_the_caller_goes_on():
    port = Cdc(room=4096)
    box = Outbox(port, size=1024, slots=8)
    assert box.put(_NoRoom(event="turn")) is False  # an event: nothing raised to its maker
    assert box.put(_NoRoom(ok=True, id=1), True) is False  # a reply
    assert box.lost_events == 1 and box.lost_replies == 1 and not box.pending()
    assert box.put({"ok": True, "id": 2}, True)
    _pump(box, port)
    port.read()
    assert port.got == [{"ok": True, "id": 2}, {"event": "dropped", "events": 1, "replies": 1}]
