# The doubling cube, the offers and the match score on the LEDs, drawn by the renderer.
#
# The cube's rows (hardware/board.json: cube0 on player 0's side, cube1 on player 1's, 6
# LEDs each, growing from the board's left edge as player 0 sees it): a cube of value 2^k
# owned by a player lights k LEDs of that player's row in the player's colour (2 = 1 LED,
# 64 = all 6), so its value is the length of a bar and its side is whose it is, read the
# same from both sides of the table; a centred cube lights the first LED of both rows in
# the cube colour; in the Crawford game both first LEDs are red (no cube this game).
# An offer waiting for its answer blinks in the row of the player who must answer: a double
# as the bar of the cube offered (cube colour), a resignation as 1-3 LEDs (the destination
# colour); that player's turn LED blinks too. "Drop?" (the first NO to a double) lights the
# answerer's whole row red. The cube page (a person choosing an offer) blinks what they
# would offer in the opponent's row, as the opponent will see it.
# Between games of a match to points (game over, or the opening not thrown yet) each tray
# shows its player's score instead of the checkers borne off: one LED a point from the
# board edge (two points a LED, the odd one at half level, in matches over 15 points) and
# the match length as one LED in the cube colour, the goal.
# HINT on a person's cube decision (view.advice, of view.advice_of) takes that person's row
# until the next press, as a checker hint stays: told apart from the offers' blinking bars
# by being steady and dotted (the first, third and fifth LED from the edge). Green (the
# glow colour) says act: double, take, accept; red says do not: no double, drop, reject; too
# good to double (play on for the gammon) is the red dots with green between them.
# Nothing here allocates: the frame is the renderer's (put, segment, seglen).
from kernels.compat import const

from display.palette import E_CUBE, E_DEST, E_ERR, E_FULL, E_HALF, E_OFF, E_YES
from display.view import (
    ADVICE_ACCEPT,
    ADVICE_DOUBLE,
    ADVICE_TAKE,
    ADVICE_TOO_GOOD,
    ASK_ACCEPT,
    ASK_DROP,
    ASK_OFFER,
    ASK_TAKE,
    OFFER_DOUBLE,
)

_SLOT_OFF = const(26)  # + player (renderer's slots)
_SLOT_TURN = const(30)  # + player
_SLOT_CUBE = const(32)  # + player


def _log2(value):
    k = 0
    while value > 1:
        value >>= 1
        k += 1
    return k


def _bar(r, s, n, e):
    """The first `n` LEDs of slot `s` in entry `e`, the rest dark."""
    for i in range(r.seglen(s)):
        r.put(s, i, e if i < n else E_OFF)


def _offered(r, s, kind, value, on):
    """What is offered (or would be), blinking in row `s`."""
    if not on:
        _bar(r, s, 0, E_OFF)
    elif kind == OFFER_DOUBLE:
        _bar(r, s, _log2(value), E_CUBE)
    else:
        _bar(r, s, value, E_DEST)


def _advice(r, s, advice):
    """HINT's advice in row `s`, steady: green dots (act), red dots (do not), red dots with
    green between them (too good: play on)."""
    yes = advice == ADVICE_DOUBLE or advice == ADVICE_TAKE or advice == ADVICE_ACCEPT
    between = E_YES if advice == ADVICE_TOO_GOOD else E_OFF
    for i in range(r.seglen(s)):
        r.put(s, i, (E_YES if yes else E_ERR) if i & 1 == 0 else between)


def cube(r, view, on):
    """The cube's rows (the cube itself only when the game's terms have it; a resignation
    shows without), offers, the answer asked for and HINT's advice; `on` is the blink's
    phase."""
    owner = view.cube_owner
    for p in range(2):
        s = _SLOT_CUBE + p
        if not view.cube_on:
            pass
        elif view.crawford:
            _bar(r, s, 1, E_ERR)
        elif owner < 0:
            _bar(r, s, 1, E_CUBE)
        elif owner == p:
            _bar(r, s, _log2(view.cube), E_FULL + p)
    ask = view.ask
    if ask == ASK_OFFER and view.shown_kind:  # the page: in the opponent's row
        _offered(r, _SLOT_CUBE + 1 - view.ask_of, view.shown_kind, view.shown_value, on)
    elif ask == ASK_TAKE or ask == ASK_ACCEPT or ask == ASK_DROP:
        a = view.ask_of & 1
        if ask == ASK_DROP:
            _bar(r, _SLOT_CUBE + a, 6, E_ERR)
        else:
            _offered(r, _SLOT_CUBE + a, view.offer, view.offer_value, on)
        r.segment(_SLOT_TURN + 1 - a, E_OFF)
        r.segment(_SLOT_TURN + a, E_FULL + a if on else E_OFF)
    if view.advice and view.advice_of >= 0:  # over what the row showed, until the next press
        _advice(r, _SLOT_CUBE + (view.advice_of & 1), view.advice)


def score(r, view):
    """Each tray shows its player's score and the goal (a match to points, between games)."""
    length = view.match_length
    for p in range(2):
        s = _SLOT_OFF + p
        n = r.seglen(s)
        per = 1 if length <= n else 2  # matches are 1-25 points, trays hold 15 LEDs or so
        points = view.score1 if p else view.score0
        if points > length:
            points = length
        full = points // per
        for i in range(n):
            e = E_OFF
            if i < full:
                e = E_FULL + p
            elif i == full and points % per:
                e = E_HALF + p
            elif i == (length + per - 1) // per - 1:
                e = E_CUBE
            r.put(s, i, e)
