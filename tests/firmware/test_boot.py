# Boot whatever the flash holds: files too big to read, deep nesting, directories where files
# belong, bytes that are not text, a full filesystem; the board starts and keeps valid saves.
import gc
import os

import fakes
from fake_file import FileOver
from games import some_steps_in
from hw.storage import GAME, MAX_SAVE, SETTINGS, TMP, Store
from model.game import MOVE, OPENING

MB = 1 << 20


def saved():
    """A save some steps into a game (player 1 to move 6-4), made without a controller."""
    return some_steps_in().to_json().encode()


def fill(root, name, head, byte, size):
    """File `name`: `head`, then `byte` up to `size` bytes, written 512 bytes at a time."""
    chunk = memoryview(byte * 512)
    with open(root + "/" + name, "wb") as f:
        f.write(head)
        n = len(head)
        while n < size:
            k = min(512, size - n)
            f.write(chunk[:k])
            n += k


def is_dir(path):
    return os.stat(path)[0] & 0xF000 == 0x4000


def size(root, name):
    return os.stat(root + "/" + name)[6]


def rmtree(path):
    for name in os.listdir(path):
        p = path + "/" + name
        if is_dir(p):
            rmtree(p)
        else:
            os.remove(p)
    os.rmdir(path)


def listing(root):
    return sorted(os.listdir(root))


def boot(root, keep=8):
    gc.collect()
    return fakes.make(root, keep=keep)


def check_ascii(text):
    assert not text or max(text) < "\x80", text


def test_files_too_big_to_be_saves_are_kept_aside_unread():
    """A valid save followed by 2 MB of spaces, 20 MB of `[`, a settings file with a 400 KB
    string: judged by their size, never read (the MicroPython run has a 96 KB heap)."""
    text = saved()
    root = fakes.tmpdir()
    fill(root, GAME, text, b" ", 2 * MB)
    fill(root, SETTINGS, b'{"v":1,"palette":"', b"x", 400 * 1024)
    ctl, rec = boot(root)
    assert ctl.game.phase == OPENING and ctl.settings.palette == 0
    err = ctl.boot_error
    assert "game.json kept as game.bad" in err and "settings.json kept as settings.bad" in err
    assert rec.of("error", "bad_save") and ctl.view.error == 1
    assert size(root, "game.bad") == 2 * MB and size(root, "settings.bad") == 400 * 1024
    assert listing(root) == ["game.bad", "settings.bad"]
    assert ctl.roll(1)[0] and fakes.get(root, GAME) == ctl.game.to_json().encode()
    ctl = rec = None
    # 20 MB of `[` beside a tmp just over the limit: both refused, a new game
    fill(root, GAME, b"", b"[", 20 * MB)
    fill(root, GAME + TMP, text, b" ", MAX_SAVE + 1)
    ctl, rec = boot(root)
    assert ctl.game.phase == OPENING and "game.json kept as game.bad" in ctl.boot_error
    assert size(root, "game.bad") == 20 * MB and GAME + TMP not in listing(root)
    ctl = rec = None
    # a valid game.json beside a 2 MB tmp (a save cut short cannot be that big): the game
    fill(root, GAME, text, b"", 0)
    fill(root, GAME + TMP, text, b" ", 2 * MB)
    os.remove(root + "/settings.bad")
    ctl, rec = boot(root)
    assert ctl.boot_error is None and ctl.game.to_json().encode() == text
    assert listing(root) == ["game.bad", GAME]
    rmtree(root)


def test_a_save_of_the_largest_size_is_read():
    """A valid save padded with spaces to MAX_SAVE bytes is still a save."""
    text = saved()
    root = fakes.tmpdir()
    fill(root, GAME, text, b" ", MAX_SAVE)
    ctl, rec = boot(root)
    assert ctl.boot_error is None and ctl.game.to_json().encode() == text
    rmtree(root)


