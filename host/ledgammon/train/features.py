"""The network's inputs, computed for many positions at once with numpy.

This is the reference for the board's encoder (`native/kernels/net.py`), which must give
the same numbers: per side (the player on roll first, then the other), 4 inputs for each
of the 24 points (a checker, two, three, (n-3)/2 beyond three), then the bar (n/2), the
checkers borne off (n/16) and the pip count (pips/64). Every value is a multiple of 1/64,
so the board computes them as small integers.
"""

from __future__ import annotations

import numpy as np

SIDE_INPUTS = 99
N_INPUTS = 2 * SIDE_INPUTS
UNIT = 64  # the board's fixed-point unit for an input value

_POINT_TABLE = np.zeros((16, 4), dtype=np.float32)
for _c in range(16):
    _POINT_TABLE[_c] = (_c >= 1, _c >= 2, _c >= 3, max(_c - 3, 0) / 2)
_PIP_WEIGHTS = np.arange(1, 26, dtype=np.float32)


def _side(half: np.ndarray) -> np.ndarray:
    n = half.shape[0]
    out = np.empty((n, SIDE_INPUTS), dtype=np.float32)
    out[:, :96] = _POINT_TABLE[half[:, :24]].reshape(n, 96)
    out[:, 96] = half[:, 24] / 2
    out[:, 97] = (15 - half.sum(axis=1)) / 16
    out[:, 98] = half @ _PIP_WEIGHTS / 64
    return out


def encode(boards: np.ndarray) -> np.ndarray:
    """Inputs for an (n, 50) array of boards, each seen by its player on roll (first 25)."""
    boards = boards.astype(np.intp, copy=False)
    return np.concatenate((_side(boards[:, :25]), _side(boards[:, 25:])), axis=1)


def encode_for_opponent(boards: np.ndarray) -> np.ndarray:
    """Inputs for positions just played by their first side, so the second is on roll."""
    boards = boards.astype(np.intp, copy=False)
    return np.concatenate((_side(boards[:, 25:]), _side(boards[:, :25])), axis=1)
