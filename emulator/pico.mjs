#!/usr/bin/env node
// The emulated Pico: the board's real MicroPython image on rp2040js (lib/chip.mjs), its USB
// serial port on 127.0.0.1 (socket://127.0.0.1:PORT for every ledgammon command, mpremote and
// ledgammon deploy) and a control channel (lib/control.mjs). `ledgammon sim --image` runs it.
//
//   node pico.mjs --image FIRMWARE.uf2 --bootrom BOOTROM.bin --flash FLASH.bin
//                 [--elf FIRMWARE.elf] [--port N] [--control-port N] [--strip PIO:SM]
//                 [--flash-timing typical|none]   (the flash chip's erase/program times)
//
// Once the chip's USB port is up it prints one JSON line on stdout: {"port": N, "control":
// M, ...}; then a line for each boot event of the firmware, a reset, a fault. Errors are one
// line on stderr and exit code 2.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { readBootrom } from './lib/bootrom.mjs';
import { CdcLink } from './lib/cdc.mjs';
import { bootWatcher, controller } from './lib/control.mjs';
import { FlashFile } from './lib/flashfile.mjs';
import { heapOfElf } from './lib/heap.mjs';
import { serveControl, serveSerial } from './lib/server.mjs';
import { StripCapture } from './lib/strip.mjs';
import { parseUF2 } from './lib/uf2.mjs';

const FLASH_BYTES = 2 * 1024 * 1024; // the Pico's W25Q16
const USB_TIMEOUT_S = 120; // wall seconds for the chip to bring its USB port up

function fail(message) {
  process.stderr.write(`pico: ${message}\n`);
  process.exit(2);
}

function say(object) {
  process.stdout.write(JSON.stringify(object) + '\n');
}

async function main() {
  let args;
  try {
    ({ values: args } = parseArgs({
      options: {
        image: { type: 'string' },
        bootrom: { type: 'string' },
        flash: { type: 'string' },
        elf: { type: 'string' },
        port: { type: 'string', default: '0' },
        'control-port': { type: 'string', default: '0' },
        strip: { type: 'string', default: '0:0' },
        'flash-timing': { type: 'string', default: 'typical' },
      },
    }));
  } catch (err) {
    fail(err.message);
  }
  for (const name of ['image', 'bootrom', 'flash']) {
    if (!args[name]) fail(`--${name} is needed`);
  }
  let uf2;
  try {
    uf2 = parseUF2(new Uint8Array(fs.readFileSync(args.image)));
  } catch (err) {
    fail(`${args.image}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
  }
  let bootrom;
  let heap = null;
  try {
    bootrom = readBootrom(args.bootrom);
    if (args.elf) heap = heapOfElf(args.elf);
  } catch (err) {
    fail(err.message);
  }
  const strip = args.strip.split(':').map(Number);
  if (strip.length !== 2 || !(strip[0] === 0 || strip[0] === 1) || !(strip[1] >= 0 && strip[1] < 4)) {
    fail('--strip is PIO:SM, e.g. 0:0');
  }
  if (!['typical', 'none'].includes(args['flash-timing'])) {
    fail('--flash-timing is typical or none');
  }
  const { Chip } = await import('./lib/chip.mjs').catch((err) =>
    fail(`the npm package rp2040js is not installed here (make emulator): ${err.message}`),
  );
  const boots = [];
  let chip;
  const link = new CdcLink(() => chip.nanos());
  try {
    chip = new Chip({
      bootrom,
      uf2,
      flashFile: new FlashFile(args.flash, FLASH_BYTES),
      link,
      strip: new StripCapture(),
      heap,
      stripMachine: strip,
      flashTiming: args['flash-timing'] === 'typical',
    });
  } catch (err) {
    fail(err.message);
  }
  const watchBoots = bootWatcher(chip, boots);
  link.onLine = (entry) => {
    const before = boots.length;
    watchBoots(entry);
    if (boots.length > before) say({ event: 'boot', ...boots[boots.length - 1] });
  };
  chip.onReset = (why) => say({ event: 'reset', why, sim_ns: chip.nanos() });
  chip.onFault = (text) => {
    say({ event: 'fault', message: text });
    fail(text);
  };
  let serial;
  let control;
  try {
    serial = await serveSerial(link, Number(args.port));
    control = await serveControl(controller(chip, boots), Number(args['control-port']));
  } catch (err) {
    fail(`cannot listen on 127.0.0.1: ${err.message}`);
  }
  const ready = setTimeout(
    () => fail(`the chip's USB port did not come up within ${USB_TIMEOUT_S} s (not a MicroPython image for the Pico?)`),
    USB_TIMEOUT_S * 1000,
  );
  let announced = false;
  link.onConnected = () => {
    if (announced) return;
    announced = true;
    clearTimeout(ready);
    say({
      port: serial.address().port,
      control: control.address().port,
      image_end: chip.imageEnd,
      sim_ns: chip.nanos(),
      heap: heap ? heap.layout.blocks * 16 : null,
    });
  };
  const quit = () => {
    chip.stop();
    process.exit(0);
  };
  process.on('SIGTERM', quit);
  process.on('SIGINT', quit);
  process.stdin.on('end', quit); // the parent is gone
  process.stdin.resume();
  chip.start();
}

main();
