# Settings' changes, from the MENU or `config` alike: checked, saved and announced. Apart
# from menu.py so that a `config` request does not load the menu (heap).
from control.errors import err, report
from model.settings import check


def configure(ctl, key, value):
    """Sets, saves and announces one setting: (True, {"settings"}) or (False, bad_args),
    nothing changed. Controller.configure keeps what follows from it."""
    return configure_all(ctl, ((key, value),))


def configure_all(ctl, changes):
    """Sets the settings of `changes` ((key, value) pairs, each checked before: a `config`
    request's), saves them once and announces them in one `config` event, however many
    they are (an event a setting overran the writer's room for events while the host read
    them: issue 28): (True, {"settings"}), or (False, bad_args) with nothing changed.
    The caller then runs Controller.settings_changed once."""
    s = ctl.settings
    try:
        for key, value in changes:  # all checked before any is set: all or none
            check(key, value)
    except ValueError as exc:
        return False, err("bad_args", str(exc))
    for key, value in changes:
        s.set(key, value)
    save_settings(ctl)
    d = s.as_dict()
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
