# app.py: the asyncio tasks with fakes (pins, strip, watchdog, clock) and a real Controller.
# Every sleep is 0 ms and the clock is fake: the tasks run in turn, nothing waits.
import asyncio
import sys

import fakes
from app import App, build
from control.boot import boot
from display.renderer import Renderer
from fake_wdt import FakeWdt
from gammon.dice import Dice, SeededBytes
from hw.boards import pico
from hw.inputs import DirectKeys
from hw.output import FakeStrip
from hw.storage import Store
from model.game import OPENING


class Events:
    """Every event the controller and the app emitted."""

    def __init__(self):
        self.events = []

    def __call__(self, event):
        self.events.append(event)

    def of(self, kind, code=None):
        return [e for e in self.events if e["event"] == kind and code in (None, e.get("code"))]

    def check(self):
        assert not self.of("error", "internal"), self.events


class Clock:
    """A clock that moves `step` ms at every reading."""

    def __init__(self, step=1):
        self.t = 1000
        self.step = step

    def __call__(self):
        self.t += self.step
        return self.t


class Pins:
    """The minimal layout's five buttons; level 1 = up (active low)."""

    def __init__(self):
        self.level = {n: 1 for n in pico.MINIMAL_PINS}
        self.broken = False

    def keys(self):
        return DirectKeys({n: self._pin(n) for n in pico.MINIMAL_PINS})

    def _pin(self, name):
        def read():
            if self.broken:
                raise OSError("pin read failed")
            return self.level[name]

        return read


class FailingController:
    """A real controller whose tick() raises once `fail` is set (the render task dies)."""

    def __init__(self, ctl):
        self.ctl = ctl
        self.view = ctl.view
        self.emit = ctl.emit
        self.fail = False
        self.ticks = 0

    def press(self, name, now_ms, frame_first=False):
        self.ctl.press(name, now_ms, frame_first)

    def tick(self, now_ms):
        if self.fail:
            raise RuntimeError("the game loop broke")
        self.ticks += 1
        self.ctl.tick(now_ms)

    def flush(self):
        self.ctl.flush()


def _make(layout="minimal", wdt=None, wrap=None):
    root = fakes.tmpdir()
    rec = Events()
    ctl = boot(Store(root), Dice(SeededBytes(5)), layout, rec, 0)
    if wrap:
        ctl = wrap(ctl)
    strip = FakeStrip(pico.LED_COUNT)
    pins = Pins()
    clock = Clock()
    app = App(
        pico,
        layout,
        ctl,
        Renderer(pico, strip),
        pins.keys(),
        wdt=wdt,
        clock=clock,
        poll_ms=0,
        frame_ms=0,
        check_ms=0,
    )
    return app, ctl, rec, strip, pins, root


def _run(app, rounds, actions=None):
    """Runs app.main() for `rounds` scheduler rounds; actions: {round: callable}."""
    errors = []

    def handler(loop, context):
        errors.append(context.get("exception"))

    async def scenario():
        asyncio.get_event_loop().set_exception_handler(handler)
        main = asyncio.create_task(app.main())
        for i in range(rounds):
            if actions and i in actions:
                actions[i]()
            await asyncio.sleep(0)
        app.stop()
        await main

    asyncio.run(scenario())
    return errors


def _phase(ctl):
    return ctl.game.phase


def test_press_reaches_controller_and_leds():
    wdt = FakeWdt()
    app, ctl, rec, strip, pins, root = _make(wdt=wdt)
    try:
        assert _phase(ctl) == OPENING

        def down():
            pins.level["ROLL"] = 0

        def up():
            pins.level["ROLL"] = 1

        _run(app, 80, {20: down, 40: up})
        assert [e["button"] for e in rec.of("press")] == ["ROLL"]
        assert len(rec.of("roll")) == 1 and _phase(ctl) != OPENING
        assert strip.writes >= 2  # the board at start, then the dice
        assert app.frames > 50 and app.inputs.beats > 50
        assert wdt.feeds > 50 and app.stalls == 0
        assert app.tasks == [] and app.stopped
        rec.check()
    finally:
        fakes.rmtree(root)


def test_a_press_draws_its_frame_first_then_saves():
    app, ctl, rec, strip, pins, root = _make()
    try:
        app.frame(0)
        writes, frames = ctl.store.writes, strip.writes
        app.press("ROLL", 10)  # the opening throw changes the game
        assert _phase(ctl) != OPENING and ctl.saver.unsaved and ctl.store.writes == writes
        app.frame(10)  # the new frame, then the save within the same step
        assert strip.writes == frames + 1 and not ctl.saver.unsaved
        assert ctl.store.writes == writes + 1
    finally:
        fakes.rmtree(root)


