"""--board-timing: the simulator at a board's speed (firmware/sim_timing.py, issue 11.4).

The strip's write blocks for its time on the wire, the firmware's own work is slowed by the
board's factor (simulated I/O left out), the USB serial port holds a 64-byte packet and blocks
a writer up to 500 ms when the host reads nothing (CPython here, and the MicroPython unix
port's stream poll), and a simulator started with --board-timing pico still takes presses.
The time checks are lower bounds of deliberate blocking: a loaded machine only adds to them.
"""

import os
import pty
import select
import subprocess
import sys
import time
import tty

import pytest
import sim_timing
from app import App
from hw.boards import pico
from model.game import OPENING
from mpytools import MICROPYTHON, NATIVE, ROOT, require
from sim_timing import BLOCK_MS, PACKET, Pace, TimedStrip, UsbCdc, setup
from simkit import connect, start_sim

FIRMWARE = os.path.join(ROOT, "firmware")


def test_neopixel_strip_write_blocks_for_its_wire_time():
    pace = Pace(180)
    strip = TimedStrip(pico.LED_COUNT, pico.LED_ORDER, pace)
    strip.buf[0:3] = b"\x01\x02\x03"
    t0 = time.monotonic()
    strip.write()
    held = time.monotonic() - t0
    assert pico.LED_COUNT * 30 >= 13000
    assert held >= 0.013 and strip.blocked_us >= 13000
    assert pace.io_us == strip.blocked_us  # strip time is I/O: not slowed again
    assert strip.frame[0:3] == b"\x01\x02\x03" and strip.writes == 1


def test_dma_strip_waits_only_for_the_frame_on_the_wire():
    strip = TimedStrip(pico.LED_COUNT, pico.LED_ORDER, None, dma=True)
    strip.write()
    assert strip.blocked_us >= sim_timing.DMA_SETUP_US
    t0 = time.monotonic()
    strip.write()  # at once: the first frame is still being sent
    strip.write()
    assert time.monotonic() - t0 >= 2 * pico.LED_COUNT * 30 / 1e6 * 0.99
    assert strip.writes == 3


class Clock:
    def __init__(self):
        self.now = 1000
        self.blocked = []

    def __call__(self):
        return self.now

    def block(self, us):
        self.blocked.append(us)


def test_pace_slows_work_but_not_simulated_io():
    clock = Clock()
    pace = Pace(180, clock, clock.block)
    pace.begin()
    clock.now += 100  # 100 us of the firmware's own work
    pace.io_us += 5000  # ... and 5 ms in a strip write, which takes the board's time already
    clock.now += 5000
    pace.end()
    assert clock.blocked == [179 * 100]
    pace.begin()
    pace.begin()  # a step inside a step (a request that presses) counts once
    clock.now += 10
    pace.end()
    assert len(clock.blocked) == 1
    pace.end()
    assert clock.blocked[-1] == 179 * 10
    step = pace.timed(lambda a, b: a + b)
    assert step(2, 3) == 5 and pace.depth == 0


def test_pace_of_each_board():
    _, strip, _ = setup("none", pico)
    assert type(strip).__name__ == "FakeStrip"
    pace, strip, port = setup("pico", pico)
    assert pace.factor == 180 and isinstance(strip, TimedStrip) and not strip.dma
    assert isinstance(port, UsbCdc) and port.ready()  # the link's Outbox asks it for room
    pace, strip, _ = setup("esp32s3", pico)
    assert pace.factor == 75  # about 2.4 times the RP2040
    assert setup("pico-dma", pico)[1].dma
    with pytest.raises(ValueError, match="board-timing"):
        setup("pico2", pico)


def _unread_pty():
    master, slave = pty.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    return master, slave


def _drain(fd):
    data = b""
    while select.select([fd], [], [], 0.05)[0]:
        data += os.read(fd, 65536)
    return data


def test_usb_port_blocks_when_the_host_reads_nothing():
    master, slave = _unread_pty()
    stream = os.fdopen(master, "wb", buffering=0)
    try:
        port = UsbCdc(stream)
        assert port.ioctl(3, select.POLLOUT) == select.POLLOUT
        sent = b""
        line = bytes(range(48, 48 + 60)) + b"\n"
        for _ in range(100000):  # until the pty and the packet are full
            t0 = time.monotonic()
            k = port.write(line)
            sent += line[:k]
            if k < len(line):
                break
        else:
            raise AssertionError("the pty never filled")
        assert time.monotonic() - t0 >= BLOCK_MS / 1000 * 0.99  # the loop held 500 ms
        assert port.blocks >= 1 and port.timeouts == 1
        assert port.ioctl(3, select.POLLOUT) == 0  # no room for a packet: no POLLOUT
        got = _drain(slave)  # the host reads at last
        assert port.ioctl(3, select.POLLOUT) == select.POLLOUT
        got += _drain(slave)
        assert got == sent  # nothing the port took is lost, in order
        assert port.write(b"x" * (PACKET + 10)) == PACKET + 10
    finally:
        stream.close()
        os.close(slave)


