# The board plays the cube through the controller (control/autoplay.py with
# gammon/cube_play.py, every action through control/cube_actions.act): board against board
# in money games and a whole match, against a person who doubles and resigns, and HINT's
# advice on a person's cube decisions.
import gc

import fakes
from control.autoplay import cube_advice
from control.boot import boot
from control.cube_actions import act
from control.hint import hint
from control.loader import weights_path
from gammon.cube_play import answer
from gammon.dice import Dice, SeededBytes
from gammon.opponent import shared
from hw.storage import Store
from model.game import DONE, MOVE, OPENING, OVER, ROLL
from test_autoplay import Watch, run

CUBE_EVENTS = ("double", "take", "drop", "resign", "accept", "reject")
LIMIT = 200000  # ticks of a whole game (test_autoplay.run's default is a shorter one's)


class Log:
    """Wraps a test_autoplay.Watch: keeps the cube events in order."""

    def __init__(self, watch):
        self.watch = watch
        self.cube = []

    def __call__(self, ev):
        if ev["event"] in CUBE_EVENTS:
            self.cube.append(ev)
        self.watch(ev)


def _setup(players, terms, seed, pace=60, level="strong"):
    gc.collect()
    watch = Watch(False)
    watch.now = 0
    log = Log(watch)
    ctl = boot(Store(fakes.tmpdir()), Dice(SeededBytes(seed)), "full", log, 0)
    ctl.pace_ms = pace
    watch.ctl = ctl
    assert ctl.configure("players", players)[0] and ctl.configure("level", level)[0]
    length, cube, jacoby = terms
    for key, value in (("match_length", length), ("cube", cube), ("jacoby", jacoby)):
        assert ctl.configure(key, value)[0], key
    ctl.new_game(0)
    g = ctl.game
    assert g.terms == tuple(terms) and g.phase == OPENING
    return ctl, watch, log


def _check_answers(log):
    """Every double is answered by the other side (take or drop), every resignation too."""
    evs = log.cube
    for i, ev in enumerate(evs):
        if ev["event"] in ("double", "resign"):
            assert i + 1 < len(evs), evs[-3:]
            nxt = evs[i + 1]
            want = ("take", "drop") if ev["event"] == "double" else ("accept", "reject")
            assert nxt["event"] in want and nxt["by"] == 1 - ev["by"], (ev, nxt)


def test_board_against_board_money_games_with_the_cube():
    doubles = 0
    for seed in (3, 9):  # short games (CPython runs the network's kernels slowly)
        ctl, watch, log = _setup(["board", "board"], (0, True, True), seed)
        g = ctl.game
        run(ctl, watch, limit=LIMIT)
        watch.check()
        _check_answers(log)
        doubles += sum(1 for e in log.cube if e["event"] == "double")
        takes = sum(1 for e in log.cube if e["event"] == "take")
        assert g.match.cube == 2**takes
        if log.cube and log.cube[-1]["event"] in ("drop", "accept"):
            assert log.cube[-1]["winner"] == g.winner
        assert g.match.points >= 1
        fakes.done(ctl)
    assert doubles >= 1  # the board does use its cube


def test_board_against_board_plays_a_whole_match():
    ctl, watch, log = _setup(["board", "board"], (3, True, False), 9, level="easy")
    g = ctl.game
    games = 0
    now = 1000
    while True:
        crawford = g.match.crawford
        start = len(log.cube)
        now = run(ctl, watch, now=now, limit=LIMIT)
        games += 1
        if crawford:  # no doubling in the Crawford game
            assert not [e for e in log.cube[start:] if e["event"] == "double"]
        if g.match.over():
            break
        ctl.press("ROLL", now + 10)  # the next game of the match
        assert g.phase != OVER
    watch.check()
    _check_answers(log)
    assert max(g.match.score) >= 3 and games >= 1
    fakes.done(ctl)


