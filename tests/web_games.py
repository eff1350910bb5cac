# Seeded games of the firmware's own controller and renderer, each frame and state as a line:
# the same script runs with the viper kernels and with the web bundle's plain ones on the unix
# port (tests/test_web_kernels.py), and in the web page's worker (tests/test_web.py), and the
# lines must be equal. The board plays both sides (strong, then easy: the opponent's network,
# the move generator and the play kernels), the renderer draws a frame every FRAME_MS of
# simulated time (the frame kernels), the saves go through the text kernels.
#
#   micropython web_games.py PATHS FLASH [TURNS]
# (PATHS: the firmware's and the kernels' folders, joined by ":")
import sys

FRAME_MS = 40


def _crc(buf):
    c = 0
    for b in buf:
        c = (c * 31 + b) & 0xFFFFFF
    return c


def lines(flash, turns=24, seed=11, level="strong", out=None):
    """Plays from a new board in `flash` (a folder's path ending in /) for `turns` changes
    of the state, or to the game's end; returns (or passes to `out`) one line per frame
    that changed and per change of the state."""
    from control.boot import boot
    from display.renderer import Renderer
    from gammon.dice import Dice, SeededBytes
    from hw.boards import pico
    from hw.output import FakeStrip
    from hw.storage import Store

    got = []
    say = out or got.append
    strip = FakeStrip(pico.LED_COUNT, pico.LED_ORDER)
    ctl = boot(Store(flash), Dice(SeededBytes(seed)), "full", None, 0, pico.BRIGHTNESS_LEVELS)
    renderer = Renderer(pico, strip, 0)
    ctl.set_pace(FRAME_MS)
    ctl.configure("level", level)
    ctl.configure("players", ["board", "board"])
    t = 0
    last = None
    changes = 0
    while changes < turns:
        t += FRAME_MS
        while ctl.tick(t):  # the board's thinking, in slices, all at this instant
            pass
        renderer.render(ctl.view, t)
        ctl.flush()
        c = _crc(strip.buf)
        if c != last:
            last = c
            say("%d frame %06x" % (t, c))
        st = ctl.state(False)
        key = "%s %s %s" % (st["phase"], st["turn"], st["current_id"])
        if st["phase"] == "over":
            say("%d over %s %s" % (t, st["winner"], st["result"]))
            break
        elif key != getattr(ctl, "_web_games_key", None):
            ctl._web_games_key = key
            say("%d state %s %s" % (t, key, st["dice"]))
            changes += 1
    return got


def plays(out=None):
    """Legal plays of a few hard positions (the move generator's worst cases), as lines."""
    from gammon.play import legal_plays
    from gammon.position import Position

    got = []
    say = out or got.append
    for pid, dice in (("AAAA/3+UUkpJKQ", (1, 1)), ("d7cNAABUqqqqAA", (1, 1)),
                      ("4HPwATDgc/ABMA", (6, 5)), ("4HPwATDgc/ABMA", (2, 2))):
        ps = legal_plays(Position.from_id(pid), dice)
        say("%s %s %d %s %s" % (pid, dice, len(ps), ps[0], ps[len(ps) - 1]))
    return got


if __name__ == "__main__":
    for path in reversed(sys.argv[1].split(":")):
        sys.path.insert(0, path)
    for line in plays():
        print(line)
    turns = int(sys.argv[3]) if len(sys.argv) > 3 else 24
    lines(sys.argv[2], turns, 11, "strong", print)
    lines(sys.argv[2], 100000, 11, "easy", print)  # the game it was in, to its end