MP_PORT = """
import sys
sys.path.insert(0, %r)
sys.path.insert(0, %r)
import select
from hw.ticks import ticks_ms, ticks_diff
from sim_timing import UsbCdc
port = UsbCdc(sys.stdout.buffer)
poller = select.poll()
poller.register(port, select.POLLOUT)
ready = len(poller.poll(0))
line = b"y" * 63 + b"\\n"
total = 0
for i in range(20000):
    t0 = ticks_ms()
    k = port.write(line)
    total += k
    if k < len(line):
        break
held = ticks_diff(ticks_ms(), t0)
out = (ready, held, port.timeouts, len(poller.poll(0)), total - port.n)
sys.stderr.write("%%d %%d %%d %%d %%d\\n" %% out)
"""


def test_usb_port_under_micropython_poll():
    """The same port in the unix port: select.poll asks the stream's ioctl for POLLOUT."""
    require(MICROPYTHON)
    master, slave = _unread_pty()
    try:
        proc = subprocess.run(
            [MICROPYTHON, "-c", MP_PORT % (NATIVE, FIRMWARE)],
            stdout=master,
            stderr=subprocess.PIPE,
            timeout=60,
        )
        assert proc.returncode == 0, proc.stderr.decode()
        ready, held, timeouts, after, flushed = map(int, proc.stderr.split())
        assert ready == 1 and timeouts == 1 and after == 0
        assert held >= BLOCK_MS * 0.99
        assert len(_drain(slave)) == flushed  # all but the packet still held at the exit
    finally:
        os.close(master)
        os.close(slave)


@pytest.mark.parametrize("python", [False, True])
def test_sim_at_pico_timing_takes_presses(tmp_path, python):
    """`ledgammon sim --board-timing pico` (MicroPython, and --python): slower, but the game
    goes on as ever."""
    if not python:
        require(MICROPYTHON)
    sim = start_sim(str(tmp_path / "flash"), board_timing="pico", python=python)
    assert "--board-timing" in sim.command()
    try:
        with connect(sim.port, timeout=20) as client:
            assert client.info["board"] == "pico"
            assert client.press("ROLL")["ok"]
            for _ in range(50):
                st = client.state()
                if st["phase"] == "move":
                    break
                time.sleep(0.1)
            assert st["phase"] == "move" and st["dice"]
            assert any(client.frame())
            t0 = time.monotonic()
            for _ in range(3):
                client.frame()
            # a `leds` reply waits for the frame being written (13 ms) at least once
            assert time.monotonic() - t0 >= 0.013
    finally:
        sim.stop()


def test_cli_passes_board_timing_on():
    from ledgammon.cli import parser

    for cmd in ("sim", "play"):
        args = parser().parse_args([cmd, "--board-timing", "esp32s3"])
        assert args.board_timing == "esp32s3"
        assert parser().parse_args([cmd]).board_timing == "none"
    with pytest.raises(SystemExit):
        parser().parse_args(["sim", "--board-timing", "fast"])


def test_sim_main_refuses_a_bad_timing(tmp_path):
    proc = subprocess.run(
        [
            sys.executable,
            os.path.join(FIRMWARE, "sim_main.py"),
            "--flash",
            str(tmp_path),
            "--board-timing",
            "pc",
        ],
        capture_output=True,
        text=True,
        timeout=30,
        env=dict(os.environ, PYTHONPATH=NATIVE),
    )
    assert proc.returncode == 2 and "--board-timing is one of" in proc.stderr


def test_sim_main_wires_the_pace(tmp_path):
    """sim_main --board-timing pico: the app's steps and the protocol's requests are paced."""
    import sim_main

    opts = sim_main._options(["--flash", str(tmp_path), "--board-timing", "esp32s3"])
    app = sim_main.make_app(opts)
    assert isinstance(app, sim_timing.PacedApp) and app.pace.factor == 75
    assert app.strip.pace is app.pace and app.protocol.outbox.port.pace is app.pace
    steps = app.pace.steps
    app.press("ROLL", 100000)
    app.frame(100020)
    app.protocol.feed(b'{"cmd":"hello"}\n', 100040)
    assert app.pace.steps == steps + 3 and app.pace.depth == 0
    assert app.ctl.game.phase != OPENING  # the press was taken: the opening roll
    plain = sim_main.make_app(sim_main._options(["--flash", str(tmp_path / "b")]))
    assert type(plain) is App and not hasattr(plain, "pace")  # none: the host's own speed


def test_file_writes_are_io_left_out_of_the_pace(tmp_path):
    # the host's file system is no model of the board's: its time is not slowed 180 times
    pace = Pace(180, block=lambda us: None)
    store = sim_timing.TimedStore(str(tmp_path), pace)
    pace.begin()
    store.save_game(iter(['{"v":', "2}"]))
    assert pace.io_us > 0
    pace.end()
    assert (tmp_path / "game.json").read_text() == '{"v":2}'
    assert not (tmp_path / "game.json.tmp").exists()
