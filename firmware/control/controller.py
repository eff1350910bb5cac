# Buttons and remote commands -> Game: roll, move, undo, new game, settings, the cube, the
# board's own player and HINT; owns the selection, the menu's place, the cube page and the
# dice entry, has the View filled (control/present.py, its one writer), emits events; its
# Saver says when the game is written. Its fields are written here only: the modules it
# uses read them, ask through its methods or return values it keeps. All but buttons,
# turns, present and saver are imported when first needed (heap: a game of people with
# buttons and electronic dice never loads them).
from display.view import View
from model.game import DONE, MOVE, OPENING, OVER, ROLL

from control import buttons, present, turns
from control.refusal import fail
from control.saver import FRAME, NEXT, NOW, Saver


def _drop(event):
    pass


def _plays(position, dice):
    """The legal plays of `dice` in `position` in notation, one at a time (report.play_texts
    writes each play's notation at once)."""
    from control.report import play_texts  # (loaded already: it made the reply)

    yield from play_texts(position, dice)


class Controller:
    """Turns presses and remote commands into game changes; never raises on bad input. A
    side may be played by a program through `roll` and `move`, exactly as by buttons, or by
    the board itself (settings.players, autoplay.py): `tick` then makes its steps."""

    def __init__(
        self, game, settings, store, dice, layout="full", emit=None, now_ms=0, pace_ms=700,
        collector=None,
    ):
        """`pace_ms`: the board player's time per step (sim_main --pace); `collector`: the
        app's idle collections (hw/collector.py), which the board's choices ask for."""
        self.game = game
        self.settings = settings
        self.store = store
        self.dice = dice
        self.layout = layout
        self.emit = emit or _drop
        self.view = View()
        self.boot_error = None  # a message when the save was found corrupt at boot
        self.error = 0  # view.error: 1 a corrupt save at boot, 2 the board cannot play
        self.throw = turns.Throw()  # the turn's dice entry, dice shown, throw left to a tick
        self.menu_item = -1  # -1: the menu is closed
        self.saver = Saver(game, store, self._emit)  # emit as it is then (hosts rewire it)
        self.sel = -1  # the selected point (mover's numbers), -1 none
        self.dests = {}  # its destinations: {to: dice}
        self.movable = []  # points (mover's numbers) whose checker can move
        self.cands = 0  # cursor candidates: a mask of target indices (present.fill_view's)
        self.bot = None  # autoplay.Bot while a side is played by the board
        self.hint = None  # (sources, destinations) masks lit by HINT until the next press
        self.hint_ready = False  # the last press was ROLL during a person's play: HINT if held
        self.page = None  # cube_page.Page: the cube page open, or a drop asked once
        self.hinting = None  # hint.Hint being thought out (ROLL held), a slice a tick
        self.pace_ms = pace_ms
        self.collector = collector  # the app's hw.collector.Collector, or None
        self.frame_first = False  # an app's button press is being routed (_guarded)
        self._sides()
        self.turn_changed(now_ms)
        if game.phase == OVER:
            present.over(self.view, now_ms)

    def press(self, name, now_ms, frame_first=False):
        """A button event from the input layer or the protocol; never raises; buttons.route
        hands it on. `frame_first` (the app's buttons): the save waits for the next frame."""
        self.emit({"event": "press", "button": name})
        self.hinting = None  # a press cancels a hint still being thought out
        self._guarded(Controller._route, name, now_ms, frame_first)

    def _route(self, name, now_ms):
        if self.hint:  # shown until the next press
            self.hint = None
            self.refresh(now_ms)
        self.hint_ready = name == "ROLL" and self.game.phase == MOVE
        buttons.route(self, name, now_ms)

    def long_press(self, name, now_ms, frame_first=False):
        """A key held 800 ms (buttons.held: HINT, the cube page); never raises."""
        self._guarded(buttons.held, name, now_ms, frame_first)

    def _guarded(self, route, name, now_ms, frame_first):
        """route(self, name, now_ms), its save after the frame if `frame_first`; a bug in it
        must not stop the board: reported, and the board goes on."""
        self.saver.defer(FRAME if frame_first else NOW)
        self.frame_first = frame_first
        self.throw.taken()  # a throw still asked for is the next press's to make
        try:
            route(self, name, now_ms)
        except Exception as exc:
            fail(self, "internal", repr(exc), name, -1, now_ms)
            self.turn_changed(now_ms)
        self.frame_first = False
        self.saver.defer(NOW)

    # Commands (buttons, the protocol, a board player): each returns (ok, result or error)
    def roll(self, now_ms, dice=None):
        """ROLL: pass a complete play, throw, take `dice` or enter them (turns.py)."""
        return turns.roll(self, now_ms, dice)

    def apply_roll(self, dice, now):
        """Throws (dice None) or takes the dice; the game is in OPENING or ROLL."""
        return turns.apply_roll(self, dice, now)

    def move(self, text, now_ms):
        """A single step ("13/11", "24/18/13") or a whole play ("8/5 6/5") in notation."""
        from control import remote

        return remote.move(self, text, now_ms)

    def undo(self, now_ms):
        """UNDO: the last die entered (physical dice), else the last step of the turn."""
        return turns.undo(self, now_ms)

    def new_game(self, now_ms):
        self.menu_item = -1
        turns.new(self, now_ms)
        self.changed(now_ms)
        return True, {"game": self.game.game_number}

    def configure(self, key, value, now_ms=0):
        """One setting (the menu, `config`), checked, saved and announced by control/
        configure.py ((False, bad_args): nothing changed); then the dice entry ends with
        physical dice off, the board's player joins or leaves."""
        from control.configure import configure

        ok, out = configure(self, key, value)
        if ok:
            self.settings_changed(now_ms)
        return ok, out

    def config(self, changes, now_ms):
        """The `config` request: every change of `changes` ({key: value}; None: none)
        checked first, then all made, saved once and announced in one `config` event
        (control/configure.configure_all: all or none); (True, {"settings", "next_terms"})
        or (False, bad_args) and nothing changed."""
        from control.configure import configure_all, next_terms

        if changes:
            ok, out = configure_all(self, [(key, changes[key]) for key in changes])
            if not ok:
                return ok, out
            self.settings_changed(now_ms)
        return True, {"settings": self.settings.as_dict(), "next_terms": next_terms(self)}

    def settings_changed(self, now_ms):
        """What follows from a change of the settings (configure; sides.failed's own when no
        room was left to announce it)."""
        if not self.settings.physical_dice:
            self.throw.stop_entry()
        self._sides()
        self.turn_changed(now_ms)

    # The board's own player (autoplay.py) and HINT
    def _sides(self):
        """The board's player joins when a side becomes the board's, and leaves with its
        weights when none is (sides.py)."""
        if ("board" in self.settings.players) != (self.bot is not None):
            from control import sides

            wanted = self.bot is None
            self.bot = sides.player(self)
            if wanted and self.bot is None:  # it could not be made: the LEDs say so too
                self.error = 2

    def player_failed(self, side, message, now_ms):
        """The board's player failed while playing `side` (autoplay.py): sides.failed."""
        from control.sides import failed

        self.error = 2
        failed(self, side, message, now_ms)

    def by_board(self, player):
        """Whether the board plays side `player` (0 or 1)."""
        return self.bot is not None and self.settings.players[player] == "board"

    def busy(self):
        """The board is to act (throw, play, or pass between its own sides): a person's
        presses other than MENU are refused."""
        g = self.game
        who = self.offered_to()
        if who >= 0:  # the answer is the other side's
            return self.by_board(who)
        if g.phase == OPENING or g.phase == DONE:  # both sides the board's: it goes on alone
            return self.by_board(0) and self.by_board(1)
        return g.phase != OVER and self.by_board(g.turn)

    def start_hint(self, now_ms):
        """HINT held: thought out a slice a tick (hint.py), lit when done; (ok, error)."""
        from control import hint

        ok, h = hint.start(self, now_ms)
        self.hinting = h if ok else None
        if ok and self.sel >= 0:  # thinking: the checkers that can move glow
            self.select(-1, now_ms)
        return ok, h

    def hint_going(self, h):
        """Whether Hint `h` (start_hint's) is still being thought out: a press, or a change
        of the game, drops it (the `hint` request's reply then says so)."""
        return self.hinting is h

    def set_hint(self, masks, now_ms):
        """HINT's lights, (sources, destinations) masks, until the next press (autoplay)."""
        self.hint = masks
        self.select(-1, now_ms)

    # The selection, the menu's place, the cursor: asked for by buttons, menu, autoplay
    def select(self, pt, now_ms, dests=None):
        """Picks up the checker on point `pt` (mover's numbers; -1 puts it back); `dests`
        where it goes (the board's player shows one step), by default every legal one."""
        self.sel = pt
        if dests is None:
            dests = self.game.turn_state.destinations(pt) if pt >= 0 else {}
        self.dests = dests
        self.refresh(now_ms)

    def open_menu(self, item, now_ms):
        """The menu at item `item` (-1 closes it); opening it drops a selection, the cube
        page and a dice entry in progress."""
        if self.menu_item < 0 and item >= 0:
            self.throw.stop_entry()
            self.page = None
            self.sel = -1
            self.dests = {}
        self.menu_item = item
        self.refresh(now_ms)

    # The cube (cube_page.py, loaded when the cube is touched)
    def cube(self, kind, now_ms, value=None):
        """A cube action or resignation for a host (the protocol's double, take, drop,
        resign, accept, reject): control/cube_actions.act, (ok, reply or error)."""
        from control.cube_actions import act

        return act(self, kind, now_ms, value)

    def offered_to(self):
        """The player who must answer the double or resignation waiting, or -1."""
        g = self.game
        mp = g.mp
        if mp is None or g.phase == OVER or not mp.match.offer:
            return -1
        return 1 - mp.match.offer_by

    def offer_waiting(self):
        """Whether a double or a resignation waits for its answer."""
        return self.offered_to() >= 0

    def set_page(self, page, now_ms):
        """The cube page (cube_page.Page) open, or None: closed."""
        self.page = page
        self.select(-1, now_ms)

    def asking(self):
        """(view.ASK_*, of whom, kind shown, value shown): what is being asked now."""
        if self.page is None and not self.offer_waiting():
            return 0, -1, 0, 0
        from control import cube_page

        return cube_page.asking(self)

    def menu_value(self):
        """The open menu item's value, as the view shows it."""
        from control import menu

        return menu.value(self.settings, self.menu_item)

    def move_cursor(self, right, now_ms):
        """LEFT/RIGHT (minimal layout): the cursor to the next candidate that way."""
        present.move_cursor(self.view, self.cands, right)
        self.refresh(now_ms)

    def tick(self, now_ms):
        """Timed transitions: the View's deadlines reached (present.expire); the dice of a
        passed turn go dark after their blink; a HINT thought out; the board's player. What
        they change is saved in the next frame, which does nothing else (saver.py). True while a
        HINT or the board's choice is being thought out: the app then starts the next frame at
        once, the loop released between (app.py)."""
        v = self.view
        present.expire(v, now_ms)
        if self.throw.blinked(v.blink_until):
            self.refresh(now_ms)
        if self.saver.unsaved:  # the last frame's change: its save is this frame's work
            self.saver.flush()
            return self.hinting is not None or self.bot is not None and self.bot.plan is not None
        self.saver.defer(NEXT)
        more = False
        if self.throw.taken():  # the throw of the ROLL press that passed the turn (turns.roll)
            if self.game.phase == ROLL and not self.busy() and self.menu_item < 0:
                self._throw(now_ms)
        if self.hinting is not None:
            if self.hinting.step(self, now_ms):
                self.hinting = None
            else:
                more = True
        if self.bot is not None and self.bot.tick(self, now_ms):
            more = True
        self.saver.defer(NOW)
        return more

    def _throw(self, now_ms):
        """The throw a ROLL press left to the next tick; a heap with no room for the turn
        refuses it (the game still at ROLL: ROLL again). A function of its own: with this
        try inside tick(), make bench found MicroPython's own collections back inside three
        steps of a game (gc_in_steps; a tick then held the loop 0.35 ms) though no tick
        allocated; why is not understood, the figure is watched."""
        try:
            self.apply_roll(None, now_ms)
        except MemoryError as exc:
            fail(self, "internal", repr(exc), "ROLL", -1, now_ms)

    # Replies (report.py, loaded when first asked)
    def state(self, plays=True):
        """The protocol's `state` reply; `plays` lists every legal play (can be long)."""
        from control import report

        return report.state(self, plays)

    def plays(self):
        """The legal plays of the position and dice now in notation, one at a time (the
        `state` reply's, written a piece at a time: what the request saw, however late);
        none to play: an empty list, so that the reply is one plain line, made by one
        json.dumps (streamed, its head took four and its writer many steps: on a Pico
        each new string is a walk of the qstr pools)."""
        g = self.game
        if g.phase != MOVE and g.phase != DONE:
            return []
        return _plays(g.position, g.dice)

    def history_dict(self, listed=True):
        """The protocol's `history` reply; `listed` False: "turns" is a generator."""
        from control import report

        return report.history(self.game, listed)

    def _emit(self, event):
        self.emit(event)

    def changed(self, now):
        """After every change of the game: save, emit `over`, recompute the highlights."""
        g = self.game
        self.saver.changed()
        if g.phase == OVER:
            present.over(self.view, now)
            self.emit(turns.over_event(g))
        self.turn_changed(now)

    def flush(self):
        """Writes the game if a change is not saved yet (after each frame: saver.py)."""
        self.saver.flush()

    @property
    def save_size(self):  # bytes of the last game save
        return self.saver.size

    def boot_failed(self, message, now_ms):
        """A save found corrupt at boot (control/boot.py): reported and shown."""
        self.boot_error = message
        self.error = 1
        self.emit({"event": "error", "code": "bad_save", "message": message})
        self.refresh(now_ms)

    def turn_changed(self, now):
        g = self.game
        self.sel = -1
        self.dests = {}
        self.hint = None
        self.page = None
        mine = g.phase == MOVE and not self.busy() and not self.offer_waiting()
        self.movable = g.turn_state.movable() if mine else []
        self.refresh(now)

    def refresh(self, now):
        self.cands = present.fill_view(self, self.view)
