# The frame as the RP2's PIO takes it (hw/pio_strip.py), native code on the board. Its own
# module, not frame.py's: only an RP2 driving its LEDs by PIO + DMA loads it (heap).
from kernels.compat import MICROPY

if MICROPY:  # not `import micropython`: Blinka has one
    import micropython
else:
    from kernels.compat import emitters as micropython
    from kernels.compat import ptr8


@micropython.viper
def words(dst, src, n: int):
    """The frame as the WS2812 PIO program takes it (hw/pio_strip.py): LED i's three bytes
    src[3i:3i+3], first byte highest, in the top 24 bits of little-endian 32-bit word i of
    dst (the RP2040 and RP2350 are little-endian). Byte moves only: no 32-bit arithmetic."""
    d = ptr8(dst)
    s = ptr8(src)
    i = 0
    j = 0
    k = 0
    while i < n:
        d[k] = 0
        d[k + 1] = s[j + 2]
        d[k + 2] = s[j + 1]
        d[k + 3] = s[j]
        i += 1
        j += 3
        k += 4
