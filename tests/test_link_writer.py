"""The line writer writes JSON or the `internal` error, whatever it is handed (issue 28, 1).

Property tests (hypothesis) of firmware/link/jsonout.py and link/outbox.py with values of any
shape, on CPython in this process and on the MicroPython unix port in a process of its own
(tests/firmware/jsonspec.py builds the same value on both from a JSON description):
generators, other iterators (map, zip, iter of a list or a tuple), iterators that fail half
way, Chars with pieces that are not plain text, objects, bytes, sets, ranges, big ints,
floats with inf and nan, strings with control characters and strings that are not text,
dicts with keys that are not strings, lists long enough to stream. Every line written is
one line of strict JSON (CPython's json.loads, NaN and Infinity refused) and is what a
model of the writer's rules says:
- a line whose value holds anything JSON has no text for, outside an iterator, is the
  `internal` error (an event's, or a reply's with its id);
- otherwise it is the value, with iterators written as lists; an item an iterator yields
  that is not JSON is null; a string that is not text makes null of the smallest part
  written in one piece that holds it (the whole line's `internal` error when the line is
  written in one piece); an iterator that fails, or Chars that would need escaping, ends
  the line as JSON with "truncated": true;
- write_json (tests, the simulator's stand-ins) and the Outbox (the board) write the same
  bytes.
"""

from __future__ import annotations

import binascii
import json
import math
from typing import Any

import jsonspec  # tests/firmware: the helper both interpreters run
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mpserve import Served

PLAIN, STREAM, BAD = 0, 1, 2
STREAM_OVER = 48  # link/jsonout._STREAM_OVER
MAX_ID = 0x3FFFFFFF
LAZY = ("g", "it", "ti", "m", "z", "x")
Spec = list[Any]


def _hex(b: bytes) -> str:
    return binascii.hexlify(b).decode("ascii")


def _text(h: str) -> str:
    return binascii.unhexlify(h).decode("utf-8")


# --- the model of the writer's rules -------------------------------------------------------
def _pairs(d: Spec) -> dict[str, Spec] | None:
    """A dict description's entries as the dict holds them (the last of equal keys), or None
    when a key is not a str."""
    out: dict[str, Spec] = {}
    for key, value in d[1]:
        if key[0] != "s":
            return None
        out[_text(key[1])] = value
    return out


def _str_keys(d: Spec) -> dict[str, Spec]:
    """The entries of a dict description under str keys (the others left out)."""
    return {_text(key[1]): value for key, value in d[1] if key[0] == "s"}


def kind(d: Spec) -> int:
    k = d[0]
    if k in ("n", "b", "i", "s", "su"):
        return PLAIN
    if k == "f":
        return PLAIN if math.isfinite(float(d[1])) else BAD
    if k in LAZY or k == "c":
        return STREAM
    if k in ("l", "t", "d"):
        items = d[1] if k != "d" else _pairs(d)
        if items is None:
            return BAD
        values = list(items.values()) if isinstance(items, dict) else items
        out = STREAM if k != "d" and len(values) > STREAM_OVER else PLAIN
        for x in values:
            c = kind(x)
            if c == BAD:
                return BAD
            out |= c
        return out
    return BAD  # objects, bytes, bytearrays, sets, ranges


def _is_text(d: Spec) -> bool:
    if d[0] == "su":
        return False
    if d[0] in ("l", "t"):
        return all(_is_text(x) for x in d[1])
    if d[0] == "d":  # the values the dict keeps (the last of equal keys)
        pairs = _pairs(d)
        return pairs is None or all(_is_text(v) for v in pairs.values())
    return True


def _plain(d: Spec) -> Any:
    k = d[0]
    if k == "n":
        return None
    if k == "b":
        return bool(d[1])
    if k == "i":
        return int(d[1])
    if k == "f":
        return float(d[1])
    if k == "s":
        return _text(d[1])
    if k in ("l", "t"):
        return [_plain(x) for x in d[1]]
    pairs = _pairs(d)
    assert pairs is not None
    return {key: _plain(v) for key, v in pairs.items()}


class Cut(Exception):
    """The line ends here, truncated."""


