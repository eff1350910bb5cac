# The protocol and the board's own player: `config` of players and level, `state`'s "bot",
# the `hint` request, the board's steps as events while a person's requests are refused.
import fakes
from control.loader import weights_path
from display.view import target_of
from gammon.opponent import shared
from wire import ask, make, one, snap


def test_config_players_and_level_and_state():
    proto, ctl, wire = make()
    r = one(proto, wire, b'{"cmd":"config","id":1}\n')
    assert r["settings"]["players"] == ["human", "human"] and r["settings"]["level"] == "strong"
    line = b'{"cmd":"config","set":{"players":["human","board"],"level":"easy"},"id":2}\n'
    replies, events = ask(proto, wire, line)
    s = replies[0]["settings"]
    assert replies[0]["ok"] and s["players"] == ["human", "board"] and s["level"] == "easy"
    assert [e["event"] for e in events] == ["config"]  # one change, one event (issue 28)
    assert events[0]["settings"] == s
    before = snap(ctl)
    for bad in (
        b'{"players":["human","robot"]}',
        b'{"players":"board"}',
        b'{"level":"hard"}',
        b'{"level":"easy","palette":9}',
        b'{"players":["board","board"],"level":3}',
    ):
        r = one(proto, wire, b'{"cmd":"config","set":' + bad + b',"id":3}\n')
        assert not r["ok"] and r["error"]["code"] == "bad_args", bad
        assert snap(ctl) == before  # all or nothing
    st = one(proto, wire, b'{"cmd":"state","id":4}\n')
    assert st["settings"]["players"] == ["human", "board"] and st["settings"]["level"] == "easy"
    assert st["bot"] is None  # the opening roll is the person's
    fakes.done(ctl)


def test_hint_request():
    proto, ctl, wire = make()
    r = one(proto, wire, b'{"cmd":"hint","id":1}\n')
    assert not r["ok"] and r["error"]["code"] == "wrong_phase" and r["id"] == 1
    one(proto, wire, b'{"cmd":"roll","dice":[6,5],"id":2}\n')
    g = ctl.game
    play = shared(weights_path()).choose(g.position, g.dice, "strong")
    r = one(proto, wire, b'{"cmd":"hint","id":3}\n')
    assert r["ok"] and r["play"] == str(play) and len(r["steps"]) == 2
    src = dst = 0
    for frm, to, _ in play.steps:
        src |= 1 << target_of(0, frm)
        dst |= 1 << target_of(0, to)
    assert ctl.hint == (src, dst) and (ctl.view.movable, ctl.view.dests) == (src, dst)
    first = r["steps"][0]
    r = one(proto, wire, ('{"cmd":"move","play":"%s","id":4}\n' % first).encode())
    assert r["ok"] and ctl.hint is None  # a change of the game ends the hint
    r = one(proto, wire, b'{"cmd":"hint","id":5}\n')
    assert r["ok"] and r["play"] == str(play) and len(r["steps"]) == 1
    fakes.done(ctl)


def test_the_board_players_steps_are_events_and_requests_wait():
    """Board against board: its throws and steps come as the same events as a person's
    (`ledgammon watch` follows them); a person's requests are refused meanwhile."""
    proto, ctl, wire = make(seed=5)
    ctl.pace_ms = 40
    r = one(proto, wire, b'{"cmd":"config","set":{"players":["board","board"]},"id":1}\n')
    assert r["ok"]
    kinds = {}
    now = 0
    while ctl.game.phase != 4 and now < 2000000:
        now += 20
        ctl.tick(now)
        for ev in wire.take():
            kinds[ev["event"]] = kinds.get(ev["event"], 0) + 1
            assert ev["event"] != "error", ev
        if now % 2000 == 0:
            for line in (
                b'{"cmd":"roll","id":2}\n',
                b'{"cmd":"undo","id":3}\n',
                b'{"cmd":"press","button":"p6","id":4}\n',
                b'{"cmd":"move","play":"6/5","id":5}\n',
                b'{"cmd":"hint","id":6}\n',
            ):
                replies, events = ask(proto, wire, line, now)
                assert not replies[0]["ok"], (line, replies)
                assert replies[0]["error"]["code"] in ("wrong_phase", "illegal")
            st = one(proto, wire, b'{"cmd":"state","id":7}\n', now)
            assert st["bot"] in ("roll", "think", "move") or st["phase"] == "over"
    assert ctl.game.phase == 4
    assert kinds["step"] > 40 and kinds["roll"] > 20 and kinds["over"] == 1
    assert kinds["turn"] >= kinds["roll"] - 1 and "press" not in kinds
    fakes.done(ctl)


class _Port:
    """A host that reads all it is sent (the Outbox's port)."""

    def __init__(self):
        self.data = bytearray()

    def ready(self):
        return True

    def write(self, mv):
        self.data += mv
        return len(mv)


def _replies(port):
    import json

    return [json.loads(t) for t in bytes(port.data).decode().split("\n")[:-1]]


def test_the_hint_request_is_thought_out_a_slice_a_step_of_the_serial_task():
    """With the serial task's Outbox the `hint` reply is thought out one slice a send (and
    one a tick, as HINT held), never in one go; it is the reply the one-go hint gives. A
    press before it is found drops it: the reply says so."""
    from link.outbox import Outbox
    from link.protocol import Protocol
    from wire import INFO

    proto, ctl, wire = make()
    one(proto, wire, b'{"cmd":"roll","dice":[6,5],"id":2}\n')
    port = _Port()
    box = Outbox(port)
    stepped = Protocol(ctl, INFO, box, 0)
    ctl.emit = stepped.event
    stepped.feed(b'{"cmd":"hint","id":3}\n', 0)
    sends = 0
    while not port.data:
        assert box.pending() and not box.room()  # no request is read meanwhile
        assert box.send() or box.thinking  # the serial task comes back at once for more
        sends += 1
        assert sends < 10000
    while box.pending():
        box.send()
    play = shared(weights_path()).choose(ctl.game.position, ctl.game.dice, "strong")
    r = _replies(port)[0]
    assert r == {"ok": True, "play": str(play), "steps": r["steps"], "id": 3}
    assert len(r["steps"]) == 2 and sends > 3  # slices: the choice's, the order's, the light
    assert ctl.hint is not None  # lit
    ctl.press("p24", 10)  # the hint's lights go
    # thought out by the controller's ticks as well: the same reply
    port.data = bytearray()
    stepped.feed(b'{"cmd":"hint","id":4}\n', 20)
    now = 20
    while box.pending():
        now += 20
        ctl.tick(now)
        box.send()
    r4 = _replies(port)
    assert [x for x in r4 if "event" not in x] == [dict(r, id=4)]
    ctl.press("p24", now)  # its lights go again; the checker on 24 is picked up
    port.data = bytearray()
    stepped.feed(b'{"cmd":"hint","id":5}\n', now)
    box.send()
    ctl.press("p24", now + 10)  # a press before it is found: dropped
    while box.pending():
        box.send()
    got = [x for x in _replies(port) if "event" not in x]
    assert got == [{"ok": False, "id": 5, "error": got[0]["error"]}]
    assert got[0]["error"]["code"] == "wrong_phase" and ctl.hint is None
    fakes.done(ctl)