def test_chord_reaches_controller_as_menu():
    app, ctl, rec, strip, pins, root = _make()
    try:

        def set_to(level):
            def f():
                pins.level["LEFT"] = level
                pins.level["RIGHT"] = level

            return f

        _run(app, 60, {10: set_to(0), 30: set_to(1)})
        assert [e["button"] for e in rec.of("press")] == ["LEFT", "RIGHT", "MENU"]
        assert ctl.menu_item >= 0  # the menu opened
    finally:
        fakes.rmtree(root)


def test_watchdog_stops_feeding_when_render_task_dies():
    wdt = FakeWdt()
    app, ctl, rec, strip, pins, root = _make(wdt=wdt, wrap=FailingController)
    seen = {}

    def fail():
        seen["feeds"] = wdt.feeds
        ctl.fail = True

    try:
        errors = _run(app, 120, {40: fail})
        assert seen["feeds"] > 20
        assert wdt.feeds <= seen["feeds"] + 2  # a check or two in flight, then no more
        assert app.stalls > 60
        assert app.inputs.beats > 100  # the input task still runs: one dead task is enough
        assert ctl.ticks < 45
        assert len(errors) <= 1
    finally:
        fakes.rmtree(root)


def test_watchdog_stops_feeding_when_input_task_dies():
    wdt = FakeWdt()
    app, ctl, rec, strip, pins, root = _make(wdt=wdt)
    seen = {}

    def fail():
        seen["feeds"] = wdt.feeds
        pins.broken = True

    try:
        _run(app, 120, {40: fail})
        assert seen["feeds"] > 20
        assert wdt.feeds <= seen["feeds"] + 2
        assert app.stalls > 60 and app.frames > 100
    finally:
        fakes.rmtree(root)


def test_watchdog_feeds_on_time():
    """With real periods: a check every check_ms of the clock, fed while both tasks beat."""
    wdt = FakeWdt()
    app, ctl, rec, strip, pins, root = _make(wdt=wdt)
    try:
        app.check_ms = 0
        _run(app, 30)
        assert wdt.feeds >= 25  # the first feed comes at the start
    finally:
        fakes.rmtree(root)


def test_stuck_button_is_reported_and_others_work():
    app, ctl, rec, strip, pins, root = _make()
    app.clock.step = 10  # 10 ms per reading: 5 s pass in a few hundred rounds
    try:

        def stick():
            pins.level["UNDO"] = 0

        def roll(level):
            def f():
                pins.level["ROLL"] = level

            return f

        _run(app, 400, {5: stick, 300: roll(0), 330: roll(1)})
        stuck = rec.of("error", "stuck")
        assert [e["button"] for e in stuck] == ["UNDO"]
        assert [e["button"] for e in rec.of("press")] == ["UNDO", "ROLL"]
    finally:
        fakes.rmtree(root)


def test_selftest_takes_the_leds_and_buttons():
    app, ctl, rec, strip, pins, root = _make()
    try:
        events = []
        app.out = events.append
        app.selftest()

        def press():
            pins.level["SELECT"] = 0

        _run(app, 40, {10: press})
        assert rec.of("press") == []  # the game saw nothing
        assert {"event": "selftest", "button": "SELECT"} in events
        assert events[0] == {"event": "selftest", "step": "colour", "colour": "red"}
        assert strip.rgb(0) == (pico.BRIGHTNESS_LEVELS[0], 0, 0)
        app.end_selftest()
        writes = strip.writes
        app.frame(app.clock())
        assert strip.writes == writes + 1  # the game's frame is back, though unchanged
        assert strip.rgb(0) != (pico.BRIGHTNESS_LEVELS[0], 0, 0)
    finally:
        fakes.rmtree(root)


def test_deinit_blanks_the_leds():
    app, ctl, rec, strip, pins, root = _make()
    try:
        _run(app, 10)
        assert any(strip.frame)
        app.deinit()
        assert not any(strip.buf) and not any(strip.frame)
    finally:
        fakes.rmtree(root)


def test_build_wires_protocol_selftest_and_repl():
    root = fakes.tmpdir()
    wire = []
    lines = [
        b'{"cmd":"press","button":"ROLL","id":1}\n',
        b'{"cmd":"selftest","id":2}\n',
        b'{"cmd":"repl","id":3}\n',
    ]
    strip = FakeStrip(pico.LED_COUNT)
    pins = Pins()
    try:
        app = build(
            pico,
            "minimal",
            pins.keys(),
            strip,
            Store(root),
            Dice(SeededBytes(2)),
            clock=Clock(),
            write=wire.append,
            host=_host(lines),  # stands in for link.serve: a line every few rounds
        )
        asyncio.run(app.main())  # the repl request ends it
        text = b"".join(bytes(w) for w in wire).decode()
        assert '"event":"press"' in text and '"event":"roll"' in text
        assert '"event":"selftest"' in text
        assert '"id":3' in text
        assert app.stopped and app.test is not None
        assert strip.writes >= 2
    finally:
        fakes.rmtree(root)


