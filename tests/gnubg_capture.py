"""GNU Backgammon's commands with their printed text captured (CPython only): gnubg writes to
file descriptors 1 and 2, not to sys.stdout, so they are pointed at a file for the call."""

import os
import sys

import gnubg
from gammon.match import DOUBLE


def command(out, cmd):
    """Runs gnubg command `cmd`; returns what it printed, caught in the binary file `out`."""
    sys.stdout.flush()
    sys.stderr.flush()
    out.seek(0)
    out.truncate()
    saved = os.dup(1), os.dup(2)
    os.dup2(out.fileno(), 1)
    os.dup2(out.fileno(), 2)
    try:
        gnubg.command(cmd)
    finally:
        sys.stdout.flush()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        os.close(saved[0])
        os.close(saved[1])
    out.seek(0)
    return out.read().decode("utf-8", "replace")


def quiet(cmd):
    """Runs gnubg command `cmd`, what it prints (a board after most commands) thrown away, so
    a test's output stays readable."""
    fd = os.dup(1)
    with open(os.devnull, "w") as null:
        os.dup2(null.fileno(), 1)
        try:
            gnubg.command(cmd)
        finally:
            os.dup2(fd, 1)
            os.close(fd)


# A session where the test makes every move: two human players, nothing automatic (gnubg's
# `hint` and friends hang without "set threads 1").
BY_HAND = ("set threads 1", "set player 0 human", "set player 1 human",
           "set automatic roll off", "set automatic game off", "set automatic crawford on",
           "set automatic move off")


def next_game(m, start):
    """A random match's game is over (in gnubg and in gammon.match `m`): False once the match,
    or a money session's fourth game, is over; else the next game begun in both, start() then
    reads its opening from gnubg."""
    if m.over() or (m.length == 0 and m.game_number >= 4):
        return False
    m.next_game()
    quiet("new game")
    start()
    return True


def answer(rnd, m):
    """A random answer to `m`'s offer, to give in both: a double taken 60% of the time, else
    dropped; a resignation accepted half the time, else rejected."""
    yes, no = ("take", "drop") if m.offer == DOUBLE else ("accept", "reject")
    return yes if rnd.random() < (0.6 if m.offer == DOUBLE else 0.5) else no
