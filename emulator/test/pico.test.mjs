import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const PICO = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'pico.mjs');

function run(...args) {
  const p = spawnSync(process.execPath, [PICO, ...args], { encoding: 'utf8', input: '' });
  return [p.status, p.stderr.trim()];
}

test('the runner refuses clearly, in one line, what it is not given', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pico-'));
  const image = path.join(dir, 'x.uf2');
  fs.writeFileSync(image, Buffer.alloc(512));
  const flash = path.join(dir, 'flash.bin');
  assert.deepEqual(run('--bootrom', 'b', '--flash', flash), [2, 'pico: --image is needed']);
  assert.deepEqual(run('--image', path.join(dir, 'none.uf2'), '--bootrom', 'b', '--flash', flash),
    [2, `pico: ${path.join(dir, 'none.uf2')}: no such file`]);
  const [code, text] = run('--image', image, '--bootrom', 'b', '--flash', flash);
  assert.equal(code, 2);
  assert.match(text, /^pico: .*no UF2 magic numbers\)$/);
});
