# The JSON lines the board writes: checked UTF-8 JSON text, long lists streamed in small pieces.
#
# What a value is written as is link/jsonkind.py's kind(): JSON's own values, iterators as
# lists, anything else the documented `internal` error (substitute). A line without a
# streamed part is one json.dumps (short_text, encode); a line holding an iterator or a long
# list (the legal plays, history's turns, a match's games) or a long string given as Chars
# (the LED frame in base64) is a generator of pieces of about _PIECE_TEXT bytes, each made
# when the serial writer asks for it (link/outbox.py), so no request and no writer step
# builds a long line. What an iterator yields is looked at when it comes: an item that is not
# JSON is written as null, an iterator that fails ends the line as valid JSON marked
# truncated.
from kernels.compat import MICROPY, const
from kernels.text import bad_at

from link.jsonkind import PLAIN, STREAM, Chars, kind, line_kind
from link.jsonkind import dumps as _dumps
from link.jsonkind import utf8 as _utf8

_MAX_ID = const(0x3FFFFFFF)
_END = object()
_CUT = object()  # a piece ends here (before an item read from an iterator)
_HEAD_KEYS = const(8)  # a streamed line's plain fields go out this many to a piece
_PIECE_TEXT = const(32)  # a streamed line goes in pieces of about this many bytes (a few plays)


def short_text(obj):
    """The JSON text of a PLAIN line (line_kind(obj) is PLAIN), valid UTF-8 and without its
    newline, as a buffer: on MicroPython a memoryview of the str json made (its bytes are
    UTF-8: no copy), else its bytes; None when it is not valid text (substitute(obj) then
    gives the line sent instead)."""
    try:
        text = _dumps(obj)
        b = memoryview(text) if MICROPY else text.encode()
    except (TypeError, ValueError, MemoryError, UnicodeError):
        return None
    return b if bad_at(b, 0, len(b)) < 0 else None


