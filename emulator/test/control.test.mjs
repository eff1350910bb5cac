import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { CdcLink } from '../lib/cdc.mjs';
import { bootWatcher, controller } from '../lib/control.mjs';
import { serveControl, serveSerial } from '../lib/server.mjs';
import { StripCapture } from '../lib/strip.mjs';
import { fakeUsb } from './fakes.mjs';

function fakeChip() {
  return {
    calls: [],
    powerOnNs: 1000,
    resets: 0,
    strip: new StripCapture(),
    link: new CdcLink(() => 0),
    heapWatch: null,
    nanos: () => 4242,
    status: () => ({ sim_ns: 4242 }),
    button(a, b, down) {
      this.calls.push(['button', a, b, down]);
    },
    releaseAfter(a, b, ms) {
      this.calls.push(['release', a, b, ms]);
    },
    reset(why) {
      this.calls.push(['reset', why]);
    },
  };
}

test('presses reach the chip: held for a time, or down and up', () => {
  const chip = fakeChip();
  const handle = controller(chip, []);
  assert.deepEqual(handle({ op: 'press', a: 6, b: 9, ms: 80 }), { sim_ns: 4242 });
  handle({ op: 'press', a: 13, down: false });
  assert.deepEqual(chip.calls, [['button', 6, 9, true], ['release', 6, 9, 80], ['button', 13, -1, false]]);
  assert.throws(() => handle({ op: 'press', a: 'x' }), /GPIO numbers/);
  assert.throws(() => handle({ op: 'press', a: 1, ms: 0 }), /ms must be above 0/);
  assert.throws(() => handle({ op: 'heap' }), /no --elf/);
  assert.throws(() => handle({ op: 'fly' }), /unknown op/);
  handle({ op: 'reset' });
  assert.deepEqual(chip.calls.at(-1), ['reset', 'host']);
});

test("the firmware's boot events are timed from power-on", () => {
  const chip = fakeChip();
  const boots = [];
  const watch = bootWatcher(chip, boots);
  watch({ dir: 'out', ns: 3000, line: '{"protocol":1,"event": "boot"}' });
  watch({ dir: 'in', ns: 4000, line: '{"event":"boot"}' });
  assert.deepEqual(boots, [{ ns: 3000, since_power_on_ns: 2000, resets: 0 }]);
  assert.equal(controller(chip, boots)({ op: 'status' }).boots.length, 1);
});

function connect(server) {
  return new Promise((resolve) => {
    const socket = net.connect(server.address().port, '127.0.0.1', () => resolve(socket));
  });
}

function nextData(socket) {
  return new Promise((resolve) => socket.once('data', (d) => resolve(d.toString())));
}

test("the serial port bridges one TCP client to the chip's USB port", async () => {
  const link = new CdcLink(() => 0);
  const { usb, cdc } = fakeUsb();
  link.attach(usb, cdc);
  const server = await serveSerial(link);
  const client = await connect(server);
  usb.onEndpointRead(2, 64);
  client.write('{"cmd":"hello"}\n');
  await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(usb.done, [[2, '{"cmd":"hello"}\n']]);
  const got = nextData(client);
  cdc.onSerialData(Buffer.from('{"ok":true}\n'));
  assert.equal(await got, '{"ok":true}\n');
  const second = await connect(server);
  assert.match(await nextData(second), /busy/);
  client.destroy();
  second.destroy();
  server.close();
});

test('the control channel answers JSON lines, errors included', async () => {
  const server = await serveControl(controller(fakeChip(), []));
  const client = await connect(server);
  const got = nextData(client);
  client.write('{"op":"status"}\nnot json\n');
  let text = await got;
  while (text.split('\n').length < 3) text += await nextData(client);
  const [one, two] = text.trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual([one.ok, one.sim_ns], [true, 4242]);
  assert.equal(two.ok, false);
  client.destroy();
  server.close();
});
