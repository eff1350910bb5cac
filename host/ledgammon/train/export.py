"""Writes a trained network as the board's weight file: fixed-point integers, no floats.

Layout (little-endian), read by `firmware/gammon/net.py`:
  b"LGW1", inputs (u16), hidden (u8), outputs (u8), shift1 (u8), shift2 (u8), 2 spare bytes
  w1: int16[inputs + 1][hidden]  w * 2**shift1, input-major; the last row is the bias
                                 (an input that is always 1, i.e. 64 in the 1/64 units)
  w2: int16[outputs][hidden + 1] w * 2**shift2; hidden activations count in 1/4096 and
                                 the last column is the bias (a unit always at 4096)
The shifts are as large as int16 allows and small enough that no sum of products can
pass 2**30, so the board's 32-bit integers never overflow.
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

from .features import UNIT
from .net import Net

MAGIC = b"LGW1"
HIDDEN_ONE = 4096  # a hidden activation of 1.0 on the board


def _shift(w: np.ndarray, largest: np.ndarray) -> int:
    """The largest power of two keeping weights in int16 and every column's sum under 2**30.

    `w` has one column per unit fed; `largest` is each row's largest input value.
    """
    top = float(np.abs(w).max()) or 1.0
    worst = float((np.abs(w) * largest[:, None]).sum(axis=0).max()) or 1.0
    s = 0
    while s < 14 and top * 2 ** (s + 1) < 32767 and worst * 2 ** (s + 1) < 2**30:
        s += 1
    return s


def largest_inputs() -> np.ndarray:
    """Each input's largest value in 1/64 units (then the bias input's 64)."""
    side = [UNIT, UNIT, UNIT, UNIT * 6] * 24 + [UNIT * 15 // 2, UNIT * 15 // 16, 375]
    return np.array(side * 2 + [UNIT], dtype=np.float64)


def fixed_point(net: Net) -> tuple[np.ndarray, np.ndarray, int, int]:
    """(w1 with its bias row, w2 with its bias column, shift1, shift2) as the board uses them."""
    w1 = np.vstack((net.w1, net.b1[None, :])).astype(np.float64)
    w2 = np.hstack((net.w2.T, net.b2[:, None])).astype(np.float64)
    s1 = _shift(w1, largest_inputs())
    s2 = _shift(w2.T, np.full(w2.shape[1], float(HIDDEN_ONE)))
    return (
        np.round(w1 * 2**s1).astype("<i2"),
        np.round(w2 * 2**s2).astype("<i2"),
        s1,
        s2,
    )


def weight_bytes(net: Net) -> bytes:
    w1, w2, s1, s2 = fixed_point(net)
    head = MAGIC + struct.pack("<HBBBBxx", net.w1.shape[0], net.hidden, w2.shape[0], s1, s2)
    return head + w1.tobytes() + w2.tobytes()


def write_weights(net: Net, path: Path) -> int:
    """Writes the file atomically; returns its size in bytes."""
    data = weight_bytes(net)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)
    return len(data)
