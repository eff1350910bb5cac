# A watchdog for tests: counts its feeds (machine.WDT's one method the firmware calls).


class FakeWdt:
    """feed() counts; `feeds` is how many times the loop (or the REPL guard) fed it."""

    def __init__(self):
        self.feeds = 0

    def feed(self):
        self.feeds += 1
