"""Serial link figures: request round trips per second over the simulator's pty, beside a bare
pty echo measured in the same run, and whole games per second played through the link.

    python -m bench.link.serial_bench [--json] [--seconds S]

Every figure uses the same client code (ledgammon.transport, pyserial) on a fresh pty:
- `cat` echoing lines: the pty and the client alone, the ceiling;
- a MicroPython script echoing lines the way the firmware reads them: the interpreter's I/O;
- the firmware itself (`ledgammon sim` under the MicroPython unix port): `hello` (the link
  and the protocol) and `state` (which also lists every legal play).
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import pty
import random
import subprocess
import sys
import tempfile
import time
import tty

from ledgammon.client import Client
from ledgammon.sim import Simulator, find_micropython
from ledgammon.transport import Transport

MP_ECHO = """
import sys
import asyncio
async def main():
    s = sys.stdin.buffer
    r = asyncio.StreamReader(s)
    buf = bytearray(256)
    while True:
        n = await r.readinto(buf)
        if n:
            s2 = sys.stdout.buffer
            s2.write(buf[:n])
asyncio.run(main())
"""


def _pty_process(cmd: list[str], nonblocking: bool) -> tuple[subprocess.Popen[bytes], int]:
    master, slave = pty.openpty()
    tty.setraw(slave)
    if nonblocking:
        fl = fcntl.fcntl(master, fcntl.F_GETFL)
        fcntl.fcntl(master, fcntl.F_SETFL, fl | os.O_NONBLOCK)
    proc = subprocess.Popen(cmd, stdin=master, stdout=master, start_new_session=True)
    os.close(master)
    return proc, slave


def echo_rate(cmd: list[str], seconds: float, nonblocking: bool) -> float:
    """Line round trips per second through a process that echoes what it reads."""
    proc, slave = _pty_process(cmd, nonblocking)
    try:
        t = Transport(os.ttyname(slave))
        line = b'{"cmd":"hello","id":12345}'
        t.write_line(line)  # wait for the echo to be up
        assert t.read_line(5) == line
        n = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            t.write_line(line)
            if t.read_line(2) != line:
                raise RuntimeError("the echo lost a line")
            n += 1
        rate = n / (time.perf_counter() - start)
        t.close()
        return rate
    finally:
        proc.kill()
        proc.wait()
        os.close(slave)


def request_rate(client: Client, cmd: str, seconds: float) -> float:
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        client.call(cmd)
        n += 1
    return n / (time.perf_counter() - start)


def games_rate(client: Client, seconds: float) -> tuple[float, float]:
    """Whole games (state + roll/move requests) per second; requests per game."""
    rng = random.Random(1)
    games = requests = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or not games:
        client.new_game()
        requests += 1
        while True:
            st = client.state()
            requests += 1
            if st["phase"] == "over":
                break
            if st["phase"] == "move":
                for _ in st["steps"]:  # whole plays are listed from the turn's start
                    client.undo()
                    requests += 1
                client.move(rng.choice(st["plays"]))
            else:
                client.roll()
            requests += 1
        games += 1
    return games / (time.perf_counter() - start), requests / games


def measure(seconds: float) -> dict[str, float]:
    out: dict[str, float] = {}
    out["pty_echo_cat"] = echo_rate(["cat"], seconds, nonblocking=False)
    mp = find_micropython()
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(MP_ECHO)
    try:
        out["pty_echo_micropython"] = echo_rate([mp, f.name], seconds, nonblocking=True)
    finally:
        os.unlink(f.name)
    with tempfile.TemporaryDirectory() as flash:
        start = time.perf_counter()
        sim = Simulator(flash=flash, seed=1)
        sim.start()
        try:
            client = Client(sim.port)
            lit = any(client.frame())
            out["start_to_lit_board_s"] = time.perf_counter() - start if lit else -1.0
            out["firmware_hello_per_s"] = request_rate(client, "hello", seconds)
            out["firmware_state_per_s"] = request_rate(client, "state", seconds)
            out["games_per_s"], out["requests_per_game"] = games_rate(client, seconds)
            client.close()
        finally:
            sim.stop()
    return out


def report(fig: dict[str, float]) -> str:
    rows = [
        ("bare pty echo (cat)", fig["pty_echo_cat"], "round trips/s"),
        ("MicroPython echo on the pty", fig["pty_echo_micropython"], "round trips/s"),
        ("firmware `hello` under MicroPython", fig["firmware_hello_per_s"], "requests/s"),
        ("firmware `state` (with legal plays)", fig["firmware_state_per_s"], "requests/s"),
        ("whole games through the link", fig["games_per_s"], "games/s"),
        ("  requests per game", fig["requests_per_game"], ""),
        ("simulator start to a lit board", fig["start_to_lit_board_s"], "s"),
    ]
    lines = ["serial link (pty, pyserial client; target >= 2000 requests/s):"]
    for name, value, unit in rows:
        lines.append("  %-38s %10.2f %s" % (name, value, unit))
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(
        prog="python -m bench.link.serial_bench", description=__doc__.split("\n")[0]
    )
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--seconds", type=float, default=2.0, help="time per figure")
    args = ap.parse_args()
    fig = measure(args.seconds)
    print(json.dumps(fig) if args.json else report(fig))
    return 0


if __name__ == "__main__":
    sys.exit(main())
