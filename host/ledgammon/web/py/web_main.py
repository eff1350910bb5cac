# Entry point of the board in a web page: the firmware under MicroPython's WebAssembly port,
# in the page's Web Worker (host/ledgammon/web/static/worker.js), built as the simulator
# builds it (sim_main.py): the pico's board module, no pins (every press comes through the
# protocol), a FakeStrip, the game in the flash folder. The protocol's lines go to the page
# through `js.ledgammon_out` and come from it through feed(); each frame the strip is sent is
# also handed to `js.ledgammon_frame` (the page draws it at once rather than polling `leds`);
# every save (Store.finish: the rename that makes it whole) is handed to `js.ledgammon_save`,
# which keeps it in the browser's storage, from which the worker lays out the flash folder
# again at the next start: a reload resumes the game as a power cut does on the board.
import asyncio
import sys

import js
import page_port

page_port.install()  # before the firmware's modules take asyncio.sleep_ms, a2b_base64

from app import build  # noqa: E402 (after the port's hooks)
from gammon.dice import Dice, SeededBytes  # noqa: E402
from hw.inputs import DirectKeys  # noqa: E402
from hw.output import FakeStrip  # noqa: E402
from hw.storage import Store  # noqa: E402
from link.outbox import Outbox  # noqa: E402
from link.port import _feed, drain  # noqa: E402

_PIECE = 512  # bytes the page takes in one write (a board's USB serial: one 64-byte packet)

_inbox = []  # byte strings from the page, fed in order
_wake = asyncio.Event()
_app = None


class PagePort:
    """The Outbox's port: the page always takes a piece, at once."""

    def ready(self):
        return True

    def write(self, mv):
        js.ledgammon_out(str(bytes(mv), "utf-8"))
        return len(mv)


class PageStrip(FakeStrip):
    """The simulator's strip, whose every frame also goes to the page."""

    def write(self):
        FakeStrip.write(self)
        js.ledgammon_frame(self.frame)


class PageStore(Store):
    """The flash folder, each save copied to the browser's storage once it is whole."""

    def finish(self, name):
        Store.finish(self, name)
        with open(self.path(name)) as f:
            js.ledgammon_save(name, f.read())


def feed(text):
    """Bytes from the page (a str: the protocol's lines are UTF-8 text)."""
    _inbox.append(text.encode("utf-8"))
    _wake.set()


async def _serve(protocol):
    """The serial task, with the page for the port (link/port.py's serve() reads a stream)."""
    writer = asyncio.create_task(drain(protocol.outbox))
    protocol.send(protocol.boot_event())
    try:
        while not protocol.stopped:
            if not _inbox:
                _wake.clear()
                await _wake.wait()
                continue
            data = _inbox.pop(0)
            await _feed(protocol, data, len(data), bool(_inbox))
    finally:
        writer.cancel()


def start(flash, seed=None, pace=None, board="pico", layout=None):
    """Builds the firmware on the page's stand-ins and starts its tasks (the page's event
    loop runs them: this port's asyncio has no run())."""
    global _app
    mod = __import__("hw.boards." + board, None, None, ("NAME",))
    dice = Dice(SeededBytes(seed)) if seed is not None else Dice()
    app = build(
        mod,
        layout or mod.BUTTON_LAYOUT,
        DirectKeys({}),
        PageStrip(mod.LED_COUNT, mod.LED_ORDER),
        PageStore(flash),
        dice,
        write=Outbox(PagePort(), piece=_PIECE),
        host=lambda app: _serve(app.protocol),  # the page, not sys.stdin, is the port
        pace_ms=700 if pace is None else pace,
    )
    _app = app
    asyncio.create_task(_run(app))
    return app


async def _run(app):
    try:
        await app.main()
    except Exception as exc:  # reported to the page's console; the page says the board stopped
        sys.print_exception(exc)
        raise
