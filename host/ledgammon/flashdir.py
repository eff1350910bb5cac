"""The simulated board's flash directory: made and checked, then locked to one simulator.

The lock is an flock on `.lock` in the directory; the simulator passes the locked file to
its firmware, so the lock lasts as long as either process does.
"""

from __future__ import annotations

import fcntl
import os
import time

from .errors import SimulatorError

LOCK_WAIT = 3.0  # s a new simulator waits for the flash of one that is just dying


def _refuse(path: str, why: str | None) -> SimulatorError:
    return SimulatorError("cannot use %s as the flash directory: %s" % (path, why))


def prepare(path: str) -> None:
    """Makes the directory if need be; one line when it cannot be a flash (a file in the
    way, a parent that is a file, /proc, a read-only place)."""
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as exc:
        why = "a file is in the way" if isinstance(exc, FileExistsError) else exc.strerror
        raise _refuse(path, why) from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise _refuse(path, "read-only")


def lock(path: str, wait: float = LOCK_WAIT) -> int:
    """The locked `.lock` file's descriptor: one simulator per flash directory, as two would
    overwrite each other's game. A simulator killed with SIGKILL keeps the lock until its
    firmware is gone too (within a second: sim_main --parent-fd), so we wait `wait` s."""
    try:
        fd = os.open(os.path.join(path, ".lock"), os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise _refuse(path, exc.strerror) from None
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except OSError:
            if time.monotonic() >= deadline:
                os.close(fd)
                raise SimulatorError(
                    "another simulator is using the flash directory %s" % path
                ) from None
            time.sleep(0.05)
