"""The emulated Pico: the board's real MicroPython image (a UF2) on rp2040js, run by the
project's Node.js runner (emulator/pico.mjs), its USB serial port on 127.0.0.1.

Every `ledgammon` command, `mpremote` and `ledgammon deploy` take its port as
`socket://127.0.0.1:PORT`. The runner's control channel (emulator/lib/control.mjs) presses the
board's buttons, reads the LED frames the strip was sent, the stamped serial lines (times of
the chip's own clock), the heap and the clock. Neither the image nor the RP2040 bootrom is
part of the project: both are given by path (hardware/README.md says how to get them).
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import socket
import subprocess
import threading
import time
from types import TracebackType
from typing import IO, Any

from . import resources
from .boardinfo import read_module
from .errors import SimulatorError

USB_TIMEOUT = 180.0  # wall seconds for the chip's USB port to come up (the runner's own is 120)
FLASH_NAME = "pico-flash.bin"  # the chip's 2 MB flash, in the flash directory


def emulator_dir() -> str:
    """The runner's folder: $LEDGAMMON_EMULATOR, else the checkout's emulator/."""
    return os.environ.get("LEDGAMMON_EMULATOR") or os.path.join(resources.root(), "emulator")


def find_node() -> str:
    """Node.js, which runs the emulator."""
    node = shutil.which("node")
    if not node:
        raise SimulatorError(
            "the emulated Pico needs Node.js (`node` on PATH): apt install nodejs")
    return node


def runner_command(
    image: str, bootrom: str, flash: str, elf: str | None = None, port: int = 0,
    control_port: int = 0,
) -> list[str]:
    """The runner's command line, once every file it needs is checked to be there (each
    missing one is a SimulatorError that names it and says where it comes from)."""
    if not image:
        raise SimulatorError("no image: give the Pico's MicroPython UF2 (--image FILE.uf2)")
    if not os.path.isfile(image):
        raise SimulatorError("no such image: %s (the Pico's MicroPython UF2)" % image)
    if not bootrom:
        raise SimulatorError(
            "no bootrom: give the RP2040's 16 KB bootrom (--bootrom FILE; hardware/README.md)")
    if not os.path.isfile(bootrom):
        raise SimulatorError("no such bootrom: %s (the RP2040's, 16 KB)" % bootrom)
    here = emulator_dir()
    script = os.path.join(here, "pico.mjs")
    if not os.path.isfile(script):
        raise SimulatorError("the emulator is not here: %s (a checkout's emulator/)" % script)
    if not os.path.isdir(os.path.join(here, "node_modules", "rp2040js")):
        raise SimulatorError(
            "the emulator's npm packages are not installed in %s: run `make emulator`" % here)
    cmd = [find_node(), script, "--image", os.path.abspath(image), "--bootrom",
           os.path.abspath(bootrom), "--flash", os.path.abspath(flash),
           "--port", str(port), "--control-port", str(control_port)]
    if elf:
        cmd += ["--elf", os.path.abspath(elf)]
    return cmd


def elf_beside(image: str) -> str | None:
    """The firmware's ELF next to its UF2 (firmware.uf2 -> firmware.elf), for the heap's
    figures; None when there is none."""
    elf = os.path.splitext(image)[0] + ".elf"
    return elf if os.path.isfile(elf) else None


class EmulatedPico:
    """One runner process; `port` is the pyserial URL of the chip's USB serial port."""

    def __init__(
        self, image: str, bootrom: str, flash: str, elf: str | None = None,
        stderr: IO[bytes] | int | None = None, port: int = 0,
    ) -> None:
        self.image = image
        self.bootrom = bootrom
        self.flash = os.path.abspath(flash)  # the flash image file
        self.elf = elf
        self.stderr = stderr
        self.tcp_port = port
        self.proc: subprocess.Popen[bytes] | None = None
        self.port = ""
        self.ready: dict[str, Any] = {}  # the runner's first line
        self.notices: queue.Queue[dict[str, Any]] = queue.Queue()  # boot, reset, fault
        self._control: socket.socket | None = None
        self._control_file: Any = None
        self._lock = threading.Lock()

    def start(self, timeout: float = USB_TIMEOUT) -> str:
        cmd = runner_command(self.image, self.bootrom, self.flash, self.elf, self.tcp_port)
        os.makedirs(os.path.dirname(self.flash), exist_ok=True)
        try:
            self.proc = subprocess.Popen(
                cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr,
                start_new_session=True,
            )
        except OSError as exc:
            raise SimulatorError("cannot start the emulator: %s" % exc) from None
        first: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._read_notices, args=(first,), daemon=True).start()
        try:
            line = first.get(timeout=timeout)
        except queue.Empty:
            self.stop()
            raise SimulatorError("the emulated Pico's USB port did not come up within %.0f s"
                                 % timeout) from None
        if not line:
            code = self.proc.wait()
            self.stop()
            raise SimulatorError("the emulator stopped at start (exit code %d; its error is "
                                 "above)" % code)
        self.ready = json.loads(line)
        self.port = "socket://127.0.0.1:%d" % self.ready["port"]
        return self.port

    def _read_notices(self, first: queue.Queue[bytes]) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        told = False
        for line in self.proc.stdout:
            if not told:
                first.put(line)
                told = True
                continue
            try:
                self.notices.put(json.loads(line))
            except ValueError:
                pass
        if not told:
            first.put(b"")

    def wait_notice(self, event: str, timeout: float) -> dict[str, Any]:
        """The next notice of kind `event` (boot, reset) from the runner; SimulatorError
        when none comes within `timeout` wall seconds."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                notice = self.notices.get(timeout=max(0.01, left))
            except queue.Empty:
                notice = None
            if notice is not None and notice.get("event") == event:
                return notice
            if notice is not None and notice.get("event") == "fault":
                raise SimulatorError("the emulated chip stopped: %s" % notice.get("message"))
            if left <= 0:
                raise SimulatorError("no %s of the emulated Pico within %.0f s" % (event, timeout))

    def control(self, op: str, **args: Any) -> dict[str, Any]:
        """One request on the runner's control channel (emulator/lib/control.mjs)."""
        with self._lock:
            if self._control is None:
                self._control = socket.create_connection(
                    ("127.0.0.1", self.ready["control"]), timeout=60)
                self._control_file = self._control.makefile("rwb")
            msg = dict(args, op=op)
            self._control_file.write(json.dumps(msg).encode() + b"\n")
            self._control_file.flush()
            line = self._control_file.readline()
        if not line:
            raise SimulatorError("the emulator closed its control channel")
        reply: dict[str, Any] = json.loads(line)
        if not reply.get("ok"):
            raise SimulatorError("the emulator refused %s: %s" % (op, reply.get("error")))
        return reply

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def wait(self, timeout: float | None = None) -> int:
        assert self.proc is not None
        return self.proc.wait(timeout)

    def stop(self) -> None:
        """Ends the runner (it writes its flash file back first)."""
        if self._control is not None:
            self._control.close()
            self._control = None
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                pipe.close()

    def __enter__(self) -> EmulatedPico:
        if not self.port:
            self.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


def button_wires(board: str = "pico", layout: str = "full") -> dict[str, tuple[int, int]]:
    """Each button's wire on the board: (GPIO, GPIO) for a key of the matrix (its row, its
    column), (GPIO, -1) for one to ground (the minimal layout), as the runner's `press`
    takes them; from the generated board modules (firmware/hw/boards/)."""
    names = read_module(resources.board_module(board))
    if layout == "minimal":
        return {name: (pin, -1) for name, pin in names["MINIMAL_PINS"].items()}
    rows, cols = names["MATRIX_ROWS"], names["MATRIX_COLS"]
    wires: dict[str, tuple[int, int]] = {}
    for r, line in enumerate(names["KEYMAP"]):
        for c, name in enumerate(line):
            if name is not None and r < len(rows) and c < len(cols):
                wires[name] = (rows[r], cols[c])
    return wires
