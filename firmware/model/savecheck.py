# The checks a save's values pass as they are read back (model/savefile.py and, for a match,
# model/savematch.py): a number in its range, a pair of them, a 0/1 flag; ValueError otherwise.


def number(x, lo, hi):
    """x when it is an int (not a bool) in lo-hi."""
    if not isinstance(x, int) or isinstance(x, bool) or not lo <= x <= hi:
        raise ValueError("bad save: %r is not %d-%d" % (x, lo, hi))
    return x


def pair(x, lo, hi):
    """The two numbers of list `x`, each in lo-hi."""
    if not isinstance(x, list) or len(x) != 2:
        raise ValueError("bad save: %r is not a pair" % (x,))
    return number(x[0], lo, hi), number(x[1], lo, hi)


def flag(x):
    """True or False from a saved 1 or 0."""
    if x not in (0, 1) or isinstance(x, float):
        raise ValueError("bad save: %r is not 0 or 1" % (x,))
    return x == 1
