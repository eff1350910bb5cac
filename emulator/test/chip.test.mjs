// The Chip on rp2040js itself (the npm package make emulator installs), running tiny Thumb
// programs instead of MicroPython: the bootrom's flash routine done by the runner and kept in
// the flash file, a reset when the watchdog fires (the flash kept), and simulated time going
// on with the wall clock while the chip waits for an event with no alarm set.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { CdcLink } from '../lib/cdc.mjs';
import { Chip } from '../lib/chip.mjs';
import { FlashFile } from '../lib/flashfile.mjs';
import { StripCapture } from '../lib/strip.mjs';

const FLASH = 2 * 1024 * 1024;
const ERASED_AT = 0x100000;

/** A bootrom with the initial stack pointer and a function table of RE (at 0x2000) and RP. */
function bootrom() {
  const bytes = Buffer.alloc(16384);
  bytes.writeUInt32LE(0x20041f00, 0);
  bytes.write('Mu', 0x10, 'latin1');
  bytes[0x12] = 1;
  bytes.writeUInt16LE(0x100, 0x14);
  bytes.writeUInt16LE(0x4552, 0x100);
  bytes.writeUInt16LE(0x2001, 0x102);
  bytes.writeUInt16LE(0x5052, 0x104);
  bytes.writeUInt16LE(0x2101, 0x106);
  const words = new Uint32Array(4096);
  new Uint8Array(words.buffer).set(bytes);
  return words;
}

function program(halves, literals = []) {
  const bytes = Buffer.alloc(2 * halves.length + 4 * literals.length + 2);
  halves.forEach((h, i) => bytes.writeUInt16LE(h, 2 * i));
  const at = (2 * halves.length + 3) & ~3;
  literals.forEach((w, i) => bytes.writeUInt32LE(w >>> 0, at + 4 * i));
  return [{ address: 0x10000000, data: bytes }];
}

// erase 4 KB at ERASED_AT through the bootrom's RE, then fire the watchdog
const ERASE_THEN_RESET = program(
  [0x4804, 0x4905, 0x4b05, 0x4798, 0x4805, 0x2101, 0x07c9, 0x6001, 0xe7fe, 0x0000],
  [ERASED_AT, 4096, 0x2001, 0x40058000],
);
const WAIT_FOREVER = program([0xbf20, 0xe7fd]); // wfe; b back to it

function chipOn(image, file) {
  return new Chip({
    bootrom: bootrom(),
    uf2: image,
    flashFile: new FlashFile(file, FLASH),
    link: new CdcLink(() => 0),
    strip: new StripCapture(),
  });
}

const until = async (ok, ms = 5000) => {
  const end = Date.now() + ms;
  while (!ok() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
  return ok();
};

test("the bootrom's erase is done into the flash file, which a watchdog reset keeps", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chip-'));
  const file = path.join(dir, 'flash.bin');
  fs.writeFileSync(file, Buffer.alloc(FLASH)); // a flash of zeros
  const chip = chipOn(ERASE_THEN_RESET, file);
  const resets = [];
  chip.onReset = (why) => resets.push([why, chip.nanos()]);
  chip.start();
  assert.ok(await until(() => resets.length > 0), 'no reset');
  chip.stop();
  assert.equal(resets[0][0], 'watchdog');
  assert.ok(resets[0][1] >= 45e6, 'the erase took the flash chip\'s time'); // one sector
  const flash = fs.readFileSync(file);
  assert.ok(flash.subarray(ERASED_AT, ERASED_AT + 4096).every((b) => b === 0xff));
  assert.equal(flash[ERASED_AT - 1], 0);
  assert.equal(flash[ERASED_AT + 4096], 0);
  assert.equal(flash.readUInt16LE(0), 0x4804); // the image, written at start
});

test('a chip waiting with no alarm set lets simulated time go on with the wall clock', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chip-'));
  const chip = chipOn(WAIT_FOREVER, path.join(dir, 'flash.bin'));
  chip.start();
  const t0 = chip.nanos();
  await new Promise((r) => setTimeout(r, 300));
  chip.catchUp();
  const waited = chip.nanos() - t0;
  chip.stop();
  assert.ok(waited > 150e6 && waited < 3e9, `${waited / 1e6} ms of chip time`);
  assert.equal(chip.mcu.core.waiting, true);
});
