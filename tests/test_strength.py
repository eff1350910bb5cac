"""`make strength`'s parts: the gnubg 0-ply player against gnubg's own choice, the heuristic's
legality, the referee and the points accounting of games played by the real MicroPython agent."""

import os
import random

import gen_oracle as go
import gnubg
import pytest
from gammon import Position, legal_plays
from gammon.match import Match
from gammon.matchid import decode
from mpytools import ROOT

from bench.strength.board_agent import Agent, BoardPlayer, build
from bench.strength.build import build_at
from bench.strength.calib import TUNE_SEEDS
from bench.strength.calib import judge as judge_rows
from bench.strength.cube import (
    BoardCubePlayer,
    CubeAgent,
    Decision,
    match_game,
    money_game,
    play_cube_game,
)
from bench.strength.cubeful import CubeAnalysis, Gnubg, GnubgCubePlayer, match_id
from bench.strength.judge import arises, errors, judge
from bench.strength.match import play_game, referee, summarise
from bench.strength.players import (
    GnubgPlayer,
    HeuristicPlayer,
    IllegalPlay,
    heuristic_score,
    money_equity,
)
from bench.strength.run import CUBE_SEED, SEEDS, counts, in_pairs, play_pairing

WEIGHTS = os.path.join(ROOT, "firmware", "weights.bin")
WORST = [("AAAA/3+UUkpJKQ", (1, 1)), ("d7cNAABUqqqqAA", (1, 1))]


def positions(n, seed):
    """(position, dice) met in n turns of seeded games, mostly random plays, some gnubg's."""
    rng = random.Random(seed)
    g = GnubgPlayer()
    out = []
    p = Position.start()
    while len(out) < n:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        out.append((p, dice))
        plays = legal_plays(p, dice)
        if plays:
            play = g.choose(p, dice, 0) if rng.random() < 0.3 else plays[rng.randrange(len(plays))]
            p = play.result
        p = Position.start() if p.outcome() else p.swap()
    return out


@pytest.fixture(scope="module")
def cases():
    return positions(1500, 5)


@pytest.fixture(scope="module")
def agent_dir(tmp_path_factory):
    dest = str(tmp_path_factory.mktemp("agent"))
    assert build(dest) == []  # every module precompiled
    return dest


def test_gnubg_player_is_gnubgs_own_choice(cases):
    """Where gnubg's move tuples rebuild every play (no bear-off), our pick is gnubg's best,
    or a play gnubg scores the same (e.g. among certain gammon losses)."""
    g = GnubgPlayer()
    compared = ties = 0
    for p, dice in cases:
        moves = gnubg.findbestmoves((list(p.opp), list(p.me)), g.cube, g.context, dice)
        if not moves or not moves[0]["move"] or any(len(m["move"]) % 2 for m in moves):
            continue
        m = moves[0]["move"]
        want = gnubg.positionid(go.apply((p.opp, p.me), zip(m[::2], m[1::2], strict=True)))
        play = g.choose(p, dice, 0)
        equity = g.equity(play.result)
        assert equity == pytest.approx(moves[0]["score"], abs=1e-5), (p, dice)
        if play.result.position_id() != want:
            ties += 1
            assert len(moves) > 1 and moves[1]["score"] >= moves[0]["score"] - 1e-6, (p, dice)
        compared += 1
    assert compared >= 1000
    assert ties < compared // 20


def test_money_equity_is_gnubgs_cubeless_equity(cases):
    """...with money play's cube even when gnubg holds a match (test_export.py loads one)."""
    g = GnubgPlayer()
    assert (g.cube["matchto"], g.cube["cube"], g.cube["cubeowner"]) == (0, 1, -1)
    for p, _ in cases[::25]:
        probs = gnubg.evaluate((list(p.opp), list(p.me)), g.cube, g.context)
        assert money_equity(probs) == pytest.approx(probs[5], abs=1e-5)


def test_heuristic_plays_only_legal_plays(cases):
    h = HeuristicPlayer()
    for p, dice in cases + [(Position.from_id(pid), dice) for pid, dice in WORST]:
        play = h.choose(p, dice, 0)
        assert referee(p, dice, play) == (play.result if play else p)
        assert (play is None) == (len(legal_plays(p, dice)) == 0)


