# The board's cube and resignation decisions in a game: the network's cubeless probabilities
# of the position (one evaluation, ~10 us on the unix port) through gammon/cube.py at the
# match's terms. Loaded with the board's player only when cube play is on.
#
# API (control/autoplay.py, control/hint.py, bench/strength): `net` a kernels.net.Net,
# `position` a gammon.Position seen by the player on roll (Game.position), `match` a
# gammon.match.Match, `player` the player on roll (0 or 1), `level` "strong" or "easy".
#   decide(net, position, match, player, level) -> None, "double" or ("resign", value): what
#       the player on roll does before its throw
#   answer(net, position, match, player, level) -> "take"/"drop" or "accept"/"reject": the
#       answer of the other player to the offer on the table
#   advice(net, position, match, player) -> dict for HINT: the strong level's choice
#       ("action"), the equities behind it and their units ("equity": money, per cube unit,
#       or "mwc": match winning chance), both in thousandths
# The strong level's money doubles and takes are gammon/cube_money.py's (Keith's count in a
# race, margins fitted to gnubg with contact, one for each network), its match decisions
# gammon/cube.py's. The easy level's doubles are gammon/cube_easy.py's (the same rules with
# blunter margins: it doubles late), loaded only when that level decides; its takes and
# resignations are the strong level's.
from gammon import cube, cube_money
from gammon.match import DOUBLE, RESIGN


def _view(net, position, match, player):
    """(p, terms, x, race, board) of the player on roll; in a race p is made sure
    (cube.sure)."""
    b = position.key()
    net.equity(b, 0)
    p = net.probabilities()
    race = not cube.contact(b)
    if race:
        p = cube.sure(p, b)
    return p, cube.terms(match, player), cube.efficiency(b), race, b


def _doubles(p, t, x, b, net):
    """The strong level's double: cube_money's in money play (at the margin of `net`, the
    network the chances come from), cube.py's in a match."""
    if t.length:
        return cube.action(p, t, x) == cube.DOUBLE
    return cube_money.doubles(p, t, x, b, cube_money.network_margin(net.hidden))


def _takes(p, t, x, b):
    """The strong level's take (p, t and x the doubler's): as _doubles."""
    if t.length:
        return cube.takes(p, t, x)
    return cube_money.takes(p, t, x, b)


def decide(net, position, match, player, level="strong"):
    """None (throw), "double", or ("resign", value) for `player` on roll before its throw."""
    p, t, x, race, b = _view(net, position, match, player)
    value = cube.resign_value(p, t, race)
    if value and value > match.declined:
        return ("resign", value)
    if not match.may_double(player) or not cube.may_double(t):
        return None
    if level == "easy":
        from gammon import cube_easy

        return "double" if cube_easy.doubles(p, t, x, b) else None
    return "double" if _doubles(p, t, x, b, net) else None


def answer(net, position, match, player, level="strong"):
    """The answer to the offer made by `player` (on roll): "take" or "drop" to a double,
    "accept" or "reject" to a resignation (the same at both levels)."""
    p, t, x, race, b = _view(net, position, match, player)
    if match.offer == RESIGN:
        return "accept" if cube.accepts(p, t, x, match.offer_value) else "reject"
    # the doubler's terms before its cube is turned, as cube.takes wants them
    return "take" if _takes(p, t, x, b) else "drop"


def advice(net, position, match, player):
    """HINT on a cube decision of either side: see the module's comment."""
    p, t, x, race, b = _view(net, position, match, player)
    nd, dt, dp = cube.equities(p, t, x)
    offer = match.offer
    if offer == RESIGN:
        action = "accept" if cube.accepts(p, t, x, match.offer_value) else "reject"
    elif offer == DOUBLE:
        action = "take" if _takes(p, t, x, b) else "drop"
    else:
        act = cube.NO_DOUBLE
        if match.may_double(player):
            act = cube.action(p, t, x)  # (too good stays too good)
            if _doubles(p, t, x, b, net):
                act = cube.DOUBLE
            elif act == cube.DOUBLE:
                act = cube.NO_DOUBLE
        action = ("no double", "double", "too good")[act]
    if t.length:
        one = cube.M
        units = "mwc"
    else:
        one = cube.P
        units = "equity"
    return {
        "action": action,
        "units": units,
        "no_double": nd * 1000 // one,
        "double_take": dt * 1000 // one,
        "double_pass": dp * 1000 // one,
        "win": p[0] * 1000 // cube.P,
    }
