"""The engine against GNU Backgammon, live (CPython only): legal plays, counts, Position IDs.

Positions come from seeded random play with random dice (gen_oracle.random_positions: 30%
of the plays gnubg's best, to reach races and bear-offs) plus crafted corners. In every
position the roll thrown in the game is compared: the set of results (Position IDs, the
mover on roll) of every legal play, through gnubg's `hint` when plays bear off. In the
crafted corners all 21 rolls are compared that way, and in every 4th random position the
21 rolls are compared by count (gnubg.findbestmoves) and, unless plays bear off, by results
(gnubg's move tuples applied by gen_oracle; its `hint` costs ~10 ms a call).
"""

import gen_oracle as g  # noqa: E402
import gnubg  # noqa: E402  (the oracle, pinned in requirements.txt)
import pytest
from gammon import Position, legal_plays  # noqa: E402
from gammon.notation import find_play  # noqa: E402

N_POSITIONS = 2000
SEED = 7
MAX_REPORT = 10
EVERY_ROLL = 4  # all 21 rolls in every 4th position
EVERY_NOTATION = 10  # steps and notation of every play in every 10th position

# Crafted corners (as in tests/engine): me, opp as {point: checkers}, own numbering, 25 = bar.
CORNERS = [
    ({25: 1, 6: 5, 8: 3, 13: 6}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 13: 5}),  # vs a 5-point board
    ({25: 1, 6: 5, 8: 3, 13: 6}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}),  # closed
    ({25: 2, 6: 5, 8: 3, 13: 5}, {6: 5, 8: 3, 13: 5, 24: 2}),  # two on the bar
    ({25: 2, 6: 5, 8: 3, 13: 5}, {1: 2, 6: 5, 8: 3, 13: 5}),
    ({25: 3, 6: 4, 8: 3, 13: 5}, {3: 1, 6: 5, 8: 3, 13: 6}),  # three on the bar, a blot
    ({1: 1, 2: 1, 4: 1}, {19: 3, 20: 12}),  # bear-off from the highest point
    ({5: 2, 3: 1}, {24: 3, 13: 12}),
    ({6: 3, 5: 3, 4: 3, 1: 2}, {22: 1, 8: 14}),  # hits during the bear-off
    ({6: 1}, {13: 15}),  # the last checker
    ({7: 1, 6: 2, 2: 3}, {22: 1, 24: 1, 13: 13}),  # bearing in and off in one roll
    ({24: 1, 1: 14}, {10: 2, 6: 13}),  # only one die plays: the larger
    ({24: 1, 1: 14}, {7: 2, 10: 2, 6: 11}),
    ({24: 1, 1: 14}, {7: 2, 6: 13}),
    ({24: 1, 1: 14}, {13: 2, 6: 13}),  # doubles played partly
    ({24: 1, 10: 1, 1: 13}, {2: 2, 22: 2, 13: 11}),  # both dice through one order only
    ({24: 2, 13: 5, 8: 3, 6: 5}, {18: 1, 6: 5, 8: 3, 13: 4, 2: 2}),  # a blot on the way
]
BIG = ["AAAA/3+UUkpJKQ", "d7cNAABUqqqqAA", "4HPwATDgc/ABMA"]


def board(me, opp):
    m, o = [0] * 25, [0] * 25
    for k, v in me.items():
        m[k - 1] = v
    for k, v in opp.items():
        o[k - 1] = v
    return o, m


def engine_ids(pos, dice):
    """The engine's result IDs, encoded by gnubg (fast; the engine's own encoder is
    compared with gnubg's in test_position_ids)."""
    return sorted(_gnubg_id(p.result) for p in legal_plays(pos, dice))


def _gnubg_id(position):
    return gnubg.positionid((position.opp, position.me))


def fast_results(b, dice):
    """(count, gnubg's result IDs from the move tuples, or None when a play bears off)."""
    moves = g._moves(b, dice)
    if any(len(m) % 2 for m in moves):
        return len(moves), None
    boards = [g.apply(b, zip(m[::2], m[1::2], strict=True)) for m in moves]
    return len(moves), sorted(set(g.pid_of(after) for after in boards))


@pytest.fixture(scope="module")
def games():
    return g.random_positions(N_POSITIONS, SEED)


@pytest.fixture(scope="module")
def corners():
    out = [board(me, opp) for me, opp in CORNERS]
    return out + [g.board_of(pid) for pid in BIG]


def _position(b):
    return Position(b[1], b[0])


