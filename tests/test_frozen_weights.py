"""`make frozen-weights` (ledgammon.train.frozen_weights): the board's network as a module
for the frozen image, whose DATA is the weight file's bytes exactly; a file the board could
not read is refused before anything is written."""

from __future__ import annotations

import os

from ledgammon.train import frozen_weights
from mpytools import ROOT


def test_the_module_holds_the_weight_file_s_bytes(tmp_path):
    out = tmp_path / "frozen" / "weights_data.py"
    assert frozen_weights.main([str(out)]) == 0
    space: dict[str, object] = {}
    exec(out.read_text(), space)
    with open(os.path.join(ROOT, "firmware", "weights-64.bin"), "rb") as f:
        assert space["DATA"] == f.read()


def test_a_broken_weight_file_is_refused_and_nothing_written(tmp_path, capsys):
    bad = tmp_path / "bad.bin"
    with open(os.path.join(ROOT, "firmware", "weights.bin"), "rb") as f:
        bad.write_bytes(f.read()[:-3])
    out = tmp_path / "weights_data.py"
    assert frozen_weights.main(["--weights", str(bad), str(out)]) == 1
    assert "cut short" in capsys.readouterr().err and not out.exists()
