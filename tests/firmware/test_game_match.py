# Game in a match: the cube, resignations, Crawford, the record of every game, the save after
# every single action (a power cut anywhere resumes exactly there), the Match ID (MicroPython too).
import gc

from games import load as _load
from games import roundtrip
from gammon.match import PLAYED, RESIGNED
from gammon.matchid import decode, encode
from hw.storage import MAX_SAVE
from model.game import DONE, MOVE, OPENING, OVER, ROLL, Game
from model.past import MAX_GAMES, RECORD_ROOM, Past, trim
from model.savetext import FULL
from positions import pos, raises

LAST = {1: 1}
SINGLE = pos(LAST, {6: 14})  # the player on roll bears off its last checker: a single game
GAMMON = pos(LAST, {6: 15})  # ... a gammon
LOSING = GAMMON.swap()  # the player on roll is about to lose a gammon


def resumed(g):
    """The game a power cut now would resume: equal in every respect that is saved."""
    h = roundtrip(g)
    assert h.match_id() == g.match_id() and h.score == g.score
    assert len(h.games) == len(g.games)
    for i in range(len(g.games)):
        a, b = h.games[i], g.games[i]
        assert (a.record, a.acts, a.before, a.how, a.winner, a.points) == (
            b.record, b.acts, b.before, b.how, b.winner, b.points)
    return h


def refused(g, action, *args):
    """`action` raises ValueError and changes nothing, saved or not."""
    text = g.to_json()
    assert raises(action, *args), action
    assert g.to_json() == text


def finish(g, position, turn):
    """A game set up one step from its end, played out by `turn`."""
    g.setup(position, turn)
    g.roll((3, 1))
    g.step(1, 0)


def test_a_five_point_match_with_every_action():
    g = Game(1, (5, True, True))
    m = g.match
    assert g.match_length == 5 and g.cube == 1 and g.cube_owner == -1
    refused(g, g.double)  # the opening: nobody may double
    refused(g, g.resign, 1)
    # Game 1: player 0 doubles, player 1 takes, player 0 wins a gammon: 4 points.
    g.setup(GAMMON, 0)
    refused(g, g.take)  # nothing offered
    refused(g, g.accept)
    refused(g, g.reject)
    g.double()
    assert m.offer and g.cube == 1
    refused(g, g.roll, (3, 1))  # the answer first
    refused(g, g.double)
    refused(g, g.resign, 1)
    refused(g, g.pass_turn)
    assert g.undo() is None
    g.take()
    assert g.cube == 2 and g.cube_owner == 1 and not m.offer
    refused(g, g.double)  # the cube is player 1's now
    g.roll((3, 1))
    refused(g, g.double)  # after the throw
    g.step(1, 0)
    assert g.phase == OVER and g.winner == 0 and g.result == 2 and g.points == 4
    assert g.ended == "played" and g.score == [4, 0] and not m.over()
    assert g.undo() == (1, 0, False) and g.score == [0, 0] and g.phase == MOVE  # taken back
    g.step(1, 0)
    assert g.score == [4, 0] and m.crawford  # player 0 is one point short: Crawford next
    g.new_game((7, False, False))  # other terms wait: the match is under way
    assert g.terms == (5, True, True) and g.phase == OPENING and g.cube == 1
    # Game 2, the Crawford game: no doubling; player 1 wins a single game.
    assert m.crawford and m.game_number == 2
    g.setup(SINGLE, 1)
    refused(g, g.double)
    g.roll((3, 1))
    g.step(1, 0)
    assert g.score == [4, 1] and not m.crawford and m.post_crawford
    # Game 3, post-Crawford: player 1 doubles and player 0 drops: 1 point.
    g.new_game()
    g.setup(SINGLE, 1)
    g.double()
    g.drop()
    assert g.phase == OVER and g.winner == 1 and g.result == 1 and g.points == 1
    assert g.ended == "dropped" and g.score == [4, 2]
    assert g.undo() is None  # a drop is final
    # Game 4: player 1 doubles, player 0 takes, player 1 wins a gammon: 2 x 2 = 4 points,
    # the match won 6-4, by more than needed.
    g.new_game()
    g.setup(GAMMON, 1)
    g.double()
    g.take()
    assert g.cube == 2 and g.cube_owner == 0
    g.roll((3, 1))
    g.step(1, 0)
    assert g.points == 4 and g.score == [4, 6] and m.over() and m.match_winner() == 1
    assert [p.points for p in g.games] == [4, 1, 1]
    assert [p.before for p in g.games] == [(0, 0, False, False), (4, 0, True, False),
                                           (4, 1, False, True)]
    resumed(g)
    g.new_game()  # a new match with the same terms
    assert g.match is not m and g.score == [0, 0] and g.games == [] and g.match_length == 5


