"""`ledgammon deploy`'s bear-off table, sized to the board's filesystem: on a stock Pico the
code's files leave no room for the whole table of 15 checkers (make chip: "No space left on
device" on the emulated RP2040), so deploy asks the board its room after copying the code
and copies the largest table that fits (a table of fewer checkers is the start of the same
table), or none."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys

import pytest
from conftest import BEAROFF
from ledgammon import deploy
from ledgammon.errors import DeployError
from ledgammon.train.bearoff_table import CHECKERS
from mpytools import MICROPYTHON, MPY_CROSS, require

BLOCK = 4096


def blocks(size: int) -> int:
    return -(-size // BLOCK) + 1 + deploy.RESERVE_BLOCKS


def test_the_most_checkers_whose_table_fits_with_blocks_to_spare():
    sizes = {n: n * 10 * BLOCK for n in range(1, CHECKERS + 1)}
    assert deploy.fit_table(BLOCK, 10_000, sizes.__getitem__) == CHECKERS
    assert deploy.fit_table(BLOCK, blocks(sizes[14]), sizes.__getitem__) == 14
    assert deploy.fit_table(BLOCK, blocks(sizes[14]) - 1, sizes.__getitem__) == 13
    assert deploy.fit_table(BLOCK, blocks(sizes[1]) - 1, sizes.__getitem__) == 0
    assert deploy.fit_table(BLOCK, 0, sizes.__getitem__) == 0


def test_the_boards_room_is_read_from_what_micropython_prints():
    proc = subprocess.run([require(MICROPYTHON), "-c", deploy.ROOM_CODE], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    room = deploy.parse_room(proc.stdout)
    assert room is not None and room[0] > 0 and room[1] > 0
    assert deploy.parse_room("Traceback ...\nOSError: 19\n") is None
    assert deploy.parse_room("room 4096\n") is None


FAKE = '''#!%s
"""mpremote as a board with FREE blocks of 4 KB: logs each call, answers the room."""
import os, sys
with open(os.environ["FAKE_LOG"], "a") as log:
    log.write(repr(sys.argv[1:]) + "\\n")
    if sys.argv[-3:-1] == ["cp", "bearoff.bin"]:
        log.write("table %%d\\n" %% os.path.getsize("bearoff.bin"))
if "statvfs" in sys.argv[-1]:
    print("room 4096", os.environ["FAKE_FREE"])
'''


def _deploy(tmp_path, free: int, capsys) -> tuple[list[str], str]:
    tool = tmp_path / "mpremote"
    tool.write_text(FAKE % sys.executable)
    tool.chmod(tool.stat().st_mode | stat.S_IEXEC)
    build = tmp_path / "build"
    build.mkdir(exist_ok=True)
    shutil.copyfile(BEAROFF, build / "bearoff.bin")  # the whole table, made once
    log = tmp_path / "log"
    os.environ["FAKE_LOG"], os.environ["FAKE_FREE"] = str(log), str(free)
    try:
        deploy.deploy("socket://127.0.0.1:1", "pico", str(build), mpremote=str(tool))
    finally:
        del os.environ["FAKE_LOG"], os.environ["FAKE_FREE"]
    return log.read_text().splitlines(), capsys.readouterr().out


def test_a_board_with_room_for_the_whole_table_gets_it(tmp_path, capsys):
    require(MPY_CROSS)
    log, out = _deploy(tmp_path, blocks(os.path.getsize(BEAROFF)), capsys)
    assert "table %d" % os.path.getsize(BEAROFF) in log
    assert "all 15 checkers" in out
    assert "reset" in log[-1]


def test_a_stock_picos_room_gets_the_largest_table_that_fits(tmp_path, capsys):
    require(MPY_CROSS)
    from ledgammon.train.bearoff_table import table

    fourteen = len(table(14))
    log, out = _deploy(tmp_path, blocks(fourteen) + 3, capsys)
    assert "table %d" % fourteen in log  # the start of the whole table, 14 checkers
    assert "up to 14 checkers" in out and "the network plays the bear-offs of more" in out
    with open(tmp_path / "build" / "bearoff-14.bin", "rb") as f, open(BEAROFF, "rb") as g:
        assert f.read(8)[:4] == g.read(8)[:4]  # the same format, kept beside the build
    assert "reset" in log[-1]


def test_a_board_with_no_room_gets_no_table_and_is_told(tmp_path, capsys):
    require(MPY_CROSS)
    log, out = _deploy(tmp_path, deploy.RESERVE_BLOCKS, capsys)
    assert not [x for x in log if x.startswith("table")]
    assert "does not fit" in out and "the network plays the bear-offs" in out
    assert "reset" in log[-1]


def test_a_board_that_does_not_say_its_room_stops_the_deploy(tmp_path):
    require(MPY_CROSS)
    with pytest.raises(DeployError, match="did not say its filesystem's room"):
        _deploy_silent(tmp_path)


def _deploy_silent(tmp_path):
    tool = tmp_path / "mpremote"
    tool.write_text("#!%s\nimport sys\nprint('Traceback: OSError' if 'statvfs' in sys.argv[-1] "
                    "else '')\n" % sys.executable)
    tool.chmod(tool.stat().st_mode | stat.S_IEXEC)
    build = tmp_path / "build"
    build.mkdir()
    shutil.copyfile(BEAROFF, build / "bearoff.bin")
    deploy.deploy("socket://127.0.0.1:1", "pico", str(build), mpremote=str(tool))
