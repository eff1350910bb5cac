"""Boot whatever the flash holds (issue 12, items 3 and 4), as property tests (hypothesis).

Any bytes, or a directory (empty or not), or nothing, in each of the board's files at power-on
(game.json, settings.json, their .tmp and their kept-aside .bad copies) -> the board boots, its
protocol answers `hello` and `state` with valid UTF-8 JSON, and it keeps the newest valid save
it had: a valid .tmp (the newer state: a save's tmp exists only until its rename) wins and is
put in place of the file, else a valid file is resumed and left unchanged, else a new game.
"Valid" is what the board's own save parse accepts (model/savefile.py, the format's one
reader), of a regular file of at most MAX_SAVE bytes. After one boot the flash holds only
trusted files: the game saves, and a second boot resumes it without a complaint.

The same under the MicroPython unix port, through the simulator's pty, with a 2 MB game.json,
20 MB of `[` and a 400 KB string in the settings; and a filesystem that is really full
(/dev/full): the game goes on, the error is reported, the last save stays whole.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import tempfile
from typing import Any

import pytest
from control.boot import boot
from fuzzkit import examples, mutate
from gammon.dice import Dice, SeededBytes
from hw.storage import GAME, MAX_SAVE, SETTINGS, TMP, Store
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from link.protocol import Protocol
from model import savefile
from model.game import MOVE, OPENING, OVER, Game
from model.settings import Settings
from mpytools import FIRMWARE, MICROPYTHON, NATIVE, require
from simkit import connect, start_sim

FILES = (GAME, GAME + TMP, SETTINGS, SETTINGS + TMP, "game.bad", "settings.bad")
INFO = {"board": "pico", "layout": "full", "leds": 440}


def _games() -> list[bytes]:
    """Saves the board wrote: a few games at several points, one of them to its end."""
    out = [Game().to_json().encode()]
    with tempfile.TemporaryDirectory() as root:
        for seed in (1, 2):
            ctl = boot(Store(root), Dice(SeededBytes(seed)), "full", None, 0)
            for turn in range(400):
                st = ctl.state()
                if st["phase"] == "over":
                    break
                if st["phase"] == "move":
                    for _ in st["steps"]:  # `plays` are whole plays from the turn's start
                        assert ctl.undo(0)[0]
                    plays = st["plays"]
                    play = plays[turn % len(plays)]
                    ok = turn % 3 == 0 and ctl.move(play.split()[0], 0)[0]  # a step of it
                    for play in plays[turn % len(plays) :] + plays:  # else a whole play
                        ok = ok or ctl.move(play, 0)[0]
                else:
                    ok, _ = ctl.roll(0)
                assert ok
                if turn in (1, 2, 7, 30) or st["phase"] == "over":
                    with open(os.path.join(root, GAME), "rb") as f:
                        out.append(f.read())
            with open(os.path.join(root, GAME), "rb") as f:
                out.append(f.read())
            os.remove(os.path.join(root, GAME))
    return out


GAMES = _games()
SETTINGS_FILES = [
    b'{"v":1}',
    b'{"v":1,"palette":1}',
    b'{"v":1,"brightness":64,"autoplay":true,"palette":2,"players":["human","board"],'
    b'"level":"easy","physical_dice":true}',
    b'{"v":1,"brightness":999,"palette":"x"}',  # bad values keep their defaults: still valid
]
VALID = GAMES + SETTINGS_FILES


@st.composite
def mutated(draw: Any) -> bytes:
    """A valid file with bytes flipped, cut, inserted (non-ASCII too), repeated or cut short."""
    junk = st.sampled_from([b"\xc0\xaf", b"\xed\xa0\x80", b"\xff", b" ", b"["])
    return mutate(draw, draw(st.sampled_from(VALID)), st.integers(1, 3), junk, 40)


@st.composite
def padded(draw: Any) -> bytes:
    """A valid file padded with spaces to about MAX_SAVE: one byte over is too big."""
    data = draw(st.sampled_from(VALID))
    return data + b" " * (MAX_SAVE - len(data) + draw(st.integers(-1, 1)))


CONTENT = st.one_of(
    st.sampled_from(VALID),
    st.sampled_from(VALID),
    mutated(),
    st.binary(max_size=200),
    padded(),
    st.integers(1, MAX_SAVE + 1).map(lambda n: b"[" * n),
    st.just(b""),
)
# absent, a file's bytes, or a directory (True: holding a file, so it cannot be removed)
ENTRY = st.one_of(st.none(), st.none(), CONTENT, CONTENT, st.booleans())
FLASH = st.fixed_dictionaries({name: ENTRY for name in FILES})


_GAME_OF: dict[bytes, str | None] = {}


def _game_of(entry: Any) -> str | None:
    """The game a valid save holds (its save text), else None."""
    if not isinstance(entry, bytes) or len(entry) > MAX_SAVE:
        return None
    if entry not in _GAME_OF:  # a replay of a long game takes a while: once per content
        try:
            _GAME_OF[entry] = savefile.load(Game, entry).to_json()
        except Exception:
            _GAME_OF[entry] = None
    return _GAME_OF[entry]


def _settings_of(entry: Any) -> dict[str, Any] | None:
    """The settings a valid settings file holds, else None."""
    if not isinstance(entry, bytes) or len(entry) > MAX_SAVE:
        return None
    s = Settings()
    try:
        savefile.load_settings(s, entry)
    except Exception:
        return None
    return s.as_dict()


def _put(root: str, flash: dict[str, Any]) -> None:
    for name, entry in flash.items():
        path = os.path.join(root, name)
        if isinstance(entry, bytes):
            with open(path, "wb") as f:
                f.write(entry)
        elif entry is not None:
            os.mkdir(path)
            if entry:
                with open(os.path.join(path, "x"), "wb") as f:
                    f.write(b"x")


def _read(root: str, name: str) -> bytes | None:
    path = os.path.join(root, name)
    if not os.path.isfile(path):
        return None
    with open(path, "rb") as f:
        return f.read()


def _ask(proto: Protocol, out: list[bytes], line: bytes) -> dict[str, Any]:
    """One request's reply; every line written is UTF-8 JSON that CPython accepts."""
    out.clear()
    proto.feed(line + b"\n", 0)
    lines = b"".join(out).split(b"\n")
    assert lines[-1] == b""
    replies = [json.loads(raw.decode("utf-8")) for raw in lines[:-1]]
    replies = [r for r in replies if "event" not in r]
    assert len(replies) == 1, replies
    return replies[0]


