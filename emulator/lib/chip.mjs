// One emulated Pico: rp2040js's RP2040 running a UF2 image, with what its runner must add
// (see the README's "The emulated Pico"): the USB serial port served as a host would
// (cdc.mjs), simulated time that goes on with the wall clock while the chip waits for an
// event with no alarm set, the bootrom's flash routines (bootrom.mjs), the pads' pull
// resistors (buttons.mjs), a reset when the watchdog fires, the flash kept in a file
// (flashfile.mjs), the LED strip's words (strip.mjs) and the heap (heap.mjs).
import { ConsoleLogger, LogLevel, RP2040, USBCDC } from 'rp2040js';
import { flashBusyNs, patchFlashRoutines, serveFlashBreak } from './bootrom.mjs';
import { Buttons } from './buttons.mjs';
import { HeapWatch } from './heap.mjs';
import { Profiler } from './profile.mjs';
import { tapStateMachine } from './strip.mjs';
import { applyUF2 } from './uf2.mjs';

const CYCLE_NS = 8; // 125 MHz
const BATCH_MS = 25; // the longest the emulation holds node's event loop
const IDLE_POLL_MS = 2;
const WATCHDOG = 0x40058; // the watchdog's peripheral key in rp2040js
const FLUSH_MS = 300; // flash writes reach the file this long after the last one
const SAMPLE_EVERY = 97; // instructions between two samples of the profiler

export class Chip {
  /** `bootrom`: the patched-or-not Uint32Array; `uf2`: parsed blocks; `flashFile`: a
   * FlashFile; `options`: {flashSize, heap (heapOfElf's), stripMachine [pio, sm]}. */
  constructor({
    bootrom,
    uf2,
    flashFile,
    link,
    strip,
    heap = null,
    stripMachine = [0, 0],
    flashTiming = true,
  }) {
    this.flashTiming = flashTiming; // the flash chip's erase and program times are charged
    this.bootrom = patchFlashRoutines(bootrom.slice());
    this.flashFile = flashFile;
    this.link = link;
    this.strip = strip;
    this.heap = heap;
    this.heapWatch = heap ? new HeapWatch(heap.layout) : null;
    this.stripMachine = stripMachine;
    this.flash = new Uint8Array(flashFile.size);
    this.flashFile.load(this.flash);
    this.imageEnd = applyUF2(uf2, this.flash);
    this.flashFile.touch(0, this.imageEnd);
    this.flashFile.flush(this.flash);
    this.baseNs = 0; // simulated time before the current power-on
    this.powerOnNs = 0;
    this.resets = 0;
    this.resetReason = null;
    this.stopped = true;
    this.idleSince = null; // wall ms when the chip began waiting with no alarm
    this.busyWallMs = 0; // wall time spent emulating (not idle)
    this.busySimNs = 0; // simulated time covered meanwhile
    this.idleSimNs = 0;
    this.presses = [];
    this.flushTimer = null;
    this.pendingReset = null;
    this.onReset = null;
    this.returnHook = -1; // where gc_collect returns to, while one runs
    this.profiler = null;
    this.countdown = SAMPLE_EVERY;
    this.powerOn();
  }

  /** Simulated time since the runner started, in ns. */
  nanos() {
    return this.baseNs + this.mcu.clock.nanos;
  }

  powerOn() {
    const mcu = new RP2040();
    mcu.logger = new ConsoleLogger(LogLevel.Error);
    mcu.loadBootrom(this.bootrom); // (resets the chip, and its flash to 0xFF)
    mcu.flash.set(this.flash);
    this.flash = mcu.flash.subarray(0, this.flashFile.size); // one copy: the chip's
    mcu.onBreak = (code) => this.onBreak(code);
    const watchdog = mcu.peripherals[WATCHDOG];
    watchdog.onWatchdogTrigger = () => {
      this.pendingReset = 'watchdog';
    };
    if (this.resetScratch) watchdog.scratchData.set(this.resetScratch);
    if (this.resetReason === 'watchdog') watchdog.reason = 1; // TIMER: as after a real one
    this.mcu = mcu;
    this.powerOnNs = this.nanos();
    const cdc = new USBCDC(mcu.usbCtrl);
    this.link.attach(mcu.usbCtrl, cdc);
    this.buttons = new Buttons(mcu.gpio);
    for (const [a, b] of this.presses) this.buttons.set(a, b, true);
    const [pio, sm] = this.stripMachine;
    tapStateMachine(mcu.pio[pio].machines[sm], this.strip, () => this.nanos());
    mcu.core.PC = 0x10000000; // the image's second-stage loader, as the bootrom would
  }

  /** A reset: the chip starts again from its flash (kept); `why` is said in the status. */
  reset(why = 'reset') {
    const old = this.mcu;
    for (const pio of old.pio) pio.stop();
    old.dma.channels?.forEach((ch) => ch.abort?.());
    this.buttons.detach();
    this.link.detach();
    this.resetScratch = old.peripherals[WATCHDOG].scratchData.slice();
    this.baseNs += old.clock.nanos;
    this.resets++;
    this.resetReason = why;
    this.returnHook = -1;
    this.powerOn();
    this.onReset?.(why);
  }