def written(d: Spec, c: int) -> Any:
    """What the writer writes for description `d` of kind `c` (Cut: the line is cut)."""
    if c == BAD:
        return None
    if c == PLAIN:
        return _plain(d) if _is_text(d) else None
    k = d[0]
    if k == "c":
        pieces = [binascii.unhexlify(p) for p in d[1]]
        for p in pieces:
            if b'"' in p or b"\\" in p or any(b < 0x20 for b in p):
                raise Cut
            try:
                p.decode("utf-8")
            except UnicodeError:
                raise Cut from None
        return b"".join(pieces).decode("utf-8")
    if k == "d":
        pairs = _pairs(d)
        assert pairs is not None
        return {key: written(v, kind(v)) for key, v in pairs.items()}
    items = [["t", [x]] if k == "z" else x for x in d[1]]
    out = [written(x, kind(x)) for x in items]
    if k == "x":
        raise Cut
    return out


def _ids(top: Spec) -> Any:
    """The id the `internal` error keeps: an int id in range, or a str of at most 32."""
    rid = _str_keys(top).get("id") if top[0] == "d" else None
    if rid is None:
        return None
    if rid[0] == "i" and -MAX_ID <= int(rid[1]) <= MAX_ID:
        return int(rid[1])
    if rid[0] == "s" and len(_text(rid[1])) <= 32:
        return _text(rid[1])
    return None


def same(a: Any, b: Any) -> bool:
    """Equal as JSON values: a bool is no int, floats as close as a float's text keeps them."""
    if isinstance(a, float) or isinstance(b, float):
        return (type(a) is float and type(b) in (int, float)
                and math.isclose(a, b, rel_tol=1e-13, abs_tol=1e-300))
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return bool(a == b)


def _strict(text: bytes) -> Any:
    def refuse(name: str) -> Any:
        raise ValueError("not JSON: " + name)

    return json.loads(text.decode("utf-8", "strict"), parse_constant=refuse)


def check(top: Spec, direct: bytes, boxed: bytes) -> None:
    """The lines written for description `top` are JSON, and what the model says."""
    assert direct == boxed, (direct, boxed)
    assert direct.endswith(b"\n") and direct.count(b"\n") == 1, direct
    got = _strict(direct[:-1])
    assert isinstance(got, dict), got
    c = kind(top) if top[0] == "d" else BAD
    if c == PLAIN and not _is_text(top):
        c = BAD  # a line written in one piece that is not text: the internal error
    if c == BAD:
        keys = _str_keys(top) if top[0] == "d" else {}
        reply = "ok" in keys and "event" not in keys
        error = got["error"] if reply else got
        assert error["code"] == "internal", got
        assert got.get("ok", None) is (False if reply else None), got
        assert got.get("id") == _ids(top), got
        assert set(got) <= {"ok", "error", "id", "event", "code", "message"}, got
        return
    try:
        want = written(top, c)
    except Cut:
        assert got.get("truncated") is True, got
        pairs = _pairs(top)
        assert pairs is not None
        for key, v in pairs.items():  # a line's own fields go first: a cut line keeps them
            if kind(v) == PLAIN:
                assert same(got[key], written(v, PLAIN)), (key, got)
        return
    assert same(got, want), (got, want)


# --- the values -----------------------------------------------------------------------------
def _str_spec(s: str) -> Spec:
    return ["s", _hex(s.encode("utf-8"))]


FLOATS = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False, min_value=-1e300, max_value=1e300),
    st.sampled_from(["inf", "-inf", "nan"]).map(float),
).map(lambda f: ["f", repr(f)])
TEXT = st.text(max_size=12)
SCALARS = st.one_of(
    st.just(["n"]),
    st.booleans().map(lambda b: ["b", b]),
    st.integers(-(10**40), 10**40).map(lambda i: ["i", str(i)]),
    st.integers(-(2**31), 2**31).map(lambda i: ["i", str(i)]),
    FLOATS,
    TEXT.map(_str_spec),
    TEXT.map(lambda s: ["su", _hex(s.encode("utf-8"))]),
)
NOT_JSON = st.one_of(
    st.just(["o"]),
    st.binary(max_size=4).map(lambda b: ["by", _hex(b)]),
    st.binary(max_size=4).map(lambda b: ["ba", _hex(b)]),
    st.integers(0, 3).map(lambda n: ["r", n]),
    st.lists(st.integers(0, 9).map(lambda i: ["i", str(i)]), max_size=3).map(
        lambda xs: ["set", xs]),
)
KEYS = st.one_of(
    TEXT.map(_str_spec),
    st.sampled_from(["id", "ok", "event", "turns", "games"]).map(_str_spec),
    st.sampled_from([["n"], ["b", True], ["i", "1"], ["f", "1.5"]]),
)
PIECES = st.lists(
    st.one_of(
        st.binary(max_size=6),
        st.text("ABCDEFabcdef0123456789+/=", max_size=12).map(lambda s: s.encode()),
    ),
    max_size=4,
).map(lambda ps: ["c", [_hex(p) for p in ps]])


