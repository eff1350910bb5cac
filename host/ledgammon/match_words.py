"""The cube, the offer on the table and the match score in words, from a `state` reply.

The terminal view's status line and panel, the snapshot's caption and `ledgammon state`
all say from here what is being asked and of whom (a double to take or drop, a resignation
to accept or reject), where the cube stands and the score of the match, so they agree.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gammon.matchid import decode

RESIGN_AS = {1: "a single game", 2: "a gammon", 3: "a backgammon"}
HOW = {2: "", 3: "resigned", 4: "dropped"}  # the Match ID's game state once a game is over


def points(n: int) -> str:
    return "%d point%s" % (n, "" if n == 1 else "s")


def cube_play(state: Mapping[str, Any]) -> bool:
    """Whether the cube and the score count: a match, or money play with the cube."""
    return bool(state.get("match_length")) or bool(state.get("cube_on"))


def cube_value(state: Mapping[str, Any]) -> int:
    cube = state.get("cube") or 1
    if isinstance(cube, Mapping):  # a board may report the cube as {"value", "owner"}
        cube = cube.get("value") or 1
    return int(cube)


def cube_owner(state: Mapping[str, Any]) -> int:
    """0 or 1, or -1 while the cube is in the middle."""
    cube = state.get("cube")
    owner = cube.get("owner") if isinstance(cube, Mapping) else state.get("cube_owner")
    return int(owner) if owner in (0, 1) else -1


def _decoded(state: Mapping[str, Any]) -> dict[str, Any]:
    try:
        return decode(state.get("match_id"))
    except ValueError:
        return {}


def asked(state: Mapping[str, Any], who: Any = None) -> str | None:
    """What is being asked and of whom, or None when nothing is offered. `who(player)` adds
    " (you)" or " (the board)" in a game against the board."""
    offer = state.get("offer")
    if not isinstance(offer, Mapping) or offer.get("by") not in (0, 1):
        return None
    by = int(offer["by"])
    to, value = 1 - by, int(offer.get("value") or 0)

    def name(p: int) -> str:
        return "player %d%s" % (p, who(p) if who else "")

    if offer.get("kind") == "double":
        return "%s doubles to %d: %s, take or drop?" % (name(by), value, name(to))
    worth = points(value * cube_value(state))
    return "%s resigns %s (%s): %s, accept or reject?" % (
        name(by), RESIGN_AS.get(value, "the game"), worth, name(to))


def cube_words(state: Mapping[str, Any]) -> str:
    """"cube 2, player 1's" or "cube 1, in the middle"; "" when the cube is not played."""
    if not cube_play(state):
        return ""
    if state.get("cube_on") is False:
        return "no cube"
    owner = cube_owner(state)
    where = "in the middle" if owner < 0 else "player %d's" % owner
    return "cube %d, %s" % (cube_value(state), where)


def score_words(state: Mapping[str, Any]) -> str:
    """"match to 5: 2-1, Crawford game", "money: 3-1"; "" for cubeless money play."""
    score = state.get("score") or (0, 0)
    length = int(state.get("match_length") or 0)
    if not length:
        return "money: %d-%d" % (score[0], score[1]) if cube_play(state) else ""
    text = "match to %d: %d-%d" % (length, score[0], score[1])
    if state.get("match_over"):
        return text + ", over"
    if state.get("crawford"):  # once a game is over, it says of the next one
        return text + (", next the Crawford game" if state.get("phase") == "over"
                       else ", Crawford game")
    return text


def game_points(state: Mapping[str, Any]) -> tuple[int, str]:
    """What the winner of a finished game scored, and how it ended ("", "dropped",
    "resigned"), from the state's own `points` or its Match ID and result."""
    d = _decoded(state)
    how = HOW.get(int(d.get("state") or 2), "")
    cube = cube_value(state)
    if isinstance(state.get("points"), int):
        return int(state["points"]), how
    if how == "dropped":
        return cube, how
    if how == "resigned" and d.get("resigned"):
        return int(d["resigned"]) * cube, how
    result = int(state.get("result") or 1)
    money_jacoby = not state.get("match_length") and state.get("jacoby") and cube == 1
    return (1 if money_jacoby and state.get("cube_on") else result) * cube, how


def match_over(state: Mapping[str, Any]) -> str:
    """"match over: player 0 wins 5-2" once it is; else ""."""
    if not state.get("match_over") or state.get("match_winner") not in (0, 1):
        return ""
    score = state.get("score") or (0, 0)
    return "match over: player %d wins %d-%d" % (state["match_winner"], score[0], score[1])