  onBreak(code) {
    const core = this.mcu.core;
    const busy = this.flashTiming ? flashBusyNs(code, core.registers) : 0;
    const done = serveFlashBreak(
      code,
      core.registers,
      this.flash,
      (address) => this.mcu.readUint8(address),
      (offset, length) => this.flashWritten(offset, length),
    );
    if (done && busy) this.mcu.clock.tick(busy); // the CPU waits in the routine meanwhile
    if (!done) {
      this.stop();
      this.fault = `the chip stopped at a breakpoint (BKPT ${code}) at 0x${(core.PC - 2).toString(16)}`;
      this.onFault?.(this.fault);
    }
  }

  flashWritten(offset, length) {
    this.flashFile.touch(offset, length);
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = setTimeout(() => this.flush(), FLUSH_MS);
  }

  flush() {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    this.flashFile.flush(this.flash);
  }

  /** Brings simulated time up to now after a wait with no alarm (wall time goes on), before
   * the host's bytes or a press reach the chip. */
  catchUp() {
    if (this.idleSince === null) return;
    const wall = performance.now();
    const ns = (wall - this.idleSince) * 1e6;
    this.idleSince = wall;
    this.mcu.clock.tick(ns);
    this.idleSimNs += ns;
  }

  /** Presses or releases the button between pins a and b (-1: ground). */
  button(a, b, down) {
    this.catchUp();
    const key = (p) => p[0] === a && p[1] === b;
    this.presses = this.presses.filter((p) => !key(p));
    if (down) this.presses.push([a, b]);
    this.buttons.set(a, b, down);
    this.kick();
  }

  /** Schedules a release after `ms` of simulated time. */
  releaseAfter(a, b, ms) {
    const alarm = this.mcu.clock.createAlarm(() => this.button(a, b, false));
    alarm.schedule(ms * 1e6);
  }

  readByte(address) {
    return this.mcu.readUint8(address);
  }

  start() {
    this.stopped = false;
    this.kick();
  }

  stop() {
    this.stopped = true;
    this.flush();
    for (const pio of this.mcu.pio) pio.stop();
  }

  /** Runs the chip now if it was idle. */
  kick() {
    if (this.stopped || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.run());
  }

  run() {
    this.scheduled = false;
    if (this.stopped) return;
    this.catchUp();
    this.idleSince = null;
    const started = performance.now();
    const simStart = this.nanos();
    const idle = this.emulate(started + BATCH_MS);
    this.busyWallMs += performance.now() - started;
    this.busySimNs += this.nanos() - simStart;
    if (this.pendingReset) {
      const why = this.pendingReset;
      this.pendingReset = null;
      this.reset(why);
    }
    if (this.stopped) return;
    if (idle) {
      this.idleSince = performance.now();
      setTimeout(() => this.kick(), IDLE_POLL_MS);
    } else {
      this.kick();
    }
  }

  /** Executes until `deadline` (wall ms); true when the chip waits with no alarm. */
  emulate(deadline) {
    const mcu = this.mcu;
    const core = mcu.core;
    const clock = mcu.clock;
    const collect = this.heap ? this.heap.gcCollect : -1;
    while (performance.now() < deadline) {
      for (let i = 0; i < 50000; i++) {
        if (core.waiting) {
          if (!clock.nextAlarm) return true;
          clock.tick(clock.nanosToNextAlarm);
          if (this.pendingReset) return false;
          continue;
        }
        const pc = core.PC;
        if (pc === collect || pc === this.returnHook) this.hook(pc);
        if (this.profiler !== null && --this.countdown === 0) {
          this.countdown = SAMPLE_EVERY;
          this.profiler.sample(pc);
        }
        clock.tick(core.executeInstruction() * CYCLE_NS);
        if (this.pendingReset || this.stopped) return false;
      }
    }
    return false;
  }

  /** gc_collect's entry and its return: the heap before and after a collection. */
  hook(pc) {
    const read = (address) => this.mcu.readUint8(address);
    if (pc === this.heap.gcCollect && this.returnHook === -1) {
      this.heapWatch.before(read);
      this.returnHook = this.mcu.core.LR & ~1;
    } else if (pc === this.returnHook) {
      this.returnHook = -1;
      this.heapWatch.after(read);
    }
  }

  /** Starts sampling where the chip runs (the ELF's functions); stopProfile() says. */
  startProfile() {
    if (!this.heap) throw new Error('no profile: the runner was given no --elf');
    this.profiler = new Profiler(this.heap.functions);
  }

  stopProfile(n = 30) {
    if (!this.profiler) throw new Error('no profile was started');
    const p = this.profiler;
    this.profiler = null;
    return { samples: p.samples, every: SAMPLE_EVERY, top: p.top(n) };
  }

  status() {
    const now = this.nanos();
    return {
      sim_ns: now,
      since_power_on_ns: now - this.powerOnNs,
      resets: this.resets,
      last_reset: this.resetReason,
      usb: this.link.connected,
      speed: this.busyWallMs ? this.busySimNs / 1e6 / this.busyWallMs : null,
      busy_wall_ms: this.busyWallMs,
      busy_sim_ns: this.busySimNs,
      idle_sim_ns: this.idleSimNs,
      fault: this.fault || null,
    };
  }
}
