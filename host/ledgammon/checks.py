"""The building blocks of the reply checks (replies.py): small checks of one value, made into
checks of lists and objects, and the kinds of value protocol 1's lines are made of.

A check takes the value and the name it has in the line and returns what is wrong with it
(one line for the user), or None.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable, Mapping
from typing import Any

Check = Callable[[Any, str], "str | None"]


def show(value: Any) -> str:
    """A value as a complaint quotes it: its JSON, at most 40 characters."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = object.__repr__(value)
    return text if len(text) <= 40 else text[:37] + "..."


def kind(what: str, test: Callable[[Any], bool]) -> Check:
    """A check of one value: `what` says what it should be."""

    def check(value: Any, name: str) -> str | None:
        return None if test(value) else "%s should be %s, not %s" % (name, what, show(value))

    return check


def is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def ranged(lo: int, hi: int) -> Check:
    return kind("an integer %d-%d" % (lo, hi), lambda v: is_int(v) and lo <= v <= hi)


def one_of(*values: str) -> Check:
    return kind("one of %s" % "/".join(values), lambda v: isinstance(v, str) and v in values)


def maybe(check: Check) -> Check:
    """The check, or null."""

    def run(value: Any, name: str) -> str | None:
        if value is None:
            return None
        wrong = check(value, name)
        return None if wrong is None else wrong.replace(" should be ", " should be null or ", 1)

    return run


def list_of(check: Check, length: int | None = None) -> Check:
    """A list (of exactly `length` items, when given), each item passing `check`."""

    def run(value: Any, name: str) -> str | None:
        if not isinstance(value, list) or (length is not None and len(value) != length):
            what = "a list" if length is None else "a list of %d" % length
            return "%s should be %s, not %s" % (name, what, show(value))
        for i, item in enumerate(value):
            wrong = check(item, "%s[%d]" % (name, i))
            if wrong:
                return wrong
        return None

    return run


def fields(required: Mapping[str, Check], optional: Mapping[str, Check] | None = None) -> Check:
    """An object with every `required` field, and `optional` ones right when present."""

    def run(value: Any, name: str) -> str | None:
        if not isinstance(value, dict):
            return "%s should be an object, not %s" % (name or "the reply", show(value))
        for key in required:
            if key not in value:
                return "%s has no %s" % (name or "the reply", _join(name, key))
        for key, check in list(required.items()) + list((optional or {}).items()):
            if key in value:
                wrong = check(value[key], _join(name, key))
                if wrong:
                    return wrong
        return None

    return run


def _join(name: str, key: str) -> str:
    return "%s.%s" % (name, key) if name else key


def either(first: Check, second: Check) -> Check:
    """`first`, or else `second` (whose complaint is the one reported)."""
    return lambda v, name: None if first(v, name) is None else second(v, name)


def _base64(v: Any) -> bool:
    try:
        base64.b64decode(v, validate=True)
    except (TypeError, ValueError, binascii.Error):
        return False
    return isinstance(v, str)


INT = kind("an integer", is_int)
COUNT = kind("an integer >= 0", lambda v: is_int(v) and v >= 0)
STR = kind("a string", lambda v: isinstance(v, str))
BOOL = kind("true or false", lambda v: isinstance(v, bool))
OBJECT = kind("an object", lambda v: isinstance(v, dict))
BASE64 = kind("base64 text", _base64)
PLAYER = ranged(0, 1)
DICE = list_of(ranged(1, 6), 2)
TEXTS = list_of(STR)
CHECKERS = ranged(0, 15)
