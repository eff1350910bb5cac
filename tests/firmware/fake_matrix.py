# A diode key matrix with pull-ups on fake pins, as hw.inputs.MatrixKeys scans it.
from hw.inputs import MatrixKeys


class FakeMatrix:
    """A column reads 0 when a pressed key joins it to a row driven low (the diodes keep
    current from flowing any other way). `pressed`: the (row, col) of the keys held. With
    `log`, each read notes how many rows were driven low (reads_with_low_rows): that
    allocates, so a long game goes without."""

    def __init__(self, nrows, ncols, log=False):
        self.level = [1] * nrows
        self.pressed = set()
        self.reads_with_low_rows = [] if log else None
        self.rows = [self._row(r) for r in range(nrows)]
        self.cols = [self._col(c) for c in range(ncols)]

    def hold(self, keymap, *names):
        """Holds the keys `names` of `keymap` (KEYMAP[row][col] -> name), and only those."""
        self.pressed = {
            (r, c) for r, line in enumerate(keymap) for c, name in enumerate(line) if name in names
        }

    def _row(self, r):
        def drive(v):
            self.level[r] = v

        return drive

    def _col(self, c):
        def read():
            if self.reads_with_low_rows is not None:
                self.reads_with_low_rows.append(self.level.count(0))
            for r, cc in self.pressed:
                if cc == c and self.level[r] == 0:
                    return 0
            return 1

        return read


def matrix_keys(board, log=False):
    """(FakeMatrix of `board`'s size, the MatrixKeys that scans it with `board`'s keymap)."""
    fake = FakeMatrix(len(board.MATRIX_ROWS), len(board.MATRIX_COLS), log)
    return fake, MatrixKeys(fake.rows, fake.cols, board.KEYMAP, board.MATRIX_ACTIVE_LOW)
