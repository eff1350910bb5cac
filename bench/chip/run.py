"""`make chip`: the board on its real chip, the Pico's MicroPython image on the emulated RP2040.

Boots the stock image and the frozen one (hardware/README.md), installs the firmware on each
as `ledgammon deploy` does (.mpy files on the stock image, `--frozen` on the frozen one) and
plays to the end over the USB serial link: a money game against the strong board, a game of a
5-point match with the cube (the board deciding its cube), the board against itself at the
easy level (stock image), and the match game on the frozen image. Every time is of the chip's
own clock (the runner stamps each serial line as it crosses, emulator/lib/cdc.mjs), so the
emulator's speed (~0.1x real time) does not enter the figures; the heap is read from its
allocation table at each collection (emulator/lib/heap.mjs). Writes build/chip.json (KB and
ms) and prints a table; a scenario that cannot finish leaves its figures so far and
`*_complete` false.

    python -m bench.chip --stock STOCK.uf2 --frozen FROZEN.uf2 --bootrom BOOTROM.bin
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import sys
import threading
import time
from typing import Any

from ledgammon import chip, deploy
from ledgammon.client import Client
from ledgammon.errors import BoardError, LedgammonError

PACE_MS = 700  # the board's own player's pace (Controller.pace_ms)
# roll event -> first step event = the dice rolling (a pace) + the thinking + the first
# step's checker shown (2/3 of a pace): the thinking is what is left
MOVE_OVERHEAD_MS = PACE_MS + PACE_MS * 2 // 3
QUIET_NS = 2.5 * PACE_MS * 1e6  # no event for this long (chip time): the board's turn is over
TIMEOUT = 600.0  # wall seconds for one reply (a long think at 0.05x real time)
GAME_WALL_S = 3 * 3600.0
TURN_WALL_S = 1800.0  # a game longer than this is given up


def ms(ns: float) -> float:
    return ns / 1e6


class Link:
    """The board's link seen with the chip's clock: each request's round trip from its line
    reaching the chip to its reply leaving it; the events with their times."""

    def __init__(self, pico: Any, client: Client) -> None:
        self.pico = pico
        self.client = client
        self.seq = 0
        self.lines: list[dict[str, Any]] = []
        self.rtt: dict[str, list[float]] = {}

    def sync(self) -> list[dict[str, Any]]:
        got = self.pico.control("lines", since=self.seq)["lines"]
        if got:
            self.seq = got[-1]["seq"]
            self.lines.extend(got)
            del self.lines[:-2000]
        return list(got)

    def wait(self, timeout: float) -> None:
        """Reads the port for `timeout` seconds (the events are taken from the stamps)."""
        list(self.client.events(timeout))
        self.sync()

    def now_ns(self) -> float:
        return float(self.pico.control("status")["sim_ns"])

    def timed(self, label: str, cmd: str, **args: Any) -> dict[str, Any]:
        """A request whose round trip (chip time) is kept under `label`."""
        reply = self.client.request(cmd, **args)
        rid = self.client._next_id - 1
        self.sync()
        sent = [x["ns"] for x in self.lines if x["dir"] == "in" and x.get("id") == rid]
        back = [x["ns"] for x in self.lines if x["dir"] == "out" and x.get("id") == rid]
        if sent and back:
            self.rtt.setdefault(label, []).append(ms(back[-1] - sent[-1]))
        return reply

    def call(self, label: str, cmd: str, **args: Any) -> dict[str, Any]:
        reply = self.timed(label, cmd, **args)
        if not reply["ok"]:
            err = reply["error"]
            raise BoardError(err["code"], err["message"], reply)
        return reply

    def events_since(self, seq: int) -> list[dict[str, Any]]:
        out = []
        for x in self.lines:
            if x["seq"] > seq and x["dir"] == "out" and '"event"' in x["line"]:
                try:
                    ev = json.loads(x["line"])
                except ValueError:
                    m = re.search(r'"event":\s*"(\w+)"', x["line"])
                    ev = {"event": m.group(1) if m else "?"}
                ev["_ns"] = x["ns"]
                ev["_seq"] = x["seq"]
                out.append(ev)
        return out


class Heap:
    def __init__(self, pico: Any) -> None:
        self.pico = pico

    def reset(self) -> None:
        self.pico.control("heap", reset=True)

    def figures(self) -> dict[str, Any]:
        return self.pico.control("heap")


def kb(n: float | None) -> float | None:
    return None if n is None else round(n / 1024, 1)


class Scenario:
    """One game played over the link; `moves` fills as it goes."""

    def __init__(self, name: str, link: Link, heap: Heap, rng: random.Random) -> None:
        self.name = name
        self.link = link
        self.heap = heap
        self.rng = rng
        self.moves: list[float] = []  # the board's thinking, ms
        self.measured: set[int] = set()  # the roll events whose play was timed
        self.errors: list[dict[str, Any]] = []
        self.start = 0
        self.players: list[str] = []

    def follow_board(self, probe: bool) -> bool:
        """Times each throw of the board's since the game began: from its roll event to its
        first step (less the pace's parts, MOVE_OVERHEAD_MS); with `probe`, asks hello and
        state while it thinks. True once the game is over."""
        link = self.link
        probes = 0
        seen = -1
        deadline = time.monotonic() + TURN_WALL_S
        while True:
            if time.monotonic() > deadline:
                raise LedgammonError("the board did nothing for %.0f s" % TURN_WALL_S)
            evs = link.events_since(self.start)
            if len(evs) != seen:  # something happened: the board is alive
                seen = len(evs)
                deadline = time.monotonic() + TURN_WALL_S
            self.errors = [e for e in evs if e["event"] == "error"
                           and e.get("code") in ("internal", "no_player")]
            waiting = False
            for i, ev in enumerate(evs):
                if ev["event"] != "roll" or ev["_seq"] in self.measured:
                    continue
                after = [e for e in evs[i + 1:] if e["event"] in ("step", "nomove", "over")]
                if not after:
                    waiting = True
                    continue
                first = after[0]
                self.measured.add(ev["_seq"])
                who = first.get("player")
                if first["event"] == "step" and isinstance(who, int) and \
                        self.players[who] == "board":
                    self.moves.append(ms(first["_ns"] - ev["_ns"]) - MOVE_OVERHEAD_MS)
            if any(e["event"] == "over" for e in evs):
                return True
            if waiting:  # thinking: asked nothing, unless this is a probed turn
                if probe and probes < 4:
                    probes += 1
                    link.timed("hello_thinking", "hello")
                    link.timed("state_thinking", "state")
                    link.timed("press_thinking", "press", button="UNDO")  # refused meanwhile
                    continue
            else:  # its play made, or not begun: done once the board is quiet a while
                last = evs[-1]["_ns"] if evs else 0
                if link.now_ns() - last > QUIET_NS:
                    return False
            link.wait(2.0)

    def play(self, players: list[str], level: str, terms: dict[str, Any]) -> bool:
        """Plays one game to its end: the host plays player 0 where it is a person (a random
        legal play, takes every double, accepts every resignation)."""
        link = self.link
        self.players = players
        link.call("config", "config", set=dict(players=players, level=level, **terms))
        self.heap.reset()
        link.sync()
        self.start = link.seq
        link.call("new", "new")
        began = time.monotonic()
        while time.monotonic() - began < GAME_WALL_S:
            if players == ["board", "board"]:  # nothing to ask: follow the events
                if self.follow_board(probe=False):
                    return True
                link.wait(2.0)
                continue
            st = link.call("state_person", "state")
            if st["phase"] == "over" or st.get("winner") is not None:
                self.follow_board(probe=False)
                return True
            offer = st.get("offer")
            if st.get("bot") is not None:  # every other throw of the board's is probed
                self.follow_board(probe=len(self.measured) % 2 == 1)
                continue
            if offer is not None:
                if players[1 - offer["by"]] == "board":  # the board answers its own
                    link.wait(2.0)
                    continue
                link.call("answer", "take" if offer["kind"] == "double" else "accept")
                continue
            if st["phase"] in ("opening", "roll", "done"):
                reply = link.call("roll", "roll")
                who = reply.get("player")
                if reply.get("board") or (isinstance(who, int) and players[who] == "board"):
                    # the board's turn: followed by its events alone, so nothing asked
                    # slows its thinking (but on the probed turns)
                    self.follow_board(probe=len(self.measured) % 2 == 1)
                continue
            if st["phase"] == "move" and st["plays"]:
                link.call("move", "move", play=self.rng.choice(st["plays"]))
                continue
            link.wait(1.0)
        return False


def press_to_frame(pico: chip.EmulatedPico, link: Link, wires: dict[str, tuple[int, int]],
                   out: dict[str, list[float]]) -> None:
    """UNDO pressed on the board's own buttons with nothing to undo: the red flash's frame,
    from the press (chip time) to the frame's first word written to the strip."""
    a, b = wires["UNDO"]
    for _ in range(3):
        last = pico.control("frames", since=0)["frames"]
        since = last[-1]["seq"] if last else 0
        at = pico.control("press", a=a, b=b, ms=80)["sim_ns"]
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            frames = [f for f in pico.control("frames", since=since)["frames"]
                      if f["start_ns"] > at]
            if frames:
                out.setdefault("press_to_frame", []).append(ms(frames[0]["start_ns"] - at))
                break
            time.sleep(0.5)
        list(link.client.events(3.0))


STRIP_PROBE = """
import rp2, time
from machine import Pin
from hw.pio_strip import PIO_HZ, PioStrip, program, tx_dreq
sm = rp2.StateMachine(0, program(rp2), freq=PIO_HZ, sideset_base=Pin(16))
s = PioStrip(sm, rp2.DMA(), 452, tx_dreq(0))
ts = []
for i in range(6):
    while s.sending():
        pass
    t = time.ticks_us()
    s.write()
    ts.append(time.ticks_diff(time.ticks_us(), t))
print('STRIP', ts)
"""


def strip_write_cpu(port: str) -> float | None:
    """PioStrip.write() timed on the chip itself (at its REPL: the game stopped), ms: the
    frame's conversion and the DMA's start, what the CPU pays for a frame."""
    import subprocess

    tool = deploy._tool("mpremote")
    # resume: no soft reset, which would stop the timer that feeds the watchdog at the REPL
    proc = subprocess.run([tool, "connect", port, "resume", "exec", STRIP_PROBE],
                          capture_output=True, text=True, timeout=1800)
    m = re.search(r"STRIP \[([\d, ]+)\]", proc.stdout)
    if not m:
        return None
    times = [int(x) for x in m.group(1).split(",")][1:]  # the first loads nothing new
    return round(statistics.median(times) / 1000, 2)


def idle_round_trips(link: Link) -> None:
    for _ in range(5):
        link.timed("hello_idle", "hello")
    for _ in range(3):
        link.timed("state_idle", "state")
        link.timed("press_idle", "press", button="UNDO")  # refused: nothing to undo


def boot(pico: chip.EmulatedPico, figures: dict[str, Any], prefix: str) -> Client:
    notice = pico.wait_notice("boot", 900)
    figures[prefix + "boot_ms"] = round(ms(notice["since_power_on_ns"]), 1)
    return Client(pico.port, timeout=TIMEOUT)


def run_image(kind: str, image: str, bootrom: str, build: str, figures: dict[str, Any],
              scenarios: list[str], lock: threading.Lock, reuse: bool = False) -> None:
    """Deploys and plays the scenarios on one image; figures are added under `lock`.
    `reuse`: the chip's flash of an earlier run, firmware installed, instead of a deploy."""
    found: dict[str, Any] = {}
    flash = os.path.join(build, "chip", kind + "-flash.bin")
    if os.path.exists(flash) and not reuse:
        os.remove(flash)  # a fresh chip: its files as deploy leaves them
    log = open(os.path.join(build, "chip", kind + ".log"), "ab")
    pico = chip.EmulatedPico(image, bootrom, flash, chip.elf_beside(image), stderr=log)
    try:
        pico.start()
        t0 = time.monotonic()
        s0 = pico.control("status")["sim_ns"]
        if not reuse:
            deploy.deploy(pico.port, board="pico", build=os.path.join(build, "chip", kind),
                          frozen=kind == "frozen")
            found[kind + "_deploy_s"] = round(time.monotonic() - t0, 1)
            found[kind + "_deploy_chip_s"] = round(
                (pico.control("status")["sim_ns"] - s0) / 1e9, 1)
        with boot(pico, found, kind + "_") as client:
            link = Link(pico, client)
            heap = Heap(pico)
            link.sync()
            if kind == "stock" and not reuse:
                idle_round_trips(link)
                presses: dict[str, list[float]] = {}
                press_to_frame(pico, link, chip.button_wires(), presses)
                link.rtt.update(presses)
            rng = random.Random(27)
            for name in [n for n in scenarios if n != "strip"]:
                sc = Scenario(name, link, heap, rng)
                if name == "money":
                    args = (["human", "board"], "strong", {"match_length": 0, "cube": False})
                elif name == "match":
                    args = (["human", "board"], "strong", {"match_length": 5, "cube": True})
                else:
                    args = (["board", "board"], "easy", {"match_length": 0, "cube": False})
                done = False
                try:
                    done = sc.play(*args)
                except LedgammonError as exc:
                    found["%s_%s_error" % (kind, name)] = str(exc)
                h = heap.figures()
                key = "%s_%s_" % (kind, name)
                found[key + "complete"] = bool(done and not sc.errors)
                found[key + "heap_free_min_kb"] = kb(h["free_min"])
                found[key + "heap_live_max_kb"] = kb(h["live_max"])
                found[key + "heap_used_max_kb"] = kb(h["used_max"])
                found[key + "largest_free_min_kb"] = kb(h["largest_free_min"])
                found[key + "collections"] = h["collections"]
                found[key + "board_moves"] = len(sc.moves)
                found[key + "errors"] = len(sc.errors)
                if sc.moves:
                    found[key + "move_mean_ms"] = round(statistics.mean(sc.moves), 1)
                    found[key + "move_max_ms"] = round(max(sc.moves), 1)
                with lock:
                    figures.update(found)
                    figures.update(rtts(kind, link.rtt))
            st = pico.control("status")
            found[kind + "_emulator_speed"] = round(st["speed"], 3)
        if kind == "stock" and "strip" in scenarios:
            found["stock_strip_write_cpu_ms"] = strip_write_cpu(pico.port)
    finally:
        pico.stop()
        log.close()
        with lock:
            figures.update(found)


def rtts(kind: str, rtt: dict[str, list[float]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for label, values in rtt.items():
        if values:
            out["%s_%s_ms" % (kind, label)] = round(statistics.mean(values), 1)
            out["%s_%s_max_ms" % (kind, label)] = round(max(values), 1)
    return out


def summary(f: dict[str, Any]) -> dict[str, Any]:
    """The keys issue 27 names, from the per-image figures."""
    def get(key: str) -> Any:
        return f.get(key)

    out = {
        "stock_money_complete": bool(get("stock_money_complete")),
        "stock_match_complete": bool(get("stock_match_complete")),
        "stock_selfplay_complete": bool(get("stock_selfplay_complete")),
        "frozen_match_complete": bool(get("frozen_match_complete")),
        "stock_money_heap_free_min_kb": get("stock_money_heap_free_min_kb"),
        "stock_match_heap_free_min_kb": get("stock_match_heap_free_min_kb"),
        "frozen_match_heap_free_min_kb": get("frozen_match_heap_free_min_kb"),
        "strong_move_mean_ms": get("stock_money_move_mean_ms"),
        "strong_move_max_ms": get("stock_money_move_max_ms"),
        "easy_move_mean_ms": get("stock_selfplay_move_mean_ms"),
        "hello_idle_ms": get("stock_hello_idle_ms"),
        "hello_thinking_ms": get("stock_hello_thinking_ms"),
        "state_ms": get("stock_state_idle_ms"),
        "state_thinking_ms": get("stock_state_thinking_ms"),
        "press_ms": get("stock_press_idle_ms"),
        "press_thinking_ms": get("stock_press_thinking_ms"),
        "press_to_frame_ms": get("stock_press_to_frame_ms"),
        "strip_write_cpu_ms": get("stock_strip_write_cpu_ms"),
        "boot_ms": get("stock_boot_ms"),
        "frozen_boot_ms": get("frozen_boot_ms"),
        "deploy_s": get("stock_deploy_s"),
        "frozen_deploy_s": get("frozen_deploy_s"),
        "emulator_speed": get("stock_emulator_speed") or get("frozen_emulator_speed"),
    }
    return out


TARGETS = [  # key, what, target (None: none), higher is better
    ("stock_money_complete", "money game vs strong, to the end", "true", None),
    ("stock_match_complete", "5-point match game with the cube", "true", None),
    ("stock_selfplay_complete", "board vs board, easy", "true", None),
    ("frozen_match_complete", "frozen: match game", "true", None),
    ("stock_money_heap_free_min_kb", "heap lowest free, money (KB)", ">= 64", 64),
    ("stock_match_heap_free_min_kb", "heap lowest free, match (KB)", ">= 32", 32),
    ("frozen_match_heap_free_min_kb", "heap lowest free, frozen match (KB)", ">= 128", 128),
    ("stock_money_heap_live_max_kb", "heap largest live, money (KB)", "", None),
    ("stock_money_largest_free_min_kb", "largest free block, money (KB)", "", None),
    ("stock_match_heap_live_max_kb", "heap largest live, match (KB)", "", None),
    ("frozen_match_heap_live_max_kb", "heap largest live, frozen match (KB)", "", None),
    ("strong_move_mean_ms", "strong move mean (ms)", "<= 500", -500),
    ("strong_move_max_ms", "strong move slowest (ms)", "<= 1500", -1500),
    ("stock_match_move_mean_ms", "strong move in the match, mean (ms)", "", None),
    ("frozen_match_move_mean_ms", "frozen: strong move in the match (ms)", "", None),
    ("easy_move_mean_ms", "easy move mean (ms)", "<= 150", -150),
    ("hello_idle_ms", "hello idle (ms)", "<= 5", -5),
    ("hello_thinking_ms", "hello while thinking (ms)", "<= 25", -25),
    ("state_ms", "state idle (ms)", "<= 40", -40),
    ("state_thinking_ms", "state while thinking (ms)", "", None),
    ("press_ms", "press request idle (ms)", "", None),
    ("press_thinking_ms", "press request while thinking (ms)", "", None),
    ("press_to_frame_ms", "button press -> LED frame written (ms)", "<= 20", -20),
    ("strip_write_cpu_ms", "strip write CPU time (ms)", "<= 1", -1),
    ("boot_ms", "boot: power-on to boot event (ms)", "", None),
    ("frozen_boot_ms", "frozen: boot (ms)", "", None),
    ("deploy_s", "deploy .mpy (wall s, through the emulator)", "", None),
    ("frozen_deploy_s", "deploy --frozen (wall s)", "", None),
    ("emulator_speed", "emulator speed (chip s per real s)", "", None),
]


def table(f: dict[str, Any]) -> str:
    lines = ["%-44s %12s  %-8s" % ("figure (chip time)", "value", "target")]
    for key, what, target, _ in TARGETS:
        v = f.get(key)
        shown = "-" if v is None else str(v).lower() if isinstance(v, bool) else str(v)
        lines.append("%-44s %12s  %-8s" % (what, shown, target))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.chip", description=__doc__.split("\n")[0])
    p.add_argument("--stock", help="the stock RPI_PICO MicroPython UF2 (its .elf beside it)")
    p.add_argument("--frozen", help="the UF2 with firmware/manifest.py frozen (its .elf beside)")
    p.add_argument("--bootrom", help="the RP2040's 16 KB bootrom")
    p.add_argument("--build", default="build")
    p.add_argument("--out", default=None, help="default BUILD/chip.json")
    p.add_argument("--scenarios", default="money,match,selfplay,strip",
                   help="the stock image's games and the strip's timing (the frozen one plays "
                   "the match)")
    p.add_argument("--images", default="stock,frozen", help="which images to run")
    p.add_argument("--serial", action="store_true", help="one image after the other")
    p.add_argument("--reuse", action="store_true",
                   help="start from the chips' flash of the last run (no deploy) and add the "
                   "figures to the JSON already there")
    args = p.parse_args(argv)
    missing = [n for n in ("stock", "frozen", "bootrom") if not getattr(args, n)]
    if missing:
        print("make chip needs %s: the Pico's MicroPython images and the RP2040 bootrom are "
              "not part of the project (hardware/README.md); e.g. make chip "
              "CHIP_STOCK=.../firmware.uf2 CHIP_FROZEN=.../firmware.uf2 CHIP_BOOTROM=.../"
              "bootrom.bin" % ", ".join("--" + n for n in missing), file=sys.stderr)
        return 2
    for n in ("stock", "frozen", "bootrom"):
        if not os.path.isfile(getattr(args, n)):
            print("make chip: no such file: %s (--%s)" % (getattr(args, n), n), file=sys.stderr)
            return 2
    out = args.out or os.path.join(args.build, "chip.json")
    os.makedirs(os.path.join(args.build, "chip"), exist_ok=True)
    figures: dict[str, Any] = {}
    if args.reuse and os.path.exists(out):
        with open(out) as f:
            figures = {k: v for k, v in json.load(f).items()
                       if k.startswith(("stock_", "frozen_"))}
    lock = threading.Lock()
    stock_scenarios = [s for s in args.scenarios.split(",") if s]
    jobs = [j for j in [("stock", args.stock, stock_scenarios), ("frozen", args.frozen, ["match"])]
            if j[0] in args.images.split(",")]
    errors: list[str] = []

    def job(kind: str, image: str, scenarios: list[str]) -> None:
        try:
            run_image(kind, image, args.bootrom, args.build, figures, scenarios, lock,
                      args.reuse)
        except (LedgammonError, OSError) as exc:
            errors.append("%s: %s" % (kind, exc))
            with lock:
                figures[kind + "_error"] = str(exc)

    def write() -> None:
        with lock:
            result = dict(figures)
        result.update(summary(result))
        tmp = out + ".new"
        with open(tmp, "w") as f:
            json.dump(result, f, indent=1, sort_keys=True)
        os.replace(tmp, out)

    threads = [threading.Thread(target=job, args=j, daemon=True) for j in jobs]
    for t in threads:
        t.start()
        if args.serial:
            t.join()
    while any(t.is_alive() for t in threads):
        for t in threads:
            t.join(30)
        write()
    write()
    with open(out) as f:
        print(table(json.load(f)))
    print("figures in %s" % out)
    for e in errors:
        print("chip: " + e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
