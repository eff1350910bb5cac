# The JSON-lines serial protocol (docs/protocol.md): request lines -> Controller, events -> host.
#
# Every request line gets exactly one reply line; events are separate lines with "event".
# Bad input of any kind gets an error reply and leaves the game as it was: requests are checked
# here (types, ranges, lengths) before the controller sees them, and the controller itself only
# changes the game through legal steps. Nothing here keeps references to the line buffer.
import binascii
import json

from kernels.compat import const
from kernels.text import bad_at

from link.jsonout import Chars, write_json
from link.lines import MAX_LINE, LineReader, guess_id
from link.requests import BadRequest, config, failed, is_int, with_id

PROTOCOL = const(1)
FIRMWARE = "0.1.0"
_MAX_ID = const(0x3FFFFFFF)  # ids are small ints (no big ints on the board) or short strings
_B64_IN = const(48)  # frame bytes per base64 piece of `leds` (64 characters)
# The requests that act on the game (link/commands.py, loaded when the first comes)
COMMANDS = ("press", "roll", "move", "undo", "new", "double", "take", "drop", "resign",
            "accept", "reject", "selftest", "repl")


class Protocol:
    """Requests to `controller`, replies and events to `write`: an Outbox (link/outbox.py:
    whole lines queued for the serial task, dropped whole when the host stops reading) or
    any callable taking bytes (tests: the lines are written at once).

    info: the `hello` facts: firmware, board, layout, leds, order. strip: the LED output
    whose `buf` is the frame (GRB bytes in chain order). selftest: a callable(now_ms) that
    starts the self-test, or None. stop: a callable run once when the host asks for the REPL
    (the `repl` request, or the escape that LineReader recognises); `stopped` is then True.
    """

    def __init__(self, controller, info, write, now_ms=0, strip=None, selftest=None, stop=None):
        self.ctl = controller
        self.info = info
        self.write = write
        self.outbox = write if hasattr(write, "put") else None
        self.now = now_ms
        self.strip = strip
        self.selftest = selftest
        self.stop = stop
        self.stopped = False
        self.lines = LineReader(self._line, self._too_long, self._interrupt, hold=self._full)
        self.requests = 0
        self.errors = 0
        self._pressing = False
        self._refused = None
        # `leds`: the copy of the frame being written, made now while the heap is whole (a
        # heap cut up by a game may have no block of its ~1.4 KB left when first asked)
        self._frame = None if strip is None else bytearray(len(strip.buf))

    # bytes in
    def feed(self, data, now_ms, n=-1, more=False, start=0):
        """Bytes from the port, data[start:n]; complete lines are answered before this
        returns. Returns where it stopped (LineReader.feed): n, or before at the escape, or
        after a line when the writer is full (feed the rest from there once room() is True).
        `more`: the port had more bytes waiting after these."""
        self.now = now_ms
        return self.lines.feed(data, now_ms, n, more, start)

    def room(self):
        """Can another request be answered now without crowding the writer?"""
        return self.outbox is None or self.outbox.room()

    def _full(self):
        return self.outbox is not None and not self.outbox.room()

    def expire(self, now_ms):
        return self.lines.expire(now_ms)

    def _line(self, buf, n, now_ms):
        while n and buf[n - 1] in b" \t\r":
            n -= 1
        start = 0
        while start < n and buf[start] in b" \t\r":
            start += 1
        if start == n:
            return  # a blank line is no request
        rid = None
        try:
            try:
                # MicroPython's decoder and parser accept invalid UTF-8 and raw control
                # characters in strings: the bytes are checked first (see kernels/text.py).
                if bad_at(buf, start, n) >= 0:
                    raise ValueError
                req = json.loads(str(self.lines.mv[start:n], "utf-8"))
            except Exception:  # UnicodeError, ValueError, anything the parser throws
                rid = guess_id(buf, n)
                raise BadRequest("bad_json", "not a UTF-8 JSON line") from None
            if not isinstance(req, dict):
                raise BadRequest("not_object", "a request is a JSON object")
            rid = req.get("id")
            if rid is not None and not (
                (is_int(rid) and -_MAX_ID <= rid <= _MAX_ID)
                or (isinstance(rid, str) and len(rid) <= 32)
            ):
                rid = None
                raise BadRequest("bad_args", "id: an integer or a short string")
            reply = self.handle(req, now_ms)
            if reply is None:  # sent later, once thought out (`hint`: link/hint_reply.py)
                return
        except Exception as exc:  # a bad request or a fault: an error reply
            reply = exc
        try:
            if isinstance(reply, Exception):
                reply = failed(self.error, reply)
            self.send(with_id(reply, rid), True)
        except MemoryError:  # not even the error reply fits: lost like an unread one
            if self.outbox is not None:
                self.outbox.lost(True)

    def _too_long(self, buf, now_ms):
        reply = self.error("too_long", "a line is at most %d bytes" % MAX_LINE)
        rid = guess_id(buf, MAX_LINE)
        if rid is not None:
            reply["id"] = rid
        self.send(reply, True)

    def _interrupt(self):
        self.send({"event": "repl"})
        self.stop_now()

    def stop_now(self):
        """The host asks for the REPL: `stop` runs (once)."""
        if not self.stopped:
            self.stopped = True
            if self.stop:
                self.stop()

    def error(self, code, message):
        """An error reply (counted)."""
        self.errors += 1
        return {"ok": False, "error": {"code": code, "message": message}}

    # lines out
    def event(self, ev):
        """An unsolicited event line (the controller's emit callback)."""
        if self._pressing and ev.get("event") == "error":
            self._refused = ev
        self.send(ev)

    def boot_event(self):
        """The line a host sees when the firmware (re)starts: who is talking."""
        out = self._hello(None, self.now)
        del out["ok"]
        out["event"] = "boot"
        return out

    def send(self, obj, reply=False):
        """One line out; `reply`: a reply to a request (kept longer than events when the
        host stops reading)."""
        if self.outbox is not None:
            self.outbox.put(obj, reply)
        else:
            write_json(self.write, obj)

    # requests
    def handle(self, req, now_ms):
        """The reply (a dict without id) to one parsed request; BadRequest for errors."""
        self.requests += 1
        self.now = now_ms
        cmd = req.get("cmd")
        if not isinstance(cmd, str):
            raise BadRequest("bad_args", "cmd: a string")
        fn = _HANDLERS.get(cmd)
        if fn is not None:
            return fn(self, req, now_ms)
        if cmd in COMMANDS:
            from link.commands import answer

            return answer(self, cmd, req, now_ms)
        raise BadRequest("unknown_cmd", "no request %r" % cmd[:24])

    def _hello(self, req, now_ms):
        out = {"ok": True, "protocol": PROTOCOL, "firmware": FIRMWARE}
        for k in self.info:
            out[k] = self.info[k]
        return out

    def _state(self, req, now_ms):
        out = self.ctl.state(False)  # made for this reply at its full size, ok and id too
        g = self.ctl.game  # the plays of this position and dice, listed as they are written
        out["plays"] = _plays(g.position, g.dice, g.phase == 2 or g.phase == 3)  # MOVE, DONE
        return out

    def _leds(self, req, now_ms):
        if self.strip is None:
            raise BadRequest("unavailable", "no LED frame here")
        return {
            "ok": True,
            "count": len(self.strip.buf) // 3,
            "order": self.info.get("order", "GRB"),
            "frame": Chars(self._frame_b64()),
        }

    def _frame_b64(self):
        """The frame in base64, 64 characters a piece: no long text is made (its ~1.8 KB
        took three blocks of that size, which a cut-up heap may not have). The frame is
        copied when its first piece is written, so the reply shows one whole frame, drawn
        before or after the request, into the copy made with the protocol (a new ~1.3 KB
        block at every reply is what a heap cut up by a game fails to give first); the
        writer writes one line at a time, so one copy serves every reply."""
        buf = self.strip.buf
        n = len(buf)
        copy = self._frame
        copy[:] = buf
        mv = memoryview(copy)
        for i in range(0, n, _B64_IN):
            yield binascii.b2a_base64(mv[i : i + _B64_IN], newline=False)

    def press(self, button, now_ms):
        """A button pressed for the host (link/commands.py): the error event of its red
        flash, or None."""
        self._refused = None
        self._pressing = True
        try:
            self.ctl.press(button, now_ms)
        finally:
            self._pressing = False
        return self._refused

    def _history(self, req, now_ms):
        # the turns and games as generators: written a piece at a time (link/jsonout.py)
        out = self.ctl.history_dict(False)
        out["ok"] = True
        return out


def _hint(proto, req, now_ms):
    from link.hint_reply import hint  # loaded when first asked (heap)

    return hint(proto, req, now_ms)


def _plays(position, dice, playing):
    """The legal plays of `dice` in `position` in notation, one at a time: what the request
    saw (position and dice are captured when it came), however late they are written."""
    if playing:
        from control.report import play_texts  # (loaded already: it made the reply)

        yield from play_texts(position, dice)


_HANDLERS = {
    "hello": Protocol._hello,
    "state": Protocol._state,
    "leds": Protocol._leds,
    "history": Protocol._history,
    "hint": _hint,
    "config": config,
}
