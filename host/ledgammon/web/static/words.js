// The board's state in words, as the terminal view says it: a port of host/ledgammon's
// wording.py (status line, help line), match_words.py (the cube, the offer, the score),
// board_text.py's player_colours and terminal.py's describe (the message line), and the
// notation of gammon/play.py's format_play. tests/test_web_words.py checks them against the
// Python originals on the same states.

export const RESULTS = { 1: "single game", 2: "gammon", 3: "backgammon" };
export const MENU_ITEMS = ["new game", "brightness", "autoplay", "physical dice", "colours",
  "players", "level", "match length", "cube", "jacoby rule"];
const HELP = {
  full: "r:roll u:undo h:hint m:menu b:bar o:off ←→/Enter:cursor 7 Enter:p7 n:new",
  minimal: "r:roll u:undo h:hint m:menu ←→:cursor Enter:select 7 Enter:point 7 n:new",
};
const CUBE_HELP = {
  full: "r:roll u:undo h:hint m:menu b:bar o:off 7 Enter:p7 d:double s:resign",
  minimal: "r:roll u:undo h:hint m:menu ←→ Enter 7 Enter:point 7 d:double s:resign",
};
const ANSWER_HELP = { double: "t:take x:drop", resign: "a:accept j:reject" };
export const RESIGN_AS = { 1: "a single game", 2: "a gammon", 3: "a backgammon" };
const HOW = { 2: "", 3: "resigned", 4: "dropped" };

const isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

export function points(n) { return n + " point" + (n === 1 ? "" : "s"); }

// --- notation (gammon/notation.py's parse_moves, gammon/play.py's format_play)
function pointWord(n) { return n === 25 ? "bar" : n === 0 ? "off" : String(n); }

function parsePoint(w) {
  w = w.toLowerCase();
  if (w === "bar") return [25, false];
  if (w === "off") return [0, false];
  const hit = w.endsWith("*");
  if (hit) w = w.slice(0, -1);
  if (!/^\d+$/.test(w) || +w > 25) throw new Error("not a point");
  return [+w, hit];
}

export function parseMoves(text) {
  const moves = [];
  for (let token of text.replace(/,/g, " ").split(/\s+/).filter(Boolean)) {
    let count = 1;
    const m = /^(.*)\((\d)\)$/.exec(token);
    if (m) { token = m[1]; count = +m[2]; }
    const pts = token.split("/").map(parsePoint);
    if (pts.length < 2) throw new Error("a move is from/to");
    for (let i = 0; i < count; i++) {
      moves.push([pts[0][0], pts[pts.length - 1][0], pts.filter((p) => p[1]).map((p) => p[0])]);
    }
  }
  return moves;
}

export function formatPlay(steps) { // steps: [[frm, to, hit], ...]
  const hitPoints = steps.filter((s) => s[2]).map((s) => s[1]);
  const paths = [];
  const sorted = steps.slice().sort((a, b) => (b[0] - a[0]) || (b[1] - a[1]));
  for (const [frm, to] of sorted) {
    const path = paths.find((p) => p[1][p[1].length - 1] === frm && frm !== 0);
    if (path) path[1].push(to); else paths.push([frm, [to]]);
  }
  const texts = [];
  const counts = new Map();
  for (const [frm, hops] of paths) {
    let text = pointWord(frm);
    hops.forEach((to, i) => {
      const at = hitPoints.indexOf(to);
      const hit = at >= 0;
      if (hit) hitPoints.splice(at, 1);
      if (hit || i === hops.length - 1) text += "/" + pointWord(to) + (hit ? "*" : "");
    });
    const key = frm + ":" + hops.join(",");
    if (!counts.has(key)) { texts.push([key, text]); counts.set(key, 0); }
    counts.set(key, counts.get(key) + 1);
  }
  return texts.map(([k, t]) => t + (counts.get(k) > 1 ? "(" + counts.get(k) + ")" : "")).join(" ");
}

