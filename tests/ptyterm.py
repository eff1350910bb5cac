"""A program run on a pseudo-terminal as a person's 80x24 xterm would run it: what it draws is
read back (to wait for a text to appear), keys and mouse reports are written to it."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import time
from collections.abc import Mapping, Sequence

TERM_ENV = {"TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
            "COLUMNS": "80", "LINES": "24"}


class PtyProgram:
    """`cmd` started on a new pty; `seen` is every byte it has written so far."""

    def __init__(self, cmd: Sequence[str], env: Mapping[str, str], cwd: str | None = None):
        self.master, slave = pty.openpty()
        os.set_blocking(self.master, False)
        self.proc = subprocess.Popen(list(cmd), cwd=cwd, env=dict(env, **TERM_ENV), stdin=slave,
                                     stdout=slave, stderr=slave, close_fds=True)
        os.close(slave)
        self.seen = b""

    def wait_for(self, text: bytes, limit: float = 20.0) -> bool:
        """Whether `text` appears in its output within `limit` seconds (or already has)."""
        end = time.monotonic() + limit
        while text not in self.seen and time.monotonic() < end:
            if select.select([self.master], [], [], 0.2)[0]:
                try:
                    self.seen += os.read(self.master, 65536)
                except OSError:  # the program has ended and closed its side
                    break
        return text in self.seen

    def write(self, data: bytes) -> None:
        """Types `data` (keys, escape sequences) into its terminal."""
        os.write(self.master, data)

    def close(self) -> None:
        """Ends the program if it still runs, and closes the pty."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        os.close(self.master)
