# Bytes to lines and back for the serial protocol: one preallocated buffer, bounded, resyncing.
#
# LineReader cuts the byte stream at "\n" into a preallocated 512-byte buffer and hands each
# complete line to a callback; it never grows. A line that overflows the buffer is reported
# once (at the overflow) and the rest of it is discarded up to the next newline. A half line
# followed by more than TIMEOUT_MS of silence is dropped when the next bytes arrive (or when
# `expire` is called). A Ctrl-C byte (0x03) at the start of a line (after carriage returns at
# most) is the interrupt that mpremote and terminal programs send ("\r\x03"): it is reported
# and the rest of that chunk is left alone, so the bytes after it reach the REPL.
import json

from hw.ticks import ticks_diff
from kernels.compat import const

MAX_LINE = const(512)
_SEP = (",", ":")
_STREAM_OVER = const(48)  # lists longer than this are written item by item
TIMEOUT_MS = const(2000)  # a half line older than this is dropped



class LineReader:
    """Complete lines to `on_line(buf, n, now_ms)`; `on_long(buf, now_ms)` once per overlong
    line (buf holds its first MAX_LINE bytes); `on_interrupt()` for Ctrl-C at a line start.

    The callbacks get the reader's own buffer: they must not keep it.
    """

    def __init__(self, on_line, on_long, on_interrupt, size=MAX_LINE, timeout_ms=TIMEOUT_MS):
        self.buf = bytearray(size)
        self.mv = memoryview(self.buf)
        self.size = size
        self.timeout_ms = timeout_ms
        self.n = 0  # bytes of the current line in buf
        self.skipping = False  # discarding the rest of an overlong line
        self.last = 0  # ticks of the last byte of an unfinished line
        self.on_line = on_line
        self.on_long = on_long
        self.on_interrupt = on_interrupt
        self.dropped = 0  # half lines dropped after silence (a statistic)

    def pending(self):
        return self.n > 0 or self.skipping

    def expire(self, now_ms):
        """Drops a half line that has waited longer than the timeout; True if one was."""
        if self.pending() and ticks_diff(now_ms, self.last) > self.timeout_ms:
            self.n = 0
            self.skipping = False
            self.dropped += 1
            return True
        return False

    def feed(self, data, now_ms, n=-1):
        """Takes bytes (bytes or bytearray, the first n of them); returns the count consumed.

        Fewer than n are consumed only after an interrupt: the caller leaves the rest.
        """
        if n < 0:
            n = len(data)
        self.expire(now_ms)
        i = 0
        while i < n:
            j = data.find(b"\n", i, n)
            end = n if j < 0 else j
            c = data.find(b"\x03", i, end)
            if c >= 0 and not self.skipping and _only_cr(self.buf, 0, self.n):
                if _only_cr(data, i, c):
                    self.n = 0
                    self.on_interrupt()
                    return c + 1
            if not self.skipping:
                take = end - i
                room = self.size - self.n
                if take > room:
                    self.mv[self.n : self.size] = data[i : i + room]
                    self.n = 0
                    self.skipping = True
                    self.on_long(self.buf, now_ms)
                elif take:
                    self.mv[self.n : self.n + take] = data[i:end]
                    self.n += take
            if j < 0:
                break
            i = j + 1
            if self.skipping:
                self.skipping = False
            else:
                k = self.n
                self.n = 0
                self.on_line(self.buf, k, now_ms)
        self.last = now_ms
        return n


def _only_cr(buf, a, b):
    """Are buf[a:b] all carriage returns (or none)? Stops at the first other byte."""
    for k in range(a, b):
        if buf[k] != 13:
            return False
    return True


def _gen():
    yield


_GENERATOR = type(_gen())


def write_json(write, obj):
    """Writes `obj` as one JSON line; a long list or a generator value (the legal plays) goes
    out item by item, so no string of it all is ever built."""
    big = None
    for k in obj:
        v = obj[k]
        if type(v) is _GENERATOR or (isinstance(v, (list, tuple)) and len(v) > _STREAM_OVER):
            big = k
    if big is None:
        write((json.dumps(obj, separators=_SEP) + "\n").encode())
        return
    # A long list (thousands of plays) goes out item by item: no string of it all.
    head = []
    for k in obj:
        if k != big:
            head.append(json.dumps(k) + ":" + json.dumps(obj[k], separators=_SEP))
    head.append(json.dumps(big) + ":[")
    write(("{" + ",".join(head)).encode())
    part = []
    size = 0
    first = True
    tail = "]}\n"
    try:
        for item in obj[big]:
            s = json.dumps(item, separators=_SEP)
            part.append(s if first else "," + s)
            first = False
            size += len(s) + 1
            if size > 200:
                write("".join(part).encode())
                part = []
                size = 0
    except Exception as exc:  # never expected: end the line as valid JSON anyway
        tail = '],"truncated":%s}\n' % json.dumps(repr(exc)[:60])
    part.append(tail)
    write("".join(part).encode())


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
