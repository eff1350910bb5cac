"""The `ledgammon` commands of one or a few requests: each takes the parsed arguments and
returns an exit code (`sim`, `play` and `watch` are in sessions.py).

Every command that talks to a board takes --port (a device, the simulator's pty or a pyserial
URL); without it, $LEDGAMMON_PORT or the one MicroPython-looking USB board connected is used.
Problems are raised as LedgammonError; cli.main turns them into one line on stderr. The
replies arrive checked (client.py, replies.py), so the commands read their fields directly.
"""

from __future__ import annotations

import argparse
import json
import math
import os
from collections.abc import Callable
from typing import Any

from . import boardinfo, match_words, transport
from .client import Client
from .errors import BadReply, BoardError, LedgammonError, NoSuchPort
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


def connect(args: argparse.Namespace) -> Client:
    return Client(_port(args), timeout=args.timeout)


def board_of(client: Client) -> boardinfo.Board:
    """The LED layout of the board `hello` named; BadReply for a board we do not know."""
    name = client.info.get("board") or "pico"
    try:
        return boardinfo.load(str(name))
    except (ValueError, OSError) as exc:
        raise BadReply("the board on %s says it is a %r: %s" % (client.url, name, exc)) from None


def ask(client: Client, args: argparse.Namespace, cmd: str, **req: Any) -> dict[str, Any]:
    """One request; an error reply is BoardError, printed first as it came with --json."""
    try:
        return client.call(cmd, **req)
    except BoardError as exc:
        if getattr(args, "json", False):
            print(json.dumps(exc.reply))
        raise


def _out(args: argparse.Namespace, reply: dict[str, Any], text: str) -> int:
    if args.json:
        print(json.dumps(reply))
    else:
        print(text)
    return 0


def dice_text(d: Any) -> str:
    return "%d-%d" % (d[0], d[1]) if d else "none"


def describe(st: dict[str, Any]) -> str:
    """One line about a `state` reply, for people; the board's own side in the terminal's words."""
    match = [w for w in (match_words.cube_words(st), match_words.score_words(st)) if w]
    if st.get("phase") == "over":
        result = int(st.get("result") or 0)
        won, how = match_words.game_points(st)
        kind = "a %s, " % RESULTS[result] if result in RESULTS and not how else ""
        tail = " (player %s %s)" % (1 - int(st.get("winner") or 0), how) if how else ""
        text = "game %s over: player %s wins %s%s%s" % (
            st.get("game"), st.get("winner"), kind, match_words.points(won), tail)
        return "; ".join([text] + match + [w for w in [match_words.match_over(st)] if w])
    what = {
        "opening": "the opening roll is next",
        "roll": "player %s to roll" % st.get("turn"),
        "move": "player %s to move %s" % (st.get("turn"), dice_text(st.get("dice"))),
        "done": "player %s has played %s" % (st.get("turn"), dice_text(st.get("dice"))),
    }.get(str(st.get("phase")), str(st.get("phase")))
    parts = ["game %s: %s" % (st.get("game"), what)]
    ask = match_words.asked(st)
    if ask:
        parts.append(ask)
    elif st.get("may_double"):
        parts.append("may double")
    if st.get("steps"):
        parts.append("steps " + " ".join(st["steps"]))
    if st.get("phase") == "move":
        parts.append("%d legal plays" % len(st.get("plays") or []))
    doing = board_doing(st)
    if doing:
        parts.append(doing)
    pips = st.get("pips") or [0, 0]
    parts.append("pips %d-%d" % (pips[0], pips[1]))
    parts += match
    parts.append("position %s" % st.get("position_id"))
    return "; ".join(parts)


def request(
    args: argparse.Namespace, cmd: str, text: Callable[[dict[str, Any]], str], **req: Any
) -> int:
    """One request; --json prints the raw reply (an error reply still exits non-zero)."""
    with connect(args) as client:
        reply = ask(client, args, cmd, **req)
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
        units = r.get("network_units")  # (older firmware does not say)
        player = "" if "network_units" not in r else (
            ", its player's network %d units" % units if units else ", no player's network")
        return "ledgammon firmware %s, protocol %d, board %s (%s layout, %d LEDs%s)" % (
            r["firmware"], r["protocol"], r["board"], r["layout"], r["leds"], player)

    return request(args, "hello", text)


