"""A host's first line ends whatever the board holds of an unfinished line: another tool's
leftovers (mpremote's Ctrl-B after its raw REPL reached the firmware on the emulated Pico
after `ledgammon deploy`'s reset, and the first `hello` came back bad_json under its own id)
are answered as the bad line they are, and the host's request as its own."""

from __future__ import annotations

import serial
from simkit import connect, start_sim


def test_a_board_holding_an_unfinished_line_still_answers_the_first_request(tmp_path):
    with start_sim(str(tmp_path), seed=3) as sim:
        with serial.serial_for_url(sim.port, timeout=1) as raw:
            raw.write(b'\r\x02{"cmd":"st')  # left by a tool that stopped mid-line
            raw.flush()
        with connect(sim.port) as client:  # its hello: the first request
            assert client.info["protocol"] == 1
            assert client.request("state")["ok"]
