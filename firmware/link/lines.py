# Bytes to lines for the serial protocol: one preallocated buffer, bounded, resyncing.
#
# LineReader cuts the byte stream at "\n" into a preallocated buffer of MAX_LINE bytes (and
# one more for a "\r" before the newline, which does not count) and hands each complete line
# to a callback; it never grows. A line that overflows is reported once (at the overflow) and
# the rest of it is discarded up to the next newline, however late that comes. A half line
# followed by more than _TIMEOUT_MS of silence is dropped when the next bytes arrive (or when
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
from hw.ticks import ticks_diff
from kernels.compat import const

MAX_LINE = const(512)
_TIMEOUT_MS = const(2000)  # a half line older than this is dropped
QUIET_MS = const(100)  # silence before the escape
WINDOW_MS = const(300)  # from its Ctrl-C to the byte that confirms it
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
        self, on_line, on_long, on_interrupt, size=MAX_LINE, timeout_ms=_TIMEOUT_MS, hold=None
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