def test_resignations_on_the_losers_turn():
    g = Game(1, (5, True, True))
    g.setup(LOSING, 0)  # player 0, on roll, is about to be gammoned
    refused(g, g.resign, 0)
    refused(g, g.resign, 4)
    g.resign(1)
    off = g.match.offer
    assert off and g.match.offer_by == 0 and g.match.offer_value == 1
    refused(g, g.resign, 2)  # one offer at a time
    refused(g, g.roll, (6, 5))
    refused(g, g.take)
    g.reject()
    g.roll((6, 5))
    assert g.phase == MOVE
    g.resign(2)  # after the throw, before moving
    g.accept()
    assert g.phase == OVER and g.winner == 1 and g.result == 2 and g.points == 2
    assert g.ended == "resigned" and g.score == [0, 2] and g.undo() is None
    h = resumed(g)
    assert h.dice == (6, 5) and h.ended == "resigned"
    d = decode(g.match_id())
    assert d["state"] == 3 and d["resigned"] == 2 and (d["die1"], d["die2"]) == (6, 5)


def test_match_ids_are_gnubgs_fields():
    g = Game(1, (3, True, True))
    g.setup(SINGLE, 1)
    g.double()
    want = encode(g.match.id_fields(1, None))
    assert g.match_id() == want
    d = decode(want)
    assert d["doubled"] and d["turn"] == 0 and d["move"] == 1 and d["length"] == 3
    g.take()
    g.roll((3, 1))
    assert g.match_id() == encode(g.match.id_fields(1, (3, 1)))
    money = Game()  # cubeless money play: Jacoby off in the ID, as gnubg writes it
    assert decode(money.match_id())["jacoby_off"] == 1


def _lcg(seed):
    """A small generator of random numbers, the same on MicroPython and CPython."""
    state = [seed]

    def rnd(n):
        state[0] = (state[0] * 1103515245 + 12345) & 0x3FFFFFFF
        return (state[0] >> 8) % n

    return rnd


def act(g, rnd, cap):
    """One random action of a person at the board; False once the match is over. After
    `cap` turns a game is ended by the cube or a resignation, accepted."""
    m = g.match
    late = len(g.codes) >= cap
    if g.phase == OVER:
        if m.over():
            return False
        g.new_game()
    elif m.offer == 1:
        (g.take if rnd(3) and not late else g.drop)()
    elif m.offer == 2:
        (g.reject if rnd(2) and not late else g.accept)()
    elif g.phase == OPENING:
        a = rnd(6) + 1
        g.roll_opening((a, a % 6 + 1))
    elif g.phase == ROLL and (late or rnd(6) == 0) and m.may_double(g.turn):
        g.double()
    elif g.phase in (ROLL, MOVE, DONE) and (late or rnd(60) == 0) and m.declined < 3:
        g.resign(m.declined + 1 + (0 if late else rnd(3 - m.declined)))  # more once rejected
    elif g.phase == DONE and (late or rnd(2)):
        g.pass_turn()  # the other player may double before throwing
    elif g.phase in (ROLL, DONE):
        g.roll((rnd(6) + 1, rnd(6) + 1))
    else:
        t = g.turn_state
        movable = t.movable()
        frm = movable[rnd(len(movable))]
        dests = sorted(t.destinations(frm))
        g.step(frm, dests[rnd(len(dests))])
    return True


def test_a_power_cut_after_every_action_of_whole_matches():
    kinds = set()
    for seed, length in ((1, 1), (2, 3), (5, 0)):
        rnd = _lcg(seed)
        g = Game(1, (length, True, length == 0))
        n = 0
        while act(g, rnd, 12) and (length or len(g.games) < 3):
            h = resumed(g)
            kinds.add((g.phase, g.match.offer))
            n += 1
            if n % 7 == 0:  # go on with the resumed game, as the board would
                g = h
        assert g.phase == OVER or len(g.games) == 3
        if length:
            assert g.match.over() and max(g.score) >= length
            s = g.score
            g.new_game()  # a new match with the same terms
            assert g.score == [0, 0] and g.match.game_number == 1 and s != [0, 0]
    # doubles offered, resignations offered before and after the throw, games over
    assert {(ROLL, 1), (ROLL, 2), (MOVE, 2), (OVER, 0)} <= kinds, kinds


def _play_match(seed, length, cut):
    """A whole match of random actions; with `cut`, a power cut after every action, play
    going on from the game read back. (score, Match ID, every game's actions and end)."""
    rnd = _lcg(seed)
    g = Game(1, (length, True, False))
    while act(g, rnd, 10):
        if cut:
            g = _load(g.save_text())
    return g.score, g.match_id(), [(p.acts, p.how, p.winner, p.points) for p in g.games]


def test_a_match_cut_after_every_action_ends_as_one_never_cut():
    for seed, length in ((3, 3), (4, 5)):
        whole = _play_match(seed, length, False)
        assert whole == _play_match(seed, length, True)
        assert max(whole[0]) >= length and len(whole[2]) >= 1  # (the last game: in play)
        gc.collect()


def text(piece):
    """A save piece as a str: a str, or bytes of the save buffer (MicroPython)."""
    return piece if isinstance(piece, str) else str(piece, "ascii")


def _pieces(g, full=None):
    """Game `g`'s save pieces as str, each copied before the next is made (a piece is the
    save buffer itself on MicroPython)."""
    return [text(p) for p in g.chunks(full)]


