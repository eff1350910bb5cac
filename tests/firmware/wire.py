# Test helpers for the protocol: its lines taken back as JSON, and a controller behind it.
# Light until make() is called: test_link_text uses Wire, ask and one with no controller, in
# the board's small heap; the tests that call make() have loaded fakes already.
import json

from kernels.text import bad_at
from link.protocol import Protocol

INFO = {"board": "pico", "layout": "full", "leds": 440, "order": "GRB"}


class Wire:
    """What the protocol wrote, as lines."""

    def __init__(self):
        self.chunks = []

    def __call__(self, b):
        c = self.chunks
        if c and len(c[-1]) < 128:  # a streamed line's small pieces kept a few together
            c[-1] += b
        else:
            c.append(bytes(b))

    def take(self):
        """The JSON objects written since the last take: each line must be valid UTF-8 (the
        strict check of the firmware's own kernels/text.py, on either interpreter) and parse."""
        text = b"".join(self.chunks)
        self.chunks = []
        assert not text or text.endswith(b"\n"), text
        out = []
        for line in text.split(b"\n")[:-1]:
            assert bad_at(line, 0, len(line)) < 0, line
            out.append(json.loads(line.decode("utf-8")))
        return out


def make(seed=3):
    """(protocol, controller, wire) on a fresh folder."""
    import fakes  # here: the controller and its fakes cost heap that test_link_text lacks

    ctl, rec = fakes.make(seed=seed)
    wire = Wire()
    proto = Protocol(ctl, INFO, wire, 0)
    ctl.emit = proto.event
    return proto, ctl, wire


def ask(proto, wire, line, now=0):
    """Feeds one line; returns (replies, events)."""
    proto.feed(line, now)
    objs = wire.take()
    return [o for o in objs if "event" not in o], [o for o in objs if "event" in o]


def one(proto, wire, line, now=0):
    """Feeds one line that must get exactly one reply; returns it."""
    replies, _ = ask(proto, wire, line, now)
    assert len(replies) == 1, replies
    return replies[0]


def snap(ctl):
    """Everything a request could change: the game and the settings."""
    return ctl.game.to_json() + ctl.settings.to_json()
