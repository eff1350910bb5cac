# The hardware layer: pins, LED strip output, button inputs, ticks, flash storage, boards/.
