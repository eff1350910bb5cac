// Where the chip spends its time: the program counter sampled every so many instructions,
// counted per function of the firmware's ELF. A profile of the C code (MicroPython's VM, its
// runtime, the collector), to find what a request or a move costs on this chip.

export class Profiler {
  /** `functions`: [{name, value, size}] (the ELF's functions; Thumb addresses are odd). */
  constructor(functions) {
    this.functions = functions
      .map((f) => ({ name: f.name, start: f.value & ~1, end: (f.value & ~1) + f.size }))
      .sort((a, b) => a.start - b.start);
    this.counts = new Map();
    this.samples = 0;
  }

  /** The function holding `pc`, or null. */
  find(pc) {
    const fs = this.functions;
    let lo = 0;
    let hi = fs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (fs[mid].start > pc) hi = mid - 1;
      else if (fs[mid].end <= pc) lo = mid + 1;
      else return fs[mid];
    }
    return null;
  }

  sample(pc) {
    this.samples++;
    const f = this.find(pc);
    const name = f ? f.name : pc < 0x4000 ? '(bootrom)' : pc >= 0x20000000 ? '(ram)' : '(other)';
    this.counts.set(name, (this.counts.get(name) || 0) + 1);
  }

  /** The `n` functions with most samples: [{name, share}] (share of all samples). */
  top(n = 30) {
    return [...this.counts.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, count]) => ({ name, share: Math.round((1000 * count) / this.samples) / 1000 }));
  }
}
