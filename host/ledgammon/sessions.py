"""The `ledgammon` commands that run until stopped: `sim`, `play` and `watch`.

Each takes the parsed arguments and returns an exit code; problems are raised as
LedgammonError (cli.main turns them into one line on stderr). The one-request commands
are in commands.py.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from typing import Any

from .chip import FLASH_NAME, EmulatedPico, elf_beside
from .client import Client
from .commands import board_of, connect
from .errors import LedgammonError, SimulatorError
from .sim import Simulator, default_flash

PLAYERS = ("human", "board")


def players_arg(text: str) -> list[str]:
    """--players "human,board" as the `config` value; LedgammonError for anything else."""
    players = [p.strip().lower() for p in text.split(",")]
    if len(players) != 2 or any(p not in PLAYERS for p in players):
        raise LedgammonError(
            "--players takes two of human/board, player 0's first (e.g. human,board), not %r"
            % text
        )
    return players


def match_terms(args: argparse.Namespace) -> dict[str, Any]:
    """--match and --cube as `config` settings; LedgammonError for a length out of range."""
    terms: dict[str, Any] = {}
    match = getattr(args, "match", None)
    if match is not None:
        if not 0 <= match <= 25:
            raise LedgammonError("--match takes 1-25 points, or 0 for money play, not %d" % match)
        terms["match_length"] = match
        terms["cube"] = getattr(args, "cube", None) != "off"
    elif getattr(args, "cube", None):
        terms["cube"] = args.cube == "on"
    return terms


def _configure_players(client: Client, args: argparse.Namespace) -> None:
    """Sets --players, --level, --match and --cube on the board before the game is shown;
    new match terms start a new match at once (the board applies them from the next)."""
    changes: dict[str, Any] = {}
    if getattr(args, "players", None):
        changes["players"] = players_arg(args.players)
    if getattr(args, "level", None):
        changes["level"] = args.level
    terms = match_terms(args)
    if changes or terms:
        client.call("config", set=dict(changes, **terms))
    if terms:
        client.call("new")


Board = Simulator | EmulatedPico
# options of the unix-port simulator that an image's own firmware decides for itself
NOT_WITH_IMAGE = (("python", "--python"), ("board_timing", "--board-timing"),
                  ("seed", "--seed"), ("pace", "--pace"), ("button_layout", "--button-layout"))
CHIP_TIMEOUT = 60.0  # seconds for a reply from the emulated chip (~0.1x real time)


def _emulated(args: argparse.Namespace, log: str | None = None) -> EmulatedPico:
    """The emulated Pico for --image: its flash file in --flash DIR (default: beside the
    simulator's flash directory), its runner's errors in DIR/LOG when `log` is given."""
    if getattr(args, "board", "pico") != "pico":
        raise LedgammonError("--image runs on an emulated RP2040: --board pico only")
    for name, option in NOT_WITH_IMAGE:
        if getattr(args, name, None) not in (None, False, "none"):
            raise LedgammonError("%s is for the unix-port simulator, not with --image (the "
                                 "image's own firmware decides)" % option)
    folder = args.flash or os.path.join(os.path.dirname(default_flash()), "pico")
    stderr = None
    if log:
        os.makedirs(folder, exist_ok=True)
        stderr = open(os.path.join(folder, log), "ab")
    return EmulatedPico(args.image, args.bootrom or os.environ.get("LEDGAMMON_BOOTROM", ""),
                        os.path.join(folder, FLASH_NAME), elf_beside(args.image), stderr=stderr)


def _simulator(args: argparse.Namespace, log: str | None = None) -> Board:
    """The unix-port simulator, or the emulated Pico when --image is given."""
    if getattr(args, "image", None):
        return _emulated(args, log)
    return Simulator(
        flash=args.flash,
        layout=args.button_layout,
        seed=args.seed,
        python=args.python,
        log=log,
        pace=args.pace,
        board_timing=getattr(args, "board_timing", "none"),
        board=getattr(args, "board", "pico"),
    )


def _on_signal(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _stop_on_signals() -> None:
    """Ctrl-C and SIGTERM stop the simulator cleanly, also when the parent left SIGINT
    ignored (a background job, some test runners and libraries do: Python then installs no
    KeyboardInterrupt handler of its own, and the simulator would never stop on it)."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _on_signal)


def cmd_sim(args: argparse.Namespace) -> int:
    _stop_on_signals()
    sim = _simulator(args)
    sim.start()
    try:
        print(sim.port, flush=True)
        print(
            "simulator on %s, flash in %s (Ctrl-C stops it)" % (sim.port, sim.flash),
            file=sys.stderr,
        )
        if isinstance(sim, EmulatedPico):
            print("the emulated chip runs at about a tenth of real time: give clients a "
                  "longer --timeout (e.g. 30)", file=sys.stderr)
        code = sim.wait()
        raise SimulatorError("the simulator stopped (exit code %d)" % code)
    except KeyboardInterrupt:
        return 0
    finally:
        sim.stop()


def _view(client: Client, interactive: bool) -> int:
    from . import terminal

    board = board_of(client)  # a board we cannot draw fails before curses starts
    return int(terminal.run_view(client, interactive=interactive, board=board))


def cmd_play(args: argparse.Namespace) -> int:
    if args.players:
        players_arg(args.players)  # a bad value fails before a simulator starts
    match_terms(args)
    if args.port:
        with connect(args) as client:
            _configure_players(client, args)
            return _view(client, True)
    _stop_on_signals()
    with _simulator(args, "sim.log") as sim, Client(
        sim.port, timeout=max(args.timeout, CHIP_TIMEOUT) if args.image else args.timeout
    ) as client:
        _configure_players(client, args)
        return _view(client, True)


def cmd_watch(args: argparse.Namespace) -> int:
    with connect(args) as client:
        return _view(client, False)
