"""`make train`: self-play training with a progress bar, resumable, then the board's weights.

Runs until --games games have been played (resuming from --checkpoint when it exists),
then writes the fixed-point weight file that ships in firmware/.
"""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType

from tqdm import tqdm

from .export import write_weights
from .td import Trainer

DEFAULT_GAMES = 320_000
DEFAULT_HIDDEN = 40


def _shown(bar: tqdm) -> Callable[[Trainer], None]:
    """The trainer's progress (every 100 games) on tqdm's bar: games, rate, time left, and
    the mean squared TD error of the last 100."""

    def show(t: Trainer) -> None:
        err = sum(t.errors[-100:]) / max(1, len(t.errors[-100:]))
        bar.set_postfix_str("mse %.4f" % err, refresh=False)
        bar.update(t.done - bar.n)

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
    bar = tqdm(total=t.total, initial=t.done, unit="games")
    try:
        t.run(a.checkpoint, a.every, _shown(bar))
    except KeyboardInterrupt:
        bar.close()
        t.save(a.checkpoint)
        print("stopped at game %d; run again to resume" % t.done, file=sys.stderr)
        return 130
    bar.close()
    size = write_weights(t.net, a.weights)
    print("%d games; wrote %s (%d bytes)" % (t.done, a.weights, size), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
