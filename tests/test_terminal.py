"""The terminal view: the screen drawn from real firmware frames, keys and clicks to buttons,
the live loop with a fake screen playing a game, and real curses in a pseudo-terminal."""

import json
import os
import random
import re
import shutil
import sys
import tempfile
import time
import weakref

import pytest
from app import build
from gammon.dice import Dice, SeededBytes
from gammon.notation import parse_steps
from hw.boards import pico
from hw.inputs import DirectKeys
from hw.output import FakeStrip
from hw.storage import Store
from ledgammon import board_text, boardinfo, terminal, wording
from ledgammon.board_text import BOTTOM, TOP, point_slot
from ptyterm import PtyProgram

BOARD = boardinfo.load("pico")
HERE = os.path.dirname(os.path.abspath(__file__))


class LocalClient:
    """The firmware's own protocol, controller and renderer in-process, behind the host
    client's interface (request, poll_events, info); each request is 40 ms of board time."""

    def __init__(self, seed=1, layout="full"):
        self.t = 1000
        self._out = []
        self._events = []
        self.requests = []
        self.dir = tempfile.mkdtemp(prefix="lg-term-")
        weakref.finalize(self, shutil.rmtree, self.dir, True)  # even if a test fails
        strip = FakeStrip(pico.LED_COUNT, pico.LED_ORDER)
        self.app = build(pico, layout, DirectKeys({}), strip, Store(self.dir + "/"),
                         Dice(SeededBytes(seed)), clock=lambda: self.t, serial=True,
                         write=self._out.append)
        self.rid = 0
        self.info = self.request("hello")

    def request(self, cmd, **args):
        self.t += 40
        self.app.frame(self.t)
        self.rid += 1
        self.requests.append(dict(args, cmd=cmd))
        line = json.dumps(dict(args, cmd=cmd, id=self.rid)).encode() + b"\n"
        self.app.protocol.feed(line, self.t)
        reply = None
        for raw in b"".join(bytes(x) for x in self._out).split(b"\n"):
            if raw.strip():
                obj = json.loads(raw)
                if "event" in obj:
                    self._events.append(obj)
                elif obj.get("id") == self.rid:
                    reply = obj
        self._out.clear()
        return reply

    def poll_events(self, timeout=0.0):
        out, self._events = self._events, []
        return out

    def frame(self):
        import base64

        return base64.b64decode(self.request("leds")["frame"])

    def close(self):
        shutil.rmtree(self.dir, ignore_errors=True)


def half(scr, row, col, upper):
    """The colour of the upper or lower LED drawn in a cell (None: no LED there)."""
    ch, st = scr.chars[row][col], scr.styles[row][col]
    if ch == "▀":
        return st.fg if upper else st.bg
    if ch == "▄":
        return None if upper else st.fg
    return None


