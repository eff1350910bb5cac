"""The `ledgammon` command: script commands against the simulator, every error as one line on
stderr with its own exit code, `sim` as a process, `play`/`watch` wiring, deploy's steps."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest
from conftest import BEAROFF
from ledgammon import commands, deploy
from ledgammon.cli import main
from ledgammon.errors import DeployError
from ledgammon.sim import Simulator
from mpytools import MICROPYTHON, MPY_CROSS, require
from simkit import connect, start_sim

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENV = dict(
    os.environ,
    PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "host"), os.path.join(ROOT, "firmware")]),
)


@pytest.fixture
def sim(tmp_path):
    s = start_sim(str(tmp_path / "flash"), seed=8)
    yield s
    s.stop()


def run(capsys, *argv):
    """main(argv) -> (exit code, stdout, stderr)."""
    argv = list(argv)
    if "--timeout" not in argv:
        argv += ["--timeout", "10"]  # a loaded test machine is slow
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(code: int, err: str, expected: int, *words: str) -> None:
    assert code == expected, (code, err)
    assert err.startswith("ledgammon: ") and err.count("\n") == 1, err
    for w in words:
        assert w in err, err


def test_script_commands_human_and_json(sim, capsys):
    p = sim.port
    code, out, _ = run(capsys, "hello", "--port", p)
    assert code == 0 and out.startswith("ledgammon firmware") and "protocol 1" in out
    code, out, _ = run(capsys, "state", "-p", p, "--json")
    st = json.loads(out)
    assert code == 0 and st["ok"] and st["phase"] == "opening"
    assert run(capsys, "state", "-p", p)[1].startswith("game 1: the opening roll is next")
    code, out, _ = run(capsys, "roll", "-p", p, "5", "2")
    assert code == 0 and out == "player 0 rolled 5-2\n"
    st = json.loads(run(capsys, "state", "-p", p, "--json")[1])
    assert "13/8 13/11" in st["plays"] or "13/11 13/8" in st["plays"]
    code, out, _ = run(capsys, "move", "-p", p, "13/8", "13/11")
    assert code == 0 and out == "moved 13/8 13/11\n"
    code, out, _ = run(capsys, "undo", "-p", p)
    assert code == 0 and out == "took back 13/11\n"
    assert run(capsys, "undo", "-p", p)[1] == "took back 13/8\n"
    code, out, _ = run(capsys, "move", "-p", p, "13/11", "--json")
    assert json.loads(out)["steps"] == ["13/11"]
    code, out, _ = run(capsys, "config", "-p", p, "brightness=64", "autoplay=true")
    assert code == 0 and "brightness=64" in out and "autoplay=true" in out
    code, out, _ = run(capsys, "press", "-p", p, "p13", "p8")
    assert code == 0 and "player 0 has played 5-2" in out
    code, out, _ = run(capsys, "history", "-p", p, "--json")
    assert json.loads(out)["opening"] == [5, 2]
    code, out, _ = run(capsys, "press", "-p", p, "ROLL")
    assert code == 0 and "player 1 to" in out
    code, out, _ = run(capsys, "history", "-p", p)
    assert out.splitlines()[0] == "opening 5-2"
    assert out.splitlines()[1] in (
        "  1. player 0 5-2: 13/8 13/11",
        "  1. player 0 5-2: 13/11 13/8",
    )
    code, out, _ = run(capsys, "new", "-p", p)
    assert code == 0 and out == "game 2: a new game\n"


def test_board_errors_exit_5(sim, capsys):
    one_error_line(*run(capsys, "move", "-p", sim.port, "24/20")[::2], 5, "wrong_phase")
    one_error_line(*run(capsys, "roll", "-p", sim.port, "3", "3")[::2], 5, "illegal")
    one_error_line(*run(capsys, "config", "-p", sim.port, "palette=9")[::2], 5, "bad_args")
    one_error_line(*run(capsys, "press", "-p", sim.port, "p99")[::2], 5, "bad_args")
    one_error_line(*run(capsys, "roll", "-p", sim.port, "3")[::2], 1, "two dice")
    code, out, err = run(capsys, "undo", "-p", sim.port, "--json")
    assert code == 5 and json.loads(out)["error"]["code"] == "illegal" and err.count("\n") == 1


def test_no_such_port(capsys, tmp_path):
    one_error_line(*run(capsys, "state", "-p", str(tmp_path / "ttyNONE"))[::2], 2, "no such")
    one_error_line(*run(capsys, "state", "-p", "bogus://x")[::2], 2, "bogus://x")


def test_no_board_answering(capsys):
    """loop:// echoes our own request back: no reply ever comes."""
    code, _, err = run(capsys, "state", "-p", "loop://", "--timeout", "0.3")
    one_error_line(code, err, 3, "no answer", "loop://")


