# Whole lines waiting for the serial port: one preallocated ring, written out in small pieces.
#
# The protocol puts each line here and goes on at once; the serial task (link/port.py) writes
# a piece of at most PIECE bytes whenever the port can take it, so no write waits with the
# event loop held. While the ring is more than a quarter full (room() is False) the serial
# task reads no more requests: a host's burst of requests waits in the port instead of
# overflowing the ring. A line is sent whole or not at all: when a host stops reading and
# the ring fills, new lines are dropped whole and counted, events first (they may use only
# half of the ring and three quarters of the slots, the rest is kept for replies), and once
# the host reads again a `dropped` event says how many were lost. A line with a long list
# (the legal plays) takes no room in the ring: it is written from its generator, a piece at
# a time, when its turn comes; so does a line longer than half the ring (it is written
# from where it is, no copy), and a reply still being thought out (`hint`): its empty
# pieces say "not yet", one slice of thinking a send.
from kernels.compat import const

from link.jsonkind import PLAIN, STREAM, line_kind
from link.jsonout import encode, pieces, short_text, substitute

_SIZE = const(2048)
_SLOTS = const(32)
PIECE = const(64)  # one USB CDC packet: on a Pico a longer write can wait up to 500 ms
_STREAMS = const(2)  # streamed lines waiting at most (each holds its list)
_NEWLINE = b"\n"  # ends a streamed line whose next piece could not be made


