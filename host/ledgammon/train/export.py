"""Writes a trained network as the board's weight file: fixed-point integers, no floats.

Layout (little-endian), read by `native/kernels/net.py`:
  b"LGW2", inputs (u16), hidden (u8), outputs (u8), shift2 (u8), 3 spare bytes
  scales: (u8 m, u8 e)[hidden]    hidden unit j's input weights are w8 * m / 2**e
  w1: int8[inputs + 1][hidden]    input-major; the last row is the bias (an input that is
                                  always 1, i.e. 64 in the board's 1/64 units)
  w2: int16[outputs][hidden + 1]  w * 2**shift2; hidden activations count in 1/4096 and
                                  the last column is the bias (a unit always at 4096)
The input weights take one byte each (half the heap of int16) with a scale per hidden unit,
a mantissa of 128-255 and a power of two, so every unit keeps eight bits of precision.
Scales and shifts keep every possible sum of products under 2**29: the board's 32-bit
integers never overflow, even while it adds and removes changes to a stored sum.
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

from .features import UNIT
from .net import Net

MAGIC = b"LGW2"
LIMIT = 2**29
HIDDEN_ONE = 4096  # a hidden activation of 1.0 on the board


def _shift(w: np.ndarray, largest: np.ndarray) -> int:
    """The largest power of two keeping weights in int16 and every column's sum under 2**29.

    `w` has one column per unit fed; `largest` is each row's largest input value.
    """
    top = float(np.abs(w).max()) or 1.0
    worst = float((np.abs(w) * largest[:, None]).sum(axis=0).max()) or 1.0
    s = 0
    while s < 14 and top * 2 ** (s + 1) < 32767 and worst * 2 ** (s + 1) < LIMIT:
        s += 1
    return s


def largest_inputs() -> np.ndarray:
    """Each input's largest value in 1/64 units (then the bias input's 64)."""
    side = [UNIT, UNIT, UNIT, UNIT * 6] * 24 + [UNIT * 15 // 2, UNIT * 15 // 16, 375]
    return np.array(side * 2 + [UNIT], dtype=np.float64)


def _column_scale(col: np.ndarray, largest: np.ndarray) -> tuple[int, int]:
    """(m, e) with m in 128-255 so that col * 2**e / m fills int8, and no sum can overflow."""
    top = float(np.abs(col).max()) or 1e-9
    e = 0
    while e < 28 and top * 2 ** (e + 1) <= 127 * 255:  # then m = top * 2**e / 127 <= 255
        e += 1
    m = min(255, max(128, int(np.ceil(top * 2**e / 127))))
    while float((np.abs(np.round(col * 2**e / m)) * largest).sum()) * m >= LIMIT:
        e -= 1  # a coarser scale: impossible with trained weights, checked all the same
    return m, e


def fixed_point(net: Net) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """(scales, int8 w1 with its bias row, int16 w2 with its bias column, shift2)."""
    w1 = np.vstack((net.w1, net.b1[None, :])).astype(np.float64)
    w2 = np.hstack((net.w2.T, net.b2[:, None])).astype(np.float64)
    largest = largest_inputs()
    scales = np.array([_column_scale(w1[:, j], largest) for j in range(w1.shape[1])])
    q1 = np.round(w1 * 2.0 ** scales[:, 1] / scales[:, 0])
    if scales[:, 1].min() < 0 or np.abs(q1).max() > 127:
        raise ValueError("weights too large for the board's int8 format")
    s2 = _shift(w2.T, np.full(w2.shape[1], float(HIDDEN_ONE)))
    return (
        scales.astype("u1"),
        q1.astype("i1"),
        np.round(w2 * 2**s2).astype("<i2"),
        s2,
    )


def dequantized(net: Net) -> Net:
    """The network with the board's rounded weights, for measuring what rounding costs."""
    return _from_fixed(net.hidden, *fixed_point(net))


def weight_bytes(net: Net) -> bytes:
    scales, q1, q2, s2 = fixed_point(net)
    head = MAGIC + struct.pack("<HBBBxxx", net.w1.shape[0], net.hidden, q2.shape[0], s2)
    return head + scales.tobytes() + q1.tobytes() + q2.tobytes()


def read_weights(path: Path) -> Net:
    """A board weight file as a floating-point network (its rounded weights): where the
    training's second stage can start from the weights that ship."""
    data = path.read_bytes()
    if data[:4] != MAGIC or len(data) < 12:
        raise ValueError("%s is not a board weight file" % path)
    inputs, hidden, outputs, s2 = struct.unpack_from("<HBBB", data, 4)
    sizes = (2 * hidden, (inputs + 1) * hidden, 2 * outputs * (hidden + 1))
    if len(data) != 12 + sum(sizes):
        raise ValueError("%s is not a board weight file (%d bytes)" % (path, len(data)))
    scales = np.frombuffer(data, "u1", sizes[0], 12).reshape(hidden, 2)
    q1 = np.frombuffer(data, "i1", sizes[1], 12 + sizes[0]).reshape(inputs + 1, hidden)
    q2 = np.frombuffer(data, "<i2", sizes[2] // 2, 12 + sizes[0] + sizes[1])
    return _from_fixed(hidden, scales, q1, q2.reshape(outputs, hidden + 1), s2)


def _from_fixed(hidden: int, scales: np.ndarray, q1: np.ndarray, q2: np.ndarray, s2: int) -> Net:
    out = Net(hidden)
    w1 = q1.astype(np.float64) * scales[:, 0] / 2.0 ** scales[:, 1]
    out.w1, out.b1 = w1[:-1].astype(np.float32), w1[-1].astype(np.float32)
    w2 = (q2.astype(np.float64) / 2**s2).T
    out.w2, out.b2 = w2[:-1].astype(np.float32), w2[-1].astype(np.float32)
    return out


def write_weights(net: Net, path: Path) -> int:
    """Writes the file atomically; returns its size in bytes."""
    data = weight_bytes(net)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)
    return len(data)
