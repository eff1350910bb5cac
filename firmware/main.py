# Entry point on the board: the firmware on the real hardware, the self-test when asked.
#
# Hold the self-test button (board.SELFTEST_BUTTON: MENU on the full layout, SELECT on the
# minimal one) while switching on to run the self-test instead of the game.
#
# Getting the REPL (mpremote, Thonny, a terminal): while the game runs, Ctrl-C is data on the
# serial line (link.serve sets micropython.kbd_intr(-1)). Only the exact escape (after a
# silence, Ctrl-C then at once a carriage return, Ctrl-A or a second Ctrl-C: what mpremote,
# Thonny and a double Ctrl-C send; link/lines.py) or the request {"cmd": "repl"} stops the
# app: the LEDs go dark, kbd_intr(3) is restored and the REPL gets the port (mpremote's
# Ctrl-A is left unread for it). The hardware watchdog cannot be stopped once started, so a
# timer feeds it while the REPL is in use (link/repl_guard.py): when nobody uses the REPL
# for 30 s after the stop (a stop by accident), or for 10 minutes after its last use, the
# watchdog restarts the board into its game. A soft reset (Ctrl-D, mpremote without
# `resume`) stops that timer: the board restarts within 8 s. For long sessions create the
# file /nowdt (`mpremote fs touch :nowdt`, then reset): the board then runs without a
# watchdog, and a stop is not undone.
import asyncio
import sys

from app import build
from hw import hardware_setup

guard = None  # the ReplGuard once the firmware has left for the REPL


def _reporter(app):
    """The loop's exception handler: a task died. Reported as one protocol event, through the
    protocol's writer so it never cuts into a line being written (the watchdog then restarts
    the board when the task was one it watches)."""

    def report(loop, context):
        exc = context.get("exception")
        text = repr(exc) if exc is not None else str(context.get("message"))
        event = {"event": "error", "code": "internal", "message": text[:160]}
        if app.protocol is not None:
            app.protocol.event(event)
        else:
            text = text.replace("\\", "/").replace('"', "'")[:160]
            sys.stdout.write('{"event":"error","code":"internal","message":"%s"}\n' % text)

    return report


async def _run(app):
    asyncio.get_event_loop().set_exception_handler(_reporter(app))
    await app.main()


def main(hw=None, write=None, host=None):
    """Runs the board until the host asks for the REPL. Tests pass fake Hardware, a `write`
    for the protocol's lines and `host(app)`: a coroutine standing in for the serial task."""
    hw = hw or hardware_setup.setup()
    app = build(hw.board, hw.layout, hw.keys, hw.strip, hw.store, hw.dice, write=write)
    if host is not None:
        app.serial = lambda: host(app)
    if app.inputs.held(hw.board.SELFTEST_BUTTON[hw.layout]):
        app.selftest()
    app.wdt = hw.make_wdt()  # last: booting (loading the saved game) may take a while
    try:
        asyncio.run(_run(app))
    finally:
        app.deinit()
    global guard
    if app.stopped and hw.wdt is not None:  # the REPL: the watchdog fed while it is used
        from link.repl_guard import ReplGuard  # loaded only now (heap)

        guard = ReplGuard(hw.wdt)
        hw.keep_fed(feed=guard.feed)
    return app


if __name__ == "__main__":
    main()
