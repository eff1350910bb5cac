"""The training's second stage: the self-play network refined on GNU Backgammon's evaluations.

Self-play alone leaves the board's 40-unit network well short of gnubg 0-ply: choosing
at 0-ply it lost 0.026 points a move to gnubg's own choice on noisy gnubg games, and its
win and gammon chances were too rough for the cube (docs/opponent.md). This stage teaches
it gnubg 0-ply's five outputs (supervised learning; gnubg's Python bindings are a
requirement of the host tools):

1. Positions: noisy gnubg self-play (its cubeless money choice; in a quarter of the games
   no noise, in the others one move in 20, 7 or 3 is a random one of its best four), and at
   each turn the results of up to 16 of the legal plays, gnubg's best four and a random
   dozen of the rest: the network must learn what it will compare, good plays and poor ones.
   Each is labelled with gnubg 0-ply's outputs for the side then on roll. 18,000 games give
   about nine million positions in a few minutes (gnubg evaluates ~90,000 a second).
2. The fit: Adam on the cross-entropy of the five sigmoid outputs, from the given weights
   (the self-play stage's), in epochs over the shuffled positions, the rate falling from
   0.001 to a tenth of it, the input weights kept within +-4 (CLIP). A checkpoint after
   each epoch (the weights and Adam's moments: plain arrays and JSON) lets a stopped run
   resume exactly.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

from .export import read_weights, write_weights
from .features import encode_for_opponent
from .moves import START, Board, successors, swap
from .net import Net, equity

FORMAT = "ledgammon-teacher-1"  # the fit checkpoint's kind and version, checked on resume
DATA_FORMAT = "ledgammon-teacher-data-1"
BEST = 4  # of a turn's plays, gnubg's best this many are always kept ...
KEEP = 16  # ... and random others up to this many
NOISE = (0.0, 0.05, 0.15, 0.3)  # a game's chance of a move among the best four, drawn a game
RATE = 1e-3
# The input weights and biases stay within +-CLIP: the board keeps eight bits a hidden unit,
# scaled by its largest weight, and unbounded the fit grew a few to 20-45 (on the checkers
# borne off and the bar) where most are ~0.2, so rounding cost half of what it learnt (a
# 0-ply choice's loss 0.0123 in floats, 0.0170 rounded; 0.0123 and 0.0126 within 4).
CLIP = 4.0
BATCH = 512
MAX_PLIES = 2000  # a safety stop, as in self-play


class Gnubg:
    """GNU Backgammon 0-ply, cubeless money play: its five outputs for a position (the
    bench's gnubg player judges plays with it too)."""

    def __init__(self) -> None:
        import gnubg

        quiet(gnubg.command, "set threads 1")  # some gnubg calls hang without it
        self._evaluate = gnubg.evaluate
        # money play, centred cube: spelt out, as gnubg.cubeinfo() copies any match loaded
        self.cube = gnubg.cubeinfo(1, -1, 0, 0, (0, 0), 0, 0)
        self.context = gnubg.evalcontext(0, 0, 0, 0, 0.0)  # cubeless, 0-ply, no noise

    def after_play(self, board: Board) -> tuple[float, ...]:
        """The outputs for the side on roll after the mover's play (`board`: the mover's
        25 counts, then the other side's, as `moves.successors` gives them)."""
        # gnubg's board is (the side not on roll, the side on roll).
        return tuple(self._evaluate((list(board[:25]), list(board[25:])), self.cube,
                                    self.context)[:5])


def quiet(call: Callable[..., Any], *args: Any) -> Any:
    """Calls gnubg with its own printing (to file descriptor 1) silenced."""
    sys.stdout.flush()
    saved = os.dup(1)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    try:
        return call(*args)
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(null)


def positions(
    teacher: Gnubg, games: int, seed: int, progress: Callable[[int], None] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """(boards uint8 (n, 50), outputs float32 (n, 5)) from `games` noisy games of `teacher`."""
    rng = random.Random(seed)
    boards: list[Board] = []
    outputs: list[tuple[float, ...]] = []
    for game in range(games):
        noise = rng.choice(NOISE)
        board = START
        for _ in range(MAX_PLIES):
            results = successors(board, rng.randint(1, 6), rng.randint(1, 6))
            if any(sum(r[:25]) == 0 for r in results):
                break  # the mover bears off its last checker: the game is over
            outs = [teacher.after_play(r) for r in results]
            # the side on roll's equity after each play, lowest first: the mover's best first
            order = [int(i) for i in np.argsort(equity(np.array(outs)), kind="stable")]
            kept = order[:BEST] + rng.sample(order[BEST:], max(0, min(len(order), KEEP) - BEST))
            boards.extend(results[i] for i in kept)
            outputs.extend(outs[i] for i in kept)
            pick = order[0]
            if rng.random() < noise:
                pick = order[rng.randrange(min(len(order), BEST))]
            board = swap(results[pick])
        else:
            raise RuntimeError("a teacher's game did not end in %d plies" % MAX_PLIES)
        if progress:
            progress(game + 1)
    # gnubg's bear-off figures can pass 1 by a rounding (1.0000001)
    return np.array(boards, dtype=np.uint8), np.clip(np.array(outputs, dtype=np.float32), 0, 1)


def save_positions(path: Path, boards: np.ndarray, outputs: np.ndarray, games: int,
                   seed: int) -> None:
    meta = json.dumps({"format": DATA_FORMAT, "games": games, "seed": seed})
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez(tmp, boards=boards, outputs=outputs, meta=np.array(meta))
    tmp.replace(path)


def load_positions(path: Path, games: int, seed: int) -> tuple[np.ndarray, np.ndarray] | None:
    """The positions saved in `path` for these games and seed; None when it holds others
    or is not such a file (then they are made again)."""
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            if meta != {"format": DATA_FORMAT, "games": games, "seed": seed}:
                return None
            return data["boards"], data["outputs"]
    except (OSError, KeyError, ValueError):
        return None


class Fit:
    """The network, Adam's state and the schedule; `epoch` makes one pass over the data."""

    def __init__(self, net: Net, epochs: int, seed: int, rate: float = RATE,
                 batch: int = BATCH) -> None:
        self.net = net
        self.batch = batch
        self.epochs = epochs
        self.seed = seed
        self.rate0 = rate
        self.done = 0  # epochs made
        self.steps = 0  # Adam's step count
        self.moments = [np.zeros_like(p) for p in self._params() * 2]

    def _params(self) -> list[np.ndarray]:
        return [self.net.w1, self.net.b1, self.net.w2, self.net.b2]

    def rate(self) -> float:
        """From rate0 down to a tenth of it at the last epoch."""
        return self.rate0 * (0.1 + 0.9 * (1 - self.done / max(1, self.epochs - 1)))

    def epoch(self, boards: np.ndarray, outputs: np.ndarray) -> float:
        """One pass in an order drawn from (seed, epoch); returns the mean squared error."""
        net, rate = self.net, self.rate()
        order = np.random.default_rng([self.seed, self.done]).permutation(len(boards))
        params, first, second = self._params(), self.moments[:4], self.moments[4:]
        total, batches = 0.0, 0
        size = self.batch
        for start in range(0, len(order) - size + 1, size):
            pick = order[start:start + size]
            x = encode_for_opponent(boards[pick])
            hidden = 1.0 / (1.0 + np.exp(-(x @ net.w1 + net.b1)))
            out = 1.0 / (1.0 + np.exp(-np.clip(hidden @ net.w2 + net.b2, -30.0, 30.0)))
            err = out - outputs[pick]
            d_out = err / size  # the cross-entropy's gradient through the sigmoid
            d_hidden = (d_out @ net.w2.T) * hidden * (1 - hidden)
            grads = [x.T @ d_hidden, d_hidden.sum(axis=0), hidden.T @ d_out, d_out.sum(axis=0)]
            self.steps += 1
            fix1, fix2 = 1 - 0.9**self.steps, 1 - 0.999**self.steps
            for p, g, m, v in zip(params, grads, first, second, strict=True):
                m *= 0.9
                m += 0.1 * g
                v *= 0.999
                v += 0.001 * g * g
                p -= (rate * (m / fix1) / (np.sqrt(v / fix2) + 1e-8)).astype(p.dtype)
            np.clip(net.w1, -CLIP, CLIP, out=net.w1)
            np.clip(net.b1, -CLIP, CLIP, out=net.b1)
            total += float((err * err).mean())
            batches += 1
        self.done += 1
        return total / max(1, batches)

    def save(self, path: Path) -> None:
        meta = {"format": FORMAT, "done": self.done, "epochs": self.epochs, "seed": self.seed,
                "rate0": self.rate0, "batch": self.batch, "steps": self.steps}
        moments = {"m%d" % i: m for i, m in enumerate(self.moments)}
        self.net.save(path, meta=np.array(json.dumps(meta)), **moments)

    @classmethod
    def resume(cls, path: Path) -> Fit:
        """The fit saved in `path`; ValueError when the file is not such a checkpoint."""
        try:
            net, extra = Net.load(path)
            meta = json.loads(str(extra["meta"]))
            if meta.get("format") != FORMAT:
                raise ValueError("format %r" % meta.get("format"))
            fit = cls(net, int(meta["epochs"]), int(meta["seed"]), float(meta["rate0"]),
                      int(meta["batch"]))
            fit.done, fit.steps = int(meta["done"]), int(meta["steps"])
            fit.moments = [extra["m%d" % i] for i in range(8)]
        except (OSError, KeyError, TypeError, ValueError) as exc:
            raise ValueError("%s is not a teacher checkpoint (%s)" % (path, exc)) from None
        return fit


def start_net(path: Path) -> Net:
    """The weights to refine: a self-play checkpoint (.npz) or a board weight file."""
    if not path.exists():
        raise ValueError("no weights to refine at %s: run the self-play stage first (python -m"
                         " ledgammon.train) or give --init a weight file" % path)
    if path.suffix == ".npz":
        return Net.load(path)[0]
    return read_weights(path)


def grown(net: Net, hidden: int, seed: int) -> Net:
    """`net` with `hidden` units, the new ones added so that it computes the same outputs (their
    output weights zero, their input weights small and random, so the fit can move them):
    the larger network for boards with room starts from what the smaller one learnt."""
    if hidden < net.hidden:
        raise ValueError("cannot shrink a %d-unit network to %d" % (net.hidden, hidden))
    if hidden == net.hidden:
        return net
    out = Net(hidden, np.random.default_rng(seed))
    h = net.hidden
    out.w1[:, h:] *= 0.5
    out.w1[:, :h], out.b1[:h] = net.w1, net.b1
    out.w2[:h], out.w2[h:], out.b2[:] = net.w2, 0.0, net.b2
    return out


def held_out_error(net: Net, boards: np.ndarray, outputs: np.ndarray) -> float:
    """The root mean square of the money equity's error against the teacher's."""
    out = net.forward(encode_for_opponent(boards))
    return float(np.sqrt(((equity(out) - equity(outputs)) ** 2).mean()))


DEFAULT_GAMES = 18_000
DEFAULT_EPOCHS = 16
HELD_OUT = 50  # one position in this many is held out of the fit, to show how it generalises


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m ledgammon.train.teacher",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=DEFAULT_GAMES, help="gnubg games of positions")
    p.add_argument("--epochs", type=int, default=DEFAULT_EPOCHS)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--hidden", type=int, default=0,
                   help="grow the network to this many hidden units first (0: as --init has)")
    p.add_argument("--init", type=Path, default=Path("build/train/checkpoint.npz"),
                   help="the weights to refine: the self-play checkpoint or a weight file")
    p.add_argument("--data", type=Path, default=Path("build/train/teacher-positions.npz"))
    p.add_argument("--checkpoint", type=Path, default=Path("build/train/teacher.npz"))
    p.add_argument("--weights", type=Path, default=Path("firmware/weights.bin"))
    a = p.parse_args(argv)
    a.checkpoint.parent.mkdir(parents=True, exist_ok=True)
    a.data.parent.mkdir(parents=True, exist_ok=True)
    signal.signal(signal.SIGTERM, _stop)
    try:
        if a.checkpoint.exists():
            fit = Fit.resume(a.checkpoint)
            fit.epochs = a.epochs
            print("resuming at epoch %d" % fit.done, file=sys.stderr)
        else:
            net = start_net(a.init)
            fit = Fit(grown(net, a.hidden or net.hidden, a.seed), a.epochs, a.seed)
    except (OSError, ValueError) as exc:
        print("error: %s" % exc, file=sys.stderr)
        return 2
    try:
        data = load_positions(a.data, a.games, a.seed)
        if data is None:
            with tqdm(total=a.games, desc="positions", unit="games") as bar:

                def played(n: int) -> None:
                    bar.update(n - bar.n)

                data = positions(Gnubg(), a.games, a.seed, played)
            save_positions(a.data, *data, a.games, a.seed)
        boards, outputs = data
        held = np.arange(len(boards)) % HELD_OUT == 0
        train_b, train_o = boards[~held], outputs[~held]
        with tqdm(total=fit.epochs, initial=fit.done, desc="fit", unit="epochs") as bar:
            while fit.done < fit.epochs:
                mse = fit.epoch(train_b, train_o)
                fit.save(a.checkpoint)
                bar.set_postfix_str("mse %.5f  held-out equity error %.4f" % (
                    mse, held_out_error(fit.net, boards[held], outputs[held])), refresh=False)
                bar.update(fit.done - bar.n)
    except KeyboardInterrupt:
        print("stopped at epoch %d; run again to resume" % fit.done, file=sys.stderr)
        return 130
    size = write_weights(fit.net, a.weights)
    print("%d positions, %d epochs; wrote %s (%d bytes)" % (len(boards), fit.done, a.weights,
                                                           size), file=sys.stderr)
    return 0


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # keep the epochs made on SIGTERM as on Ctrl-C


if __name__ == "__main__":
    sys.exit(main())