def test_busy_port(sim, capsys):
    with connect(sim.port):
        code, _, err = run(capsys, "hello", "-p", sim.port)
    one_error_line(code, err, 2, "busy", sim.port)
    assert run(capsys, "hello", "-p", sim.port)[0] == 0  # free again


def _fake_board(protocol: int) -> tuple[str, threading.Thread]:
    """A socket:// board that answers every request with hello of `protocol`."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)

    def serve() -> None:
        conn, _ = srv.accept()
        with conn, conn.makefile("rwb") as f:
            for line in f:
                if not line.strip():
                    continue  # a blank line is no request (docs/protocol.md)
                req = json.loads(line)
                f.write(b'{"event":"noise"}\nnot json\n')
                f.write(
                    json.dumps(
                        {"ok": True, "id": req["id"], "protocol": protocol, "board": "pico",
                         "firmware": "0.1", "layout": "full", "leds": 440}
                    ).encode()
                    + b"\n"
                )
                f.flush()
        srv.close()

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    return "socket://127.0.0.1:%d" % srv.getsockname()[1], t


def test_other_protocol_version(capsys):
    url, t = _fake_board(2)
    one_error_line(*run(capsys, "hello", "-p", url)[::2], 4, "protocol 2", "update ledgammon")
    t.join(5)


def test_socket_url_and_env_port(capsys, monkeypatch):
    url, t = _fake_board(1)
    monkeypatch.setenv("LEDGAMMON_PORT", url)
    code, out, _ = run(capsys, "hello", "--json")
    assert code == 0 and json.loads(out)["protocol"] == 1
    t.join(5)


def test_no_port_at_all(capsys, monkeypatch):
    monkeypatch.delenv("LEDGAMMON_PORT", raising=False)
    monkeypatch.setattr(commands.transport, "list_ports", lambda: [])
    one_error_line(*run(capsys, "state")[::2], 2, "--port")


def test_ports_lists_likely_boards_first(capsys, monkeypatch):
    import serial.tools.list_ports as lp
    from serial.tools.list_ports_common import ListPortInfo

    def port(dev: str, vid: int | None, desc: str) -> ListPortInfo:
        p = ListPortInfo(dev)
        p.vid, p.pid, p.description = vid, 5 if vid else None, desc
        return p

    fake = [
        port("/dev/ttyS0", None, "n/a"),
        port("/dev/ttyUSB0", 0x0403, "FT232R"),
        port("/dev/ttyACM1", 0x303A, "ESP32-S3"),
        port("/dev/ttyACM0", 0x2E8A, "Pico"),
    ]
    monkeypatch.setattr(lp, "comports", lambda: fake)
    code, out, _ = run(capsys, "ports")
    lines = out.splitlines()
    assert code == 0 and [ln.split()[0] for ln in lines] == [
        "/dev/ttyACM0",
        "/dev/ttyACM1",
        "/dev/ttyS0",
        "/dev/ttyUSB0",
    ]
    assert "likely" in lines[0] and "2e8a:0005" in lines[0] and "likely" in lines[1]
    assert "likely" not in lines[3]
    ports = json.loads(run(capsys, "ports", "--json")[1])
    assert [p["likely"] for p in ports] == [True, True, False, False]
    # without --port: several boards are ambiguous, one is taken
    monkeypatch.delenv("LEDGAMMON_PORT", raising=False)
    code, _, err = run(capsys, "state")
    one_error_line(code, err, 2, "several boards", "/dev/ttyACM0", "/dev/ttyACM1")
    del fake[2]
    assert commands._port(argparse.Namespace(port=None)) == "/dev/ttyACM0"


def test_sim_process_prints_port_and_stops_cleanly(tmp_path):
    for sig in (signal.SIGINT, signal.SIGTERM):
        proc, port = _sim_process(str(tmp_path))
        try:
            assert port.startswith("/dev/pts/"), port
            with connect(port) as client:
                if sig == signal.SIGINT:
                    client.roll()
                else:  # the second run resumed the first one's game from the flash
                    assert client.state()["phase"] == "move"
            firmware = _children(proc.pid)
            assert len(firmware) == 1, firmware
            proc.send_signal(sig)
            assert proc.wait(20) == 0
            assert not os.path.exists("/proc/%d" % firmware[0])  # stopped and reaped
        finally:
            proc.kill()
            proc.wait()


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def test_sim_stops_on_sigint_even_when_started_with_it_ignored(tmp_path):
    """A parent that ignores SIGINT (a background job; a library in a test worker) passes
    that on: the simulator still stops on it instead of running on for ever."""
    proc, port = _sim_process(str(tmp_path), _ignore_sigint)
    try:
        assert port.startswith("/dev/pts/"), port
        with connect(port) as client:
            client.roll()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(20) == 0
    finally:
        proc.kill()
        proc.wait()


def _children(pid: int) -> list[int]:
    with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
        return [int(x) for x in f.read().split()]


def _running(pid: int) -> bool:
    """True while `pid` runs (a zombie waiting for a reaper counts as gone)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _sim_process(flash: str, preexec=None) -> tuple[subprocess.Popen, str]:
    """`ledgammon sim` in a session of its own, and the first line it printed (its port);
    `preexec` runs in the child before it starts."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "ledgammon", "sim", "--flash", flash, "--seed", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
        start_new_session=True,
        preexec_fn=preexec,
    )
    return proc, proc.stdout.readline().decode().strip()


def test_a_killed_sim_takes_its_firmware_along(tmp_path):
    """SIGKILL to `ledgammon sim`'s process group while a client holds the port: its
    firmware (in a session of its own) stops within a second or two instead of saving on,
    and a second simulator on the same flash starts, resumes the game and keeps it alone."""
    flash = str(tmp_path / "flash")
    first, port = _sim_process(flash)
    second = None
    try:
        assert port.startswith("/dev/pts/"), port
        firmware = _children(first.pid)
        with connect(port) as client:
            client.roll([3, 1])
            os.killpg(first.pid, signal.SIGKILL)
            first.wait(10)
            second, port2 = _sim_process(flash)  # waits for the flash lock if need be
            assert port2.startswith("/dev/pts/"), (port2, second.stderr.read())
            for _ in range(40):
                if not _running(firmware[0]):
                    break
                time.sleep(0.05)
            assert not _running(firmware[0]), "the first firmware outlived its simulator"
        with connect(port2) as client:
            st = client.state()
            assert st["phase"] == "move" and st["dice"] == [3, 1]  # the first one's game
            client.move("8/5 6/5")
        second.send_signal(signal.SIGTERM)
        assert second.wait(20) == 0
        with start_sim(flash) as sim, connect(sim.port) as client:
            assert client.state()["steps"] == ["8/5", "6/5"]  # nobody wrote over it
    finally:
        for proc in (first, second):
            if proc is not None:
                proc.kill()
                proc.wait()


def test_a_flash_directory_in_use_is_refused(tmp_path):
    with start_sim(str(tmp_path)):
        code, err = _run_sim(str(tmp_path))
    assert code == 6 and "another simulator is using the flash directory" in err, err


def _run_sim(flash: str) -> tuple[int, str]:
    """`ledgammon sim --flash FLASH` that fails at start: (exit code, stderr)."""
    proc = subprocess.run(
        [sys.executable, "-m", "ledgammon", "sim", "--flash", flash],
        capture_output=True, text=True, env=ENV, timeout=60,
    )
    assert proc.stdout == "", proc.stdout  # no port: it never started
    return proc.returncode, proc.stderr


def _read_only(path: str) -> None:
    """Makes a directory read-only, also for root (the immutable attribute)."""
    os.makedirs(path)
    os.chmod(path, 0o555)
    if os.geteuid() == 0:
        subprocess.run(["chattr", "+i", path], check=True)
    with pytest.raises(OSError):  # the case is real, or the test says so
        open(os.path.join(path, "probe"), "w").close()


def test_sim_flash_paths_that_cannot_be_a_flash(tmp_path):
    """A read-only directory, a regular file, a path under /proc, a path under a file: one
    line and exit code 6, no traceback."""
    afile = tmp_path / "a-file"
    afile.write_text("x")
    ro = str(tmp_path / "read-only")
    _read_only(ro)
    try:
        for path, words in [
            (ro, "read-only"),
            (str(afile), "a file is in the way"),
            ("/proc/ledgammon-flash", "No such file"),
            ("/proc/self", "read-only"),
            (str(afile / "flash"), "Not a directory"),
        ]:
            code, err = _run_sim(path)
            one_error_line(code, err, 6, "cannot use %s as the flash directory" % path, words)
    finally:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", ro], check=True)
        os.chmod(ro, 0o755)


def test_a_firmware_dying_at_start_shows_its_traceback(tmp_path, capfd):
    """MicroPython prints an uncaught exception on stdout, the pty: the simulator shows it on
    its stderr (`ledgammon sim`) or in the log (`ledgammon play`'s sim.log), and its last
    line in the error."""
    from ledgammon.errors import SimulatorError
    from ledgammon.sim import Simulator

    lost = "ImportError: no module named 'hw.boards.nope'"
    with pytest.raises(SimulatorError) as info:
        Simulator(flash=str(tmp_path), board="nope").start()
    assert str(info.value) == "the simulator stopped at start (exit code 1): " + lost
    err = capfd.readouterr().err
    assert err.startswith("Traceback (most recent call last):") and err.endswith(lost + "\n")
    with pytest.raises(SimulatorError) as info:
        Simulator(flash=str(tmp_path), board="nope", log="sim.log").start()
    log = str(tmp_path / "sim.log")
    assert str(info.value).endswith(": %s (see %s)" % (lost, log))
    assert capfd.readouterr().err == ""
    text = (tmp_path / "sim.log").read_text()
    assert text.startswith("Traceback (most recent call last):") and lost in text
    # `ledgammon play` says the same in one line; its log has the firmware's own stderr too
    code, out, err = run(capfd, "play", "--flash", str(tmp_path), "--pace", "0")
    one_error_line(code, err, 6, "stopped at start (exit code 2)", "sim.log")
    assert "--pace is 1-10000 ms" in (tmp_path / "sim.log").read_text()


def test_play_and_watch_open_the_view(tmp_path, capsys, monkeypatch):
    from ledgammon import terminal

    seen = []

    def fake_view(client, interactive=True, layout=None, board=None):
        seen.append((interactive, client.state()["phase"], client.info["board"]))
        return 0

    monkeypatch.setattr(terminal, "run_view", fake_view)
    assert run(capsys, "play", "--flash", str(tmp_path / "f"), "--seed", "2")[0] == 0
    with start_sim(str(tmp_path / "g")) as s:
        assert run(capsys, "watch", "-p", s.port)[0] == 0
        assert run(capsys, "play", "-p", s.port)[0] == 0
    assert seen == [
        (True, "opening", "pico"),
        (False, "opening", "pico"),
        (True, "opening", "pico"),
    ]


def test_export_and_snapshot(sim, tmp_path, capsys):
    client = connect(sim.port)
    client.roll([6, 1])
    client.move("13/7 8/7")
    client.roll([3, 2])
    client.move("24/21 24/22")  # a finished play not yet passed on by a roll
    client.close()
    mat = tmp_path / "game.mat"
    code, out, _ = run(capsys, "export", str(mat), "-p", sim.port)
    assert code == 0 and "Position ID: " in out and "Match ID: " in out
    text = mat.read_text()
    assert "61: 13/7 8/7" in text and "32: 24/21 24/22" in text, text
    png = tmp_path / "board.png"
    code, out, _ = run(capsys, "snapshot", str(png), "-p", sim.port)
    assert code == 0 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("board", ["pico2", "esp32s3"])
def test_deploy_gives_a_board_with_room_the_larger_network(tmp_path, board):
    made = deploy.compile_firmware(str(tmp_path / board), board, mpy_cross=require(MPY_CROSS),
                                   table=BEAROFF)
    assert [m for m in made if m.endswith(".bin")] == ["weights.bin", "bearoff.bin"]
    with (
        open(os.path.join(tmp_path, board, "weights.bin"), "rb") as f,
        open(os.path.join(ROOT, "firmware", "weights-64.bin"), "rb") as g,
    ):
        assert f.read() == g.read()


@pytest.mark.parametrize("board", sorted(deploy.WEIGHTS))
def test_the_simulator_of_a_board_gets_the_network_deploy_installs_on_it(tmp_path, board):
    cmd = Simulator(flash=str(tmp_path), board=board).command()
    assert cmd[cmd.index("--board") + 1] == board
    weights = cmd[cmd.index("--weights") + 1] if "--weights" in cmd else None
    if deploy.WEIGHTS[board] == "weights.bin":  # the firmware's own default
        assert weights is None
    else:
        assert weights == os.path.join(ROOT, "firmware", deploy.WEIGHTS[board])
    assert os.path.isfile(weights or os.path.join(ROOT, "firmware", "weights.bin"))


def test_deploy_without_the_board_s_weights_says_so(tmp_path):
    firmware = tmp_path / "fw"
    shutil.copytree(os.path.join(ROOT, "firmware"), firmware)
    os.remove(firmware / "weights-64.bin")
    with pytest.raises(DeployError, match="no weights for a pico2"):
        deploy.compile_firmware(str(tmp_path / "b"), "pico2", str(firmware),
                                mpy_cross=require(MPY_CROSS), table=BEAROFF)


def test_deploy_compiles_and_plans_mpremote(tmp_path, capsys):
    mpy_cross = require(MPY_CROSS)
    build = str(tmp_path / "b")
    made = deploy.compile_firmware(build, "pico", mpy_cross=mpy_cross, table=BEAROFF)
    assert "main.py" in made and "link/protocol.mpy" in made and "gammon/position.mpy" in made
    assert not any(m.startswith("sim_main") or m.endswith("controller.py") for m in made)
    assert "weights.bin" in made and "control/autoplay.mpy" in made  # the board's own player
    assert "kernels/movegen.mpy" in made and "kernels/net.mpy" in made  # native/, for its CPU
    with (
        open(os.path.join(build, "weights.bin"), "rb") as f,
        open(os.path.join(ROOT, "firmware", "weights.bin"), "rb") as g,
    ):
        assert f.read() == g.read()  # copied as it is
    assert not [m for m in made if m.startswith("weights-")]  # the Pico's network alone
    with open(os.path.join(build, "bearoff.bin"), "rb") as f, open(BEAROFF, "rb") as g:
        assert f.read() == g.read()  # the bear-off table beside it, read by seek
    for m in made:
        assert os.path.getsize(os.path.join(build, m)) > 0
    with open(os.path.join(build, "link", "protocol.mpy"), "rb") as f:
        assert f.read(1) == b"M"  # an .mpy header
    cmds = deploy.commands("/dev/ttyACM0", build, made, "mpremote")
    top = sorted({m.split("/")[0] for m in made} - {"bearoff.bin"})  # the table goes last
    assert "weights.bin" in top and "'weights.py'" not in cmds[0][5]
    board = ["mpremote", "connect", "/dev/ttyACM0", "resume"]
    assert cmds[1] == board + ["fs", "cp", "-r", *top, ":"]
    assert cmds[2] == board + ["exec", deploy.ROOM_CODE]  # sized to the room left (below)
    assert cmds[3] == board + ["fs", "cp", "bearoff.bin", ":"]
    assert cmds[4] == board + ["reset"]
    assert cmds[0][:5] == board + ["exec"]
    assert "'link/protocol.py'" in cmds[0][5] and "'controller.mpy'" in cmds[0][5]
    assert "'main.py'" not in cmds[0][5]
    compile(cmds[0][5], "cleanup", "exec")  # valid Python (MicroPython runs it)
    os.makedirs(tmp_path / "c")
    shutil.copyfile(BEAROFF, tmp_path / "c" / "bearoff.bin")  # made once, kept in --build
    code, out, _ = run(
        capsys, "deploy", "-p", "/dev/ttyACM0", "--build", str(tmp_path / "c"), "--dry-run"
    )
    assert code == 0 and "fs cp -r" in out and "reset" in out
    assert os.path.isfile(tmp_path / "c" / "firmware-pico" / "bearoff.bin")
    one_error_line(
        *run(capsys, "deploy", "-p", "x", "--board", "nope", "--dry-run")[::2], 7, "unknown board"
    )


def _board_root(root):
    """A board's filesystem after `ledgammon deploy` (and an older flat layout's module),
    with a saved game and settings beside it."""
    for rel in ("gammon/position.mpy", "control/autoplay.mpy", "kernels/net.mpy",
                "hw/boards/pico.mpy", "app.mpy", "link.mpy", "main.py", "weights.bin",
                "game.json", "settings.json"):
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x")


def _run_on_board(root, code):
    cmd = [require(MICROPYTHON), "-c", code]
    return subprocess.run(cmd, cwd=root, capture_output=True, text=True, timeout=60)


def test_deploy_frozen_installs_main_and_the_larger_network_and_clears_the_old_modules(
    tmp_path, capsys
):
    """`deploy --frozen`, for a board whose MicroPython image holds the firmware: only
    main.py and the 64-unit network are copied, and what an earlier deploy left (which
    would shadow the frozen modules) is removed, but only from a board whose image really
    holds the firmware; the saves stay."""
    build = str(tmp_path / "b")
    made = deploy.stage_frozen(build, table=BEAROFF)
    assert made == ["main.py", "weights.bin", "bearoff.bin"]
    for name, src in (("main.py", os.path.join(ROOT, "firmware", "main.py")),
                      ("weights.bin", os.path.join(ROOT, "firmware", "weights-64.bin")),
                      ("bearoff.bin", BEAROFF)):
        with open(os.path.join(build, name), "rb") as f, open(src, "rb") as g:
            assert f.read() == g.read(), name
    cmds = deploy.frozen_commands("/dev/ttyACM0", made, "mpremote")
    board = ["mpremote", "connect", "/dev/ttyACM0", "resume"]
    assert cmds[0][:5] == board + ["exec"] and cmds[0][5] == deploy.frozen_code()
    assert cmds[1:] == [board + ["fs", "cp", "main.py", "weights.bin", "bearoff.bin", ":"],
                        board + ["reset"]]
    # on a MicroPython with no firmware frozen in (this unix port): an error, nothing removed
    root = tmp_path / "board"
    _board_root(root)
    before = sorted(str(p.relative_to(root)) for p in root.rglob("*"))
    proc = _run_on_board(root, deploy.frozen_code())
    out = proc.stdout + proc.stderr  # (MicroPython prints its traceback on stdout)
    assert proc.returncode != 0 and "no ledgammon firmware frozen" in out, out
    assert sorted(str(p.relative_to(root)) for p in root.rglob("*")) == before
    # with it (the image's modules stand in a folder of their own here): the old code goes
    image = tmp_path / "image"
    shutil.copytree(os.path.join(ROOT, "native", "kernels"), image / "kernels")
    proc = _run_on_board(root, deploy.frozen_code(str(image)))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    left = sorted(str(p.relative_to(root)) for p in root.rglob("*"))
    assert left == ["game.json", "main.py", "settings.json", "weights.bin"], left
    os.makedirs(tmp_path / "c")
    shutil.copyfile(BEAROFF, tmp_path / "c" / "bearoff.bin")
    code, out, _ = run(capsys, "deploy", "-p", "/dev/ttyACM0", "--frozen", "--dry-run",
                       "--build", str(tmp_path / "c"))
    assert code == 0 and "fs cp main.py weights.bin bearoff.bin :" in out, out
    assert "reset" in out
    assert "frozen-pico" in out and "compiled" not in out


class _Repl(threading.Thread):
    """A board left at MicroPython's REPL, as a host sees it on the port: its banner and
    prompt (long before: the host's port drops them as it opens), then each line it gets
    echoed and the value of the dict literal that line is, and the prompt again; `first`
    a line the board sends once the host is there (as it starts, say)."""

    def __init__(self, first: bytes = b"") -> None:
        super().__init__(daemon=True)
        self.server = socket.create_server(("127.0.0.1", 0))
        self.url = "socket://127.0.0.1:%d" % self.server.getsockname()[1]
        self.first = first

    def run(self) -> None:
        conn, _ = self.server.accept()
        with conn, contextlib.suppress(ConnectionError):  # a host that gave up (_ask_the_repl)
            conn.sendall(b"MicroPython v1.29.0 on 2026-07-05; Raspberry Pi Pico with RP2040"
                         b"\r\nType \"help()\" for more information.\r\n>>> ")
            data = b""
            while True:
                chunk = conn.recv(4096)
                if not chunk:
                    return
                data += chunk
                while b"\n" in data:
                    line, data = data.split(b"\n", 1)
                    if not line.strip():  # the REPL's answer to an empty line: its prompt
                        conn.sendall(self.first + b"\r\n>>> ")
                        self.first = b""
                        continue
                    value = repr(json.loads(line)).encode()
                    conn.sendall(self.first + line + b"\r\n" + value + b"\r\n>>> ")
                    self.first = b""


def _ask_the_repl(capsys, cmd: str, said: str, first: bytes = b"") -> tuple[int, str, str]:
    """`ledgammon CMD` against a fresh _Repl until the host's error says `said`: (exit code,
    stderr, the REPL's url). The host waits its whole --timeout for a reply that never
    comes, so the wait is short; on a loaded machine the REPL's thread may answer after it
    (the host then says that nothing answered, or only the banner came: the REPL without the
    event), so the host asks again, its wait doubled each time, up to 8 s: a host that does
    not name what the REPL sent fails at that longest wait (issue 29: a fixed 0.5 s failed
    under load)."""
    timeout = 0.5
    while True:
        repl = _Repl(first)
        repl.start()
        code, _, err = run(capsys, cmd, "-p", repl.url, "--timeout", str(timeout))
        if said in err or timeout >= 8:
            return code, err, repl.url
        timeout *= 2


def test_a_board_at_the_repl_or_that_could_not_start_is_said_to_be(capsys):
    """No answer from a board is said as what it is: a board at MicroPython's REPL (its
    firmware stopped, or it could not start), or the board's own `no_start` event."""
    code, err, url = _ask_the_repl(capsys, "hello", "at MicroPython's REPL")
    one_error_line(code, err, 3, "at MicroPython's REPL", "every 4th LED red", url)
    event = (b'{"event":"error","code":"no_start","message":"the firmware cannot start: '
             b"MemoryError('memory allocation failed, allocating 592 bytes',)\"}\r\n")
    code, err, url = _ask_the_repl(capsys, "state", "cannot start its firmware", event)
    one_error_line(code, err, 3, "cannot start its firmware", "MemoryError", url)


