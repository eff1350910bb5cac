# Games made without a controller, for the tests of saving and booting (test_game,
# test_game_match, test_boot), and a game's save read back.
from model.game import Game


def some_steps_in():
    """Player 1 to move 6-4, after player 0's opening 3-1 played 8/5 6/5."""
    g = Game()
    g.roll_opening((3, 1))
    g.step(8, 5)
    g.step(6, 5)
    g.roll((6, 4))
    return g


def load(text):
    """The game a save describes (savefile reads it: game.py does not import its reader)."""
    from model import savefile  # only here: test_boot sees boot load and drop it

    return savefile.load(Game, text)


def roundtrip(g):
    """The game g's save loads back as: saved again to the same text, at the same turn."""
    text = g.to_json()
    h = load(text)
    assert h.to_json() == text
    assert h.phase == g.phase and h.turn == g.turn and h.dice == g.dice
    assert h.current() == g.current() and h.history == g.history
    return h
