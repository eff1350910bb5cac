# The board's player loaded from the weights read at start-up (control/loader.py): in a heap
# cut up by a long game it still loads; when even its code finds no room, the board says so.
import gc
import sys

import fakes

MICROPY = sys.implementation.name == "micropython"


def _cut_up(piece):
    """Fills the heap with blocks of `piece` bytes and frees every other one, so that what
    is free lies in holes of about `piece` bytes: a heap cut up by a long game. Returns the
    chain of the blocks kept (dropping it gives the heap back)."""
    gc.collect()
    chain = None
    try:
        while True:
            chain = [bytearray(piece), chain]
    except MemoryError:
        pass
    node = chain
    while node is not None and node[1] is not None:
        node[1] = node[1][1]  # the next block goes: a hole
        node = node[1]
    gc.collect()
    return chain


def test_the_weights_read_at_start_up_load_the_player_in_a_cut_up_heap():
    """app.build reads the weights first (loader.reserve): a side made the board's later
    gets its player from those blocks, even when the heap has no 2 KB block left (their
    rows take 2 KB each, MicroPython); and a player that cannot be loaded at all is said
    plainly (`no_player`, view.error 2) and the sides stay people's."""
    from control import loader

    loader.unload()  # an opponent another test module made (its own weights) goes first
    gc.collect()
    assert loader.reserve(), loader.weights_path()  # the weights, once: kept for later loads
    blocks = loader._weights
    ctl, rec = fakes.make(seed=31, keep=8)
    if MICROPY:
        # the player's code in first (what this test is about is its weights): the heap's
        # cut-up next
        from control import autoplay, sides  # noqa: F401
        from gammon import opponent  # noqa: F401
        from kernels import net  # noqa: F401

        chain = _cut_up(1536)
        try:  # the file read afresh now: no room for it
            from kernels.weights import read

            read(loader.weights_path())
            raise AssertionError("a 2 KB block was left")
        except MemoryError:
            pass
        finally:
            from kernels.compat import unload

            unload("kernels.weights")
    assert ctl.configure("players", ["human", "board"])[0]
    assert not rec.of("error") and ctl.bot is not None, rec.of("error")
    assert ctl.bot.opp.net.rows is blocks[4] and ctl.bot.opp.net.w2 is blocks[5]
    assert ctl.configure("players", ["human", "human"])[0] and ctl.bot is None
    if MICROPY:
        del chain
        chain = _cut_up(256)  # no room even for the player's code
        ok = ctl.configure("players", ["board", "human"])[0]
        del chain  # the heap back
        gc.collect()
        e = rec.of("error")[-1]
        assert e["code"] == "no_player" and "MemoryError" in e["message"], e
        assert ok and ctl.bot is None and ctl.view.error == 2
        assert ctl.settings.players == ["human", "human"]
    fakes.done(ctl)


def test_unload_drops_the_players_modules_with_a_matchs_checker_play():
    """Once no side is the board's, its code goes, the match's gammon values too."""
    from control import loader
    from gammon import score_values  # noqa: F401 (loaded as a match's plan loads it)

    loader.opponent()
    loader.unload()
    for name in ("gammon.opponent", "gammon.score_values", "kernels.net", "control.plan",
                 "gammon.endgame", "gammon.bearoff"):
        assert name not in sys.modules, name


def test_the_bear_off_table_is_looked_for_beside_the_weights():
    from control import loader

    assert loader.table_path() == loader.weights_path()[: -len("weights.bin")] + "bearoff.bin"
    assert loader.weights_path("control/loader.py") == "weights.bin"  # a board's root


def test_compat_unload_drops_a_module_from_sys_modules_and_its_package():
    """kernels.compat.unload: the module goes from sys.modules and from its package's names
    (where `from package import leaf` would find it first), its siblings stay; unloading it
    again, or a module never loaded, changes nothing."""
    import control
    from control import errors, report_history  # noqa: F401
    from kernels.compat import unload

    assert "control.report_history" in sys.modules and hasattr(control, "report_history")
    unload("control.report_history")
    assert "control.report_history" not in sys.modules
    assert not hasattr(control, "report_history")
    assert hasattr(control, "errors") and "control.errors" in sys.modules  # a sibling stays
    unload("control.report_history")  # again: nothing to drop
    unload("control.no_such_module")
    unload("no_such_package.leaf")
    assert "control.errors" in sys.modules
    from control import report_history as again  # loaded afresh, from the file

    assert again is not report_history and hasattr(control, "report_history")
    unload("control.report_history")


def test_the_weights_are_beside_the_code_or_at_the_root_when_it_is_frozen():
    """weights.bin is read from the folder above control/ (the board's root as deployed,
    firmware/ here); a module frozen into the firmware image has no folder (no __file__, or
    a name under .frozen): the weights are at the root, where `deploy --frozen` puts them."""
    from control.loader import weights_path

    assert weights_path("/flash/control/loader.mpy") == "/flash/weights.bin"
    assert weights_path("control/loader.mpy") == "weights.bin"
    assert weights_path("") == "weights.bin"
    assert weights_path(".frozen/control/loader.py") == "weights.bin"
    assert weights_path().endswith("weights.bin")