def test_the_board_answers_a_persons_double_and_resignation():
    ctl, watch, log = _setup(["human", "board"], (0, True, False), 5, pace=100)
    g = ctl.game
    net = shared(weights_path()).net
    asked = {"double": 0, "resign": 0}
    expected = []

    def person(ctl, now):
        offer = g.mp is not None and g.mp.match.offer
        if ctl.busy() or g.phase == OVER or ctl.view.rolling_until or offer:
            return
        if g.phase == MOVE and not ctl.by_board(g.turn):
            if asked["double"] and not asked["resign"] and len(g.codes) > 6 and not g.steps():
                ok, out = act(ctl, "resign", now, 1)  # the person offers a single
                assert ok, out
                asked["resign"] = 1
                expected.append(answer(net, g.position, g.match, g.turn))
                return
            fakes.play_step(ctl, now)
        elif g.phase == DONE and ctl.by_board(g.turn) and not asked["double"]:
            # the board's play is complete: the person doubles instead of rolling
            ok, out = act(ctl, "double", now)
            if ok:
                asked["double"] = 1
                expected.append(answer(net, g.position, g.match, g.turn))
        elif g.phase in (OPENING, ROLL, DONE):
            ctl.press("ROLL", now)

    run(ctl, watch, person, limit=LIMIT)
    watch.check()
    _check_answers(log)
    answers = [e["event"] for e in log.cube if e["event"] in ("take", "drop", "accept", "reject")]
    assert asked["double"] and answers[: len(expected)] == expected, (answers, expected)
    for e in log.cube:
        if e["event"] in ("take", "drop", "accept", "reject"):
            assert e["by"] == 1  # the board's side answered
    fakes.done(ctl)


def test_cube_advice_for_a_persons_decisions():
    ctl, _ = fakes.make()
    g = ctl.game
    assert cube_advice(ctl) is None  # cubeless money play: no cube at all
    assert ctl.configure("cube", True)[0] and ctl.configure("match_length", 0)[0]
    ctl.new_game(0)
    assert g.terms[1] and g.phase == OPENING
    assert cube_advice(ctl) is None  # the opening throw: no cube decision
    now = 100
    while g.phase != DONE:  # player on roll plays its opening
        ctl.roll(now) if g.phase == OPENING else fakes.play_step(ctl, now)
        now += 10
    a = cube_advice(ctl)
    assert a["kind"] == "double" and a["player"] == 1 - g.turn
    assert a["action"] in ("no double", "double", "too good") and a["units"] == "equity"
    assert -3000 <= a["no_double"] <= 3000 and a["double_pass"] == 1000
    ok, out = hint(ctl, now)  # the protocol's hint says it, equities and all
    assert ok and out["cube"] == a, out
    ok, out = act(ctl, "double", now)
    assert ok, out
    a = cube_advice(ctl)
    assert hint(ctl, now)[1]["cube"] == a
    assert a["kind"] == "take" and a["player"] == 1 - g.turn
    assert a["action"] in ("take", "drop")
    fakes.done(ctl)


def test_the_board_resigns_a_lost_race_once_and_plays_on_when_refused():
    from gammon import Position

    ctl, watch, log = _setup(["human", "board"], (0, True, False), 3, pace=40)
    g = ctl.game
    lost = [0] * 25
    lost[12] = 15  # the board's fifteen on its 13 point ...
    home = [0] * 25
    home[0] = 2  # ... against the person's last two, on its 1 point
    g.setup(Position(lost, home), 1)  # the board to roll
    ctl.changed(1000)
    now = run(ctl, watch, limit=LIMIT, until=lambda c: bool(log.cube))
    assert log.cube[-1] == {"event": "resign", "by": 1, "value": 2}  # a sure gammon
    assert act(ctl, "reject", now)[0]
    run(ctl, watch, person_rolls, now, LIMIT)
    watch.check()
    assert [e["event"] for e in log.cube] == ["resign", "reject"]  # not offered again
    assert g.winner == 0 and g.match.points == 2
    fakes.done(ctl)


def person_rolls(ctl, now):
    """A person who only throws and plays its first legal steps."""
    g = ctl.game
    if ctl.busy() or g.phase == OVER or ctl.view.rolling_until:
        return
    if g.phase == MOVE:
        fakes.play_step(ctl, now)
    elif g.phase in (ROLL, DONE):
        ctl.press("ROLL", now)


