# The protocol's written lines taken back as JSON, with no controller behind it (light: the
# link's text tests load it in the board's small heap; wire.py adds the controller).
import json

from kernels.textcheck import bad_at

INFO = {"board": "pico", "layout": "full", "leds": 440, "order": "GRB"}


class Wire:
    """What the protocol wrote, as lines."""

    def __init__(self):
        self.chunks = []

    def __call__(self, b):
        self.chunks.append(bytes(b))

    def take(self):
        """The JSON objects written since the last take: each line must be valid UTF-8 (the
        strict check of the firmware's own textcheck, on either interpreter) and parse."""
        text = b"".join(self.chunks)
        self.chunks = []
        assert not text or text.endswith(b"\n"), text
        out = []
        for line in text.split(b"\n")[:-1]:
            assert bad_at(line, 0, len(line)) < 0, line
            out.append(json.loads(line.decode("utf-8")))
        return out


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
