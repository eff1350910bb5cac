"""The contact network's inputs for training: the board's 198 raw inputs, then the contact
inputs of `gammon/features.py`, for many positions at once with numpy.

The contact inputs are GNU Backgammon's half inputs (eval.c's CalculateHalfInputs) as the
firmware's reference defines them, 18 a side, the side on roll's first: checkers off, the
pips to break contact, the back checker and anchors, the escapes and containment, the
mobility, the spread, the bar, the back game, the pips. `contact_features` gives the very
integers of the reference and of the board's kernel (`native/kernels/features.py`), in
units of 1/4096; `encode_contact` divides them by 4096 after the raw inputs, so a network
trained here reads what the board will compute. tests/test_train_contact.py holds them to
the reference. Each step below is the reference's, over a column of positions: a side's
points held are a 24-bit mask, and a checker of the other side on its index j has the
points 1-12 pips ahead of it at bits 24 - j .. 35 - j of that mask.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .features import N_INPUTS, encode

FEATURE_ONE = 4096  # the contact inputs' unit (gammon/features.py's ONE)
SIDE_FEATURES = 18  # a side's contact inputs
N_FEATURES = 2 * SIDE_FEATURES
N_CONTACT_INPUTS = N_INPUTS + N_FEATURES


def _escapes_table() -> np.ndarray:
    """For each 12-bit mask of the points 1-12 pips ahead that the other side holds (bit k:
    k + 1 pips), the rolls of 36 that carry a checker past them: the point d1 + d2 ahead
    open, and d1 or d2 ahead open."""
    t = np.zeros(4096, dtype=np.int64)
    for mask in range(4096):
        for d1 in range(1, 7):
            for d2 in range(1, 7):
                far = mask >> (d1 + d2 - 1) & 1
                both = mask >> (d1 - 1) & mask >> (d2 - 1) & 1
                t[mask] += int(not far and not both)
    return t


_ESCAPES = _escapes_table()
_INDEX = np.arange(25, dtype=np.int64)
_BITS = np.int64(1) << np.arange(24, dtype=np.int64)


def _frac(num: np.ndarray, den: int) -> np.ndarray:
    """num / den in 1/4096, rounded half up (gammon/features.py's _frac, for num >= 0)."""
    return (num * 8192 + den) // (2 * den)


def _last(mask: np.ndarray, index: np.ndarray) -> np.ndarray:
    """The highest of `index` where `mask` holds, row by row; -1 where it never does."""
    return np.where(mask, index, -1).max(axis=1, initial=-1)


def _side(me: np.ndarray, opp: np.ndarray) -> np.ndarray:
    """The (n, 18) contact inputs of the sides `me` against `opp`, (n, 25) counts each."""
    n = me.shape[0]
    out = np.zeros((n, SIDE_FEATURES), dtype=np.int64)
    on = me.sum(axis=1)
    off = 15 - on
    out[:, 0] = _frac(np.minimum(off, 5), 5)
    out[:, 1] = _frac(np.clip(off - 5, 0, 5), 5)
    out[:, 2] = _frac(np.maximum(off - 10, 0), 5)
    oback = _last(opp > 0, _INDEX)  # the opponent's rearmost, its numbering (-1: none)
    ob = 23 - oback  # in this side's numbering
    beyond = _INDEX[None, :] > ob[:, None]
    out[:, 3] = _frac((me * (_INDEX[None, :] + 1 - ob[:, None]) * beyond).sum(axis=1), 167)
    out[:, 4] = _frac(np.maximum(_last(me > 0, _INDEX), 0), 24)
    held_points = me[:, :24] >= 2
    out[:, 5] = _frac(_last(held_points, _INDEX[:24]) + 1, 24)
    home = held_points[:, 18:24]  # the opponent's points 6 down to 1
    outfield = held_points[:, 12:18]  # its points 12 down to 7
    k_home = 6 - home.argmax(axis=1)  # the first held from index 18: the opponent's 6 point
    k_out = 7 + outfield[:, ::-1].argmax(axis=1)  # the first held from index 17: its 7
    fwd = np.where(outfield.any(axis=1), _frac(k_out, 6), 2 * FEATURE_ONE)
    out[:, 6] = np.where(home.any(axis=1), _frac(k_home, 6), fwd)
    held = held_points.astype(np.int64) @ _BITS  # bit i: this side holds its index i
    oheld = (opp[:, :24] >= 2).astype(np.int64) @ _BITS
    out[:, 7] = _frac(_ESCAPES[(held >> (24 - oback)) & 4095], 36)
    # the opponent's checker on its index j, 15 (this side's 9 point) to 24 (its bar)
    esc = np.stack([_ESCAPES[(held >> (24 - j)) & 4095] for j in range(15, 25)], axis=1)
    reached = np.arange(15, 25)[None, :] <= oback[:, None]
    least = np.where(reached, esc, 36).min(axis=1)
    least_all = esc[:, :9].min(axis=1)
    out[:, 8] = _frac(36 - least, 36)
    out[:, 9] = _frac((36 - least) ** 2, 1296)
    out[:, 10] = _frac(36 - least_all, 36)
    out[:, 11] = _frac((36 - least_all) ** 2, 1296)
    mob = np.zeros(n, dtype=np.int64)
    for i in range(6, 25):
        mob += me[:, i] * _ESCAPES[(oheld >> (24 - i)) & 4095] * (i - 5)
    out[:, 12] = _frac(mob, 3600)
    pips = me @ (_INDEX + 1)
    mean = np.where(on > 0, (pips - 1) // np.maximum(on, 1), 0)  # the mean index, up
    past = _INDEX[None, :] > mean[:, None]
    count = (me * past).sum(axis=1)
    num = (me * (_INDEX[None, :] - mean[:, None]) ** 2 * past).sum(axis=1)
    square = (num + count - 1) // np.maximum(count, 1)  # the mean square, up
    out[:, 13] = np.where(count > 0, _frac(square, 400), 0)
    closed = (opp[:, :6] >= 2).sum(axis=1)
    out[:, 14] = _frac(closed * (12 - closed), 36)
    points = home.sum(axis=1)
    there = me[:, 18:25].sum(axis=1)
    out[:, 15] = np.where(points >= 2, _frac(np.maximum(there - 3, 0), 4), 0)
    out[:, 16] = np.where(points == 1, _frac(there, 8), 0)
    out[:, 17] = _frac(pips, 167)
    return out


def contact_features(boards: np.ndarray) -> np.ndarray:
    """The (n, 36) contact inputs (int32, in 1/4096) of an (n, 50) array of boards, each
    seen by its side on roll (its first 25 counts), whose 18 come first: the integers of
    gammon.features.inputs."""
    b = np.asarray(boards, dtype=np.int64)
    if b.ndim != 2 or b.shape[1] != 50:
        raise ValueError("boards must be an (n, 50) array, got %r" % (b.shape,))
    me, opp = b[:, :25], b[:, 25:]
    return np.concatenate((_side(me, opp), _side(opp, me)), axis=1).astype(np.int32)


def encode_contact_batch(boards: np.ndarray) -> np.ndarray:
    """The contact network's (n, 234) inputs (float32): the raw 198 (features.encode), then
    the 36 contact inputs as fractions."""
    b = np.asarray(boards)
    return np.concatenate(
        (encode(b), contact_features(b).astype(np.float32) / FEATURE_ONE), axis=1
    )


def encode_contact(position: Sequence[int] | bytes) -> np.ndarray:
    """The contact network's 234 inputs (float32) for one board: 50 counts, the side on
    roll's first (a moves.Board, or gammon.Position.key()'s bytes)."""
    return encode_contact_batch(np.asarray([list(position)]))[0]
