// The USB serial port between the emulated chip and a host.
//
// rp2040js's USBCDC answers every OUT transfer the device arms at once, with a zero-length
// packet when the host has nothing to send: the firmware then re-arms it every few
// microseconds and never sleeps. Here the transfer stays pending until the host has data,
// as a real host controller does. Every line is stamped with the simulated time it crossed
// (a request's newline reaching the chip, a reply's newline leaving it), so a host measures
// round trips in the chip's own time, whatever the emulator's speed.

const KEEP_LINES = 512;
const HEAD = 120; // bytes of a line kept with its stamp
// a line's top-level id, wherever it is (a reply's fields come in any order); the number
// must be followed by its end, so one cut between two chunks is not taken short
const ID = /"id":\s*(?:(-?\d+)[,}\s]|"([^"]{0,32})")/;

export class LineStamps {
  constructor(direction, now, onLine) {
    this.direction = direction;
    this.now = now;
    this.onLine = onLine;
    this.partial = [];
    this.partialLength = 0;
    this.tail = ''; // the end of the line so far, where an id may be cut in two
    this.id = null;
  }

  /** Takes the bytes that crossed; stamps each newline among them. */
  feed(bytes) {
    let start = 0;
    for (let i = 0; i < bytes.length; i++) {
      if (bytes[i] !== 0x0a) continue;
      this.keep(bytes.subarray(start, i), true);
      const line = Buffer.concat(this.partial).toString('latin1');
      const entry = { dir: this.direction, ns: this.now(), line: line.replace(/\r$/, '') };
      if (this.id !== null) entry.id = this.id;
      this.partial = [];
      this.partialLength = 0;
      this.tail = '';
      this.id = null;
      this.onLine(entry);
      start = i + 1;
    }
    this.keep(bytes.subarray(start), false);
  }

  keep(bytes, ended) {
    if (this.id === null) {
      const text = this.tail + Buffer.from(bytes).toString('latin1') + (ended ? '\n' : '');
      const m = ID.exec(text);
      if (m) this.id = m[1] !== undefined ? Number(m[1]) : m[2];
      this.tail = text.slice(-48);
    }
    if (this.partialLength < HEAD && bytes.length) {
      const piece = Buffer.from(bytes.subarray(0, HEAD - this.partialLength));
      this.partial.push(piece);
      this.partialLength += piece.length;
    }
  }
}

export class CdcLink {
  /** `now()`: the simulated time in ns. `toHost(bytes)`: the chip's output. */
  constructor(now, toHost = () => {}) {
    this.now = now;
    this.toHost = toHost;
    this.queue = []; // host bytes not yet taken by the chip (Buffers)
    this.queued = 0;
    this.usb = null;
    this.cdc = null;
    this.pending = 0; // the size of the OUT transfer the chip has armed, 0: none
    this.connected = false;
    this.lines = []; // recent stamped lines, both directions
    this.onLine = null; // called with each stamped line
    this.onConnected = null;
    this.seq = 0; // lines stamped so far
    const keep = (entry) => {
      entry.seq = ++this.seq;
      this.lines.push(entry);
      if (this.lines.length > KEEP_LINES) this.lines.splice(0, this.lines.length - KEEP_LINES);
      this.onLine?.(entry);
    };
    this.inbound = new LineStamps('in', now, keep);
    this.outbound = new LineStamps('out', now, keep);
  }

  /** Serves `usb` (rp2040js's RPUSBController) through `cdc` (its USBCDC, which enumerates
   * the device); a chip reset attaches the new chip's pair. */
  attach(usb, cdc) {
    this.usb = usb;
    this.cdc = cdc;
    this.pending = 0;
    this.connected = false;
    cdc.onDeviceConnected = () => {
      this.connected = true;
      this.onConnected?.();
    };
    cdc.onSerialData = (bytes) => {
      this.outbound.feed(bytes);
      this.toHost(bytes);
    };
    usb.onEndpointRead = (endpoint, size) => {
      if (endpoint !== cdc.outEndpoint) return;
      this.pending = size;
      this.serve();
    };
  }

  /** Bytes from the host, for the chip. */
  fromHost(bytes) {
    if (!bytes.length) return;
    this.queue.push(Buffer.from(bytes));
    this.queued += bytes.length;
    this.serve();
  }

  /** Completes the armed OUT transfer with what the host has sent, if anything. */
  serve() {
    if (!this.pending || !this.queued || !this.usb) return;
    const size = Math.min(this.pending, this.queued);
    const chunk = new Uint8Array(size);
    let filled = 0;
    while (filled < size) {
      const head = this.queue[0];
      const take = Math.min(head.length, size - filled);
      chunk.set(head.subarray(0, take), filled);
      filled += take;
      if (take === head.length) this.queue.shift();
      else this.queue[0] = head.subarray(take);
    }
    this.queued -= size;
    this.pending = 0;
    this.inbound.feed(chunk);
    this.usb.endpointReadDone(this.cdc.outEndpoint, chunk);
  }

  /** The chip is gone (a reset): what it had armed is void, and so are the host's bytes it
   * had not taken, as a real USB reset drops them (mpremote's last bytes after its `reset`,
   * a Ctrl-B, reached the next chip's firmware at the head of the host's first request:
   * bad_json); what the host sends from now on waits for the next chip. */
  detach() {
    this.queue = [];
    this.queued = 0;
    this.usb = null;
    this.cdc = null;
    this.pending = 0;
    this.connected = false;
  }

  /** The stamped lines kept whose number is above `since` (lines are numbered from 1). */
  linesSince(since) {
    return this.lines.filter((l) => l.seq > since);
  }
}
