# viper's pointer casts for the kernels run as plain bytecode (the web page's MicroPython has
# no native emitter: host/ledgammon/web/bundle.py strips the kernels' @micropython.viper and
# imports these). Each gives what viper's cast gives: the buffer's raw memory as unsigned
# 8-bit, unsigned 16-bit or signed 32-bit little-endian words, read and written in place (a
# store keeps the low bits, as viper's does), with no bounds of its own, as in viper. bytes
# and bytearray already index as unsigned bytes; anything else (an array of any type code, a
# memoryview) is seen through uctypes. The kernels keep every value inside a signed 32-bit
# word (tests/engine/test_range32.py), so Python's unbounded ints give viper's results.
import uctypes

_LE = uctypes.LITTLE_ENDIAN
_N = 1 << 16  # the views' length: past any kernel buffer (viper checks no bounds either)
_U8 = {"w": (uctypes.ARRAY | 0, uctypes.UINT8 | _N)}
_U16 = {"w": (uctypes.ARRAY | 0, uctypes.UINT16 | _N)}
_I32 = {"w": (uctypes.ARRAY | 0, uctypes.INT32 | _N)}


def ptr8(buf):
    t = type(buf)
    if t is bytearray or t is bytes:
        return buf
    return uctypes.struct(uctypes.addressof(buf), _U8, _LE).w


def ptr16(buf):
    return uctypes.struct(uctypes.addressof(buf), _U16, _LE).w


def ptr32(buf):
    return uctypes.struct(uctypes.addressof(buf), _I32, _LE).w
