# When the game is written to the flash: at once (a command from the protocol), once the
# frame that shows a press is drawn (the app's buttons), or in the next frame (the timed
# changes of the controller's tick: the board's own steps), so no frame holds both a change
# and its save (issue 11: the loop held at most ~250 us on the unix port). The Controller
# owns one Saver; this module writes its fields.
from kernels.compat import const

from control.errors import report

NOW = const(0)  # the save is written when the change is made
FRAME = const(1)  # ... after the frame that shows it (App.flush, its step after the draw)
NEXT = const(2)  # ... at the start of the next frame (Controller.tick)


class Saver:
    """Writes `game` to `store` when it changed; errors of the file system, and a heap with
    no room for the save's pieces, become "storage" error events through `emit`, never
    exceptions (the game goes on unsaved until its next change)."""

    def __init__(self, game, store, emit):
        self.game = game
        self.store = store
        self.emit = emit
        self.size = 0  # bytes of the last game save
        self.unsaved = False
        self._when = NOW  # for the changes being made now: NOW, FRAME or NEXT
        self._hold = False  # a NEXT change: the frame's own flush leaves it to the next

    def defer(self, when):
        """The changes made from now on are saved `when` (NOW, FRAME, NEXT) until the next
        call (the controller sets it around a press and around its tick)."""
        self._when = when

    def changed(self):
        """The game changed: written now, or when its `defer` says."""
        self.unsaved = True
        if self._when == NEXT:
            self._hold = True
        elif self._when == NOW:
            self.flush()

    def flush(self):
        """Writes the game if a change is not saved yet; a change made in this frame's tick
        waits for the next frame (App.flush calls this after every frame's draw, main.py at
        exit: nothing is held then)."""
        if self._hold:
            self._hold = False
            return
        if not self.unsaved:
            return
        self.unsaved = False
        try:
            self.size = self.store.save_game(self.game.chunks())
        except (OSError, MemoryError) as exc:  # the next change saves the whole game again
            report(self.emit, "storage", exc)
