# Lets the page's messages in while the firmware runs under the WebAssembly port's asyncio.
#
# That asyncio runs on the browser's event loop: each round (asyncio.core._run_iter) runs every
# task that is due and goes back to the browser only when none is. While the board thinks,
# the firmware's render task sleeps 0 ms between slices (app.py: its slices follow each other
# at once), so a round never ends and no line from the page (a press, a request) is read
# until the choice is made. install() (before any firmware module takes asyncio.sleep_ms)
# turns a sleep of 0 into one of 1 ms once a round has run _ROUND_MS: every task then waits,
# the round ends, the browser delivers what came, and the next round goes on. The firmware
# itself is unchanged; on a board nothing but the loop needs the CPU.
import asyncio
from time import ticks_diff, ticks_ms

_ROUND_MS = 12  # a round's longest run before the page gets a turn (a frame is 20 ms)
_began = 0


def install():
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
