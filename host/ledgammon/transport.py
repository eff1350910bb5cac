"""Lines over a serial port: a USB device, the simulator's pty or any pyserial URL.

pyserial's `serial_for_url` opens `/dev/ttyACM0`, a pty path, `socket://host:port` and
`loop://` alike, so the client never cares what is on the other end. Devices are opened
exclusively (a flock), so two programs cannot interleave their lines on one board.
"""

from __future__ import annotations

import errno
import math
import time
import urllib.parse
from dataclasses import dataclass

import serial
import serial.tools.list_ports

from .errors import NoSuchPort, PortBusy, PortError

BAUD = 115200  # ignored by USB CDC and ptys; matters for a UART bridge
POLL_S = 0.05  # the longest a single read waits; read_line loops until its deadline
MAX_LINE = 1 << 22  # bytes: a "line" longer than this (no reply is) is thrown away unread
# USB vendor ids of boards that usually run MicroPython: Raspberry Pi (RP2040/RP2350) and
# Espressif (ESP32-S2/S3 native USB).
MICROPYTHON_VIDS = {0x2E8A: "Raspberry Pi", 0x303A: "Espressif"}
LOG_LEVELS = ("debug", "info", "warning", "error")


# The options pyserial's URL handlers take (their `?option=value&...`), and the values of
# `logging`: anything else makes pyserial fail with the text of a Python error.
URL_OPTIONS: dict[str, dict[str, tuple[str, ...] | None]] = {
    "socket": {"logging": LOG_LEVELS},
    "rfc2217": {"logging": LOG_LEVELS, "ign_set_control": (), "poll_modem": (),
                "timeout": None},
    "loop": {"logging": LOG_LEVELS},
}


def url_problem(url: str) -> str | None:
    """What is wrong with a network or loop URL (socket://HOST:PORT, rfc2217://HOST:PORT,
    loop://), in words; None when it is well formed or not such a URL (a device path)."""
    scheme, sep, rest = url.partition("://")
    options = URL_OPTIONS.get(scheme.lower()) if sep else None
    if options is None:
        return None
    parts = urllib.parse.urlsplit(url)
    form = "%s://HOST:PORT" % scheme.lower()
    if scheme.lower() != "loop":
        try:
            port = parts.port
        except ValueError:
            return "its port must be a number 1-65535 (%s)" % form
        if not parts.hostname:
            return "it names no host (%s)" % form
        if port is None or port == 0:
            return "it names no port, a number 1-65535 (%s)" % form
        if parts.path not in ("", "/"):
            return "it has a path after the port (%s)" % form
    for key, values in urllib.parse.parse_qsl(parts.query, keep_blank_values=True):
        if key not in options:
            return "%s:// takes no option %r (it takes %s)" % (
                scheme.lower(), key, ", ".join(sorted(options)))
        allowed = options[key]
        if allowed and values not in allowed:
            return "its %s must be one of %s, not %r" % (key, "/".join(allowed), values)
        if allowed is None:
            try:
                ok = math.isfinite(float(values)) and float(values) >= 0
            except ValueError:
                ok = False
            if not ok:
                return "its %s must be a number of seconds, not %r" % (key, values)
    return None


def open_port(url: str, exclusive: bool = True) -> serial.SerialBase:
    """Opens `url` for line I/O; NoSuchPort / PortBusy / PortError with a one-line message."""
    problem = url_problem(url)
    if problem:
        raise NoSuchPort("cannot use port %s: %s" % (url, problem))
    try:
        port = serial.serial_for_url(
            url, baudrate=BAUD, timeout=POLL_S, write_timeout=5, exclusive=exclusive
        )
    except ValueError as exc:  # an unknown URL scheme or a bad parameter
        raise NoSuchPort("cannot use port %s: %s" % (url, exc)) from None
    except (TypeError, KeyError, AttributeError):  # a URL its handler cannot read
        raise NoSuchPort("cannot use port %s: pyserial cannot read this URL" % url) from None
    except serial.SerialException as exc:
        code = getattr(exc, "errno", None)
        text = str(exc)
        if code in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EBUSY) or "exclusively lock" in text:
            raise PortBusy("port %s is busy: another program has it open" % url) from None
        if code in (errno.ENOENT, errno.ENODEV, errno.ENXIO) or "No such file" in text:
            raise NoSuchPort("no such port: %s" % url) from None
        if code == errno.EACCES or "Permission denied" in text:
            raise PortError(
                "no permission to open %s (on Linux: add yourself to the dialout group)" % url
            ) from None
        text = text.replace("Could not open port %s: " % url, "")  # said once is enough
        raise PortError("cannot open port %s: %s" % (url, text)) from None
    return port


class Transport:
    """Whole lines in and out of one open port; bytes after the last newline wait."""

    def __init__(self, url: str, exclusive: bool = True) -> None:
        self.url = url
        self.port = open_port(url, exclusive)
        self._buf = bytearray()
        self._skipping = False  # in the middle of an overlong line, until its newline
        try:
            self.port.reset_input_buffer()  # stale events from before we came
        except (serial.SerialException, OSError, NotImplementedError):
            pass

    def write_line(self, data: bytes) -> None:
        try:
            self.port.write(data + b"\n")
            self.port.flush()
        except (serial.SerialException, OSError) as exc:
            raise PortError("writing to %s failed: %s" % (self.url, exc)) from None

    def read_line(self, timeout: float) -> bytes | None:
        """The next complete line (without CR/LF), or None when `timeout` seconds pass.
        A line over MAX_LINE bytes is dropped whole: a broken board cannot fill our memory."""
        deadline = time.monotonic() + timeout
        while True:
            i = self._buf.find(b"\n")
            if i >= 0:
                line = bytes(self._buf[:i])
                del self._buf[: i + 1]
                if self._skipping or len(line) > MAX_LINE:
                    self._skipping = False
                    continue
                return line.rstrip(b"\r")
            if len(self._buf) > MAX_LINE:
                self._buf.clear()
                self._skipping = True
            if time.monotonic() >= deadline:
                return None
            try:
                chunk = self.port.read(1)
                if chunk:
                    waiting = self.port.in_waiting
                    if waiting:
                        chunk += self.port.read(waiting)
            except (serial.SerialException, OSError) as exc:
                raise PortError("reading from %s failed: %s" % (self.url, exc)) from None
            self._buf += chunk

    def close(self) -> None:
        try:
            self.port.close()
        except (serial.SerialException, OSError):
            pass


@dataclass
class PortInfo:
    """A serial port found on this computer; `likely` marks a probable MicroPython board."""

    device: str
    description: str
    vid: int | None
    pid: int | None
    serial_number: str | None
    likely: bool


def list_ports() -> list[PortInfo]:
    """Serial ports now connected, likely boards first."""
    out = []
    for p in serial.tools.list_ports.comports():
        vid = p.vid
        out.append(
            PortInfo(
                device=p.device,
                description=p.description or "",
                vid=vid,
                pid=p.pid,
                serial_number=p.serial_number,
                likely=vid in MICROPYTHON_VIDS,
            )
        )
    out.sort(key=lambda q: (not q.likely, q.device))
    return out