def test_the_board_doubles_before_its_throw_when_a_person_passes_it_the_turn():
    """A person's ROLL after a complete play passes the turn: with the cube on the board
    then decides on the cube before it throws (it does not throw at once)."""
    from gammon import Position

    ctl, watch, log = _setup(["human", "board"], (0, True, True), 7, pace=40)
    g = ctl.game
    behind, ahead = [0] * 25, [0] * 25
    for pt, n in ((7, 3), (8, 3), (9, 3), (10, 2), (11, 2), (12, 2)):
        behind[pt - 1] = n  # the person, far behind in a race ...
    for pt in (1, 2, 3):
        ahead[pt - 1] = 5  # ... the board about to bear off: a double (Jacoby: no gammons)
    g.setup(Position(behind, ahead), 0)
    ctl.changed(1000)

    def person(ctl, now):
        if g.phase == MOVE and not ctl.view.rolling_until:
            fakes.play_step(ctl, now)

    ctl.press("ROLL", 1100)
    now = run(ctl, watch, person, now=1100, limit=LIMIT, until=lambda c: g.phase == DONE)
    rolls = watch.counts.get("roll", 0)
    ok, out = ctl.roll(now + 10)  # the person passes the turn: the board is to roll
    assert ok and out == {"dice": None, "player": 1, "board": True}, out
    assert g.turn == 1 and g.phase == ROLL and watch.counts.get("roll", 0) == rolls
    run(ctl, watch, now=now + 10, limit=LIMIT, until=lambda c: bool(log.cube))
    assert log.cube[0] == {"event": "double", "by": 1, "cube": 2}  # before any throw
    assert watch.counts.get("roll", 0) == rolls and g.phase == ROLL
    fakes.done(ctl)


def _board_to_roll(seed, board_points, person_points):
    """A money game with the cube, the board (player 1) to roll after the person's play."""
    from gammon import Position

    ctl, watch, log = _setup(["human", "board"], (0, True, True), seed, pace=40)
    g = ctl.game
    person, board = [0] * 25, [0] * 25
    for pt, n in person_points:
        person[pt - 1] = n
    for pt, n in board_points:
        board[pt - 1] = n
    g.setup(Position(board, person), 1)  # the board on roll
    ctl.changed(1000)
    assert g.turn == 1 and g.phase == ROLL and ctl.busy()
    return ctl, watch, log


def _tick_until_decided(ctl, now):
    """Ticks until the board has made this turn's cube decision; the time reached."""
    g = ctl.game
    key = (g.game_number, len(g.codes))
    for _ in range(200):
        now += 20
        ctl.tick(now)
        cube = ctl.bot.cube
        if cube is not None and cube.turn == key:
            return now
    raise AssertionError("no cube decision")


def test_a_cube_decision_and_what_follows_it_are_ticks_of_their_own():
    """The board's cube decision (one network evaluation) and what it leads to, the double
    or the throw, and its answer to an offer and the answer given, are made in separate
    ticks: the two in one held the loop about twice as long (a match's game on the unix
    port: 0.2-0.28 ms, over issue 11's 0.25)."""
    race = ((1, 5), (2, 5), (3, 5))  # about to bear off: a double (Jacoby: no gammons)
    behind = ((7, 3), (8, 3), (9, 3), (10, 2), (11, 2), (12, 2))
    ctl, watch, log = _board_to_roll(7, race, behind)
    g = ctl.game
    now = _tick_until_decided(ctl, 1000)
    assert ctl.bot.cube.what == "double" and not log.cube  # decided, not yet offered
    assert g.phase == ROLL and g.match.offer == 0
    ctl.tick(now + 20)  # the next tick at once (no pace): the double
    assert log.cube == [{"event": "double", "by": 1, "cube": 2}] and g.phase == ROLL
    fakes.done(ctl)
    # the start of a game: no double; the throw waits for the tick after the decision
    ctl, watch, log = _board_to_roll(8, ((6, 5), (8, 3), (13, 5), (24, 2)),
                                     ((6, 5), (8, 3), (13, 5), (24, 2)))
    g = ctl.game
    now = _tick_until_decided(ctl, 1000)
    assert ctl.bot.cube.what is None and g.phase == ROLL and not g.dice
    ctl.tick(now + 20)
    assert g.phase == MOVE and g.dice and not log.cube  # thrown, no cube action
    fakes.done(ctl)
    # a person's double: seen (a pace), decided (a tick), answered (the next tick)
    ctl, watch, log = _board_to_roll(9, ((6, 5), (8, 3), (13, 5), (24, 2)),
                                     ((6, 5), (8, 3), (13, 5), (24, 2)))
    g = ctl.game
    g.setup(g.position.swap(), 0)  # the person on roll instead
    ctl.changed(1000)
    ok, out = act(ctl, "double", 1000)
    assert ok, out
    cube = ctl.bot._cubes()
    now = 1000
    while cube.reply is None:
        assert not [e for e in log.cube if e["event"] in ("take", "drop")]
        now += 20
        ctl.tick(now)
    assert cube.reply == "take" and g.match.offer  # decided; the offer still on the table
    ctl.tick(now + 20)
    assert log.cube[-1] == {"event": "take", "by": 1, "cube": 2}, log.cube
    fakes.done(ctl)
