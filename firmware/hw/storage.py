# Saves that survive a power cut: write a temporary file, then rename it over the real one.
import os

GAME = "game.json"
SETTINGS = "settings.json"
TMP = ".tmp"  # NAME.tmp: a save being written


class Store:
    """Files in one folder (the board's "/", or the simulator's --flash directory).

    A save writes NAME.tmp and renames it over NAME, so at every instant NAME holds a
    whole save and a power cut loses at most the save being written. Where rename does
    not replace a file (FAT) the old one is removed first; until the rename, the complete
    NAME.tmp stands in for it. Reading back, checking and keeping bad files aside is done
    at boot (control/boot.py: `read`, `quarantine`).
    """

    def __init__(self, root="/"):
        self.root = root
        self.writes = 0  # files written, for the measurements
        self.bytes_written = 0

    def path(self, name):
        r = self.root
        return r + name if r.endswith("/") else r + "/" + name

    def write(self, name, text):
        """Replaces file `name` by `text` (a str, or str pieces) atomically; returns its size."""
        path = self.path(name)
        n = 0
        with open(path + TMP, "w") as f:
            if isinstance(text, str):
                text = (text,)
            for piece in text:
                f.write(piece)
                n += len(piece)
        try:
            os.rename(path + TMP, path)
        except OSError:  # a file system whose rename does not replace
            try:
                os.remove(path)
            except OSError:
                pass
            os.rename(path + TMP, path)
        self.writes += 1
        self.bytes_written += n
        return n

    def save_game(self, text):
        return self.write(GAME, text)

    def save_settings(self, text):
        return self.write(SETTINGS, text)
