"""The evaluation network in floating point, as trained on the computer.

One hidden layer of sigmoid units and five sigmoid outputs seen by the player on roll:
P(win), P(win a gammon or more), P(win a backgammon), P(lose a gammon or more),
P(lose a backgammon), as in GNU Backgammon, so money equity follows directly.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .features import N_INPUTS

N_OUTPUTS = 5


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(x, -30.0, 30.0)))


def equity(out: np.ndarray) -> np.ndarray:
    """Cubeless money equity of (n, 5) outputs for the player on roll."""
    return 2 * out[:, 0] - 1 + out[:, 1] - out[:, 3] + out[:, 2] - out[:, 4]


def flip(out: np.ndarray) -> np.ndarray:
    """Outputs seen by the other player."""
    return np.stack((1 - out[..., 0], out[..., 3], out[..., 4], out[..., 1], out[..., 2]), axis=-1)


class Net:
    """Weights and the forward pass; `train` applies one batch of targets by gradient descent."""

    def __init__(self, hidden: int, rng: np.random.Generator | None = None) -> None:
        rng = rng or np.random.default_rng(0)
        self.hidden = hidden
        self.w1 = rng.uniform(-0.1, 0.1, (N_INPUTS, hidden)).astype(np.float32)
        self.b1 = np.zeros(hidden, dtype=np.float32)
        self.w2 = rng.uniform(-0.1, 0.1, (hidden, N_OUTPUTS)).astype(np.float32)
        self.b2 = np.zeros(N_OUTPUTS, dtype=np.float32)

    def forward(self, x: np.ndarray) -> np.ndarray:
        return sigmoid(sigmoid(x @ self.w1 + self.b1) @ self.w2 + self.b2)

    def train(self, x: np.ndarray, target: np.ndarray, rate: float) -> float:
        """One step on the summed squared error of a batch; returns the mean squared error."""
        h = sigmoid(x @ self.w1 + self.b1)
        o = sigmoid(h @ self.w2 + self.b2)
        err = o - target
        d_o = err * o * (1 - o)
        d_h = (d_o @ self.w2.T) * h * (1 - h)
        self.w2 -= rate * (h.T @ d_o)
        self.b2 -= rate * d_o.sum(axis=0)
        self.w1 -= rate * (x.T @ d_h)
        self.b1 -= rate * d_h.sum(axis=0)
        return float((err * err).mean())

    def save(self, path: Path, **extra: object) -> None:
        tmp = path.with_name(path.name + ".tmp.npz")
        np.savez(tmp, w1=self.w1, b1=self.b1, w2=self.w2, b2=self.b2, **extra)  # type: ignore[arg-type]
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path) -> tuple[Net, dict[str, np.ndarray]]:
        data = dict(np.load(path, allow_pickle=False))
        net = cls(int(data["w1"].shape[1]))
        net.w1, net.b1, net.w2, net.b2 = (data.pop(k) for k in ("w1", "b1", "w2", "b2"))
        return net, data
