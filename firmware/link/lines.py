# Bytes to lines and back for the serial protocol: one preallocated buffer, bounded, resyncing.
#
# LineReader cuts the byte stream at "\n" into a preallocated buffer of MAX_LINE bytes (and
# one more for a "\r" before the newline, which does not count) and hands each complete line
# to a callback; it never grows. A line that overflows is reported once (at the overflow) and
# the rest of it is discarded up to the next newline, however late that comes. A half line
# followed by more than TIMEOUT_MS of silence is dropped when the next bytes arrive (or when
# `expire` is called).
#
# The escape to the REPL (docs/protocol.md) is recognised only as an exact sequence: after at
# least QUIET_MS of silence (the port found empty, and nothing read for that long since: the
# serial task says when bytes were still waiting, so that a loop held by the board's thinking
# cannot make a burst look like silence), carriage returns at most, a Ctrl-C (0x03), then
# within WINDOW_MS a carriage return, a Ctrl-A or a second Ctrl-C. That is what mpremote
# ("\r\x03" then "\r\x01"), Thonny (Ctrl-C, then Ctrl-A or more Ctrl-Cs) and a person pressing
# Ctrl-C twice send; a Ctrl-C anywhere else (binary garbage, a burst that merely contains
# "\n\x03") is an ordinary bad byte. The bytes after the confirming one are left in the port
# for the REPL (mpremote's Ctrl-A).
import json

from hw.ticks import ticks_diff
from kernels.compat import MICROPY, const
from kernels.textcheck import bad_at

MAX_LINE = const(512)
_SEP = (",", ":")
_STREAM_OVER = const(48)  # lists longer than this are written item by item
TIMEOUT_MS = const(2000)  # a half line older than this is dropped
QUIET_MS = const(100)  # silence before the escape
WINDOW_MS = const(300)  # from its Ctrl-C to the byte that confirms it
_MAX_ID = const(0x3FFFFFFF)
_CR = const(13)
_CTRL_A = const(1)
_CTRL_C = const(3)


def _confirms(c):
    return c == _CR or c == _CTRL_A or c == _CTRL_C


class LineReader:
    """Complete lines to `on_line(buf, n, now_ms)`; `on_long(buf, now_ms)` once per overlong
    line (buf holds its first MAX_LINE bytes); `on_interrupt()` for the escape to the REPL;
    `hold()`, if given, after each line: True pauses the reading there (see feed).

    The callbacks get the reader's own buffer: they must not keep it. `n` is at most
    MAX_LINE, or MAX_LINE + 1 when the last byte is a carriage return.
    """

    def __init__(
        self, on_line, on_long, on_interrupt, size=MAX_LINE, timeout_ms=TIMEOUT_MS, hold=None
    ):
        self.buf = bytearray(size + 1)
        self.mv = memoryview(self.buf)
        self.size = size
        self.timeout_ms = timeout_ms
        self.n = 0  # bytes of the current line in buf
        self.skipping = False  # discarding the rest of an overlong line
        self.last = 0  # ticks of the last byte of an unfinished line
        self.seen = 0  # ticks of the last read that left the port empty
        self.more = False  # the last read left bytes waiting: the burst goes on
        self.fresh = True  # nothing read yet: as after a silence
        self.armed = False  # a Ctrl-C after silence: the next byte decides
        self.armed_at = 0
        self.on_line = on_line
        self.on_long = on_long
        self.on_interrupt = on_interrupt
        self.hold = hold  # hold(): True to pause after a line (see feed)
        self.dropped = 0  # half lines dropped after silence (a statistic)

    def pending(self):
        return self.n > 0 or self.skipping

    def expire(self, now_ms):
        """Drops a half line that has waited longer than the timeout; True if one was. The
        rest of an overlong line is not: that line was answered, its end is still awaited."""
        if self.n > 0 and not self.skipping and ticks_diff(now_ms, self.last) > self.timeout_ms:
            self.n = 0
            self.dropped += 1
            return True
        return False

    def feed(self, data, now_ms, n=-1, more=False, start=0):
        """Takes the bytes data[start:n] (bytes or bytearray); returns where it stopped: n,
        or before it at the escape (the caller leaves the rest in the port for the REPL) or
        after a line when `hold()` asks for a pause (the caller feeds the rest later, from
        there: the serial writer is full). `more`: bytes were still waiting in the port
        after these, so no silence follows them.
        """
        if n < 0:
            n = len(data)
        if start >= n:
            return n
        if start and self.hold is not None and self.hold():
            return start  # still no room: the rest waits
        self.expire(now_ms)
        if start == 0:  # a new read from the port
            quiet = self.fresh or (not self.more and ticks_diff(now_ms, self.seen) >= QUIET_MS)
            self.fresh = False
            if self.armed:
                self.armed = False
                if ticks_diff(now_ms, self.armed_at) <= WINDOW_MS and _confirms(data[0]):
                    return self._interrupt(1)
            if quiet:
                k = 0
                while k < n and data[k] == _CR:
                    k += 1
                if k < n and data[k] == _CTRL_C:
                    if k + 1 == n:
                        self.armed = True  # the next byte decides (till then it is data)
                        self.armed_at = now_ms
                    elif _confirms(data[k + 1]):
                        return self._interrupt(k + 2)
        self.seen = now_ms
        self.more = more
        self.last = now_ms
        i = start
        while i < n:
            j = data.find(b"\n", i, n)
            end = n if j < 0 else j
            if not self.skipping and end > i:
                self._take(data, i, end, now_ms)
            if j < 0:
                break
            i = j + 1
            if self.skipping:
                self.skipping = False
            else:
                k = self.n
                self.n = 0
                self.on_line(self.buf, k, now_ms)
                if i < n and self.hold is not None and self.hold():
                    self.more = True  # the rest of this read is still to come
                    return i
        return n

    def _take(self, data, i, end, now_ms):
        """Appends data[i:end] (no newline in it) to the line, or finds it overlong."""
        m = self.n
        take = end - i
        room = self.size - m
        if take <= room or (take == room + 1 and data[end - 1] == _CR):
            self.mv[m : m + take] = data[i:end]  # a final "\r" may go one past the limit
            self.n = m + take
            return
        if room > 0:
            self.mv[m : self.size] = data[i : i + room]
        self.n = 0
        self.skipping = True
        self.on_long(self.buf, now_ms)

    def _interrupt(self, consumed):
        self.n = 0
        self.skipping = False
        self.on_interrupt()
        return consumed


