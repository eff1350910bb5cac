"""main.main() on the fake hardware (tests/firmware/fake_hw), run by tests/test_heap_modules.py
under the MicroPython unix port in a heap it chooses: the game started (then the host asks
for the REPL at once) or not, what was written, and the LEDs. `python start_in_heap.py ROOT
[nohw]`; with `nohw` main() sets up the hardware itself, which on the unix port fails (no
board module for its platform) like a module missing from a board."""

import asyncio
import sys


async def _host(app):
    app.inputs.period_ms = 0
    app.frame_ms = 0
    for _ in range(3):
        await asyncio.sleep(0)
    app.protocol.feed(b'{"cmd":"repl"}\n', app.clock())
    while True:
        await asyncio.sleep(0)


def run(root, own_hw):
    hw = None
    if not own_hw:
        from hw import hardware_setup

        hw = hardware_setup.setup("minimal", "rp2", root)
    wire = []
    import main

    app = main.main(hw, wire.append, _host)
    print("started" if app is not None else "not started")
    if hw is not None:
        buf = hw.strip.buf
        red = [i // 3 for i in range(1, len(buf), 3) if buf[i]]  # GRB: red is the 2nd byte
        other = [i for i in range(len(buf)) if buf[i] and i % 3 != 1]
        print("leds %d writes %d red %d first %r other %d" % (
            len(buf) // 3, hw.strip.writes, len(red), red[:3], len(other)))
    print(b"".join(bytes(w) for w in wire).decode())


run(sys.argv[1], len(sys.argv) > 2 and sys.argv[2] == "nohw")
