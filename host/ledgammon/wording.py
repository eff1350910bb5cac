"""The board's state in words: the status line, the menu's items, the keys' help line.

One place for them, so the terminal view, the snapshot's caption and `ledgammon state` say
the same thing about whose turn it is and what the board is doing when it plays a side.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gammon.notation import format_play, parse_moves

from . import match_words
from .boardinfo import RGB, colour_name

RESULTS = {1: "single game", 2: "gammon", 3: "backgammon"}
# firmware/control/menu.py's ITEMS, in words
MENU_ITEMS = ("new game", "brightness", "autoplay", "physical dice", "colours", "players", "level",
              "match length", "cube", "jacoby rule")
HELP = {"full": "r:roll u:undo h:hint m:menu b:bar o:off ←→/Enter:cursor 7 Enter:p7 n:new q:quit",
        "minimal": "r:roll u:undo h:hint m:menu ←→:cursor Enter:select 7 Enter:point 7 n:new "
                   "q:quit"}
# with the cube in play (a match, or money play with the cube): its keys instead of the cursor's
# and n's (the plain line comes back once the game is over, when n starts the next one)
CUBE_HELP = {"full": "r:roll u:undo h:hint m:menu b:bar o:off 7 Enter:p7 d:double s:resign q:quit",
             "minimal": "r:roll u:undo h:hint m:menu ←→ Enter 7 Enter:point 7 d:double s:resign "
                        "q:quit"}
ANSWER_HELP = {"double": "t:take x:drop · q:quit", "resign": "a:accept j:reject · q:quit"}


def players(state: Mapping[str, Any]) -> tuple[str, str]:
    """Who plays each side, "human" or "board" (the board's `players` setting)."""
    got = (state.get("settings") or {}).get("players")
    if isinstance(got, list | tuple) and len(got) == 2:
        first, second = ("board" if side == "board" else "human" for side in got)
        return first, second
    return ("human", "human")


def played(state: Mapping[str, Any]) -> str:
    """The turn's steps so far as one play in standard notation ("13/7(2) 8/2(2)")."""
    steps = [str(s) for s in state.get("steps") or ()]
    try:
        moves = parse_moves(" ".join(steps))
    except ValueError:  # not notation after all: as the board wrote them
        return " ".join(steps)
    return format_play([(m[0], m[1], bool(m[2])) for m in moves])


def board_doing(state: Mapping[str, Any]) -> str | None:
    """The state's `bot` field in words (what the board is doing on its side); None if idle."""
    bot = state.get("bot")
    if bot == "think":
        return "the board is thinking"
    if bot == "move":
        return "the board plays %s" % played(state) if state.get("steps") else "the board moves"
    if bot == "roll":
        done = state.get("phase") == "done"
        return "the board passes the turn" if done else "the board throws its dice"
    return None


def _board_step(state: Mapping[str, Any]) -> str | None:
    """What the board does when it plays a side; None when a person is to act."""
    doing = board_doing(state)
    if doing:
        return doing
    turn = state.get("turn")
    if state.get("phase") == "done" and turn in (0, 1) and players(state)[int(turn)] == "board":
        return "the board played %s: ROLL for your turn" % played(state)
    return None


def next_step(state: Mapping[str, Any], selected: bool = False, layout: str = "full") -> str:
    """What the player should do now, or what the board is doing, in words."""
    phase = state.get("phase")
    if state.get("menu") is not None:
        i = int(state["menu"])
        item = MENU_ITEMS[i] if 0 <= i < len(MENU_ITEMS) else "item %d" % i
        return "menu: %s (ROLL/UNDO change it, MENU next item)" % item
    if state.get("entering") is not None:
        how = "LEFT/RIGHT then SELECT" if layout == "minimal" else "press your point 1-6"
        return "enter die %d: %s" % (len(state["entering"]) + 1, how)
    ask = match_words.asked(state, lambda p: _who(state, p))
    if ask:
        return ask
    board = _board_step(state)
    if board:
        return board
    if phase == "opening":
        return "opening roll: press ROLL"
    if phase == "roll":
        if state.get("may_double"):
            return "roll, or double to %d" % (2 * match_words.cube_value(state))
        return "roll"
    if phase == "move":
        return "select a destination" if selected else "select a checker"
    if phase == "done":
        return "press ROLL to pass the turn (UNDO takes back)"
    if phase == "over":
        return over_words(state)
    return "waiting for the board"


def over_words(state: Mapping[str, Any]) -> str:
    """"game over: gammon, player 0 wins 2 points", "game over: player 1 dropped, player 0
    wins 4 points", with "match over: ..." once the match is."""
    winner = state.get("winner")
    won, how = match_words.game_points(state)
    if how:
        what = "player %s %s" % (1 - int(winner) if winner in (0, 1) else "?", how)
    else:
        what = RESULTS.get(int(state.get("result") or 1), "game")
    text = "game over: %s, player %s%s wins %s" % (what, winner, _who(state, winner),
                                                  match_words.points(won))
    final = match_words.match_over(state)
    return text + "; " + final if final else text


def _who(state: Mapping[str, Any], player: Any) -> str:
    """" (the board)" or " (you)" for `player` in a game against the board, else ""."""
    sides = players(state)
    if sides.count("board") != 1 or player not in (0, 1):
        return ""
    return " (the board)" if sides[int(player)] == "board" else " (you)"


def status_line(state: Mapping[str, Any] | None, colours: list[RGB], selected: bool = False,
                layout: str = "full") -> str:
    """"Player 1 (red): roll · dice 5-3 · pips 0:167 1:160" and the like; in a game
    against the board "Player 0 (white), your turn: roll" or "...: the board is thinking"."""
    if not state:
        return "connecting to the board..."
    selected = selected or state.get("selected", -1) not in (None, -1)
    what = next_step(state, selected, layout)
    parts = [what]
    if state.get("phase") in ("roll", "move", "done") and not state.get("offer"):
        t = int(state.get("turn") or 0)
        yours = _who(state, t) == " (you)" and state.get("menu") is None
        parts = ["Player %d (%s)%s: %s" % (t, colour_name(colours[t]),
                                           ", your turn" if yours else "", what)]
    dice = state.get("dice")
    if dice and state.get("phase") in ("move", "done"):
        parts.append("dice %d-%d" % (dice[0], dice[1]))
    pips = state.get("pips")
    pending = match_words.pending_terms(state)
    if pending:  # in the pips' place (the panel shows them): the money total is to reset
        parts.append(pending)
    elif pips:
        parts.append("pips 0:%d 1:%d" % (pips[0], pips[1]))
    return " · ".join(parts)


def help_line(interactive: bool, layout: str, state: Mapping[str, Any] | None = None) -> str:
    """The keys of `ledgammon play` for the board's button layout and the moment (an offer
    to answer, the cube in play), or watch mode's one key."""
    if not interactive:
        return "watching (read only) · q quits"
    offer = (state or {}).get("offer")
    if isinstance(offer, Mapping) and offer.get("kind") in ANSWER_HELP:
        return ANSWER_HELP[str(offer["kind"])]
    if state and match_words.cube_play(state) and state.get("phase") != "over":
        return CUBE_HELP.get(layout, CUBE_HELP["full"])
    return HELP.get(layout, HELP["full"])
