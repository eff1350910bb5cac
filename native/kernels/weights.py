# The board's weight file read into the blocks the network evaluates from (kernels/net.py),
# as host/ledgammon/train/export.py writes it. Apart from the network so that the blocks can
# be read at start-up, while the heap is whole, and this code dropped again (control/loader.py).
from kernels.compat import const

_INPUTS = const(198)  # 99 a side, as host/ledgammon/train/features.py
_SIDE = const(99)
_HALF = const(50)  # input rows per block


def _shape(head, name):
    """(units, outputs) of a weight file's 12-byte head; ValueError for another shape."""
    if len(head) != 12 or head[:4] != b"LGW2":
        raise ValueError("%s is not a weight file" % name)
    n_in = head[4] | head[5] << 8
    units = head[6]
    outputs = head[7]
    if n_in != _INPUTS or outputs != 5 or not 0 < units < 128:
        raise ValueError("%s: a network of another shape" % name)
    return units, outputs


def _size(units, outputs):
    return 12 + (2 + _INPUTS + 1) * units + 2 * outputs * (units + 1)


def _checked(head, units, outputs, scales, rows, w2, name):
    for j in range(units):
        if scales[2 * j] < 128 or scales[2 * j + 1] > 28:
            raise ValueError("%s: bad scales" % name)
    if head[8] > 15:
        raise ValueError("%s: bad fixed-point shifts" % name)
    return units, outputs, head[8], scales, rows, w2, _size(units, outputs)


def read(path):
    """(hidden, outputs, shifts, scales, rows, w2, size) of the weight file at `path`; the
    input rows in four blocks of about 2 KB rather than one of 8: pieces that a fragmented
    heap can still give (in the file: the side on roll's 99, the other's 100 with the bias).
    ValueError for a file that is not one, of another shape or broken; OSError: no file."""
    with open(path, "rb") as f:
        head = f.read(12)
        units, outputs = _shape(head, path)
        f.seek(0, 2)
        if f.tell() != _size(units, outputs):  # before allocating: a broken file costs no heap
            raise ValueError("%s is cut short or too long: %d bytes" % (path, f.tell()))
        f.seek(12)
        scales = bytearray(2 * units)
        rows = (
            bytearray(_HALF * units),
            bytearray((_SIDE - _HALF) * units),
            bytearray(_HALF * units),
            bytearray((_SIDE + 1 - _HALF) * units),
        )
        w2 = bytearray(2 * outputs * (units + 1))
        for block in (scales,) + rows + (w2,):
            if f.readinto(block) != len(block):
                raise ValueError("%s is cut short" % path)
    return _checked(head, units, outputs, scales, rows, w2, path)


def parse(data, name="the frozen weights"):
    """The same of a weight file's bytes held in memory: a `bytes` constant frozen into the
    image stays in flash, and the blocks are views of it, no copy in the heap (the 64-unit
    network's 13.5 KB)."""
    mv = memoryview(data)
    units, outputs = _shape(bytes(mv[:12]), name)
    if len(mv) != _size(units, outputs):
        raise ValueError("%s is cut short or too long: %d bytes" % (name, len(mv)))
    at = 12 + 2 * units
    scales = mv[12:at]
    rows = []
    for n in (_HALF, _SIDE - _HALF, _HALF, _SIDE + 1 - _HALF):
        rows.append(mv[at : at + n * units])
        at += n * units
    return _checked(mv[:12], units, outputs, scales, tuple(rows), mv[at:], name)


def frozen():
    """The weight file's bytes frozen into the image (module weights_data's DATA: read in
    place, in flash), else None: the file is read. On MicroPython only the frozen modules are
    searched: a module found as a file would be loaded into the heap. (Here, not in the
    loader: this module's code leaves the heap once the weights are read.)"""
    import sys

    path = sys.path[:]
    if sys.implementation.name == "micropython":
        sys.path[:] = [".frozen"]
    try:
        return __import__("weights_data").DATA
    except ImportError:
        return None
    finally:
        sys.path[:] = path
