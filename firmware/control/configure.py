# Settings' changes, from the MENU or `config` alike: checked, saved and announced. Apart
# from menu.py so that a `config` request does not load the menu (heap).
from model.settings import check

from control.errors import err, report


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
        return False, err("bad_args", str(exc)[:80])
    for key, value in changes:
        s.set(key, value)
    save_settings(ctl)
    d = s.as_dict()
    ctl.emit({"event": "config", "settings": d})
    return True, {"settings": d}


def next_terms(ctl):
    """The match's terms set (match_length, cube, jacoby) when the game does not play them
    yet: {"match_length", "cube", "jacoby", "from": "next game" (the next `new` starts a
    new match or money session with them, its score at 0-0: money play's running total
    starts again) or "next match" (a match to points under way keeps its terms to its
    end), "score": the score now, which the new terms start again at 0-0}; None when they
    are the game's (model/matchplay.following decides it)."""
    s = ctl.settings
    g = ctl.game
    t = g.terms
    if s.match_length == t[0] and s.cube == t[1] and s.jacoby == t[2]:
        return None
    mp = g.mp
    later = mp is not None and mp.under_way(g.phase)
    return {"match_length": s.match_length, "cube": s.cube, "jacoby": s.jacoby,
            "from": "next match" if later else "next game",
            "score": list(mp.match.score if mp else g.plain)}


def save_settings(ctl):
    """Saves the settings; a flash that fails, or a heap with no room for their text, is
    an error event and the change stands until the board restarts (never an exception: this
    runs when the board's player fails for want of memory, sides.failed)."""
    try:
        ctl.store.save_settings(ctl.settings.to_json())
    except (OSError, MemoryError) as exc:
        report(ctl.emit, "storage", exc)
