# Renderer speed and allocation, per kind of frame, on the default 440-LED board.
#
#   python -m bench.mp [--path DIR] --also tests/firmware board.render_bench [frames]
#   (CPython too, without allocs: PYTHONPATH=tests/firmware python -m bench.board.render_bench)
#
# --path DIR goes first on the path (bench/mp.py): a folder of the firmware precompiled with
# mpy-cross, as the board loads it (a 64 KB heap holds the precompiled renderer, not its
# compilation). Each kind renders `frames` frames 16 ms apart (60 fps) into a strip whose write()
# does nothing (on the board NeoPixel.write() then blocks ~30 us per LED, 13 ms for 440), and
# prints the time of one render() (mean, 99th percentile and max, us; the max catches the host's
# scheduler too), how many frames were written, and the bytes allocated while rendering (gc off;
# 0 expected). "limited" rows use a 1 A supply and white checkers at full brightness, so that the
# supply limiter dims every frame.
import gc
import sys
from array import array

from display.renderer import Renderer
from display.view import MENU, TARGET_DICE, View
from hw.boards import pico
from hw.ticks import ticks_diff, ticks_us
from scenes import OPENING, OVER, ROLL, NullStrip, Supply, start  # tests/firmware


def kind(v, name, now):
    if name == "highlights":
        v.movable = (1 << 23) | (1 << 12) | (1 << 7) | (1 << 5)
        v.dests = (1 << 17) | (1 << 19)
        v.selected = 23
        v.cursor = 4
    elif name == "rolling":
        v.phase = ROLL
        v.rolling_until = now + 9000  # deadlines: at most 10 s ahead
    elif name == "blink":
        v.blink_until = now + 9000
    elif name == "flash":
        v.flash_target = TARGET_DICE
        v.flash_until = now + 9000
    elif name == "menu":
        v.phase = MENU
        v.menu_item = 1
        v.menu_value = 2
    elif name == "over":
        v.phase = OVER
        v.winner = 0
        v.result = 2
        v.over_since = now
    elif name == "opening":
        v.phase = OPENING


KINDS = ("static", "highlights", "rolling", "blink", "flash", "menu", "over", "opening")


def run(board, name, palette, level, frames):
    """(mean, 99th percentile, max us, frames written, frames limited, bytes allocated)."""
    strip = NullStrip(board.LED_COUNT)
    r = Renderer(board, strip)
    v = View()
    start(v, palette, level)
    v.dice[0] = 6
    v.dice[1] = 3
    kind(v, name, 0)
    r.render(v, 0)  # warm up (and the first write)
    total = worst = written = limited = 0
    times = array("H", bytes(2 * frames))  # us, capped at 65535
    alloc = -1
    if hasattr(gc, "mem_alloc"):
        gc.collect()
        gc.disable()
        alloc = gc.mem_alloc()
    now = 0
    for i in range(frames):
        now += 16
        t0 = ticks_us()
        w = r.render(v, now)
        dt = ticks_diff(ticks_us(), t0)
        times[i] = dt if dt < 65535 else 65535
        total += dt
        worst = dt if dt > worst else worst
        written += 1 if w else 0
        limited += 1 if r.scale < 256 else 0
    if alloc >= 0:
        alloc = gc.mem_alloc() - alloc
        gc.enable()
    return total // frames, percentile(times, 99), worst, written, limited, alloc


def percentile(values, pct):
    """The smallest value that at least pct % of the values do not exceed (no list)."""
    need = (len(values) * pct + 99) // 100
    best = max(values)
    for v in values:
        if v < best and sum(1 for w in values if w <= v) >= need:
            best = v
    return best


def main(frames):
    impl = sys.implementation.name
    print("renderer bench: %s, %d LEDs, %d frames a kind" % (impl, pico.LED_COUNT, frames))
    head = ("kind", "mean us", "p99 us", "max us", "written", "limited", "alloc B")
    print("%-20s %7s %7s %7s %7s %7s %7s" % head)
    rows = [(pico, k, 0, 128, k) for k in KINDS]
    rows += [(Supply(1000), k, 2, 255, k + " limited") for k in ("static", "highlights")]
    for board, k, palette, level, label in rows:
        mean, p99, worst, written, limited, alloc = run(board, k, palette, level, frames)
        alloc = alloc if alloc >= 0 else "n/a"
        print("%-20s %7d %7d %7d %7d %7d %7s" % (label, mean, p99, worst, written, limited, alloc))
    strip = NullStrip(pico.LED_COUNT)
    r = Renderer(Supply(1000), strip)
    t0 = ticks_us()
    for _ in range(frames):
        r.render_solid((255, 255, 255))
    mean = ticks_diff(ticks_us(), t0) // frames
    print("%-20s %7d %7s %7s %7d %7d" % ("all white (solid)", mean, "", "", frames, frames))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 500)
