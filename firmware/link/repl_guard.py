# After the firmware left for the REPL: the watchdog is fed while someone uses the REPL, and
# left to restart the board into its game when nobody does (a stop by accident undoes itself).
#
# The REPL is C code; what shows that it is used is the heap: every line typed at the
# friendly prompt and every command mpremote or Thonny runs through the raw REPL is compiled
# and run, and allocates, while a REPL that waits at its prompt allocates nothing. So
# feed(), called every second by a timer (hardware_setup.keep_fed), compares gc.mem_alloc()
# with what it was: a change is use. The watchdog is fed until FIRST_MS pass with no use
# after the stop, or IDLE_MS after the last use; then the watchdog (8 s) restarts the
# board, which resumes its saved game. A soft reset (Ctrl-D) stops the timer itself.
import gc

from hw.ticks import ticks_diff, ticks_ms
from kernels.compat import const

FIRST_MS = const(30000)  # no use at all: the stop was an accident (or the host has gone)
IDLE_MS = const(600000)  # a session that was used and then left alone


def _heap():
    return gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0


class ReplGuard:
    """feed(): feeds `wdt` while the REPL is in use (see above). clock and activity (a
    number that changes when the REPL is used) are the board's unless given (tests)."""

    def __init__(self, wdt, clock=ticks_ms, activity=_heap, first_ms=FIRST_MS, idle_ms=IDLE_MS):
        self.wdt = wdt
        self.clock = clock
        self.activity = activity
        self.first_ms = first_ms
        self.idle_ms = idle_ms
        self.since = clock()  # the stop, then the last use seen
        self.mark = None  # activity at the first feed (the app's own exit is done by then)
        self.used = False
        self.feeds = 0

    def feed(self):
        """One tick of the timer: feeds the watchdog unless the REPL has been left alone."""
        now = self.clock()
        a = self.activity()
        if self.mark is None:
            self.mark = a
        elif a != self.mark:
            self.mark = a
            self.used = True
            self.since = now
        if ticks_diff(now, self.since) < (self.idle_ms if self.used else self.first_ms):
            self.wdt.feed()
            self.feeds += 1
            return True
        return False
