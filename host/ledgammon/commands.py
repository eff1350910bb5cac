"""The `ledgammon` subcommands: each takes the parsed arguments and returns an exit code.

Every command that talks to a board takes --port (a device, the simulator's pty or a pyserial
URL); without it, $LEDGAMMON_PORT or the one MicroPython-looking USB board connected is used.
Problems are raised as LedgammonError; cli.main turns them into one line on stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from collections.abc import Callable
from typing import Any

from . import transport
from .client import Client
from .errors import BoardError, LedgammonError, NoSuchPort, SimulatorError
from .sim import Simulator
from .wording import RESULTS, board_doing


def _port(args: argparse.Namespace) -> str:
    """--port, else $LEDGAMMON_PORT, else the only likely board connected."""
    if args.port:
        return str(args.port)
    env = os.environ.get("LEDGAMMON_PORT")
    if env:
        return env
    likely = [p.device for p in transport.list_ports() if p.likely]
    if len(likely) == 1:
        return likely[0]
    raise NoSuchPort(
        "no port given and %s: use --port (`ledgammon ports` lists them)"
        % ("no board found" if not likely else "several boards found (%s)" % ", ".join(likely))
    )


def _connect(args: argparse.Namespace) -> Client:
    return Client(_port(args), timeout=args.timeout)


def _out(args: argparse.Namespace, reply: dict[str, Any], text: str) -> int:
    if args.json:
        print(json.dumps(reply))
    else:
        print(text)
    return 0


def _dice(d: Any) -> str:
    return "%d-%d" % (d[0], d[1]) if d else "none"


def describe(st: dict[str, Any]) -> str:
    """One line about a `state` reply, for people; the board's own side in the terminal's words."""
    if st.get("phase") == "over":
        result = int(st.get("result") or 0)
        kind = "a %s" % RESULTS[result] if result in RESULTS else ""
        return "game %s over: player %s wins %s" % (st.get("game"), st.get("winner"), kind)
    what = {
        "opening": "the opening roll is next",
        "roll": "player %s to roll" % st.get("turn"),
        "move": "player %s to move %s" % (st.get("turn"), _dice(st.get("dice"))),
        "done": "player %s has played %s" % (st.get("turn"), _dice(st.get("dice"))),
    }.get(str(st.get("phase")), str(st.get("phase")))
    parts = ["game %s: %s" % (st.get("game"), what)]
    if st.get("steps"):
        parts.append("steps " + " ".join(st["steps"]))
    if st.get("phase") == "move":
        parts.append("%d legal plays" % len(st.get("plays") or []))
    doing = board_doing(st)
    if doing:
        parts.append(doing)
    pips = st.get("pips") or [0, 0]
    parts.append("pips %d-%d" % (pips[0], pips[1]))
    parts.append("position %s" % st.get("position_id"))
    return "; ".join(parts)


def _request(
    args: argparse.Namespace, cmd: str, text: Callable[[dict[str, Any]], str], **req: Any
) -> int:
    """One request; --json prints the raw reply (an error reply still exits non-zero)."""
    with _connect(args) as client:
        reply = client.request(cmd, **req)
    if not reply.get("ok"):
        err = reply.get("error") or {}
        if args.json:
            print(json.dumps(reply))
        raise BoardError(str(err.get("code", "error")), str(err.get("message", "")))
    return _out(args, reply, text(reply))


# The commands
def cmd_ports(args: argparse.Namespace) -> int:
    ports = transport.list_ports()
    if args.json:
        print(json.dumps([p.__dict__ for p in ports]))
        return 0
    if not ports:
        print("no serial ports found")
    for p in ports:
        ids = "%04x:%04x" % (p.vid, p.pid or 0) if p.vid is not None else "-"
        mark = "  <- likely a MicroPython board" if p.likely else ""
        print("%-20s %-10s %s%s" % (p.device, ids, p.description, mark))
    return 0


def cmd_hello(args: argparse.Namespace) -> int:
    def text(r: dict[str, Any]) -> str:
        return "ledgammon firmware %s, protocol %s, board %s (%s layout, %s LEDs)" % (
            r.get("firmware"),
            r.get("protocol"),
            r.get("board"),
            r.get("layout"),
            r.get("leds"),
        )

    return _request(args, "hello", text)


def cmd_state(args: argparse.Namespace) -> int:
    return _request(args, "state", describe)


def cmd_roll(args: argparse.Namespace) -> int:
    if args.dice and len(args.dice) != 2:
        raise LedgammonError("roll takes two dice (e.g. `ledgammon roll 3 1`) or none")

    def text(r: dict[str, Any]) -> str:
        if r.get("entering"):
            return "enter the dice on the board"
        return "player %s rolled %s" % (r.get("player"), _dice(r.get("dice")))

    if args.dice:
        return _request(args, "roll", text, dice=list(args.dice))
    return _request(args, "roll", text)


def cmd_move(args: argparse.Namespace) -> int:
    play = " ".join(args.play)
    return _request(args, "move", lambda r: "moved " + " ".join(r.get("steps") or []), play=play)


def cmd_undo(args: argparse.Namespace) -> int:
    return _request(args, "undo", lambda r: "took back %s" % r.get("step"))


def cmd_hint(args: argparse.Namespace) -> int:
    def text(r: dict[str, Any]) -> str:
        return "hint: %s (steps to make: %s)" % (r.get("play"), " ".join(r.get("steps") or []))

    return _request(args, "hint", text)


def cmd_new(args: argparse.Namespace) -> int:
    return _request(args, "new", lambda r: "game %s: a new game" % r.get("game"))


def cmd_history(args: argparse.Namespace) -> int:
    def text(r: dict[str, Any]) -> str:
        lines = ["opening %s" % _dice(r.get("opening"))]
        for i, t in enumerate(r.get("turns") or []):
            lines.append(
                "%3d. player %s %s: %s"
                % (i + 1, t["player"], _dice(t["dice"]), t["play"] or "(no move)")
            )
        if r.get("winner") is not None:
            lines.append("player %s wins (%s)" % (r["winner"], r.get("result")))
        return "\n".join(lines)

    return _request(args, "history", text)


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


def _configure_players(client: Client, args: argparse.Namespace) -> None:
    """Sets --players and --level on the board before the game is shown."""
    changes: dict[str, Any] = {}
    if getattr(args, "players", None):
        changes["players"] = players_arg(args.players)
    if getattr(args, "level", None):
        changes["level"] = args.level
    if changes:
        reply = client.request("config", set=changes)
        if not reply.get("ok"):
            err = reply.get("error") or {}
            raise BoardError(str(err.get("code", "error")), str(err.get("message", "")))


def _setting(item: str) -> tuple[str, Any]:
    if "=" not in item:
        raise LedgammonError("config takes KEY=VALUE (e.g. brightness=64), not %r" % item)
    key, raw = item.split("=", 1)
    try:
        return key, json.loads(raw)
    except ValueError:
        return key, raw.split(",") if key == "players" else raw


def cmd_config(args: argparse.Namespace) -> int:
    def text(r: dict[str, Any]) -> str:
        return " ".join("%s=%s" % (k, json.dumps(v)) for k, v in sorted(r["settings"].items()))

    if args.settings:
        return _request(args, "config", text, set=dict(_setting(s) for s in args.settings))
    return _request(args, "config", text)


def cmd_press(args: argparse.Namespace) -> int:
    with _connect(args) as client:
        for button in args.buttons:
            reply = client.request("press", button=button)
            if args.json:
                print(json.dumps(reply))
            if not reply.get("ok"):
                err = reply.get("error") or {}
                raise BoardError(str(err.get("code")), "%s: %s" % (button, err.get("message")))
        if not args.json:
            print(describe(client.state()))
    return 0


def cmd_snapshot(args: argparse.Namespace) -> int:
    from . import boardinfo, picture

    with _connect(args) as client:
        frame = client.frame()
        st = client.state()
        board = boardinfo.load(str(client.info.get("board") or "pico"))
    picture.save_png(frame, board, args.file, st)
    print("wrote %s" % args.file)
    return 0


def _done_turn(st: dict[str, Any]) -> dict[str, Any]:
    """The turn of a `done` state as a record entry, its play in standard notation."""
    from gammon.notation import find_play
    from gammon.position import Position

    dice = (int(st["dice"][0]), int(st["dice"][1]))
    play = find_play(Position.from_id(st["position_id"]), dice, " ".join(st["steps"]))
    return {"player": st["turn"], "dice": list(dice), "play": str(play)}


def cmd_export(args: argparse.Namespace) -> int:
    from . import export

    with _connect(args) as client:
        history = client.history()
        st = client.state()
    if st.get("phase") == "done":  # a finished play the next ROLL has not yet recorded
        history["turns"].append(_done_turn(st))
    score = list(st.get("score") or [0, 0])
    if history.get("winner") is not None:  # the score before this game
        score[history["winner"]] -= int(history.get("result") or 0) * int(st.get("cube") or 1)
    text = export.to_mat(
        history,
        match_length=int(st.get("match_length") or 0),
        score=score,
        game=int(st.get("game") or 1),
    )
    with open(args.file, "w") as f:
        f.write(text)
    print("wrote %s (%d turns)" % (args.file, len(history.get("turns") or [])))
    print("Position ID: %s" % export.position_id(st))
    print("Match ID: %s" % export.match_id(st))
    return 0


def _simulator(args: argparse.Namespace, log: str | None = None) -> Simulator:
    return Simulator(
        flash=args.flash,
        layout=args.button_layout,
        seed=args.seed,
        python=args.python,
        log=log,
        pace=args.pace,
        board_timing=getattr(args, "board_timing", "none"),
    )


def _on_signal(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def cmd_sim(args: argparse.Namespace) -> int:
    signal.signal(signal.SIGTERM, _on_signal)
    sim = _simulator(args)
    sim.start()
    try:
        print(sim.port, flush=True)
        print(
            "simulator on %s, flash in %s (Ctrl-C stops it)" % (sim.port, sim.flash),
            file=sys.stderr,
        )
        code = sim.wait()
        raise SimulatorError("the simulator stopped (exit code %d)" % code)
    except KeyboardInterrupt:
        return 0
    finally:
        sim.stop()


def _view(client: Client, interactive: bool) -> int:
    from . import terminal

    return int(terminal.run_view(client, interactive=interactive))


def cmd_play(args: argparse.Namespace) -> int:
    if args.players:
        players_arg(args.players)  # a bad value fails before a simulator starts
    if args.port:
        with _connect(args) as client:
            _configure_players(client, args)
            return _view(client, True)
    signal.signal(signal.SIGTERM, _on_signal)
    with _simulator(args, "sim.log") as sim, Client(sim.port, timeout=args.timeout) as client:
        _configure_players(client, args)
        return _view(client, True)


def cmd_watch(args: argparse.Namespace) -> int:
    with _connect(args) as client:
        return _view(client, False)


def cmd_deploy(args: argparse.Namespace) -> int:
    from . import deploy

    deploy.deploy(_port(args), board=args.board, build=args.build, dry_run=args.dry_run)
    return 0
