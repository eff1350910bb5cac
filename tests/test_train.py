"""The trainer's pieces agree with the board: the same moves as the rules engine, the same
inputs as the board's encoder, weights that the board reads back; training is reproducible
and resumes exactly."""

import json
import pickle
import random
import signal
import subprocess
import sys
import time
from array import array
from pathlib import Path

import numpy as np
import pytest
from gammon import Position, legal_plays
from kernels.net import Net as BoardNet
from kernels.net import _changes
from ledgammon.train.export import dequantized, write_weights
from ledgammon.train.features import N_INPUTS, UNIT, encode
from ledgammon.train.moves import START, successors, swap, win_value
from ledgammon.train.net import Net, equity
from ledgammon.train.td import Trainer

ROOT = Path(__file__).resolve().parent.parent


def _random_boards(n: int, seed: int) -> list[tuple[int, ...]]:
    rng = random.Random(seed)
    board, out = START, []
    while len(out) < n:
        nxt = rng.choice(successors(board, rng.randint(1, 6), rng.randint(1, 6)))
        if sum(nxt[:25]) == 0:
            board = START
            continue
        board = swap(nxt)
        out.append(board)
    return out


def test_successors_are_the_engines_results() -> None:
    rng = random.Random(4)
    for board in _random_boards(600, 1):
        roll = (rng.randint(1, 6), rng.randint(1, 6))
        plays = legal_plays(Position(bytes(board)), roll)
        expected = {p.result.key() for p in plays} or {bytes(board)}
        assert {bytes(b) for b in successors(board, *roll)} == expected


def test_win_values() -> None:
    mover_done = (0,) * 25
    assert win_value(mover_done + (14,) + (0,) * 23 + (1,)) == 3  # on the bar
    assert win_value(mover_done + (0,) * 18 + (15,) + (0,) * 6) == 3  # in the winner's home
    assert win_value(mover_done + (15,) + (0,) * 24) == 2
    assert win_value(mover_done + (14,) + (0,) * 24) == 1


def test_inputs_equal_the_boards_encoder() -> None:
    """The board lists a whole board's inputs as its changes from an empty board."""
    boards = _random_boards(300, 2)
    dense = encode(np.array(boards, dtype=np.uint8))
    act = array("H", bytes(4 * 200))
    empty = np.zeros(N_INPUTS)
    empty[97] = empty[99 + 97] = 15 / 16  # all fifteen borne off
    for board, row in zip(boards, dense, strict=True):
        n = _changes(bytes(50) + bytes(board), 0 | 25 << 8, act)
        mine = empty.copy()
        for k in range(n):
            mine[act[2 * k]] += (act[2 * k + 1] - 32768) / UNIT
        assert np.array_equal(mine, row.astype(np.float64))


def _trained(games: int = 30, hidden: int = 8) -> Trainer:
    t = Trainer(hidden, seed=3, games=games)
    while t.done < games:
        t.step()
    return t


def test_the_board_reads_the_weights_it_is_given(tmp_path: Path) -> None:
    net = Net(16, np.random.default_rng(7))
    net.w1 *= 20  # weights as large as a trained net's, so equities spread
    net.w2 *= 20
    net.b1 += 0.5
    path = tmp_path / "w.bin"
    size = write_weights(net, path)
    board = BoardNet(str(path))
    assert board.size == size == path.stat().st_size
    boards = _random_boards(200, 3)
    x = encode(np.array(boards, dtype=np.uint8))
    floats = equity(net.forward(x))
    rounded = equity(dequantized(net).forward(x))
    ints = np.array([board.equity(bytes(b), 0) for b in boards]) / 4096
    assert np.abs(ints - rounded).max() < 0.01  # the board's tables and integer sums
    assert np.abs(ints - floats).mean() < 0.03  # int8 weights
    assert floats.std() > 0.1  # equities that differ from board to board


def test_training_is_reproducible_and_resumes_exactly(tmp_path: Path) -> None:
    straight = _trained(games=6)
    first = Trainer(8, seed=3, games=6)
    for _ in range(4):
        first.step()
    first.save(tmp_path / "c.npz")
    resumed = Trainer.resume(tmp_path / "c.npz")
    assert resumed.done == 4 and resumed.dice.getstate() == first.dice.getstate()
    assert (resumed.total, resumed.rate0, resumed.lam) == (6, first.rate0, first.lam)
    while resumed.done < 6:
        resumed.step()
    for name in ("w1", "b1", "w2", "b2"):
        assert np.array_equal(getattr(straight.net, name), getattr(resumed.net, name)), name
    other = Trainer(8, seed=4, games=6)
    other.step()
    assert not np.array_equal(other.net.w1, Trainer(8, seed=3, games=6).net.w1)


