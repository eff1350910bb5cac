"""Self-play training by temporal differences (offline TD(lambda), one update per game).

Both sides play the current network's best 0-ply move; after each game every position
is pulled towards its lambda-return: the mix of the next positions' evaluations and the
final result. Dice come from one seeded generator, so a run is reproducible, and a
checkpoint holds everything needed to carry on exactly where it stopped: an .npz of plain
arrays (the weights, the dice generator's 625 state words) and one JSON string for the
schedule, loaded with allow_pickle=False, so a checkpoint is data and never runs code.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import numpy as np

from .features import encode_for_opponent
from .moves import START, Board, successors, swap, win_value
from .net import Net, equity, flip

MAX_PLIES = 2000  # a safety stop; a game of sensible play lasts about 60 plies
FORMAT = "ledgammon-td-1"  # the checkpoint's kind and version, checked on resume


class Trainer:
    """Holds the network, the dice and the schedule; `run` trains until a game count."""

    def __init__(
        self, hidden: int, seed: int, games: int, rate: float = 0.1, lam: float = 0.7
    ) -> None:
        self.net = Net(hidden, np.random.default_rng(seed))
        self.dice = random.Random(seed)
        self.total = games
        self.rate0 = rate
        self.lam = lam
        self.done = 0
        self.errors: list[float] = []

    def rate(self) -> float:
        """Constant for the first half, then down to a fifth by the end."""
        frac = self.done / max(1, self.total)
        return self.rate0 * (1.0 if frac < 0.5 else 1.0 - 1.6 * (frac - 0.5))

    def play_game(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """A self-play game: inputs and outputs of each position after a move, and the result."""
        net, rng = self.net, self.dice
        board: Board = START
        xs: list[np.ndarray] = []
        outs: list[np.ndarray] = []
        for _ in range(MAX_PLIES):
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            succ = successors(board, d1, d2)
            arr = np.array(succ, dtype=np.uint8)
            won = arr[:, :25].sum(axis=1) == 0
            if won.any():
                value = max(win_value(succ[i]) for i in np.flatnonzero(won))
                result = np.array([1, value >= 2, value >= 3, 0, 0], dtype=np.float32)
                return np.array(xs), np.array(outs), result
            x = encode_for_opponent(arr)
            out = net.forward(x)
            k = int(np.argmin(equity(out)))
            xs.append(x[k])
            outs.append(out[k])
            board = swap(succ[k])
        raise RuntimeError("a self-play game did not end in %d plies" % MAX_PLIES)

    def targets(self, outs: np.ndarray, result: np.ndarray) -> np.ndarray:
        """Lambda-returns, each seen by the player on roll in its position."""
        n = len(outs)
        g = np.empty_like(outs)
        g[n - 1] = result
        for t in range(n - 2, -1, -1):
            g[t] = flip((1 - self.lam) * outs[t + 1] + self.lam * g[t + 1])
        return g

    def step(self) -> None:
        xs, outs, result = self.play_game()
        self.errors.append(self.net.train(xs, self.targets(outs, result), self.rate()))
        self.done += 1

    def run(
        self,
        checkpoint: Path,
        every: int = 2000,
        progress: Callable[[Trainer], None] | None = None,
    ) -> None:
        while self.done < self.total:
            self.step()
            if self.done % every == 0 or self.done == self.total:
                self.save(checkpoint)
            if progress and self.done % 100 == 0:
                progress(self)

    def save(self, path: Path) -> None:
        version, words, gauss = self.dice.getstate()
        meta = {
            "format": FORMAT, "done": self.done, "total": self.total, "rate0": self.rate0,
            "lam": self.lam, "dice_version": version, "dice_gauss": gauss,
        }
        self.net.save(path, meta=np.array(json.dumps(meta)),
                      dice=np.array(words, dtype=np.uint32))

    @classmethod
    def resume(cls, path: Path) -> Trainer:
        """The trainer saved in `path`; ValueError when the file is not such a checkpoint."""
        try:
            net, extra = Net.load(path)
            meta = json.loads(str(extra["meta"]))
            words = tuple(int(w) for w in extra["dice"])
            if meta.get("format") != FORMAT:
                raise ValueError("format %r" % meta.get("format"))
            t = cls(net.hidden, 0, int(meta["total"]), float(meta["rate0"]), float(meta["lam"]))
            t.dice.setstate((int(meta["dice_version"]), words, meta["dice_gauss"]))
            t.done = int(meta["done"])
        except (OSError, KeyError, TypeError, ValueError) as exc:
            raise ValueError("%s is not a training checkpoint (%s)" % (path, exc)) from None
        t.net = net
        return t
