# Store: atomic saves; boot with leftovers, missing files and corrupt saves kept aside.
import gc
import json
import os

import fakes
from fake_file import FileOver
from hw.storage import GAME, SETTINGS, Store
from model.game import MOVE, OPENING, Game


def played():
    """A folder whose game.json holds a game a few steps in; returns (root, save text)."""
    gc.collect()
    ctl, rec = fakes.make()
    ctl.roll(1, (6, 4))
    ctl.press("p24", 2)
    ctl.press("p14", 3)
    ctl.roll(4, (5, 2))
    ctl.press("p1", 5)  # player 1's 24-point
    ctl.press("p3", 6)  # 24/22
    assert ctl.state(False)["steps"] == ["24/22"]
    root = ctl.store.root
    return root, fakes.get(root, GAME)


def test_write_replaces_the_file_whole():
    root = fakes.tmpdir()
    s = Store(root)
    assert s.path(GAME) == root + "/" + GAME and Store("/").path(GAME) == "/" + GAME
    assert s.write(GAME, "abc") == 3
    assert s.write(GAME, ("de", "fg")) == 4  # pieces, as the game writes itself
    assert fakes.get(root, GAME) == b"defg" and os.listdir(root) == [GAME]
    assert s.writes == 2 and s.bytes_written == 7
    fakes.rmtree(root)


def test_save_after_every_step_and_resume():
    root, text = played()
    ctl, rec = fakes.make(root)
    g = ctl.game
    assert ctl.boot_error is None and g.phase == MOVE and g.turn == 1 and len(g.codes) == 1
    assert ctl.game.to_json() == text.decode() and len(g.steps()) == 1
    assert ctl.view.selected == -1 and ctl.view.pts1[3] == 1  # player 1 24/22 is kept
    fakes.done(ctl)


def test_leftover_temp_files():
    root, text = played()
    # a half-written save beside game.json: a cut during the write; the step before counts
    fakes.put(root, GAME + ".tmp", text[:40])
    ctl, rec = fakes.make(root)
    assert ctl.game.to_json() == text.decode() and os.listdir(root) == [GAME]
    ctl = None
    # only the temp file, whole: the cut fell between removing game.json and the rename
    os.rename(root + "/" + GAME, root + "/" + GAME + ".tmp")
    ctl, rec = fakes.make(root)
    assert ctl.game.to_json() == text.decode() and ctl.boot_error is None
    assert os.listdir(root) == [GAME] and fakes.get(root, GAME) == text
    ctl = None
    # only a broken temp file: kept aside, a new game
    os.remove(root + "/" + GAME)
    fakes.put(root, GAME + ".tmp", text[:-3])
    ctl, rec = fakes.make(root, keep=8)
    assert ctl.game.phase == OPENING and ctl.boot_error and rec.of("error", "bad_save")
    assert sorted(os.listdir(root)) == ["game.bad"]
    fakes.done(ctl)


