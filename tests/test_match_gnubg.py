"""The cube, resignation and match rules (gammon.match) and the Match ID (gammon.matchid)
against GNU Backgammon itself: random matches and money sessions are played in gnubg through
its commands (double, take, drop, resign, accept, reject, the dice set, the moves) and in the
engine side by side, and every state reached has the same Match ID in both."""

import random

import gnubg
import pytest
from gammon import legal_plays
from gammon.match import Match
from gammon.matchid import decode, encode
from gammon.position import Position
from gnubg_capture import BY_HAND, answer, next_game, quiet


@pytest.fixture(scope="module")
def gnu():
    for cmd in BY_HAND:
        quiet(cmd)
    return gnubg


class Side:
    """The engine's side of the game: the match, the position seen by the player on roll."""

    def __init__(self, match: Match) -> None:
        self.match = match
        self.start_game()

    def start_game(self) -> None:
        """gnubg throws the opening itself: take its dice and who plays them."""
        d = decode(gnubg.matchid())
        self.on_roll = d["move"]
        self.dice = (d["die1"], d["die2"])
        self.pos = Position.start()

    def mid(self) -> str:
        return encode(self.match.id_fields(self.on_roll, self.dice))


def _step(rnd: random.Random, s: Side) -> bool:
    """One random action in both; False once the match (or session) is over."""
    m = s.match
    if m.ended:
        return next_game(m, s.start_game)
    if m.offer:  # the same answer in both
        said = answer(rnd, m)
        getattr(m, said)(m.deciding(s.on_roll))
        quiet(said)
        return True
    r = rnd.random()
    if r < 0.03 and m.declined < 3:
        value = rnd.randint(m.declined + 1, 3)  # only more after a rejection (gnubg's rule)
        m.resign(s.on_roll, value)
        quiet("resign %d" % value)
        return True
    if s.dice is None:
        if r < 0.25 and m.may_double(s.on_roll):
            m.double(s.on_roll)
            quiet("double")
            return True
        a, b = sorted((rnd.randint(1, 6), rnd.randint(1, 6)), reverse=True)
        quiet("set dice %d %d" % (a, b))
        m.went_on()
        s.dice = (a, b)
        if not legal_plays(s.pos, s.dice):  # no legal move: the turn passes
            quiet("move")
            s.pos, s.on_roll, s.dice = s.pos.swap(), 1 - s.on_roll, None
        return True
    plays = legal_plays(s.pos, s.dice)
    play = plays[rnd.randrange(len(plays))]
    quiet("move %s" % play)
    m.went_on()
    s.pos = play.result
    won = s.pos.outcome()
    if won:
        m.finish(s.on_roll, won)
    else:
        s.pos, s.on_roll = s.pos.swap(), 1 - s.on_roll
    s.dice = None
    return True


def test_match_ids_equal_gnubgs_in_random_matches_and_sessions(gnu):
    rnd = random.Random(13)
    states = 0
    kinds = set()
    for k in range(48):
        if k % 4 == 3:  # money play, with and without the Jacoby rule
            jacoby = k % 8 == 3
            quiet("set jacoby %s" % ("on" if jacoby else "off"))
            quiet("new session")
            match = Match(0, True, jacoby)
        else:
            length = rnd.choice((1, 2, 3, 5, 7))
            quiet("new match %d" % length)
            match = Match(length)
        side = Side(match)
        while True:
            want = gnubg.matchid()
            assert side.mid() == want, (k, states, decode(want), match.__dict__)
            d = decode(want)
            kinds.add((d["state"], d["doubled"], d["resigned"] > 0, d["crawford"]))
            states += 1
            if not _step(rnd, side):
                break
        if match.length:
            assert match.over() and max(match.score) >= match.length
    assert states > 3000
    # every game state (playing, over, resigned, dropped), offers of both kinds, Crawford
    assert {k[0] for k in kinds} == {1, 2, 3, 4}
    assert any(k[1] for k in kinds) and any(k[2] for k in kinds) and any(k[3] for k in kinds)


