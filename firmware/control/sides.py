# Who plays each side: the board's own player (control/autoplay.py, with its weights) is made
# when a side becomes the board's and dropped when none is; one that cannot be made (no
# memory left for its code, no weights) gives the sides back to people and says why, rather
# than leave a side nobody plays. Loaded only when the board is to play a side (heap).
from model.settings import PLAYER_MODES

from control.errors import report


def player(ctl):
    """The board's player that ctl.settings.players call for: ctl.bot kept, a new one, or
    None (its modules and weights dropped). The controller keeps it (Controller.bot)."""
    if "board" not in ctl.settings.players:
        if ctl.bot is not None:
            from control import autoplay

            autoplay.unload()
        return None
    if ctl.bot is not None:
        return ctl.bot
    try:  # its code too may find no room
        from control import autoplay

        return autoplay.Bot()
    except Exception as exc:  # MemoryError above all; the board must go on
        ctl.settings.set("players", PLAYER_MODES[0])  # (the controller lights view.error 2)
        message = "the board cannot play a side: %r" % (exc,)
        report(ctl.emit, "no_player", message)
        from control.configure import save_settings

        save_settings(ctl)  # as people: the next boot does not try again
        return None


def failed(ctl, side, message, now_ms):
    """The board's player failed while playing `side` (a bug, no memory): said plainly (a
    `no_player` event, view.error 2) and the side is a person's again."""
    report(ctl.emit, "no_player", message)
    try:
        players = list(ctl.settings.players)
        players[side] = "human"
        ctl.configure("players", players, now_ms)
    except MemoryError:  # no room left to save or announce it: a person's side all the same
        ctl.settings.players[side] = "human"  # (a list of its own: no allocation)
        try:
            ctl.settings_changed(now_ms)
        except MemoryError:  # nor for the view's refresh: the next press redraws it
            pass
