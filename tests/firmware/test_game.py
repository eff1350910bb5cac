# Game: phases, turns, the record, game over, and the save format (MicroPython too).
from games import load as _load
from games import roundtrip, some_steps_in
from gammon.position import Position
from model.game import DONE, MOVE, OPENING, OVER, ROLL, Game
from positions import pos, raises

# Player on roll on the bar against a closed board: no roll can enter.
CLOSED = pos({25: 1, 1: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3})
# One checker left on the 1-point; the opponent's checkers decide single/gammon/backgammon.
LAST = {1: 1}
SINGLE = pos(LAST, {6: 14})  # the opponent has borne one off
GAMMON = pos(LAST, {6: 15})
BACKGAMMON = pos(LAST, {6: 14, 20: 1})  # one still in the winner's home board


def test_new_game_waits_for_the_opening():
    g = Game()
    assert g.phase == OPENING and g.game_number == 1
    assert g.position == Position.start() and g.dice is None and g.history == []
    assert raises(g.roll, (3, 1))
    assert raises(g.step, 8, 5)
    assert g.undo() is None


def test_opening_winner_plays_both_numbers():
    g = Game()
    assert raises(g.roll_opening, (4, 4))
    assert g.phase == OPENING
    assert g.roll_opening((2, 5))
    assert g.turn == 1 and g.phase == MOVE and g.dice == (2, 5) and g.opening == [2, 5]
    g2 = Game()
    g2.roll_opening((6, 1))
    assert g2.turn == 0 and g2.dice == (6, 1)


def test_turn_steps_undo_and_pass():
    g = Game()
    g.roll_opening((3, 1))
    assert [s[:2] for s in g.step(8, 5)] == [(8, 5)]
    assert g.phase == MOVE
    assert raises(g.step, 13, 10)  # the 3 is used
    g.step(6, 5)
    assert g.phase == DONE
    assert g.undo() == (6, 5, False)
    assert g.phase == MOVE
    g.step(6, 5)
    assert raises(g.roll, (7, 1))
    assert g.roll((2, 2))  # passes the turn: player 1 rolls
    assert g.history == [[0, 3, 1, g.history[0][3]]]
    assert g.turn == 1 and g.phase == MOVE and g.dice == (2, 2)
    assert g.undo() is None  # nothing entered this turn; the last turn is final
    assert g.position.swap().me[4] == 2  # player 0's 5-point made, seen from player 1


def test_no_legal_move_passes_the_turn():
    g = Game()
    g.setup(CLOSED, turn=1)
    assert g.phase == ROLL and g.turn == 1
    assert g.roll((6, 6)) is False
    assert g.history == [[1, 6, 6, 0]]
    assert g.phase == ROLL and g.turn == 0 and g.dice is None
    assert g.position == CLOSED.swap()


def _finish(position):
    g = Game()
    g.setup(position)
    g.roll((3, 1))
    g.step(1, 0)
    return g


def test_game_over_single_gammon_backgammon():
    for position, result in ((SINGLE, 1), (GAMMON, 2), (BACKGAMMON, 3)):
        g = _finish(position)
        assert g.phase == OVER and g.winner == 0 and g.result == result, position
        assert g.score == [result, 0]
        assert len(g.history) == 1
        assert raises(g.roll, (1, 2))


def test_undo_after_the_winning_step():
    g = _finish(GAMMON)
    assert g.undo() == (1, 0, False)
    assert g.phase == MOVE and g.winner is None and g.score == [0, 0] and g.history == []
    g.step(1, 0)
    assert g.phase == OVER and g.score == [2, 0]


def test_setup_refuses_a_finished_game():
    g = Game()
    assert raises(g.setup, pos({}, {6: 15}))


def test_play_forced():
    # Only the back checker can move, and 24/18 is blocked: 24/19/13 is the one play.
    g = Game()
    g.setup(pos({24: 1, 1: 14}, {7: 2, 3: 13}))
    g.roll((6, 5))
    assert g.turn_state.forced
    made = g.play_forced()
    assert made and g.phase == DONE
    assert g.play_forced() == []


def test_new_game_counts_games_and_keeps_score():
    g = _finish(GAMMON)
    g.new_game()
    assert g.game_number == 2 and g.phase == OPENING and g.score == [2, 0]
    assert g.history == [] and g.winner is None


