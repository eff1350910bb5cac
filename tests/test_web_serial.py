"""The web page's Web Serial mode against the simulator (the real firmware on its pty).

Headless Chromium has navigator.serial, but no chooser to answer requestPort() and no serial
device for Playwright: a fake SerialPort is put in the page first (page.add_init_script: its
`readable` and `writable` are Web Streams) and bridged to the simulator's pty by functions
the page calls (context.expose_function). The bridge can also go silent (a board that stops
answering) and put garbage on the line.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import serial
from simkit import start_sim
from webkit import READY, browser, web_server

FAKE_PORT = """(() => {
  class FakePort {
    async open() {
      this.readable = new ReadableStream({
        async pull(ctrl) {
          for (;;) {
            const text = await window.__serialRead();
            if (text.length) {
              ctrl.enqueue(Uint8Array.from(atob(text), (c) => c.charCodeAt(0)));
              return;
            }
            await new Promise((r) => setTimeout(r, 10));
          }
        },
      });
      this.writable = new WritableStream({
        async write(chunk) { await window.__serialWrite(btoa(String.fromCharCode(...chunk))); },
      });
    }
    async close() {}
    getInfo() { return { usbVendorId: 0x2e8a, usbProductId: 5 }; }
  }
  const port = new FakePort();
  Object.defineProperty(navigator, "serial", {
    value: { requestPort: async () => port, getPorts: async () => [port] },
  });
})();"""


class Bridge:
    """The fake port's other end: the simulator's pty, which can go silent or add garbage."""

    def __init__(self, path: str) -> None:
        self.port = serial.serial_for_url(path, timeout=0)
        self.silent = False
        self.garbage = b""
        self.sent: list[bytes] = []  # what the page wrote, silent or not

    def read(self) -> str:
        data = self.port.read(65536)
        if self.silent:
            return ""  # what the board said is lost: it says nothing
        data, self.garbage = self.garbage + data, b""
        return base64.b64encode(data).decode()

    def write(self, b64: str) -> None:
        data = base64.b64decode(b64)
        self.sent.append(data)
        if not self.silent:
            self.port.write(data)

    def requests(self, cmd: str) -> int:
        return sum(b.count(b'"cmd":"%s"' % cmd.encode()) for b in self.sent)


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with web_server() as u:
        yield u


@pytest.fixture()
def board(tmp_path: Path) -> Iterator[Bridge]:
    sim = start_sim(str(tmp_path / "flash"), seed=9)
    try:
        bridge = Bridge(sim.port)
        yield bridge
        bridge.port.close()
    finally:
        sim.stop()


def _page(b: Any, url: str, bridge: Bridge, which: str) -> Any:
    ctx = b.new_context(viewport={"width": 1400, "height": 1000})
    ctx.expose_function("__serialRead", bridge.read)
    ctx.expose_function("__serialWrite", bridge.write)
    ctx.add_init_script(FAKE_PORT)
    page = ctx.new_page()
    page.goto(url + "?fresh=1")
    page.wait_for_selector(READY, timeout=30000)
    page.click(which)
    page.wait_for_function("ledgammon.session && ledgammon.session.info && "
                           "ledgammon.mode !== 'page' && ledgammon.session.state", timeout=15000)
    return page


def _status(page: Any, text: str, timeout: float = 15.0) -> None:
    page.wait_for_function("t => document.getElementById('status').textContent.includes(t)",
                           arg=text, timeout=timeout * 1000)


def test_the_page_plays_a_board_over_web_serial(url: str, board: Bridge) -> None:
    with browser() as b:
        page = _page(b, url, board, "#use-serial")
        assert page.evaluate("ledgammon.session.info.board") == "pico"
        assert page.evaluate("ledgammon.session.pushed") is False  # frames by `leds`
        _status(page, "opening roll: press ROLL")
        page.keyboard.press("r")
        _status(page, "select a checker")
        page.wait_for_function("document.getElementById('message').textContent"
                               ".includes('rolled')")
        frame = page.evaluate("Array.from(ledgammon.session.frame)")
        assert len(frame) == 452 * 3 and max(frame) > 0

        # garbage on the line: skipped, the next lines are read as ever
        skipped = page.evaluate("ledgammon.session.client.skipped")
        board.garbage = b"\x00\xff\xfe garbage {not json\n\xc3\x28\xa0\n[1, 2]\n"
        page.wait_for_function("n => ledgammon.session.client.skipped >= n + 3", arg=skipped)
        page.keyboard.press("u")  # a refused UNDO: its error is said
        page.wait_for_function("document.getElementById('message').textContent"
                               ".includes('UNDO')")

        # a board that stops answering: said, and asked again and again
        board.silent = True
        page.wait_for_function("document.body.classList.contains('silent') && document."
                               "getElementById('message').textContent.includes('not answering')",
                               timeout=15000)
        asked = board.requests("state") + board.requests("leds") + board.requests("hello")
        page.wait_for_timeout(2500)
        assert board.requests("state") + board.requests("leds") + board.requests(
            "hello") > asked  # it keeps trying
        board.silent = False
        page.wait_for_function("!document.body.classList.contains('silent')", timeout=15000)
        _status(page, "select a checker")


def test_watch_mode_shows_the_board_and_presses_nothing(url: str, board: Bridge) -> None:
    with browser() as b:
        page = _page(b, url, board, "#use-watch")
        assert page.inner_text("#help").startswith("watching (read only)")
        _status(page, "opening roll: press ROLL")
        presses = board.requests("press")
        for key in ("r", "u", "m"):
            page.keyboard.press(key)
        page.mouse.click(700, 500)  # on the canvas
        page.wait_for_timeout(500)
        assert board.requests("press") == presses == 0
        assert page.evaluate("ledgammon.session.state.phase") == "opening"
