"""`ledgammon deploy`: compile the firmware with mpy-cross and copy it to a board with mpremote.

Precompiled .mpy files load faster and need far less heap on the board than source compiled
there. main.py stays source (MicroPython only runs main.py), sim_*.py and manifest.py
(the simulator's, the image build's) are not shipped, and a stale X.py on the board beside
a new X.mpy would shadow it (.py is found first), so those are removed before copying. The
sources are the package's own copy of the firmware and kernels (resources.py), so an
installed tool deploys the firmware it was built with. Data files the firmware reads (DATA:
the board's own player's network, the one WEIGHTS gives that board, as weights.bin) are
copied as they are, to the board's root beside the code. mpremote interrupts the running
game with "\\r\\x03", which the firmware's serial task takes as the request for the REPL
(docs/protocol.md). Every mpremote call says `resume`: no soft reset, because a soft reset
stops the timer that feeds the watchdog while the REPL is up (main.py) and the board would
restart in the middle of the copy.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable

from . import resources
from .errors import DeployError

# mpy-cross -march per board module (hardware/board.json's mpy_arch; tests check they agree)
ARCH = {"pico": "armv6m", "pico2": "armv7emsp", "esp32s3": "xtensawin"}
SOURCE_ONLY = ("main.py", "boot.py")  # run as source by MicroPython itself
HOST_PREFIX = "sim_"  # sim_main.py, sim_timing.py: the simulator's own modules, host only
BUILD_ONLY = ("manifest.py",)  # read by MicroPython's image build (freezing), never the board
DATA = (".bin",)  # copied unchanged: the weights of the board's own player (autoplay.py)
# The board's player's network per board (hardware/board.json's `weights`; tests check they
# agree), installed as weights.bin, the only name the firmware reads: the Pico gets the
# 40-unit network its heap is measured with; boards with room the 64-unit one, which plays
# better for 5 KB more heap and about 1.3 times the thinking (docs/opponent.md). With the
# frozen image every board has room for it (FROZEN_WEIGHTS).
WEIGHTS = {"pico": "weights.bin", "pico2": "weights-64.bin", "esp32s3": "weights-64.bin"}
INSTALLED_WEIGHTS = "weights.bin"
# The bear-off table (gammon/endgame.py reads it by seek, or frozen into the image): generated,
# not in git (host/ledgammon/train/bearoff_table.py), cached beside the build folders.
TABLE = "bearoff.bin"


def table_file(build: str) -> str:
    """The bear-off table in `build` (the folder above a board's files), made there first
    when missing or of an older format (a few seconds; numpy)."""
    try:
        from .train.bearoff_table import ensure
    except ImportError as exc:  # numpy
        raise DeployError("the bear-off table is made with numpy, which is not installed "
                          "(pip install ledgammon[deploy]): %s" % exc) from None
    return ensure(os.path.join(build, TABLE))
# No line-number tables in the .mpy: a board loads its code into RAM, where they took about
# 3% of the heap (5 KB of the firmware's 173 KB on the unix port). Tracebacks still name
# the file and the function (every line reads as 1); the board's error events carry only
# the exception's repr anyway.
MPY_OPTIONS = ("-X", "no-source-lines")


def source_name(rel: str) -> str:
    """The name a compiled module's tracebacks give as its file: its dotted module name
    ("control/report.py" -> "control.report", "control/__init__.py" -> "control"). Every
    name in a .mpy becomes a qstr when the board loads it, and the module's name is one
    already, where its path would be one more a module: ~80 with a match's modules, about
    3 KB of heap, and the count that decides when MicroPython allocates its next qstr pool
    (1,280 entries at once, ~14 KB on the unix port, ~9 KB on an RP2040)."""
    name = rel[:-3] if rel.endswith(".py") else rel
    if name.endswith("/__init__"):
        name = name[: -len("/__init__")]
    return name.replace("/", ".")


def _tool(name: str) -> str:
    """A tool of the venv (next to this Python), else from PATH."""
    here = os.path.join(os.path.dirname(sys.executable), name)
    if os.access(here, os.X_OK):
        return here
    found = shutil.which(name)
    if not found:
        raise DeployError("%s is not installed (pip install %s)" % (name, name))
    return found


def sources(firmware: str | None = None) -> list[str]:
    """Firmware files to ship, relative to `firmware` (the package's), in a stable order."""
    firmware = firmware or resources.firmware()
    out = []
    for folder, dirs, files in os.walk(firmware):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__")))
        for f in sorted(files):
            rel = os.path.relpath(os.path.join(folder, f), firmware)
            host_only = folder == firmware and (f.startswith(HOST_PREFIX) or f in BUILD_ONLY)
            if (f.endswith(".py") and not host_only) or f.endswith(DATA):
                out.append(rel)
    return out


def compile_firmware(
    build: str,
    board: str = "pico",
    firmware: str | None = None,
    mpy_cross: str | None = None,
    native: str | None = None,
    table: str | None = None,
) -> list[str]:
    """Compiles (or copies) every firmware file, and native/'s viper code for the board's
    CPU, into `build` (one root, as on the board), with the bear-off table (`table`, by
    default table_file() of the folder above `build`); returns the files made there."""
    if board not in ARCH:
        raise DeployError("unknown board %r (one of %s)" % (board, ", ".join(sorted(ARCH))))
    firmware = firmware or resources.firmware()
    native = native or resources.native()
    if not os.path.isfile(os.path.join(firmware, "main.py")):
        raise DeployError("no firmware in %s (main.py is missing)" % firmware)
    if not os.path.isfile(os.path.join(firmware, WEIGHTS[board])):
        raise DeployError("no weights for a %s in %s (%s is missing)" % (board, firmware,
                                                                       WEIGHTS[board]))
    tool = mpy_cross or _tool("mpy-cross")
    if os.path.isdir(build):
        shutil.rmtree(build)
    made = []
    for root, rel in [(firmware, r) for r in sources(firmware)] + [
        (native, r) for r in sources(native)
    ]:
        src = os.path.join(root, rel)
        copy = rel in SOURCE_ONLY or rel.endswith(DATA)
        out = rel if copy else rel[:-3] + ".mpy"
        if rel in WEIGHTS.values():  # one network, the board's, under the name it reads
            if rel != WEIGHTS[board]:
                continue
            out = INSTALLED_WEIGHTS
        dest = os.path.join(build, out)
        os.makedirs(os.path.dirname(dest) or build, exist_ok=True)
        if copy:
            shutil.copyfile(src, dest)
        else:
            cmd = [tool, "-march=" + ARCH[board], *MPY_OPTIONS, "-s", source_name(rel)]
            cmd += ["-o", dest, src]
            proc = subprocess.run(cmd, capture_output=True, text=True)
            if proc.returncode != 0:
                raise DeployError("mpy-cross failed on %s: %s" % (rel, proc.stderr.strip()))
        made.append(out)
    shutil.copyfile(table or table_file(os.path.dirname(os.path.abspath(build))),
                    os.path.join(build, TABLE))
    made.append(TABLE)
    return made


# Modules of the flat layout before the firmware moved into packages (2026-12): left on a
# board, `link.mpy` or `boards/` would shadow or sit beside the packages of the same name;
# and modules that moved since (display/fill: control/present since issue 29).
FORMER = (
    "autoplay buttons controller dice_entry fill game glyphs hardware_setup inputs lines "
    "link menu output palette power protocol remote renderer report resume selftest settings "
    "storage ticks view gammon/compat boards/__init__ boards/pico boards/esp32s3 display/fill"
).split()


def _cleanup_code(made: list[str]) -> str:
    """MicroPython code removing the .py twins of the .mpy files about to be copied, and the
    modules of the former flat layout."""
    stale = [m[:-4] + ".py" for m in made if m.endswith(".mpy")]
    stale += [n + ext for n in FORMER for ext in (".py", ".mpy")]
    stale.append(TABLE)  # the old table's room counts when the new one is sized
    return (
        "import os\n"
        "for f in %r:\n"
        "    try:\n"
        "        os.remove(f)\n"
        "    except OSError:\n"
        "        pass\n" % (stale,)
    )


# The bear-off table goes last, sized to the room the code leaves: on a stock Pico the
# filesystem (1,408 KB) holds the code's ~110 files in whole 4 KB blocks and not the whole
# table of 15 checkers (1,029 KB) beside them (make chip found "No space left on device").
# A table of fewer checkers is the same table's start (gammon/bearoff.py): its boards
# are played by it, the others by the network. RESERVE_BLOCKS stay free for the saves
# (written beside the old one, then renamed) and littlefs's own copies.
ROOM_CODE = "import os\ns = os.statvfs('/')\nprint('room', s[0], s[3])\n"
RESERVE_BLOCKS = 24


def commands(
    port: str, build: str, made: list[str], mpremote: str = "mpremote"
) -> list[list[str]]:
    """The mpremote command lines that install `made` (files in `build`) on the board.

    Run with cwd=build: the code's top-level names are copied to the board's root (folders
    with -r); the board says its filesystem's room (ROOM_CODE), the bear-off table is copied
    (deploy() first sizes it to that room: fit_table), then the board is reset so the new
    main.py starts.
    """
    top = sorted({m.split(os.sep)[0] for m in made} - {TABLE})
    board = [mpremote, "connect", port, "resume"]
    out = [
        board + ["exec", _cleanup_code(made)],
        board + ["fs", "cp", "-r", *top, ":"],
    ]
    if TABLE in made:
        out += [board + ["exec", ROOM_CODE], board + ["fs", "cp", TABLE, ":"]]
    return out + [board + ["reset"]]


def parse_room(text: str) -> tuple[int, int] | None:
    """(block size, free blocks) from ROOM_CODE's output, None when it printed no such line."""
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == "room" and parts[1].isdigit() and parts[2].isdigit():
            return int(parts[1]), int(parts[2])
    return None


def fit_table(block: int, free: int, size_of: Callable[[int], int]) -> int:
    """The most checkers (15 down to 1) whose table (`size_of(n)` bytes) fits in `free`
    blocks of `block` bytes with RESERVE_BLOCKS to spare, 0 when none does."""
    from .train.bearoff_table import CHECKERS

    for n in range(CHECKERS, 0, -1):
        if -(-size_of(n) // block) + 1 + RESERVE_BLOCKS <= free:
            return n
    return 0


def _sized_table(build: str, answer: str) -> str:
    """Makes BUILD's table the one that fits the room the board said (`answer`, ROOM_CODE's
    output) and says which; returns a line for the user."""
    room = parse_room(answer)
    if room is None:
        raise DeployError("the board did not say its filesystem's room (%r)" % answer[-200:])
    from .train.bearoff_table import CHECKERS, ensure

    parent = os.path.dirname(os.path.abspath(build))

    def table_path(n: int) -> str:
        return os.path.join(parent, TABLE if n == CHECKERS else "bearoff-%d.bin" % n)

    def size_of(n: int) -> int:
        return os.path.getsize(ensure(table_path(n), n))

    n = fit_table(room[0], room[1], size_of)
    dest = os.path.join(build, TABLE)
    if n == 0:
        os.remove(dest)
        return ("the bear-off table does not fit this board's filesystem (%d KB free): the "
                "network plays the bear-offs" % (room[0] * room[1] // 1024))
    shutil.copyfile(table_path(n), dest)
    if n == CHECKERS:
        return "bear-off table: all %d checkers" % n
    return ("bear-off table: up to %d checkers (%d KB; the filesystem's %d KB free hold not "
            "the whole table of %d): the network plays the bear-offs of more"
            % (n, size_of(n) // 1024, room[0] * room[1] // 1024, CHECKERS))


# A board whose MicroPython image has the firmware frozen in (firmware/manifest.py, built as
# hardware/README.md says) runs its code from flash and keeps only data on the heap (65 KB
# at a game's peak on an RP2040, against ~158 KB from .mpy files): every board then has
# room for the 64-unit network, the Pico too. Only main.py (MicroPython runs a main.py
# from the filesystem alone) and the weights stay files.
FROZEN_WEIGHTS = "weights-64.bin"
FROZEN_FILES = ("main.py",)
# What `deploy` without --frozen leaves on the filesystem: files come before .frozen on
# sys.path, so these would shadow the frozen modules.
DEPLOYED = ("gammon", "hw", "model", "control", "display", "link", "kernels", "app.mpy",
            "app.py")
FROZEN_PROBE = "kernels.compat"  # a light module of the frozen firmware (native/kernels)


def stage_frozen(build: str, firmware: str | None = None, table: str | None = None) -> list[str]:
    """main.py, the 64-unit network (as weights.bin) and the bear-off table (`table`, else
    table_file() of the folder above `build`) into `build`: the files a board with the frozen
    image keeps beside it; returns them. (An image that holds the table frozen reads that
    and never the file: docs/opponent.md.)"""
    firmware = firmware or resources.firmware()
    if not os.path.isfile(os.path.join(firmware, FROZEN_WEIGHTS)):
        raise DeployError("no weights in %s (%s is missing)" % (firmware, FROZEN_WEIGHTS))
    if os.path.isdir(build):
        shutil.rmtree(build)
    os.makedirs(build)
    for name in FROZEN_FILES:
        shutil.copyfile(os.path.join(firmware, name), os.path.join(build, name))
    shutil.copyfile(os.path.join(firmware, FROZEN_WEIGHTS), os.path.join(build,
                                                                         INSTALLED_WEIGHTS))
    shutil.copyfile(table or table_file(os.path.dirname(os.path.abspath(build))),
                    os.path.join(build, TABLE))
    return [*FROZEN_FILES, INSTALLED_WEIGHTS, TABLE]


def frozen_code(frozen: str = ".frozen") -> str:
    """MicroPython code for a board with the frozen image: it checks that the image really
    holds the firmware (FROZEN_PROBE found on `frozen` alone, the path MicroPython gives its
    frozen modules), else raises and removes nothing; then it removes what an earlier
    deploy left (DEPLOYED, and the former flat layout's modules). The saved game and the
    settings are files of their own and stay."""
    stale = list(DEPLOYED) + [n + ext for n in FORMER for ext in (".py", ".mpy")]
    return (
        "import os, sys\n"
        "for n in %r:\n"
        "    sys.modules.pop(n, None)\n"
        "p = sys.path[:]\n"
        "sys.path[:] = [%r]\n"
        "try:\n"
        "    __import__(%r)\n"
        "except ImportError:\n"
        "    raise OSError('no ledgammon firmware frozen in this MicroPython image')\n"
        "finally:\n"
        "    sys.path[:] = p\n"
        "def rm(f):\n"
        "    try:\n"
        "        mode = os.stat(f)[0]\n"
        "    except OSError:\n"
        "        return\n"
        "    if mode & 0x4000:\n"
        "        for n in os.listdir(f):\n"
        "            rm(f + '/' + n)\n"
        "        os.rmdir(f)\n"
        "    else:\n"
        "        os.remove(f)\n"
        "for f in %r:\n"
        "    rm(f)\n"
        % ([FROZEN_PROBE, FROZEN_PROBE.split(".")[0]], frozen, FROZEN_PROBE, stale)
    )


def frozen_commands(
    port: str, made: list[str], mpremote: str = "mpremote"
) -> list[list[str]]:
    """The mpremote command lines for a board with the frozen image (run with cwd=build):
    the check and the removal (frozen_code), the copy of `made`, the reset."""
    board = [mpremote, "connect", port, "resume"]
    return [
        board + ["exec", frozen_code()],
        board + ["fs", "cp", *made, ":"],
        board + ["reset"],
    ]


def deploy(
    port: str, board: str = "pico", build: str = "build", dry_run: bool = False,
    frozen: bool = False, mpremote: str | None = None,
) -> None:
    """Compiles into BUILD/firmware-BOARD and installs it on the board on `port`; `frozen`:
    the board's image holds the firmware, so only main.py and the weights are installed.
    `mpremote`: the tool to run (by default the venv's, else PATH's)."""
    if frozen:
        out = os.path.join(build, "frozen-" + board)
        made = stage_frozen(out)
        print("%s into %s for the frozen image" % (", ".join(made), out))
    else:
        out = os.path.join(build, "firmware-" + board)
        made = compile_firmware(out, board)
        print("compiled %d files into %s" % (len(made), out))
    tool = mpremote or ("mpremote" if dry_run else _tool("mpremote"))
    cmds = frozen_commands(port, made, tool) if frozen else commands(port, out, made, tool)
    for i, cmd in enumerate(cmds):
        room = cmd[-1] == ROOM_CODE
        shown = " ".join(a if "\n" not in a else ("'<room>'" if room else "'<cleanup>'")
                         for a in cmd)
        print("$ (cd %s && %s)" % (out, shown))
        if dry_run:
            continue
        if cmd[-3:] == ["cp", TABLE, ":"] and not os.path.exists(os.path.join(out, TABLE)):
            continue  # the table's own copy (commands()), and no table fits: nothing to copy
        if room:
            said = subprocess.run(cmd, cwd=out, capture_output=True, text=True)
            if said.returncode == 0:
                print(_sized_table(out, said.stdout))
                continue
            returncode = said.returncode
        else:
            returncode = subprocess.run(cmd, cwd=out).returncode
        if returncode != 0 and frozen and i == 0:
            raise DeployError(
                "the board on %s has no ledgammon firmware frozen into its MicroPython (or "
                "did not answer): flash the image built with firmware/manifest.py first "
                "(hardware/README.md), or deploy without --frozen; nothing was removed" % port
            )
        if returncode != 0:
            raise DeployError(
                "mpremote failed (exit code %d): is the board on %s and not in use by another "
                "program?" % (returncode, port)
            )
