"""Export: .mat files that GNU Backgammon imports move for move, and Match IDs that agree
with gnubg's own (its Python bindings are the oracle)."""

import random
from collections import Counter

import gnubg
import pytest
from gammon import Position, legal_plays
from ledgammon import export

gnubg.command("set threads 1")


def random_game(seed, stop=None):
    """A complete random game as the protocol's `history`, and for each turn the position
    before it (mover's view) and the play's steps."""
    rnd = random.Random(seed)
    a = b = 0
    while a == b:
        a, b = rnd.randint(1, 6), rnd.randint(1, 6)
    player, pos, dice = (0 if a > b else 1), Position.start(), (a, b)
    turns, truth = [], []
    while True:
        plays = legal_plays(pos, dice)
        play = plays[rnd.randrange(len(plays))] if plays else None
        turns.append({"player": player, "dice": list(dice), "play": str(play) if play else ""})
        truth.append((pos.position_id(), play.steps if play else ()))
        if play:
            pos = play.result
        if pos.outcome() or (stop and len(turns) >= stop):
            break
        pos, player, dice = pos.swap(), 1 - player, (rnd.randint(1, 6), rnd.randint(1, 6))
    over = pos.outcome() > 0
    return {"opening": [a, b], "turns": turns, "winner": player if over else None,
            "result": pos.outcome() if over else None, "game": 1}, truth


def gnubg_import(text, tmp_path):
    path = tmp_path / "game.mat"
    path.write_text(text)
    # gnubg's settings are the process's: another test in this worker may have left the
    # Jacoby rule on, and the board counts gammons without a cube
    gnubg.command("set jacoby off")
    gnubg.command("import mat %s" % path)
    return gnubg.match()


def check_game(game, history, truth):
    recs = game["game"]
    assert len(recs) == len(history["turns"]) == len(truth)
    for rec, turn, (pid, steps) in zip(recs, history["turns"], truth, strict=True):
        assert rec["player"] == "XO"[turn["player"]]  # the left column is gnubg's X
        assert sorted(rec["dice"]) == sorted(turn["dice"])  # written the higher first
        assert rec["board"] == pid
        assert sorted(rec.get("move") or ()) == sorted((f, t) for f, t, _ in steps)
    info = game["info"]
    if history["winner"] is None:
        assert info["winner"] is None
    else:
        assert info["winner"] == "XO"[history["winner"]]
        assert info["points-won"] == history["result"]


def test_gnubg_imports_random_games_move_for_move(tmp_path):
    kinds = Counter()
    for seed in range(12):
        history, truth = random_game(seed)
        match = gnubg_import(export.to_mat(history), tmp_path)
        assert match["match-info"]["match-length"] == 0
        assert len(match["games"]) == 1
        check_game(match["games"][0], history, truth)
        kinds["result %d" % history["result"]] += 1
        kinds["player 1 opens"] += history["turns"][0]["player"] == 1
        for _, steps in truth:
            kinds["no move"] += not steps
            kinds["hit"] += any(hit for _, _, hit in steps)
            kinds["bar"] += any(f == 25 for f, _, _ in steps)
            kinds["off"] += any(t == 0 for _, t, _ in steps)
    for kind in ("result 1", "result 2", "result 3", "no move", "hit", "bar", "off",
                 "player 1 opens"):
        assert kinds[kind] > 0, kinds


def test_a_match_of_several_games_and_an_unfinished_one(tmp_path):
    games = [random_game(20)[0], random_game(21)[0], random_game(22, stop=9)[0]]
    truths = [random_game(20)[1], random_game(21)[1], random_game(22, stop=9)[1]]
    text = export.to_mat(games, match_length=15, score=(1, 2), game=4)
    assert " 15 point match" in text and " Game 1" in text and " Game 3" in text
    assert '; [Board game "4"]' in text and " Game 4" not in text  # gnubg wants Game 1 first
    match = gnubg_import(text, tmp_path)
    assert match["match-info"]["match-length"] == 15
    assert len(match["games"]) == 3
    score = [1, 2]
    for game, history, truth in zip(match["games"], games, truths, strict=True):
        assert (game["info"]["score-X"], game["info"]["score-O"]) == tuple(score)
        check_game(game, history, truth)
        if history["winner"] is not None:
            score[history["winner"]] += history["result"]


def test_a_game_played_on_the_firmware_exports_through_its_history_reply(tmp_path):
    from test_terminal import LocalClient, play_random

    client = LocalClient(seed=31)
    try:
        play_random(client, random.Random(31), 400)
        history = client.request("history")
    finally:
        client.close()
    assert history["winner"] in (0, 1) and len(history["turns"]) > 20
    game = gnubg_import(export.to_mat(history, names=("Ann", "Bob")), tmp_path)["games"][0]
    assert len(game["game"]) == len(history["turns"])
    for rec, turn in zip(game["game"], history["turns"], strict=True):
        assert sorted(rec["dice"]) == sorted(turn["dice"])
        assert rec["player"] == "XO"[turn["player"]]
    assert game["info"]["winner"] == "XO"[history["winner"]]
    assert game["info"]["points-won"] == history["result"]