def event_words(ev: Mapping[str, Any]) -> str:
    """A line for a cube, resignation or game-over event; "" for the others."""
    kind, by = ev.get("event"), ev.get("by")
    if kind == "double":
        return "Player %s doubles to %s" % (by, ev.get("cube"))
    if kind == "take":
        return "Player %s takes: the cube is at %s" % (by, ev.get("cube"))
    if kind == "drop":
        return "Player %s drops: player %s wins %s" % (by, ev.get("winner"),
                                                       points(int(ev.get("points") or 1)))
    if kind == "resign":
        return "Player %s resigns %s" % (by, RESIGN_AS.get(int(ev.get("value") or 1), "?"))
    if kind == "accept":
        return "Player %s accepts: player %s wins %s" % (by, ev.get("winner"),
                                                         points(int(ev.get("points") or 1)))
    if kind == "reject":
        return "Player %s rejects the resignation: play on" % by
    if kind == "over" and "points" in ev:
        score = ev.get("score") or (0, 0)
        tail = ", the match" if ev.get("match_over") else ""
        return "Player %s wins %s%s (%s-%s)" % (ev.get("winner"), points(int(ev["points"])),
                                                tail, score[0], score[1])
    return ""


ADVICE_AS = {"too good": "too good, play on"}  # HINT's cube actions, where words say more


def advice_words(advice: Mapping[str, Any], short: bool = False) -> str:
    """HINT's advice on a cube decision (the `hint` reply's "cube"): the action, then the
    equities behind it, which are those of the player on roll (the doubler or the resigner:
    money play's equity a cube, a match's winning chance). `short` fits the terminal's
    message line: "drop · player 0's ND +0.998 DT +3.364 DP +1.000, wins 99.8%"."""
    action = str(advice.get("action"))
    action = ADVICE_AS.get(action, action)
    player = int(advice.get("player") or 0)
    roller = player if advice.get("kind") == "double" else 1 - player
    match = advice.get("units") == "mwc"

    def fig(key: str) -> str:
        n = int(advice.get(key) or 0)
        return "%.1f%%" % (n / 10) if match else "%+.3f" % (n / 1000)

    figs = [fig(k) for k in ("no_double", "double_take", "double_pass")]
    wins = "%.1f%%" % (int(advice.get("win") or 0) / 10)
    nd, dt, dp = figs
    if short:
        return "%s · player %d's ND %s DT %s DP %s, wins %s" % (action, roller, nd, dt, dp, wins)
    what = "match winning chance" if match else "equity a cube"
    return "player %d: %s (player %d on roll, %s: no double %s, double/take %s, double/pass" \
        " %s; wins %s)" % (player, action, roller, what, nd, dt, dp, wins)


def terms_words(terms: Mapping[str, Any]) -> str:
    """"a 5-point match, cube on" / "money play, cube on, Jacoby off" of a terms mapping."""
    length = int(terms.get("match_length") or 0)
    cube = bool(terms.get("cube", terms.get("cube_on")))
    words = ["a %d-point match" % length if length else "money play",
             "cube on" if cube else "cube off"]
    if not length and cube:
        words.append("Jacoby on" if terms.get("jacoby") else "Jacoby off")
    return ", ".join(words)


def next_terms_words(next_terms: Mapping[str, Any] | None) -> str | None:
    """What `config`'s `next_terms` means for the user: when the new terms start, and that
    the score (money play's running total) then starts again at 0-0; None when none wait."""
    if not next_terms:
        return None
    score = next_terms.get("score")
    when = "after this match" if next_terms.get("from") == "next match" else "from the next game"
    total = ""
    if isinstance(score, (list, tuple)) and len(score) == 2 and any(score):
        total = " (now %s-%s)" % (score[0], score[1])
    return "%s %s: the score then starts again at 0-0%s" % (
        terms_words(next_terms), when, total)


def pending_terms(state: Mapping[str, Any]) -> str | None:
    """The status line's short note when the settings' terms are not the game's (state's
    `settings` against its `match_length`, `cube_on`, `jacoby`): the next game (or, in a
    match under way, the next match) starts them at a score of 0-0."""
    s = state.get("settings")
    if not isinstance(s, Mapping) or "match_length" not in state:
        return None
    keys = (("match_length", "match_length"), ("cube", "cube_on"), ("jacoby", "jacoby"))
    if all(s.get(a) == state.get(b) for a, b in keys):
        return None
    in_match = bool(state.get("match_length")) and not state.get("match_over")
    return "new terms %s: score to 0-0" % ("after this match" if in_match else "next game")
