// The board's buttons as wires between GPIOs, and the pads' pull resistors.
//
// rp2040js has no pull-ups: an input pin reads low unless something sets it, so every button
// of the board read pressed (and the firmware started its self-test). Here each input pin
// reads what its pad and the pressed buttons make of it: a button joins two pins (a key of
// the matrix: its row and its column) or a pin and ground (a button of the minimal layout);
// a pin driven as an output gives its level to the pins joined to it; an undriven pin reads
// high with its pull-up, low with its pull-down.

export class Buttons {
  /** `pins`: rp2040js's GPIOPin objects (or fakes with the same members: index, outputEnable,
   * outputValue, pullupEnabled, pulldownEnabled, setInputValue, addListener). */
  constructor(pins) {
    this.pins = pins;
    this.pressed = new Map(); // "a:b" -> [a, b]; b is -1 for ground
    this.busy = false;
    this.given = pins.map(() => null); // the input level last given to each pin
    this.unlisten = pins.map((pin) => pin.addListener(() => this.update()));
    this.update();
  }

  /** Presses (down) or releases the button joining pin `a` to pin `b` (-1: ground). */
  set(a, b, down) {
    for (const p of [a, b]) {
      if (p !== -1 && !(p >= 0 && p < this.pins.length)) throw new Error(`no GPIO ${p}`);
    }
    const key = `${a}:${b}`;
    if (down) this.pressed.set(key, [a, b]);
    else this.pressed.delete(key);
    this.update();
  }

  releaseAll() {
    this.pressed.clear();
    this.update();
  }

  /** The level each undriven pin sees now, given to it as its input. */
  update() {
    if (this.busy) return; // setInputValue may call back into a listener
    this.busy = true;
    try {
      const level = this.pins.map((pin) => (pin.outputEnable ? pin.outputValue : null));
      // a pressed button gives a driven (or grounded) pin's level to an undriven one;
      // repeated so a chain of buttons carries it
      for (let round = 0; round < 3; round++) {
        for (const [a, b] of this.pressed.values()) {
          const la = level[a];
          const lb = b === -1 ? false : level[b];
          if (la === null && lb !== null) level[a] = lb;
          else if (b !== -1 && lb === null && la !== null) level[b] = la;
        }
      }
      this.pins.forEach((pin, i) => {
        if (pin.outputEnable) return;
        let value = level[i];
        if (value === null) {
          if (pin.pullupEnabled) value = true;
          else if (pin.pulldownEnabled) value = false;
          else return; // floating: left as it was
        }
        if (this.given[i] !== value) {
          this.given[i] = value; // only on a change: each call is an edge to the pin's IRQ
          pin.setInputValue(value);
        }
      });
    } finally {
      this.busy = false;
    }
  }

  detach() {
    for (const off of this.unlisten) off();
  }
}
