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


def loader_weights():
    from control import loader

    return loader.weights_path()


def _weights_64():
    path = loader_weights()
    return path[: path.rfind("/") + 1] + "weights-64.bin"


def _boards():
    """A few boards of a seeded game (the start, then a random play's each turn)."""
    from gammon.dice import Dice, SeededBytes
    from gammon.play import legal_plays
    from gammon.position import Position

    dice = Dice(SeededBytes(7))
    p = Position.start()
    out = [p.key()]
    for _ in range(30):
        plays = legal_plays(p, dice.roll())
        if len(plays):
            p = plays[len(plays) // 2].result
        if p.outcome():
            break
        p = p.swap()
        out.append(p.key())
    return out


def test_frozen_weights_are_views_of_their_bytes_and_evaluate_as_the_file():
    """A weight file's bytes frozen into the image (kernels.weights.parse): every block a
    view of them (in flash on the board: no copy in the heap), the same numbers as the file
    read into the heap, the same equities; broken bytes refused as a broken file is."""
    from kernels.net import Net
    from kernels.weights import parse, read

    path = loader_weights()
    with open(path, "rb") as f:
        data = f.read()
    a = read(path)
    b = parse(data)
    assert a[:3] == b[:3] and a[6] == b[6] == len(data) and b[0] == 40
    assert type(b[3]) is memoryview and type(b[5]) is memoryview
    assert bytes(a[3]) == bytes(b[3]) and bytes(a[5]) == bytes(b[5])
    assert len(b[4]) == 4
    for x, y in zip(a[4], b[4]):  # noqa: B905 (MicroPython's zip has no strict)
        assert type(y) is memoryview and bytes(x) == bytes(y)
    na, nb = Net(a), Net(b)
    for board in _boards():
        assert na.equity(board) == nb.equity(board)
    for broken in (data[:-1], b"LGW1" + data[4:], data + b"\0"):
        try:
            parse(broken)
            raise AssertionError("parsed broken weights")
        except ValueError:
            pass


class _FrozenWeights:
    """What `import weights_data` gives on an image that froze the network."""

    def __init__(self, data):
        self.DATA = data


def test_the_loader_takes_the_frozen_weights_when_the_image_has_them():
    from control import loader

    with open(loader.weights_path(), "rb") as f:
        data = f.read()
    kept = loader._weights
    loader.unload()
    sys.modules["weights_data"] = _FrozenWeights(data)
    try:
        loader._weights = None
        assert loader.reserve() and loader.units() == 40
        assert type(loader._weights[5]) is memoryview  # read in place, not into the heap
        loader._weights = None
        gc.collect()
        assert loader.reserve(_weights_64()) and loader.units() == 64  # a file asked for
    finally:
        del sys.modules["weights_data"]
        loader.unload()
        loader._weights = kept
