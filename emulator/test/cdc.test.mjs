import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CdcLink } from '../lib/cdc.mjs';
import { fakeUsb } from './fakes.mjs';

test('an OUT transfer waits for the host, then takes at most its size', () => {
  let ns = 100;
  const link = new CdcLink(() => ns);
  const { usb, cdc } = fakeUsb();
  link.attach(usb, cdc);
  usb.onEndpointRead(2, 4); // armed with nothing to send: no zero-length packet
  assert.deepEqual(usb.done, []);
  ns = 200;
  link.fromHost(Buffer.from('{"id":12}\n'));
  assert.deepEqual(usb.done, [[2, '{"id']]);
  usb.onEndpointRead(1, 64); // another endpoint: not the serial port's
  usb.onEndpointRead(2, 64);
  assert.deepEqual(usb.done[1], [2, '":12}\n']);
  const line = link.linesSince(0)[0];
  assert.deepEqual([line.dir, line.ns, line.id, line.line], ['in', 200, 12, '{"id":12}']);
});

test("the chip's lines are stamped, their id found wherever it is and in any piece", () => {
  let ns = 0;
  const out = [];
  const link = new CdcLink(() => ns, (b) => out.push(Buffer.from(b).toString()));
  const { usb, cdc } = fakeUsb();
  link.attach(usb, cdc);
  const long = '{"plays":["' + 'x'.repeat(300) + '"],"ok":true,"id":';
  cdc.onSerialData(Buffer.from(long + '3'));
  ns = 5;
  cdc.onSerialData(Buffer.from('4}\n{"event":"boot"}\r\n'));
  const lines = link.linesSince(0);
  assert.equal(lines.length, 2);
  assert.equal(lines[0].id, 34); // cut between two pieces: not taken as 3
  assert.equal(lines[0].ns, 5);
  assert.ok(lines[0].line.length <= 120);
  assert.equal(lines[1].line, '{"event":"boot"}');
  assert.equal(lines[1].id, undefined);
  assert.deepEqual(link.linesSince(lines[0].seq), [lines[1]]);
  assert.equal(out.join(''), long + '34}\n{"event":"boot"}\r\n');
});

test("a reset voids the chip's armed transfer; the host's bytes wait for the next chip", () => {
  const link = new CdcLink(() => 0);
  const first = fakeUsb();
  link.attach(first.usb, first.cdc);
  let connected = 0;
  link.onConnected = () => connected++;
  first.cdc.onDeviceConnected();
  assert.equal(link.connected, true);
  first.usb.onEndpointRead(2, 64);
  link.detach();
  assert.equal(link.connected, false);
  link.fromHost(Buffer.from('ab'));
  assert.deepEqual(first.usb.done, []);
  const second = fakeUsb();
  link.attach(second.usb, second.cdc);
  second.cdc.onDeviceConnected();
  assert.equal(connected, 2); // each chip's enumeration is told
  second.usb.onEndpointRead(2, 64);
  assert.deepEqual(second.usb.done, [[2, 'ab']]);
});

test("the bytes the chip had not taken when it reset are lost, as on a real USB reset", () => {
  const link = new CdcLink(() => 0);
  const first = fakeUsb();
  link.attach(first.usb, first.cdc);
  first.cdc.onDeviceConnected();
  link.fromHost(Buffer.from('\r\x02')); // nothing armed: they wait in the queue...
  assert.deepEqual(first.usb.done, []);
  link.detach(); // ... and go with the chip
  link.fromHost(Buffer.from('{"cmd":"hello"}\n'));
  const second = fakeUsb();
  link.attach(second.usb, second.cdc);
  second.cdc.onDeviceConnected();
  second.usb.onEndpointRead(2, 64);
  assert.deepEqual(second.usb.done, [[2, '{"cmd":"hello"}\n']]);
});