// --- colours (boardinfo.py's colour_name, board_text.py's player_colours)
export function colourName([r, g, b]) {
  const hi = Math.max(r, g, b), lo = Math.min(r, g, b);
  if (hi < 16) return "dark";
  if (hi - lo < 0.25 * hi) return "white";
  const d = hi - lo;
  let hue;
  if (hi === r) hue = (((60 * (g - b)) / d) % 360 + 360) % 360;
  else if (hi === g) hue = (60 * (b - r)) / d + 120;
  else hue = (60 * (r - g)) / d + 240;
  for (const [limit, word] of [[12, "red"], [45, "orange"], [70, "yellow"], [160, "green"],
    [200, "cyan"], [255, "blue"], [290, "purple"], [340, "magenta"], [361, "red"]]) {
    if (hue < limit) return word;
  }
  return "red";
}

export function playerColours(leds, state) { // leds: {segment: [[r,g,b], ...]}
  const out = [[0, 0, 0], [0, 0, 0]];
  const board = (state && state.board) || {};
  for (let p = 0; p < 2; p++) {
    const seen = new Map(); // colour key -> [count, first seen order, colour]
    const see = (c) => {
      const k = c.join(",");
      const e = seen.get(k) || [0, seen.size, c];
      e[0] += 1;
      seen.set(k, e);
    };
    (board["p" + p] || []).forEach((n, i) => {
      const seg = leds["p" + (i + 1)];
      if (n && seg && Math.max(...seg[0])) see(seg[0]);
    });
    const off = board.off || [0, 0];
    const seg = leds["off" + p];
    if (off.length > p && off[p] && seg && Math.max(...seg[0])) see(seg[0]);
    let best = null;
    for (const e of seen.values()) if (!best || e[0] > best[0]) best = e;
    if (best) out[p] = best[2];
  }
  return out;
}

// --- match_words.py
export function cubePlay(st) { return Boolean(st.match_length) || Boolean(st.cube_on); }
export function cubeValue(st) {
  let cube = st.cube || 1;
  if (isObj(cube)) cube = cube.value || 1;
  return Number(cube);
}
export function cubeOwner(st) {
  const owner = isObj(st.cube) ? st.cube.owner : st.cube_owner;
  return owner === 0 || owner === 1 ? owner : -1;
}

export function asked(st, who) {
  const offer = st.offer;
  if (!isObj(offer) || (offer.by !== 0 && offer.by !== 1)) return null;
  const by = offer.by, to = 1 - by, value = Number(offer.value || 0);
  const name = (p) => "player " + p + (who ? who(p) : "");
  if (offer.kind === "double") {
    return name(by) + " doubles to " + value + ": " + name(to) + ", take or drop?";
  }
  const worth = points(value * cubeValue(st));
  return name(by) + " resigns " + (RESIGN_AS[value] || "the game") + " (" + worth + "): " +
    name(to) + ", accept or reject?";
}

export function cubeWords(st) {
  if (!cubePlay(st)) return "";
  if (st.cube_on === false) return "no cube";
  const owner = cubeOwner(st);
  return "cube " + cubeValue(st) + ", " + (owner < 0 ? "in the middle" : "player " + owner + "'s");
}

export function scoreWords(st) {
  const score = st.score || [0, 0];
  const length = Number(st.match_length || 0);
  if (!length) return cubePlay(st) ? "money: " + score[0] + "-" + score[1] : "";
  const text = "match to " + length + ": " + score[0] + "-" + score[1];
  if (st.match_over) return text + ", over";
  if (st.crawford) {
    return text + (st.phase === "over" ? ", next the Crawford game" : ", Crawford game");
  }
  return text;
}

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

