// The lit board on a 2D canvas, drawn as host/ledgammon/picture.py draws the PNG snapshot:
// every LED where hardware/board.json puts it (the layout comes from bundle.json, made by
// boardinfo.py), in the frame's colour brought back to full brightness through the eye's
// gamma (boardinfo.gain, to_screen), with a glow; dark LEDs as dim grey dots; the cube where
// it stands and an offer ringed in yellow. Also which button lies under a point of the canvas.

export const S = 1.6; // pixels per millimetre
export const MARGIN = 24;
const BACK = "rgb(22,22,26)", WOOD = "rgb(96,64,40)", FELT = "rgb(24,66,48)", TRAY = "rgb(18,50,37)";
const TRIANGLES = ["rgba(222,200,160,0.2745)", "rgba(150,50,36,0.353)"];
const DARK_LED = "rgb(46,46,46)", DARK_RIM = "rgb(84,84,84)", TEXT = "rgb(235,225,205)";
const CUBE = "rgb(238,232,214)", CUBE_INK = "rgb(30,30,30)", OFFER = "rgb(255,200,40)";

const px = (x, y) => [MARGIN + x * S, MARGIN + y * S];
const css = (c) => "rgb(" + c[0] + "," + c[1] + "," + c[2] + ")";

export function decode(layout, frame) { // {segment: [[r, g, b], ...]}, base first
  const o = layout.order;
  const ri = o.indexOf("R"), gi = o.indexOf("G"), bi = o.indexOf("B");
  const out = {};
  for (const [name, [start, count, step]] of Object.entries(layout.segments)) {
    const leds = [];
    for (let i = 0; i < count; i++) {
      const k = 3 * (step > 0 ? start + i : start + count - 1 - i);
      leds.push(k + 3 <= frame.length ? [frame[k + ri], frame[k + gi], frame[k + bi]] : [0, 0, 0]);
    }
    out[name] = leds;
  }
  return out;
}

export function gain(frame, levels) {
  let top = 0;
  for (let i = 0; i < frame.length; i++) if (frame[i] > top) top = frame[i];
  if (!top) return 1.0;
  return Math.min(255 / top, 255 / Math.max(1, Math.min(...levels)));
}

const pyRound = (x) => { // Python's round(): halves to even
  const f = Math.floor(x), d = x - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
};

export function toScreen(c, k = 1.0) {
  const top = Math.max(...c);
  if (!top) return [0, 0, 0];
  const level = Math.min(255, top * k);
  const f = (255 * Math.pow(level / 255, 1 / 2.2)) / top;
  return c.map((v) => Math.min(255, pyRound(v * f)));
}

export function size(layout) {
  const [bw, bh] = layout.geometry.board || [660, 620];
  return [Math.trunc(bw * S + 2 * MARGIN), Math.trunc(bh * S + 2 * MARGIN)];
}

function shapes(ctx, layout) {
  const g = layout.geometry;
  const [bw, bh] = g.board || [660, 620];
  const [top, bottom] = g.edges || [20, 600];
  ctx.fillStyle = WOOD;
  ctx.beginPath();
  ctx.roundRect(...px(0, 0), bw * S, bh * S, Math.trunc(10 * S));
  ctx.fill();
  ctx.fillStyle = FELT;
  for (const [x0, x1] of g.playing_field || []) ctx.fillRect(...px(x0, top), (x1 - x0) * S, (bottom - top) * S);
  if (g.tray) {
    ctx.fillStyle = TRAY;
    ctx.fillRect(...px(g.tray[0] + 8, top), (g.tray[1] - g.tray[0] - 16) * S, (bottom - top) * S);
  }
  const half = (g.point_width || 40) / 2;
  const length = layout.leds_per_point * layout.pitch;
  const segs = g.segments || {};
  ctx.font = Math.trunc(7.5 * S) + "px sans-serif";
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  for (let k = 1; k <= 24; k++) {
    const seg = segs["p" + k];
    if (!seg) continue;
    const [x, y] = seg.base, sign = seg.dir === "up" ? -1 : 1;
    ctx.fillStyle = TRIANGLES[k % 2];
    ctx.beginPath();
    ctx.moveTo(...px(x - half, y));
    ctx.lineTo(...px(x + half, y));
    ctx.lineTo(...px(x, y + sign * length));
    ctx.fill();
    const ty = y - sign * 10 > 0 && y - sign * 10 < bh ? y - sign * 10 : y;
    ctx.fillStyle = TEXT;
    ctx.fillText(String(k), ...px(x, ty));
  }
  for (const [name, word] of [["bar0", "bar"], ["bar1", "bar"], ["off0", "off"], ["off1", "off"]]) {
    const seg = segs[name];
    if (seg) {
      const [x, y] = seg.base, sign = seg.dir === "up" ? -1 : 1;
      ctx.fillStyle = TEXT;
      ctx.fillText(word, ...px(x, y - sign * 10));
    }
  }
}

