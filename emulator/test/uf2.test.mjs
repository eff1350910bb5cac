import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyUF2, FLASH_BASE, parseUF2, RP2040_FAMILY } from '../lib/uf2.mjs';

export function uf2Block(address, payload, family = RP2040_FAMILY, flags = 0x2000) {
  const block = new Uint8Array(512);
  const view = new DataView(block.buffer);
  view.setUint32(0, 0x0a324655, true);
  view.setUint32(4, 0x9e5d5157, true);
  view.setUint32(8, flags, true);
  view.setUint32(12, address, true);
  view.setUint32(16, payload.length, true);
  view.setUint32(28, family, true);
  block.set(payload, 32);
  view.setUint32(508, 0x0ab16f30, true);
  return block;
}

function image(...blocks) {
  const out = new Uint8Array(512 * blocks.length);
  blocks.forEach((b, i) => out.set(b, 512 * i));
  return out;
}

test('an image writes only the blocks it carries, keeping the rest of the flash', () => {
  const flash = new Uint8Array(4096).fill(0x55);
  const blocks = parseUF2(image(uf2Block(FLASH_BASE + 256, [1, 2, 3]), uf2Block(FLASH_BASE, [9])));
  const end = applyUF2(blocks, flash);
  assert.equal(end, 259);
  assert.deepEqual([...flash.subarray(0, 2)], [9, 0x55]);
  assert.deepEqual([...flash.subarray(256, 260)], [1, 2, 3, 0x55]);
});

test('what is not a UF2 image for this chip is refused with its reason', () => {
  assert.throws(() => parseUF2(new Uint8Array(100)), /not a multiple of 512/);
  assert.throws(() => parseUF2(new Uint8Array(512)), /no UF2 magic/);
  assert.throws(() => parseUF2(image(uf2Block(FLASH_BASE, [1], 0xe48bff59))), /another chip/);
  assert.throws(() => applyUF2(parseUF2(image(uf2Block(0x20000000, [1]))), new Uint8Array(16)),
    /outside the flash/);
});