class Outbox:
    """Lines for `port` (ready() -> bool, write(memoryview) -> bytes taken), in order."""

    def __init__(self, port, size=_SIZE, slots=_SLOTS, piece=PIECE):
        self.port = port
        self.buf = bytearray(size)
        self.mv = memoryview(self.buf)
        self.size = size
        self.event_room = size // 2  # events leave half of the ring to replies
        self.slots = slots
        self.event_slots = slots * 3 // 4
        self.piece = piece
        self.start = 0  # first byte not yet written, in the ring
        self.used = 0  # bytes in the ring
        self.lens = [0] * slots  # per entry: its bytes still in the ring
        self.streams = [None] * slots  # per entry: the pieces of a streamed line, or None
        self.first = 0  # the entry being written
        self.count = 0  # entries waiting
        self.nstreams = 0
        self.chunk = None  # the piece of a streamed line being written
        self.thinking = False  # the last send found a reply still thought out: come back now
        self.off = 0
        self.lost_events = 0  # dropped since the last report
        self.lost_replies = 0
        self.lost_total = 0  # a statistic
        self.notify = None  # called when a line is queued (the serial task's wake-up)
        self.roomy = None  # called when room() may have turned True (the reader's wake-up)

    def on_put(self, fn):
        """Sets the function called whenever a line is queued."""
        self.notify = fn

    def on_room(self, fn):
        """Sets the function called after a write that leaves room() True."""
        self.roomy = fn

    def put(self, obj, reply=False):
        """Queues `obj` as one JSON line; False when it was dropped (no room). A short line
        goes from json's own text into the ring (an event allocates only that text); a
        line that streams is only looked at here: its pieces are made as they go out. A
        heap with no room for its text loses the line the same way, counted: the caller (a
        press's event, a request's reply) goes on."""
        try:
            return self._queue(obj, reply)
        except MemoryError:
            return self.lost(reply)

    def _queue(self, obj, reply):
        k = line_kind(obj)
        if k == STREAM:
            return self.put_line(pieces(obj), reply)
        text = short_text(obj) if k == PLAIN else None
        if text is None:  # not JSON text (never expected): the error line sent instead
            return self.put_line(substitute(obj), reply)
        n = len(text) + 1
        if n > self.size // 2:  # a long line (`leds`): written from json's text, no copy
            return self.put_line(iter((text, b"\n")), reply)
        if self.count >= (self.slots if reply else self.event_slots) or (
            self.used + n > (self.size if reply else self.event_room)
        ):
            return self.lost(reply)
        self._copy_in(text, n - 1)
        self.buf[(self.start + self.used) % self.size] = 10  # the newline
        self.used += 1
        self._push(n, None)
        return True

    def put_line(self, line, reply=False):
        """Queues one encoded line (bytes ending in a newline, or a generator of pieces)."""
        if self.count >= (self.slots if reply else self.event_slots):
            return self.lost(reply)
        if isinstance(line, (bytes, bytearray)):
            n = len(line)
            if n <= self.size // 2:
                if self.used + n > (self.size if reply else self.event_room):
                    return self.lost(reply)
                self._copy_in(line, n)
                self._push(n, None)
                return True
            line = iter((line,))  # a long line (`leds`, `state`): written from where it is
        if self.nstreams >= _STREAMS:
            return self.lost(reply)
        self.nstreams += 1
        self._push(0, line)
        return True

    def pending(self):
        return self.count > 0

    def room(self):
        """Room for the reply to one more request (and its events): the ring at most a
        quarter full, half the slots free, no long list being written."""
        return self.used <= self.size // 4 and self.count <= self.slots // 2 and not self.nstreams

    def send(self):
        """Writes the next piece (at most PIECE bytes) of the first line if the port takes it
        now; returns the bytes written. Call it when the port is ready."""
        self.thinking = False
        if not self.count:
            return 0
        i = self.first
        gen = self.streams[i]
        if gen is None:
            k = self.lens[i]
            if k > self.piece:
                k = self.piece
            if k > self.size - self.start:
                k = self.size - self.start
            w = self.port.write(self.mv[self.start : self.start + k]) or 0
            self.start = (self.start + w) % self.size
            self.used -= w
            self.lens[i] -= w
            if not self.lens[i]:
                self._pop()
        else:
            chunk = self.chunk
            if chunk is None:  # the stream's first piece, or the one after an empty piece
                chunk = self._next(gen)
                if chunk is None:
                    return 0
            k = len(chunk) - self.off
            if not k:  # an empty piece: nothing yet (a reply still thought out), ask later
                self.chunk = None
                self.thinking = True
                return 0
            if k > self.piece:
                k = self.piece
            w = self.port.write(memoryview(chunk)[self.off : self.off + k]) or 0
            self.off += w
            if self.off >= len(chunk):  # the next piece now: the line ends with its last
                self.chunk = self._next(gen)
        if w and (self.lost_events or self.lost_replies):
            self._report()
        if self.roomy is not None and self.room():
            self.roomy()
        return w

    def _next(self, gen):
        """The stream's next piece (held as the one being written), or None at its end:
        the entry is done. A piece that cannot be made (no memory even for jsonout's own
        end of a line cut short) ends the line with its newline, so the host resyncs there,
        and counts as a reply lost (the `dropped` event): the serial writer goes on."""
        self.off = 0
        try:
            self.chunk = next(gen)
        except StopIteration:
            self.chunk = None
            self.nstreams -= 1
            self._pop()
        except Exception:  # MemoryError; the generator is finished: its end comes next
            self.chunk = _NEWLINE
            self.lost_replies += 1
            self.lost_total += 1
        return self.chunk

    def clear(self):
        """Forgets every line waiting (the port is gone)."""
        for i in range(self.slots):
            self.streams[i] = None
            self.lens[i] = 0
        self.start = self.used = self.first = self.count = self.nstreams = 0
        self.chunk = None
        if self.roomy is not None:
            self.roomy()

    def _copy_in(self, line, n):
        pos = (self.start + self.used) % self.size
        a = self.size - pos
        src = line if type(line) is memoryview else memoryview(line)
        if n <= a:
            self.mv[pos : pos + n] = src
        else:
            self.mv[pos : self.size] = src[:a]
            self.mv[0 : n - a] = src[a:]
        self.used += n

    def _push(self, n, gen):
        i = (self.first + self.count) % self.slots
        self.lens[i] = n
        self.streams[i] = gen
        self.count += 1
        if self.notify is not None:
            self.notify()

    def _pop(self):
        i = self.first
        self.streams[i] = None
        self.lens[i] = 0
        self.first = (i + 1) % self.slots
        self.count -= 1

    def lost(self, reply):
        """Counts a line dropped (reported by the `dropped` event); False."""
        if reply:
            self.lost_replies += 1
        else:
            self.lost_events += 1
        self.lost_total += 1
        return False

    def _report(self):
        """The host reads again: a `dropped` event with the counts, once there is room."""
        if self.count >= self.slots or self.used + PIECE > self.size:
            return
        line = encode(
            {"event": "dropped", "events": self.lost_events, "replies": self.lost_replies}
        )
        if self.count < self.slots and self.used + len(line) <= self.size:
            self.lost_events = self.lost_replies = 0
            self.put_line(line, True)