export function cubePlaces(layout) { // picture.py's cube_places
  const g = layout.geometry, segs = g.segments || {};
  const [top, bottom] = g.edges || [20, 600];
  const mid = (top + bottom) / 2;
  const rows = [(segs.cube1 || {}).base, (segs.cube0 || {}).base];
  const ys = rows.map((r, p) => (r ? r[1] : mid + (p ? 20 : -20)));
  const field = (g.playing_field || [[20, 260]])[0];
  const bar = g.bar || [field[1], field[1] + 60];
  const x = field[1] - 0.09 * (field[1] - field[0]);
  const bx = (bar[0] + bar[1]) / 2;
  return { middle: [x, mid], 1: [x, ys[0]], 0: [x, ys[1]], offer1: [bx, ys[0]], offer0: [bx, ys[1]] };
}

function box(ctx, at, text, fill, ring, sz = 24) {
  const [cx, cy] = px(...at), h = (sz * S) / 2;
  ctx.fillStyle = fill;
  ctx.strokeStyle = ring || CUBE_INK;
  ctx.lineWidth = Math.trunc(S * (ring ? 2 : 1));
  ctx.beginPath();
  ctx.roundRect(cx - h, cy - h, 2 * h, 2 * h, Math.trunc(3 * S));
  ctx.fill();
  ctx.stroke();
  ctx.fillStyle = CUBE_INK;
  ctx.font = Math.trunc(sz * S * (text.length < 3 ? 0.6 : 0.4)) + "px sans-serif";
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.fillText(text, cx, cy);
}

function cube(ctx, layout, st, words) {
  if (!st || !words.cubePlay(st) || st.cube_on === false) return;
  const places = cubePlaces(layout);
  const value = words.cubeValue(st), owner = words.cubeOwner(st);
  box(ctx, places[owner < 0 ? "middle" : String(owner)], value === 1 && owner < 0 ? "64" : String(value), CUBE, null);
  const offer = st.offer;
  if (offer && (offer.by === 0 || offer.by === 1)) {
    const n = Number(offer.value || 0);
    const text = offer.kind === "double" ? String(n) : "R" + n;
    box(ctx, places["offer" + (1 - offer.by)], text, text[0] !== "R" ? CUBE : "rgb(250,250,250)", OFFER, 28);
  }
}

const lighter = (c) => c.map((v) => Math.min(255, v + 60));

export class BoardCanvas {
  constructor(canvas, layout, words) {
    this.canvas = canvas;
    this.layout = layout;
    this.words = words;
    [canvas.width, canvas.height] = size(layout);
    this.sprites = new Map(); // colour -> its glow, blurred once
    this.base = new OffscreenCanvas(canvas.width, canvas.height);
    shapes(this.base.getContext("2d"), layout);
    this.places = layout.positions;
    this.r = 0.36 * layout.pitch * S;
  }

