# The board's native code: every function compiled to machine code with @micropython.viper.
# Viper needs the target CPU at compile time, so these modules are compiled per board with
# `mpy-cross -march=<arch>` (make deploy: armv6m for the RP2040, xtensawin for the ESP32-S3)
# and stand apart from firmware/, which is plain MicroPython that any mpy-cross compiles.
# On CPython the same source runs as ordinary Python (gammon.compat's stand-ins).
