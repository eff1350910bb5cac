// MicroPython's heap read from outside the chip: its allocation table (2 bits a 16-byte
// block: free, head, tail, mark) at the start of the heap area the firmware's ELF names
// (__GcHeapStart to __GcHeapEnd). The firmware needs no code of its own for it, and the
// figures are the collector's own: they match micropython.mem_info().
import fs from 'node:fs';

const BYTES_PER_BLOCK = 16;
const BLOCKS_PER_ATB = 4;
const BLOCKS_PER_FTB = 8;

/** The symbols of a 32-bit little-endian ELF file: Map name -> value. */
export function elfSymbols(bytes) {
  return new Map(elfSymbolTable(bytes).map((s) => [s.name, s.value]));
}

/** Its symbol table: [{name, value, size, type}] (type 2: a function). */
export function elfSymbolTable(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, false) !== 0x7f454c46 || bytes[4] !== 1 || bytes[5] !== 1) {
    throw new Error('not a 32-bit little-endian ELF file');
  }
  const shoff = view.getUint32(0x20, true);
  const shentsize = view.getUint16(0x2e, true);
  const shnum = view.getUint16(0x30, true);
  const section = (i) => {
    const at = shoff + i * shentsize;
    return {
      type: view.getUint32(at + 4, true),
      offset: view.getUint32(at + 16, true),
      size: view.getUint32(at + 20, true),
      link: view.getUint32(at + 24, true),
    };
  };
  const symbols = [];
  for (let i = 0; i < shnum; i++) {
    const sym = section(i);
    if (sym.type !== 2) continue; // SHT_SYMTAB
    const strtab = section(sym.link);
    for (let at = sym.offset; at + 16 <= sym.offset + sym.size; at += 16) {
      const nameAt = strtab.offset + view.getUint32(at, true);
      let end = nameAt;
      while (end < bytes.length && bytes[end] !== 0) end++;
      const name = Buffer.from(bytes.subarray(nameAt, end)).toString('latin1');
      if (name) {
        symbols.push({
          name,
          value: view.getUint32(at + 4, true),
          size: view.getUint32(at + 8, true),
          type: bytes[at + 12] & 0xf,
        });
      }
    }
  }
  return symbols;
}

/** Where the heap's table and blocks are, as MicroPython's gc_setup_area lays them out (with
 * its finaliser table, as the rp2 port has it). */
export function heapLayout(start, end, finaliser = true) {
  const total = end - start;
  const atbBytes = finaliser
    ? Math.floor(((total - 1) * 8) / (8 + (8 * BLOCKS_PER_ATB) / BLOCKS_PER_FTB + 8 * BLOCKS_PER_ATB * BYTES_PER_BLOCK))
    : Math.floor((total - 1) / (1 + 4 * BYTES_PER_BLOCK));
  const blocks = atbBytes * BLOCKS_PER_ATB;
  return { table: start, blocks, poolStart: end - blocks * BYTES_PER_BLOCK, poolEnd: end };
}

/** The heap of the firmware in `elfFile`, or throws saying which symbol is missing. */
export function heapOfElf(elfFile) {
  const table = elfSymbolTable(fs.readFileSync(elfFile));
  const symbols = new Map(table.map((s) => [s.name, s.value]));
  const need = ['__GcHeapStart', '__GcHeapEnd', 'gc_collect'];
  for (const name of need) {
    if (!symbols.has(name)) throw new Error(`${elfFile} has no symbol ${name}`);
  }
  return {
    layout: heapLayout(symbols.get('__GcHeapStart'), symbols.get('__GcHeapEnd')),
    gcCollect: symbols.get('gc_collect') & ~1,
    functions: table.filter((s) => s.type === 2 && s.size > 0),
  };
}

/** The heap now: bytes in use and free, the largest free run; `read(address)` reads a byte. */
export function heapStats(layout, read) {
  let used = 0;
  let free = 0;
  let run = 0;
  let largest = 0;
  const bytes = layout.blocks / BLOCKS_PER_ATB;
  for (let i = 0; i < bytes; i++) {
    const b = read(layout.table + i);
    for (let k = 0; k < 8; k += 2) {
      if (((b >> k) & 3) === 0) {
        free++;
        run++;
        if (run > largest) largest = run;
      } else {
        used++;
        run = 0;
      }
    }
  }
  return {
    total: layout.blocks * BYTES_PER_BLOCK,
    used: used * BYTES_PER_BLOCK,
    free: free * BYTES_PER_BLOCK,
    largest_free: largest * BYTES_PER_BLOCK,
  };
}

/** The extremes of the heap over a run, sampled at each collection: before it (live and
 * garbage) and when it returns (live only: the free heap and its largest block then). */
export class HeapWatch {
  constructor(layout) {
    this.layout = layout;
    this.reset();
  }

  reset() {
    this.collections = 0;
    this.usedMax = 0; // before a collection: live and garbage
    this.liveMax = 0; // after one
    this.freeMin = null; // after one
    this.largestFreeMin = null; // after one
    this.last = null;
  }

  before(read) {
    const s = heapStats(this.layout, read);
    this.usedMax = Math.max(this.usedMax, s.used);
  }

  after(read) {
    const s = heapStats(this.layout, read);
    this.collections++;
    this.liveMax = Math.max(this.liveMax, s.used);
    this.freeMin = this.freeMin === null ? s.free : Math.min(this.freeMin, s.free);
    this.largestFreeMin =
      this.largestFreeMin === null ? s.largest_free : Math.min(this.largestFreeMin, s.largest_free);
    this.last = s;
  }

  summary(read) {
    return {
      now: heapStats(this.layout, read),
      collections: this.collections,
      used_max: this.usedMax,
      live_max: this.liveMax,
      free_min: this.freeMin,
      largest_free_min: this.largestFreeMin,
      after_last_collection: this.last,
    };
  }
}
