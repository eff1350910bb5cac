// The control channel's requests, on a chip (chip.mjs's Chip, or a fake with its members):
//   {"op": "status"}                      the clock, the speed, resets, the boot events seen
//   {"op": "press", "a": 2, "b": 7, "ms": 80}   press the button between GPIOs a and b (b -1
//                                         or absent: ground) for ms of simulated time, or
//                                         "down": true/false to hold or release it
//   {"op": "frames", "since": N}          the LED frames numbered above N (strip.mjs)
//   {"op": "lines", "since": N}           the serial lines numbered above N, with their times
//   {"op": "heap", "reset": true}         the heap now and its extremes at collections (and
//                                         start counting them again)
//   {"op": "reset"}                       reset the chip (its flash is kept)
//   {"op": "profile", "start": true}      sample where the chip runs, until
//   {"op": "profile"}                     which returns the functions most sampled
export function controller(chip, boots) {
  return (request) => {
    const op = request.op;
    if (op === 'status') return { ...chip.status(), boots: boots.slice(-8) };
    if (op === 'press') {
      const a = request.a;
      const b = request.b ?? -1;
      if (!Number.isInteger(a) || !Number.isInteger(b)) throw new Error('press needs GPIO numbers a (and b)');
      if (request.ms !== undefined) {
        if (!(request.ms > 0)) throw new Error('press: ms must be above 0');
        chip.button(a, b, true);
        chip.releaseAfter(a, b, request.ms);
      } else {
        chip.button(a, b, request.down !== false);
      }
      return { sim_ns: chip.nanos() };
    }
    if (op === 'frames') return { frames: chip.strip.since(request.since || 0), sim_ns: chip.nanos() };
    if (op === 'lines') return { lines: chip.link.linesSince(request.since || 0), sim_ns: chip.nanos() };
    if (op === 'heap') {
      if (!chip.heapWatch) throw new Error('no heap figures: the runner was given no --elf');
      const summary = chip.heapWatch.summary((address) => chip.readByte(address));
      if (request.reset) chip.heapWatch.reset();
      return summary;
    }
    if (op === 'profile') {
      if (request.start) {
        chip.startProfile();
        return { sim_ns: chip.nanos() };
      }
      return { ...chip.stopProfile(request.top || 30), sim_ns: chip.nanos() };
    }
    if (op === 'reset') {
      chip.reset('host');
      return { sim_ns: chip.nanos() };
    }
    throw new Error(`unknown op ${JSON.stringify(op)}`);
  };
}

/** Notes each `boot` event the firmware writes: its time from power-on. */
export function bootWatcher(chip, boots) {
  return (entry) => {
    if (entry.dir === 'out' && /"event":\s*"boot"/.test(entry.line)) {
      boots.push({ ns: entry.ns, since_power_on_ns: entry.ns - chip.powerOnNs, resets: chip.resets });
    }
  };
}
