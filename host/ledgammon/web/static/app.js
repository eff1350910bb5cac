// The page: the board in the page (the firmware in a Web Worker, its flash folder kept in
// localStorage) or a board on USB over Web Serial (play, or watch read-only); the canvas,
// the words around it, the buttons, the keys. URL parameters: seed=N (reproducible dice),
// pace=MS (the board's own player's time per step), budget=N|board (the strong level's
// evaluations a move; see `ledgammon web --help`), fresh=1 (forget the saved game first).
import { Client, SerialTransport, WorkerTransport } from "./client.js";
import { BoardCanvas, cubePlaces, gain, toScreen } from "./draw.js";
import { Session } from "./session.js";
import * as words from "./words.js";

const params = new URLSearchParams(location.search);
const STORE = "ledgammon.flash."; // localStorage key of each file of the page board's flash
const $ = (id) => document.getElementById(id);
const intParam = (name) => (/^\d+$/.test(params.get(name) || "") ? Number(params.get(name)) : null);

export const page = { session: null, transport: null, mode: null, layouts: null, canvas: null,
  drawn: 0, t0: performance.now(), readyMs: null, error: null, cubePlaces };
window.ledgammon = page; // for tests and measurements

function saved() {
  const out = {};
  for (let i = 0; i < localStorage.length; i++) {
    const k = localStorage.key(i);
    if (k.startsWith(STORE)) out[k.slice(STORE.length)] = localStorage.getItem(k);
  }
  return out;
}

function forget() {
  for (const k of Object.keys(saved())) localStorage.removeItem(STORE + k);
}

const view = {
  // at most one drawing a display frame: frames that come faster than the page draws them
  // (the dice's roll, a loaded machine) are drawn as the latest of them
  show(s) {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.draw(s);
      s.drawn();
    });
  },

  draw(s) {
    if (!page.layouts) return;
    const board = (s.info && s.info.board) || "pico";
    const layout = page.layouts[board] || page.layouts.pico;
    if (!page.canvas || page.canvas.layout !== layout) page.canvas = new BoardCanvas($("board"), layout, words);
    const leds = page.canvas.draw(s.frame, s.state);
    page.drawn += 1;
    const colours = words.playerColours(leds, s.state);
    $("status").textContent = words.statusLine(s.state, colours, s.selected(), s.layout);
    $("message").textContent = s.messageLine();
    $("help").textContent = words.helpLine(s.interactive, s.layout, s.state);
    const k = gain(s.frame, page.canvas.layout.brightness_levels);
    panel(s, colours, colours.map((c) => toScreen(c, k))); // the swatches as the LEDs look
    document.body.classList.toggle("silent", s.silent);
    document.body.classList.toggle("watching", !s.interactive);
    if (page.readyMs === null && s.state && s.frame.length) {
      page.readyMs = performance.now(); // since the navigation began
      document.body.dataset.ready = "1";
    }
  },
};

function panel(s, colours, shown) {
  const st = s.state || {};
  const turn = Number(st.turn || 0);
  const pips = st.pips || [0, 0];
  const off = (st.board || {}).off || [0, 0];
  const rows = [];
  for (const p of [1, 0]) {
    const onRoll = p === turn && ["roll", "move", "done"].includes(st.phase);
    const c = shown[p];
    rows.push('<div class="player' + (onRoll ? " on-roll" : "") + '"><span class="swatch" style="background:rgb(' +
      c.join(",") + ')"></span>Player ' + p + (onRoll ? " ◀" : "") + "<br><small>pips " + pips[p] +
      " off " + off[p] + "</small></div>");
  }
  if (st.dice && ["move", "done"].includes(st.phase)) rows.push("<div>dice " + st.dice[0] + "-" + st.dice[1] + "</div>");
  if (st.steps && st.steps.length) rows.push("<div>" + st.steps.join(" ") + "</div>");
  const ml = Number(st.match_length || 0), score = st.score || [0, 0];
  rows.push("<div>game " + (st.game || 1) + (ml ? " · " + ml + " pt " + score[0] + "-" + score[1] : " · money") + "</div>");
  if (st.match_over) rows.push("<div><b>match over</b></div>");
  else if (st.crawford) rows.push("<div>" + (st.phase === "over" ? "next: Crawford" : "Crawford game") + "</div>");
  const cube = words.cubeWords(st), sc = words.scoreWords(st);
  if (cube) rows.push('<div class="cube">' + cube + "</div>");
  if (sc) rows.push("<div>" + sc + "</div>");
  const offer = st.offer;
  if (offer && (offer.by === 0 || offer.by === 1)) {
    const v = Number(offer.value || 0);
    rows.push('<div class="offer">P' + offer.by + (offer.kind === "double" ? " doubles to " + v
      : " resigns " + (words.RESIGN_AS[v] || "?")) + "<br>P" + (1 - offer.by) + " to answer</div>");
  }
  rows.push("<div><small>numbers: player " + turn + "'s points</small></div>");
  $("panel").innerHTML = rows.join("");
}