export function decodeMatchId(text) { // gammon/matchid_read.py: the fields this file reads
  if (typeof text !== "string" || text.length !== 12) return {};
  const bits = [];
  for (const ch of text) {
    const v = B64.indexOf(ch);
    if (v < 0) return {};
    for (let i = 5; i >= 0; i--) bits.push((v >> i) & 1);
  }
  const bytes = [];
  for (let i = 0; i < 9; i++) {
    let b = 0;
    for (let j = 0; j < 8; j++) b = (b << 1) | bits[8 * i + j];
    bytes.push(b);
  }
  const bit = (k) => (bytes[k >> 3] >> (k & 7)) & 1;
  const field = (at, n) => { let v = 0; for (let i = 0; i < n; i++) v |= bit(at + i) << i; return v; };
  return { state: field(8, 3), resigned: field(13, 2) };
}

export function gamePoints(st) {
  const d = decodeMatchId(st.match_id);
  const how = HOW[d.state || 2] || "";
  const cube = cubeValue(st);
  if (Number.isInteger(st.points)) return [st.points, how];
  if (how === "dropped") return [cube, how];
  if (how === "resigned" && d.resigned) return [d.resigned * cube, how];
  const result = Number(st.result || 1);
  const moneyJacoby = !st.match_length && st.jacoby && cube === 1;
  return [(moneyJacoby && st.cube_on ? 1 : result) * cube, how];
}

export function matchOver(st) {
  if (!st.match_over || (st.match_winner !== 0 && st.match_winner !== 1)) return "";
  const s = st.score || [0, 0];
  return "match over: player " + st.match_winner + " wins " + s[0] + "-" + s[1];
}

export function eventWords(ev) {
  const kind = ev.event, by = ev.by;
  if (kind === "double") return "Player " + by + " doubles to " + ev.cube;
  if (kind === "take") return "Player " + by + " takes: the cube is at " + ev.cube;
  if (kind === "drop") {
    return "Player " + by + " drops: player " + ev.winner + " wins " + points(Number(ev.points || 1));
  }
  if (kind === "resign") return "Player " + by + " resigns " + (RESIGN_AS[Number(ev.value || 1)] || "?");
  if (kind === "accept") {
    return "Player " + by + " accepts: player " + ev.winner + " wins " + points(Number(ev.points || 1));
  }
  if (kind === "reject") return "Player " + by + " rejects the resignation: play on";
  if (kind === "over" && "points" in ev) {
    const s = ev.score || [0, 0];
    return "Player " + ev.winner + " wins " + points(Number(ev.points)) +
      (ev.match_over ? ", the match" : "") + " (" + s[0] + "-" + s[1] + ")";
  }
  return "";
}

export function describe(ev) { // terminal.py: the message line's events
  const kind = ev.event;
  if (kind === "roll") return "Player " + ev.player + " rolled " + (ev.dice || []).join("-");
  if (kind === "nomove") return "Player " + ev.player + " cannot move";
  if (kind === "error") return "board: " + (ev.message || ev.code);
  if (kind === "new") return "a new game";
  return eventWords(ev);
}

export function adviceWords(a) { // the short form, as the terminal's message line has it
  const action = a.action === "too good" ? "too good, play on" : String(a.action);
  const player = Number(a.player || 0);
  const roller = a.kind === "double" ? player : 1 - player;
  const match = a.units === "mwc";
  const fig = (k) => {
    const n = Number(a[k] || 0);
    return match ? (n / 10).toFixed(1) + "%" : (n >= 0 ? "+" : "") + (n / 1000).toFixed(3);
  };
  return action + " · player " + roller + "'s ND " + fig("no_double") + " DT " +
    fig("double_take") + " DP " + fig("double_pass") + ", wins " +
    (Number(a.win || 0) / 10).toFixed(1) + "%";
}

// --- wording.py
export function players(st) {
  const got = (st.settings || {}).players;
  if (Array.isArray(got) && got.length === 2) return got.map((s) => (s === "board" ? "board" : "human"));
  return ["human", "human"];
}

