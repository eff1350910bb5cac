"""The board's state in words: the status line, the menu's items, the keys' help line.

One place for them, so the terminal view, the snapshot's caption and `ledgammon state` say
the same thing about whose turn it is and what the board is doing when it plays a side.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gammon.notation import format_play, parse_moves

from .boardinfo import RGB, colour_name

RESULTS = {1: "single game", 2: "gammon", 3: "backgammon"}
# firmware/control/menu.py's ITEMS, in words
MENU_ITEMS = ("new game", "brightness", "autoplay", "physical dice", "colours", "players", "level",
              "match length", "cube", "jacoby rule")
HELP = {"full": "r:roll u:undo h:hint m:menu b:bar o:off ←→/Enter:cursor 7 Enter:p7 n:new q:quit",
        "minimal": "r:roll u:undo h:hint m:menu ←→:cursor Enter:select 7 Enter:point 7 n:new "
                   "q:quit"}


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
    board = _board_step(state)
    if board:
        return board
    if phase == "opening":
        return "opening roll: press ROLL"
    if phase == "roll":
        return "roll"
    if phase == "move":
        return "select a destination" if selected else "select a checker"
    if phase == "done":
        return "press ROLL to pass the turn (UNDO takes back)"
    if phase == "over":
        result = int(state.get("result") or 1)
        points = result * int(state.get("cube") or 1)
        return "game over: %s, player %s%s wins %d point%s" % (
            RESULTS.get(result, "game"), state.get("winner"), _who(state, state.get("winner")),
            points, "" if points == 1 else "s")
    return "waiting for the board"


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
    if state.get("phase") in ("roll", "move", "done"):
        t = int(state.get("turn") or 0)
        yours = _who(state, t) == " (you)" and state.get("menu") is None
        parts = ["Player %d (%s)%s: %s" % (t, colour_name(colours[t]),
                                           ", your turn" if yours else "", what)]
    dice = state.get("dice")
    if dice and state.get("phase") in ("move", "done"):
        parts.append("dice %d-%d" % (dice[0], dice[1]))
    pips = state.get("pips")
    if pips:
        parts.append("pips 0:%d 1:%d" % (pips[0], pips[1]))
    return " · ".join(parts)


def help_line(interactive: bool, layout: str) -> str:
    """The keys of `ledgammon play` for the board's button layout, or watch mode's one key."""
    if not interactive:
        return "watching (read only) · q quits"
    return HELP.get(layout, HELP["full"])
