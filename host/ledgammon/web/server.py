"""`ledgammon web [--host H] [--port N] [--open]`: serves the board's web page.

Everything comes from this package: the page's static files (static/), MicroPython's
WebAssembly port (static/vendor/, copied from the npm registry's package when the wheel is
built: `make web`), and /bundle.json, the firmware made from the package's own copy of it
(bundle.py) once, when the server starts. Nothing is fetched from anywhere else, at run time
or by the page. The address is the first line printed; Ctrl-C stops the server.
"""

from __future__ import annotations

import argparse
import http.server
import mimetypes
import os
import sys
import threading
import webbrowser
from collections.abc import Callable
from urllib.parse import parse_qs, urlsplit

from ..errors import LedgammonError
from . import bundle

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
VENDOR_FILES = ("micropython.mjs", "micropython.wasm")
TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
         ".json": "application/json", ".html": "text/html; charset=utf-8",
         ".css": "text/css", ".png": "image/png"}
# The strong level's look-ahead budget in the page: evaluations a choice may spend (the
# board's own: 2,400, gammon/opponent.py). Its kernels as plain bytecode in headless
# Chromium take ~0.56 ms an evaluation (bench/web/web_bench.py --budget board: 953 ms a move for
# 1,695 evaluations, quiet machine), so a look-ahead (~550 evaluations a candidate, two
# candidates at least to change a choice) would pass the page's 0.5 s: by default it is
# dropped and the 0-ply ranking decides (docs/opponent.md: a look-ahead that would pass the
# budget is dropped), a strong move in ~15 ms. `--budget board` gives the board's own.
WEB_BUDGET = 1


class WebError(LedgammonError):
    """The page cannot be served: its MicroPython is missing (exit 6, as a simulator that
    cannot start)."""

    exit_code = 6


class AddressError(LedgammonError):
    """The address cannot be listened on (in use, not this machine's)."""

    exit_code = 2


def missing_vendor() -> list[str]:
    """The WebAssembly port's files the package lacks (a checkout before `make web`)."""
    return [n for n in VENDOR_FILES if not os.path.isfile(os.path.join(STATIC, "vendor", n))]


class Site:
    """What the server answers: static files, and the bundles made on first request."""

    def __init__(self, budget: int | None = WEB_BUDGET) -> None:
        self.budget = budget
        self._bundles: dict[int | None, bytes] = {}
        self._lock = threading.Lock()

    def bundle(self, budget: int | None) -> bytes:
        with self._lock:
            if budget not in self._bundles:
                self._bundles[budget] = bundle.bundle(budget)
            return self._bundles[budget]

    def get(self, path: str, query: dict[str, list[str]]) -> tuple[int, str, bytes]:
        """(status, content type, body) for a GET of `path`."""
        if path == "/bundle.json":
            budget: int | None = self.budget
            if "budget" in query:
                try:
                    budget = budget_arg(query["budget"][0])
                except argparse.ArgumentTypeError as exc:
                    return 400, "text/plain", ("budget: %s\n" % exc).encode()
            return 200, TYPES[".json"], self.bundle(budget)
        if path in ("", "/"):
            path = "/index.html"
        rel = os.path.normpath(path.lstrip("/"))
        if rel.startswith("..") or os.path.isabs(rel):
            return 404, "text/plain", b"not found\n"
        full = os.path.join(STATIC, rel)
        if not os.path.isfile(full):
            return 404, "text/plain", b"not found\n"
        with open(full, "rb") as f:
            body = f.read()
        ext = os.path.splitext(full)[1]
        kind = TYPES.get(ext) or mimetypes.guess_type(full)[0] or "application/octet-stream"
        return 200, kind, body


def handler(site: Site) -> type[http.server.BaseHTTPRequestHandler]:
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            url = urlsplit(self.path)
            status, kind, body = site.get(url.path, parse_qs(url.query))
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            pass  # quiet: the terminal shows the address only

    return Handler


def make_server(host: str, port: int, site: Site | None = None) -> http.server.HTTPServer:
    try:
        server = http.server.ThreadingHTTPServer((host, port), handler(site or Site()))
    except OSError as exc:
        raise AddressError("cannot serve on %s:%d: %s" % (host, port, exc.strerror)) from None
    server.daemon_threads = True
    return server


def address(server: http.server.HTTPServer) -> str:
    host, port = server.server_address[:2]
    name = host.decode() if isinstance(host, bytes) else str(host)
    shown = "[%s]" % name if ":" in name else name
    return "http://%s:%d/" % (shown, port)


def budget_arg(text: str) -> int | None:
    """--budget's value: 1-100000 evaluations, or "board" (None: the board's own)."""
    if text == "board":
        return None
    if text.isdigit() and 1 <= int(text) <= 100000:
        return int(text)
    raise argparse.ArgumentTypeError("a number of evaluations 1-100000, or board")


def cmd_web(args: argparse.Namespace, opener: Callable[[str], object] = webbrowser.open) -> int:
    gone = missing_vendor()
    if gone:
        raise WebError("the page's MicroPython (%s) is missing from %s: run `make web` in the "
                       "checkout" % (", ".join(gone), os.path.join(STATIC, "vendor")))
    site = Site(args.budget)
    site.bundle(site.budget)  # the firmware is read now: a broken copy fails before serving
    server = make_server(args.host, args.port, site)
    url = address(server)
    print(url, flush=True)
    print("the board's page on %s (Ctrl-C stops the server)" % url, file=sys.stderr)
    if args.open:
        opener(url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        return 0
    finally:
        server.server_close()
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("web", help="serve the board's web page", description="serve the "
                       "board's web page: the firmware running in the page, or a board on USB "
                       "over Web Serial; prints its address on the first line")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="TCP port (0: any free port)")
    p.add_argument("--open", action="store_true", help="open the page in a browser")
    p.add_argument("--budget", type=budget_arg, default=WEB_BUDGET, metavar="N|board",
                   help="evaluations the strong level's look-ahead may spend a move in the "
                   "page (default %d: none, the 0-ply ranking decides; board: the board's "
                   "own 2,400, seconds a move in a browser)" % WEB_BUDGET)
    p.set_defaults(func=cmd_web)
