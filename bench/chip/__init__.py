"""The board on its real chip: the Pico's MicroPython image on the emulated RP2040
(`python -m bench.chip`, `make chip`), and its proxy on the unix port (bench.chip.calibrate)."""