def test_the_save_in_pieces_is_the_save():
    """chunks(): pieces of at most the save buffer's size, or a finished game's record or
    actions (text kept already), that make save_text() (the board writes them to flash
    one by one)."""
    rnd = _lcg(11)
    g = Game(1, (15, True, False))
    n = 0
    while act(g, rnd, 30) and n < 400:
        n += 1
        if n % 25 == 0:
            parts = _pieces(g)
            kept = [p.record for p in g.games] + [p.acts for p in g.games]
            assert all(0 < len(p) <= FULL + 64 or p in kept for p in parts)
            assert "".join(parts) == g.save_text()
    assert len(g.games) >= 2  # records of their own
    parts = _pieces(g, 64)
    assert len(parts) > 3 and all(len(p) <= 128 or p in kept for p in parts)
    assert "".join(parts) == g.save_text()
    # a larger `full` than the buffer holds is the buffer's: the same pieces (no piece that
    # would not fit, none missing)
    assert _pieces(g, 4096) == _pieces(g)
    plain = Game()
    assert _pieces(plain) == [plain.save_text()] and plain.mp is None


def test_a_long_match_stays_within_the_save_limit():
    rnd = _lcg(7)
    g = Game(1, (25, False, True))  # the cube off: a point or so a game
    while act(g, rnd, 40):
        pass
    assert len(g.games) >= 20 and g.match.over()
    kept = [len(p.record) for p in g.games if p.record is not None]
    assert sum(kept) <= RECORD_ROOM and g.games[-1].record
    assert RESIGNED in {p.how for p in g.games}
    pieces = _pieces(g)  # as the board writes it: piece by piece
    mid, score, games = g.match_id(), g.score, len(g.games)
    g = None
    gc.collect()  # the long match's heap is fragmented: the whole text needs one block
    whole = "".join(pieces)
    pieces = None
    assert len(whole) < MAX_SAVE // 2 + 4096, len(whole)
    h = _load(whole)
    at = 0
    for p in h.chunks():  # the same save, compared piece by piece
        piece = text(p)
        assert whole[at : at + len(piece)] == piece
        at += len(piece)
    assert at == len(whole) and h.match.over() and h.score == score and h.match_id() == mid
    assert len(h.games) == games


def test_the_oldest_records_give_way():
    games = []
    for i in range(MAX_GAMES + 5):  # a long money session of long games
        games.append(Past(i + 1, [3, 1], None, 0, "31" + "0" * 7 + "x" * 300, "", (i, 0, 0, 0),
                          PLAYED, 0, 1, 1))
        trim(games)
    assert len(games) == MAX_GAMES and games[0].number == 6
    kept = [p for p in games if p.record is not None]
    assert kept == games[-len(kept):] and 0 < sum(len(p.record) for p in kept) <= RECORD_ROOM
    assert [p.before[0] for p in games] == list(range(5, MAX_GAMES + 5))  # summaries stay


def test_money_play_with_the_cube_and_jacoby():
    g = Game(1, (0, True, True))
    finish(g, GAMMON, 0)
    assert g.result == 2 and g.points == 1  # Jacoby: the cube was never turned
    g.new_game()
    g.setup(GAMMON, 0)
    g.double()
    g.take()
    g.roll((3, 1))
    g.step(1, 0)
    assert g.points == 4 and g.score == [5, 0] and len(g.games) == 1
    resumed(g)


def test_cubeless_money_play_is_as_before():
    g = Game()
    assert g.mp is None and g.terms == (0, False, True)
    finish(g, GAMMON, 0)
    assert g.score == [2, 0] and g.mp is None
    g.new_game()
    assert g.score == [2, 0] and g.games == [] and g.mp is None
    refused(g, g.double)  # the cube is off
    g.setup(LOSING, 0)
    g.resign(1)  # resignations are still there
    g.accept()
    assert g.score == [2, 1]
    g.new_game()
    assert g.mp is None and g.score == [2, 1]
    g.new_game((3, True, True))  # other terms: a new match at once (none under way)
    assert g.match_length == 3 and g.score == [0, 0]


def test_refused_saves_of_matches():
    g = Game(1, (5, True, True))
    finish(g, GAMMON, 0)
    g.new_game()
    g.setup(SINGLE, 1)
    text = g.to_json()
    assert _load(text).to_json() == text
    for old, new in (
        ('"b":[0,0,0,0,1]', '"b":[0,0,1,0,1]'),  # a Crawford game at 0-0
        ('"g":[[', '"g":[[[3,1],'),
        (',"",1,0,2]]', ',"",1,1,2]]'),  # the wrong winner: the score differs
        (',"",1,0,2]]', ',"",2,0,2]]'),  # resigned without a resignation
        (',"",1,0,2]]', ',"00010",1,0,2]]'),  # a double with no answer
        ('"m":[5,1,1]', '"m":[2,1,1]'),  # a match already over
        ('"m":[5,1,1]', '"m":[3,1,1]'),  # the Crawford game it would be
    ):
        assert old in text, (old, text)
        assert raises(_load, text.replace(old, new, 1)), new
