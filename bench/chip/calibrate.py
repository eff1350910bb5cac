"""The proxy beside the instrument: bench/chip/run.py's money game and round trips played on the
unix-port simulator at the Pico's speed (`ledgammon sim --board-timing pico`), timed by this
machine's clock, so bench/README.md can set its figures against the emulated RP2040's
(build/chip.json) and `--board-timing pico` be calibrated on them.

    python -m bench.chip.calibrate [--timing pico] [--out build/chip-unix.json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from typing import Any

from ledgammon.client import Client
from ledgammon.sim import Simulator

from bench.chip.run import Link, Scenario, idle_round_trips, ms


class WallLink(Link):
    """Link's figures by the host's clock: a round trip from the request's write to its
    reply's read, an event's time when it is read (the host waits on the port meanwhile)."""

    def __init__(self, client: Client) -> None:
        super().__init__(None, client)
        self.count = 0

    def sync(self) -> list[dict[str, Any]]:
        now = time.monotonic_ns()
        got = []
        while self.client._events:
            ev = self.client._events.popleft()
            self.count += 1
            got.append({"seq": self.count, "dir": "out", "ns": now, "line": json.dumps(ev)})
        self.lines.extend(got)
        self.seq = self.count
        del self.lines[:-2000]
        return got

    def wait(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            line = self.client.transport.read_line(min(left, 0.05))
            if line is not None:
                self.client._parse(line)
                self.sync()

    def now_ns(self) -> float:
        return float(time.monotonic_ns())

    def timed(self, label: str, cmd: str, **args: Any) -> dict[str, Any]:
        t0 = time.monotonic_ns()
        reply = self.client.request(cmd, **args)
        self.rtt.setdefault(label, []).append(ms(time.monotonic_ns() - t0))
        self.sync()
        return reply


class NoHeap:
    def reset(self) -> None:
        pass


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m bench.chip.calibrate", description=__doc__.split("\n")[0]
    )
    p.add_argument("--timing", default="pico", choices=("pico", "pico-dma", "none"))
    p.add_argument("--games", default="money,selfplay")
    p.add_argument("--out", default=os.path.join("build", "chip-unix.json"))
    args = p.parse_args(argv)
    figures: dict[str, Any] = {"timing": args.timing}
    with tempfile.TemporaryDirectory() as flash:
        sim = Simulator(flash=flash, board_timing=args.timing)
        sim.start(timeout=60)
        try:
            with Client(sim.port, timeout=120) as client:
                link = WallLink(client)
                idle_round_trips(link)
                for name in args.games.split(","):
                    sc = Scenario(name, link, NoHeap(), random.Random(27))  # type: ignore[arg-type]
                    if name == "money":
                        done = sc.play(["human", "board"], "strong",
                                       {"match_length": 0, "cube": False})
                    else:
                        done = sc.play(["board", "board"], "easy",
                                       {"match_length": 0, "cube": False})
                    figures[name + "_complete"] = done
                    if sc.moves:
                        figures[name + "_move_mean_ms"] = round(statistics.mean(sc.moves), 1)
                        figures[name + "_move_max_ms"] = round(max(sc.moves), 1)
                        figures[name + "_moves"] = len(sc.moves)
                    for label, values in link.rtt.items():
                        figures[label + "_ms"] = round(statistics.mean(values), 1)
                    write(args.out, figures)
        finally:
            sim.stop()
    write(args.out, figures)
    print(json.dumps(figures, indent=1, sort_keys=True))
    return 0


def write(out: str, figures: dict[str, Any]) -> None:
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    with open(out, "w") as f:
        json.dump(figures, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    sys.exit(main())