def test_heuristic_is_sensible():
    """It makes the 5-point with an opening 3-1, and the 2-point on a blot with 6-4."""
    start = Position.start()
    best = HeuristicPlayer().choose(start, (3, 1), 0)
    assert sorted(best.steps) == [(6, 5, False), (8, 5, False)]
    me = [0] * 25
    me[5], me[7], me[12] = 5, 3, 7  # 6, 8 and 13-points
    opp = [0] * 25
    opp[22], opp[12] = 1, 14  # a blot on its 23-point (our 2-point)
    p = Position(me, opp)
    play = HeuristicPlayer().choose(p, (6, 4), 0)
    after = play.result
    assert (after.me[1], after.me[5], after.me[7], after.opp[24]) == (2, 4, 2, 1), play
    assert heuristic_score(play.result) == max(
        heuristic_score(q.result) for q in legal_plays(p, (6, 4))
    )


def test_referee_rejects_what_is_not_legal():
    start = Position.start()
    play = legal_plays(start, (3, 1))[0]
    with pytest.raises(IllegalPlay):
        referee(start, (3, 1), None)  # passing with plays to make
    with pytest.raises(IllegalPlay):
        referee(start, (6, 5), play)  # a play of other dice
    with pytest.raises(IllegalPlay):
        referee(start, (3, 1), legal_plays(play.result.swap(), (3, 1))[0])  # of another position


def test_summary():
    s = summarise([1, -2, 3, -1, 1, 2])
    assert (s.games, s.won, s.lost, s.wins()) == (6, (2, 1, 1), (1, 1, 0), 4)
    assert s.mean == pytest.approx(4 / 6)
    var = sum((x - 4 / 6) ** 2 for x in [1, -2, 3, -1, 1, 2]) / 5
    assert s.se == pytest.approx((var / 6) ** 0.5) == s.iid_se


def test_paired_summary_takes_the_error_of_the_pairs():
    """Games 2k and 2k + 1 threw the same dice: the error is that of the pairs' means, here
    much smaller than if the six games were independent (the luck cancelled in each pair)."""
    points = [1, -1, 2, -2, 1, 1]
    s = summarise(points, paired=True)
    means = [0.0, 0.0, 1.0]
    var = sum((m - 1 / 3) ** 2 for m in means) / 2
    assert s.mean == pytest.approx(1 / 3)
    assert s.se == pytest.approx((var / 3) ** 0.5)
    assert s.iid_se == summarise(points).se > s.se
    with pytest.raises(ValueError):
        summarise([1, -1, 2], paired=True)


def test_counts_scale_and_stay_even():
    assert counts(None, ["strong-gnubg", "heuristic-gnubg"]) == {
        "strong-gnubg": 1000,
        "heuristic-gnubg": 250,
    }
    assert counts(200, ["strong-gnubg", "easy-gnubg", "heuristic-gnubg"]) == {
        "strong-gnubg": 200,
        "easy-gnubg": 100,
        "heuristic-gnubg": 50,
    }
    assert counts(3, ["heuristic-gnubg"]) == {"heuristic-gnubg": 2}


def test_reported_seeds_are_not_the_tuning_seed():
    assert 1 not in SEEDS and len(SEEDS) >= 3 and CUBE_SEED not in SEEDS
    # nor those the money cube's rules were fitted on (bench/strength/calib.py)
    assert not set(TUNE_SEEDS) & set(SEEDS) and CUBE_SEED not in TUNE_SEEDS


def _check_accounting(results):
    """Each game's points are what Position.outcome says of its end, for the right side."""
    for r in results:
        won = Position.from_id(r.final).outcome()
        assert won in (1, 2, 3)
        a_moved_last = (r.game + r.turns - 1) % 2 == 0
        assert r.points == (won if a_moved_last else -won), r


def test_match_through_the_micropython_agent(agent_dir):
    results = [r for r, _, _ in play_pairing("strong-gnubg", 6, 3, 1, WEIGHTS, agent_dir)]
    assert sorted(r.game for r in results) == list(range(6))
    _check_accounting(results)
    s = summarise(in_pairs(results), paired=True)
    assert s.games == 6 and s.wins() + sum(s.lost) == 6


def test_runs_repeat_from_the_seed_over_processes(agent_dir):
    """The easy level's chance and the dice come from the seed, whatever the process."""
    one = [r for r, _, _ in play_pairing("easy-heuristic", 4, 9, 1, WEIGHTS, agent_dir)]
    two = [r for r, _, _ in play_pairing("easy-heuristic", 4, 9, 2, WEIGHTS, agent_dir)]
    assert sorted((r.game, r.points, r.final) for r in one) == sorted(
        (r.game, r.points, r.final) for r in two
    )
    _check_accounting(one)