def test_a_checkpoint_is_plain_arrays_and_json(tmp_path: Path) -> None:
    """No pickle: every entry loads with allow_pickle=False and the schedule is JSON text."""
    t = Trainer(4, seed=2, games=3)
    t.step()
    t.dice.gauss(0, 1)  # a generator holding a spare normal value keeps it too
    t.save(tmp_path / "c.npz")
    with np.load(tmp_path / "c.npz", allow_pickle=False) as data:
        assert sorted(data.files) == ["b1", "b2", "dice", "meta", "w1", "w2"]
        assert all(data[k].dtype != object for k in data.files)
        meta = json.loads(str(data["meta"]))
    assert meta["format"] == "ledgammon-td-1" and meta["done"] == 1
    assert Trainer.resume(tmp_path / "c.npz").dice.getstate() == t.dice.getstate()


@pytest.mark.parametrize("kind", ["pickle", "text", "wrong format"])
def test_a_file_that_is_not_a_checkpoint_is_refused(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "c.npz"
    if kind == "pickle":  # what checkpoints were before: a pickled state blob
        np.savez(path, w1=np.zeros((3, 2)), b1=np.zeros(2), w2=np.zeros((2, 5)),
                 b2=np.zeros(5), state=np.frombuffer(pickle.dumps((1, 2)), dtype=np.uint8))
    elif kind == "text":
        path.write_text("not an npz")
    else:
        Trainer(4, seed=2, games=3).save(path)
        with np.load(path) as data:
            arrays = dict(data)
        arrays["meta"] = np.array(json.dumps({"format": "other"}))
        np.savez(path, **arrays)
    with pytest.raises(ValueError, match="not a training checkpoint"):
        Trainer.resume(path)
    cmd = [sys.executable, "-m", "ledgammon.train", "--games", "1", "--checkpoint", str(path)]
    run = subprocess.run(cmd + ["--weights", str(tmp_path / "w")], capture_output=True,
                         text=True, cwd=ROOT)
    assert run.returncode == 2 and run.stderr.startswith("error: ") and len(
        run.stderr.splitlines()) == 1, run.stderr


def test_self_play_games_end_and_targets_are_probabilities() -> None:
    t = Trainer(8, seed=5, games=1)
    xs, outs, result = t.play_game()
    assert len(xs) == len(outs) > 10
    assert result[0] == 1 and result[3] == result[4] == 0
    g = t.targets(outs, result)
    assert g.shape == outs.shape and (g >= 0).all() and (g <= 1).all()
    assert np.array_equal(g[-1], result)


@pytest.mark.parametrize("bad", [b"", b"LGW2" + bytes(8), b"LGW1" + bytes(200)])
def test_the_board_refuses_other_files(tmp_path: Path, bad: bytes) -> None:
    path = tmp_path / "bad.bin"
    path.write_bytes(bad)
    with pytest.raises(ValueError):
        BoardNet(str(path))


def test_make_train_runs_resumes_and_writes_weights(tmp_path: Path) -> None:
    ck, w = tmp_path / "ck.npz", tmp_path / "w.bin"
    cmd = [sys.executable, "-m", "ledgammon.train", "--hidden", "6", "--every", "2"]
    cmd += ["--checkpoint", str(ck), "--weights", str(w)]
    run = subprocess.run(cmd + ["--games", "3"], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert "3 games; wrote" in run.stderr and BoardNet(str(w)).hidden == 6
    run = subprocess.run(cmd + ["--games", "5"], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert "resuming at game 3" in run.stderr and "5 games; wrote" in run.stderr


def test_make_train_saves_when_stopped(tmp_path: Path) -> None:
    """SIGTERM (or Ctrl-C) keeps the games played so far: the next run resumes from them."""
    ck = tmp_path / "ck.npz"
    cmd = [sys.executable, "-m", "ledgammon.train", "--hidden", "6", "--every", "2"]
    cmd += ["--games", "100000", "--checkpoint", str(ck), "--weights", str(tmp_path / "w")]
    proc = subprocess.Popen(cmd, cwd=ROOT, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not ck.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "stopped at game" in err and "run again to resume" in err
    assert Trainer.resume(ck).done >= 2
