"""The board's opponent: its move choice, its cube decisions and the bear-off table, under
the MicroPython unix port in a board's heap (bench/README.md)."""
