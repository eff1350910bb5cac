# A stand-in for MicroPython's `rp2`: PIO, asm_pio, StateMachine and DMA from tests/firmware's
# fake_pio.py (precompiled there; this file stays source, found by its name).
from fake_pio import DMA, PIO, StateMachine, asm_pio  # noqa: F401
