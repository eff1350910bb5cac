# What the WebAssembly port does otherwise than a board, made as a board does it before the
# firmware loads (install(), from web_main.py, before any firmware module is imported).
#
# binascii is pure Python there, and its a2b_base64 takes only bytes; the board's (C) takes a
# str too, as gammon/position.py's Position.from_id gives it (a saved game's start position).
#
# The loop: that asyncio runs on the browser's event loop, and each round of it
# (asyncio.core._run_iter) runs every task that is due and goes back to the browser only
# when none is. While the board thinks,
# the firmware's render task sleeps 0 ms between slices (app.py: its slices follow each other
# at once), so a round never ends and no line from the page (a press, a request) is read
# until the choice is made. install() (before any firmware module takes asyncio.sleep_ms)
# turns a sleep of 0 into one of 1 ms once a round has run _ROUND_MS: every task then waits,
# the round ends, the browser delivers what came, and the next round goes on. The firmware
# itself is unchanged; on a board nothing but the loop needs the CPU.
import asyncio
import binascii
from time import ticks_diff, ticks_ms

_ROUND_MS = 12  # a round's longest run before the page gets a turn (a frame is 20 ms)
_began = 0


def install():
    _base64()
    _loop()


def _base64():
    a2b = binascii.a2b_base64

    def a2b_base64(data):
        return a2b(data.encode() if isinstance(data, str) else data)

    binascii.a2b_base64 = a2b_base64


def _loop():
    core = asyncio.core
    run, sleep = core._run_iter, core.sleep_ms

    def run_iter():
        global _began
        _began = ticks_ms()
        run()

    def sleep_ms(t):
        if t <= 0 and ticks_diff(ticks_ms(), _began) >= _ROUND_MS:
            t = 1
        return sleep(t)

    core._run_iter = run_iter  # what core._schedule_run_iter hands to setTimeout
    asyncio.sleep_ms = sleep_ms
