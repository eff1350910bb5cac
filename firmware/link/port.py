# The serial task: the port's bytes into a Protocol, its lines out, on the board and in the sim.
#
# serve() reads sys.stdin (MicroPython: asyncio.StreamReader; CPython: the event loop's
# add_reader) and feeds a Protocol until it stops; make_writer() writes whole lines, waiting
# while a non-blocking port is full. Ctrl-C is turned into data while serve() runs
# (micropython.kbd_intr(-1)); the LineReader gives it its meaning.
import sys

from hw.ticks import ticks_ms
from kernels.compat import const

WRITE_WAIT_MS = const(2000)  # a port that takes nothing for this long loses the line
_CTRL_C = const(3)
_NL = const(10)
_MICROPY = sys.implementation.name == "micropython"


def make_writer(stream=None):
    """write(data): the whole of `data` (bytes or str) to the port, or drop it after
    WRITE_WAIT_MS without progress (a host that reads nothing cannot stall the board).
    After a drop the next line starts with a newline, so the host resynchronises."""
    import select

    s = stream or sys.stdout.buffer
    poller = select.poll()
    poller.register(s, select.POLLOUT)
    if _MICROPY:
        raw = s.write
    else:
        import os

        fd = s.fileno()
        s.flush()

        def raw(chunk):
            try:
                return os.write(fd, chunk)
            except BlockingIOError:
                return None

    state = [False]  # a line was cut short

    def write(data):
        if isinstance(data, str):
            data = data.encode()
        if state[0]:
            state[0] = False
            data = b"\n" + data
        mv = memoryview(data)
        off = 0
        total = len(data)
        while off < total:
            k = raw(mv[off:] if off else data)
            if k is None or k == 0:  # non-blocking port full: wait for room
                if not poller.poll(WRITE_WAIT_MS):
                    state[0] = True
                    return False
                continue
            off += k
        return True

    return write


async def serve(protocol, stream=None, nonblocking=False):
    """The serial task: feeds the port's bytes to `protocol` until it stops or the port ends.

    nonblocking: the port's reads return what is there (the simulator's pty); otherwise (the
    board's USB serial, whose reads wait for the full count) bytes are read one at a time while
    the port has some, and handed over at each newline.
    """
    import asyncio

    s = stream or sys.stdin.buffer
    protocol.send(protocol.boot_event())
    try:
        import micropython

        micropython.kbd_intr(-1)  # Ctrl-C is data now (see LineReader)
    except (ImportError, AttributeError):
        micropython = None
    try:
        if not _MICROPY:
            await _serve_cpython(protocol, s)
        elif nonblocking:
            await _serve_chunks(protocol, s, asyncio)
        else:
            await _serve_bytes(protocol, s, asyncio)
    finally:
        if micropython:
            micropython.kbd_intr(3)


async def _serve_chunks(protocol, s, asyncio):
    reader = asyncio.StreamReader(s)
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
        protocol.feed(buf, ticks_ms(), n)


async def _serve_bytes(protocol, s, asyncio):
    import select

    reader = asyncio.StreamReader(s)
    poller = select.poll()
    poller.register(s, select.POLLIN)
    buf = bytearray(64)
    one = bytearray(1)
    while not protocol.stopped:
        if not await reader.readinto(one):
            return
        buf[0] = one[0]
        n = 1
        # Drain what is waiting, stopping at a newline (answer promptly) or a Ctrl-C (leave
        # what follows it in the port for the REPL).
        while n < 64 and one[0] != _NL and one[0] != _CTRL_C:
            ready = False
            for _ in poller.ipoll(0):
                ready = True
            if not ready or not s.readinto(one):
                break
            buf[n] = one[0]
            n += 1
        protocol.feed(buf, ticks_ms(), n)


async def _serve_cpython(protocol, s):
    import asyncio
    import os

    loop = asyncio.get_running_loop()
    fd = s.fileno()
    ready = asyncio.Event()
    loop.add_reader(fd, ready.set)
    try:
        while not protocol.stopped:
            await ready.wait()
            ready.clear()
            try:
                data = os.read(fd, 512)
            except BlockingIOError:
                continue
            except OSError:
                return  # EIO: the other side of the pty is gone
            if not data:
                return
            protocol.feed(data, ticks_ms())
    finally:
        loop.remove_reader(fd)
