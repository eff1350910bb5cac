# Seeded games of the firmware's own controller and renderer, each frame and state as a line:
# the same script runs with the viper kernels and with the web bundle's plain ones on the unix
# port (tests/test_web_kernels.py), and in the web page's worker (tests/test_web.py), and the
# lines must be equal. First a person presses buttons (ROLL, then each step's checker and its
# destination, at fixed times), then the board plays both sides (strong, then easy: the
# opponent's network, the move generator and the play kernels); the renderer draws a frame
# every FRAME_MS of simulated time (the frame kernels), the saves go through the text kernels.
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


def _button(n, turn):
    """The button of a point in the mover's numbers (25 the bar, 0 off)."""
    if n == 25:
        return "BAR"
    if n == 0:
        return "OFF"
    return "p%d" % (n if turn == 0 else 25 - n)


def _presses(ctl, st):
    """A person's next presses: ROLL, or the next single step of the first legal play (its
    checker, then its destination)."""
    if st["phase"] != "move":
        return ["ROLL"]
    from gammon.play import legal_plays
    from gammon.position import Position

    play = legal_plays(Position.from_id(st["position_id"]), st["dice"])[0]
    frm, to, _ = play.steps[len(st["steps"])]
    return [_button(frm, st["turn"]), _button(to, st["turn"])]


def lines(flash, turns=24, seed=11, level="strong", out=None, pressed=8):
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
    ctl = boot(Store(flash), Dice(SeededBytes(seed)), "full", None, 0, pico.BRIGHTNESS_LEVELS,
               FRAME_MS)
    renderer = Renderer(pico, strip, 0)
    ctl.configure("level", level)
    t = 0
    last = None
    changes = 0
    queue = []
    while pressed > 0 or queue:  # a person's presses first, a frame between them
        if not queue:
            queue = _presses(ctl, ctl.state())
            pressed -= 1
        t += 5 * FRAME_MS
        name = queue.pop(0)
        ctl.press(name, t)
        say("%d press %s" % (t, name))
        renderer.render(ctl.view, t)
        ctl.tick(t)
        ctl.flush()
        say("%d frame %06x" % (t, _crc(strip.buf)))
    ctl.configure("players", ["board", "board"])
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
