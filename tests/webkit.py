"""Helpers of the web page's tests: `ledgammon web` started, Debian's Chromium driven by
Playwright (its Python package, launched on /usr/bin/chromium: Playwright's own browser
download is not used), and the page's board pressed by clicks on its canvas.

The browser gets the flags of a quiet, reproducible headless run; Playwright gives each
browser a fresh profile (a new --user-data-dir) of its own.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
LEDGAMMON = os.path.join(os.path.dirname(sys.executable), "ledgammon")
READY = "body[data-ready='1']"


def require_browser() -> str:
    if not shutil.which(CHROMIUM):
        pytest.fail("no Chromium at %s: `make browser` installs Debian's (as root)" % CHROMIUM)
    return CHROMIUM


@contextmanager
def web_server(tool: str = LEDGAMMON, cwd: str | None = None,
               env: dict[str, str] | None = None) -> Iterator[str]:
    """`ledgammon web --port 0` running; yields its address (the first line it prints)."""
    proc = subprocess.Popen([tool, "web", "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=cwd, env=env)
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().strip()
        if not url.startswith("http://127.0.0.1:"):
            proc.kill()
            pytest.fail("ledgammon web gave no address: %r %s" % (url, proc.communicate()[1]))
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextmanager
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    path = require_browser()
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=FLAGS)
        try:
            yield b
        finally:
            b.close()


def open_page(b: Any, url: str, errors: list[str] | None = None) -> Any:
    """A new page (its own context: its own storage) at `url`, once the board is up. The
    pages opened before are closed: each runs a firmware, which takes the CPU it gets."""
    for old in b.contexts:
        old.close()
    ctx = b.new_context(viewport={"width": 1400, "height": 1000})
    page = ctx.new_page()
    if errors is not None:
        page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector(READY, timeout=30000)
    return page


# where a button lies on the canvas, in the canvas's own pixels (draw.js's geometry)
CENTRE = """(name) => {
  const c = ledgammon.canvas, g = c.layout.geometry, segs = g.segments, S = 1.6, M = 24;
  const at = (x, y) => [M + x * S, M + y * S];
  if (name.startsWith("p")) {
    const s = segs[name], sign = s.dir === "up" ? -1 : 1;
    return at(s.base[0], s.base[1] + sign * 60);
  }
  if (name === "BAR") return at((g.bar[0] + g.bar[1]) / 2, 150);
  if (name === "OFF") return at((g.tray[0] + g.tray[1]) / 2, 150);
  if (name === "ROLL") return at(...segs.die0.center);
  throw new Error("no place for " + name);
}"""


class Clicker:
    """Mouse clicks on the canvas where a button is (a point, the bar, a tray, the dice)."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.box = page.locator("#board").bounding_box()
        self.size = page.evaluate("[ledgammon.canvas.canvas.width, "
                                  "ledgammon.canvas.canvas.height]")
        self.at: dict[str, tuple[float, float]] = {}

    def __call__(self, button: str) -> None:
        if button not in self.at:
            x, y = self.page.evaluate(CENTRE, button)
            b, (w, h) = self.box, self.size
            self.at[button] = (b["x"] + x * b["width"] / w, b["y"] + y * b["height"] / h)
        self.page.mouse.click(*self.at[button])


def click(page: Any, button: str) -> None:
    Clicker(page)(button)


def state(page: Any) -> dict[str, Any]:
    """The board's state, asked by the page's own client."""
    return page.evaluate("ledgammon.session.client.request('state')")  # type: ignore[no-any-return]


KEY = """() => { const s = ledgammon.session.state || {};
  return JSON.stringify([s.phase, s.turn, s.current_id, s.dice, s.bot, s.steps]); }"""


def shown(page: Any) -> dict[str, Any]:
    """The state the page shows now (its own copy, asked for after every event)."""
    return page.evaluate("ledgammon.session.state")  # type: ignore[no-any-return]


def changed(page: Any, before: str, timeout: float = 60.0) -> str:
    """Waits until the page shows a state other than `before` (a KEY); the new key."""
    page.wait_for_function("b => (%s)() !== b" % KEY, arg=before, timeout=timeout * 1000,
                           polling=20)
    return page.evaluate(KEY)  # type: ignore[no-any-return]