def test_players_level_and_hint_commands(sim, capsys):
    p = sim.port
    one_error_line(*run(capsys, "hint", "-p", p)[::2], 5, "wrong_phase")  # no dice yet
    code, out, _ = run(capsys, "roll", "-p", p, "6", "4")
    code, out, _ = run(capsys, "hint", "-p", p)
    assert code == 0 and out.startswith("hint: ") and "steps to make: " in out
    reply = json.loads(run(capsys, "hint", "-p", p, "--json")[1])
    assert reply["ok"] and len(reply["steps"]) == 2
    code, out, _ = run(capsys, "move", "-p", p, reply["play"])
    assert code == 0
    code, out, _ = run(capsys, "config", "-p", p, "players=human,board", "level=easy")
    assert code == 0 and 'players=["human", "board"]' in out and 'level="easy"' in out
    one_error_line(*run(capsys, "config", "-p", p, "level=hard")[::2], 5, "level")
    code, out, _ = run(capsys, "roll", "-p", p)  # passes the turn: the board throws and plays
    assert code == 0 and "player 1 (the board) is to roll: it throws its own dice" in out
    with connect(p) as client:
        st = client.state()
        deadline = time.monotonic() + 10
        while st["bot"] == "roll" and time.monotonic() < deadline:  # its throw: a frame later
            time.sleep(0.02)
            st = client.state()
        assert st["dice"] and st["turn"] == 1, st
        assert st["bot"] in ("think", "move") and st["settings"]["level"] == "easy"
        assert any(w in commands.describe(st) for w in (
            "the board is thinking", "the board plays ", "the board moves")), st
        assert client.request("roll")["error"]["code"] == "wrong_phase"  # the board's turn


