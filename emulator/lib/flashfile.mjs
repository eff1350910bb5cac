// The chip's flash kept in a file: read at start, written back sector by sector when the
// firmware erases or programs it. So a save survives a reset and a deploy survives a restart.
import fs from 'node:fs';
import path from 'node:path';

export const SECTOR = 4096;

export class FlashFile {
  /** `file`: the image's path (made at the first flush); `size`: the chip's flash in bytes. */
  constructor(file, size) {
    this.file = file;
    this.size = size;
    this.dirty = new Set(); // sector numbers written since the last flush
  }

  /** Fills `flash` (size bytes at least) from the file, or with 0xFF (erased) for a new one.
   * Returns true when the file was there. */
  load(flash) {
    flash.fill(0xff, 0, this.size);
    let data;
    try {
      data = fs.readFileSync(this.file);
    } catch (err) {
      if (err.code === 'ENOENT') return false;
      throw new Error(`cannot read the flash file ${this.file}: ${err.message}`);
    }
    if (data.length !== this.size) {
      throw new Error(
        `the flash file ${this.file} has ${data.length} bytes, not this chip's ${this.size}`,
      );
    }
    flash.set(data, 0);
    return true;
  }

  /** Notes that bytes [offset, offset + length) changed. */
  touch(offset, length) {
    if (length <= 0) return;
    const last = Math.min(this.size - 1, offset + length - 1);
    for (let s = Math.floor(offset / SECTOR); s * SECTOR <= last; s++) this.dirty.add(s);
  }

  /** Writes the changed sectors of `flash` to the file (the whole image when it is new). */
  flush(flash) {
    const fresh = !fs.existsSync(this.file);
    if (!fresh && this.dirty.size === 0) return 0;
    fs.mkdirSync(path.dirname(path.resolve(this.file)), { recursive: true });
    if (fresh) {
      const tmp = this.file + '.new';
      fs.writeFileSync(tmp, flash.subarray(0, this.size));
      fs.renameSync(tmp, this.file);
      const n = this.dirty.size;
      this.dirty.clear();
      return n;
    }
    const fd = fs.openSync(this.file, 'r+');
    try {
      for (const s of this.dirty) {
        fs.writeSync(fd, flash, s * SECTOR, SECTOR, s * SECTOR);
      }
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    const n = this.dirty.size;
    this.dirty.clear();
    return n;
  }
}
