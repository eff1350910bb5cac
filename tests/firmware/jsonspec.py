# Values of any shape for the line writer's tests (link/jsonout.py, link/outbox.py), built
# from a description that is itself JSON, so the host's hypothesis can hand the same value
# to the writer on CPython and on MicroPython (tests/test_link_writer.py), and `serve`, the
# MicroPython side: one description a line in, the writer's two lines out.
#
# A description is a list, its first item the kind:
#   ["n"] None; ["b", x] a bool; ["i", "digits"] an int of any size; ["f", "text"] a float
#   (float(text): "inf", "nan", "-inf" too); ["s", "hex"] a str of those UTF-8 bytes,
#   ["su", "hex"] the same and a lone surrogate (a str that is not text);
#   ["l", [...]] a list, ["t", [...]] a tuple, ["d", [[key, value], ...]] a dict;
#   ["g", [...]] a generator of the items, ["it", [...]] iter(a list), ["ti", [...]]
#   iter(a tuple), ["m", [...]] map over a list, ["z", [...]] zip of one list (1-tuples);
#   ["x", [...]] a generator that raises after its items; ["c", [hex, ...]] Chars of those
#   pieces (bytes); ["o"] an object; ["by", "hex"] bytes; ["ba", "hex"] a bytearray;
#   ["set", [...]] a set; ["r", n] range(n).
import binascii

from link.jsonkind import Chars


class Thing:
    """An object JSON has no text for."""


def _gen(items):
    yield from items


def _raises(items):
    yield from items
    raise ValueError("an iterator that fails half way")


def _same(x):
    return x


def _text(h):
    return str(binascii.unhexlify(h), "utf-8")


def build(d):
    """The value a description describes."""
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
    if k == "su":  # not text: CPython's str holds a lone surrogate, MicroPython's its bytes
        return _text(d[1]) + chr(0xDC80)
    if k == "o":
        return Thing()
    if k == "by":
        return binascii.unhexlify(d[1])
    if k == "ba":
        return bytearray(binascii.unhexlify(d[1]))
    if k == "r":
        return range(d[1])
    if k == "c":
        return Chars(_gen([binascii.unhexlify(p) for p in d[1]]))
    if k == "d":
        out = {}
        for key, value in d[1]:
            out[build(key)] = build(value)
        return out
    items = [build(x) for x in d[1]]
    if k == "l":
        return items
    if k == "t":
        return tuple(items)
    if k == "g":
        return _gen(items)
    if k == "it":
        return iter(items)
    if k == "ti":
        return iter(tuple(items))
    if k == "m":
        return map(_same, items)
    if k == "z":
        return zip(items)
    if k == "x":
        return _raises(items)
    if k == "set":
        return set(items)
    raise ValueError("no kind %r" % k)


class Port:
    """A port the host reads at once (tests/firmware/long_session.py's too)."""

    def __init__(self):
        self.out = bytearray()

    def ready(self):
        return True

    def write(self, mv):
        self.out += mv
        return len(mv)


def lines(d):
    """(what write_json wrote, what an Outbox sent) for the value of description `d`."""
    from link.jsonout import write_json
    from link.outbox import Outbox

    direct = bytearray()

    def write(b):
        direct.extend(b)

    write_json(write, build(d))
    port = Port()
    box = Outbox(port)
    box.put(build(d), True)
    while box.pending():
        box.send()
    return bytes(direct), bytes(port.out)


def _hexed(b):
    return str(binascii.hexlify(b), "ascii")


def serve():
    """One description a line on stdin; for each, a line of both writers' lines in hex."""
    import json
    import sys

    while True:
        line = sys.stdin.readline()
        if not line:
            return
        try:
            a, b = lines(json.loads(line))
            out = "%s %s\n" % (_hexed(a), _hexed(b))
        except Exception as exc:  # the writer raised: the test fails with what it was
            out = "raised %r\n" % (exc,)
        sys.stdout.write(out)
        sys.stdout.flush()
