# The serial task's CPython side (`ledgammon sim --python`): the pty as a file descriptor.
#
# Kept apart from port.py so that the board never loads it: the event loop's add_reader for
# reading, a non-blocking os.write for the Outbox.


class FdPort:
    """A file descriptor as an Outbox's port (CPython: the simulator's pty), never blocking."""

    def __init__(self, fd):
        import select

        self.fd = fd
        self.poller = select.poll()
        self.poller.register(fd, select.POLLOUT)

    def ready(self):
        return bool(self.poller.poll(0))

    def write(self, mv):
        import os

        try:
            return os.write(self.fd, mv)
        except BlockingIOError:
            return 0


async def serve_fd(protocol, s, feed):
    """Feeds the file's bytes to `protocol` (through port.py's `feed`) until it stops."""
    import asyncio
    import os
    import select

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
            more = bool(select.select([fd], [], [], 0)[0])
            await feed(protocol, data, len(data), more)
    finally:
        loop.remove_reader(fd)