def test_save_round_trips_every_phase():
    g = Game()
    roundtrip(g)
    g.roll_opening((3, 1))
    roundtrip(g)
    g.step(8, 5)
    assert roundtrip(g).steps() == g.steps()
    g.step(6, 5)
    roundtrip(g)
    g.roll((6, 4))
    g.step(24, 14)
    roundtrip(g)
    g.pass_turn()
    assert roundtrip(g).phase == ROLL
    over = _finish(BACKGAMMON)
    h = roundtrip(over)
    assert h.winner == 0 and h.result == 3 and h.score == [3, 0]
    assert h.undo() == (1, 0, False)  # a resumed game over can still be taken back
    nomove = Game()
    nomove.setup(CLOSED, turn=1)
    nomove.roll((5, 2))
    assert roundtrip(nomove).history == [[1, 5, 2, 0]]


def _tampered(text, old, new):
    assert old in text, (old, text)
    return text.replace(old, new, 1)


def test_savefile_rejects_bad_saves():
    g = some_steps_in()
    text = g.to_json()
    record = "31%07x" % g.codes[0]
    assert '"h":"%s"' % record in text
    edits = [  # (old, new) pieces of the save; old None: new is the whole text
        (None, ""),
        (None, "garbage"),
        (None, text[: len(text) // 2]),  # truncated
        (None, "[1, 2]"),
        ('"v":2', '"v":3'),
        (record, "31%07x" % (g.codes[0] ^ 1)),  # another, illegal play
        (record, "32" + record[2:]),  # other dice than the opening's
        (record, record + "0"),  # not 9 characters a turn
        (record, record[:8] + "x"),
        ('"f":0', '"f":1'),  # the wrong player
        ('"d":[6,4]', '"d":[6,7]'),
        ('"ph":2', '"ph":3'),  # DONE with nothing played
        ('"t":1', '"t":0'),
        ('"o":[3,1]', '"o":[3,3]'),
        ('"id":"', '"id":"A'),
        ('"s":[]', '"s":[[24,17]]'),
        ('"n":1', '"n":"1"'),
        ('"sc":[0,0]', '"sc":[0]'),
        ('"m":[0,0,1]', '"m":[26,0,1]'),
        ('"m":[0,0,1]', '"m":[5,1,1]'),  # a match with no base
        ('"sc":[0,0]', '"sc":[0,0],"a":"00210"'),  # a take with no double
        ('"sc":[0,0]', '"sc":[0,0],"a":"0041"'),
    ]
    for old, new in edits:
        t = new if old is None else _tampered(text, old, new)
        assert raises(_load, t), t
    assert _load(text).to_json() == text


# Saves of version 1 (written before the cube was played), as the firmware of then wrote them.
V1_MOVE = (
    '{"v":1,"n":3,"ph":3,"t":1,"o":[3,1],"d":[6,4],"s":[[24,18],[18,14]],"w":-1,"r":0,'
    '"cb":[1,-1],"ml":0,"sc":[0,0],"id":"sGfwATDgc/ABMA","f":0,"h":"3102000c8"}'
)
V1_OVER = (
    '{"v":1,"n":2,"ph":4,"t":0,"o":null,"d":[3,1],"s":[[1,0]],"w":0,"r":2,"cb":[1,-1],'
    '"ml":0,"sc":[5,3],"id":"4P8PAAABAAAAAA","st":["4P8PAAABAAAAAA",0],"f":0,"h":"310100001"}'
)


def test_version_1_saves_load_as_money_play():
    g = _load(V1_MOVE)
    assert g.game_number == 3 and g.phase == DONE and g.turn == 1 and g.dice == (6, 4)
    assert len(g.steps()) == 2 and g.score == [0, 0] and g.cube == 1 and g.match_length == 0
    assert g.mp is None and not g.terms[1]  # the cubeless game it was: no match code made
    assert roundtrip(g).to_json() == g.to_json()
    over = _load(V1_OVER)  # the saved score includes the game's gammon
    assert over.phase == OVER and over.winner == 0 and over.result == 2
    assert over.score == [5, 3] and over.points == 2 and over.ended == "played"
    over.new_game()
    assert over.score == [5, 3] and over.phase == OPENING
    assert not over.games and over.mp is None  # cubeless money games stand alone
    roundtrip(over)
    for bad in (V1_OVER.replace('"sc":[5,3]', '"sc":[1,3]'),  # less than the gammon won
                V1_MOVE.replace('"ml":0', '"ml":26'),
                V1_MOVE.replace('"cb":[1,-1]', '"cb":[3,0]')):
        assert raises(_load, bad), bad


def test_setup_game_saves_its_start():
    g = Game()
    g.setup(SINGLE, turn=1)
    h = roundtrip(g)
    assert h.start[0] == SINGLE and h.start[1] == 1