def column_colours(scr, name):
    """The colours shown for a point, bar or tray segment, base first."""
    if name.startswith("p"):
        col, top = point_slot(int(name[1:]))
        col += 1
    else:
        col = board_text.BAR + 1 if name.startswith("bar") else board_text.TRAY + 2
        top = name.endswith("1")
    out = []
    for i in range(BOARD.segments[name].count):
        h = i if top else 15 - i
        out.append(half(scr, (TOP if top else BOTTOM) + h // 2, col, h % 2 == 0))
    return out


def play_random(client, rnd, turns):
    """Plays `turns` turns with random legal plays through the protocol."""
    while turns > 0:
        st = client.request("state")
        if st["phase"] in ("opening", "roll", "done"):
            client.request("roll")
            turns -= 1
        elif st["phase"] == "move":
            client.request("move", play=rnd.choice(st["plays"]))
        else:
            return


def test_the_screen_shows_every_checker_where_the_board_has_it():
    """Decoding the text screen back gives the checker counts of the board's state."""
    client = LocalClient(seed=5)
    rnd = random.Random(5)
    checked = 0
    try:
        for _ in range(12):
            play_random(client, rnd, 3)
            for _ in range(20):  # let the dice animation end
                client.request("hello")
            st = client.request("state")
            if st["phase"] == "over":
                break
            frame = client.frame()
            scr = board_text.draw(frame, st, BOARD)
            leds = BOARD.decode(frame)
            shown = [boardinfo.to_screen(c, boardinfo.gain(frame, BOARD.brightness_levels))
                     for c in board_text.player_colours(leds, st)]
            assert shown[0] != shown[1]
            b = st["board"]
            for p in range(2):
                for k in range(1, 25):
                    assert column_colours(scr, "p%d" % k).count(shown[p]) == b["p%d" % p][k - 1]
                assert column_colours(scr, "bar%d" % p).count(shown[p]) == b["bar"][p]
                assert column_colours(scr, "off%d" % p).count(shown[p]) == b["off"][p]
            turn = st["turn"]
            col, top = point_slot(1)
            assert scr.lines()[board_text.STATUS - 1][col + 1 : col + 3] == (
                " 1" if turn == 0 else "24")
            assert "Player %d (" % turn in scr.lines()[board_text.STATUS]
            assert "pips 0:%d 1:%d" % tuple(st["pips"]) in scr.lines()[board_text.STATUS]
            checked += 1
    finally:
        client.close()
    assert checked >= 8


def test_the_screen_fits_80x24_and_has_an_ascii_fallback():
    client = LocalClient(seed=2)
    try:
        client.request("roll")
        frame, st = client.frame(), client.request("state")
    finally:
        client.close()
    for uni in (True, False):
        scr = board_text.draw(frame, st, BOARD, unicode=uni, message="x" * 100, typed="12")
        lines = scr.lines()
        assert len(lines) == 24 and all(len(line) == 80 for line in lines)
        assert len(scr.spans()) == 24
        if not uni:
            assert all(ch.isascii() for line in lines for ch in line)
        assert "point 12_" in lines[board_text.STATUS + 1]
    labels = [c for c in range(80) if scr.styles[0][c].reverse]  # point 12 is typed
    col, _ = point_slot(12 if st["turn"] == 0 else 13)
    assert labels == [col + 1, col + 2]


@pytest.mark.parametrize(
    "state, words",
    [
        ({"phase": "opening"}, "opening roll: press ROLL"),
        ({"phase": "roll", "turn": 1}, "Player 1 (red): roll"),
        ({"phase": "move", "turn": 0, "dice": [5, 3]}, "Player 0 (white): select a checker"),
        ({"phase": "move", "selected": 13}, "select a destination"),
        ({"phase": "done"}, "press ROLL to pass the turn"),
        ({"phase": "over", "winner": 0, "result": 2}, "game over: gammon, player 0 wins 2 points"),
        ({"phase": "over", "winner": 1, "result": 1}, "single game, player 1 wins 1 point"),
        ({"phase": "over", "winner": 1, "result": 3, "cube": 2}, "backgammon, player 1 wins 6 "),
        ({"phase": "roll", "menu": 1}, "menu: brightness"),
        ({"phase": "roll", "entering": [4]}, "enter die 2: press your point 1-6"),
    ],
)
def test_the_status_line_says_what_to_do(state, words):
    line = wording.status_line(dict(state, pips=[167, 160]), [(255, 255, 255), (200, 0, 10)])
    assert words in line
    assert line.endswith("pips 0:167 1:160")
    if state["phase"] == "move" and "dice" in state:
        assert "dice 5-3" in line


class Recorder:
    """A client that only records requests (and answers them ok)."""

    def __init__(self, state=None):
        self.info = {"board": "pico", "layout": "full"}
        self.sent = []
        self.args = []  # every request's arguments, in order
        self.state = state or {"phase": "move", "turn": 0}

    def request(self, cmd, **args):
        self.sent.append((cmd, args.get("button")))
        self.args.append(dict(args, cmd=cmd))
        if cmd == "state":
            return dict(self.state, ok=True)
        if cmd == "leds":
            return {"ok": True, "frame": ""}
        return {"ok": True}

    def poll_events(self, timeout=0.0):
        return []

    def presses(self):
        return [b for c, b in self.sent if c == "press"]


def live(state, interactive=True):
    client = Recorder(state)
    view = terminal.LiveView(client, interactive, clock=lambda: 0.0)
    view.poll()
    return client, view


@pytest.mark.parametrize(
    "turn, keys, pressed",
    [
        (0, "r u m b o", ["ROLL", "UNDO", "MENU", "BAR", "OFF"]),
        (0, "LEFT RIGHT ENTER SPACE", ["LEFT", "RIGHT", "SELECT", "SELECT"]),
        (0, "1 3 ENTER", ["p13"]),
        (1, "1 3 ENTER", ["p12"]),
        (1, "6 ENTER 2 4 ENTER", ["p19", "p1"]),
        (0, "2 5 ENTER 0 ENTER", ["BAR", "OFF"]),
        (0, "1 2 3 ENTER", ["p23"]),  # the last two digits count
        (0, "1 BACKSPACE 7 ENTER", ["p7"]),
        (0, "1 ESC ENTER", ["SELECT"]),
        (0, "3 0 ENTER x", []),
    ],
)
def test_keys_press_the_boards_buttons(turn, keys, pressed):
    client, view = live({"phase": "move", "turn": turn})
    for key in keys.split():
        assert view.key(" " if key == "SPACE" else key) is True
    assert client.presses() == pressed
    assert view.key("q") is False


def test_a_point_number_out_of_range_is_explained():
    client, view = live({"phase": "move", "turn": 0})
    for key in ("3", "0", "ENTER"):
        view.key(key)
    assert client.presses() == []
    assert "no point 30" in view.screen().lines()[board_text.STATUS + 1]


def test_clicks_press_the_point_bar_tray_or_dice_under_them():
    client, view = live({"phase": "move", "turn": 1})
    scr = view.screen()
    for k in range(1, 25):
        col, top = point_slot(k)
        for row in (0, 4, 8) if top else (12, 16, 20):
            for c in range(col, col + 4):
                view.key(("click", row, c), scr)
                assert client.presses()[-1] == "p%d" % k
    n = len(client.presses())
    for row, col, button in ((3, 27, "BAR"), (15, 28, "BAR"), (2, 58, "OFF"), (18, 57, "OFF"),
                             (10, 41, "ROLL"), (9, 48, "ROLL")):
        view.key(("click", row, col), scr)
        assert client.presses()[-1] == button
    for row, col in ((10, 10), (2, 70), (23, 5)):  # the middle left, the panel, the help
        view.key(("click", row, col), scr)
    assert len(client.presses()) == n + 6


def test_watch_mode_ignores_everything_but_q():
    client, view = live({"phase": "roll", "turn": 0}, interactive=False)
    for key in ("r", "u", "1", "ENTER", "n", "n", ("click", 4, 3)):
        assert view.key(key, view.screen()) is True
    assert [c for c, _ in client.sent if c not in ("leds", "state")] == []
    assert "watching" in view.screen().lines()[-1]
    assert view.key("q") is False


def test_n_asks_before_abandoning_a_game_and_not_after_it_is_over():
    client, view = live({"phase": "move", "turn": 0})
    view.key("n")
    assert ("new", None) not in client.sent
    assert "press n again" in view.screen().lines()[board_text.STATUS + 1]
    view.key("n")
    assert ("new", None) in client.sent
    client, view = live({"phase": "over", "winner": 0, "result": 1})
    view.key("n")
    assert ("new", None) in client.sent


def test_the_selection_is_followed_through_events():
    client, view = live({"phase": "move", "turn": 0})
    view.take([{"event": "press", "button": "p13"}])
    assert view.selected()
    view.take([{"event": "press", "button": "p8"}, {"event": "step", "from": 13, "to": 8}])
    assert not view.selected()
    view.take([{"event": "press", "button": "p6"}])
    view.take([{"event": "press", "button": "p6"}])  # pressed again: put back
    assert not view.selected()
    view.take([{"event": "press", "button": "p6"}, {"event": "press", "button": "UNDO"}])
    assert not view.selected()
    view.take([{"event": "press", "button": "p6"}, {"event": "press", "button": "p2"},
               {"event": "error", "code": "illegal", "message": "no legal move there"}])
    assert view.selected()
    assert "no legal move there" in view.screen().lines()[board_text.STATUS + 1]


class FakeDisplay:
    """Screens shown are kept; keys come from `driver(view)`, called when none are queued."""

    def __init__(self, view, driver):
        self.view = view
        self.driver = driver
        self.queue = []
        self.shown = []

    def show(self, screen):
        assert len(screen.lines()) == 24
        self.shown.append(screen)

    def key(self, timeout_ms):
        assert 1 <= timeout_ms <= 100
        self.view.now += 0.05
        if not self.queue:
            self.queue = list(self.driver(self.view))
        return self.queue.pop(0) if self.queue else None


def typist(rnd, enough, chosen, side=None):
    """A FakeDisplay driver: types a random legal play for `side` (None: both) as point
    numbers, step by step, into `chosen` as (player, play); r for ROLL; once `enough` plays
    are typed, r and q (ROLL ends the last play's turn: the record has it). It waits while
    the board plays its side."""

    def driver(view):
        st = view.state
        if st is None or st.get("bot"):
            return [None]
        mine = side is None or st["turn"] == side
        if len(chosen) >= enough and st["phase"] in ("roll", "done") and mine:
            return ["r", "q"]
        if st["phase"] in ("opening", "roll", "done"):
            return ["r"]
        if st["phase"] == "move" and mine and not st["steps"]:
            play = rnd.choice(st["plays"])
            chosen.append((st["turn"], play))
            keys = []
            for frm, to in parse_steps(play):
                keys += list(str(frm)) + ["ENTER"] + list(str(to)) + ["ENTER"]
            return keys
        return [None]

    return driver


def typed(client, driver, max_steps, fake_clock=True):
    """The live loop on `client` with keys from `driver` until q; the screens shown."""
    view = terminal.LiveView(client, True)
    view.now = 0.0
    if fake_clock:
        view.clock = lambda: view.now
    display = FakeDisplay(view, driver)
    assert terminal.loop(view, display, max_steps=max_steps) == 0
    return [scr.lines()[board_text.STATUS] for scr in display.shown]


def test_the_live_loop_plays_a_game_typed_at_the_keyboard():
    """Every step typed as point numbers (the mover's own), ROLL with r, through the
    firmware's protocol; the board's record is the plays chosen."""
    client = LocalClient(seed=9)
    chosen = []
    try:
        status = typed(client, typist(random.Random(9), 16, chosen), 3000)
        turns = client.request("history")["turns"]
    finally:
        client.close()
    played = [(t["player"], t["play"]) for t in turns if t["play"]]
    assert len(chosen) >= 16
    assert played == chosen
    assert any("select a destination" in line for line in status)
    assert any("press ROLL to pass the turn" in line for line in status)

def test_curses_colours():
    assert terminal.xterm256((0, 0, 0)) == 16
    assert terminal.xterm256((255, 0, 0)) == 196
    assert terminal.xterm256((128, 128, 128)) == 244
    assert terminal.basic8((200, 0, 10)) == 1  # red
    assert terminal.basic8((255, 200, 60)) == 3  # yellow
    assert terminal.basic8((20, 20, 20)) == 0
    assert terminal.normalize(10) == "ENTER" and terminal.normalize("q") == "q"
    assert terminal.normalize(terminal.curses.KEY_LEFT) == "LEFT"


CHILD = """
import json
import sys
sys.path[:0] = %r
from test_terminal import LocalClient
from ledgammon import terminal
client = LocalClient(seed=4)
code = terminal.run_view(client, True, None)
with open(%r, "w") as f:
    json.dump({"code": code, "requests": client.requests}, f)
client.close()
"""


def test_real_curses_in_a_pseudo_terminal(tmp_path):
    """run_view under real curses on a pty (TERM=xterm-256color): the board is drawn, `r`
    and a mouse click press buttons, `q` ends it with exit code 0."""
    log = str(tmp_path / "log.json")
    paths = [HERE, os.path.join(HERE, "..", "firmware"), os.path.join(HERE, "..", "host")]
    term = PtyProgram([sys.executable, "-c", CHILD % (paths, log)], os.environ)
    try:
        assert term.wait_for(b"ledgammon"), term.seen[-500:]
        assert term.wait_for(b"opening roll")
        term.write(b"r")
        assert term.wait_for(b"select a checker"), term.seen[-500:]
        col, _ = point_slot(24)
        term.write(b"\x1b[<0;%d;%dM\x1b[<0;%d;%dm" % (col + 2, 4, col + 2, 4))
        time.sleep(0.3)
        term.write(b"q")
        assert term.proc.wait(timeout=20) == 0
    finally:
        term.close()
    with open(log) as f:
        result = json.load(f)
    presses = [r["button"] for r in result["requests"] if r["cmd"] == "press"]
    assert result["code"] == 0
    assert presses == ["ROLL", "p24"]
    assert "\x1b[38;5;" in term.seen.decode("utf-8", "replace")  # 256-colour paint


def test_the_view_plays_on_the_simulator_through_the_real_client(tmp_path):
    """The same loop on the MicroPython simulator over its pty, with the pyserial client."""
    from ledgammon.client import Client
    from ledgammon.sim import Simulator

    chosen = []
    with Simulator(flash=str(tmp_path), seed=3) as sim, Client(sim.port) as client:
        status = typed(client, typist(random.Random(1), 6, chosen), 2000, fake_clock=False)
        played = [t["play"] for t in client.history()["turns"]]
    assert played == [play for _, play in chosen] and len(chosen) == 6
    assert "Player " in status[-1]

VS_BOARD = {"players": ["human", "board"]}
BOARD_VS = {"players": ["board", "human"]}
BOTH = {"players": ["board", "board"]}


@pytest.mark.parametrize(
    "state, words",
    [
        ({"phase": "roll", "turn": 1, "bot": "roll", "settings": VS_BOARD},
         "Player 1 (red): the board throws its dice · pips"),
        ({"phase": "move", "turn": 1, "bot": "think", "dice": [5, 3], "settings": VS_BOARD},
         "Player 1 (red): the board is thinking · dice 5-3"),
        ({"phase": "move", "turn": 0, "bot": "move", "steps": [], "settings": BOARD_VS,
          "selected": 8}, "Player 0 (white): the board moves · "),
        ({"phase": "move", "turn": 0, "bot": "move", "steps": ["8/5", "6/5"],
          "settings": BOARD_VS}, "Player 0 (white): the board plays 8/5 6/5 · "),
        ({"phase": "move", "turn": 1, "bot": "move", "steps": ["13/7", "13/7", "8/2"]},
         "the board plays 13/7(2) 8/2 · "),
        ({"phase": "move", "turn": 1, "bot": "move", "steps": ["13/8", "8/5*"]},
         "the board plays 13/5* · "),
        ({"phase": "move", "turn": 1, "bot": "move", "steps": ["13/8", "zz"]},
         "the board plays 13/8 zz · "),  # not notation: as the board wrote it
        ({"phase": "done", "turn": 1, "steps": ["bar/22*", "22/16"], "settings": VS_BOARD},
         "Player 1 (red): the board played bar/22*/16: ROLL for your turn · "),
        ({"phase": "done", "turn": 0, "bot": "roll", "steps": ["6/1"], "settings": BOTH},
         "Player 0 (white): the board passes the turn · "),
        ({"phase": "opening", "bot": "roll", "settings": BOTH}, "the board throws its dice · "),
        ({"phase": "opening", "settings": VS_BOARD}, "opening roll: press ROLL · "),
        ({"phase": "roll", "turn": 0, "settings": VS_BOARD}, "Player 0 (white), your turn: roll"),
        ({"phase": "move", "turn": 1, "settings": BOARD_VS, "selected": 6},
         "Player 1 (red), your turn: select a destination"),
        ({"phase": "done", "turn": 0, "steps": ["8/5"], "settings": VS_BOARD},
         "Player 0 (white), your turn: press ROLL to pass the turn"),
        ({"phase": "move", "turn": 0, "settings": {"players": ["human", "human"]}},
         "Player 0 (white): select a checker"),
        ({"phase": "move", "turn": 0, "settings": {"players": "board"}},
         "Player 0 (white): select a checker"),  # a strange setting: people play
        ({"phase": "over", "winner": 1, "result": 2, "settings": VS_BOARD},
         "game over: gammon, player 1 (the board) wins 2 points"),
        ({"phase": "over", "winner": 1, "result": 1, "settings": BOARD_VS},
         "game over: single game, player 1 (you) wins 1 point"),
        ({"phase": "over", "winner": 0, "result": 1, "settings": BOTH},
         "game over: single game, player 0 wins 1 point"),
        ({"phase": "roll", "turn": 0, "menu": 6, "settings": VS_BOARD},
         "menu: level (ROLL/UNDO change it, MENU next item)"),
        ({"phase": "move", "turn": 1, "menu": 5, "bot": "think", "settings": VS_BOARD},
         "menu: players (ROLL/UNDO"),  # the board waits while the menu is open
    ],
)
def test_the_status_line_says_what_the_board_is_doing(state, words):
    """wording says it, and the terminal shows wording's line as it is."""
    state = dict(state, pips=[167, 160])
    line = wording.status_line(state, [(255, 255, 255), (200, 0, 10)])
    assert words in line and line.endswith("pips 0:167 1:160"), line
    assert ("your turn" in line) == ("your turn" in words)
    client, view = live(state)
    shown = view.screen().lines()[board_text.STATUS]
    assert shown.rstrip() == wording.status_line(state, board_text.player_colours(
        BOARD.decode(b""), state), view.selected(), view.layout)[:80].rstrip()


def test_every_menu_item_has_words():
    """One word for each item of the firmware's MENU, in its order."""
    from control.menu import ITEMS

    assert len(wording.MENU_ITEMS) == len(ITEMS)
    for i, item in enumerate(ITEMS):
        name = item[0] if isinstance(item, tuple) else item  # (name, setting, values)
        words = wording.next_step({"phase": "roll", "menu": i})
        assert words.startswith("menu: %s (" % wording.MENU_ITEMS[i])
        assert name in words or (name, wording.MENU_ITEMS[i]) == ("palette", "colours")


def test_h_asks_for_a_hint_and_the_help_line_says_so():
    for layout in ("full", "minimal"):
        client, view = live({"phase": "move", "turn": 0})
        view.layout = layout
        for uni in (True, False):
            view.unicode = uni
            help_line = view.screen().lines()[-1]
            assert "h:hint" in help_line and len(help_line.rstrip()) <= 80
            assert help_line.isascii() or uni
    client = LocalClient(seed=3)
    try:
        view = terminal.LiveView(client, True, clock=lambda: 0.0)
        view.key("h")
        assert "no hint now" in view.screen().lines()[board_text.STATUS + 1]
        view.key("r")
        view.poll()
        view.key("h")
        reply = client.requests[-1]
        assert reply["cmd"] == "hint"
        assert view.screen().lines()[board_text.STATUS + 1].startswith("hint: ")
        assert client.app.ctl.hint is not None  # lit on the board too
    finally:
        client.close()


def test_the_live_loop_plays_against_the_board():
    """Player 0 typed at the keyboard, player 1 the board: its steps come as the frames and
    the state change by themselves, and the status line says when it thinks and plays."""
    client = LocalClient(seed=12)
    assert client.request("config", set={"players": ["human", "board"], "level": "easy"})["ok"]
    client.app.ctl.pace_ms = 100
    mine = []
    try:
        status = typed(client, typist(random.Random(12), 6, mine, side=0), 6000)
        turns = client.request("history")["turns"]
    finally:
        client.close()
    assert [(0, t["play"]) for t in turns if t["player"] == 0 and t["play"]] == mine
    assert len([t for t in turns if t["player"] == 1]) >= 5
    assert any("the board is thinking" in line for line in status)
    assert any("the board plays " in line for line in status)
    assert any("Player 0 (" in line and "your turn: select a checker" in line for line in status)
    found = map(re.compile(r"the board played (.+): ROLL").search, status)
    said = {m.group(1) for m in found if m}
    theirs = {t["play"] for t in turns if t["player"] == 1 and t["play"]}
    assert said and said <= theirs  # the board's plays in the engine's notation


def _mid(**fields):
    """A Match ID with these fields (the rest: a 5-point match in play, cube 1 centred)."""
    from gammon.matchid import encode

    base = {"cube": 1, "owner": -1, "move": 0, "crawford": False, "state": 1, "turn": 0,
            "doubled": False, "resigned": 0, "die1": 0, "die2": 0, "length": 5, "score0": 0,
            "score1": 0, "jacoby_off": True}
    base.update(fields)
    return encode(base)


MATCH = {"match_length": 5, "score": [2, 1], "cube_on": True, "cube": 1, "cube_owner": None,
         "offer": None, "crawford": False, "match_over": False, "match_winner": None}
AGAINST = {"settings": {"players": ["human", "board"]}}


@pytest.mark.parametrize(
    "state, words",
    [
        ({"phase": "roll", "turn": 0, "offer": {"kind": "double", "by": 0, "value": 2}},
         "player 0 doubles to 2: player 1, take or drop?"),
        ({"phase": "roll", "turn": 1, "cube": 2, "offer": {"kind": "resign", "by": 1, "value": 2}},
         "player 1 resigns a gammon (4 points): player 0, accept or reject?"),
        (dict(AGAINST, phase="roll", turn=1, offer={"kind": "double", "by": 1, "value": 4}),
         "player 1 (the board) doubles to 4: player 0 (you), take or drop?"),
        (dict(AGAINST, phase="move", turn=0, dice=[3, 1],
              offer={"kind": "resign", "by": 0, "value": 3}),
         "player 0 (you) resigns a backgammon (3 points): player 1 (the board), accept or"),
        ({"phase": "roll", "turn": 1, "may_double": True, "cube": 2, "cube_owner": 1},
         "Player 1 (red): roll, or double to 4"),
        ({"phase": "over", "winner": 1, "result": 1, "cube": 4, "cube_owner": 0,
          "match_id": _mid(cube=4, owner=0, state=4)},
         "game over: player 0 dropped, player 1 wins 4 points"),
        ({"phase": "over", "winner": 0, "result": 1, "cube": 2,
          "match_id": _mid(cube=2, state=3, resigned=2)},
         "game over: player 1 resigned, player 0 wins 4 points"),
        ({"phase": "over", "winner": 1, "result": 2, "cube": 2, "score": [2, 5],
          "match_over": True, "match_winner": 1, "match_id": _mid(cube=2, state=2)},
         "game over: gammon, player 1 wins 4 points; match over: player 1 wins 2-5"),
    ],
)
def test_the_status_line_says_what_is_asked_and_of_whom(state, words):
    st = dict(MATCH, pips=[167, 160], **state)
    line = wording.status_line(st, [(255, 255, 255), (200, 0, 10)])
    assert words in line, line
    scr = board_text.draw(b"", st, BOARD)
    shown = line.replace("(red)", "(dark)").replace("(white)", "(dark)")  # no frame: no colours
    assert shown[:board_text.WIDTH] in scr.lines()[board_text.STATUS]
    panel = [ln[board_text.PANEL:].rstrip() for ln in scr.lines()]
    assert "game 1 · 5 pt %d-%d" % tuple(st["score"]) in panel
    owner = st.get("cube_owner")
    assert "cube %d · %s" % (st["cube"], "middle" if owner is None else "player %d" % owner) in (
        panel)
    offer = st.get("offer")
    help_line = scr.lines()[-1]
    if offer:
        doubled = offer["kind"] == "double"
        assert "P%d %s" % (offer["by"], "doubles to" if doubled else "resigns") in panel[19]
        assert panel[20] == "P%d to answer" % (1 - offer["by"])
        assert help_line.startswith("t:take x:drop" if doubled else "a:accept j:reject")
    elif st["phase"] != "over":
        assert "d:double s:resign" in help_line and len(help_line.rstrip()) <= 80
    if st.get("match_over"):
        assert "match over" in panel


def test_the_panel_marks_the_crawford_game_and_money_play():
    st = dict(MATCH, phase="roll", turn=0, score=[4, 2], crawford=True)
    panel = [ln[board_text.PANEL:].rstrip() for ln in board_text.draw(b"", st, BOARD).lines()]
    assert "Crawford game" in panel
    st = dict(st, phase="over", winner=1, result=1)
    panel = [ln[board_text.PANEL:].rstrip() for ln in board_text.draw(b"", st, BOARD).lines()]
    assert "next: Crawford" in panel
    money = {"phase": "roll", "turn": 0, "match_length": 0, "score": [3, 1], "cube_on": True,
             "cube": 2, "cube_owner": 0}
    scr = board_text.draw(b"", money, BOARD)
    panel = [ln[board_text.PANEL:].rstrip() for ln in scr.lines()]
    assert "game 1 · money" in panel and "cube 2 · player 0" in panel
    assert "d:double" in scr.lines()[-1]
    plain = board_text.draw(b"", {"phase": "roll", "turn": 0, "cube_on": False}, BOARD)
    assert not [ln for ln in plain.lines() if "cube" in ln]  # cubeless money play: as before
    assert plain.lines()[-1].rstrip() == wording.HELP["full"]


@pytest.mark.parametrize("layout", ["full", "minimal"])
def test_the_cube_keys_ask_the_board(layout):
    client, view = live(dict(MATCH, phase="roll", turn=0))
    view.layout = layout
    for key in ("d", "t", "x", "a", "j", "s", "2", "s", "r", "s", "ESC"):
        assert view.key(key) is True
    asked = [a for a in client.args if a["cmd"] not in ("state", "leds")]
    assert asked == [{"cmd": "double"}, {"cmd": "take"}, {"cmd": "drop"}, {"cmd": "accept"},
                     {"cmd": "reject"}, {"cmd": "resign", "value": 2}]  # s r, s Esc: no
    assert "no resignation" in view.screen().lines()[board_text.STATUS + 1]
    view.key("s")
    assert "1 a single game, 2 a gammon, 3 a backgammon" in view.screen().lines()[
        board_text.STATUS + 1]


def test_a_refused_cube_action_is_said():
    class Refusing(Recorder):
        def request(self, cmd, **args):
            if cmd in ("double", "take"):
                return {"ok": False, "error": {"code": "wrong_phase",
                                               "message": "no doubling in the Crawford game"}}
            return super().request(cmd, **args)

    client = Refusing(dict(MATCH, phase="roll", turn=0))
    view = terminal.LiveView(client, True, clock=lambda: 0.0)
    view.poll()
    view.key("d")
    assert "double: no doubling in the Crawford game" in view.screen().lines()[
        board_text.STATUS + 1]


@pytest.mark.parametrize(
    "event, words",
    [
        ({"event": "double", "by": 0, "cube": 2}, "Player 0 doubles to 2"),
        ({"event": "take", "by": 1, "cube": 2}, "Player 1 takes: the cube is at 2"),
        ({"event": "drop", "by": 1, "winner": 0, "points": 2},
         "Player 1 drops: player 0 wins 2 points"),
        ({"event": "resign", "by": 0, "value": 3}, "Player 0 resigns a backgammon"),
        ({"event": "accept", "by": 1, "winner": 1, "points": 6},
         "Player 1 accepts: player 1 wins 6 points"),
        ({"event": "reject", "by": 1}, "Player 1 rejects the resignation: play on"),
        ({"event": "over", "winner": 0, "result": 2, "points": 4, "score": [4, 1],
          "match_over": False}, "Player 0 wins 4 points (4-1)"),
        ({"event": "over", "winner": 1, "result": 1, "points": 1, "score": [4, 5],
          "match_over": True}, "Player 1 wins 1 point, the match (4-5)"),
    ],
)
def test_cube_events_are_told(event, words):
    assert terminal.describe(event) == words


def test_the_cube_leds_are_drawn_across_the_middle():
    """Both rows of the cube's LEDs (player 1's above player 0's) in one line of cells under
    points 11-9, as the board has them; a frame without them leaves the line dark."""
    assert "cube0" in BOARD.segments and "cube1" in BOARD.segments
    frame = bytearray(BOARD.led_count * 3)
    lit = {("cube0", 2): (0, 0, 250), ("cube1", 0): (250, 0, 0), ("cube1", 5): (0, 250, 0)}
    for (name, i), rgb in lit.items():
        at = BOARD.segments[name].index(i) * 3
        frame[at:at + 3] = bytes(rgb["RGB".index(ch)] for ch in BOARD.order)
    scr = board_text.draw(bytes(frame), {"phase": "roll", "turn": 0}, BOARD)
    row = board_text.MIDDLE + 1
    n = BOARD.segments["cube0"].count
    cells = [(half(scr, row, board_text.CUBE + 2 * i, True),
              half(scr, row, board_text.CUBE + 2 * i, False)) for i in range(n)]
    bright = [(max(up) > 100, max(lo) > 100) for up, lo in cells]
    assert bright == [(i in (0, 5), i == 2) for i in range(n)]
    assert cells[0][0][0] > cells[0][0][2] and cells[2][1][2] > cells[2][1][0]


def test_the_cube_keys_play_a_match_on_the_firmware():
    """The firmware in-process set to a 3-point match: d doubles, t takes, s 1 offers a
    single game, j rejects it, s 2 then a ends the game with a gammon times the cube; the
    status line and the panel follow every step."""
    client = LocalClient(seed=9)
    try:
        assert client.request("config", set={"match_length": 3, "cube": True})["ok"]
        assert client.request("new")["ok"]
        view = terminal.LiveView(client, True, clock=lambda: 0.0)

        def state():
            view.next_state = view.next_leds = 0.0
            view.poll()
            return view.state, view.screen().lines()

        st, lines = state()
        while st["phase"] != "move":  # the opening
            view.key("r")
            st, lines = state()
        mover = st["turn"]
        assert client.request("move", play=st["plays"][0])["ok"]
        st, lines = state()
        assert st["phase"] == "done" and st["may_double"]
        view.key("d")  # from a finished play: the turn passes and the next player doubles
        st, lines = state()
        doubler = 1 - mover
        assert st["offer"] == {"kind": "double", "by": doubler, "value": 2}
        assert "player %d doubles to 2: player %d, take or drop?" % (doubler, mover) in lines[
            board_text.STATUS]
        assert lines[-1].startswith("t:take x:drop")
        view.key("t")
        st, lines = state()
        assert st["offer"] is None and st["cube"] == 2 and st["cube_owner"] == mover
        assert "cube 2 · player %d" % mover in [ln[board_text.PANEL:].rstrip() for ln in lines]
        view.key("s")
        view.key("1")
        st, lines = state()
        assert st["offer"] == {"kind": "resign", "by": doubler, "value": 1}
        assert "resigns a single game (2 points)" in lines[board_text.STATUS]
        assert lines[-1].startswith("a:accept j:reject")
        view.key("j")
        st, _ = state()
        assert st["offer"] is None and st["phase"] == "roll"
        for key in ("s", "2", "a"):
            view.key(key)
        st, lines = state()
        assert st["phase"] == "over" and st["winner"] == mover
        assert st["score"][mover] == 4 and st["match_over"] and st["match_winner"] == mover
        assert "player %d resigned, player %d wins 4 points" % (doubler, mover) in lines[
            board_text.STATUS]
        assert "match over" in [ln[board_text.PANEL:].rstrip() for ln in lines]
        assert "wins 4 points" in lines[board_text.STATUS + 1]  # the accept or over event
    finally:
        client.close()