def _containers(kids: st.SearchStrategy[Spec]) -> st.SearchStrategy[Spec]:
    items = st.lists(kids, max_size=4)
    return st.one_of(
        st.tuples(st.sampled_from(("l", "t") + LAZY), items).map(list),
        st.lists(st.tuples(KEYS, kids).map(list), max_size=4).map(lambda ps: ["d", ps]),
        st.tuples(st.integers(STREAM_OVER - 2, STREAM_OVER + 4), kids).map(
            lambda nx: ["l", [["i", str(i)] for i in range(nx[0] - 1)] + [nx[1]]]),
    )


VALUES = st.recursive(st.one_of(SCALARS, SCALARS, NOT_JSON, PIECES), _containers,
                      max_leaves=16)
TOPS = st.one_of(
    st.lists(st.tuples(KEYS, VALUES).map(list), max_size=6).map(lambda ps: ["d", ps]),
    st.lists(st.tuples(KEYS, VALUES).map(list), max_size=4).map(
        lambda ps: ["d", [[_str_spec("ok"), ["b", True]], [_str_spec("id"), ["i", "7"]]] + ps]),
    VALUES,
)
SETTINGS = settings(max_examples=400, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@SETTINGS
@given(TOPS)
def test_any_value_is_written_as_json_on_cpython(top: Spec) -> None:
    direct, boxed = jsonspec.lines(top)
    check(top, direct, boxed)


class MicroPython(Served):
    """The writer on MicroPython: the lines of each description sent to it."""

    def __init__(self) -> None:
        super().__init__("jsonspec")

    def lines(self, top: Spec) -> tuple[bytes, bytes]:
        out = self.ask(top)
        assert not out.startswith("raised"), out
        a, b = out.split()
        return binascii.unhexlify(a), binascii.unhexlify(b)


@pytest.fixture(scope="module")
def micropython():
    mp = MicroPython()
    yield mp
    mp.close()


@SETTINGS
@given(top=TOPS)
def test_any_value_is_written_as_json_on_micropython(micropython: MicroPython, top: Spec) -> None:
    direct, boxed = micropython.lines(top)
    check(top, direct, boxed)


# --- examples named by the issue -----------------------------------------------------------
EXAMPLES = [
    # a match's past game whose moves were dropped: its turns an iterator, not a generator
    ["d", [[_str_spec("ok"), ["b", True]], [_str_spec("id"), ["i", "3"]],
           [_str_spec("games"), ["g", [["d", [[_str_spec("turns"), ["ti", []]]]]]]]]],
    ["d", [[_str_spec("event"), _str_spec("x")], [_str_spec("v"), ["m", [["i", "1"]]]]]],
    ["d", [[_str_spec("ok"), ["b", True]], [_str_spec("x"), ["o"]],
           [_str_spec("id"), ["i", "4"]]]],
    ["d", [[_str_spec("ok"), ["b", True]], [_str_spec("x"), ["f", "nan"]]]],
    ["d", [[_str_spec("ok"), ["b", True]], [_str_spec("x"), ["d", [[["i", "1"], ["n"]]]]]]],
    ["d", [[_str_spec("ok"), ["b", True]], [_str_spec("x"), ["g", [["o"], ["f", "inf"]]]]]],
    ["d", [[_str_spec("ok"), ["b", True]], [_str_spec("x"), ["i", str(2**200)]]]],
    ["d", [[_str_spec("s"), _str_spec("\x00\x1f\x7f\u2028\U0001f600\"\\")]]],
    ["l", []],
]


@pytest.mark.parametrize("top", EXAMPLES)
def test_the_issues_values_on_both_interpreters(micropython: MicroPython, top: Spec) -> None:
    check(top, *jsonspec.lines(top))
    check(top, *micropython.lines(top))
    if top is EXAMPLES[0]:
        got = json.loads(jsonspec.lines(top)[0])
        assert got == {"ok": True, "id": 3, "games": [{"turns": []}]}
