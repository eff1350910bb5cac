"""A firmware test helper served by the MicroPython unix port, one request a line: the host's
hypothesis tests hand each case to `module.serve()` (tests/firmware/jsonspec.py,
saverange.py) running in one MicroPython process for the whole module of tests."""

from __future__ import annotations

import json
import os
import subprocess
from typing import Any

from mpytools import FIRMWARE, MICROPYTHON, NATIVE, ROOT, require


class Served:
    """`module` (in tests/firmware) serving requests in a MicroPython process of its own."""

    def __init__(self, module: str, heap: str = "2M") -> None:
        code = ("import sys\nsys.path[:0] = %r\nimport %s\n%s.serve()\n"
                % ([FIRMWARE, NATIVE, os.path.join(ROOT, "tests", "firmware")], module,
                   module))
        self.proc = subprocess.Popen(
            [require(MICROPYTHON), "-X", "heapsize=" + heap, "-c", code], cwd=ROOT,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, request: Any) -> str:
        """The line `serve` answers to `request` (sent as JSON), without its newline."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        out = self.proc.stdout.readline()
        assert out, "the MicroPython process ended"
        return out.rstrip("\n")

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(10)
