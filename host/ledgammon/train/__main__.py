"""`make train`: self-play training with a progress bar, resumable, then the board's weights.

Runs until --games games have been played (resuming from --checkpoint when it exists),
then writes the fixed-point weight file that ships in firmware/.
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType

from .export import write_weights
from .td import Trainer

DEFAULT_GAMES = 320_000
DEFAULT_HIDDEN = 40


def _bar(start: float, first: int) -> Callable[[Trainer], None]:
    def show(t: Trainer) -> None:
        rate = (t.done - first) / max(1e-9, time.monotonic() - start)
        left = (t.total - t.done) / max(rate, 1e-9)
        width = 30
        filled = width * t.done // t.total
        err = sum(t.errors[-100:]) / max(1, len(t.errors[-100:]))
        sys.stderr.write(
            "\r[%s%s] %d/%d games  %.0f/s  eta %dm%02ds  mse %.4f  "
            % (
                "#" * filled,
                "." * (width - filled),
                t.done,
                t.total,
                rate,
                left // 60,
                left % 60,
                err,
            )
        )
        sys.stderr.flush()

    return show


def _stop(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt  # save a checkpoint on SIGTERM as on Ctrl-C


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m ledgammon.train", description=__doc__)
    p.add_argument("--games", type=int, default=DEFAULT_GAMES)
    p.add_argument("--hidden", type=int, default=DEFAULT_HIDDEN)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rate", type=float, default=0.1, help="learning rate per position")
    p.add_argument("--lam", type=float, default=0.7, help="TD lambda")
    p.add_argument("--checkpoint", type=Path, default=Path("build/train/checkpoint.npz"))
    p.add_argument("--weights", type=Path, default=Path("firmware/weights.bin"))
    p.add_argument("--every", type=int, default=2000, help="games between checkpoints")
    a = p.parse_args(argv)
    a.checkpoint.parent.mkdir(parents=True, exist_ok=True)
    if a.checkpoint.exists():
        try:
            t = Trainer.resume(a.checkpoint)
        except ValueError as exc:  # e.g. a pickled checkpoint of an older version
            print("error: %s; remove it to start afresh" % exc, file=sys.stderr)
            return 2
        t.total = a.games
        print("resuming at game %d" % t.done, file=sys.stderr)
    else:
        t = Trainer(a.hidden, a.seed, a.games, a.rate, a.lam)
    signal.signal(signal.SIGTERM, _stop)
    try:
        t.run(a.checkpoint, a.every, _bar(time.monotonic(), t.done))
    except KeyboardInterrupt:
        t.save(a.checkpoint)
        print("\nstopped at game %d; run again to resume" % t.done, file=sys.stderr)
        return 130
    size = write_weights(t.net, a.weights)
    print("\n%d games; wrote %s (%d bytes)" % (t.done, a.weights, size), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