function attach(session, transport, mode) {
  if (page.session) page.session.stop();
  if (page.transport && page.transport.worker && transport !== page.transport) page.transport.worker.terminate();
  page.session = session;
  page.transport = transport;
  page.mode = mode;
  document.body.dataset.mode = mode;
  $("mode").textContent = { page: "the board in this page", serial: "a board on USB",
    watch: "watching a board on USB (read only)" }[mode];
}

async function startPage() {
  if (params.get("fresh") === "1") forget();
  const budget = params.get("budget");
  const transport = new WorkerTransport("worker.js", {
    saved: saved(), seed: intParam("seed"), pace: intParam("pace"),
    bundle: "bundle.json" + (budget ? "?budget=" + encodeURIComponent(budget) : ""),
  });
  transport.onSave = (name, text) => {
    try { localStorage.setItem(STORE + name, text); } catch (e) { page.error = "storage: " + e.message; }
  };
  const client = new Client(transport, { timeoutMs: 5000 });
  const session = new Session(client, view, { pushed: true });
  transport.onFrame = (frame) => session.setFrame(frame);
  attach(session, transport, "page");
  const ready = await transport.ready;
  page.layouts = ready.layouts;
  page.budget = ready.budget;
  page.bootMs = ready.ms;
  await session.start();
}

async function startSerial(watch) {
  if (!("serial" in navigator)) {
    $("message").textContent = "this browser has no Web Serial (use Chromium, Chrome or Edge)";
    return;
  }
  let port;
  try {
    port = await navigator.serial.requestPort();
  } catch (e) {
    $("message").textContent = "no port chosen";
    return;
  }
  if (!page.layouts) page.layouts = await (await fetch("bundle.json")).json().then((b) => b.layouts);
  const transport = new SerialTransport(port);
  await transport.open();
  const client = new Client(transport, { timeoutMs: 2000 });
  const session = new Session(client, view, { interactive: !watch, pushed: false });
  transport.onClosed = () => session.say("the board's port closed");
  attach(session, transport, watch ? "watch" : "serial");
  client.transport.send("\n"); // ends anything half written before us
  await session.start();
}

function wire() {
  $("board").addEventListener("click", (ev) => {
    const s = page.session;
    if (!s || !page.canvas) return;
    const rect = ev.target.getBoundingClientRect();
    const x = ((ev.clientX - rect.left) * ev.target.width) / rect.width;
    const y = ((ev.clientY - rect.top) * ev.target.height) / rect.height;
    const button = page.canvas.buttonAt(x, y);
    if (button) s.press(button);
  });
  for (const el of document.querySelectorAll("[data-press]")) {
    el.addEventListener("click", () => page.session && page.session.press(el.dataset.press));
  }
  for (const el of document.querySelectorAll("[data-act]")) {
    el.addEventListener("click", () => {
      const s = page.session;
      if (!s) return;
      const [cmd, value] = el.dataset.act.split(":");
      if (cmd === "hint") s.hint();
      else if (cmd === "new") s.newGame();
      else s.act(cmd, value ? { value: Number(value) } : {});
    });
  }
  document.addEventListener("keydown", (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || !page.session) return;
    if (ev.target.tagName === "BUTTON" && (ev.key === " " || ev.key === "Enter")) return;
    if (page.session.key(ev.key)) ev.preventDefault();
  });
  $("use-page").addEventListener("click", () => location.reload());
  $("use-serial").addEventListener("click", () => startSerial(false).catch(fail));
  $("use-watch").addEventListener("click", () => startSerial(true).catch(fail));
  $("forget").addEventListener("click", () => { forget(); location.search = ""; });
}

function fail(e) {
  page.error = String(e && e.message ? e.message : e);
  $("message").textContent = "the board could not start: " + page.error;
}

wire();
startPage().catch(fail);