def test_deep_nesting_within_the_limit():
    """16 KB of `[` parse into thousands of lists: MemoryError on a small heap (RecursionError
    on CPython). Whatever the exception, the file is kept aside and the board starts."""
    root = fakes.tmpdir()
    fill(root, GAME, b"", b"[", MAX_SAVE)
    fill(root, SETTINGS, b'{"v":1,"palette":', b"[", MAX_SAVE)
    ctl, rec = boot(root)
    assert ctl.game.phase == OPENING and ctl.settings.palette == 0
    assert "game.json kept" in ctl.boot_error and "settings.json kept" in ctl.boot_error
    assert len(ctl.boot_error) < 400  # the reasons are cut short
    assert listing(root) == ["game.bad", "settings.bad"]
    rmtree(root)


def test_directories_where_files_should_be():
    text = saved()
    root = fakes.tmpdir()
    os.mkdir(root + "/" + GAME)  # a directory holding a file
    fakes.put(root + "/" + GAME, "x", b"x")
    fakes.put(root, SETTINGS, b'{"v":1,"palette":1}')
    os.mkdir(root + "/" + SETTINGS + TMP)  # empty, beside a good file: simply removed
    ctl, rec = boot(root)
    assert ctl.game.phase == OPENING and ctl.settings.palette == 1
    assert ctl.boot_error == "game.json kept as game.bad: not a file"
    assert listing(root) == ["game.bad", SETTINGS] and is_dir(root + "/game.bad")
    assert ctl.roll(1)[0] and fakes.get(root, GAME) == ctl.game.to_json().encode()
    ctl = rec = None
    # a valid game.json; the tmp a directory that cannot be moved (game.bad is one too)
    fakes.put(root, GAME, text)
    os.mkdir(root + "/" + GAME + TMP)
    fakes.put(root + "/" + GAME + TMP, "y", b"y")
    ctl, rec = boot(root)
    assert ctl.game.to_json().encode() == text and ctl.game.phase == MOVE
    assert "game.json.tmp cannot be moved: not a file" in ctl.boot_error
    # it blocks the saves: each is reported, game.json keeps the last save, the game goes on
    step = "24/18"
    assert ctl.move(step, 2)[0] and len(ctl.game.steps()) == 1
    assert rec.of("error", "storage") and fakes.get(root, GAME) == text
    ctl = rec = None
    # once the directory is gone the tmp is free again
    rmtree(root + "/" + GAME + TMP)
    ctl, rec = boot(root)
    assert ctl.boot_error is None and ctl.move(step, 2)[0]
    assert fakes.get(root, GAME) == ctl.game.to_json().encode()
    rmtree(root)


def test_bytes_that_are_not_text():
    """Invalid UTF-8 (overlong, surrogates), any byte over 127 or an escape (MicroPython's
    json makes invalid UTF-8 of `\\ud800`) is not a save; the error reported is ASCII, even
    where the reason quotes the value (the game number here)."""
    text = saved()
    assert b'"n":1,' in text
    root = fakes.tmpdir()
    for junk in (b"\xc0\xaf", b"\xed\xa0\x80", b"\xff", b"\xc3\xa9", b"\x00", b"\\ud800", b"\\n"):
        fakes.put(root, GAME, text.replace(b'"n":1,', b'"n":"' + junk + b'",'))
        fakes.put(root, SETTINGS, b'{"v":1,"palette":1,"x":"' + junk + b'"}')
        ctl, rec = boot(root)
        assert ctl.game.phase == OPENING and ctl.settings.palette == 0, junk
        assert "game.json kept" in ctl.boot_error and "settings.json kept" in ctl.boot_error
        check_ascii(ctl.boot_error)
        check_ascii(rec.of("error", "bad_save")[0]["message"])
        assert listing(root) == ["game.bad", "settings.bad"]
        ctl = rec = None
    rmtree(root)


