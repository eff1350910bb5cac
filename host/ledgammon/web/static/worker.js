// The board in the page: the real firmware under MicroPython's WebAssembly port, in this
// Web Worker so the page never waits for it. The page sends {type: "start", files, seed,
// pace} (files: the flash folder's saves from the browser's storage) and then {type: "line",
// text} for each protocol line; this worker answers with {type: "ready", ms}, {type: "out",
// text} (the protocol's bytes, as the board writes them to its USB serial port), {type:
// "frame", frame} (each frame the strip is sent), {type: "save", name, text} (a save made
// whole) and {type: "fatal", message} when the firmware cannot start.
import { loadMicroPython } from "./vendor/micropython.mjs";

const ROOT = "/board";
const FLASH = "/flash";
let feed = null;
let mp = null;
let lineAt = 0; // when the last line came (the frames say it: the page's latency figures)
const early = []; // lines that came before the firmware was up

function mkdirs(FS, path) {
  let at = "";
  for (const part of path.split("/").filter(Boolean)) {
    at += "/" + part;
    try { FS.mkdir(at); } catch (e) { /* there already */ }
  }
}

function put(FS, rel, data) {
  const path = ROOT + "/" + rel;
  mkdirs(FS, path.slice(0, path.lastIndexOf("/")));
  FS.writeFile(path, data);
}

function lay(FS, bundle, saved) { // the board's files (sources, .mpy, weights), its flash
  for (const [rel, text] of Object.entries(bundle.files)) put(FS, rel, text);
  for (const [rel, b64] of Object.entries(bundle.binary)) {
    put(FS, rel, Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
  }
  mkdirs(FS, FLASH);
  for (const [name, text] of Object.entries(saved || {})) {
    if (/^[A-Za-z0-9_.-]+$/.test(name)) FS.writeFile(FLASH + "/" + name, text);
  }
}

async function start(msg) {
  const t0 = performance.now();
  const errors = [];
  let bundle;
  [mp, bundle] = await Promise.all([
    loadMicroPython({
      heapsize: 256 * 1024, // a Pico's; this port's heap grows by itself past it
      stdout: (line) => console.log("board:", line),
      stderr: (line) => { errors.push(line); console.warn("board:", line); },
    }),
    fetch(msg.bundle || "bundle.json").then((r) => {
      if (!r.ok) throw new Error("bundle.json: HTTP " + r.status);
      return r.json();
    }),
  ]);
  lay(mp.FS, bundle, msg.files);
  self.ledgammon_out = (text) => postMessage({ type: "out", text });
  self.ledgammon_frame = (buf) => {
    postMessage({ type: "frame", frame: mp.PyProxy.toJs(buf), lineAt, at: performance.now() });
  };
  self.ledgammon_save = (name, text) => postMessage({ type: "save", name, text });
  const seed = Number.isInteger(msg.seed) ? String(msg.seed) : "None";
  const pace = Number.isInteger(msg.pace) ? String(msg.pace) : "None";
  try {
    mp.runPython(
      "import sys\nsys.path.insert(0, '" + ROOT + "')\nimport web_main\n" +
      "web_main.start('" + FLASH + "/', " + seed + ", " + pace + ")\n");
  } catch (e) {
    postMessage({ type: "fatal", message: String(e.message || e) + "\n" + errors.join("\n") });
    return;
  }
  feed = mp.pyimport("web_main").feed;
  for (const text of early.splice(0)) feed(text);
  postMessage({ type: "ready", ms: performance.now() - t0, budget: bundle.budget,
                layouts: bundle.layouts });
}

self.onmessage = (ev) => {
  const msg = ev.data;
  if (msg.type === "start") {
    start(msg).catch((e) => postMessage({ type: "fatal", message: String(e.message || e) }));
  } else if (msg.type === "line") {
    lineAt = performance.now();
    if (feed) feed(msg.text); else early.push(msg.text);
  } else if (msg.type === "eval") { // tests and measurements: Python run in the firmware's
    let value = null, error = null;
    try {
      mp.runPython(msg.code); // sets `result`
      value = mp.PyProxy.toJs(mp.globals.get("result"));
    } catch (e) { error = String(e.message || e); }
    postMessage({ type: "eval", id: msg.id, value, error });
  }
};
