# viper's pointer casts for the kernels run as plain bytecode (the web page's MicroPython has
# no native emitter: host/ledgammon/web/bundle.py strips the kernels' @micropython.viper and
# imports these). Each gives what viper's cast gives: the buffer's raw memory as unsigned
# 8-bit, unsigned 16-bit or signed 32-bit little-endian words, read and written in place (a
# store keeps the low bits, as viper's does), with no bounds of its own, as in viper. A buffer
# that already indexes so (bytes and bytearray for ptr8; an array of 16-bit unsigned or 32-bit
# signed items, whose type code is told by its item size and the sign of a word) is given
# back as it is, the fastest to index; anything else is seen through uctypes. The kernels
# keep every value inside a signed 32-bit word (tests/engine/test_range32.py), so Python's
# unbounded ints give viper's results.
from array import array

import uctypes

_LE = uctypes.LITTLE_ENDIAN
_N = 1 << 16  # the views' length: past any kernel buffer (viper checks no bounds either)
_U8 = {"w": (uctypes.ARRAY | 0, uctypes.UINT8 | _N)}
_U16 = {"w": (uctypes.ARRAY | 0, uctypes.UINT16 | _N)}
_I32 = {"w": (uctypes.ARRAY | 0, uctypes.INT32 | _N)}
_kinds = {}  # id -> (array, its kind): arrays seen (each kept alive, so its id stays its own)


def _kind(a):
    """An array's item as viper reads it: "H" (16-bit unsigned), "i" (32-bit signed) or None."""
    got = _kinds.get(id(a))
    if got is not None and got[0] is a:
        return got[1]
    kind = None
    if len(a) and type(a[0]) is int:
        size = len(bytes(memoryview(a)[:1]))
        if size in (2, 4):
            m = uctypes.struct(uctypes.addressof(a), _U16 if size == 2 else _I32, _LE).w
            old = m[0]
            a[0] = -1 if size == 4 else 0xFFFF
            try:
                signed = a[0] < 0
            finally:
                m[0] = old
            kind = "i" if size == 4 and signed else "H" if size == 2 and not signed else None
    if len(_kinds) > 64:  # arrays come and go (a CodeList's chunks): forget them now and then
        _kinds.clear()
    _kinds[id(a)] = (a, kind)
    return kind


def ptr8(buf):
    t = type(buf)
    if t is bytearray or t is bytes:
        return buf
    return uctypes.struct(uctypes.addressof(buf), _U8, _LE).w


def ptr16(buf):
    if type(buf) is array and _kind(buf) == "H":
        return buf
    return uctypes.struct(uctypes.addressof(buf), _U16, _LE).w


def ptr32(buf):
    if type(buf) is array and _kind(buf) == "i":
        return buf
    return uctypes.struct(uctypes.addressof(buf), _I32, _LE).w
