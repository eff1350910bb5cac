# Saves that survive a power cut: write a temporary file, then rename it over the real one.
import os

GAME = "game.json"
SETTINGS = "settings.json"
TMP = ".tmp"  # NAME.tmp: a save being written
# The largest file that is read back as a save (control/boot.py keeps a larger one aside
# unread). A game's save is 131 bytes + ~9 a turn: 2 KB is a very long game; a match
# holding several games fits many times over. Also the largest save written, so the board
# never writes a save it would refuse at the next power-on.
MAX_SAVE = 16384
_EFBIG = 27  # errno: a save over MAX_SAVE is refused


class Store:
    """Files in one folder (the board's "/", or the simulator's --flash directory).

    A save writes NAME.tmp and renames it over NAME, so at every instant NAME holds a
    whole save and a power cut loses at most the save being written. Where rename does
    not replace a file (FAT) the old one is removed first; until the rename, the complete
    NAME.tmp stands in for it. A write that fails (a full filesystem: OSError ENOSPC)
    leaves NAME as it was and raises (so does a save whose pieces find no room in the heap:
    MemoryError); the caller reports it and goes on. Reading back,
    checking and keeping bad files aside is done at boot (control/boot.py).
    """

    def __init__(self, root="/", opener=open):
        self.root = root
        self.opener = opener  # open(path, mode): tests pass one whose files fill up
        self.writes = 0  # files written, for the measurements
        self.bytes_written = 0
        self._paths = {}  # name: (path, its .tmp path), made once (a save allocates little)

    def path(self, name):
        r = self.root
        return r + name if r.endswith("/") else r + "/" + name

    def _both(self, name):
        p = self._paths.get(name)
        if p is None:
            path = self.path(name)
            p = self._paths[name] = (path, path + TMP)
        return p

    def write(self, name, text):
        """Replaces file `name` by `text` atomically; returns its size. `text` is a str or an
        iterable of small str pieces (the game's save as it makes it): each piece goes to
        the file as it comes, so no string of the whole save is built. OSError (NAME
        unchanged) when it cannot be written whole, or is over MAX_SAVE."""
        tmp = self._both(name)[1]
        n = 0
        try:
            with self.opener(tmp, "w") as f:
                if isinstance(text, str):
                    n = len(text)
                    if n > MAX_SAVE:
                        raise OSError(_EFBIG)
                    f.write(text)
                else:
                    for piece in text:
                        n += len(piece)
                        if n > MAX_SAVE:
                            raise OSError(_EFBIG)
                        f.write(piece)
        except Exception:  # OSError; MemoryError while a piece is made (a full heap)
            _remove(tmp)  # the space it took back; NAME is still the last save
            raise
        self.finish(name)
        self.writes += 1
        self.bytes_written += n
        return n

    def finish(self, name):
        """Puts the complete NAME.tmp in place of NAME (the second half of a save)."""
        path, tmp = self._both(name)
        try:
            os.rename(tmp, path)
        except OSError:  # a file system whose rename does not replace
            _remove(path)
            os.rename(tmp, path)

    def save_game(self, text):
        return self.write(GAME, text)

    def save_settings(self, text):
        return self.write(SETTINGS, text)


def _remove(path):
    try:
        os.remove(path)
    except OSError:
        pass