def test_the_newest_settings_win():
    """A whole settings.json.tmp beside settings.json: the cut fell before its rename."""
    root = fakes.tmpdir()
    fakes.put(root, SETTINGS, b'{"v":1,"palette":1}')
    fakes.put(root, SETTINGS + TMP, b'{"v":1,"palette":2}')
    ctl, rec = boot(root)
    assert ctl.boot_error is None and ctl.settings.palette == 2
    assert listing(root) == [SETTINGS] and fakes.get(root, SETTINGS) == b'{"v":1,"palette":2}'
    ctl = rec = None
    fakes.put(root, SETTINGS + TMP, b'{"v":1,"pal')  # cut while written: the file counts
    ctl, rec = boot(root)
    assert ctl.boot_error is None and ctl.settings.palette == 2 and listing(root) == [SETTINGS]
    rmtree(root)


class Full:
    """open() on a filesystem with `room` bytes left (None: plenty); a write past it raises
    OSError ENOSPC, as littlefs and FAT do."""

    def __init__(self):
        self.room = None

    def __call__(self, path, mode):
        return FullFile(self, open(path, mode))


class FullFile(FileOver):
    def __init__(self, fs, f):
        super().__init__(f)
        self.fs = fs

    def write(self, data):
        fs = self.fs
        if fs.room is not None:
            if len(data) > fs.room:
                self.f.write(data[: fs.room])
                fs.room = 0
                raise OSError(28)
            fs.room -= len(data)
        return self.f.write(data)


def test_a_full_filesystem():
    """Saves fail with ENOSPC: each is reported, the game goes on, game.json keeps the last
    save whole and no partial tmp takes space; with room again the next save has it all."""
    text = saved()
    root = fakes.tmpdir()
    fakes.put(root, GAME, text)
    fs = Full()
    rec = fakes.Recorder(8)
    from control.boot import boot as power_on
    from gammon.dice import Dice, SeededBytes

    ctl = power_on(Store(root, fs), Dice(SeededBytes(1)), "full", rec, 0)
    assert ctl.boot_error is None
    fs.room = 40
    steps = ("24/18", "13/9")
    assert ctl.move(steps[0], 1)[0]
    (full,) = rec.of("error", "storage")
    assert "28" in full["message"]  # ENOSPC
    assert fakes.get(root, GAME) == text and listing(root) == [GAME]
    assert ctl.configure("palette", 2, 2)[0] and ctl.settings.palette == 2  # kept in memory
    assert len(rec.of("error", "storage")) == 2 and listing(root) == [GAME]
    fs.room = None
    assert ctl.move(steps[1], 3)[0]
    assert len(ctl.game.steps()) == 2 and len(rec.of("error", "storage")) == 2
    played = ctl.game.to_json()
    ctl = rec = None
    again, rec = boot(root)  # the save on flash is the whole game
    assert again.boot_error is None and again.game.to_json() == played
    rmtree(root)


def test_a_save_over_the_limit_is_not_written():
    """The board never writes a save it would refuse at the next power-on."""
    root = fakes.tmpdir()
    s = Store(root)
    s.write(GAME, "old")
    try:
        piece = "x" * 512
        s.write(GAME, (piece for _ in range(MAX_SAVE // 512 + 1)))
        raise AssertionError("written")
    except OSError:
        pass
    assert fakes.get(root, GAME) == b"old" and listing(root) == [GAME]
    assert s.write(GAME, (piece for _ in range(MAX_SAVE // 512))) == MAX_SAVE
    rmtree(root)


def test_the_loader_leaves_the_heap_after_boot():
    """control.boot and model.savefile are needed once: a boot drops them again."""
    import sys

    root = fakes.tmpdir()
    fakes.put(root, GAME, saved())
    ctl, rec = boot(root)
    assert ctl.boot_error is None and ctl.game.phase == MOVE
    assert "control.boot" not in sys.modules and "model.savefile" not in sys.modules
    rmtree(root)
