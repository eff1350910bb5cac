# The JSON lines the board writes: checked UTF-8 text, long lists streamed in small pieces.
#
# A line without a long part is one json.dumps (short_text, encode); a line holding a
# generator or a long list (the legal plays, history's turns, a match's games) or a long
# string given as Chars (the LED frame in base64) is a generator of pieces of about
# _PIECE_TEXT bytes, each made when the serial writer asks for it (link/outbox.py), so no
# request and no writer step builds a long line.
import json

from kernels.compat import MICROPY, const
from kernels.text import bad_at

_SEP = (",", ":")
_STREAM_OVER = const(48)  # lists longer than this are written item by item
_MAX_ID = const(0x3FFFFFFF)


_GENERATOR = type((lambda: (yield))())
_END = object()
_CUT = object()  # a piece ends here (before an item read from a generator)
_SEQ = (list, tuple)  # made once: a tuple written in a call is built at every call
_PIECE_TEXT = const(32)  # a streamed line goes in pieces of about this many bytes (a few plays)

if MICROPY:

    def _dumps(obj):
        return json.dumps(obj, separators=_SEP)  # text as UTF-8, as CPython's below

else:

    def _dumps(obj):
        return json.dumps(obj, separators=_SEP, ensure_ascii=False)


def _utf8(text):
    """The text's bytes if they are valid UTF-8 JSON text, else None."""
    try:
        b = text.encode()
    except UnicodeError:  # CPython: a lone surrogate
        return None
    return b if bad_at(b, 0, len(b) - (text[-1:] == "\n")) < 0 else None


class Chars:
    """A JSON string written a piece at a time: `gen` yields its text's pieces as bytes that
    need no escaping (base64), each made when the writer asks for it."""

    def __init__(self, gen):
        self.gen = gen


def streams(v):
    """Is `v` written a piece at a time: a generator, Chars, a list longer than
    _STREAM_OVER, or a dict holding one (a short list is written whole, so it must hold
    none)?"""
    if type(v) is _GENERATOR or type(v) is Chars:
        return True
    if isinstance(v, _SEQ):
        return len(v) > _STREAM_OVER
    if isinstance(v, dict):
        nested = False
        for k in v:  # a listing among its own values first (state's plays): no walk then
            t = type(v[k])
            if t is _GENERATOR or t is Chars:
                return True
            if t is dict or t is list or t is tuple:
                nested = True
        if nested:  # an event's flat dict is looked at once, with no call a value
            for k in v:
                t = type(v[k])
                if (t is dict or t is list or t is tuple) and streams(v[k]):
                    return True
    return False


def short_text(obj):
    """The JSON text of a line that does not stream (streams(obj) is False), valid UTF-8
    and without its newline, as a buffer: on MicroPython a memoryview of the str json made
    (its bytes are UTF-8: no copy), else its bytes; None when it is not valid (encode()
    then gives the line sent instead)."""
    try:
        text = _dumps(obj)
        b = memoryview(text) if MICROPY else text.encode()
    except (TypeError, ValueError, MemoryError, UnicodeError):
        return None
    return b if bad_at(b, 0, len(b)) < 0 else None


def encode(obj):
    """The JSON line of `obj`, checked to be valid UTF-8 JSON: bytes (a line that would not
    be valid is replaced by an `internal` error), or, when it streams (a generator or a
    long list: the legal plays, a game's turns, a match's games, nested too), pieces(obj).
    """
    try:  # a value JSON cannot write (never expected) must not stop the serial task
        if not streams(obj):
            line = _utf8(_dumps(obj) + "\n")
            return line if line is not None else _substitute(obj)
    except (TypeError, ValueError, MemoryError):  # the small error line may still fit
        return _substitute(obj)
    return pieces(obj)


class _Nest:
    """Where a streamed line is: the closers of what is open, and whether a value must
    come next (after a key), so a line cut short by an error still ends as valid JSON."""

    def __init__(self):
        self.stack = []
        self.expect = False
        self.keys = 0  # keys written in the line's own object

    def open(self, opener, closer):
        self.stack.append(closer)
        self.expect = False
        return opener

    def close(self):
        self.expect = False
        return self.stack.pop()

    def tail(self):
        """What ends the line from here: null for a missing value, then the closers, the
        line's own object marked truncated."""
        out = b"null" if self.expect else b""
        st = self.stack
        while len(st) > 1:
            out += st.pop()
        if st:
            st.pop()
            out += b',"truncated":true}' if self.keys else b'"truncated":true}'
        return out


