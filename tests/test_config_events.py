"""A `config` of several settings loses none of its events while the host reads (issue 28, 2).

The issue's own request, which answered `ok`, then sent 5 of its 7 `config` events and a
`dropped` event, every time: one change is one `config` event now, and a request's events
take its reply's room in the writer, so a host that reads loses none of them however many a
request causes. Read at the board's serial speed: through the Outbox and a port that takes
one USB CDC packet (64 bytes) a write, the serial task's steps interleaved with the reads
(in this process), and end to end from the simulator at the Pico's timing
(`--board-timing pico`: its USB CDC stand-in) on MicroPython.
"""

from __future__ import annotations

import json

from control.boot import boot
from gammon.dice import Dice, SeededBytes
from hw.storage import Store
from link.outbox import PIECE, Outbox
from link.protocol import Protocol
from model.settings import Settings
from mpytools import MICROPYTHON, require
from simkit import connect, start_sim

ISSUE = {"brightness": 10, "palette": 1, "level": "easy", "jacoby": False, "cube": True,
         "match_length": 5, "autoplay": False}
INFO = {"board": "pico", "layout": "full", "leds": 440, "order": "GRB"}


class Cdc:
    """A host reading the board's USB serial port as fast as it goes: one packet a write."""

    def __init__(self) -> None:
        self.fifo = bytearray()

    def ready(self) -> bool:
        return True

    def write(self, mv: memoryview) -> int:
        n = min(len(mv), PIECE)
        self.fifo += bytes(mv[:n])
        return n

    def lines(self) -> list[dict]:
        text = bytes(self.fifo)
        assert text.endswith(b"\n")
        self.fifo = bytearray()
        return [json.loads(line) for line in text.split(b"\n")[:-1]]


def _serve(proto: Protocol, box: Outbox, line: bytes) -> None:
    """The serial task: the line read, answered, then written out a piece a step."""
    k = proto.feed(line, 100)
    assert k == len(line)
    for _ in range(10000):
        if not box.pending():
            return
        box.send()
    raise AssertionError("the writer did not drain")


def test_the_issues_config_sends_one_event_with_every_setting(tmp_path):
    port = Cdc()
    box = Outbox(port)
    ctl = boot(Store(str(tmp_path)), Dice(SeededBytes(1)), "full", None, 0)
    proto = Protocol(ctl, INFO, box, 0)
    ctl.emit = proto.event
    line = (json.dumps({"cmd": "config", "id": 1, "set": ISSUE}) + "\n").encode()
    _serve(proto, box, line)
    got = port.lines()
    events = [o for o in got if "event" in o]
    assert [o.get("id") for o in got if "event" not in o] == [1]
    assert [e["event"] for e in events] == ["config"], events
    for key, value in ISSUE.items():
        assert events[0]["settings"][key] == value, key
    assert got[-1]["settings"] == events[0]["settings"] and box.lost_total == 0
    # saved once, all of it: the next boot has every setting
    again = boot(Store(str(tmp_path)), Dice(SeededBytes(1)), "full", None, 0)
    assert again.settings.as_dict() == events[0]["settings"]
    # a change with one bad value changes nothing and says nothing
    bad = dict(ISSUE, brightness=20, palette=9)
    _serve(proto, box, (json.dumps({"cmd": "config", "id": 2, "set": bad}) + "\n").encode())
    (reply,) = port.lines()
    assert reply["error"]["code"] == "bad_args" and "palette" in reply["error"]["message"]
    assert ctl.settings.brightness == 10


class Chatty:
    """A controller whose `config` causes many events (more than the events' half of the
    ring): what a request with that many must still deliver to a host that reads."""

    def __init__(self, count: int) -> None:
        self.settings = Settings()
        self.count = count
        self.emit = None

    class store:  # noqa: N801 (a stand-in for hw.storage.Store)
        @staticmethod
        def save_settings(text: str) -> None:
            pass

    def config(self, changes: dict, now_ms: int) -> tuple:
        """Controller.config's path: the change made and announced (control/configure.py),
        then what follows from it."""
        from control.configure import configure_all

        ok, out = configure_all(self, [(key, changes[key]) for key in changes])
        if ok:
            self.settings_changed(now_ms)
        return ok, out

    def settings_changed(self, now_ms: int) -> None:
        for i in range(self.count):
            self.emit({"event": "config", "n": i, "settings": self.settings.as_dict()})


def test_a_requests_many_events_take_its_replys_room():
    port = Cdc()
    box = Outbox(port)
    ctl = Chatty(5)  # 6 events of ~230 bytes: 1.4 KB, more than the events' 1 KB
    proto = Protocol(ctl, INFO, box, 0)
    ctl.emit = proto.event
    _serve(proto, box, b'{"cmd":"config","id":3,"set":{"palette":2}}\n')
    got = port.lines()
    assert [o["event"] for o in got[:-1]] == ["config"] * 6 and got[-1]["id"] == 3
    assert box.lost_total == 0
    # the board's own events (its player, its buttons) still leave the replies their room
    for i in range(20):
        proto.event({"event": "config", "n": i, "settings": ctl.settings.as_dict()})
    assert box.lost_events > 0 and box.used <= box.size // 2


def test_the_issues_config_from_the_simulator_at_pico_speed(tmp_path):
    require(MICROPYTHON)
    sim = start_sim(str(tmp_path / "flash"), board_timing="pico")
    try:
        with connect(sim.port, timeout=20) as client:
            client.poll_events(0.5)  # the boot's own events
            reply = client.request("config", set=ISSUE)
            assert reply["ok"], reply
            events = client.poll_events(1.0)
            assert [e["event"] for e in events] == ["config"], events
            assert all(events[0]["settings"][k] == v for k, v in ISSUE.items())
            assert client.dropped == 0
    finally:
        sim.stop()
