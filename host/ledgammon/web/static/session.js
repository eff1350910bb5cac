// What the page knows of the board it shows, and what it does about keys and clicks: the
// frame, the state, the message line, the keys typed so far; host/ledgammon/terminal.py's
// LiveView for the browser, the same for both modes. Frames come pushed by the worker (the
// board in the page) or polled with `leds` every LEDS_MS (a board on USB); the state after
// every event and every STATE_MS. A board that stops answering is said, and asked again.
import { NoAnswer } from "./client.js";
import * as words from "./words.js";

export const LEDS_MS = 100, STATE_MS = 1000, MESSAGE_MS = 4000, RETRY_MS = 1000;
const POINT_BUTTONS = new Set(["BAR", "OFF", "SELECT"].concat(
  Array.from({ length: 24 }, (_, i) => "p" + (i + 1))));
const KEY_BUTTONS = { r: "ROLL", u: "UNDO", m: "MENU", b: "BAR", o: "OFF",
  ArrowLeft: "LEFT", ArrowRight: "RIGHT", " ": "SELECT" };
const KEY_REQUESTS = { d: "double", t: "take", x: "drop", a: "accept", j: "reject" };

function b64bytes(text) {
  const raw = atob(text || "");
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

export class Session {
  // view: {layoutFor(board) -> layout, show(session)}; pushed: frames come by themselves
  constructor(client, view, { interactive = true, pushed = false } = {}) {
    this.client = client;
    this.view = view;
    this.interactive = interactive;
    this.pushed = pushed;
    this.frame = new Uint8Array(0);
    this.state = null;
    this.info = null;
    this.layout = "full";
    this.typed = "";
    this.sel = null;
    this.message = "";
    this.messageUntil = 0;
    this.confirmNew = 0;
    this.resigning = false;
    this.silent = false; // the board stopped answering
    this.nextLeds = 0;
    this.nextState = 0;
    this.stopped = false;
    this.pressAt = null; // when the last click or key was taken (for the click-to-frame time)
    this.framed = false; // a frame came since the last drawing
    this.latencies = [];
    this.timer = null;
    client.onEvent = (ev) => this.take([ev]);
  }

  say(text) { this.message = text; this.messageUntil = performance.now() + MESSAGE_MS; }

  async start() { // hello, the frame (unless pushed already) and the state, asked at once
    const leds = this.pushed && this.frame.length ? null : this.ask("leds");
    const [info, st] = await Promise.all([this.ask("hello"), this.ask("state")]);
    const frame = await leds;
    this.info = info;
    this.layout = (info && info.layout) || "full";
    if (frame && frame.ok) this.frame = b64bytes(frame.frame);
    if (st && st.ok !== false) this.state = st;
    this.view.show(this);
    this.timer = setInterval(() => this.poll(), 20);
  }

  stop() { this.stopped = true; clearInterval(this.timer); this.client.close(); }

  selected() {
    const st = this.state || {};
    if ("selected" in st) return st.selected !== null && st.selected !== -1;
    return this.sel !== null;
  }

  async ask(cmd, args = {}) {
    try {
      const reply = await this.client.request(cmd, args);
      if (this.silent) { this.silent = false; this.say("the board answers again"); }
      return reply;
    } catch (e) {
      if (e instanceof NoAnswer) {
        this.silent = true;
        this.say("the board is not answering (" + e.message + "): trying again");
      } else {
        this.say("board: " + e.message);
      }
      this.nextLeds = this.nextState = performance.now() + RETRY_MS;
      this.view.show(this);
      return null;
    }
  }

  setFrame(frame) {
    this.frame = frame;
    this.framed = true;
    this.view.show(this);
  }

  drawn() { // the view drew what it was shown: a press's first frame, if it came since
    if (this.pressAt !== null && this.framed) {
      this.latencies.push(performance.now() - this.pressAt);
      this.pressAt = null;
    }
    this.framed = false;
  }

  busy() { return this.client.waiting.size > 0; }

  async poll() {
    if (this.stopped || this.busy()) return;
    const now = performance.now();
    if (!this.pushed && now >= this.nextLeds) {
      this.nextLeds = now + LEDS_MS;
      const leds = await this.ask("leds");
      if (leds && leds.ok) this.setFrame(b64bytes(leds.frame));
    }
    if (!this.busy() && performance.now() >= this.nextState) {
      this.nextState = performance.now() + STATE_MS;
      const st = await this.ask("state");
      if (st && st.ok !== false) { this.state = st; this.view.show(this); }
    }
    if (this.message && performance.now() >= this.messageUntil) { this.message = ""; this.view.show(this); }
  }

  take(events) { // terminal.py's LiveView.take: the selection through the events
    let pending = null;
    for (const ev of events.concat([{ event: "end" }])) {
      const kind = ev.event;
      if (pending !== null && kind !== "step" && kind !== "error") this.sel = this.sel === pending ? null : pending;
      if (["step", "undo", "turn", "roll", "new", "over", "nomove", "menu"].includes(kind)) this.sel = null;
      const button = kind === "press" ? ev.button : null;
      pending = POINT_BUTTONS.has(button) ? button : null;
      if (button === "UNDO") this.sel = null;
      const text = words.describe(ev);
      if (text) this.say(text);
    }
    this.nextState = 0; // the state may have changed: ask at the next poll
  }

  async press(button) {
    if (!this.interactive) return;
    this.pressAt = performance.now();
    this.framed = false;
    const reply = await this.ask("press", { button });
    if (reply && reply.ok === false) this.say(button + ": " + ((reply.error || {}).message || "refused"));
    this.nextState = this.nextLeds = 0;
  }

  async act(cmd, args = {}) {
    if (!this.interactive) return;
    const reply = await this.ask(cmd, args);
    if (reply && reply.ok === false) this.say(cmd + ": " + ((reply.error || {}).message || "refused"));
    this.nextState = this.nextLeds = 0;
  }

  async hint() {
    if (!this.interactive) return;
    const reply = await this.ask("hint");
    if (!reply) return;
    if (reply.cube && typeof reply.cube === "object") this.say("hint: " + words.adviceWords(reply.cube));
    else if (reply.ok) this.say("hint: " + reply.play);
    else this.say("no hint now: " + ((reply.error || {}).message || ""));
    this.nextState = this.nextLeds = 0;
  }

  async newGame() {
    const now = performance.now();
    if ((this.state || {}).phase === "over" || now < this.confirmNew) {
      this.confirmNew = 0;
      await this.act("new");
    } else {
      this.confirmNew = now + MESSAGE_MS;
      this.say("abandon this game? press n again for a new game");
      this.view.show(this);
    }
  }

  key(key) { // a KeyboardEvent's key; true when it was the board's
    if (!this.interactive) return false;
    const turn = Number((this.state || {}).turn || 0);
    if (this.resigning) {
      this.resigning = false;
      if (["1", "2", "3"].includes(key)) this.act("resign", { value: Number(key) });
      else this.say("no resignation");
    } else if (/^[0-9]$/.test(key)) {
      this.typed = (this.typed + key).slice(-2);
    } else if (key === "Backspace") {
      this.typed = this.typed.slice(0, -1);
    } else if (key === "Escape") {
      this.typed = "";
    } else if (key === "Enter" && this.typed) {
      const n = Number(this.typed);
      this.typed = "";
      if (n >= 1 && n <= 24) this.press("p" + (turn === 0 ? n : 25 - n));
      else if (n === 0 || n === 25) this.press(n === 0 ? "OFF" : "BAR");
      else this.say("no point " + n + ": type 1-24 (25 the bar, 0 off)");
    } else if (key === "Enter") {
      this.press("SELECT");
    } else if (key === "n") {
      this.newGame();
    } else if (key === "h") {
      this.hint();
    } else if (key in KEY_REQUESTS) {
      this.act(KEY_REQUESTS[key]);
    } else if (key === "s") {
      this.resigning = true;
      this.say("resign: 1 " + words.RESIGN_AS[1] + ", 2 " + words.RESIGN_AS[2] + ", 3 " +
        words.RESIGN_AS[3] + " (any other key: no)");
    } else if (key in KEY_BUTTONS) {
      this.press(KEY_BUTTONS[key]);
    } else {
      return false;
    }
    this.view.show(this);
    return true;
  }

  messageLine() {
    if (this.typed) return "point " + this.typed + "_  (Enter presses it, Esc cancels)";
    return performance.now() < this.messageUntil ? this.message : "";
  }
}