def test_agent_plays_legal_moves_and_answers_bad_requests(agent_dir, cases):
    agent = Agent(WEIGHTS, agent_dir)
    try:
        strong, easy = BoardPlayer(agent, "strong"), BoardPlayer(agent, "easy")
        for i, (p, dice) in enumerate(cases[:60] + [(Position.from_id(a), d) for a, d in WORST]):
            for player in (strong, easy):
                play = player.choose(p, dice, i)
                referee(p, dice, play)
        assert strong.moves == easy.moves == 62 and strong.evaluations > easy.evaluations
        start = Position.start()
        assert agent.ask(start, (3, 7), "strong", 0).startswith("! ")
        assert agent.ask(start, (3, 1), "hard", 0).startswith("! ")
        assert agent.ask(start, (3, 1), "strong", 0).split()[0] != "!"  # still serving
    finally:
        agent.close()
    assert agent.proc.returncode == 0


def test_a_game_between_the_two_levels(agent_dir):
    agent = Agent(WEIGHTS, agent_dir)
    try:
        r = play_game(BoardPlayer(agent, "strong"), BoardPlayer(agent, "easy"), 1, 4)
    finally:
        agent.close()
    _check_accounting([r])


# --- with the cube (bench/strength/cube.py, cubeful.py, judge.py)

DOUBLE_PASS = "cHd3AAC4uzsAAA"  # a race, 90 pips to 105: gnubg doubles, the other should pass


class Scripted:
    """A cube player that plays the first legal play and doubles or takes as told."""

    name = "scripted"

    def __init__(self, doubles=False, takes=True):
        self.doubles, self.takes, self.asked = doubles, takes, []

    def choose(self, position, dice, seed, match, me):
        plays = legal_plays(position, dice)
        return plays[0] if plays else None

    def double(self, position, match, me):
        self.asked.append(("double", me, match.cube, match.owner))
        return self.doubles

    def take(self, position, match, me):
        self.asked.append(("take", me, match.cube, match.owner))
        return self.takes


@pytest.fixture(scope="module")
def oracle():
    return Gnubg()


def test_cube_analysis_actions_and_losses():
    a = CubeAnalysis(0.5, 0.8, 1.0, 2)  # double, take
    assert a.doubles() and a.takes()
    assert a.double_loss(True) == 0 and a.double_loss(False) == pytest.approx(0.3)
    assert a.take_loss(True) == 0 and a.take_loss(False) == pytest.approx(0.2)
    tg = CubeAnalysis(1.2, 1.5, 1.0, 2)  # too good: play on, and drop if doubled
    assert not tg.doubles() and not tg.takes()
    assert tg.double_loss(True) == pytest.approx(0.2) and tg.take_loss(True) == pytest.approx(0.5)
    # gnubg's own verdict, made from unrounded equities, wins a tie of the rounded ones
    assert CubeAnalysis(1.0, 1.9, 1.0, 2, "Double, pass").doubles()
    assert not CubeAnalysis(1.0, 1.9, 1.0, 2, "Too good to double, pass").doubles()


def test_gnubg_cube_analysis(oracle):
    start = oracle.analyse(Position.start(), Match(0), 0, 0)
    assert (start.proper, start.doubles(), start.takes()) == ("No double, take", False, True)
    assert start.drop == 1.0 and start.take < start.no_double
    race = oracle.analyse(Position.from_id(DOUBLE_PASS), Match(0), 0, 2)
    assert race.doubles() and not race.takes() and race.take > 1.0
    # a match: winning chances; the trailer doubles at once after the Crawford game
    m = Match(7, True, False)
    m.score, m.post_crawford = [6, 2], True
    trailer = oracle.analyse(Position.start(), m, 1, 0)
    assert trailer.doubles() and 0 < trailer.no_double < trailer.drop < 0.5


def test_a_double_gnubg_makes_is_applied_and_scored(oracle):
    """gnubg doubles in a double/pass; a drop ends the game for the cube's value, a take
    turns the cube to the taker and the game's value doubles; the judge charges the take."""
    gnubg_side = GnubgCubePlayer(0, oracle)
    race = Position.from_id(DOUBLE_PASS)
    dropper = Scripted(takes=False)
    match = Match(0, True, True)
    end = play_cube_game(
        (gnubg_side, dropper), match, 0, random.Random(1), 1, random.Random(2), race
    )
    assert (end.dropped, end.winner, end.points, end.cube, end.doubles) == (True, 0, 1, 1, 1)
    assert match.score == [1, 0] and dropper.asked == [("take", 1, 1, -1)]
    assert end.decisions == [Decision("take", DOUBLE_PASS, match_id(Match(0), 0), False, True)]
    (right,) = judge(oracle, end.decisions, 10)
    assert right.right and right.loss == 0

    taker = Scripted(takes=True)
    match = Match(0, True, True)
    end = play_cube_game(
        (gnubg_side, taker), match, 0, random.Random(1), 1, random.Random(2), race
    )
    assert not end.dropped and taker.asked[0] == ("take", 1, 1, -1)
    assert match.cube == end.cube == 2 and match.owner == 1  # the taker's cube
    # only the taker may double now: it is asked, gnubg never again
    assert all(a == ("double", 1, 2, 1) for a in taker.asked[1:]) and len(taker.asked) > 1
    won = Position.from_id(end.final).outcome()
    assert end.points == 2 * won and match.score[end.winner] == 2 * won  # gammons count now
    (wrong,) = judge(oracle, end.decisions[:1], 10)
    assert not wrong.right and wrong.loss > 0.15  # taking a double/pass costs ~0.24


