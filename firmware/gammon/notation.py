# Standard move notation ("24/18 13/11", "bar/22*", "6/off", "8/5(2)", "6/2*/1") both ways.
# format_play is in play.py (Play.__str__ needs it, and play must not import this module)
from .play import check_dice, format_play, legal_plays  # noqa: F401

_BAR = 25
_OFF = 0


def _parse_point(word, text):
    w = word.lower()
    if w == "bar":
        return _BAR, False
    if w == "off":
        return _OFF, False
    hit = w.endswith("*")
    if hit:
        w = w[:-1]
    if not w.isdigit() or not 0 <= int(w) <= 25:
        raise ValueError("not a point: %r in %r" % (word, text))
    return int(w), hit


def _paths(text):
    """Each written move as its list of (point, hit) hops, repeats expanded."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError("no move given")
    paths = []
    for token in text.replace(",", " ").split():
        count = 1
        if token.endswith(")"):
            at = token.find("(")
            if at < 0 or not token[at + 1 : -1].isdigit():
                raise ValueError("bad repeat in %r" % token)
            count = int(token[at + 1 : -1])
            token = token[:at]
            if not 1 <= count <= 4:
                raise ValueError("a move repeats 1-4 times: %r" % text)
        words = token.split("/")
        if len(words) < 2:
            raise ValueError("a move is from/to: %r" % token)
        points = [_parse_point(w, text) for w in words]
        if points[0][1]:
            raise ValueError("a move cannot hit where it starts: %r" % token)
        for i in range(1, len(points)):
            if points[i][0] >= points[i - 1][0]:
                raise ValueError("checkers move to lower points: %r" % token)
            if points[i][0] == _OFF and points[i][1]:
                raise ValueError("nothing is hit off the board: %r" % token)
        for _ in range(count):
            paths.append(points)
    if len(paths) > 4:
        raise ValueError("a play has at most four moves: %r" % text)
    return paths


def parse_moves(text):
    """Parses notation into moves [(frm, to, hits_at)], one per checker path as written.

    `hits_at` lists the points marked with `*`. Accepts what players and programs
    write: `bar` or 25, `off` or 0, `(n)` repeats, several hops in one move.
    """
    return [(p[0][0], p[-1][0], [q for q, h in p if h]) for p in _paths(text)]


def parse_steps(text):
    """The (frm, to) hops written, in order: `13/7*/5` gives (13, 7) then (7, 5)."""
    out = []
    for points in _paths(text):
        for i in range(1, len(points)):
            out.append((points[i - 1][0], points[i][0]))
    return out


def _net(froms, tos):
    """Sorted sources and destinations after cancelling points passed through."""
    froms = sorted(froms)
    tos = sorted(tos)
    for p in list(tos):
        if p in froms and p != _OFF:
            froms.remove(p)
            tos.remove(p)
    return froms, tos


def _marks_kept(marked, hits):
    """Is every point marked with `*` among the points hit? A mark where nothing is hit
    makes the play illegal; a missing mark is fine. (A point is hit once a turn at most:
    "8/5*(2)" marks one hit.)"""
    for p in marked:
        if p not in hits:
            return False
    return True


def _marked(moves):
    """The points marked with `*` in parsed moves, each once, sorted."""
    out = []
    for m in moves:
        for h in m[2]:
            if h not in out:
                out.append(h)
    return sorted(out)


def check_marks(text, steps):
    """ValueError when `text` marks a hit (`*`) that the single steps made, ((frm, to, hit),
    ...), did not make: `24/23*` where 23 was empty is not the step 24/23."""
    if not _marks_kept(_marked(parse_moves(text)), [s[1] for s in steps if s[2]]):
        raise ValueError("nothing is hit where %s marks a hit" % text)


def find_play(position, dice, text):
    """The legal play of `dice` that `text` names; ValueError if none or it is ambiguous.

    The hits marked must be hits of the play (a mark where nothing is hit names no play);
    unmarked hits are fine when only one play fits."""
    dice = check_dice(dice)
    moves = parse_moves(text)
    want = _net([m[0] for m in moves], [m[1] for m in moves])
    marked = _marked(moves)
    matches = []
    for play in legal_plays(position, dice):
        steps = play.steps
        if _net([s[0] for s in steps], [s[1] for s in steps]) == want:
            hits = sorted(s[1] for s in steps if s[2])
            if _marks_kept(marked, hits):
                matches.append((play, hits))
    if not matches:
        raise ValueError("not a legal play of %d-%d: %s" % (dice[0], dice[1], text))
    if len(matches) == 1:
        return matches[0][0]
    for play, hits in matches:
        if hits == marked:
            return play
    raise ValueError("ambiguous, mark the hits with *: %s" % text)
