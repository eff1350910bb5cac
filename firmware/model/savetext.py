# The save text of a game (model/savefile.py reads it back), written a few hundred bytes at a
# time into one buffer made at start-up: a press's save builds no string, tuple or list.
# (Few globals and no const(): a module's names are a table in the heap.)
from kernels.compat import MICROPY
from kernels.text import record_turns, text_run, write_id

VERSION = 2
PLAIN = (0, False, True)  # model/game.py's PLAIN: cubeless money play
# The largest values the save holds, which model/savefile.py reads back and the game keeps
# within (what the board writes it reads back): the board's game number (1-GAME_WRAP, a
# small int on the board, then 1 again; a save of GAME_WRAP + 1 = 2^30 from before still
# loads), a score (a money session's total stops at SCORE_MAX) and the game number in a
# match or money session (1-MATCH_GAMES_MAX, then 1 again; gammon/match.py keeps these
# two, tests/test_save_range.py checks that they agree).
GAME_WRAP = 0x3FFFFFFF
SCORE_MAX = 0x100000
MATCH_GAMES_MAX = 0x100000
FULL = 192  # a piece goes out once this much is written (no field has 64 bytes)
# The save: its text with a byte under 32 where a value goes, in pieces(): 2-6, 8, 9, 15 and
# 17 the Game's attribute _NAMES names (a winner or result of None: -1, 0), 7 the steps,
# 10 the position's ID, 11-14 a set-up game's start (only for one), 16 the record, 18 the
# score, 19 the match's part.
_T = (b'{"v":\x01,"n":\x02,"ph":\x03,"t":\x04,"o":\x05,"d":\x06,"s":[\x07],"w":\x08,"r":\x09,'
      b'"id":"\x0a"\x0b,"st":["\x0c",\x0d]\x0e,"f":\x0f,"h":"\x10","m":\x11,"sc":\x12\x13}')
_NAMES = (None, None, "game_number", "phase", "turn", "opening", "dice", None, "winner",
          "result", None, None, None, None, None, "first", None, "terms")
_buf = bytearray(FULL + 64)  # made once: one save at a time
_mv = memoryview(_buf)


def _piece(n):
    """The first n bytes written, as a piece: good until the next is made. MicroPython's
    files take the buffer itself; CPython's text files take only str."""
    return _mv[:n] if MICROPY else str(_buf[:n], "ascii")


def _put(n, v):
    """Writes `v` at _buf[n] (bytes as they are, an int as "%d" writes it, a bool as 0 or
    1, a tuple or list as [a,b,...], None as null); the end."""
    buf = _buf
    if v is None:
        v = b"null"
    t = type(v)  # (MicroPython's bool is no int subclass: no isinstance(v, int))
    if t is bytes:
        for c in v:
            buf[n] = c
            n += 1
        return n
    if t is tuple or t is list:  # (a tuple of types would be made at every call)
        c = 91  # [
        for x in v:
            buf[n] = c
            n = _put(n + 1, x)
            c = 44  # ,
        buf[n] = 93  # ]
        return n + 1
    v = int(v)
    if v < 0:
        buf[n] = 45  # -
        n += 1
        v = -v
    k = n
    while True:
        buf[k] = 48 + v % 10
        v //= 10
        k += 1
        if not v:
            break
    end = k
    k -= 1
    while n < k:  # the digits came last first
        buf[n], buf[k] = buf[k], buf[n]
        n += 1
        k -= 1
    return end


_ID = [None]  # the key (Position.key(): the same bytes object all the turn) whose ID ...
_ID_TEXT = bytearray(14)  # ... is kept here: each save of a turn writes the turn's start


def _pid(n, b):
    """Writes gnubg's Position ID of the 50 bytes `b` (gammon.position's layout) as
    Position.position_id() does (kernels/text.py's write_id, in place); the end. The last
    one is kept: the saves of a turn (one a step) write the same, a third of their work."""
    text = _ID_TEXT
    if _ID[0] is b:
        for k in range(14):
            _buf[n + k] = text[k]
        return n + 14
    end = write_id(b, _buf, n)
    for k in range(14):
        text[k] = _buf[n + k]
    _ID[0] = b
    return end


def _field(n, g, c, i):
    """Writes the value of marker c (not 11, 14, 16 or 19): for 7 step i of the turn
    ([from,to]); the end."""
    buf = _buf
    if c == 7:
        src, die, _ = g.turn_state.done[i]
        n = _put(n, b",[" if i else b"[")
        n = _put(n, src + 1)
        buf[n] = 44  # ,
        n = _put(n + 1, max(src - die + 1, 0))
        buf[n] = 93  # ]
        return n + 1
    if c == 10 or c == 12:
        return _pid(n, g.position.key() if c == 10 else g.start[0].key())
    if c == 13:
        return _put(n, g.start[1])
    if c == 18:
        return _put(n, g.mp.match.score if g.mp else g.plain)
    v = getattr(g, _NAMES[c]) if c > 1 else VERSION
    if v is None and c > 7:
        v = -1 if c == 8 else 0
    return _put(n, v)


def pieces(g, full=None):
    """Game `g`'s save in pieces of about `full` bytes or fewer (FULL by default; see
    _piece), and in a match its part's pieces (str: model/matchplay.py's). A generator
    with few names: its frame is a heap block, made at every save."""
    # (at most FULL: a piece must fit _buf, or the kernels would copy nothing and no piece
    # would ever go)
    full = FULL if full is None or full > FULL else full
    t = _T
    n = 0
    i = 0
    while i < len(t):
        if n > full:
            yield _piece(n)
            n = 0
        c = t[i]
        if c > 31:  # the template's text up to its next marker
            k = text_run(_buf, n, full, t, i)
            n += k
            i += k
            continue
        i += 1
        if c == 16:  # the record: 9 characters a turn (d1 d2 and the play code in hex)
            j = 0
            k = len(g.codes)
            while j < k:
                if n > full:
                    yield _piece(n)
                    n = 0
                w = record_turns(_buf, n, full, g.rolls, g.codes, j, k)
                n += 9 * w
                j += w
        elif c == 7:  # the steps of the turn so far
            ts = g.turn_state
            for j in range(len(ts.done) if ts else 0):
                if n > full:
                    yield _piece(n)
                    n = 0
                n = _field(n, g, c, j)
        elif c == 11:
            if not g.start:  # a set-up game's start, for a game that has none: to marker 14
                i = t.find(b"\x0e", i) + 1
        elif c == 19:
            if g.mp and (g.mp.acts or g.terms != PLAIN):  # the cube, offer, actions, past
                if n:
                    yield _piece(n)
                    n = 0
                yield from g.mp.chunks()
        elif c != 14:
            n = _field(n, g, c, 0)
    yield _piece(n)
