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
import sys

guard = None  # the ReplGuard once the firmware has left for the REPL
_NO_START_LED = 4  # every 4th LED lit red: the firmware could not start
_RED = 48  # of 255


def _error_line(code, text):
    """An `error` event as one JSON line made by hand: for when the protocol's own writer
    is not there (a task died before it was built; the firmware could not start)."""
    text = text.replace("\\", "/").replace('"', "'")[:160]
    return '{"event":"error","code":"%s","message":"%s"}\n' % (code, text)


def _cannot_start(hw, write, exc):
    """The firmware could not start: most likely no room in the heap for its code (a
    MicroPython too big for this board's RAM, or modules not frozen), else a module
    missing from the deployed files. Said plainly, as a `no_start` error event on the
    serial port and every 4th LED red, and the REPL is left to the host to put it right
    (`make deploy`): no watchdog, which would only restart the board into the same
    failure, and nothing written to the flash, so the saved game is still there."""
    try:
        import gc

        gc.collect()  # what the failed start made is garbage now: room for this
    except ImportError:  # pragma: no cover (CPython has gc; the board's MicroPython too)
        pass
    try:
        line = _error_line("no_start", "the firmware cannot start: %r" % (exc,))
        if write is None:
            sys.stdout.write(line)
        else:
            write(line.encode())
    except Exception:  # no room even for the line (or no port): the LEDs say it
        pass
    strip = getattr(hw, "strip", None)
    if strip is None:  # the hardware itself could not be set up: the event is all
        return
    try:
        buf = strip.buf
        red = hw.board.LED_ORDER.index("R")
        for i in range(len(buf)):
            buf[i] = 0
        for i in range(0, len(buf) - 2, 3 * _NO_START_LED):
            buf[i + red] = _RED
        strip.write()
    except Exception:  # the strip's own fault: the event has said it
        pass


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
            sys.stdout.write(_error_line("internal", text))

    return report


async def _run(asyncio, app):
    asyncio.get_event_loop().set_exception_handler(_reporter(app))
    await app.main()


def main(hw=None, write=None, host=None):
    """Runs the board until the host asks for the REPL; None when the firmware could not
    start (said so: _cannot_start). Tests pass fake Hardware, a `write` for the protocol's
    lines and `host(app)`: a coroutine standing in for the serial task."""
    try:  # everything the firmware loads and builds at start-up: nothing to fall back to
        if hw is None:
            from hw import hardware_setup

            hw = hardware_setup.setup()
        import asyncio

        from app import build
        from gammon.dice import Dice

        dice = Dice(hw.randbytes)
        app = build(
            hw.board, hw.layout, hw.keys, hw.strip, hw.store, dice, write=write, host=host,
            make_wdt=hw.make_wdt,  # started by app.main(): booting may take a while
        )
    except Exception as exc:  # MemoryError above all: the code does not fit this heap
        _cannot_start(hw, write, exc)
        return None
    if app.inputs.held(hw.board.SELFTEST_BUTTON[hw.layout]):
        app.selftest()
    try:
        asyncio.run(_run(asyncio, app))
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