def cmd_state(args: argparse.Namespace) -> int:
    return request(args, "state", describe)


def cmd_roll(args: argparse.Namespace) -> int:
    if args.dice and len(args.dice) != 2:
        raise LedgammonError("roll takes two dice (e.g. `ledgammon roll 3 1`) or none")

    def text(r: dict[str, Any]) -> str:
        if r.get("entering"):
            return "enter the dice on the board"
        if r.get("board"):
            return "player %d (the board) is to roll: it throws its own dice" % r["player"]
        return "player %d rolled %s" % (r["player"], dice_text(r["dice"]))

    if args.dice:
        return request(args, "roll", text, dice=list(args.dice))
    return request(args, "roll", text)


def cmd_move(args: argparse.Namespace) -> int:
    play = " ".join(args.play)
    return request(args, "move", lambda r: "moved " + " ".join(r["steps"]), play=play)


def cmd_undo(args: argparse.Namespace) -> int:
    def text(r: dict[str, Any]) -> str:
        step = r.get("step")
        return "took back %s" % step if step else "took back the last entry"

    return request(args, "undo", text)


def cmd_hint(args: argparse.Namespace) -> int:
    def text(r: dict[str, Any]) -> str:
        if "cube" in r:  # a person's cube decision: the board's advice
            return "hint for %s" % match_words.advice_words(r["cube"])
        return "hint: %s (steps to make: %s)" % (r["play"], " ".join(r["steps"]))

    return request(args, "hint", text)


def cmd_new(args: argparse.Namespace) -> int:
    return request(args, "new", lambda r: "game %d: a new game" % r["game"])


def _finite(text: str) -> float:
    """json.loads' parse_float: a number JSON can send (1e999 is infinite: no JSON number)."""
    value = float(text)
    if not math.isfinite(value):
        raise OverflowError(text)
    return value


def _setting(item: str) -> tuple[str, Any]:
    if "=" not in item:
        raise LedgammonError("config takes KEY=VALUE (e.g. brightness=64), not %r" % item)
    key, raw = item.split("=", 1)
    try:
        return key, json.loads(raw, parse_float=_finite, parse_constant=_no_constant)
    except OverflowError:
        raise LedgammonError("config %s: %s is beyond any number JSON can send (infinite)"
                             % (item, raw)) from None
    except ValueError:
        return key, raw.split(",") if key == "players" else raw


def _no_constant(name: str) -> Any:
    """json.loads' parse_constant: NaN and Infinity are no JSON: taken as the word itself."""
    raise ValueError(name)


def cmd_config(args: argparse.Namespace) -> int:
    def text(r: dict[str, Any]) -> str:
        out = " ".join("%s=%s" % (k, json.dumps(v)) for k, v in sorted(r["settings"].items()))
        note = match_words.next_terms_words(r.get("next_terms"))
        return out + "\n" + note if note else out

    if args.settings:
        return request(args, "config", text, set=dict(_setting(s) for s in args.settings))
    return request(args, "config", text)


def cmd_press(args: argparse.Namespace) -> int:
    with connect(args) as client:
        for button in args.buttons:
            try:
                reply = ask(client, args, "press", button=button)
            except BoardError as exc:
                raise BoardError(exc.code, "%s: %s" % (button, exc.message), exc.reply) from None
            if args.json:
                print(json.dumps(reply))
        if not args.json:
            print(describe(client.state()))
    return 0


def write_file(path: str, what: str, write: Callable[[], None]) -> None:
    """Writes a file once everything in it is known; one line for any failure."""
    try:
        write()
    except OSError as exc:
        raise LedgammonError(
            "cannot write %s %s: %s" % (what, path, exc.strerror or exc)
        ) from None


def cmd_snapshot(args: argparse.Namespace) -> int:
    try:
        from . import picture
    except ImportError as exc:
        raise LedgammonError("snapshot needs Pillow (pip install pillow): %s" % exc) from None

    with connect(args) as client:
        frame = client.frame()
        st = client.state()
        board = board_of(client)
    write_file(args.file, "the picture", lambda: picture.save_png(frame, board, args.file, st))
    print("wrote %s" % args.file)
    return 0


def cmd_deploy(args: argparse.Namespace) -> int:
    from . import deploy

    deploy.deploy(_port(args), board=args.board, build=args.build, dry_run=args.dry_run,
                  frozen=args.frozen)
    return 0
