"""The strength bench's agent plays at the match score (bench/strength/agent_mp.py): a checker-play
request with a Match ID counts gammons at that score, one without plays money play's, a bad
Match ID is refused; the match harness sends the ID, so a run measures the board's play at
the score (and says so)."""

import os
import random

import pytest
from gammon import Position, legal_plays
from gammon.match import Match
from mpytools import ROOT

from bench.strength.board_agent import Agent, build
from bench.strength.cube import BoardCubePlayer, CubeAgent, play_cube_game
from bench.strength.cubeful import match_id

WEIGHTS = os.path.join(ROOT, "firmware", "weights.bin")
# tests/engine/test_opponent_score.py's case: at DMP 24/23 22/16, in money play 24/23 13/7
PID = "2M6YAQMzbuAAJg"


@pytest.fixture(scope="module")
def agent(tmp_path_factory):
    dest = str(tmp_path_factory.mktemp("agent"))
    assert build(dest) == []
    a = CubeAgent(WEIGHTS, dest)
    yield a
    a.close()


def _dmp(on_roll):
    m = Match(7, True, False)
    m.resume([6, 6], False, True, 13)
    return match_id(m, on_roll)


def _result(agent, extra):
    reply = agent.request("%s 6 1 strong 0%s" % (PID, extra)).split()
    assert len(reply) == 3 and reply[0] != "!", reply
    return reply[0]


def test_the_agent_plays_at_the_score_given_a_match_id(agent):
    assert agent.request("score") == "score"
    p = Position.from_id(PID)
    after = {str(q): q.result.position_id() for q in legal_plays(p, (6, 1))}
    assert _result(agent, "") == after["24/23 13/7"]  # money play's
    assert _result(agent, " " + match_id(Match(0), 0)) == after["24/23 13/7"]
    assert _result(agent, " " + _dmp(0)) == after["24/23 22/16"]
    assert agent.request("%s 6 1 strong 0 XXXX" % PID).startswith("! ")
    assert _result(agent, "") == after["24/23 13/7"]  # still serving, money again


class _Recorder:
    """Stands in for the agent and records the board's checker-play requests."""

    def __init__(self, agent):
        self.agent = agent
        self.lines = []

    def request(self, text):
        self.lines.append(text)
        return self.agent.request(text)

    ask = Agent.ask  # the real request lines, through request() above


def test_the_match_harness_sends_the_match_id(agent):
    rec = _Recorder(agent)
    board = BoardCubePlayer(rec, "strong")
    board.checkers.agent = rec
    other = BoardCubePlayer(rec, "easy")
    other.checkers.agent = rec
    for length in (3, 0):
        rec.lines = []
        m = Match(length, True, length == 0)
        play_cube_game((board, other), m, 0, random.Random(5), 0, random.Random(6))
        moves = [line.split() for line in rec.lines if line.split()[0] not in ("double", "take")]
        assert moves
        assert all(len(parts) == (6 if length else 5) for parts in moves), moves[:3]
