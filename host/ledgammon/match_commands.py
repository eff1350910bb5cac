"""The `ledgammon` commands of the cube and the match: double, take, drop, resign, accept,
reject, and `export`, the whole match as a .mat file with the IDs of the position now.

Each acts for the player whose decision it is (the board knows whose), and then says how
the game stands; --json prints the board's raw reply instead. A refusal (the wrong moment,
a side the board plays, cube play off) is the board's error, exit code 5.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from typing import Any

from .commands import ask, connect, describe, dice_text, request, write_file
from .errors import LedgammonError
from .match_words import RESIGN_AS, points
from .wording import RESULTS

RESIGN_VALUES = {"1": 1, "single": 1, "2": 2, "gammon": 2, "3": 3, "backgammon": 3}


def _act(args: argparse.Namespace, cmd: str, **req: Any) -> int:
    """One cube or resignation request, then the state in one line (or the raw reply)."""
    with connect(args) as client:
        reply = ask(client, args, cmd, **req)
        if args.json:
            print(json.dumps(reply))
        else:
            print(describe(client.state()))
    return 0


def resign_value(text: str) -> int:
    """1, 2 or 3 from "1".."3" or single/gammon/backgammon; LedgammonError otherwise."""
    value = RESIGN_VALUES.get(str(text).strip().lower())
    if value is None:
        raise LedgammonError(
            "resign takes 1 (single game), 2 (gammon) or 3 (backgammon), not %r" % text)
    return value


def cmd_double(args: argparse.Namespace) -> int:
    return _act(args, "double")


def cmd_take(args: argparse.Namespace) -> int:
    return _act(args, "take")


def cmd_drop(args: argparse.Namespace) -> int:
    return _act(args, "drop")


def cmd_resign(args: argparse.Namespace) -> int:
    return _act(args, "resign", value=resign_value(args.value))


def cmd_accept(args: argparse.Namespace) -> int:
    return _act(args, "accept")


def cmd_reject(args: argparse.Namespace) -> int:
    return _act(args, "reject")


_ACTS = {"double": "doubles", "take": "takes", "drop": "drops", "accept": "accepts",
         "reject": "rejects the resignation"}


def _action(a: Mapping[str, Any]) -> str:
    kind = str(a.get("action"))
    if kind == "resign":
        return "player %s resigns %s" % (a.get("player"),
                                         RESIGN_AS.get(int(a.get("value") or 1), "?"))
    if kind == "double":
        return "player %s doubles to %s" % (a.get("player"), a.get("value"))
    return "player %s %s" % (a.get("player"), _ACTS.get(kind, kind))


def game_text(g: Mapping[str, Any], head: bool = True) -> list[str]:
    """One game of `history` for people: its score, turns, cube actions and result (`head`
    False: a game of cubeless money play, as it stands alone)."""
    score = g.get("score") or (0, 0)
    pad = "  " if head else ""
    lines = ["%sopening %s" % (pad, dice_text(g.get("opening")))]
    if head:
        lines.insert(0, "game %s, score %s-%s%s" % (
            g.get("game", 1), score[0], score[1], ", the Crawford game" if g.get("crawford")
            else ""))
    acts: dict[int, list[str]] = {}
    for a in g.get("actions") or ():
        acts.setdefault(int(a.get("turn") or 0), []).append(_action(a))
    turns = list(g.get("turns") or ())
    if g.get("moves") is False:
        lines.append("%s(the board kept no moves of this game)" % pad)
    for i in range(len(turns) + 1):
        lines += ["%s       %s" % (pad, text) for text in acts.get(i, ())]
        if i < len(turns):
            t = turns[i]
            lines.append("%s%3d. player %s %s: %s" % (pad, i + 1, t["player"],
                                                     dice_text(t["dice"]),
                                                     t["play"] or "(no move)"))
    if g.get("winner") is not None:
        won = int(g.get("points") or g.get("result") or 1)
        how = {"resigned": ", resigned", "dropped": ", dropped"}.get(str(g.get("ended")), "")
        kind = RESULTS.get(int(g.get("result") or 1), "game")
        lines.append("%splayer %s wins %s (%s%s)" % (pad, g["winner"], points(won), kind, how))
    return lines


def cmd_history(args: argparse.Namespace) -> int:
    def text(r: dict[str, Any]) -> str:
        games = r.get("games") or [r]
        if len(games) == 1 and not r.get("match_length") and not r.get("cube_on"):
            return "\n".join(game_text(games[0], head=False))
        lines = ["match to %d points" % r["match_length"]] if r.get("match_length") else []
        for g in games:
            lines += game_text(g)
        return "\n".join(lines)

    return request(args, "history", text)


def _done_turn(st: Mapping[str, Any]) -> dict[str, Any]:
    """The turn of a `done` state as a record entry, its play in standard notation."""
    from gammon.notation import find_play
    from gammon.position import Position

    dice = (st["dice"][0], st["dice"][1]) if st["dice"] else (0, 0)
    play = find_play(Position.from_id(st["position_id"]), dice, " ".join(st["steps"]))
    return {"player": st["turn"], "dice": list(dice), "play": str(play)}


def _games(history: Mapping[str, Any], st: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every game of the match as the board recorded it, the one in play last with a
    finished play the next ROLL has not recorded yet. A board without `games` in its
    history has one game: the score before it is worked out from the state."""
    games = [dict(g) for g in history.get("games") or ()]
    if not games:
        score = list(st["score"])
        if history["winner"] is not None:  # the score before this game
            won = history.get("points") or (history["result"] or 0) * _cube(st)
            score[history["winner"]] -= won
        games = [dict(history, score=score, game=st["game"] or 1)]
    if st["phase"] == "done":
        games[-1]["turns"] = list(games[-1]["turns"]) + [_done_turn(st)]
    return games


def _cube(st: Mapping[str, Any]) -> int:
    cube = st["cube"]
    return int(cube["value"] if isinstance(cube, dict) else cube)


def cmd_export(args: argparse.Namespace) -> int:
    from . import export

    with connect(args) as client:
        history = client.history()
        st = client.state()
    try:  # the whole file and both IDs first: a record that does not replay writes nothing
        games = _games(history, st)
        ids = export.position_id(st), export.match_id(st)
        text = export.to_mat(
            dict(history, games=games),
            match_length=int(st.get("match_length") or history.get("match_length") or 0),
            comments=["now: Position ID %s, Match ID %s (gnubg: set gnubgid %s:%s)"
                      % (ids + ids)],
        )
    except (ValueError, KeyError, TypeError) as exc:
        raise LedgammonError("cannot export the match on the board: %s" % exc) from None

    def write() -> None:
        with open(args.file, "w") as f:
            f.write(text)

    write_file(args.file, "the match record", write)
    turns = sum(len(g.get("turns") or ()) for g in games)
    print("wrote %s (%d game%s, %d turns)" % (args.file, len(games),
                                             "" if len(games) == 1 else "s", turns))
    print("Position ID: %s" % ids[0])
    print("Match ID: %s" % ids[1])
    return 0
