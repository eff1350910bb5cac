"""A host that sends and never reads: does the board's own game slow down? (issue 11)

    python -m bench.link.unread_bench [--seconds S] [--requests N] [--pace MS] [--board-timing T]

Runs the simulator (the firmware under the MicroPython unix port on a pty) with the board
playing both sides, twice from the same seed: once while the host sends N `hello` requests
and reads everything, once while it sends the same requests and reads nothing. The pace is
the board's actions (throws and steps) a second over S seconds, read from the saved game in
the simulator's flash directory (not through the link, which the second run leaves unread).
Prints one JSON line:
serial_unread_slowdown = the pace unread / the pace read (1.0: no effect; target >= 0.9).
"""

from __future__ import annotations

import argparse
import json
import os
import select
import subprocess
import sys
import tempfile
import threading
import time

from ledgammon.client import Client
from ledgammon.sim import Simulator


def _actions(flash: str) -> tuple[int, int] | None:
    """(game number, the board's actions so far: a throw a turn and each step) of the saved
    game (its record: 9 characters a turn, the play code's bits 20-22 its steps; "s": the
    steps of the turn on), or None while unreadable."""
    try:
        with open(os.path.join(flash, "game.json")) as f:
            save = json.load(f)
        record = save.get("h", "")
        n = 0
        for i in range(0, len(record) - 8, 9):
            n += 1 + (int(record[i + 2 : i + 9], 16) >> 20 & 7)
        return int(save.get("n", 0)), n + len(save.get("s") or ())
    except (OSError, ValueError, AttributeError, TypeError):
        return None


class Progress:
    """The board's actions since the start, over game ends (the next game's add on)."""

    def __init__(self, flash: str) -> None:
        self.flash = flash
        self.done = 0
        self.last = _actions(flash) or (0, 0)
        self.first = self.last

    def poll(self) -> None:
        now = _actions(self.flash)
        if now is None:
            return
        if now[0] != self.last[0]:
            self.done += self.last[1]
            self.first = (now[0], 0)
        self.last = now

    def actions(self) -> int:
        return self.done + self.last[1] - self.first[1]


def _send(fd: int, requests: int) -> None:
    """Writes the requests (blocking while the firmware has not read the earlier ones)."""
    line = b'{"cmd":"hello","id":%d}\n'
    for i in range(requests):
        data = line % (i + 1)
        while data:
            try:
                n = os.write(fd, data)
            except BlockingIOError:
                select.select([], [fd], [], 0.05)
                continue
            except OSError:
                return
            data = data[n:]


def _drain(fd: int, stop: threading.Event) -> None:
    while not stop.is_set():
        if select.select([fd], [], [], 0.05)[0]:
            try:
                os.read(fd, 65536)
            except OSError:
                return


def pace(seconds: float, requests: int, read: bool, ms: int, timing: str) -> float:
    """The board-against-board game's actions a second while the host reads or not."""
    with tempfile.TemporaryDirectory() as flash:
        sim = Simulator(
            flash=flash, seed=1, pace=ms, stderr=subprocess.DEVNULL, board_timing=timing
        )
        sim.start(60)
        try:
            with Client(sim.port, timeout=30) as client:
                client.config(players=["board", "board"], level="strong")
            fd = os.open(sim.port, os.O_RDWR | os.O_NOCTTY)
            stop = threading.Event()
            threads = [threading.Thread(target=_send, args=(fd, requests), daemon=True)]
            if read:
                threads.append(threading.Thread(target=_drain, args=(fd, stop), daemon=True))
            progress = Progress(flash)
            for t in threads:
                t.start()
            start = time.monotonic()
            while time.monotonic() - start < seconds:
                time.sleep(0.05)
                progress.poll()
            elapsed = time.monotonic() - start
            stop.set()
            actions = progress.actions()
            if not sim.alive():
                raise RuntimeError("the simulator died")
            os.close(fd)
        finally:
            sim.stop()
    return actions / elapsed


def measure(seconds: float, requests: int, ms: int, timing: str) -> dict[str, float]:
    read = pace(seconds, requests, True, ms, timing)
    unread = pace(seconds, requests, False, ms, timing)
    return {
        "serial_unread_slowdown": unread / read if read > 0 else -1.0,
        "serial_read_actions_per_s": read,
        "serial_unread_actions_per_s": unread,
    }


def main() -> int:
    ap = argparse.ArgumentParser(
        prog="python -m bench.link.unread_bench", description=__doc__.split("\n")[0]
    )
    ap.add_argument("--seconds", type=float, default=15.0)
    ap.add_argument("--requests", type=int, default=1000)
    ap.add_argument("--pace", type=int, default=50, help="the board's ms per step")
    ap.add_argument("--board-timing", default="none")
    args = ap.parse_args()
    fig = measure(args.seconds, args.requests, args.pace, args.board_timing)
    print(
        "board against board, %d requests sent: %.2f actions/s read, %.2f unread: slowdown %.2f"
        % (
            args.requests,
            fig["serial_read_actions_per_s"],
            fig["serial_unread_actions_per_s"],
            fig["serial_unread_slowdown"],
        )
    )
    print(json.dumps(fig))
    return 0


if __name__ == "__main__":
    sys.exit(main())
