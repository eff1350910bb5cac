# The serial task: the port's bytes into a Protocol, its Outbox's lines out (board and sim).
#
# serve() reads sys.stdin (MicroPython: asyncio.StreamReader; CPython: the event loop's
# add_reader) and feeds a Protocol until it stops; beside it drain() writes the lines the
# protocol queued in its Outbox (make_writer), a piece at a time and only when the port can
# take one now, so a host that does not read never holds the loop. Ctrl-C is data while
# serve() runs (micropython.kbd_intr(-1)); the LineReader recognises the escape to the REPL.
import sys

from hw.inputs import sleep_ms
from hw.ticks import ticks_diff, ticks_ms
from kernels.compat import const

_WAIT_MS = const(10)  # a port that takes nothing is asked again after this
_BURST = const(4)  # pieces written at most in one round of the loop, each when ready
_FLUSH_MS = const(1000)  # what is queued when the app stops gets this long to go out
_CTRL_C = const(3)
_NL = const(10)
_MICROPY = sys.implementation.name == "micropython"


class StreamPort:
    """A MicroPython stream as an Outbox's port: ready() when select.poll reports POLLOUT
    (on a Pico's USB serial: room in the CDC buffer), write() what the stream takes."""

    def __init__(self, stream):
        import select

        self.s = stream
        self.poller = select.poll()
        self.poller.register(stream, select.POLLOUT)

    def ready(self):
        for _ in self.poller.ipoll(0):
            return True
        return False

    def write(self, mv):
        return self.s.write(mv)  # None when a non-blocking stream takes nothing


def make_writer(stream=None):
    """The Outbox of the serial port: sys.stdout, or `stream` (an object with ready() and
    write() is taken as the port itself: the simulator's stand-in for a Pico's USB serial).
    serve() drains it."""
    from link.outbox import Outbox

    s = stream or sys.stdout.buffer
    if hasattr(s, "ready"):
        port = s
    elif _MICROPY:
        port = StreamPort(s)
    else:
        from link.cpython_port import FdPort

        s.flush()
        port = FdPort(s.fileno())
    if stream is None and sys.platform in ("linux", "darwin"):  # the simulator's bare pty
        return Outbox(port, piece=512)
    return Outbox(port)  # a board's USB serial, or a stand-in for it: one packet a piece


async def drain(outbox):
    """The writing half of the serial task: a piece whenever the port takes one, a nap of
    _WAIT_MS when it does not, asleep while nothing is queued."""
    import asyncio

    ev = asyncio.Event()
    outbox.on_put(ev.set)
    port = outbox.port
    try:
        while True:
            if not outbox.pending():
                ev.clear()
                await ev.wait()
                continue
            sent = 0
            while sent < _BURST and outbox.pending() and port.ready() and outbox.send():
                sent += 1
            # a reply still thought out (`hint`) gets its next slice at the next round
            await sleep_ms(0 if sent or outbox.thinking else _WAIT_MS)
    except OSError:  # the port is gone
        outbox.clear()
    finally:
        outbox.on_put(None)


async def flush(outbox, ms=_FLUSH_MS):
    """Writes what is queued for up to `ms` (the app is stopping: the `repl` lines first)."""
    t0 = ticks_ms()
    port = outbox.port
    while outbox.pending() and ticks_diff(ticks_ms(), t0) < ms:
        try:
            if port.ready() and outbox.send():
                await sleep_ms(0)
                continue
        except OSError:
            outbox.clear()
            return
        await sleep_ms(5)


async def serve(protocol, stream=None, nonblocking=False):
    """The serial task: feeds the port's bytes to `protocol` until it stops or the port ends.

    nonblocking: the port's reads return what is there (the simulator's pty); otherwise (the
    board's USB serial, whose reads wait for the full count) bytes are read one at a time while
    the port has some, and handed over at each newline. When the protocol writes to an
    Outbox, drain() runs beside the reading; what is still queued when it stops gets _FLUSH_MS.
    """
    import asyncio

    s = stream or sys.stdin.buffer
    outbox = protocol.outbox
    writer = asyncio.create_task(drain(outbox)) if outbox is not None else None
    protocol.send(protocol.boot_event())
    try:
        import micropython

        micropython.kbd_intr(-1)  # Ctrl-C is data now (see LineReader)
    except (ImportError, AttributeError):
        micropython = None
    try:
        if not _MICROPY:
            from link.cpython_port import serve_fd

            await serve_fd(protocol, s, _feed)
        elif nonblocking:
            await _serve_chunks(protocol, s, asyncio)
        else:
            await _serve_bytes(protocol, s, asyncio)
    finally:
        try:
            if writer is not None:
                writer.cancel()
                await flush(outbox)
        finally:
            if micropython:
                micropython.kbd_intr(3)


async def _serve_chunks(protocol, s, asyncio):
    import select

    reader = asyncio.StreamReader(s)
    poller = select.poll()
    poller.register(s, select.POLLIN)
    buf = bytearray(256)
    while not protocol.stopped:
        try:
            n = await reader.readinto(buf)
        except OSError:  # EIO: the host side of the pty is gone
            return
        if n is None:
            continue
        if n == 0:
            return  # the port is gone
        await _feed(protocol, buf, n, _waiting(poller))


async def _feed(protocol, data, n, more):
    """Feeds data[:n], pausing after a line while the writer is full (the rest of the read
    waits here, and no more is read: a burst of requests waits in the port)."""
    k = protocol.feed(data, ticks_ms(), n, more)
    while k < n and not protocol.stopped:
        await _room(protocol)
        k = protocol.feed(data, ticks_ms(), n, more, k)
    await _room(protocol)


async def _room(protocol):
    """Waits until the writer has room for another reply (woken by its writes)."""
    outbox = protocol.outbox
    if outbox is None or outbox.room():
        return
    import asyncio

    ev = asyncio.Event()
    outbox.on_room(ev.set)
    try:
        while not outbox.room() and not protocol.stopped:
            ev.clear()
            await ev.wait()
    finally:
        outbox.on_room(None)


def _waiting(poller):
    """Are bytes waiting in the port (polled without waiting)?"""
    for _ in poller.ipoll(0):
        return True
    return False


async def _serve_bytes(protocol, s, asyncio):
    import select

    reader = asyncio.StreamReader(s)
    poller = select.poll()
    poller.register(s, select.POLLIN)
    buf = bytearray(64)
    one = bytearray(1)
    lines = protocol.lines
    while not protocol.stopped:
        if not await reader.readinto(one):
            return
        buf[0] = one[0]
        n = 1
        # Drain what is waiting, stopping at a newline (answer promptly), at a Ctrl-C and
        # after one while it may start the escape: the byte after it decides, and what
        # follows that stays in the port for the REPL (mpremote's Ctrl-A).
        more = True
        while n < 64 and one[0] != _NL and one[0] != _CTRL_C and not lines.armed:
            more = _waiting(poller)
            if not more or not s.readinto(one):
                break
            buf[n] = one[0]
            n += 1
        else:
            more = _waiting(poller)
        await _feed(protocol, buf, n, more)
