# Test helpers for the firmware (MicroPython and CPython): folders, events, scripted players.
import os
from binascii import hexlify

from control.boot import boot
from display.view import button_of_target, target_of
from gammon.dice import Dice, SeededBytes
from hw.storage import GAME, Store
from model.game import MOVE, OPENING, OVER


class Recorder:
    """Keeps the controller's last `keep` events and counts all of them by kind."""

    def __init__(self, keep=4):
        self.keep = keep
        self.events = []
        self.counts = {}
        self.internal = []

    def __call__(self, event):
        kind = event["event"]
        self.counts[kind] = self.counts.get(kind, 0) + 1
        if kind == "error" and event["code"] == "internal" and len(self.internal) < 3:
            self.internal.append(event)
        if self.keep:
            if len(self.events) >= self.keep:
                self.events.pop(0)
            self.events.append(event)

    def of(self, kind, code=None):
        """The kept events of a kind (errors: of one code)."""
        return [e for e in self.events if e["event"] == kind and code in (None, e.get("code"))]

    def check(self):
        """No internal error was reported (the controller catches them to keep running)."""
        assert not self.internal, self.internal
        self.events = []


# Real folders (MicroPython's unix port has mkdir, rename, remove and stat), in memory where
# there is /dev/shm: a game's saves are thousands of writes and renames, each a wait for a
# shared disk under /tmp (~2 ms a rename on a loaded machine: 15 s of one power-cut test).
def _tmp():
    try:
        os.stat("/dev/shm")
        return "/dev/shm"
    except OSError:
        return "/tmp"


TMP = _tmp()


def tmpdir():
    while True:
        path = TMP + "/lgfw-" + hexlify(os.urandom(6)).decode()
        try:
            os.mkdir(path)
            return path
        except OSError:
            pass


def rmtree(path):
    for name in os.listdir(path):
        os.remove(path + "/" + name)
    os.rmdir(path)


def put(path, name, data):
    with open(path + "/" + name, "wb") as f:
        f.write(data)


def get(path, name):
    with open(path + "/" + name, "rb") as f:
        return f.read()


class SnapStore(Store):
    """Copies game.json to snaps/<n> after every save: what a cut right after it leaves."""

    def __init__(self, root, snaps):
        Store.__init__(self, root)
        self.snaps = snaps
        self.count = 0

    def save_game(self, text):
        n = Store.save_game(self, text)
        put(self.snaps, str(self.count), get(self.root, GAME))
        self.count += 1
        return n


def make(root=None, layout="full", seed=1, store=None, keep=4):
    """A controller booted from a folder (a fresh one by default): (ctl, recorder)."""
    rec = Recorder(keep)
    store = store or Store(root or tmpdir())
    return boot(store, Dice(SeededBytes(seed)), layout, rec, 0), rec


def done(ctl):
    rmtree(ctl.store.root)


def bits(mask):
    out = []
    i = 0
    while mask:
        if mask & 1:
            out.append(i)
        mask >>= 1
        i += 1
    return out


def state_hash(ctl):
    """A number that depends only on the game's state (the same after a resume)."""
    v = ctl.view
    h = len(ctl.game.codes) * 31 + len(ctl.game.steps())
    for i in range(25):
        h += (i + 1) * (v.pts0[i] * 3 + v.pts1[i] * 7)
    return h


def press_target(ctl, target, now):
    """Presses a point, the bar or the tray: its button, or the cursor then SELECT."""
    if ctl.layout == "full":
        return ctl.press(button_of_target(target), now)
    for _ in range(30):
        if ctl.view.cursor == target:
            return ctl.press("SELECT", now)
        ctl.press("RIGHT", now)
    raise AssertionError("the cursor never reached %d" % target)


def play_step(ctl, now):
    """Selects a movable checker and one of its destinations, as the view shows them."""
    v = ctl.view
    movable = bits(v.movable)
    assert movable, "nothing movable in MOVE"
    h = state_hash(ctl)
    press_target(ctl, movable[h % len(movable)], now)
    assert v.selected == movable[h % len(movable)]
    dests = bits(v.dests)
    assert dests, "a movable checker without destinations"
    press_target(ctl, dests[(h // 7) % len(dests)], now)


def enter_die(ctl, value, now):
    """Enters one physical die: the player's own point `value`, or LEFT/RIGHT and SELECT."""
    v = ctl.view
    if ctl.layout == "full":
        return ctl.press(button_of_target(target_of(ctl.throw.entry.player(), value)), now)
    for _ in range(7):
        if v.dice[v.entering] == value:
            return ctl.press("SELECT", now)
        ctl.press("LEFT" if value < v.dice[v.entering] else "RIGHT", now)
    raise AssertionError("the die never showed %d" % value)


def script_dice(ctl):
    """Dice that depend only on the game's record: the same after a resume."""
    g = ctl.game
    d = Dice(SeededBytes(g.game_number * 131 + len(g.codes) * 7 + 1))
    return d.opening() if g.phase == OPENING else d.roll()


def enter_script(ctl, now):
    """Enters `script_dice` with buttons."""
    for value in script_dice(ctl):
        enter_die(ctl, value, now)


def play_game(ctl, now=1000, enter=enter_script, limit=4000):
    """Plays to the end with buttons alone; `enter(ctl, now)` enters physical dice when
    that setting is on. Returns the time reached."""
    g = ctl.game
    for _ in range(limit):
        if g.phase == OVER:
            return now
        now += 7
        if g.phase == MOVE:
            play_step(ctl, now)
        elif ctl.throw.entry:
            enter(ctl, now)
        else:
            ctl.press("ROLL", now)
    raise AssertionError("the game did not end")
