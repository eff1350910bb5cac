# Freezes the firmware into a MicroPython image: `make BOARD=RPI_PICO FROZEN_MANIFEST=<this>`.
#
# Read by MicroPython's own build (tools/makemanifest.py), never run on the board: include(),
# package() and module() are its manifest commands, and relative paths are relative to this
# file. Frozen code runs from flash, so the heap keeps only the program's data (hardware/
# README.md section 5 gives the figures). The port's mpy-cross compiles the native kernels
# for the port's own CPU (RP2040: armv6m, RP2350: armv7emsp, ESP32-S3: xtensawin), so one
# manifest serves every target. Left on the flash filesystem: main.py (MicroPython runs only
# a main.py found there) and weights.bin (data, read at the root); the simulator's modules
# (sim_*.py) are host-only.

include("$(PORT_DIR)/boards/manifest.py")  # noqa: F821 (the port's own: asyncio, neopixel...)

# The packages of firmware/ (every .py in them, board modules included) and app.py
for name in ("gammon", "hw", "model", "control", "display", "link"):
    package(name)  # noqa: F821
module("app.py")  # noqa: F821

# native/'s viper kernels, imported as `kernels` beside the packages, as deployed
package("kernels", base_path="../native")  # noqa: F821

# The bear-off table as a `bytes` constant in flash (gammon/endgame.py reads it in place),
# when it was made first: `python -m ledgammon.train.bearoff_table --module` writes
# build/frozen/bearoff_data.py (0.96 MB; on a Pico the image then passes the filesystem's
# start unless the build shrinks the filesystem: docs/opponent.md). Without it the board
# reads bearoff.bin from its filesystem (`ledgammon deploy --frozen` copies it). Paths are
# relative to this file: MicroPython's build runs a manifest from its own folder.
import os  # noqa: E402

# The same for the board's network (control/loader.py evaluates from it in place: the 64-unit
# network's 13.5 KB stay out of the heap): `make frozen-weights` writes
# build/frozen/weights_data.py; without it the board reads weights.bin from its filesystem,
# as deploy --frozen leaves it.
_here = os.path.dirname(globals().get("__file__", "")) or "."
for _data in ("bearoff_data.py", "weights_data.py"):
    if os.path.isfile(os.path.join(_here, "../build/frozen", _data)):
        module(_data, base_path="../build/frozen")  # noqa: F821
