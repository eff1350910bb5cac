"""The emulated Pico (emulator/, host/ledgammon/chip.py, bench/chip/run.py) where neither the
Pico's MicroPython image nor the RP2040 bootrom exists (CI): the runner's pieces against
fakes (node's own test runner: the USB CDC bridge, flash persistence, the bootrom's flash
routines, the buttons and pulls, the strip's frames, the heap), and every entry point
refusing clearly, in one line, what it is not given."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from ledgammon import chip
from ledgammon.cli import main
from ledgammon.errors import SimulatorError

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), ".."))
EMULATOR = os.path.join(ROOT, "emulator")
NODE = shutil.which("node") or "node"  # the Makefile's npm needs it too


def test_runner_pieces_against_fakes():
    proc = subprocess.run(
        [NODE, "--test", "test/"], cwd=EMULATOR, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert "# fail 0" in proc.stdout
    assert "# pass " in proc.stdout and "# pass 0" not in proc.stdout


def error_of(capsys, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    err = capsys.readouterr().err
    assert err.startswith("ledgammon: ") and err.count("\n") == 1, err
    return code, err


def test_sim_image_refuses_what_is_missing(capsys, tmp_path):
    flash = str(tmp_path / "flash")
    image = tmp_path / "firmware.uf2"
    code, err = error_of(capsys, "sim", "--image", str(image), "--bootrom", "x", "--flash", flash)
    assert code == 6 and "no such image" in err and str(image) in err
    image.write_bytes(b"\0" * 512)
    old = os.environ.pop("LEDGAMMON_BOOTROM", None)
    try:
        code, err = error_of(capsys, "sim", "--image", str(image), "--flash", flash)
    finally:
        if old is not None:
            os.environ["LEDGAMMON_BOOTROM"] = old
    assert code == 6 and "no bootrom" in err
    code, err = error_of(capsys, "sim", "--image", str(image), "--bootrom", str(tmp_path / "b"),
                         "--flash", flash)
    assert code == 6 and "no such bootrom" in err
    code, err = error_of(capsys, "sim", "--image", str(image), "--python")
    assert code == 1 and "--python is for the unix-port simulator" in err
    code, err = error_of(capsys, "sim", "--image", str(image), "--board", "esp32s3")
    assert code == 1 and "--board pico only" in err


def test_runner_without_its_npm_packages_says_how_to_get_them(tmp_path, monkeypatch):
    here = tmp_path / "emulator"
    here.mkdir()
    (here / "pico.mjs").write_text("")
    monkeypatch.setenv("LEDGAMMON_EMULATOR", str(here))
    image = tmp_path / "x.uf2"
    image.write_bytes(b"")
    with pytest.raises(SimulatorError, match="make emulator"):
        chip.runner_command(str(image), str(image), str(tmp_path / "flash.bin"))


def test_runner_refuses_a_file_that_is_no_image(tmp_path):
    image = tmp_path / "x.uf2"
    image.write_bytes(b"\0" * 1024)
    rom = tmp_path / "rom.bin"
    rom.write_bytes(b"\0" * 16384)
    pico = chip.EmulatedPico(str(image), str(rom), str(tmp_path / "f" / "flash.bin"),
                             stderr=subprocess.PIPE)
    assert os.path.isdir(os.path.join(EMULATOR, "node_modules", "rp2040js")), "make emulator"
    with pytest.raises(SimulatorError, match="stopped at start"):
        pico.start(timeout=60)
    assert pico.proc is not None and pico.proc.stderr is not None
    assert b"no UF2 magic numbers" in pico.proc.stderr.read()


def test_button_wires_follow_the_board_module():
    wires = chip.button_wires("pico")
    assert wires["p1"] == (2, 7) and wires["ROLL"] == (6, 9) and len(wires) == 30
    minimal = chip.button_wires("pico", "minimal")
    assert minimal["SELECT"] == (15, -1) and set(minimal) == {
        "LEFT", "RIGHT", "SELECT", "ROLL", "UNDO"}


def test_elf_beside_its_image(tmp_path):
    image = tmp_path / "firmware.uf2"
    assert chip.elf_beside(str(image)) is None
    (tmp_path / "firmware.elf").write_bytes(b"")
    assert chip.elf_beside(str(image)) == str(tmp_path / "firmware.elf")


def bench(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bench.chip", *argv], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def test_make_chip_refuses_without_its_images(tmp_path):
    proc = bench("--build", str(tmp_path))
    assert proc.returncode == 2
    assert "make chip needs --stock, --frozen, --bootrom" in proc.stderr
    assert proc.stderr.count("\n") == 1 and not (tmp_path / "chip.json").exists()
    proc = bench("--stock", str(tmp_path / "s.uf2"), "--frozen", "f", "--bootrom", "b",
                 "--build", str(tmp_path))
    assert proc.returncode == 2 and "no such file" in proc.stderr and "s.uf2" in proc.stderr


def test_make_chip_target_passes_the_variables():
    proc = subprocess.run(["make", "-n", "chip", "CHIP_STOCK=a.uf2", "CHIP_FROZEN=b.uf2",
                           "CHIP_BOOTROM=rom.bin"], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "-m bench.chip --stock a.uf2" in proc.stdout
    assert "--frozen b.uf2" in proc.stdout and "--bootrom rom.bin" in proc.stdout
