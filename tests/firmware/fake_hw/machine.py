# A stand-in for MicroPython's `machine` (tests of hardware_setup.py): records what is made.
made = []  # every Pin, WDT and Timer made, in order


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self.mode = mode
        self.pull = pull
        self.level = 1 if pull == Pin.PULL_UP else 0
        if value is not None:
            self.level = value
        made.append(self)

    def __call__(self, v=None):
        if v is None:
            return self.level
        self.level = v

    def value(self, v=None):
        return self(v)


class WDT:
    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout
        self.feeds = 0
        made.append(self)

    def feed(self):
        self.feeds += 1


class Timer:
    ONE_SHOT = 0
    PERIODIC = 1

    def __init__(self, id=-1, mode=1, period=-1, callback=None):
        self.id = id
        self.mode = mode
        self.period = period
        self.callback = callback
        made.append(self)

    def deinit(self):
        self.callback = None
