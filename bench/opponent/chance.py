# The easy level's chance for the benches (MicroPython and CPython): rand(n) -> a number below n.
# The board passes its dice source instead; this one is seeded, so a bench run repeats, and
# allocates nothing on the 64-bit unix port, so heap figures are the opponent's own.


def chance(seed):
    """rand(n) from xorshift32 seeded with `seed`."""
    x = (seed & 0xFFFFFFFF) or 0x9E3779B9

    def rand(n):
        nonlocal x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        return x % n

    return rand