  draw(frame, state) {
    const ctx = this.canvas.getContext("2d");
    const { width: w, height: h } = this.canvas;
    ctx.globalCompositeOperation = "source-over";
    ctx.filter = "none";
    ctx.fillStyle = BACK;
    ctx.fillRect(0, 0, w, h);
    ctx.drawImage(this.base, 0, 0);
    const k = gain(frame, this.layout.brightness_levels);
    const leds = decode(this.layout, frame);
    const r = this.r;
    const dots = [];
    const lit = [];
    for (const [name, places] of Object.entries(this.places)) {
      const cs = leds[name] || [];
      places.forEach(([x, y], i) => {
        const c = cs[i] || [0, 0, 0];
        const [cx, cy] = px(x, y);
        const shown = Math.max(...c) ? toScreen(c, k) : null;
        const on = shown && Math.max(...shown) ? shown : null;
        if (on) lit.push([cx, cy, on]);
        dots.push([cx, cy, on]);
      });
    }
    ctx.save(); // the glow: each lit LED's disc blurred, times 150/255, added (sprites per colour)
    ctx.globalCompositeOperation = "lighter";
    for (const [cx, cy, c] of lit) {
      const sprite = this.sprite(c);
      ctx.drawImage(sprite, cx - sprite.width / 2, cy - sprite.height / 2);
    }
    ctx.restore();
    ctx.lineWidth = Math.max(1, Math.trunc(S));
    for (const [cx, cy, shown] of dots) {
      ctx.fillStyle = shown ? css(shown) : DARK_LED;
      ctx.strokeStyle = shown ? css(lighter(shown)) : DARK_RIM;
      ctx.beginPath();
      ctx.ellipse(cx, cy, r, r, 0, 0, 2 * Math.PI);
      ctx.fill();
      ctx.stroke();
    }
    cube(ctx, this.layout, state, this.words);
    return leds;
  }

  sprite(c) { // picture.py's glow of one LED: a disc of 2.2 r, Gaussian blur of 1.3 r, x 150/255
    const key = c.join(",");
    let sp = this.sprites.get(key);
    if (sp) return sp;
    const r = this.r, half = Math.ceil(2.2 * r + 4 * 1.3 * r), n = 2 * half;
    sp = new OffscreenCanvas(n, n);
    const g = sp.getContext("2d");
    g.filter = "blur(" + (1.3 * r).toFixed(2) + "px)";
    g.globalAlpha = 150 / 255;
    g.fillStyle = css(c);
    g.beginPath();
    g.ellipse(half, half, 2.2 * r, 2.2 * r, 0, 0, 2 * Math.PI);
    g.fill();
    if (this.sprites.size > 64) this.sprites.clear();
    this.sprites.set(key, sp);
    return sp;
  }

  buttonAt(x, y) { // canvas pixels -> the board's button there, or null
    const g = this.layout.geometry, segs = g.segments || {};
    const mx = (x - MARGIN) / S, my = (y - MARGIN) / S;
    const half = (g.point_width || 40) / 2;
    const length = this.layout.leds_per_point * this.layout.pitch;
    for (const [name, button] of [["die0", "ROLL"], ["die1", "ROLL"]]) {
      const seg = segs[name];
      if (seg && seg.center) {
        const reach = 2.5 * this.layout.pitch;
        if (Math.abs(mx - seg.center[0]) <= reach && Math.abs(my - seg.center[1]) <= reach) return button;
      }
    }
    for (let k = 1; k <= 24; k++) {
      const seg = segs["p" + k];
      if (!seg) continue;
      const [bx, by] = seg.base, sign = seg.dir === "up" ? -1 : 1;
      const y0 = Math.min(by, by + sign * length), y1 = Math.max(by, by + sign * length);
      if (Math.abs(mx - bx) <= half && my >= y0 - 12 && my <= y1) return "p" + k;
    }
    const [top, bottom] = g.edges || [20, 600];
    if (g.bar && mx >= g.bar[0] && mx <= g.bar[1] && my >= top && my <= bottom) return "BAR";
    if (g.tray && mx >= g.tray[0] && mx <= g.tray[1] && my >= top && my <= bottom) return "OFF";
    return null;
  }
}