def _gen():
    yield


_GENERATOR = type(_gen())
_END = object()
_UNREAD = object()
_SEQ = (list, tuple)  # made once: a tuple written in a call is built at every call
_PIECE_TEXT = const(32)  # a streamed line goes in pieces of about this many bytes (a few plays)

if MICROPY:

    def _dumps(obj):
        return json.dumps(obj, separators=_SEP)  # text as UTF-8, as CPython's below

else:

    def _dumps(obj):
        return json.dumps(obj, separators=_SEP, ensure_ascii=False)


def _utf8(text):
    """The text's bytes if they are valid UTF-8 JSON text, else None."""
    try:
        b = text.encode()
    except UnicodeError:  # CPython: a lone surrogate
        return None
    return b if bad_at(b, 0, len(b) - (text[-1:] == "\n")) < 0 else None


def _streams(v):
    """Is `v` written a piece at a time: a generator, a list longer than _STREAM_OVER, or
    a dict holding one (a short list is written whole, so it must hold none)?"""
    if type(v) is _GENERATOR:
        return True
    if isinstance(v, _SEQ):
        return len(v) > _STREAM_OVER
    if isinstance(v, dict):
        for k in v:
            if _streams(v[k]):
                return True
    return False


def short_text(obj):
    """The JSON text of a line without a long part, valid UTF-8 and without its newline, as
    a buffer: on MicroPython a memoryview of the str json made (its bytes are UTF-8: no
    copy), else its bytes; None when the line streams or is not valid (encode() then)."""
    try:
        if _streams(obj):
            return None
        text = _dumps(obj)
        b = memoryview(text) if MICROPY else text.encode()
    except (TypeError, ValueError, MemoryError, UnicodeError):
        return None
    return b if bad_at(b, 0, len(b)) < 0 else None


def encode(obj):
    """The JSON line of `obj`, checked to be valid UTF-8 JSON: bytes (a line that would not
    be valid is replaced by an `internal` error), or, when it holds a generator or a long
    list (the legal plays, a game's turns, a match's games, nested too), a generator of
    the line's pieces of about _PIECE_TEXT bytes, each made when the writer asks for it,
    so neither the line nor a long part of it is built in one piece and no step of the
    writer holds the loop for long (an item that is not valid text is written as null).

    A generator in `obj` itself has read its first item already (the plays are listed
    now); everything else is written later, so a reply's values must be its own (the
    replies build them fresh), not the game's lists that change."""
    try:  # a value JSON cannot write (never expected) must not stop the serial task
        if not _streams(obj):
            line = _utf8(_dumps(obj) + "\n")
            return line if line is not None else _substitute(obj)
    except (TypeError, ValueError, MemoryError):  # the small error line may still fit
        return _substitute(obj)
    first = {}
    for k in obj:
        v = obj[k]
        if type(v) is _GENERATOR:
            try:
                first[k] = next(v)
            except StopIteration:
                first[k] = _END
            except Exception:  # never expected: the listing failed
                return _substitute(obj)
    return _pieces(obj, first)


