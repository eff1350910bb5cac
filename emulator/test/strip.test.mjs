import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StripCapture, tapStateMachine } from '../lib/strip.mjs';

test("the state machine's words become frames, told apart by the pause between them", () => {
  const strip = new StripCapture(1000);
  let ns = 0;
  const machine = { writeFIFO: () => assert.fail('queued instead of captured') };
  tapStateMachine(machine, strip, () => ns);
  machine.writeFIFO(0x11223300);
  ns = 500;
  machine.writeFIFO(0xaabbcc00);
  ns = 5000;
  machine.writeFIFO(0x01020300);
  const frames = strip.since(0);
  assert.equal(frames.length, 2);
  assert.deepEqual([frames[0].leds, frames[0].start_ns, frames[0].end_ns], [2, 0, 500]);
  assert.deepEqual([...Buffer.from(frames[0].data, 'base64')], [0x11, 0x22, 0x33, 0xaa, 0xbb, 0xcc]);
  assert.deepEqual(strip.since(frames[0].seq).map((f) => f.start_ns), [5000]);
});
