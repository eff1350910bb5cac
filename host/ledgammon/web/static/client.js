// The page's one protocol client (docs/protocol.md), for both modes: the firmware in the
// page's worker and a board on USB over Web Serial. A transport gives text as it comes
// (transport.onText) and takes text (transport.send); the client cuts lines, matches
// replies to requests by id, hands events on, and skips lines that are not JSON objects (a
// REPL banner, garbage on the line), as host/ledgammon/client.py does.

export class NoAnswer extends Error {}

export class Client {
  constructor(transport, { timeoutMs = 2000 } = {}) {
    this.transport = transport;
    this.timeoutMs = timeoutMs;
    this.nextId = 1;
    this.waiting = new Map(); // id -> {resolve, reject, timer}
    this.buf = "";
    this.onEvent = () => {};
    this.skipped = 0; // lines that were not JSON objects
    transport.onText = (text) => this.take(text);
  }

  take(text) {
    this.buf += text;
    let i;
    while ((i = this.buf.indexOf("\n")) >= 0) {
      const line = this.buf.slice(0, i).replace(/\r$/, "");
      this.buf = this.buf.slice(i + 1);
      if (line.trim()) this.line(line);
    }
    if (this.buf.length > 65536) { this.buf = ""; this.skipped += 1; } // no newline: noise
  }

  line(line) {
    let msg;
    try {
      msg = JSON.parse(line);
    } catch (e) {
      this.skipped += 1;
      return;
    }
    if (msg === null || typeof msg !== "object" || Array.isArray(msg)) {
      this.skipped += 1;
      return;
    }
    if ("event" in msg) {
      this.onEvent(msg);
      return;
    }
    const w = this.waiting.get(msg.id);
    if (w) {
      this.waiting.delete(msg.id);
      clearTimeout(w.timer);
      w.resolve(msg);
    }
  }

  // A reply (ok or not) to {cmd, ...args}; rejects with NoAnswer after timeoutMs.
  request(cmd, args = {}) {
    const id = this.nextId;
    this.nextId = (this.nextId % 1000000000) + 1;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new NoAnswer("no answer to " + cmd + " in " + this.timeoutMs + " ms"));
      }, this.timeoutMs);
      this.waiting.set(id, { resolve, reject, timer });
      try {
        this.transport.send(JSON.stringify(Object.assign({ cmd, id }, args)) + "\n");
      } catch (e) {
        clearTimeout(timer);
        this.waiting.delete(id);
        reject(e);
      }
    });
  }

  close() {
    for (const w of this.waiting.values()) { clearTimeout(w.timer); w.reject(new NoAnswer("closed")); }
    this.waiting.clear();
  }
}

// The firmware in a Web Worker (worker.js). `saved` is the flash folder from storage.
export class WorkerTransport {
  constructor(url, { saved = {}, seed = null, pace = null, bundle = "bundle.json" } = {}) {
    this.onText = () => {};
    this.onFrame = () => {};
    this.onSave = () => {};
    this.ready = new Promise((resolve, reject) => {
      this.worker = new Worker(url, { type: "module" });
      this.worker.onmessage = (ev) => {
        const m = ev.data;
        if (m.type === "out") this.onText(m.text);
        else if (m.type === "frame") {
          this.lastFrame = { after: m.at - m.lineAt };
          this.onFrame(m.frame);
        }
        else if (m.type === "save") this.onSave(m.name, m.text);
        else if (m.type === "ready") resolve(m);
        else if (m.type === "fatal") reject(new Error(m.message));
        else if (m.type === "eval" && this.evals.has(m.id)) {
          this.evals.get(m.id)(m);
          this.evals.delete(m.id);
        }
      };
      this.worker.onerror = (e) => reject(new Error(e.message || "the worker failed"));
      this.worker.postMessage({ type: "start", files: saved, seed, pace, bundle });
    });
    this.evals = new Map();
    this.evalId = 0;
  }

  send(text) { this.worker.postMessage({ type: "line", text }); }

  // Python in the firmware's interpreter (measurements, tests): the value of `result`.
  eval(code) {
    const id = ++this.evalId;
    return new Promise((resolve) => {
      this.evals.set(id, resolve);
      this.worker.postMessage({ type: "eval", id, code });
    });
  }
}

// A board on USB (Web Serial: Chromium browsers). `port` is a SerialPort (navigator.serial).
export class SerialTransport {
  constructor(port) {
    this.port = port;
    this.onText = () => {};
    this.onClosed = () => {};
    this.writer = null;
  }

  async open() {
    await this.port.open({ baudRate: 115200 });
    this.writer = this.port.writable.getWriter();
    this.reading = this.readLoop();
  }

  async readLoop() {
    const decoder = new TextDecoder(); // a bad byte becomes U+FFFD: its line is skipped
    try {
      while (this.port.readable) {
        const reader = this.port.readable.getReader();
        this.reader = reader;
        try {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            this.onText(decoder.decode(value, { stream: true }));
          }
        } finally {
          reader.releaseLock();
        }
      }
    } catch (e) {
      // the port went away (unplugged): said by the session, which keeps trying
    }
    this.onClosed();
  }

  send(text) {
    if (!this.writer) throw new Error("the port is not open");
    this.writer.write(new TextEncoder().encode(text)).catch(() => {});
  }

  async close() {
    try { if (this.reader) await this.reader.cancel(); } catch (e) { /* gone */ }
    try { if (this.writer) { this.writer.releaseLock(); } } catch (e) { /* gone */ }
    try { await this.port.close(); } catch (e) { /* gone */ }
  }
}
