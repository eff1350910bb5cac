// The RP2040's bootrom, given as a 16 KB binary file (it is not part of rp2040js's npm
// package, nor of this project), and its flash routines done by the runner.
//
// rp2040js does not model the flash chip's erase and program commands, so littlefs could not
// be made (open() raised OSError 19). The SDK's flash_range_erase and flash_range_program call
// the bootrom's routines of those names (found by their codes 'RE' and 'RP' in its function
// table); each is replaced by `BKPT #n; BX LR`, and the runner does the work at the BKPT.
import fs from 'node:fs';

export const BOOTROM_BYTES = 16384;
export const BREAK_ERASE = 0xa0;
export const BREAK_PROGRAM = 0xa1;
const BX_LR = 0x4770;
const BKPT = 0xbe00;

/** The bootrom file as the Uint32Array rp2040js loads; throws an Error saying what is wrong. */
export function readBootrom(file) {
  let data;
  try {
    data = fs.readFileSync(file);
  } catch (err) {
    throw new Error(`cannot read the bootrom ${file}: ${err.code || err.message}`);
  }
  if (data.length !== BOOTROM_BYTES) {
    throw new Error(`${file} is not an RP2040 bootrom (${data.length} bytes, not 16384)`);
  }
  if (data[0x10] !== 0x4d || data[0x11] !== 0x75 || data[0x12] !== 0x01) {
    throw new Error(`${file} is not an RP2040 bootrom (no 'Mu' and version 1 at 0x10)`);
  }
  const words = new Uint32Array(BOOTROM_BYTES / 4);
  new Uint8Array(words.buffer).set(data);
  return words;
}

function half(rom, address) {
  const word = rom[address >>> 2];
  return address & 2 ? word >>> 16 : word & 0xffff;
}

function setHalf(rom, address, value) {
  const i = address >>> 2;
  rom[i] = address & 2 ? (rom[i] & 0xffff) | (value << 16) : (rom[i] & 0xffff0000) | value;
}

/** The address of the bootrom function of two-letter `code` (e.g. 'RE'), or -1. */
export function romFunction(rom, code) {
  const want = code.charCodeAt(0) | (code.charCodeAt(1) << 8);
  for (let at = half(rom, 0x14); at + 4 <= BOOTROM_BYTES; at += 4) {
    const c = half(rom, at);
    if (c === 0) break;
    if (c === want) return half(rom, at + 2) & ~1;
  }
  return -1;
}

/** Replaces the flash erase and program routines by breakpoints the runner serves. */
export function patchFlashRoutines(rom) {
  for (const [code, brk] of [
    ['RE', BREAK_ERASE],
    ['RP', BREAK_PROGRAM],
  ]) {
    const at = romFunction(rom, code);
    if (at < 0) throw new Error(`the bootrom has no '${code}' function`);
    setHalf(rom, at, BKPT | brk);
    setHalf(rom, at + 2, BX_LR);
  }
  return rom;
}

// The flash chip's own time for them (Winbond W25Q16JV, typical: a 4 KB sector's erase 45
// ms, a 256-byte page's program 0.4 ms), during which the RP2040 waits in the routine.
export const ERASE_NS_PER_SECTOR = 45e6;
export const PROGRAM_NS_PER_PAGE = 0.4e6;

/** The chip's time in the routine of breakpoint `code`, in ns (0: not a flash routine). */
export function flashBusyNs(code, regs) {
  if (code === BREAK_ERASE) return Math.ceil(regs[1] / 4096) * ERASE_NS_PER_SECTOR;
  if (code === BREAK_PROGRAM) return Math.ceil(regs[2] / 256) * PROGRAM_NS_PER_PAGE;
  return 0;
}

/** What the two routines do, on `flash` (a Uint8Array of the chip's flash): erase sets bytes
 * to 0xFF, program ANDs them in (a NOR flash only clears bits). `read(address)` reads a byte
 * of the chip's memory (the data to program); `changed(offset, length)` is told of every
 * write. Returns false for a breakpoint that is not one of these. */
export function serveFlashBreak(code, regs, flash, read, changed) {
  if (code === BREAK_ERASE) {
    const [offset, count] = [regs[0], regs[1]];
    const end = Math.min(flash.length, offset + count);
    flash.fill(0xff, offset, end);
    changed(offset, end - offset);
    return true;
  }
  if (code === BREAK_PROGRAM) {
    const [offset, source, count] = [regs[0], regs[1], regs[2]];
    const end = Math.min(flash.length, offset + count);
    for (let i = 0; offset + i < end; i++) flash[offset + i] &= read(source + i);
    changed(offset, end - offset);
    return true;
  }
  return false;
}
