"""The rules engine's figures: `legal_plays` under MicroPython, CPython and gnubg, and the
heap of random games (bench/README.md)."""