# hardware_setup.py and main.py on fake `machine` and `neopixel` modules (tests/firmware/fake_hw)
def _fake_hw_dir():
    import os

    for p in sys.path:
        for d in (p + "/fake_hw", p + "/../tests/firmware/fake_hw"):
            try:
                os.stat(d + "/machine.py")
                return d
            except OSError:
                pass
    raise AssertionError("tests/firmware/fake_hw not found from sys.path")


def _on_fake_hw(test):
    d = _fake_hw_dir()
    sys.path.insert(0, d)
    root = fakes.tmpdir()
    try:
        import machine

        del machine.made[:]
        test(root, machine)
    finally:
        sys.path.remove(d)
        for name in ("machine", "neopixel", "rp2", "hw.hardware_setup", "main"):
            sys.modules.pop(name, None)
        fakes.rmtree(root)


def _check_setup(root, machine):
    from hw import hardware_setup
    from hw.inputs import MatrixKeys

    hw = hardware_setup.setup(platform="rp2", root=root)
    assert hw.board.NAME == "pico" and hw.layout == "full"
    pins = [m for m in machine.made if isinstance(m, machine.Pin)]
    rows = [p for p in pins if p.mode == machine.Pin.OUT and p.id != pico.LED_PIN]
    cols = [p for p in pins if p.mode == machine.Pin.IN]
    assert [p.id for p in rows] == list(pico.MATRIX_ROWS) and all(p.level == 1 for p in rows)
    assert [p.id for p in cols] == list(pico.MATRIX_COLS)
    assert all(p.pull == machine.Pin.PULL_UP for p in cols)
    assert isinstance(hw.keys, MatrixKeys) and hw.keys.scan() == 0
    assert hw.strip.count == pico.LED_COUNT and hw.strip.sm.sideset_base.id == pico.LED_PIN
    assert 1 <= Dice(hw.randbytes).die() <= 6 and hw.store.root == root
    wdt = hw.make_wdt()
    assert wdt.timeout == 8000
    timer = hw.keep_fed()
    timer.callback(timer)
    assert wdt.feeds == 1
    with open(root + "/" + hardware_setup.NO_WDT, "w") as f:
        f.write("")
    assert hw.make_wdt() is None
    hw2 = hardware_setup.setup(platform="esp32", root=root)
    assert hw2.board.NAME == "esp32s3" and hw2.layout == "minimal"
    assert hw2.keys.names == ("LEFT", "RIGHT", "SELECT", "ROLL", "UNDO")
    assert [p.id for p in hw2.keys.pins] == [hw2.board.MINIMAL_PINS[n] for n in hw2.keys.names]
    try:
        hardware_setup.setup(platform="linux", root=root)
        raise AssertionError("no board is made for linux")
    except OSError:
        pass


def test_hardware_setup_builds_everything():
    _on_fake_hw(_check_setup)


def _host(requests):
    async def host(app):
        app.inputs.period_ms = 0
        app.frame_ms = 0
        for line in requests:
            for _ in range(3):
                await asyncio.sleep(0)
            app.protocol.feed(line, app.clock())
        while True:
            await asyncio.sleep(0)

    return host


def _check_main(root, machine):
    import main
    from hw import hardware_setup

    hw = hardware_setup.setup("minimal", "rp2", root)
    wire = []
    reqs = [b'{"cmd":"hello"}\n', b'{"cmd":"press","button":"ROLL"}\n', b'{"cmd":"repl"}\n']
    app = main.main(hw, wire.append, _host(reqs))
    text = b"".join(bytes(w) for w in wire).decode()
    assert '"board":"pico"' in text and '"layout":"minimal"' in text
    assert '"event":"roll"' in text and '"selftest"' not in text
    assert app.stopped and app.test is None and app.ctl.game.phase != OPENING
    assert hw.wdt.feeds >= 1 and hw._timer.period == 1000
    assert not any(hw.strip.buf) and hw.strip.writes >= 2  # the game, then dark

    hw = hardware_setup.setup("minimal", "rp2", root)
    select = hw.keys.pins[hw.keys.names.index("SELECT")]
    assert select.id == pico.MINIMAL_PINS["SELECT"]
    select.level = 0  # held at power-on
    wire = []
    app = main.main(hw, wire.append, _host([b'{"cmd":"repl"}\n']))
    text = b"".join(bytes(w) for w in wire).decode()
    assert app.test is not None and '"colour":"red"' in text
    assert '"button":"SELECT"' in text  # the held button is echoed like any press


def test_main_runs_the_game_or_the_selftest():
    _on_fake_hw(_check_main)
