# The fake `rp2` of tests/firmware/fake_hw/rp2.py (tests of hw/pio_strip.py, hardware_setup.py):
# asm_pio assembles the program for real, StateMachine records how it was set up, DMA the
# transfers. The numbers are the RP2040 datasheet's (PIO instruction encoding, DMA CTRL bit
# fields). Here, not in fake_hw/, so that MicroPython loads it precompiled: compiling this
# much source late in a test needs a block of heap that a fragmented test heap may not have.


class PIO:
    OUT_LOW = 0
    OUT_HIGH = 1
    SHIFT_LEFT = 0
    SHIFT_RIGHT = 1
    JOIN_NONE = 0


_NAMES = {"pins": 0, "x": 1, "y": 2, "null": 3, "isr": 6, "osr": 7,
          "not_x": 1, "x_dec": 2, "not_y": 3, "y_dec": 4}  # fmt: skip


class _Emit:
    """Two passes over the program function: labels first, then the 16-bit words."""

    def __init__(self, sideset_init=None, out_shiftdir=0, autopull=False, pull_thresh=32):
        self.sideset_bits = 0 if sideset_init is None else 1
        self.out_shiftdir = out_shiftdir
        self.autopull = autopull
        self.pull_thresh = pull_thresh
        self.labels = {}
        self.words = []
        self.wrap_target_at = self.wrap_at = -1
        self.n = 0
        self.final = False

    def _word(self, w, label=None):
        self.n += 1
        if self.final:
            self.words.append(w | (self.labels[label] if label is not None else 0))
        return self

    def side(self, v):
        if self.final:
            self.words[-1] |= v << (13 - self.sideset_bits)
        return self

    def __getitem__(self, delay):
        if self.final:
            assert delay < 1 << (5 - self.sideset_bits), "delay too large"
            self.words[-1] |= delay << 8
        return self

    def label(self, name):
        if not self.final:
            self.labels[name] = self.n

    def wrap_target(self):
        self.wrap_target_at = self.n

    def wrap(self):
        self.wrap_at = self.n - 1

    def out(self, dest, bits):
        return self._word(0x6000 | dest << 5 | bits & 31)

    def jmp(self, cond, label=None):
        if label is None:
            cond, label = 0, cond
        return self._word(cond << 5, label)

    def nop(self):
        return self._word(0xA042)


class Program:
    """What asm_pio gives: the words and the shift settings."""

    def __init__(self, emit):
        self.words = emit.words
        self.wrap_target = emit.wrap_target_at
        self.wrap = emit.wrap_at
        self.sideset_bits = emit.sideset_bits
        self.out_shiftdir = emit.out_shiftdir
        self.autopull = emit.autopull
        self.pull_thresh = emit.pull_thresh


def asm_pio(**kw):
    def dec(f):
        emit = _Emit(**kw)
        gl = f.__globals__
        saved = dict(gl)
        try:
            gl.update(_NAMES)
            for name in ("label", "wrap_target", "wrap", "out", "jmp", "nop"):
                gl[name] = getattr(emit, name)
            f()
            emit.final = True
            emit.n = 0
            f()
        finally:
            gl.clear()
            gl.update(saved)
        return Program(emit)

    return dec


class StateMachine:
    def __init__(self, id, program=None, freq=-1, sideset_base=None):
        self.id = id
        self.program = program
        self.freq = freq
        self.sideset_base = sideset_base
        self.running = False

    def active(self, v=None):
        if v is not None:
            self.running = bool(v)
        return self.running


# DMA CTRL fields: name -> (lowest bit, width)
_FIELDS = {"enable": (0, 1), "high_pri": (1, 1), "size": (2, 2), "inc_read": (4, 1),
           "inc_write": (5, 1), "ring_size": (6, 4), "ring_sel": (10, 1), "chain_to": (11, 4),
           "treq_sel": (15, 6), "irq_quiet": (21, 1), "bswap": (22, 1)}  # fmt: skip


class DMA:
    """One channel. A transfer stays active for `busy_polls` calls of active() after it starts
    (0: done at once); with `record`, `sent` holds a copy of the words of the last one, and
    `torn` counts transfers whose buffer changed while active."""

    def __init__(self):
        self.channel = 0
        self.busy_polls = 0
        self.record = False  # tests of the words set it (a copy costs a frame of test heap)
        self.transfers = 0
        self.starts_while_active = 0
        self.torn = 0
        self.sent = bytearray(0)
        self.count = self.ctrl = 0
        self.read = self.write = None
        self._left = 0

    def pack_ctrl(self, **kw):
        value = 1 | 2 << 2 | 1 << 4 | 1 << 5 | self.channel << 11 | 0x3F << 15 | 1 << 21
        for name, v in kw.items():
            low, width = _FIELDS[name]
            assert 0 <= v < 1 << width, "bad field value"
            value = value & ~((1 << width) - 1 << low) | v << low
        return value

    @staticmethod
    def unpack_ctrl(value):
        return {k: value >> low & (1 << width) - 1 for k, (low, width) in _FIELDS.items()}

    def config(self, read=None, write=None, count=None, ctrl=None, trigger=False):
        if self._left:
            self.starts_while_active += 1
        self.read = read  # one field a line: unpacking 4 values builds a tuple (heap_lock)
        self.write = write
        self.count = count
        self.ctrl = ctrl
        if trigger:
            self.transfers += 1
            self._left = self.busy_polls
            if self.record:  # into one buffer: a copy per frame would cut up a test's heap
                if len(self.sent) != len(read):
                    self.sent = bytearray(len(read))
                sent = self.sent
                for i in range(len(read)):
                    sent[i] = read[i]

    def active(self, v=None):
        if self._left:
            self._left -= 1
            if not self._left and self.record and self.read != self.sent:
                self.torn += 1
            return True
        return False

    def close(self):
        self.channel = -1
