import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import {
  BREAK_ERASE,
  BREAK_PROGRAM,
  patchFlashRoutines,
  readBootrom,
  romFunction,
  serveFlashBreak,
} from '../lib/bootrom.mjs';

/** A stand-in bootrom: the 'Mu' version 1 mark and a function table of RE and RP. */
function fakeRom() {
  const bytes = Buffer.alloc(16384);
  bytes.write('Mu', 0x10, 'latin1');
  bytes[0x12] = 1;
  bytes.writeUInt16LE(0x100, 0x14);
  bytes.writeUInt16LE(0x4552, 0x100); // 'RE'
  bytes.writeUInt16LE(0x2001, 0x102);
  bytes.writeUInt16LE(0x5052, 0x104); // 'RP'
  bytes.writeUInt16LE(0x2101, 0x106);
  return bytes;
}

test('the bootrom file is checked, and its flash routines become breakpoints', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rom-'));
  const file = path.join(dir, 'rom.bin');
  fs.writeFileSync(file, fakeRom());
  const rom = readBootrom(file);
  assert.equal(romFunction(rom, 'RE'), 0x2000);
  assert.equal(romFunction(rom, 'XX'), -1);
  patchFlashRoutines(rom);
  const half = (a) => (a & 2 ? rom[a >> 2] >>> 16 : rom[a >> 2] & 0xffff);
  assert.equal(half(0x2000), 0xbe00 | BREAK_ERASE);
  assert.equal(half(0x2002), 0x4770); // BX LR
  assert.equal(half(0x2100), 0xbe00 | BREAK_PROGRAM);
  fs.writeFileSync(file, Buffer.alloc(16384));
  assert.throws(() => readBootrom(file), /not an RP2040 bootrom/);
  fs.writeFileSync(file, Buffer.alloc(10));
  assert.throws(() => readBootrom(file), /10 bytes/);
  assert.throws(() => readBootrom(path.join(dir, 'none')), /ENOENT/);
});

test('erase sets bytes to 0xFF, program clears bits as a NOR flash does', () => {
  const flash = new Uint8Array(64).fill(0x0f);
  const changed = [];
  const note = (o, n) => changed.push([o, n]);
  assert.ok(serveFlashBreak(BREAK_ERASE, [16, 16], flash, () => 0, note));
  assert.deepEqual([...flash.subarray(15, 33)], [0x0f, ...Array(16).fill(0xff), 0x0f]);
  const ram = { 0x20000000: 0xf0, 0x20000001: 0x3c };
  assert.ok(serveFlashBreak(BREAK_PROGRAM, [16, 0x20000000, 2], flash, (a) => ram[a], note));
  assert.deepEqual([...flash.subarray(16, 18)], [0xf0, 0x3c]);
  assert.ok(serveFlashBreak(BREAK_PROGRAM, [0, 0x20000000, 1], flash, (a) => ram[a], note));
  assert.equal(flash[0], 0x00); // 0x0f AND 0xf0
  assert.deepEqual(changed, [[16, 16], [16, 2], [0, 1]]);
  assert.equal(serveFlashBreak(7, [0, 0, 0], flash, () => 0, note), false);
});

test("the flash chip's erase and program take their typical time", async () => {
  const { flashBusyNs } = await import('../lib/bootrom.mjs');
  assert.equal(flashBusyNs(BREAK_ERASE, [0, 8192]), 90e6);
  assert.equal(flashBusyNs(BREAK_PROGRAM, [0, 0, 512]), 0.8e6);
  assert.equal(flashBusyNs(3, [0, 0, 0]), 0);
});