@pytest.mark.parametrize(
    "extra, words",
    [
        ({"phase": "move", "bot": "think"}, "; the board is thinking;"),
        ({"phase": "move", "bot": "move"}, "; the board moves;"),
        ({"phase": "move", "bot": "move", "steps": ["13/10", "10/7"]}, "; the board plays 13/7;"),
        ({"phase": "roll", "bot": "roll"}, "player 1 to roll; the board throws its dice;"),
        ({"phase": "done", "bot": "roll"}, "; the board passes the turn;"),
        ({"phase": "roll", "bot": "dance"}, "game 2: player 1 to roll; pips 0-0; position x"),
        ({"phase": "over", "winner": 0, "result": 2},
         "game 2 over: player 0 wins a gammon, 2 points"),
        ({"phase": "over", "winner": 1, "result": 9}, "game 2 over: player 1 wins 9 points"),
        ({"phase": "over", "winner": 1, "result": 1, "cube": 4, "match_length": 5,
          "score": [0, 4], "match_id": "MgSgAAAAIAAE"},
         "game 2 over: player 1 wins 4 points (player 0 dropped); cube 4, in the middle; "
         "match to 5: 0-4"),
    ],
)
def test_state_says_what_the_board_does_as_the_terminal_does(extra, words):
    """`ledgammon state` names the `bot` field and the result in the status line's words."""
    line = commands.describe(dict({"game": 2, "turn": 1, "position_id": "x"}, **extra))
    if extra.get("bot") in ("think", "move", "roll"):
        assert words in line, line
    else:  # no board's side to tell: the line is only the game's
        assert line == words


