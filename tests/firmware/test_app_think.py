# app.py's render task while the board thinks: its slices follow each other without waiting
# out a frame's rest (a choice in slices would otherwise take a frame each), the loop
# released between them (a press still comes in) and a frame drawn only when one is due;
# it waits out the frame otherwise.
import asyncio

import fakes
from app import App
from control.boot import boot
from display.renderer import Renderer
from gammon.dice import Dice, SeededBytes
from hw.boards import pico
from hw.inputs import DirectKeys
from hw.output import FakeStrip
from hw.storage import Store
from model.game import MOVE

LONG_FRAME = 60000  # a frame's wait longer than the test: a frame waited out is a stall


class Clock:
    """A clock that moves a millisecond at every reading."""

    def __init__(self, t=1000):
        self.t = t

    def __call__(self):
        self.t += 1
        return self.t


class CountingApp(App):
    """The App, counting its frames' ticks and draws."""

    ticks = 0
    draws = 0

    def tick(self, now_ms):
        self.ticks += 1
        return App.tick(self, now_ms)

    def render(self, now_ms):
        self.draws += 1
        return App.render(self, now_ms)


def _thinking_board(seed):
    """A controller whose board side has started thinking out its play, and the time."""
    root = fakes.tmpdir()
    ctl = boot(Store(root), Dice(SeededBytes(seed)), "minimal", lambda e: None, 0, pace_ms=1)
    ctl.configure("players", ["board", "board"])
    now = 1000
    while ctl.bot is None or ctl.bot.plan is None:  # the opening, then the first slice
        now += 20
        ctl.tick(now)
        assert now < 200000, "the board never started thinking"
    assert ctl.game.phase == MOVE
    return ctl, root, now


def _released():
    return 1  # (active low: no key held)


def _app(ctl, clock):
    return CountingApp(
        pico,
        "minimal",
        ctl,
        Renderer(pico, FakeStrip(pico.LED_COUNT)),
        DirectKeys({n: _released for n in pico.MINIMAL_PINS}),
        clock=clock,
        poll_ms=0,
        frame_ms=LONG_FRAME,
        check_ms=0,
    )


def _run_until(app, done, rounds):
    """Runs app.main() until done() or `rounds` scheduler rounds; the rounds it took."""

    async def scenario():
        main = asyncio.create_task(app.main())
        n = 0
        while n < rounds and not done():
            await asyncio.sleep(0)
            n += 1
        app.stop()
        await main
        return n

    return asyncio.run(scenario())


def test_the_board_thinks_in_frames_back_to_back():
    ctl, root, now = _thinking_board(3)
    try:
        bot = ctl.bot
        app = _app(ctl, Clock(now))
        rounds = _run_until(app, lambda: bot.plan is None, 5000)
        assert bot.plan is None and bot.hops, "the choice was not thought out"
        assert app.ticks > 2  # several slices, one a frame, none waited for
        assert rounds < 5000
        # no frame was due after the first (LONG_FRAME): the slices were not drawn each
        assert app.draws <= 2, (app.draws, app.ticks)
        # once chosen, the board waits its pace and the frames their time again
        ticks = app.ticks
        _run_until(app, lambda: False, 200)
        assert app.ticks <= ticks + 1
    finally:
        fakes.rmtree(root)


def test_while_the_board_thinks_a_frame_is_drawn_whenever_one_is_due():
    """Slices back to back, but the LEDs still move at the frame rate meanwhile: with a
    frame due every 5 ms (the clock moves 1 ms a reading), a draw every few slices."""
    ctl, root, now = _thinking_board(3)
    try:
        bot = ctl.bot
        app = _app(ctl, Clock(now))
        app.frame_ms = 5
        _run_until(app, lambda: bot.plan is None, 5000)
        assert bot.plan is None and bot.hops, "the choice was not thought out"
        assert app.ticks > 6, app.ticks
        assert 2 <= app.draws < app.ticks, (app.draws, app.ticks)
    finally:
        fakes.rmtree(root)


def test_a_frame_without_thinking_waits_out_its_time():
    root = fakes.tmpdir()
    try:
        ctl = boot(Store(root), Dice(SeededBytes(3)), "minimal", lambda e: None, 0)
        app = _app(ctl, Clock())  # two people: nothing to think
        _run_until(app, lambda: False, 500)
        assert app.ticks == 1
    finally:
        fakes.rmtree(root)
