# Loads the board's player (the opponent and its weights, firmware/weights.bin) when a side
# becomes the board's or a hint is asked for, and drops it again when no side is the board's.
# The weights are read at start-up (reserve(), from app.build), while the heap is whole, and
# kept: a heap cut up by a game can no longer give their 2 KB blocks, and a side may become
# the board's at any time. A board that cannot load its player says so (sides.player).
from kernels.compat import unload as _unload

_weights = None  # the weight file's blocks, read by reserve()
_path = None  # the weight file reserve() was given (the simulator's of another board), or None


def weights_path(f=None):
    """weights.bin at the board's root (where `ledgammon deploy` puts it), which is firmware/
    in the simulator and the tests: the folder above control/ (`f`: this module's file, by
    default its __file__). Frozen into the firmware image, the module's file is none, or a
    name under .frozen, which is no folder: the weights are then at the root too."""
    if f is None:
        f = globals().get("__file__") or ""
    if f.startswith(".frozen"):
        f = ""
    f = f[: f.rfind("/")]  # control/, in the root
    return f[: f.rfind("/") + 1] + "weights.bin"


def reserve(path=None):
    """Reads the weights now (start-up): those frozen into the image (kernels.weights.frozen:
    read in place, in flash), else the file at `path`, by default weights_path(); a `path`
    given is read whatever the image holds. Whether they could be. A missing or broken file,
    or no room, is left for opponent() to report when the board is to play."""
    global _weights, _path
    if path is not None:
        _path = path
    if _weights is None:
        try:
            from kernels.weights import frozen, parse, read

            data = None if path is not None else frozen()
            _weights = read(_path or weights_path()) if data is None else parse(data)
        except Exception:  # OSError, ValueError, MemoryError: reported when needed
            pass
        finally:
            _unload("kernels.weights")  # its code is needed once
    return _weights is not None


def table_path():
    """bearoff.bin beside the weights: the bear-off table (gammon/endgame.py), where
    `ledgammon deploy` puts it when the image does not hold it frozen."""
    w = _path or weights_path()
    return w[: w.rfind("/") + 1] + "bearoff.bin"


def opponent():
    """The board's one Opponent, its weights loaded on first use. Raises what loading
    raises: OSError (no file), ValueError (a broken one), MemoryError (no room)."""
    from gammon.opponent import shared

    return shared(_weights or _path or weights_path(), table_path())


def units():
    """The hidden units of the network read at start-up (`hello` says it), or None."""
    return _weights[0] if _weights is not None else None


def unload():
    """Drops the player's modules and the opponent (no side is the board's any more), so the
    heap gets them back; the weights read at start-up stay for the next time. None."""
    for name in (
        "control.autoplay",
        "control.plan",
        "control.order",
        "control.hint",
        "control.hint_cube",
        "gammon.opponent",
        "gammon.endgame",  # the bear-off by its table (its file closes with the opponent)
        "gammon.bearoff",
        "gammon.score_values",  # a match's checker play at the score
        "kernels.net",
        "kernels.apply",
    ):
        _unload(name)
