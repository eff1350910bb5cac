// UF2 images (what a Pico takes over its USB drive): 512-byte blocks, each carrying up to 476
// bytes for one flash address. Applying an image writes only the blocks it carries, as the
// RP2040's bootloader does, so the rest of the flash (the board's files) is kept.

const MAGIC_START0 = 0x0a324655;
const MAGIC_START1 = 0x9e5d5157;
const MAGIC_END = 0x0ab16f30;
const FLAG_NOT_MAIN_FLASH = 0x1;
const FLAG_FAMILY_ID = 0x2000;
export const RP2040_FAMILY = 0xe48bff56;
export const FLASH_BASE = 0x10000000;

/** The blocks of a UF2 image [{address, data}]; throws an Error saying what is wrong. */
export function parseUF2(bytes, family = RP2040_FAMILY) {
  if (bytes.length === 0 || bytes.length % 512 !== 0) {
    throw new Error(`not a UF2 image (${bytes.length} bytes, not a multiple of 512)`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const blocks = [];
  for (let at = 0; at < bytes.length; at += 512) {
    const word = (i) => view.getUint32(at + i, true);
    if (word(0) !== MAGIC_START0 || word(4) !== MAGIC_START1 || word(508) !== MAGIC_END) {
      throw new Error(`not a UF2 image (block ${at / 512} has no UF2 magic numbers)`);
    }
    const flags = word(8);
    if (flags & FLAG_NOT_MAIN_FLASH) continue;
    if (flags & FLAG_FAMILY_ID && word(28) !== family) {
      throw new Error(
        `a UF2 image for another chip (family 0x${word(28).toString(16)}, not the RP2040's)`,
      );
    }
    const size = word(16);
    if (size > 476) throw new Error(`a UF2 block of ${size} bytes (476 at most)`);
    blocks.push({ address: word(12), data: bytes.subarray(at + 32, at + 32 + size) });
  }
  if (blocks.length === 0) throw new Error('a UF2 image with no block for the flash');
  return blocks;
}

/** Writes the blocks into `flash` (a Uint8Array from FLASH_BASE); returns the highest
 * offset written, so a caller can say where the image ends. */
export function applyUF2(blocks, flash) {
  let end = 0;
  for (const { address, data } of blocks) {
    const offset = address - FLASH_BASE;
    if (offset < 0 || offset + data.length > flash.length) {
      throw new Error(`a UF2 block at 0x${address.toString(16)}, outside the flash`);
    }
    flash.set(data, offset);
    end = Math.max(end, offset + data.length);
  }
  return end;
}