def _board(tmp: str):
    """A Controller booted on an empty flash folder (the firmware's, in CPython)."""
    from control.boot import boot
    from gammon.dice import Dice, SeededBytes
    from hw.storage import Store

    return boot(Store(tmp), Dice(SeededBytes(1)), "full", lambda ev: None, 0)


def _board_step(rnd: random.Random, ctl, now: int) -> bool:  # noqa: ANN001
    """One random action at the board and the same in gnubg; False once it is all over."""
    from control.cube_actions import act

    g = ctl.game
    m = g.match
    if g.phase == 4:  # OVER
        if m.over() or (m.length == 0 and m.game_number >= 4):
            return False
        assert ctl.new_game(now)[0]
        quiet("new game")
        _opening(ctl, now)
        return True
    if m.offer:
        said = answer(rnd, m)
        assert act(ctl, said, now)[0]
        quiet(said)
        return True
    r = rnd.random()
    if r < 0.03 and m.declined < 3 and g.phase in (1, 2):  # ROLL, MOVE: on one's turn
        value = rnd.randint(m.declined + 1, 3)
        assert act(ctl, "resign", now, value)[0]
        quiet("resign %d" % value)
        return True
    if g.phase in (1, 3):  # ROLL, DONE: the next player to throw may double first
        if r < 0.25 and g.may_double:
            assert act(ctl, "double", now)[0]
            quiet("double")
            return True
        a, b = sorted((rnd.randint(1, 6), rnd.randint(1, 6)), reverse=True)
        quiet("set dice %d %d" % (a, b))
        assert ctl.roll(now, (a, b))[0]
        if g.phase == 1:  # no legal move: the turn passed
            quiet("move")
        return True
    plays = legal_plays(g.position, g.dice)
    play = plays[rnd.randrange(len(plays))]
    assert ctl.move(str(play), now)[0]
    quiet("move %s" % play)
    return True


def _opening(ctl, now: int) -> None:  # noqa: ANN001
    """The opening gnubg threw, entered at the board: [player 0's die, player 1's die]."""
    d = decode(gnubg.matchid())
    hi, lo = d["die1"], d["die2"]
    assert ctl.roll(now, (hi, lo) if d["move"] == 0 else (lo, hi))[0]


def test_state_match_ids_equal_gnubgs_in_matches_played_at_the_board(gnu, tmp_path):
    """The board's own `state` match_id (controller, cube_actions, report), not the engine's
    alone, against gnubg's for every state reached in random matches and money sessions."""
    rnd = random.Random(29)
    states = 0
    kinds = set()
    for k in range(16):
        ctl = _board(_fresh(tmp_path, k))
        if k % 4 == 3:
            jacoby = k % 8 == 3
            quiet("set jacoby %s" % ("on" if jacoby else "off"))
            quiet("new session")
            terms = (0, True, jacoby)
        else:
            terms = (rnd.choice((1, 3, 5)), True, False)
            quiet("new match %d" % terms[0])
        for key, value in zip(("match_length", "cube", "jacoby"), terms, strict=True):
            assert ctl.configure(key, value, 0)[0]
        assert ctl.new_game(0)[0]
        _opening(ctl, 0)
        now = 1
        while True:
            want = gnubg.matchid()
            s = ctl.state(False)
            assert s["match_id"] == want, (k, states, decode(want), s)
            d = decode(want)
            kinds.add((d["state"], d["doubled"], d["resigned"] > 0, d["crawford"]))
            states += 1
            now += 1
            if not _board_step(rnd, ctl, now):
                break
        if terms[0]:
            assert s["match_over"] and s["match_winner"] == ctl.game.match.match_winner()
    assert states > 800
    assert {k[0] for k in kinds} == {1, 2, 3, 4}
    assert any(k[1] for k in kinds) and any(k[2] for k in kinds) and any(k[3] for k in kinds)


def _fresh(tmp_path, k: int) -> str:  # noqa: ANN001
    path = tmp_path / ("flash%d" % k)
    path.mkdir()
    return str(path)
