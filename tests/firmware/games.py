# Games made without a controller, for the tests of saving and booting (test_game, test_boot).
from model.game import Game


def some_steps_in():
    """Player 1 to move 6-4, after player 0's opening 3-1 played 8/5 6/5."""
    g = Game()
    g.roll_opening((3, 1))
    g.step(8, 5)
    g.step(6, 5)
    g.roll((6, 4))
    return g