def test_corners_all_rolls(corners):
    bad = []
    for b in corners:
        pos = _position(b)
        for dice in g.ALL_ROLLS:
            want = g.results(b, dice)  # through `hint` where plays bear off
            got = engine_ids(pos, dice)
            if got != want:
                bad.append(
                    "%s %r: engine %d plays, gnubg %d; only engine %s, only gnubg %s"
                    % (
                        pos.position_id(),
                        dice,
                        len(got),
                        len(want),
                        sorted(set(got) - set(want))[:5],
                        sorted(set(want) - set(got))[:5],
                    )
                )
    assert not bad, "\n".join(bad[:MAX_REPORT])


def test_random_play_every_roll(games):
    """All 21 rolls in every EVERY_ROLL-th position (the engine's search dominates)."""
    bad = []
    compared = 0
    for b, _, _ in games[::EVERY_ROLL]:
        pos = _position(b)
        for dice in g.ALL_ROLLS:
            count, want = fast_results(b, dice)
            plays = legal_plays(pos, dice)
            if len(plays) != count:
                bad.append(
                    "%s %r: %d plays, gnubg %d" % (pos.position_id(), dice, len(plays), count)
                )
            elif want is not None:
                compared += 1
                got = sorted(_gnubg_id(p.result) for p in plays)
                if got != want:
                    bad.append(
                        "%s %r: results differ: only engine %s, only gnubg %s"
                        % (
                            pos.position_id(),
                            dice,
                            sorted(set(got) - set(want))[:5],
                            sorted(set(want) - set(got))[:5],
                        )
                    )
    assert not bad, "\n".join(bad[:MAX_REPORT])
    assert compared > 0.8 * 21 * len(games) / EVERY_ROLL


def test_random_play_thrown_rolls(games):
    """The rolls of the games, bear-offs included (their results through gnubg's hint)."""
    bad = []
    for b, dice, want in games:
        got = engine_ids(_position(b), dice)
        if got != want:
            bad.append("%s %r: engine %s, gnubg %s" % (g.pid_of(b), dice, got, want))
    assert not bad, "\n".join(bad[:MAX_REPORT])
    bear_offs = sum(1 for b, dice, want in games if fast_results(b, dice)[1] is None)
    assert bear_offs >= 50  # the hint path was exercised
    assert sum(1 for _, _, want in games if not want) >= 20  # and positions with no move


def test_position_ids(games, corners):
    bad = []
    for b, _, want in games + [(c, None, []) for c in corners]:
        pid = gnubg.positionid(b)
        pos = _position(b)
        if pos.position_id() != pid or Position.from_id(pid) != pos:
            bad.append(pid)
        if pos.swap().position_id() != gnubg.positionid((b[1], b[0])):
            bad.append("swap of " + pid)
        if pos.me != tuple(b[1]) or pos.opp != tuple(b[0]):
            bad.append("sides of " + pid)
        for rid in want[:3]:
            opp, me = gnubg.positionfromid(rid)
            if Position(me, opp).position_id() != rid:
                bad.append(rid)
    assert not bad, bad[:MAX_REPORT]


def test_steps_and_notation_agree_with_results(games):
    """A play's steps, applied by gen_oracle, and its notation, parsed by gnubg, both
    give its result; find_play finds it again from the notation."""
    bad = []
    for b, dice, _ in games[::EVERY_NOTATION]:
        pos = _position(b)
        for play in legal_plays(pos, dice):
            rid = play.result.position_id()
            after = g.apply(b, [s[:2] for s in play.steps])
            for _frm, to, hit in play.steps:
                if hit and to == 0:
                    bad.append("%s %r: %s hits off the board" % (pos.position_id(), dice, play))
            if g.pid_of(after) != rid:
                bad.append("%s %r: steps of %s" % (pos.position_id(), dice, play))
            if g.pid_of(g.apply(b, gnubg.parsemove(str(play)))) != rid:
                bad.append("%s %r: notation %s" % (pos.position_id(), dice, play))
            if find_play(pos, dice, str(play)).result.position_id() != rid:
                bad.append("%s %r: find_play %s" % (pos.position_id(), dice, play))
    assert not bad, "\n".join(bad[:MAX_REPORT])


def test_oracle_hint_path_agrees_with_move_tuples(games):
    """gen_oracle's two ways to read gnubg's plays agree where both work."""
    checked = 0
    for b, dice, want in games[:400:4]:
        if want and fast_results(b, dice)[1] is not None:
            assert g.check_hint(b, dice), (g.pid_of(b), dice)
            checked += 1
    assert checked >= 50