class _Nest:
    """Where a streamed line is: the closers of what is open, and whether a value must
    come next (after a key), so a line cut short by an error still ends as valid JSON."""

    def __init__(self):
        self.stack = []
        self.expect = False
        self.keys = 0  # keys written in the line's own object

    def open(self, opener, closer):
        self.stack.append(closer)
        self.expect = False
        return opener

    def close(self):
        self.expect = False
        return self.stack.pop()

    def tail(self):
        """What ends the line from here: null for a missing value, then the closers, the
        line's own object marked truncated."""
        out = b"null" if self.expect else b""
        st = self.stack
        while len(st) > 1:
            out += st.pop()
        if st:
            st.pop()
            out += b',"truncated":true}' if self.keys else b'"truncated":true}'
        return out


def _pieces(obj, first):
    nest = _Nest()
    parts = []
    size = 0
    try:
        for frag in _object(obj, nest, b"", first):
            parts.append(frag)
            size += len(frag)
            if size >= _PIECE_TEXT:
                out = b"".join(parts)
                parts = []
                size = 0
                yield out
    except Exception:  # never expected (memory, a bug): end the line as valid JSON
        parts.append(nest.tail())
    parts.append(b"\n")
    yield b"".join(parts)


def _object(d, nest, sep, first=None):
    yield sep + nest.open(b"{", b"}")
    top = first is not None
    keys = d
    if top:  # the line's own fields first (its id), so a line cut short still has them
        keys = []
        late = []
        for k in d:
            (late if _streams(d[k]) else keys).append(k)
        keys += late
    sep = b""
    for k in keys:
        key = _utf8(_dumps(k))
        if key is None:
            raise ValueError("a key that is not text")
        nest.expect = True
        if top:
            nest.keys += 1
        v = d[k]
        if top and k in first:
            yield from _array(v, nest, sep + key + b":", first[k])
        else:
            yield from _value(v, nest, sep + key + b":")
        sep = b","
    yield nest.close()


def _value(v, nest, sep):
    if type(v) is _GENERATOR or (isinstance(v, _SEQ) and len(v) > _STREAM_OVER):
        yield from _array(v, nest, sep, _UNREAD)
    elif isinstance(v, dict) and _streams(v):
        yield from _object(v, nest, sep)
    else:
        b = _utf8(_dumps(v))
        nest.expect = False
        yield sep + (b if b is not None else b"null")


def _array(v, nest, sep, item):
    """The items of `v` (a list, or a generator whose first item is `item` when it has
    been read already, else _UNREAD)."""
    it = iter(v)
    yield sep + nest.open(b"[", b"]")
    if item is _UNREAD:
        item = _next(it)
    sep = b""
    while item is not _END:
        yield from _value(item, nest, sep)
        sep = b","
        item = _next(it)
    yield nest.close()


def _next(it):
    try:
        return next(it)
    except StopIteration:
        return _END


def _substitute(obj):
    """The line sent instead of one that would not be valid text (never expected)."""
    if "event" in obj:
        out = {"event": "error", "code": "internal", "message": "a line that is not text"}
    else:
        out = {"ok": False, "error": {"code": "internal", "message": "a reply that is not text"}}
    rid = obj.get("id")
    if isinstance(rid, int) and not isinstance(rid, bool) and -_MAX_ID <= rid <= _MAX_ID:
        out["id"] = rid
    return (_dumps(out) + "\n").encode()


def write_json(write, obj):
    """Writes `obj` as one JSON line to `write(bytes)` (a long list piece by piece)."""
    line = encode(obj)
    if isinstance(line, bytes):
        write(line)
        return
    for piece in line:
        write(piece)


def guess_id(buf, n):
    """The integer after '"id":' in a line that is not valid JSON, or None."""
    i = bytes(buf[:n]).find(b'"id"')
    if i < 0:
        return None
    i += 4
    while i < n and buf[i] in b" \t:":
        i += 1
    j = i + 1 if i < n and buf[i] == 45 else i  # '-'
    k = j
    while k < n and k - j < 9 and 48 <= buf[k] <= 57:
        k += 1
    if k == j or (k < n and 48 <= buf[k] <= 57):
        return None
    return int(bytes(buf[i:k]))
