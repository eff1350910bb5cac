# Loads the board's player (the opponent and its weights, firmware/weights.bin) when a side
# becomes the board's or a hint is asked for, and drops it again when no side is the board's.
# The weights are read at once, while the heap is least cut up (at boot when the saved
# settings give the board a side); a board that cannot load them says so (sides.player).


def weights_path():
    """weights.bin at the board's root (where `ledgammon deploy` puts it), which is firmware/
    in the simulator and the tests: the folder above control/."""
    f = globals().get("__file__") or ""  # none when frozen into the firmware: the root
    f = f[: f.rfind("/")]  # control/, in the root
    return f[: f.rfind("/") + 1] + "weights.bin"


def opponent():
    """The board's one Opponent, its weights loaded on first use. Raises what loading
    raises: OSError (no file), ValueError (a broken one), MemoryError (no room)."""
    from gammon.opponent import shared

    return shared(weights_path())


def unload():
    """Drops the player's modules, the opponent and its weights (no side is the board's any
    more), so the heap gets them back; returns None."""
    from kernels.compat import unload

    for name in (
        "control.autoplay",
        "control.plan",
        "control.order",
        "control.hint",
        "gammon.opponent",
        "kernels.net",
    ):
        unload(name)
