import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Buttons } from '../lib/buttons.mjs';
import { FakePin } from './fakes.mjs';

function board() {
  const pins = [0, 1, 2, 3].map((i) => new FakePin(i));
  pins[0].drive(true); // a row, inactive (high)
  pins[1].pullupEnabled = true; // a column, read with its pull-up
  pins[2].pullupEnabled = true; // a direct button to ground
  pins[3].pulldownEnabled = true;
  return { pins, buttons: new Buttons(pins) };
}

test('undriven inputs read their pulls: nothing reads pressed at power-on', () => {
  const { pins } = board();
  assert.equal(pins[1].input, true);
  assert.equal(pins[2].input, true);
  assert.equal(pins[3].input, false);
});

test('a matrix key reads pressed only while its row is driven low', () => {
  const { pins, buttons } = board();
  buttons.set(0, 1, true);
  assert.equal(pins[1].input, true); // the row is high
  pins[0].drive(false); // the scan drives the row low
  assert.equal(pins[1].input, false);
  pins[0].drive(true);
  assert.equal(pins[1].input, true);
  buttons.set(0, 1, false);
  pins[0].drive(false);
  assert.equal(pins[1].input, true);
});

test('a button to ground reads low while held; an input is set only when it changes', () => {
  const { pins, buttons } = board();
  const before = pins[2].sets;
  buttons.set(2, -1, true);
  assert.equal(pins[2].input, false);
  pins[0].drive(false); // other pins moving: no new edge on this one
  assert.equal(pins[2].sets, before + 1);
  buttons.releaseAll();
  assert.equal(pins[2].input, true);
  assert.throws(() => buttons.set(9, -1, true), /no GPIO 9/);
});
