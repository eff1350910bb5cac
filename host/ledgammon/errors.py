"""The errors the host tools report: each becomes one line on stderr and a non-zero exit."""

from __future__ import annotations

from typing import Any


class LedgammonError(Exception):
    """Base: a problem to show the user as one line, with the exit code to end with."""

    exit_code = 1


class PortError(LedgammonError):
    """The port cannot be opened: it does not exist, or another program holds it."""

    exit_code = 2


class NoSuchPort(PortError):
    """No device or pty at that path (or an unusable URL)."""


class PortBusy(PortError):
    """Another program (a terminal, mpremote, another ledgammon) has the port open."""


class NoAnswer(LedgammonError):
    """The port opened but no board answered in time (not our firmware, or it hangs)."""

    exit_code = 3


class ProtocolMismatch(LedgammonError):
    """The board speaks another protocol version: update the firmware or the host tools."""

    exit_code = 4


class BoardError(LedgammonError):
    """The board answered a request with an error reply (illegal move, wrong phase...);
    `reply` is that reply, for --json."""

    exit_code = 5

    def __init__(self, code: str, message: str, reply: dict[str, Any] | None = None) -> None:
        super().__init__("%s: %s" % (code, message))
        self.code = code
        self.message = message
        self.reply = reply or {"ok": False, "error": {"code": code, "message": message}}


class BadReply(LedgammonError):
    """The board's reply is not what the protocol says (a field missing or of the wrong
    type): a firmware with a bug, or not the ledgammon firmware at all."""

    exit_code = 8


class SimulatorError(LedgammonError):
    """The simulator could not start, or stopped on its own."""

    exit_code = 6


class DeployError(LedgammonError):
    """Compiling or copying the firmware failed."""

    exit_code = 7