def test_cube_games_count_for_the_board_in_either_seat():
    """The board sits at 0 in even games, 1 in odd ones, and its points are its own."""
    for number in range(4):
        out = money_game(Scripted(doubles=True), Scripted(takes=False), number, 3)
        assert out.value == 1 and out.games[0].dropped
        out = money_game(Scripted(takes=False), Scripted(doubles=True), number, 3)
        assert out.value == -1
    # without a double the Jacoby rule counts any win as one point with the cube in the middle
    out = money_game(Scripted(), Scripted(), 0, 3)
    assert abs(out.value) == 1 and out.games[0].cube == 1


def test_a_match_doubled_and_dropped_to_its_end():
    """A 3-point match: the board doubles whenever it may and the other drops; no double in
    the Crawford game; the score adds up to the match's end."""
    board, other = Scripted(doubles=True), Scripted(takes=False)
    out = match_game(board, other, 1, 5, length=3)  # the board in seat 1
    score = [0, 0]
    for g in out.games:
        score[g.winner] += g.points
    assert max(score) >= 3 and out.value == int(score[1] >= 3)
    assert out.value == 1
    crawford = [g for g in out.games if not g.dropped]
    assert crawford and all(d.kind != "double" for g in crawford for d in g.decisions)
    assert sum(1 for g in out.games if g.dropped) == 2  # 1-0, 2-0, then Crawford


def _check_cube_accounting(games, money):
    for g in games:
        if g.dropped:
            assert g.points == g.cube
        else:
            won = Position.from_id(g.final).outcome()
            value = 1 if money and g.cube == 1 else won  # Jacoby
            assert g.points == value * g.cube
        for d in g.decisions:
            assert decode(d.match_id)["cube"] in (1, 2, 4, 8, 16, 32, 64)
            Position.from_id(d.position_id)


def test_cube_games_through_the_micropython_agent(agent_dir, oracle):
    agent = CubeAgent(WEIGHTS, agent_dir)
    try:
        board, gnubg_side = BoardCubePlayer(agent, "strong"), GnubgCubePlayer(0, oracle)
        out = money_game(board, gnubg_side, 1, 7)
        _check_cube_accounting(out.games, True)
        assert abs(out.value) == out.games[0].points
        m = match_game(board, gnubg_side, 0, 7, length=3)
        _check_cube_accounting(m.games, False)
        assert sum(g.points for g in m.games if g.winner == 0) >= 3 or m.value == 0
        decisions = [d for g in out.games + m.games for d in g.decisions]
        assert decisions and all(d.kind in ("double", "take") for d in decisions)
        assert board.cube_us and board.checkers.moves > 0
    finally:
        agent.close()


def test_agent_cube_requests(agent_dir):
    agent = CubeAgent(WEIGHTS, agent_dir)
    try:
        money = match_id(Match(0), 0)
        start = Position.start().position_id()
        ask = agent.request
        # the interim rule: never doubles; takes at 25% or more to win
        assert ask("double %s %s strong interim" % (DOUBLE_PASS, money)).split()[0] == "no"
        assert ask("take %s %s strong interim" % (start, money)).split()[0] == "yes"
        assert ask("take %s %s easy interim" % (DOUBLE_PASS, money)).split()[0] == "no"
        rule = agent.rule()
        assert rule in ("cube", "interim")
        if rule == "cube":  # the board's own decisions: a clear double and pass
            assert ask("double %s %s strong" % (DOUBLE_PASS, money)).split()[0] == "yes"
            assert ask("double %s %s strong" % (start, money)).split()[0] == "no"
        else:
            assert ask("double %s %s strong" % (DOUBLE_PASS, money)).split()[0] == "no"
        assert ask("take %s %s strong" % (DOUBLE_PASS, money)).split()[0] == "no"
        for bad in (
            "take %s %s hard" % (start, money),
            "double %s XXXX strong" % start,
            "take %s %s strong maybe" % (start, money),
            "double",
        ):
            assert ask(bad).startswith("! "), bad
        assert ask("take %s %s strong" % (start, money)).split()[0] == "yes"  # still serving
    finally:
        agent.close()
    assert agent.proc.returncode == 0


