# Entry point on the board: the firmware on the real hardware, the self-test when asked.
#
# Hold the self-test button (board.SELFTEST_BUTTON: MENU on the full layout, SELECT on the
# minimal one) while switching on to run the self-test instead of the game.
#
# Getting the REPL (mpremote, a terminal): while the game runs, Ctrl-C is data on the serial
# line (link.serve sets micropython.kbd_intr(-1)). Ctrl-C at the start of a line, or the
# request {"cmd": "repl"}, makes the protocol stop the app: the LEDs go dark, kbd_intr(3) is
# restored and the REPL prompt appears (mpremote's "\r\x03" interrupt therefore works). The
# hardware watchdog cannot be stopped once started, so a timer keeps feeding it while the REPL
# is up; a soft reset (Ctrl-D, mpremote's raw REPL) stops that timer and the watchdog then
# restarts the board into the game within 8 s. For longer sessions create the file /nowdt
# (`mpremote fs touch :nowdt`, then reset): the board then runs without a watchdog.
import asyncio
import sys

from app import build
from hw import hardware_setup


def _report(loop, context):
    """The loop's exception handler: a task died. Reported as one protocol event line (the
    watchdog then restarts the board when the task was one it watches)."""
    exc = context.get("exception")
    text = repr(exc) if exc is not None else str(context.get("message"))
    text = text.replace("\\", "/").replace('"', "'")[:160]
    sys.stdout.write('{"event":"error","code":"internal","message":"%s"}\n' % text)


async def _run(app):
    asyncio.get_event_loop().set_exception_handler(_report)
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
    if app.stopped:  # the host asked for the REPL: keep the watchdog quiet meanwhile
        hw.keep_fed()
    return app


if __name__ == "__main__":
    main()
