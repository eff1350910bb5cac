# Lets the same source run on MicroPython and CPython: `const` and the code emitters'
# stand-ins, for every firmware and kernel module (the kernels import nothing else).
import sys

MICROPY = sys.implementation.name == "micropython"

if MICROPY:
    from micropython import const  # noqa: F401 (re-exported: `from kernels.compat import const`)
else:  # defined only where they are used: the board's heap does not hold them

    def const(value):
        """MicroPython folds const() at compile time; CPython keeps the value."""
        return value

    class _Emitters:
        """CPython has no native code emitters: the decorators return the function unchanged.

        Adafruit Blinka installs a CPython module named `micropython` whose `viper` raises,
        so the real module is used only when the interpreter is MicroPython.
        """

        @staticmethod
        def native(func):
            return func

        @staticmethod
        def viper(func):
            return func

    emitters = _Emitters()

    def ptr8(buf):
        """The viper casts, no-ops on CPython."""
        return buf

    ptr32 = ptr8

    def ptr16(buf):
        """Unsigned 16-bit words of a buffer, as viper's ptr16 reads them."""
        return memoryview(buf).cast("B").cast("H")


def unload(name):
    """Drops module `name` (dotted) so the heap gets it back: from sys.modules and from its
    package, which would otherwise keep it alive. (Not `leaf in dir(parent)`: MicroPython's
    dir() probes every qstr the firmware has, ~0.5 ms here and ~85 ms on an RP2040.)"""
    sys.modules.pop(name, None)
    package, _, leaf = name.rpartition(".")
    parent = sys.modules.get(package) if package else None
    if parent is not None and hasattr(parent, leaf):
        delattr(parent, leaf)