def test_judged_decisions_are_the_ones_that_arise(oracle):
    """A no double at the start is no decision (gnubg would not analyse it); a missed double
    in a double/pass is one, and costs what gnubg 2-ply says."""
    money = match_id(Match(0), 0)
    start = Position.start().position_id()
    missed = Decision("double", DOUBLE_PASS, money, False, True)
    quiet = Decision("double", start, money, False, True)
    assert not arises(oracle, quiet) and arises(oracle, missed)
    (j,) = judge(oracle, [quiet, missed, quiet], 5)
    a = oracle.analyse_id(DOUBLE_PASS, money, 2)
    assert j.decision == missed and not j.right and j.loss == pytest.approx(a.drop - a.no_double)
    e = errors([j, j])
    assert (e.decisions, e.wrong, e.kinds["no double"], e.se) == (2, 2, 2, 0.0)


def test_the_agent_is_built_from_a_commit(tmp_path):
    full, left = build_at("HEAD", str(tmp_path))
    assert len(full) == 40 and left == []
    for name in ("gammon/position.mpy", "gammon/opponent.mpy", "kernels/net.mpy", "agent_mp.mpy"):
        assert (tmp_path / name).is_file(), name


def test_the_offline_judge_counts_what_arises_and_what_it_costs():
    """bench/strength/calib.py's judge on hand-made rows: a take always counts, a double only
    when made or close at gnubg 0-ply; the loss is against the 2-ply best, by kind and class."""
    centred = match_id(Match(0), 0)
    start = Position.start().position_id()
    far = [0.1, -0.4, 1.0, "No double, take"]  # 0-ply: far from doubling (a drop is 0.9 off)
    close = [0.4, 0.45, 1.0, "Double, take"]  # 0-ply: a double, so also a take to judge
    passed = [0.8, 1.3, 1.0, "Double, pass"]  # 2-ply: a drop; taking costs 0.3, no double 0.2
    rows = [
        {"pid": start, "mid": centred, "cls": 10, "pn": [2048, 600, 20, 600, 20], "a0": far,
         "a2": far},
        {"pid": start, "mid": centred, "cls": 10, "pn": [2048, 600, 20, 600, 20], "a0": close,
         "a2": passed},
        {"pid": start, "mid": centred, "cls": 10, "pn": [2048, 600, 20, 600, 20], "a0": far,
         "a2": passed, "kind": "take", "action": True},
    ]
    never = judge_rows(rows, lambda kind, p, t, x, board: kind == "take")
    assert never["decisions"] == 3 and never["double"] == (1, pytest.approx(0.2))
    assert never["take"] == (2, pytest.approx(0.3))
    assert never["by class"]["take contact"][0] == 2
    always = judge_rows(rows, lambda kind, p, t, x, board: kind == "double")
    assert always["decisions"] == 4  # the far double counts once it is made
    # the far double loses 0.5 (double/take -0.4 against no double 0.1), the close one none
    assert always["double"] == (2, pytest.approx(0.25))
    assert always["take"] == (2, pytest.approx(0.0)) and always["mean"] == pytest.approx(0.125)


def test_matches_are_played_with_the_network_that_plays_them(agent_dir, tmp_path):
    """`make strength`'s matches use --match-weights (the 64-unit network by default: no
    board without room for it holds a match against the board), its money games --weights;
    the figures say which."""
    import json

    from bench.strength.run import main

    out = tmp_path / "strength.json"
    argv = ["--pairings", "", "--cube-money", "2", "--cube-matches", "2", "--cube-decisions",
            "0", "--cube-levels", "strong", "--cube-seed", "77", "--json", str(out),
            "--build", agent_dir, "--keep-build"]
    assert main(argv) == 0
    cube = json.loads(out.read_text())["cube"]
    assert (cube["weights"], cube["match_weights"]) == ("weights.bin", "weights-64.bin")
    assert cube["strong"]["match"]["n"] == 2 and cube["strong"]["money"]["n"] == 2
    with pytest.raises(SystemExit):
        main(argv + ["--match-weights", str(tmp_path / "none.bin")])
