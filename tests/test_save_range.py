"""What the board writes as a save it reads back, over the save's whole range (issue 28, 3).

A property test (hypothesis) on CPython and on the MicroPython unix port: a game at any game
number the reader takes (1 to 2^30), any score (0 to 2^20, a money session's total), any
game number of a match or money session (1 to 2^20), with every set of terms, ended played
out, by a double dropped or a resignation accepted, at a single game, a gammon or a
backgammon, after a double taken or not, then the next game: every save written on the way
loads back (model/savefile.py) to the same text (tests/firmware/saverange.py). At the top of
the range the game number wraps to 1, a money total stops at 2^20 and a session's game
number wraps to 1, which the reader takes; before, a game number of 2^30 then `new` saved
2^30 + 1, and a total of 2^20 and a won game 2^20 + 2, and the next boot set the save aside.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import saverange  # tests/firmware: the helper both interpreters run
from gammon import match as gammon_match
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from model import savetext
from model.game import Game
from mpserve import Served

GAME_MAX = 1 << 30  # the reader's limits
SCORE_MAX = 1 << 20
MATCH_GAMES_MAX = 1 << 20


def _edge(top: int, low: int = 0) -> st.SearchStrategy[int]:
    """Any value low-top, often one at either end."""
    return st.one_of(st.integers(low, top), st.integers(max(low, top - 3), top),
                     st.integers(low, low + 3))


ENDS = st.tuples(st.sampled_from(["played", "drop", "resign"]), st.integers(1, 3),
                 st.booleans(), st.integers(0, 1)).map(list)


@st.composite
def cases(draw: Any) -> dict[str, Any]:
    length = draw(st.sampled_from([0, 0, 0, 1, 3, 7, 25]))
    cube = True if length else draw(st.booleans())
    terms = [length, cube, draw(st.booleans())]
    if length:  # a match to points in progress, not at its Crawford game
        top = max(length - 2, 0)
        score = [draw(st.integers(0, top)), draw(st.integers(0, top))]
        mg = draw(st.integers(1, 2 * length))
    else:
        score = [draw(_edge(SCORE_MAX)), draw(_edge(SCORE_MAX))]
        mg = draw(_edge(MATCH_GAMES_MAX, 1))
    ends = draw(st.lists(ENDS, min_size=1, max_size=3))
    if not cube:
        ends = [e if e[0] != "drop" else ["played"] + e[1:] for e in ends]
    return {"n": draw(_edge(GAME_MAX, 1)), "terms": terms, "score": score, "mg": mg,
            "ends": ends}


SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def test_the_writers_limits_are_the_readers():
    assert savetext.GAME_WRAP + 1 == GAME_MAX
    assert savetext.SCORE_MAX == gammon_match.SCORE_MAX == SCORE_MAX
    assert savetext.MATCH_GAMES_MAX == gammon_match.GAMES_MAX == MATCH_GAMES_MAX


@SETTINGS
@given(cases())
def test_every_save_loads_back_on_cpython(case: dict[str, Any]) -> None:
    saverange.run(case)


class MicroPython(Served):
    """tests/firmware/saverange.py on MicroPython: each case's last save."""

    def __init__(self) -> None:
        super().__init__("saverange")

    def run(self, case: dict[str, Any]) -> str:
        out = self.ask(case)
        assert out.startswith("ok "), out
        return out[3:]


@pytest.fixture(scope="module")
def micropython():
    mp = MicroPython()
    yield mp
    mp.close()


@SETTINGS
@given(case=cases())
def test_every_save_loads_back_on_micropython(micropython: MicroPython,
                                              case: dict[str, Any]) -> None:
    assert micropython.run(case) == saverange.run(case)[-1]  # the same save as CPython's


def test_the_issues_cases_at_the_top_of_the_range(micropython: MicroPython) -> None:
    # game 2^30 (the reader's largest), then `new`: the next is game 2 (the board counts
    # 1 to 2^30 - 1, then 1 again), and its save loads back
    case = {"n": GAME_MAX, "terms": [0, False, True], "score": [0, 0], "mg": 1,
            "ends": [["played", 1, False, 0]]}
    assert json.loads(saverange.run(case)[-1])["n"] == 2
    assert json.loads(micropython.run(case))["n"] == 2
    # a money total of 2^20 and a won game (a gammon: 2 points) stays at 2^20, in cubeless
    # money play and with the cube (a double taken: 4 points)
    for terms in ([0, False, True], [0, True, False]):
        case = {"n": 5, "terms": terms, "score": [SCORE_MAX, 7], "mg": MATCH_GAMES_MAX,
                "ends": [["played", 2, True, 0], ["played", 1, False, 1]]}
        texts = saverange.run(case)
        assert json.loads(texts[1])["sc"] == [SCORE_MAX, 7]
        assert json.loads(texts[-1])["sc"] == [SCORE_MAX, 8]
        assert micropython.run(case) == texts[-1]
    for n, after in ((GAME_MAX - 2, GAME_MAX - 1), (GAME_MAX - 1, 1), (GAME_MAX, 2)):
        g = Game(n)  # the board writes up to 2^30 - 1 (a small int there), then 1 again
        g.new_game()
        assert g.game_number == after, n


V1 = ('{"v":1,"n":3,"ph":3,"t":1,"o":[3,1],"d":[6,4],"s":[[24,18],[18,14]],"w":-1,"r":0,'
      '"cb":[1,-1],"ml":0,"sc":[0,0],"id":"sGfwATDgc/ABMA","f":0,"h":"3102000c8"}')


def _saved_match() -> str:
    g = Game(4, (5, True, True))
    g.roll_opening((3, 1))
    return g.to_json()


@pytest.mark.parametrize(
    "text,words",
    [
        # a save of version 2 marked 1: it holds the match's keys (was KeyError('ml',))
        (lambda: _saved_match().replace('"v":2', '"v":1'), "version 1 holds no match, but "
         "this save has 'm'"),
        (lambda: V1.replace(',"ml":0', ''), "bad save: it has no 'ml'"),
        (lambda: V1.replace('"v":1', '"v":2.0'), "its version is 2.0, not the number 1 or 2"),
        (lambda: V1.replace('"v":1', '"v":true'), "its version is true, not the number 1 or 2"),
        (lambda: V1.replace('"v":1', '"v":"1"'), 'its version is "1", not the number 1 or 2'),
        (lambda: V1.replace('"v":1,', ''), "its version is missing"),
        (lambda: _saved_match().replace('"v":2', '"v":3'), "its version is 3"),
    ],
)
def test_a_save_refused_says_what_is_wrong(micropython: MicroPython, text, words) -> None:
    text = text()
    why = saverange.refusal(text)
    assert why is not None and words in why and "KeyError" not in why, why
    assert micropython.run({"refusal": text}) == why  # the same words on the board


def test_good_saves_of_both_versions_still_load(micropython: MicroPython) -> None:
    for text in (V1, _saved_match()):
        assert saverange.refusal(text) is None
        assert micropython.run({"refusal": text}) == "None"