def test_the_mat_layout():
    """gnubg's own columns: moves at 5 and 33, names at 1 and 32, "Wins" under the winner."""
    openers = set()
    for seed in range(3, 9):
        history, _ = random_game(seed)
        lines = export.to_mat(history, names=("Ann", "Bob")).splitlines()
        assert lines[lines.index(" Game 1") + 1] == " Ann : 0" + " " * 24 + "Bob : 0"
        first = lines[lines.index(" Game 1") + 2]
        assert first.startswith("  1) ")
        opener = history["turns"][0]["player"]
        openers.add(opener)
        if opener == 1:
            assert first[5:33].strip() == "" and first[33:35].isdigit()
        else:
            assert first[5:7].isdigit() and first[7] == ":"
        wins = [line for line in lines if "Wins" in line]
        assert len(wins) == 1
        assert wins[0].index("Wins") == (6 if history["winner"] == 0 else 34)
    assert openers == {0, 1}


def test_impossible_records_are_refused():
    history, _ = random_game(4)
    bad = dict(history, turns=[dict(history["turns"][0], play="24/1")])
    with pytest.raises(ValueError, match="turn 1"):
        export.to_mat(bad)
    with pytest.raises(ValueError, match="set up"):
        export.to_mat(dict(history, start={"position_id": "4HPwATDgc/ABMA", "turn": 0}))
    skipped = [t for t in history["turns"] if t["play"]][:1]
    with pytest.raises(ValueError, match="can move"):
        export.to_mat(dict(history, turns=[dict(skipped[0], play="")]))


def test_match_ids_agree_with_gnubg():
    rnd = random.Random(7)
    for _ in range(2000):
        ml = rnd.choice([0, 0, 1, 3, 5, 7, 11, 25, 64])
        score = (rnd.randrange(ml), rnd.randrange(ml)) if ml else (0, 0)
        cube, owner, move = 1 << rnd.randrange(7), rnd.choice([-1, 0, 1]), rnd.randrange(2)
        crawford = rnd.randrange(2) if ml else 0
        turn, state, dice = rnd.randrange(2), rnd.randrange(5), (rnd.randint(0, 6),) * 2
        if dice[0]:
            dice = tuple(sorted((rnd.randint(1, 6), rnd.randint(1, 6)), reverse=True))
        doubled, resigned, jacoby = rnd.randrange(2), rnd.randrange(4), rnd.randrange(2)
        ci = gnubg.cubeinfo(cube, owner, move, ml, score, crawford, 0)
        ci["jacoby"] = jacoby if not ml else 0
        want = gnubg.matchid(ci, gnubg.posinfo(turn, resigned, doubled, state, dice))
        got = export.encode_match_id(cube, owner, move, bool(crawford), state, turn,
                                     bool(doubled), resigned, dice, ml, score,
                                     bool(ci["jacoby"]))
        assert got == want


def test_the_ids_of_a_state_reply_load_into_gnubg():
    state = {"phase": "move", "turn": 1, "dice": [2, 5], "position_id": "4HPwATDgc/ABMA",
             "cube": 1, "cube_owner": -1, "score": [2, 4], "match_length": 7}
    assert export.position_id(state) == "4HPwATDgc/ABMA"
    mid = export.match_id(state)
    ci = gnubg.cubeinfo(1, -1, 1, 7, (2, 4), 0, 0)
    assert mid == gnubg.matchid(ci, gnubg.posinfo(1, 0, 0, 1, (5, 2)))
    gnubg.command("set gnubgid %s" % export.gnubg_id(state))
    assert gnubg.positionid() == "4HPwATDgc/ABMA"
    assert gnubg.matchid() == mid
    over = dict(state, phase="over", winner=0, result=2)
    waiting = dict(state, phase="roll")
    ci = gnubg.cubeinfo(1, -1, 1, 7, (2, 4), 0, 0)
    assert export.match_id(over) == gnubg.matchid(ci, gnubg.posinfo(1, 0, 0, 2, (0, 0)))
    assert export.match_id(waiting) == gnubg.matchid(ci, gnubg.posinfo(1, 0, 0, 1, (0, 0)))
    with pytest.raises(ValueError):
        export.position_id(dict(state, position_id="not an id!!!!!"))
    with pytest.raises(ValueError):
        export.position_id({})


def test_a_finished_play_gives_the_position_after_it_with_the_other_player_on_roll():
    """Once a play is complete (done) the board's Match ID has the other player to roll
    without dice, as gnubg after the move: the Position ID goes with it."""
    from gammon.matchid import encode
    from gammon.notation import find_play

    start = Position.start()
    after = find_play(start, (3, 1), "8/5 6/5").result
    mid = encode({"cube": 1, "owner": -1, "move": 1, "crawford": False, "state": 1,
                  "turn": 1, "doubled": False, "resigned": 0, "die1": 0, "die2": 0,
                  "length": 5, "score0": 0, "score1": 0, "jacoby_off": True})
    state = {"phase": "done", "turn": 0, "dice": [3, 1], "position_id": start.position_id(),
             "current_id": after.position_id(), "match_id": mid}
    assert export.position_id(state) == after.swap().position_id()
    gnubg.command("set gnubgid %s" % export.gnubg_id(state))
    assert gnubg.positionid() == after.swap().position_id() and gnubg.matchid() == mid
    older = dict(state, match_id=None)  # a board whose Match ID is the turn's start
    del older["match_id"]
    assert export.position_id(older) == start.position_id()
