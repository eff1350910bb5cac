import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { FlashFile, SECTOR } from '../lib/flashfile.mjs';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'flash-'));

test('a new flash is erased; what is written survives into the next run', () => {
  const file = path.join(tmp(), 'sub', 'flash.bin');
  const one = new FlashFile(file, 4 * SECTOR);
  const flash = new Uint8Array(4 * SECTOR);
  assert.equal(one.load(flash), false);
  assert.ok(flash.every((b) => b === 0xff));
  flash[5] = 1;
  one.touch(5, 1);
  one.flush(flash);
  flash[2 * SECTOR + 7] = 2;
  flash[3 * SECTOR] = 9; // changed but never touched: not written
  one.touch(2 * SECTOR + 7, 1);
  assert.equal(one.flush(flash), 1);
  const again = new Uint8Array(4 * SECTOR);
  assert.equal(new FlashFile(file, 4 * SECTOR).load(again), true);
  assert.equal(again[5], 1);
  assert.equal(again[2 * SECTOR + 7], 2);
  assert.equal(again[3 * SECTOR], 0xff);
});

test('a flash file of another size is refused', () => {
  const file = path.join(tmp(), 'flash.bin');
  fs.writeFileSync(file, Buffer.alloc(100));
  assert.throws(() => new FlashFile(file, SECTOR).load(new Uint8Array(SECTOR)), /100 bytes/);
});