def _power_on(root: str) -> tuple[Any, Protocol, list[bytes]]:
    out: list[bytes] = []
    events: list[dict[str, Any]] = []
    ctl = boot(Store(root), Dice(SeededBytes(3)), "full", events.append, 0)
    for e in events:  # the boot's events are JSON the host reads, too
        json.loads(json.dumps(e, ensure_ascii=False).encode("utf-8"))
    proto = Protocol(ctl, INFO, lambda b: out.append(bytes(b)), 0, stop=lambda: None)
    ctl.emit = proto.event
    return ctl, proto, out


def _expected(flash: dict[str, Any], of: Any, name: str) -> tuple[Any, bytes | None]:
    """(the state the board must start with or None, the file that must then hold it)."""
    tmp = of(flash[name + TMP])
    if tmp is not None:
        return tmp, flash[name + TMP]
    return of(flash[name]), flash[name] if of(flash[name]) is not None else None


def _check(flash: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as root:
        _put(root, flash)
        game, game_file = _expected(flash, _game_of, GAME)
        sets, sets_file = _expected(flash, _settings_of, SETTINGS)
        ctl, proto, out = _power_on(root)
        hello = _ask(proto, out, b'{"cmd":"hello","id":1}')
        assert hello["ok"] and hello["id"] == 1, hello
        state = _ask(proto, out, b'{"cmd":"state","id":2}')
        assert state["ok"] and state["error"] == ctl.boot_error
        err = ctl.boot_error or ""
        assert ctl.game.to_json() == (game or Game().to_json()), err
        assert ctl.settings.as_dict() == (sets or Settings().as_dict()), err
        stuck = "cannot be moved" in err
        # the newest valid save is in its place (a stuck directory may keep a valid tmp)
        for name, kept in ((GAME, game_file), (SETTINGS, sets_file)):
            if kept is not None:
                assert kept in (_read(root, name), _read(root, name + TMP)), (name, err)
                if not stuck:
                    assert _read(root, name) == kept, (name, err)
        # quiet when every present file is valid, or an unfinished tmp beside a valid file
        for name, of in ((GAME, _game_of), (SETTINGS, _settings_of)):
            entry, tmp = flash[name], flash[name + TMP]
            if entry is not None and of(entry) is None and of(tmp) is None:
                assert name + " " in err, (name, err)
            if entry is None and tmp is not None and of(tmp) is None:
                assert name + TMP in err, (name, err)
        if stuck:
            return
        # after one boot only trusted files are left: the game saves and boots again quietly
        for name in (GAME + TMP, SETTINGS + TMP):
            assert not os.path.exists(os.path.join(root, name)), name
        ctl.store.save_game(ctl.game.chunks())
        played = ctl.game.to_json()
        again, proto, out = _power_on(root)
        assert again.boot_error is None and again.game.to_json() == played
        assert _ask(proto, out, b'{"cmd":"hello","id":3}')["ok"]


FUZZ = settings(
    max_examples=examples(300),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def test_the_pool_holds_valid_saves_of_every_kind():
    """The oracle's pool: real saves of several phases (a game over too) and settings."""
    phases = {json.loads(g)["ph"] for g in GAMES}
    assert len(GAMES) >= 8 and phases >= {OPENING, MOVE, OVER}, phases
    assert all(_game_of(g) is not None for g in GAMES)
    assert all(_settings_of(s) is not None for s in SETTINGS_FILES)
    assert _game_of(GAMES[-1][:-1]) is None and _game_of(b" " * (MAX_SAVE + 1)) is None


@FUZZ
@given(flash=FLASH)
def test_any_flash_boots_and_keeps_the_newest_valid_save(flash):
    _check(flash)


def test_a_valid_tmp_beside_a_broken_file_wins():
    """A power cut between writing game.json.tmp and its rename, game.json cut short."""
    new, old = GAMES[3], GAMES[2]
    _check(
        {
            GAME: old[: len(old) // 2],
            GAME + TMP: new,
            SETTINGS: None,
            SETTINGS + TMP: None,
            "game.bad": None,
            "settings.bad": None,
        }
    )
    _check(
        {
            GAME: old,
            GAME + TMP: new,
            SETTINGS: SETTINGS_FILES[1],
            SETTINGS + TMP: SETTINGS_FILES[2],
            "game.bad": True,
            "settings.bad": b"x",
        }
    )


def test_a_full_filesystem(tmp_path):
    """ENOSPC from the real filesystem (/dev/full behind game.json.tmp): the step is played,
    the error reported, game.json keeps the last save whole."""
    if not os.path.exists("/dev/full"):
        pytest.fail("this test needs /dev/full")
    root = str(tmp_path)
    with open(os.path.join(root, GAME), "wb") as f:
        f.write(GAMES[2])
    ctl, proto, out = _power_on(root)
    st = ctl.state()
    os.symlink("/dev/full", os.path.join(root, GAME + TMP))
    req = {"cmd": "roll"} if st["phase"] != "move" else {"cmd": "move", "play": st["plays"][0]}
    reply = _ask(proto, out, json.dumps(req).encode())
    assert reply["ok"], reply
    events = [json.loads(x) for x in b"".join(out).split(b"\n")[:-1]]
    storage = [e for e in events if e.get("event") == "error" and e["code"] == "storage"]
    assert storage and "28" in storage[0]["message"], events
    assert _read(root, GAME) == GAMES[2] and sorted(os.listdir(root)) == [GAME]
    played = ctl.game.to_json()
    assert played != GAMES[2].decode()
    ctl.store.save_game(ctl.game.chunks())  # room again: the next save holds it all
    again, proto, out = _power_on(root)
    assert again.boot_error is None and again.game.to_json() == played


def _fill(path: str, head: bytes, byte: bytes, size: int) -> None:
    with open(path, "wb") as f:
        f.write(head)
        f.write(byte * (size - len(head)))


def test_huge_files_boot_under_micropython(tmp_path):
    """The simulator (the firmware under the MicroPython unix port) on a flash holding a
    valid save followed by 2 MB of spaces, 20 MB of `[` in its tmp, and a settings file with
    a 400 KB string: it boots, answers hello, and reports the files kept aside."""
    flash = str(tmp_path)
    _fill(os.path.join(flash, GAME), GAMES[2], b" ", 2 << 20)
    _fill(os.path.join(flash, GAME + TMP), b"", b"[", 20 << 20)
    _fill(os.path.join(flash, SETTINGS), b'{"v":1,"palette":"', b"x", 400 << 10)
    sim = start_sim(flash)
    try:
        client = connect(sim.port)
        try:
            assert client.hello()["ok"]
            st = client.state()
            assert st["phase"] == "opening" and "game.json kept as game.bad" in st["error"]
            assert "settings.json kept as settings.bad" in st["error"]
            assert client.roll()["ok"]
        finally:
            client.close()
    finally:
        sim.stop()
    names = sorted(os.listdir(flash))
    assert {"game.bad", "settings.bad", GAME} <= set(names) and GAME + TMP not in names
    assert os.path.getsize(os.path.join(flash, "game.bad")) == 2 << 20


# Boots each flash folder given under the MicroPython unix port: one JSON line per folder.
MP_BOOT = """
import sys
sys.path[:0] = [%r, %r]
import json
from control.boot import boot
from gammon.dice import Dice, SeededBytes
from hw.storage import Store
from link.protocol import Protocol
for root in sys.argv[1:]:
    out = []
    ctl = boot(Store(root), Dice(SeededBytes(3)), "full", None, 0)
    proto = Protocol(ctl, {"board": "pico"}, lambda b: out.append(bytes(b)), 0, stop=lambda: None)
    proto.feed(b'{"cmd":"hello","id":1}\\n', 0)
    print(json.dumps({"game": ctl.game.to_json(), "settings": ctl.settings.as_dict(),
                      "error": ctl.boot_error, "hello": b"".join(out).decode()}))
    ctl = proto = out = None
"""


def _random_flash(rng: random.Random) -> dict[str, Any]:
    """What FLASH draws, from a seeded generator (the MicroPython batch is made up front)."""
    flash: dict[str, Any] = {}
    for name in FILES:
        k = rng.random()
        if k < 0.3:
            flash[name] = None
        elif k < 0.45:
            flash[name] = rng.random() < 0.5
        else:
            data = bytearray(rng.choice(VALID))
            kind = rng.randrange(6)
            if kind == 2:  # mutated
                for _ in range(rng.randint(1, 3)):
                    i = rng.randrange(len(data))
                    data[i : i + rng.randint(0, 3)] = bytes(rng.randrange(256) for _ in range(2))
            elif kind == 3:
                data = bytearray(rng.randbytes(rng.randrange(200)))
            elif kind == 4:
                data += b" " * (MAX_SAVE - len(data) + rng.randint(-1, 1))
            elif kind == 5:
                data = bytearray(b"[" * rng.randint(1, MAX_SAVE + 1))
            flash[name] = bytes(data)
    return flash


def test_random_flashes_boot_under_micropython(tmp_path):
    """60 random flashes booted by the firmware under the MicroPython unix port (its json
    is laxer than CPython's, its file system calls its own): each boots, answers hello with
    UTF-8 JSON, reports in ASCII, and keeps the newest save CPython's oracle finds valid."""
    rng = random.Random(12)
    roots, expected = [], []
    for i in range(60):
        flash = _random_flash(rng)
        root = str(tmp_path / str(i))
        os.mkdir(root)
        _put(root, flash)
        roots.append(root)
        expected.append(
            (_expected(flash, _game_of, GAME), _expected(flash, _settings_of, SETTINGS))
        )
    script = str(tmp_path / "boot_all.py")
    with open(script, "w") as f:
        f.write(MP_BOOT % (FIRMWARE, NATIVE))
    cmd = [require(MICROPYTHON), "-X", "heapsize=512K", script] + roots
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.splitlines()
    assert len(lines) == len(roots), proc.stdout[-3000:]
    valid = 0
    for root, line, ((game, _), (sets, _)) in zip(roots, lines, expected, strict=True):
        got = json.loads(line)
        hello = json.loads(got["hello"])
        assert hello["ok"] and hello["id"] == 1, (root, got)
        err = got["error"] or ""
        assert not err or max(err) < "\x80", (root, err)
        if game is not None:
            valid += 1
            assert got["game"] == game, (root, err)
        if sets is not None:
            assert got["settings"] == sets, (root, err)
        if "cannot be moved" not in err:
            assert not {GAME + TMP, SETTINGS + TMP} & set(os.listdir(root)), (root, err)
    assert valid >= 10  # the batch does hold valid saves to keep
