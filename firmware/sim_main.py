# Entry point of the simulator: the firmware with a FakeStrip and no pins, on stdin/stdout.
#
#   micropython sim_main.py --flash DIR [--layout full|minimal] [--seed N] [--board pico]
#                           [--pace MS] [--nonblocking] [--board-timing none|pico|pico-dma|esp32s3]
#                           [--weights FILE]
#
# `ledgammon sim` starts this with a pseudo-terminal as stdin and stdout (non-blocking, hence
# --nonblocking), so a host talks to it exactly as to a board's USB serial port. Buttons
# arrive through the protocol's `press`; the frame is served by `leds`. The game and the
# settings live in --flash DIR, so a restart resumes the game. --pace sets the board's own
# player's time per step (700 ms; tests play faster). --board-timing runs at a board's speed
# (sim_timing.py: computing slowed to its CPU, strip writes and the USB serial port as slow as
# there; pico-dma: the RP2040's PIO + DMA strip path); default none, the host's own speed.
# --weights: the board's player's network (`ledgammon sim --board` gives that board's: what
# `ledgammon deploy` installs on it as weights.bin); default weights.bin beside this script.
# Runs under CPython too.
# --parent-fd N: the read end of a pipe whose write end only `ledgammon sim` holds; when it
# hangs up (the wrapper ended, even by SIGKILL) the firmware saves and stops, so it never
# outlives its simulator and two firmwares never write one flash.
import asyncio
import sys

from app import build
from gammon.dice import Dice, SeededBytes
from hw.inputs import DirectKeys
from hw.storage import Store
from sim_timing import TIMINGS, paced, setup

USAGE = (
    "usage: sim_main.py --flash DIR [--layout full|minimal] [--seed N] [--board NAME]"
    " [--pace MS] [--nonblocking] [--board-timing none|pico|pico-dma|esp32s3] [--parent-fd N]"
    " [--weights FILE]"
)


def _options(argv):
    opts = {
        "flash": None,
        "layout": None,
        "seed": None,
        "board": "pico",
        "pace": None,
        "nonblocking": False,
        "board-timing": "none",
        "parent-fd": None,
        "weights": None,
    }
    i = 0
    while i < len(argv):
        key = argv[i]
        if key == "--nonblocking":
            opts["nonblocking"] = True
            i += 1
            continue
        if not key.startswith("--") or key[2:] not in opts or i + 1 >= len(argv):
            raise ValueError(USAGE)
        opts[key[2:]] = argv[i + 1]
        i += 2
    if not opts["flash"]:
        raise ValueError(USAGE)
    if opts["layout"] not in (None, "full", "minimal"):
        raise ValueError("--layout is full or minimal")
    if opts["seed"] is not None:
        opts["seed"] = int(opts["seed"])
    if opts["parent-fd"] is not None:
        opts["parent-fd"] = int(opts["parent-fd"])
    if opts["pace"] is not None:
        opts["pace"] = int(opts["pace"])
        if not 1 <= opts["pace"] <= 10000:
            raise ValueError("--pace is 1-10000 ms")
    if opts["board-timing"] not in TIMINGS:
        raise ValueError("--board-timing is one of " + ", ".join(TIMINGS))
    return opts


def _report(loop, context):
    """Task errors go to stderr: stdout is the serial line."""
    exc = context.get("exception")
    sys.stderr.write("sim: task error: %s\n" % (context.get("message", ""),))
    if exc is not None:
        if hasattr(sys, "print_exception"):
            sys.print_exception(exc, sys.stderr)
        else:
            import traceback

            traceback.print_exception(type(exc), exc, exc.__traceback__, file=sys.stderr)


def make_app(opts):
    name = opts["board"]
    board = __import__("hw.boards." + name, None, None, ("PLATFORM",))
    layout = opts["layout"] or board.BUTTON_LAYOUT
    pace, strip, port = setup(opts["board-timing"], board)
    store = Store(opts["flash"])
    if pace is not None:  # its file writes left out of the pace (sim_timing.TimedStore)
        from sim_timing import TimedStore

        store = TimedStore(opts["flash"], pace)
    seed = opts["seed"]
    dice = Dice(SeededBytes(seed)) if seed is not None else Dice()
    app_class, protocol_class = paced(pace)  # (None, None): the host's own speed
    return build(
        board,
        layout,
        DirectKeys({}),  # no pins: every press comes through the protocol
        strip,
        store,
        dice,
        nonblocking=opts["nonblocking"],
        out_stream=port,
        app_class=app_class,  # every step of the firmware's own work at the board's pace
        protocol_class=protocol_class,  # ... a request and its reply too
        weights=opts["weights"],
        pace_ms=opts["pace"] or 700,
    )


PARENT_MS = 200  # how often the parent pipe is looked at


async def _watch_parent(fd, app):
    """Saves and stops the app once the wrapper's pipe hangs up (nothing is ever written to
    it, so readable means EOF): the firmware dies with its simulator."""
    import select

    poller = select.poll()
    poller.register(fd, select.POLLIN)
    while not poller.poll(0):
        await asyncio.sleep(PARENT_MS / 1000)
    app.ctl.flush()
    app.stop()


async def _run(app, parent_fd=None):
    asyncio.get_event_loop().set_exception_handler(_report)
    if parent_fd is not None:
        asyncio.create_task(_watch_parent(parent_fd, app))
    await app.main()


def main(argv):
    try:
        opts = _options(argv)
    except ValueError as exc:
        sys.stderr.write("%s\n" % (exc,))
        return 2
    app = make_app(opts)
    try:
        asyncio.run(_run(app, opts["parent-fd"]))
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