def _tampered(text):
    record = json.loads(text)["h"][:9]
    code = int(record[2:], 16)
    assert record[:2] == "64" and '"h":"' + record in text
    return [
        b"garbage",
        text[: len(text) // 2].encode(),
        b"",
        b"\xff\xfe\x00{",
        b"null",
        text.replace('"v":2', '"v":9').encode(),
        text.replace(record, "64%07x" % (code + 1)).encode(),  # an illegal play
        text.replace(record, "66" + record[2:]).encode(),  # not the dice played
        text.replace('"s":[[', '"s":[[3,1],[').encode(),  # an illegal step this turn
    ]


def test_corrupt_saves_are_kept_aside():
    root, text = played()
    text = text.decode()
    for bad in _tampered(text):
        gc.collect()
        fakes.put(root, GAME, bad)
        ctl, rec = fakes.make(root, keep=8)
        errors = rec.of("error", "bad_save")
        assert len(errors) == 1 and "game.bad" in errors[0]["message"], bad
        assert ctl.boot_error and ctl.view.error == 1
        g = ctl.game
        assert g.phase == OPENING and g.game_number == 1 and g.codes == Game().codes
        assert fakes.get(root, "game.bad") == bad and GAME not in os.listdir(root)
        ctl.press("ROLL", 10)  # the board plays on, and saves again
        assert g.phase == MOVE and GAME in os.listdir(root)
        assert ctl.state(False)["error"] == ctl.boot_error
        ctl = rec = g = None
    fakes.rmtree(root)


def test_corrupt_settings_are_kept_aside():
    gc.collect()
    root = fakes.tmpdir()
    fakes.put(root, SETTINGS, b'{"v":1,"brightn')
    ctl, rec = fakes.make(root, keep=8)
    assert rec.of("error", "bad_save") and ctl.settings.brightness == 128
    assert os.listdir(root) == ["settings.bad"]
    ctl = None
    # a bad value in a good file keeps that one default, quietly
    fakes.put(root, SETTINGS, b'{"v":1,"brightness":999,"palette":1,"autoplay":true}')
    ctl, rec = fakes.make(root, keep=8)
    s = ctl.settings
    assert ctl.boot_error is None and s.brightness == 128 and s.palette == 1 and s.autoplay
    fakes.done(ctl)


def test_bytes_written_per_step():
    gc.collect()
    ctl, rec = fakes.make(seed=2, keep=0)
    store = ctl.store
    sizes = []
    now = 0
    while ctl.game.phase != 4 and now < 20000:
        now += 5
        before = store.writes
        if ctl.game.phase == MOVE:
            fakes.play_step(ctl, now)
        else:
            ctl.press("ROLL", now)
        assert store.writes - before == 1  # one file written a change, never more
        sizes.append(ctl.save_size)
    turns = len(ctl.game.codes)
    assert turns > 50 and max(sizes) == sizes[-1]
    assert sizes[-1] < 220 + 10 * turns  # about 9 bytes a finished turn
    print("save: %d bytes at the start, %d after %d turns" % (sizes[0], sizes[-1], turns))
    fakes.done(ctl)


class _Cut(BaseException):
    """The power going off: nothing after it runs (not an OSError the Store handles)."""


class _Log(FileOver):
    """A file that logs each write, and is cut after `cut` of them (a file on the disk)."""

    def __init__(self, path, log, cut):
        super().__init__(open(path, "w"))
        self.log = log
        self.cut = cut
        self.n = 0

    def write(self, s):
        if self.cut is not None and self.n >= self.cut:
            self.f.close()  # what reached the flash stays there
            raise _Cut()
        self.n += 1
        self.log.append(("w", s))
        return self.f.write(s)


def test_a_save_in_pieces_goes_to_the_file_as_they_come_and_survives_a_cut():
    """Store.write takes the game's save piece by piece (Game.chunks: a generator) and
    writes each before the next is made, so no string of the whole save is built; a cut
    in the middle leaves a partial NAME.tmp beside the last whole save, which boot keeps."""
    root, text = played()
    log = []
    cut = [None]
    store = Store(root, lambda path, mode: _Log(path, log, cut[0]))

    def pieces():
        for piece in ("{", '"a":', "1", "}"):
            log.append(("made", piece))
            yield piece

    assert store.write("x.json", pieces()) == 7
    assert log == [("made", "{"), ("w", "{"), ("made", '"a":'), ("w", '"a":'),
                   ("made", "1"), ("w", "1"), ("made", "}"), ("w", "}")]
    assert fakes.get(root, "x.json") == b'{"a":1}'
    os.remove(root + "/x.json")
    # the game's own save, cut after some of its pieces
    ctl, rec = fakes.make(root)
    g = ctl.game
    whole = g.to_json()
    assert whole == text.decode()
    pieces = len([1 for _ in g.chunks(0)])  # a piece at every place it may be cut
    assert pieces > 3 and len([1 for _ in g.chunks()]) == 1  # a short game's: one
    for k in (1, pieces // 2, pieces - 1):
        cut[0] = k
        try:
            store.write(GAME, g.chunks(0))
            raise AssertionError("not cut")
        except _Cut:
            pass
        partial = fakes.get(root, GAME + ".tmp")
        assert 0 < len(partial) < len(whole) and whole.startswith(partial.decode())
        assert fakes.get(root, GAME) == text  # the last whole save, untouched
    ctl = rec = g = None
    gc.collect()
    again, rec = fakes.make(root)  # power on: the last whole save, the cut one removed
    assert again.game.to_json() == whole and again.boot_error is None
    assert os.listdir(root) == [GAME]
    cut[0] = None
    assert store.write(GAME, again.game.chunks()) == len(whole)  # whole when not cut
    assert fakes.get(root, GAME) == text
    fakes.done(again)


def test_a_save_whose_pieces_find_no_heap_leaves_the_last_save_and_the_game_goes_on():
    """A piece that cannot be made (MemoryError in a full heap) is no power cut: the
    half-written NAME.tmp is removed, NAME keeps the last whole save, and the Saver
    reports a storage error instead of raising out of the frame; the next change saves."""
    root, text = played()
    store = Store(root)

    def pieces():
        yield '{"a":'
        raise MemoryError("no room")

    try:
        store.write(GAME, pieces())
        raise AssertionError("no MemoryError")
    except MemoryError:
        pass
    assert os.listdir(root) == [GAME] and fakes.get(root, GAME) == text
    ctl, rec = fakes.make(root)
    real = ctl.store.save_game
    ctl.store.save_game = lambda chunks: store.write(GAME, pieces())
    fakes.play_step(ctl, 1)  # saved at once: the save fails, the step stands
    assert [e["code"] for e in rec.of("error")] == ["storage"]
    assert len(ctl.game.steps()) == 2 and ctl.game.to_json() != text.decode()
    assert fakes.get(root, GAME) == text and os.listdir(root) == [GAME]
    ctl.store.save_game = real
    ctl.press("UNDO", 2)  # the next change saves the whole game
    assert ctl.game.to_json() == fakes.get(root, GAME).decode()
    fakes.done(ctl)