def pieces(obj):
    """The line of `obj` (a dict) as a generator of pieces, each made when the writer asks
    for it, so neither the line nor a long part of it is built in one piece and no step of
    the writer holds the loop for long: a piece ends once it holds _PIECE_TEXT bytes, and
    after each item read from a generator (an item may cost a play's notation). An item
    that is not valid text is written as null.

    Nothing of `obj` is read before the writer asks: a reply's values must be its own (the
    replies build them fresh, or as generators of values captured when the reply was
    made), not the game's lists or a generator that reads the game as it goes."""
    nest = _Nest()
    parts = []
    size = 0
    try:
        for frag in _object(obj, nest, b"", True):
            if frag is _CUT:
                if not size:
                    continue
            else:
                parts.append(frag)
                size += len(frag)
                if size < _PIECE_TEXT:
                    continue
            out = parts[0] if len(parts) == 1 else b"".join(parts)  # (one: no copy)
            parts = []
            size = 0
            yield out
    except Exception:  # never expected (memory, a bug): end the line as valid JSON
        parts.append(nest.tail())
    parts.append(b"\n")
    yield b"".join(parts)


def _object(d, nest, sep, top=False):
    yield sep + nest.open(b"{", b"}")
    keys = d
    if top:  # the line's own fields first (its id), so a line cut short still has them
        keys = []
        late = []
        for k in d:
            (late if streams(d[k]) else keys).append(k)
        yield _CUT  # the first piece is the line's start alone: its fields sorted out
        head = _head(d, late)
        if head is not None:  # those fields in one piece: the same text, one json.dumps
            nest.keys = len(keys)
            yield head
            keys = late
            sep = b","
        else:
            keys += late
            sep = b""
    else:
        sep = b""
    for k in keys:
        key = _utf8(_dumps(k))
        if key is None:
            raise ValueError("a key that is not text")
        nest.expect = True
        if top:
            nest.keys += 1
        yield from _value(d[k], nest, sep + key + b":")
        sep = b","
    yield nest.close()


def _head(d, late):
    """The text of the fields of `d` that do not stream, as the loop of _object writes them
    one by one ('"key":value' in the dict's order, without its braces), from one json.dumps
    of `d` while the fields in `late` are out of it: a `state` reply's ~30 fields were ~60
    dumps of a key or a value and their checks (~0.35 ms here, most of the reply); None when
    there are none or one is not valid text (the loop then writes them, null for a bad
    value). `d` is the line's own (pieces): its late fields come back, and the others keep
    their order (neither MicroPython's dict nor CPython's moves a key when another goes)."""
    if len(late) == len(d):
        return None
    values = [d[k] for k in late]
    for k in late:
        del d[k]
    try:
        text = _dumps(d)
    finally:
        for i in range(len(late)):
            d[late[i]] = values[i]
    b = memoryview(text) if MICROPY else text.encode()  # MicroPython's str is UTF-8 already
    return bytes(b[1:-1]) if bad_at(b, 0, len(b)) < 0 else None


def _value(v, nest, sep):
    if type(v) is _GENERATOR or (isinstance(v, _SEQ) and len(v) > _STREAM_OVER):
        yield from _array(v, nest, sep)
    elif type(v) is Chars:
        yield sep + nest.open(b'"', b'"')
        yield from v.gen
        yield nest.close()
    elif isinstance(v, dict) and streams(v):
        yield from _object(v, nest, sep)
    else:
        b = _utf8(_dumps(v))
        nest.expect = False
        yield sep + (b if b is not None else b"null")


def _array(v, nest, sep):
    """The items of `v` (a long list, or a generator: a piece ends before each item read
    from it)."""
    it = iter(v)
    lazy = type(v) is _GENERATOR
    yield sep + nest.open(b"[", b"]")
    sep = b""
    while True:
        if lazy:
            yield _CUT
        item = _next(it)
        if item is _END:
            break
        yield from _value(item, nest, sep)
        sep = b","
    yield nest.close()


def _next(it):
    try:
        return next(it)
    except StopIteration:
        return _END


def _substitute(obj):
    """The line sent instead of one that would not be valid text (never expected)."""
    if "event" in obj:
        out = {"event": "error", "code": "internal", "message": "a line that is not text"}
    else:
        out = {"ok": False, "error": {"code": "internal", "message": "a reply that is not text"}}
    rid = obj.get("id")
    if isinstance(rid, int) and not isinstance(rid, bool) and -_MAX_ID <= rid <= _MAX_ID:
        out["id"] = rid
    return (_dumps(out) + "\n").encode()


def write_json(write, obj):
    """Writes `obj` as one JSON line to `write(bytes)` (a long list piece by piece)."""
    line = encode(obj)
    if isinstance(line, bytes):
        write(line)
        return
    for piece in line:
        write(piece)