def encode(obj):
    """The JSON line of `obj`, checked to be valid UTF-8 JSON: bytes (a line that would not
    be valid is replaced by an `internal` error: substitute), or, when it streams (an
    iterator or a long list: the legal plays, a game's turns, a match's games, nested
    too), pieces(obj)."""
    try:  # a value JSON cannot write must not stop the serial task
        k = line_kind(obj)
        if k == STREAM:
            return pieces(obj)
        if k == PLAIN:
            line = _utf8(_dumps(obj) + "\n")
            if line is not None:
                return line
    except (TypeError, ValueError, MemoryError):  # the small error line may still fit
        pass
    return substitute(obj)


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
    """The line of `obj` (a dict whose line_kind is STREAM) as a generator of pieces, each
    made when the writer asks for it, so neither the line nor a long part of it is built in
    one piece and no step of the writer holds the loop for long: a piece ends once it holds
    _PIECE_TEXT bytes, and after each item read from an iterator (an item may cost a play's
    notation). An item that is not valid JSON text is written as null.

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
    except Exception:  # an iterator that fails (memory, a bug): end the line as valid JSON
        parts.append(nest.tail())
    parts.append(b"\n")
    yield b"".join(parts)


def _object(d, nest, sep, top=False):
    yield sep + nest.open(b"{", b"}")
    keys = d
    kinds = None
    sep = b""
    if top:  # the line's own fields first (its id), so a line cut short still has them
        keys = []
        late = []
        kinds = {}
        plain = True  # every field that does not stream is JSON's own under a text key
        for k in d:
            c = kinds[k] = kind(d[k])
            if c == STREAM:
                late.append(k)
            else:
                keys.append(k)
                plain = plain and c == PLAIN and type(k) is str
        yield _CUT  # the first piece is the line's start alone: its fields sorted out
        if plain and len(keys) > 1:  # those fields in a few pieces, one json.dumps each
            nest.keys = len(keys)
            for i in range(0, len(keys), _HEAD_KEYS):
                head = _head(d, keys, i)
                if head is None:  # not valid text: the loop writes these and the rest
                    nest.keys = i
                    keys = keys[i:] + late
                    break
                yield sep + head
                sep = b","
            else:
                keys = late
        else:
            keys += late
    for k in keys:
        key = _utf8(_dumps(k)) if type(k) is str else None
        if key is None:
            raise ValueError("a key that is not text")
        nest.expect = True
        if top:
            nest.keys += 1
        v = d[k]
        yield from _value(v, nest, sep + key + b":", kinds[k] if top else kind(v))
        sep = b","
    yield nest.close()


def _head(d, keys, i):
    """The text of the fields keys[i:i + _HEAD_KEYS] of `d` (each PLAIN: kind() looked at
    it), as the loop of _object writes them one by one ('"key":value' in order, without
    braces), from one json.dumps: a `state` reply's ~30 fields were ~60 dumps of a key or a
    value (~0.35 ms on the unix port, most of the reply); a few fields a piece keep each
    piece small (the streamed line's promise). None when the text is not valid (the loop
    then writes them)."""
    part = {}
    for k in keys[i:i + _HEAD_KEYS]:
        part[k] = d[k]
    try:  # CPython: an int of more than 4,300 digits, a str with a lone surrogate
        text = _dumps(part)
        b = memoryview(text) if MICROPY else text.encode()  # MicroPython's str is UTF-8
    except (TypeError, ValueError):  # (UnicodeError is a ValueError)
        return None
    return bytes(b[1:-1]) if bad_at(b, 0, len(b)) < 0 else None


def _value(v, nest, sep, c):
    """The fragments of value `v` of kind `c` (BAD: null)."""
    if c == STREAM:
        t = type(v)
        if t is Chars:
            yield sep + nest.open(b'"', b'"')
            for piece in v.gen:
                if (type(piece) is not bytes or b'"' in piece or b"\\" in piece
                        or bad_at(piece, 0, len(piece)) >= 0):
                    raise ValueError("Chars: a piece that is not plain text")
                yield piece
            yield nest.close()
        elif t is dict:
            yield from _object(v, nest, sep)
        else:
            yield from _array(v, nest, sep)
        return
    b = None
    if c == PLAIN:
        try:
            b = _utf8(_dumps(v))
        except (TypeError, ValueError):  # CPython: an int of more than 4,300 digits
            pass
    nest.expect = False
    yield sep + (b if b is not None else b"null")


def _array(v, nest, sep):
    """The items of `v` (a long list, or an iterator: a piece ends before each item read
    from it, and the item is looked at then)."""
    t = type(v)
    lazy = not (t is list or t is tuple)
    it = v if lazy else iter(v)
    yield sep + nest.open(b"[", b"]")
    sep = b""
    while True:
        if lazy:
            yield _CUT
        item = _next(it)
        if item is _END:
            break
        yield from _value(item, nest, sep, kind(item))
        sep = b","
    yield nest.close()


def _next(it):
    try:
        return next(it)
    except StopIteration:
        return _END


def substitute(obj):
    """The line sent instead of one that would not be valid JSON text (never expected): the
    `internal` error, a reply's with its id."""
    d = obj if type(obj) is dict else {}
    if "event" in d or "ok" not in d:
        out = {"event": "error", "code": "internal", "message": "a line that is not JSON"}
    else:
        out = {"ok": False, "error": {"code": "internal", "message": "a reply that is not JSON"}}
    rid = d.get("id")
    t = type(rid)
    if (t is int and -_MAX_ID <= rid <= _MAX_ID) or (t is str and len(rid) <= 32):
        out["id"] = rid
    line = _utf8(_dumps(out) + "\n")
    if line is None:  # an id that is not text
        del out["id"]
        line = (_dumps(out) + "\n").encode()
    return line


def write_json(write, obj):
    """Writes `obj` as one JSON line to `write(bytes)` (a long list piece by piece)."""
    line = encode(obj)
    if isinstance(line, bytes):
        write(line)
        return
    for piece in line:
        write(piece)
