# A setting's change, from the MENU or `config` alike: checked, saved and announced. Apart
# from menu.py so that a `config` request does not load the menu (heap).
from control.errors import err, report


def configure(ctl, key, value):
    """Sets, saves and announces one setting: (True, {"settings"}) or (False, bad_args),
    nothing changed. Controller.configure keeps what follows from it."""
    try:
        ctl.settings.set(key, value)
    except ValueError as exc:
        return False, err("bad_args", str(exc))
    save_settings(ctl)
    d = ctl.settings.as_dict()
    ctl.emit({"event": "config", "settings": d})
    return True, {"settings": d}


def save_settings(ctl):
    """Saves the settings; a flash that fails, or a heap with no room for their text, is
    an error event and the change stands until the board restarts (never an exception: this
    runs when the board's player fails for want of memory, sides.failed)."""
    try:
        ctl.store.save_settings(ctl.settings.to_json())
    except (OSError, MemoryError) as exc:
        report(ctl.emit, "storage", exc)
