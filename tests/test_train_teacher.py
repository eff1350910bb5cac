"""The training's second stage: gnubg's labels seen from the right side, positions that are
legal results of play, a fit that learns them and resumes exactly, and its command."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from gammon import Position, legal_plays
from kernels.net import Net as BoardNet
from ledgammon.train.export import dequantized, read_weights, write_weights
from ledgammon.train.moves import START, swap
from ledgammon.train.net import Net
from ledgammon.train.teacher import (
    KEEP,
    Fit,
    Gnubg,
    grown,
    held_out_error,
    load_positions,
    positions,
    save_positions,
)

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def gnubg() -> Gnubg:
    return Gnubg()


@pytest.fixture(scope="module")
def data(gnubg: Gnubg) -> tuple[np.ndarray, np.ndarray]:
    return positions(gnubg, 12, seed=5)


def test_labels_are_for_the_side_on_roll_after_the_play(gnubg: Gnubg) -> None:
    # The mover has played and waits with all 15 on its 24 point; the side on roll has two
    # checkers left on its 1 point and bears off with any roll: it wins a backgammon.
    mover = (0,) * 23 + (15, 0)
    on_roll = (2,) + (0,) * 24
    out = gnubg.after_play(mover + on_roll)
    assert out[0] > 0.999 and out[1] > 0.999 and out[2] > 0.999
    assert out[3] < 0.001 and out[4] < 0.001
    opening = gnubg.after_play(swap(START))  # the start: even chances, whoever is on roll
    assert 0.45 < opening[0] < 0.6


def test_positions_are_legal_results_with_probabilities(
    data: tuple[np.ndarray, np.ndarray],
) -> None:
    boards, outputs = data
    assert boards.shape[1] == 50 and outputs.shape == (len(boards), 5) and len(boards) > 12 * 100
    start = Position(bytes(START))
    results = {p.result.key() for d in range(1, 7) for e in range(1, 7)
               for p in legal_plays(start, (d, e))}
    assert bytes(boards[0]) in results  # the first turn's plays come from the start
    assert (boards[:, :25].sum(axis=1) > 0).all()  # never a game already over
    assert (boards[:, :25].sum(axis=1) <= 15).all() and (boards[:, 25:].sum(axis=1) <= 15).all()
    assert ((outputs >= 0) & (outputs <= 1)).all()
    assert (outputs[:, 1] <= outputs[:, 0] + 1e-6).all()  # a gammon is a win
    assert (outputs[:, 2] <= outputs[:, 1] + 1e-6).all()
    assert len(np.unique(boards, axis=0)) > len(boards) // 2  # play kept going, not one turn


def test_positions_are_reproducible_and_keep_at_most_sixteen_plays_a_turn(gnubg: Gnubg) -> None:
    a = positions(gnubg, 2, seed=9)
    b = positions(gnubg, 2, seed=9)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    assert not np.array_equal(positions(gnubg, 2, seed=10)[0][:50], a[0][:50])
    # The first turn of a game: at most KEEP of the roll's plays (only then is the side
    # on roll after the play still at the start).
    one = positions(gnubg, 1, seed=9)[0]
    first = one[(one[:, 25:] == START[25:]).all(axis=1)]
    assert 1 <= len(first) <= KEEP and np.array_equal(first, a[0][:len(first)])


def test_saved_positions_are_used_only_for_the_same_games_and_seed(
    tmp_path: Path, data: tuple[np.ndarray, np.ndarray]
) -> None:
    path = tmp_path / "p.npz"
    save_positions(path, *data, games=12, seed=5)
    back = load_positions(path, 12, 5)
    assert back is not None and np.array_equal(back[0], data[0])
    assert load_positions(path, 13, 5) is None and load_positions(path, 12, 6) is None
    path.write_text("not an npz")
    assert load_positions(path, 12, 5) is None


def test_a_fit_learns_the_teacher_and_resumes_exactly(
    tmp_path: Path, data: tuple[np.ndarray, np.ndarray]
) -> None:
    boards, outputs = data
    start = Net(8, np.random.default_rng(2))
    before = held_out_error(start, boards, outputs)
    straight = Fit(_copy(start), epochs=4, seed=4, rate=0.01, batch=32)
    for _ in range(4):
        straight.epoch(boards, outputs)
    # 0.80 at the start, 0.76 once the mean is learnt (what a net that only learnt the
    # average position would show), about 0.45 after the four epochs
    assert held_out_error(straight.net, boards, outputs) < 0.65 * before

    stopped = Fit(_copy(start), epochs=4, seed=4, rate=0.01, batch=32)
    stopped.epoch(boards, outputs)
    stopped.save(tmp_path / "fit.npz")
    resumed = Fit.resume(tmp_path / "fit.npz")
    assert (resumed.done, resumed.steps, resumed.batch) == (1, stopped.steps, 32)
    while resumed.done < 4:
        resumed.epoch(boards, outputs)
    for name in ("w1", "b1", "w2", "b2"):
        assert np.array_equal(getattr(straight.net, name), getattr(resumed.net, name)), name


def _copy(net: Net) -> Net:
    out = Net(net.hidden)
    out.w1, out.b1, out.w2, out.b2 = (x.copy() for x in (net.w1, net.b1, net.w2, net.b2))
    return out


def test_a_weight_file_reads_back_as_its_rounded_network(tmp_path: Path) -> None:
    net = Net(12, np.random.default_rng(3))
    net.w1 *= 20
    write_weights(net, tmp_path / "w.bin")
    back, rounded = read_weights(tmp_path / "w.bin"), dequantized(net)
    for name in ("w1", "b1", "w2", "b2"):
        assert np.array_equal(getattr(back, name), getattr(rounded, name)), name
    (tmp_path / "bad.bin").write_bytes((tmp_path / "w.bin").read_bytes()[:-1])
    with pytest.raises(ValueError, match="not a board weight file"):
        read_weights(tmp_path / "bad.bin")


def _teach(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "ledgammon.train.teacher", "--games", "3", "--seed", "2"]
    cmd += ["--data", str(tmp_path / "p.npz"), "--checkpoint", str(tmp_path / "ck.npz")]
    cmd += ["--weights", str(tmp_path / "w.bin")]
    return subprocess.run(cmd + list(args), capture_output=True, text=True, cwd=ROOT)


def test_the_command_refines_a_weight_file_and_resumes(tmp_path: Path) -> None:
    start = Net(6, np.random.default_rng(1))
    write_weights(start, tmp_path / "start.bin")
    run = _teach(tmp_path, "--init", str(tmp_path / "start.bin"), "--epochs", "1")
    assert run.returncode == 0, run.stderr
    assert "1 epochs; wrote" in run.stderr and BoardNet(str(tmp_path / "w.bin")).hidden == 6
    run = _teach(tmp_path, "--epochs", "2")  # resumes: neither --init nor the games again
    assert run.returncode == 0, run.stderr
    assert "resuming at epoch 1" in run.stderr and "2 epochs; wrote" in run.stderr
    assert "positions [" not in run.stderr  # the saved positions were used
    assert (tmp_path / "w.bin").read_bytes() != (tmp_path / "start.bin").read_bytes()
    assert len(np.load(tmp_path / "p.npz")["boards"]) > 3 * 100


def test_a_grown_network_starts_with_the_same_outputs_and_can_learn_more() -> None:
    small = Net(6, np.random.default_rng(1))
    big = grown(small, 10, seed=4)
    x = np.random.default_rng(2).uniform(0, 1, (50, small.w1.shape[0])).astype(np.float32)
    assert big.hidden == 10 and np.allclose(big.forward(x), small.forward(x), atol=1e-6)
    assert np.abs(big.w1[:, 6:]).max() > 0  # the new units see the inputs ...
    assert not big.w2[6:].any()  # ... and start with no say in the outputs
    assert grown(small, 6, seed=4) is small
    with pytest.raises(ValueError, match="cannot shrink"):
        grown(small, 4, seed=4)


def test_the_command_grows_the_network_it_refines(tmp_path: Path) -> None:
    write_weights(Net(6, np.random.default_rng(1)), tmp_path / "start.bin")
    run = _teach(tmp_path, "--init", str(tmp_path / "start.bin"), "--epochs", "1",
                 "--hidden", "9")
    assert run.returncode == 0, run.stderr
    assert BoardNet(str(tmp_path / "w.bin")).hidden == 9  # the board reads the larger file


@pytest.mark.parametrize("what", ["no start", "bad checkpoint"])
def test_the_command_says_what_is_wrong_in_one_line(tmp_path: Path, what: str) -> None:
    if what == "bad checkpoint":
        (tmp_path / "ck.npz").write_text("not a checkpoint")
    run = _teach(tmp_path, "--init", str(tmp_path / "missing.npz"))
    assert run.returncode == 2 and run.stderr.startswith("error: ")
    assert len(run.stderr.splitlines()) == 1, run.stderr
    expected = "not a teacher checkpoint" if what == "bad checkpoint" else "run the self-play"
    assert expected in run.stderr, run.stderr
