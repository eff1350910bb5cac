# Power-on: the controller with the settings and the game read back from flash. Whatever the
# flash holds, the board starts, with every save it can trust; the rest is kept aside and
# reported. Needed only at boot (app.build): it drops itself and its loader afterwards.
#
# Which save wins. A save writes NAME.tmp whole, then renames it over NAME (hw/storage.py),
# so NAME.tmp exists only from the start of a save to its rename: it is always newer than
# the NAME beside it.
# - NAME.tmp a valid save (complete: a JSON text cut short never parses, and it is replayed
#   and checked like any save): the cut fell after it was written and before the rename
#   (or, on FAT, after NAME was removed). It is the newest state: it wins and the rename is
#   finished. NAME, older, is replaced.
# - NAME.tmp anything else: a save cut while being written. NAME, the last save finished,
#   wins, and the tmp is removed (kept aside as NAME.bad when there is no NAME).
# So the newest valid state always wins and a valid NAME is only ever replaced by a newer
# valid save. A file that cannot be trusted (a directory or other non-file; over MAX_SAVE by
# os.stat, judged before reading; unreadable; not ASCII or holding an escape (savefile.py);
# not a consistent save; any exception in reading or checking it, MemoryError included) is
# kept aside as NAME.bad, replacing an older one, and reported (`boot_error`, `view.error`,
# an `error` event).
import gc
import os

from hw.storage import GAME, MAX_SAVE, SETTINGS, TMP
from kernels.compat import MICROPY, unload
from model.game import Game
from model.settings import DEFAULT_LEVELS, Settings

from control.controller import Controller

_S_IFMT = 0xF000  # os.stat mode: the kind of file
_S_IFREG = 0x8000  # a regular file
_MESSAGE = 100  # characters of a reason reported


def boot(
    store, dice, layout="full", emit=None, now_ms=0, levels=DEFAULT_LEVELS, pace_ms=700,
    collector=None,
):
    """The controller at power-on: settings and game from `store`, a corrupt save kept
    aside (reported in `boot_error`, `view.error` and an `error` event), never failing;
    `pace_ms` and `collector` go to the Controller."""
    more = (pace_ms, collector)
    settings = Settings(levels)
    unload("control.boot")  # the caller's reference keeps it alive until boot returns
    if not _saved(store):  # a new board: nothing to read back (the loader stays unloaded)
        return Controller(Game(), settings, store, dice, layout, emit, now_ms, *more)
    from model import savefile

    try:
        return _restore(store, dice, layout, emit, now_ms, settings, savefile, more)
    finally:  # needed only now: it leaves the heap again
        unload("model.savefile")
        unload("model.savecheck")
        unload("model.savematch")  # read a match's save (the match itself: model.matchplay)


def _restore(store, dice, layout, emit, now_ms, settings, savefile, more):
    problems = []

    def load_settings(data):
        savefile.load_settings(settings, data)
        return settings

    newest(store, SETTINGS, load_settings, problems)
    game = newest(store, GAME, lambda data: savefile.load(Game, data), problems)
    ctl = Controller(game or Game(), settings, store, dice, layout, emit, now_ms, *more)
    if problems:
        ctl.boot_failed("; ".join(problems), now_ms)
    return ctl


def newest(store, name, load, problems):
    """The newest valid save of file `name`, loaded by `load(bytes)` (None: none); what
    is not trusted is kept aside or removed, with a line each in `problems`."""
    path = store.path(name)
    value, tmp_problem = read(path + TMP, load)
    if value is not None:
        try:
            store.finish(name)
        except OSError:  # something NAME cannot be replaced by a file: a directory
            problems.append(keep_aside(store, name, path, "in the way of " + name + TMP))
            try:
                store.finish(name)
            except OSError:  # the tmp stays: the next boot takes it again
                pass
        return value
    value, problem = read(path, load)
    if problem is not None:
        problems.append(keep_aside(store, name, path, problem))
    if tmp_problem is not None:
        if value is None and problem is None:  # no NAME: the tmp was all there was
            problems.append(keep_aside(store, name, path + TMP, tmp_problem))
        elif not _gone(path + TMP):  # an unfinished save, normally just removed
            problems.append(keep_aside(store, name, path + TMP, tmp_problem))
    return value


def read(path, load):
    """(load(content), None) for the file at `path`; (None, None) when there is none;
    (None, why) when it cannot be trusted. Never reads more than MAX_SAVE bytes."""
    try:
        st = os.stat(path)
    except OSError:
        return None, None
    try:
        if st[0] & _S_IFMT != _S_IFREG:
            return None, "not a file"
        size = st[6]
        if size > MAX_SAVE:
            return None, "%d bytes, larger than any save (%d)" % (size, MAX_SAVE)
        if MICROPY:  # the piece read is the largest block boot asks for (CPython: no need)
            gc.collect()
        with open(path, "rb") as f:
            data = f.read(size + 1)  # one bounded piece: the size the file had
        if len(data) > size:
            return None, "longer than its size"
        return load(data), None
    except Exception as exc:  # MemoryError too: whatever the file, the board boots
        data = None
        why = str(exc) if isinstance(exc, ValueError) else repr(exc)
        return None, why[:_MESSAGE]


def keep_aside(store, name, path, why):
    """Moves the file (or directory) at `path` to NAME.bad, replacing an older one, or
    removes it when that fails; returns the line reported."""
    label = path[path.rfind("/") + 1 :]
    bad = name[: name.rfind(".")] + ".bad"
    _gone(store.path(bad))
    try:
        os.rename(path, store.path(bad))
        return "%s kept as %s: %s" % (label, bad, why)
    except OSError:
        pass
    if _gone(path):
        return "%s removed: %s" % (label, why)
    return "%s cannot be moved: %s" % (label, why)


def _saved(store):
    """Whether `store` holds a game or settings, finished or half-saved."""
    for name in (GAME, SETTINGS, GAME + TMP, SETTINGS + TMP):
        if _exists(store.path(name)):
            return True
    return False


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def _gone(path):
    """Removes the file or empty directory at `path`; whether nothing is left there."""
    try:
        os.remove(path)
    except OSError:
        try:
            os.rmdir(path)
        except OSError:
            pass
    return not _exists(path)
