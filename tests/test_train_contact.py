"""The contact network's host encoder (ledgammon.train.contact) gives what the board will
compute: the contact inputs of firmware/gammon/features.py to the integer, on hypothesis's
legal boards (fuzzkit.boards) one at a time and in batches, on the edge positions
(tests/engine/feature_edges.py) and on positions of random play; then the raw 198 inputs
of features.encode and the contact inputs as fractions, for one board or many."""

from __future__ import annotations

import random

import numpy as np
import pytest
from feature_edges import edge_boards
from fuzzkit import boards, examples
from gammon import features as ref
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ledgammon.train.contact import (
    FEATURE_ONE,
    N_CONTACT_INPUTS,
    N_FEATURES,
    contact_features,
    encode_contact,
    encode_contact_batch,
)
from ledgammon.train.features import N_INPUTS, encode
from ledgammon.train.moves import START, successors, swap

SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _want(batch: list[bytes]) -> np.ndarray:
    return np.array([list(ref.inputs(b)) for b in batch], dtype=np.int64)


def _array(batch: list[bytes]) -> np.ndarray:
    return np.array([list(b) for b in batch], dtype=np.uint8)


@settings(SETTINGS, max_examples=examples(300))
@given(st.lists(boards(), min_size=1, max_size=40))
def test_a_batch_gives_the_reference_integers(batch: list[bytes]) -> None:
    got = contact_features(_array(batch))
    assert got.dtype == np.int32 and got.shape == (len(batch), N_FEATURES)
    assert np.array_equal(got, _want(batch))


def test_the_edges_and_random_play_give_the_reference_integers() -> None:
    rng = random.Random(30)
    played, board = [], START
    while len(played) < 3000:  # the trainer's own boards: tuples, the mover first
        nxt = rng.choice(successors(board, rng.randint(1, 6), rng.randint(1, 6)))
        board = START if sum(nxt[:25]) == 0 else swap(nxt)
        played.append(bytes(board))
    batch = edge_boards() + played
    assert np.array_equal(contact_features(_array(batch)), _want(batch))


def test_the_encoding_is_the_raw_inputs_then_the_contact_inputs() -> None:
    batch = edge_boards()
    enc = encode_contact_batch(_array(batch))
    assert enc.dtype == np.float32 and enc.shape == (len(batch), N_CONTACT_INPUTS)
    assert np.array_equal(enc[:, :N_INPUTS], encode(_array(batch)))
    assert np.array_equal(enc[:, N_INPUTS:] * FEATURE_ONE, _want(batch))  # exact: /4096
    one = encode_contact(START)
    assert one.shape == (N_CONTACT_INPUTS,)
    assert np.array_equal(one, encode_contact(bytes(START)))
    assert np.array_equal(one, encode_contact_batch(np.array([START]))[0])
    assert one[N_INPUTS + 3] == 1.0  # the start's pips to break contact: 167 of 167


def test_a_board_of_another_shape_is_refused() -> None:
    with pytest.raises(ValueError, match="n, 50"):
        contact_features(np.zeros((3, 49), dtype=np.int64))
    with pytest.raises(ValueError, match="n, 50"):
        contact_features(np.zeros(50, dtype=np.int64))
