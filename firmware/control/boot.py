# Power-on: the controller with the settings and the game read back from flash; a corrupt
# save kept aside and reported, never a failure to start. Needed only at boot (app.build).
import os

from hw.storage import GAME, SETTINGS, TMP
from model.game import Game
from model.settings import DEFAULT_LEVELS, Settings

from control.controller import Controller


def boot(store, dice, layout="full", emit=None, now_ms=0, levels=DEFAULT_LEVELS):
    """The controller at power-on: settings and game from `store`, a corrupt save kept
    aside (reported in `boot_error`, `view.error` and an `error` event), never failing."""
    settings = Settings(levels)
    if not _saved(store):  # a new board: nothing to read back (the loader stays unloaded)
        return Controller(Game(), settings, store, dice, layout, emit, now_ms)
    import sys

    from kernels.compat import unload
    from model import savefile

    loaded = "control.menu" in sys.modules  # settings are checked by the menu's rules
    try:
        return _restore(store, dice, layout, emit, now_ms, settings, savefile)
    finally:  # needed only now: they leave the heap again
        unload("model.savefile")
        if not loaded:
            unload("control.menu")


def _restore(store, dice, layout, emit, now_ms, settings, savefile):
    problems = []
    text, from_tmp = read(store, SETTINGS)
    if text is not None:
        try:
            savefile.load_settings(settings, text)
        except ValueError as exc:
            kept = quarantine(store, SETTINGS, from_tmp)
            problems.append("%s kept as %s: %s" % (SETTINGS, kept, exc))
    game = None
    text, from_tmp = read(store, GAME)
    if text is not None:
        try:
            game = savefile.load(Game, text)
            if from_tmp:  # the cut fell inside the rename: finish it
                store.save_game(text)
        except (ValueError, OSError) as exc:
            kept = quarantine(store, GAME, from_tmp)
            problems.append("%s kept as %s: %s" % (GAME, kept, exc))
    ctl = Controller(game or Game(), settings, store, dice, layout, emit, now_ms)
    if problems:
        ctl.boot_error = "; ".join(problems)
        ctl.view.error = 1
        ctl.emit({"event": "error", "code": "bad_save", "message": ctl.boot_error})
        ctl.refresh(now_ms)
    return ctl


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


def _remove(path):
    try:
        os.remove(path)
    except OSError:
        pass


def _read(path):
    """The text of a file; None when there is none, "" when it cannot be read."""
    try:
        with open(path) as f:
            return f.read()
    except (OSError, ValueError):  # UnicodeError is a ValueError
        return "" if _exists(path) else None


def read(store, name):
    """(text, from_tmp) of file `name`; (None, False) when there is none.

    NAME.tmp is used only when NAME is missing: the cut fell between removing the old
    file and renaming the new one (the caller checks its content). A NAME.tmp beside
    NAME is an unfinished save and is deleted.
    """
    path = store.path(name)
    text = _read(path)
    if text is not None:
        if _exists(path + TMP):
            _remove(path + TMP)
        return text, False
    text = _read(path + TMP)
    return (text, True) if text is not None else (None, False)


def quarantine(store, name, from_tmp=False):
    """Keeps a bad file aside as NAME.bad (replacing an older one); returns that name."""
    path = store.path(name)
    bad = name[: name.rfind(".")] + ".bad"
    _remove(store.path(bad))
    try:
        os.rename(path + TMP if from_tmp else path, store.path(bad))
    except OSError:
        _remove(path + TMP if from_tmp else path)
    return bad
