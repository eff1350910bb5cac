"""`make strength`'s parts: the gnubg 0-ply player against gnubg's own choice, the heuristic's
legality, the referee and the points accounting of games played by the real MicroPython agent."""

import os
import random
import sys

import gen_oracle as go
import gnubg
import pytest
from gammon import Position, legal_plays

BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench")
sys.path.insert(0, BENCH)

from board_agent import Agent, BoardPlayer, build  # noqa: E402
from match import play_game, referee, summarise  # noqa: E402
from players import (  # noqa: E402
    GnubgPlayer,
    HeuristicPlayer,
    IllegalPlay,
    heuristic_score,
    money_equity,
)
from strength import counts, play_pairing  # noqa: E402

WEIGHTS = os.path.join(os.path.dirname(BENCH), "firmware", "weights.bin")
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
    assert s.se == pytest.approx((var / 6) ** 0.5)


def test_counts_scale_and_stay_even():
    assert counts(None, ["strong-gnubg", "heuristic-gnubg"]) == {
        "strong-gnubg": 2000,
        "heuristic-gnubg": 500,
    }
    assert counts(200, ["strong-gnubg", "easy-gnubg", "heuristic-gnubg"]) == {
        "strong-gnubg": 200,
        "easy-gnubg": 100,
        "heuristic-gnubg": 50,
    }
    assert counts(3, ["heuristic-gnubg"]) == {"heuristic-gnubg": 2}


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
    s = summarise([r.points for r in results])
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
