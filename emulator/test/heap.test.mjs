import assert from 'node:assert/strict';
import { test } from 'node:test';
import { elfSymbols, heapLayout, heapStats, HeapWatch } from '../lib/heap.mjs';

test("the layout is MicroPython's: the Pico's heap area gives its 245,888 bytes", () => {
  const layout = heapLayout(0x200028d8, 0x20040000);
  assert.equal(layout.blocks * 16, 245888);
  assert.equal(layout.poolEnd - layout.poolStart, 245888);
});

/** A heap of 8 blocks whose table is at address 0: `kinds` 2 bits each (0 free). */
function table(kinds) {
  const bytes = [0, 0];
  kinds.forEach((k, i) => (bytes[i >> 2] |= k << (2 * (i & 3))));
  return (address) => bytes[address];
}

test('free, used and the largest free run are counted from the allocation table', () => {
  const layout = { table: 0, blocks: 8 };
  const s = heapStats(layout, table([1, 2, 0, 0, 0, 1, 0, 0]));
  assert.deepEqual(s, { total: 128, used: 48, free: 80, largest_free: 48 });
  const watch = new HeapWatch(layout);
  watch.before(table([1, 2, 2, 2, 2, 2, 2, 1]));
  watch.after(table([1, 0, 0, 0, 1, 0, 0, 0]));
  watch.after(table([1, 2, 0, 0, 1, 0, 0, 0]));
  const sum = watch.summary(table([0, 0, 0, 0, 0, 0, 0, 0]));
  assert.deepEqual(
    [sum.collections, sum.used_max, sum.live_max, sum.free_min, sum.largest_free_min],
    [2, 128, 48, 80, 48],
  );
});

test("an ELF's symbols are read (a minimal file: a symbol table and its strings)", () => {
  const strings = Buffer.from('\0gc_collect\0__GcHeapStart\0');
  const symbols = Buffer.alloc(48);
  symbols.writeUInt32LE(1, 16); // gc_collect
  symbols.writeUInt32LE(0x1002fb75, 20);
  symbols.writeUInt32LE(12, 32); // __GcHeapStart
  symbols.writeUInt32LE(0x200028d8, 36);
  const header = Buffer.alloc(52);
  header.writeUInt32BE(0x7f454c46, 0);
  header[4] = 1;
  header[5] = 1;
  const shoff = 52 + strings.length + symbols.length;
  header.writeUInt32LE(shoff, 0x20);
  header.writeUInt16LE(40, 0x2e);
  header.writeUInt16LE(3, 0x30);
  const sections = Buffer.alloc(120);
  sections.writeUInt32LE(3, 40 + 4); // 1: SHT_STRTAB
  sections.writeUInt32LE(52, 40 + 16);
  sections.writeUInt32LE(strings.length, 40 + 20);
  sections.writeUInt32LE(2, 80 + 4); // 2: SHT_SYMTAB, strings in section 1
  sections.writeUInt32LE(52 + strings.length, 80 + 16);
  sections.writeUInt32LE(symbols.length, 80 + 20);
  sections.writeUInt32LE(1, 80 + 24);
  const elf = new Uint8Array(Buffer.concat([header, strings, symbols, sections]));
  const found = elfSymbols(elf);
  assert.equal(found.get('gc_collect'), 0x1002fb75);
  assert.equal(found.get('__GcHeapStart'), 0x200028d8);
  assert.throws(() => elfSymbols(new Uint8Array(64)), /not a 32-bit little-endian ELF/);
});

test('the profiler counts samples per function, by address', async () => {
  const { Profiler } = await import('../lib/profile.mjs');
  const p = new Profiler([
    { name: 'mp_execute_bytecode', value: 0x10001001, size: 0x100 },
    { name: 'gc_alloc', value: 0x10002001, size: 0x10 },
  ]);
  for (const pc of [0x10001000, 0x100010fe, 0x10002008, 0x20000100, 0x10003000]) p.sample(pc);
  assert.equal(p.find(0x10001100), null);
  assert.deepEqual(p.top(2), [
    { name: 'mp_execute_bytecode', share: 0.4 },
    { name: 'gc_alloc', share: 0.2 },
  ]);
});
