# What the board's line writer can write (link/jsonout.py): every value is looked at by
# kind() before a byte of its line is made. JSON's own values (None, bool, int, finite float,
# str; list, tuple and dict with str keys of such values) are PLAIN, written by one
# json.dumps; generators, other iterators (map, iter(...)) and Chars STREAM, written a piece
# at a time; anything else (an object, bytes, a set, inf or nan, a key that is not a str) is
# BAD: its line is the documented `internal` error instead, on both interpreters
# (MicroPython's json.dumps writes the repr of what it cannot encode, `<iterator>`, where
# CPython raises, and CPython's writes NaN and Infinity).
import json

from kernels.compat import MICROPY, const
from kernels.text import bad_at

_SEP = (",", ":")
_STREAM_OVER = const(48)  # lists longer than this are written item by item
PLAIN = const(0)  # kind(): written by one json.dumps
STREAM = const(1)  # kind(): written a piece at a time
BAD = const(2)  # kind(): not JSON: the `internal` error is written instead

GENERATOR = type((lambda: (yield))())  # the type of every generator

if MICROPY:

    def dumps(obj):
        return json.dumps(obj, separators=_SEP)  # text as UTF-8, as CPython's below

else:

    def dumps(obj):
        return json.dumps(obj, separators=_SEP, ensure_ascii=False, allow_nan=False)


def utf8(text):
    """The text's bytes if they are valid UTF-8 JSON text, else None."""
    try:
        b = text.encode()
    except UnicodeError:  # CPython: a lone surrogate
        return None
    return b if bad_at(b, 0, len(b) - (text[-1:] == "\n")) < 0 else None


class Chars:
    """A JSON string written a piece at a time: `gen` yields its text's pieces as bytes that
    need no escaping (base64), each made when the writer asks for it (a piece that would
    need it ends the line there, truncated)."""

    def __init__(self, gen):
        self.gen = gen


def _lazy(v):
    """Is `v` an iterator of its own (iter(v) is v: a generator, map, iter(list)...)?"""
    try:
        return iter(v) is v
    except TypeError:  # not iterable (MemoryError goes on up: the line is lost, counted)
        return False


def kind(v):
    """PLAIN (json.dumps writes it as JSON), STREAM (it holds an iterator, Chars or a list
    longer than _STREAM_OVER: written a piece at a time) or BAD (it holds something JSON has
    no text for: its line is the `internal` error). Iterators are not read here: their items
    are looked at as they come. A value nested too deep, or holding itself, is BAD."""
    t = type(v)
    if t is str or t is int or t is bool or v is None:
        return PLAIN
    if t is float:
        return PLAIN if v - v == 0.0 else BAD  # inf - inf and nan - nan are nan
    try:
        if t is dict:  # (no v.values(): a view object is a heap block at every line)
            out = PLAIN
            for k in v:
                if type(k) is not str:
                    return BAD
                out = _with(out, v[k])
                if out == BAD:
                    return BAD
            return out
        if t is list or t is tuple:
            out = STREAM if len(v) > _STREAM_OVER else PLAIN
            for x in v:
                out = _with(out, x)
                if out == BAD:
                    return BAD
            return out
    except RuntimeError:  # RecursionError: nested too deep, or a list holding itself
        return BAD
    if t is GENERATOR or t is Chars or _lazy(v):
        return STREAM
    return BAD


def _with(out, x):
    """The kind `out` of a list or dict so far, with its item `x`."""
    t = type(x)
    if t is str or t is int or t is bool or x is None:
        return out
    c = kind(x)
    return BAD if c == BAD else out | c


def line_kind(obj):
    """kind() of a whole line: a line is a JSON object, anything else is BAD (looked at all
    the same: a MemoryError on the way goes up, the line lost and counted by the Outbox)."""
    k = kind(obj)
    return k if type(obj) is dict else BAD