export function played(st) {
  const steps = (st.steps || []).map(String);
  try {
    return formatPlay(parseMoves(steps.join(" ")).map((m) => [m[0], m[1], m[2].length > 0]));
  } catch (e) {
    return steps.join(" ");
  }
}

export function boardDoing(st) {
  if (st.bot === "think") return "the board is thinking";
  if (st.bot === "move") return st.steps && st.steps.length ? "the board plays " + played(st) : "the board moves";
  if (st.bot === "roll") return st.phase === "done" ? "the board passes the turn" : "the board throws its dice";
  return null;
}

function boardStep(st) {
  const doing = boardDoing(st);
  if (doing) return doing;
  const t = st.turn;
  if (st.phase === "done" && (t === 0 || t === 1) && players(st)[t] === "board") {
    return "the board played " + played(st) + ": ROLL for your turn";
  }
  return null;
}

function who(st, p) {
  const sides = players(st);
  if (sides.filter((s) => s === "board").length !== 1 || (p !== 0 && p !== 1)) return "";
  return sides[p] === "board" ? " (the board)" : " (you)";
}

export function overWords(st) {
  const winner = st.winner;
  const [won, how] = gamePoints(st);
  const what = how ? "player " + (winner === 0 || winner === 1 ? 1 - winner : "?") + " " + how
    : (RESULTS[Number(st.result || 1)] || "game");
  const text = "game over: " + what + ", player " + winner + who(st, winner) + " wins " + points(won);
  const fin = matchOver(st);
  return fin ? text + "; " + fin : text;
}

export function nextStep(st, selected = false, layout = "full") {
  const phase = st.phase;
  if (st.menu !== null && st.menu !== undefined) {
    const i = Number(st.menu);
    return "menu: " + (MENU_ITEMS[i] || "item " + i) + " (ROLL/UNDO change it, MENU next item)";
  }
  if (st.entering !== null && st.entering !== undefined) {
    const how = layout === "minimal" ? "LEFT/RIGHT then SELECT" : "press your point 1-6";
    return "enter die " + (st.entering.length + 1) + ": " + how;
  }
  const ask = asked(st, (p) => who(st, p));
  if (ask) return ask;
  const board = boardStep(st);
  if (board) return board;
  if (phase === "opening") return "opening roll: press ROLL";
  if (phase === "roll") return st.may_double ? "roll, or double to " + 2 * cubeValue(st) : "roll";
  if (phase === "move") return selected ? "select a destination" : "select a checker";
  if (phase === "done") return "press ROLL to pass the turn (UNDO takes back)";
  if (phase === "over") return overWords(st);
  return "waiting for the board";
}

export function statusLine(st, colours, selected = false, layout = "full") {
  if (!st) return "connecting to the board...";
  selected = selected || (st.selected !== undefined && st.selected !== null && st.selected !== -1);
  const what = nextStep(st, selected, layout);
  let parts = [what];
  if (["roll", "move", "done"].includes(st.phase) && !st.offer) {
    const t = Number(st.turn || 0);
    const yours = who(st, t) === " (you)" && (st.menu === null || st.menu === undefined);
    parts = ["Player " + t + " (" + colourName(colours[t]) + ")" + (yours ? ", your turn" : "") + ": " + what];
  }
  const dice = st.dice;
  if (dice && ["move", "done"].includes(st.phase)) parts.push("dice " + dice[0] + "-" + dice[1]);
  if (st.pips) parts.push("pips 0:" + st.pips[0] + " 1:" + st.pips[1]);
  return parts.join(" · ");
}

export function helpLine(interactive, layout, st) {
  if (!interactive) return "watching (read only)";
  const offer = (st || {}).offer;
  if (isObj(offer) && ANSWER_HELP[offer.kind]) return ANSWER_HELP[offer.kind];
  if (st && cubePlay(st) && st.phase !== "over") return CUBE_HELP[layout] || CUBE_HELP.full;
  return HELP[layout] || HELP.full;
}
