"""Where the board's own files are at run time: the firmware, its viper kernels, board.json.

A wheel carries them as package data in `ledgammon/_board/` (pyproject.toml maps the
checkout's firmware/, native/ and hardware/board.json there), so an installed tool never
reads a source tree. An editable install has no such copy: there the package lives in the
checkout's host/ledgammon/, and the files are the checkout's own, two folders up. Both
layouts give the same three paths, so callers never know which one they run from.
$LEDGAMMON_ROOT (a checkout) overrides both, to try a changed firmware with an installed tool.
"""

from __future__ import annotations

import os

PACKAGE = os.path.dirname(os.path.abspath(__file__))
BUNDLED = os.path.join(PACKAGE, "_board")  # a wheel's copy: firmware/, native/, hardware/
CHECKOUT = os.path.normpath(os.path.join(PACKAGE, "..", ".."))  # an editable install's tree
MARK = os.path.join("firmware", "sim_main.py")  # a root holds the firmware when this is there


def root() -> str:
    """The folder holding firmware/, native/ and hardware/ (see the module's docstring).

    Never raises: with neither layout present the checkout's path is returned, and the
    first use of a file in it fails with that path in the message."""
    env = os.environ.get("LEDGAMMON_ROOT")
    if env:
        return os.path.abspath(env)
    for top in (BUNDLED, CHECKOUT):
        if os.path.isfile(os.path.join(top, MARK)):
            return top
    return CHECKOUT


def installed() -> bool:
    """True when the files come from the package itself (a wheel), not from a checkout."""
    return root() == BUNDLED


def firmware() -> str:
    """firmware/: main.py, sim_main.py, app.py, weights.bin and the firmware packages."""
    return os.path.join(root(), "firmware")


def native() -> str:
    """native/: the `kernels` package of viper code, compiled per CPU beside firmware/."""
    return os.path.join(root(), "native")


def board_json() -> str:
    """hardware/board.json: the physical layout (LED places in mm) of every board."""
    return os.path.join(root(), "hardware", "board.json")


def board_module(name: str) -> str:
    """The generated board module firmware/hw/boards/NAME.py (`name` must be a plain name)."""
    if not name or not name.replace("_", "").isalnum():
        raise ValueError("not a board name: %r" % name)
    return os.path.join(firmware(), "hw", "boards", name + ".py")
