"""The web page's plain-bytecode kernels (host/ledgammon/web/bundle.py) against viper's.

The page's MicroPython has no native emitter, so the bundle strips the kernels' viper
decorators and casts mechanically. Here the same seeded games (the board playing both sides
at both levels, every frame rendered, every save written) and the move generator's worst
cases run on the MicroPython unix port twice, once with the kernels as viper compiles them
and once as the page gets them, and must print the same lines.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from ledgammon.web import bundle

ROOT = Path(__file__).resolve().parent.parent
MICROPYTHON = os.path.join(os.path.dirname(sys.executable), "micropython")
GAMES = str(ROOT / "tests" / "web_games.py")
KERNEL = '''from kernels.compat import MICROPY

if MICROPY:
    import micropython


@micropython.viper
def f(buf, n: int) -> int:
    p = ptr8(buf)
    return int(p[0]) + int(len(buf)) + n


def g(x):
    return int(x[0])


@micropython.viper
def h(a) -> int:
    return int(ptr16(a)[1])
'''


def test_the_decorators_go_the_casts_come_and_the_lines_stay() -> None:
    out = bundle.plain_kernel(KERNEL)
    assert "@micropython" not in out
    assert len(out.split("\n")) == len(KERNEL.split("\n"))  # tracebacks keep their lines
    assert out.split("\n")[6] == bundle.IMPORT  # the first decorator's place
    assert "return p[0] + len(buf) + n" in out
    assert "return int(x[0])" in out  # outside a viper function, int() stays
    assert "return int(ptr16(a)[1])" in out  # a call inside: left as it is (harmless)


def test_an_unknown_decorator_or_cast_is_refused() -> None:
    with pytest.raises(ValueError, match="another form"):
        bundle.plain_kernel("@micropython.viper(1)\ndef f():\n    pass\n")
    with pytest.raises(ValueError, match="casts"):
        bundle.plain_kernel("def f(b):\n    return ptr8(b)\n")


def test_the_budget_is_rewritten_or_refused() -> None:
    src = "X = 1\nBUDGET = const(2400)  # evaluations\n"
    assert "BUDGET = const(50)  # evaluations" in bundle.with_budget(src, 50)
    assert bundle.with_budget(src, None) == src
    with pytest.raises(ValueError):
        bundle.with_budget("X = 1\n", 50)
    opp = bundle.files(77)["gammon/opponent.py"]
    assert "BUDGET = const(77)" in opp and "BUDGET = const(2400)" not in opp


def _run(paths: list[str], flash: Path) -> list[str]:
    flash.mkdir()
    proc = subprocess.run(
        [MICROPYTHON, "-X", "heapsize=4M", GAMES, ":".join(paths), str(flash) + "/", "14"],
        capture_output=True, text=True, timeout=240,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()


def test_plain_kernels_play_the_games_viper_plays(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    for rel, text in bundle.files(None).items():
        (plain / rel).parent.mkdir(parents=True, exist_ok=True)
        (plain / rel).write_text(text)
    (plain / "weights.bin").write_bytes((ROOT / "firmware" / "weights.bin").read_bytes())
    assert "@micropython.viper" not in (plain / "kernels" / "net.py").read_text()
    viper = _run([str(ROOT / "firmware"), str(ROOT / "native")], tmp_path / "f1")
    mine = _run([str(plain)], tmp_path / "f2")
    assert len(viper) > 100 and sum("over" in line for line in viper) >= 1
    assert mine == viper
