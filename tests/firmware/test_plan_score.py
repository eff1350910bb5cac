# The board's player in a match (control/plan.py): its plan counts gammons at the game's
# match score (gammon/score_values.py, loaded only then), so at double match point it plays
# another play than in money play, where it loads nothing more and plays as before.
import sys

from control.loader import weights_path
from control.plan import Plan, at_score
from gammon import Position
from gammon.opponent import shared
from gammon.score_values import weights
from model.game import Game

# tests/engine/test_opponent_score.py's case: at DMP running a back checker out with the 6
# wins more for far more gammons lost; money play does not pay that
PID = "2M6YAQMzbuAAJg"
DICE = (6, 1)


def _game(terms=None, base=None, turn=0):
    g = Game(1, terms, base)
    g.setup(Position.from_id(PID), turn)
    g.roll(DICE)
    return g


def _plan(g):
    p = Plan(shared(weights_path()), g, "strong")
    while not p.step():
        pass
    return str(p.play)


def test_money_play_plans_as_before_and_loads_nothing_more():
    sys.modules.pop("gammon.score_values", None)
    g = _game()
    assert at_score(g) is None
    assert _plan(g) == "24/23 13/7"
    assert "gammon.score_values" not in sys.modules
    # money play with the cube (a MatchPlay, no match to points): money play's values too
    assert at_score(_game((0, True, True))) is None


def test_at_double_match_point_the_plan_plays_for_the_win():
    g = _game((7, True, False), (6, 6, False, True, 13))  # 6-6 in a match to 7
    assert at_score(g) == weights(1, 1, 1) == (0, 0, 0, 0)
    assert _plan(g) == "24/23 22/16"


def test_the_values_are_the_player_on_roll_s():
    g = _game((7, True, False), (6, 5, False, True, 12), 1)  # player 1 two away, post-Crawford
    assert at_score(g) == weights(2, 1, 1) == (8192, 0, 0, 0)
    g0 = _game((7, True, False), (6, 5, False, True, 12), 0)
    assert at_score(g0) == (0, 0, 8192, 0)
