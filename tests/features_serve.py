# Serves the contact inputs' kernel (kernels.features, from whichever tree is first on
# sys.path) to tests/test_features_kernel.py from a MicroPython process: a 50-byte board in
# hex a line on stdin, its 36 inputs a line on stdout, until stdin ends.
import sys
from array import array
from binascii import unhexlify

from kernels import features


def serve():
    out = array("i", bytes(8 * features.COUNT))
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        features.inputs(unhexlify(line.strip()), out)
        print(" ".join([str(v) for v in out]))


serve()