def test_play_sets_the_players_and_level(tmp_path, capsys, monkeypatch):
    from ledgammon import terminal

    seen = []
    states = []

    def fake_view(client, interactive=True, layout=None, board=None):
        seen.append(client.request("config")["settings"])
        states.append(client.request("state"))
        return 0

    monkeypatch.setattr(terminal, "run_view", fake_view)
    flash = str(tmp_path / "f")
    argv = ["play", "--flash", flash, "--players", "human,board", "--level", "easy"]
    assert run(capsys, *argv, "--pace", "50")[0] == 0
    assert seen[-1]["players"] == ["human", "board"] and seen[-1]["level"] == "easy"
    assert run(capsys, "play", "--flash", flash)[0] == 0  # kept in the flash
    assert seen[-1]["players"] == ["human", "board"]
    for bad in ("human", "human,robot", "board,board,human"):
        code, _, err = run(capsys, "play", "--flash", flash, "--players", bad)
        one_error_line(code, err, 1, "--players")
    for bad in ("26", "-1"):
        code, _, err = run(capsys, "play", "--flash", flash, "--match", bad)
        one_error_line(code, err, 1, "--match")
    assert len(seen) == 2
    with pytest.raises(SystemExit):  # argparse: exit code 2 and its usage message
        run(capsys, "play", "--flash", flash, "--level", "hard")
    assert run(capsys, "play", "--flash", flash, "--match", "5")[0] == 0  # a match, at once
    assert seen[-1]["match_length"] == 5 and seen[-1]["cube"] is True
    assert states[-1]["match_length"] == 5 and states[-1]["score"] == [0, 0]
    assert run(capsys, "play", "--flash", flash, "--match", "0", "--cube", "off")[0] == 0
    assert seen[-1]["match_length"] == 0 and seen[-1]["cube"] is False
    assert states[-1]["match_length"] == 0 and states[-1]["cube_on"] is False


def test_compiled_modules_name_their_file_by_the_module_s_name():
    """mpy-cross -s: the module's dotted name, a qstr the board has anyway, not its path."""
    assert deploy.source_name("control/report.py") == "control.report"
    assert deploy.source_name("control/__init__.py") == "control"
    assert deploy.source_name("app.py") == "app"
    assert deploy.source_name("hw/boards/pico.py") == "hw.boards.pico"
