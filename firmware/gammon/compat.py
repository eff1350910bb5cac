# Lets the same source run on MicroPython and CPython: stand-ins for the code emitters.
import sys

MICROPY = sys.implementation.name == "micropython"

if not MICROPY:  # defined only where they are used: the board's heap does not hold them

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
