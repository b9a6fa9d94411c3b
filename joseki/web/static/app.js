"use strict";
// The explorer: its views over the JSON API. Every text from the store or an SGF file is set as
// textContent (a comment's safe HTML only through views.js's safeHtml). The URL holds the view, the position,
// the order and the games' filters, so it can be shared.

const state = {
  view: "explore", moves: [], future: [], setup: [], first: "black", corner: "top-right", collections: [],
  profile: "", rank: "popularity", order: "newest",
  filters: {player: "", rank: "", since: "", until: "", result: ""}, practiseOver: false,
  game: null, gameKey: null, gameMove: 0,
  practiseColour: "black", verdicts: [], seed: Math.floor(Math.random() * 1e9),
  search: newSearch(),
};

// The Search view's pattern as drawn: letters by SGF point inside the region [x0, y0, x1, y1], where it is found
// ("corner:NAME", "side:NAME", "anywhere" or "at": only where drawn), the filters, the moves followed (next), and
// the search last run (its API parameters: the URL holds them).
function newSearch() {
  return {letters: {}, region: [0, 0, 6, 6], place: "corner:top-left", fixedColour: false, fixedOrientation: false,
    filters: {player: "", min_rank: "", from: "", to: "", result: "", event: ""}, limit: 50, next: [], ran: null};
}
let board = null, catalogue = {collections: [], profiles: [], writable: false};
let requestNumber = 0;

function $(id) { return document.getElementById(id); }
function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}
function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

async function api(path, params, options) {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) {
    if (Array.isArray(v)) v.forEach((x) => query.append(k, x));
    else if (v !== null && v !== undefined && v !== "") query.append(k, v);
  }
  const response = await fetch(path + (query.toString() ? "?" + query : ""), options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || (data.detail && JSON.stringify(data.detail)) || response.statusText);
  return data;
}

function common() {
  return {collection: state.collections, profile: state.profile, rank: state.rank};
}

// ---- the URL ----
function toUrl() {
  const q = new URLSearchParams();
  q.set("view", state.view);
  if (state.view === "search") {
    for (const [k, v] of Object.entries(state.search.ran || {})) q.set("s-" + k, v);
    const url = "?" + q.toString();
    if (url !== location.search) history.pushState(null, "", url);
    return;
  }
  if (state.view === "review") {
    if (state.gameKey) q.set("game", state.gameKey);
    else if (state.game) {
      q.set("played", played(state.game.moves.length));
      if (setupText()) q.set("setup", setupText());
    }
    q.set("move", String(state.gameMove));
  } else {
    if (state.moves.length) q.set("moves", state.moves.join(","));
    if (state.view === "explore" && state.setup.length) q.set("setup", state.setup.map(([c, p]) => c + p).join(""));
  }
  if (state.first !== "black") q.set("first", state.first);
  if (state.corner !== "top-right") q.set("corner", state.corner);
  state.collections.forEach((c) => q.append("collection", c));
  if (state.profile) q.set("profile", state.profile);
  if (state.rank !== "popularity") q.set("rank", state.rank);
  if (state.view === "explore") {
    if (state.order !== "newest") q.set("order", state.order);
    for (const [k, v] of Object.entries(state.filters)) if (v) q.set("g-" + k, v);
  }
  if (state.view === "practise") q.set("colour", state.practiseColour);
  const url = "?" + q.toString();
  if (url !== location.search) history.pushState(null, "", url);
}

function fromUrl() {
  const q = new URLSearchParams(location.search);
  state.view = ["explore", "review", "practise", "search"].includes(q.get("view")) ? q.get("view") : "explore";
  if (state.view === "search") {
    const asked = {};
    for (const [k, v] of q.entries()) if (k.startsWith("s-")) asked[k.slice(2)] = v;
    state.search = searchFromParams(asked);
    return;
  }
  state.moves = (q.get("moves") || "").split(",").filter((m) => m);
  state.first = q.get("first") === "white" ? "white" : "black";
  state.corner = q.get("corner") || "top-right";
  state.collections = q.getAll("collection");
  state.profile = q.get("profile") || "";
  state.rank = q.get("rank") || "popularity";
  state.order = q.get("order") === "strongest" ? "strongest" : "newest";
  for (const k of Object.keys(state.filters)) state.filters[k] = q.get("g-" + k) || "";
  state.practiseColour = q.get("colour") === "white" ? "white" : "black";
  state.gameMove = parseInt(q.get("move") || "0", 10) || 0;
  state.gameKey = q.get("game");
  if (/^[0-9]+$/.test(q.get("seed") || "")) state.seed = parseInt(q.get("seed"), 10);  // a repeatable practice
  const triples = (text) => {
    const out = [];
    for (let i = 0; i + 3 <= text.length; i += 3) out.push([text[i], text.slice(i + 1, i + 3)]);
    return out;
  };
  state.setup = state.view === "explore" ? triples(q.get("setup") || "") : [];
  const playedText = q.get("played");
  if (playedText && !state.gameKey) {
    state.game = {moves: triples(playedText), setup: triples(q.get("setup") || ""), black: "", white: "", result: "",
      source: "(from the link)"};
  }
}

// ---- orientation ----
function transformMoves(f) {
  const map = (m) => (m === "pass" ? m : xyToGtp(...f(...gtpToXY(m))));
  state.moves = state.moves.map(map);
  state.future = state.future.map(map);
  refresh();
}

// ---- views and controls ----
function setView(view) {
  state.view = view;
  if (view === "practise") return practiseStart();
  refresh();
}

async function refresh() {
  toUrl();
  for (const v of ["explore", "review", "practise", "search"]) {
    $(v + "-panel").hidden = state.view !== v;
    $("tab-" + v).classList.toggle("active", state.view === v);
  }
  $("first").value = state.first;
  $("corner").value = state.corner;
  $("rank").value = state.rank;
  $("order").value = state.order;
  $("f-player").value = state.filters.player;
  $("f-rank").value = state.filters.rank;
  $("f-since").value = state.filters.since;
  $("f-until").value = state.filters.until;
  $("f-result").value = state.filters.result;
  $("profile").value = state.profile;
  for (const box of document.querySelectorAll("#collections input")) box.checked = state.collections.includes(box.value);
  document.body.dataset.view = state.view;
  try {
    showError("");
    if (state.view === "explore") await explore();
    else if (state.view === "review") await review();
    else if (state.view === "search") await search();
    else await practise();
    document.body.dataset.ready = String(++renderCount);
  } catch (e) {
    showError(e.message);
    document.body.dataset.ready = String(++renderCount);
  }
}
let renderCount = 0;

function controls() {
  for (const b of document.querySelectorAll("#views button")) b.addEventListener("click", () => setView(b.dataset.view));
  $("back").addEventListener("click", () => step(-1));
  $("forward").addEventListener("click", () => step(1));
  $("start").addEventListener("click", () => step(-1000));
  $("end").addEventListener("click", () => step(1000));
  $("tenuki").addEventListener("click", () => play("pass"));
  $("flip-x").addEventListener("click", () => transformMoves((x, y) => [18 - x, y]));
  $("flip-y").addEventListener("click", () => transformMoves((x, y) => [x, 18 - y]));
  $("transpose").addEventListener("click", () => transformMoves((x, y) => [y, x]));
  $("first").addEventListener("change", (e) => { state.first = e.target.value; refresh(); });
  $("corner").addEventListener("change", (e) => { state.corner = e.target.value; refresh(); });
  $("rank").addEventListener("change", (e) => { state.rank = e.target.value; refresh(); });
  $("profile").addEventListener("change", (e) => { state.profile = e.target.value; refresh(); });
  $("order").addEventListener("change", (e) => { state.order = e.target.value; refresh(); });
  $("game-filters").addEventListener("submit", (e) => {
    e.preventDefault();
    state.filters = {player: $("f-player").value.trim(), rank: $("f-rank").value.trim(), since: $("f-since").value.trim(),
      until: $("f-until").value.trim(), result: $("f-result").value};
    refresh();
  });
  $("f-result").addEventListener("change", () => $("game-filters").requestSubmit());
  $("explore-here").addEventListener("click", () => exploreHere());
  $("clear-setup").addEventListener("click", () => { state.setup = []; refresh(); });
  $("upload").addEventListener("change", (e) => upload(e.target.files[0]));
  $("move-slider").addEventListener("input", (e) => { state.gameMove = parseInt(e.target.value, 10); refresh(); });
  $("practise-colour").addEventListener("change", (e) => { state.practiseColour = e.target.value; practiseStart(); });
  $("practise-restart").addEventListener("click", () => practiseStart());
  searchControls();
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    const moves = {ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1000, Home: -1000, ArrowDown: 1000, End: 1000};
    if (!(e.key in moves)) return;
    e.preventDefault();  // the arrows and Home/End move through the moves, never scroll the page
    step(moves[e.key]);
  });
  window.addEventListener("popstate", () => { fromUrl(); refresh(); });
}

// ---- the search's pattern, placement and parameters ----
const SEARCH_CYCLE = {".": "X", X: "O", O: "*", "*": "."};  // a click: empty, black, white, anything, empty
function regionSize(r) { return [r[2] - r[0] + 1, r[3] - r[1] + 1]; }

// The pattern's rows, as the API reads them (points not set are empty).
function searchRows(s) {
  const rows = [];
  for (let y = s.region[1]; y <= s.region[3]; y++) {
    let row = "";
    for (let x = s.region[0]; x <= s.region[2]; x++) row += s.letters[xyToSgf(x, y)] || ".";
    rows.push(row);
  }
  return rows;
}

// The API's parameters for the search drawn (every one a string; defaults left out).
function searchParams(s) {
  const p = {pattern: searchRows(s).join("/")};
  const origin = xyToGtp(s.region[0], s.region[1]);
  const [kind, name] = s.place.split(":");
  if (kind === "corner") p.corner = name;
  else if (kind === "side") { p.side = name; p.origin = origin; }
  else if (kind === "anywhere") { p.anywhere = "true"; p.origin = origin; }
  else p.at = origin;
  if (s.fixedColour) p.fixed_colour = "true";
  if (s.fixedOrientation) p.fixed_orientation = "true";
  for (const [k, v] of Object.entries(s.filters)) if (v) p[k] = v;
  if (s.next.length) p.next = s.next.join(",");
  if (s.limit !== 50) p.limit = String(s.limit);
  return p;
}

// The region moved (its size kept) so that it lies where ``place`` finds it: in its corner, on its side.
function snapped(r, place) {
  const [w, h] = regionSize(r);
  const [kind, name] = place.split(":");
  let [x0, y0] = r;
  if (kind === "corner") { x0 = name.endsWith("left") ? 0 : SIZE - w; y0 = name.startsWith("top") ? 0 : SIZE - h; }
  if (kind === "side") {
    if (name === "top") y0 = 0; else if (name === "bottom") y0 = SIZE - h;
    else if (name === "left") x0 = 0; else x0 = SIZE - w;
  }
  return [x0, y0, x0 + w - 1, y0 + h - 1];
}

// Where a region just dragged is found: in the corner or along the side it touches, else as before when that was
// anywhere, else only where drawn.
function placeOf(r, previous) {
  const left = r[0] === 0, right = r[2] === SIZE - 1, top = r[1] === 0, bottom = r[3] === SIZE - 1;
  if ((left || right) && (top || bottom)) return `corner:${top ? "top" : "bottom"}-${left ? "left" : "right"}`;
  for (const [touches, name] of [[top, "top"], [bottom, "bottom"], [left, "left"], [right, "right"]]) {
    if (touches) return "side:" + name;
  }
  return previous === "anywhere" ? "anywhere" : "at";
}

// The search a URL's parameters name (as searchParams writes them), drawn where they say.
function searchFromParams(p) {
  const s = newSearch();
  if (!p.pattern) return s;
  const rows = p.pattern.split("/").filter((r) => r);
  const w = rows.length ? rows[0].length : 0, h = rows.length;
  if (!w || w > SIZE || h > SIZE) return s;
  s.place = p.corner ? "corner:" + p.corner : p.side ? "side:" + p.side : p.anywhere ? "anywhere" : p.at ? "at" : "corner:top-left";
  const from = p.origin || p.at;
  const [x0, y0] = from && /^[A-HJ-Ta-hj-t][0-9]{1,2}$/.test(from) ? gtpToXY(from) : [0, 0];
  s.region = snapped([x0, y0, x0 + w - 1, y0 + h - 1], s.place);
  rows.forEach((row, dy) => [...row].forEach((ch, dx) => {
    if (ch !== ".") s.letters[xyToSgf(s.region[0] + dx, s.region[1] + dy)] = ch;
  }));
  s.fixedColour = p.fixed_colour === "true";
  s.fixedOrientation = p.fixed_orientation === "true";
  for (const k of Object.keys(s.filters)) s.filters[k] = p[k] || "";
  s.limit = parseInt(p.limit || "50", 10) || 50;
  s.next = (p.next || "").split(",").filter((m) => m);
  s.ran = p;
  return s;
}

// A change to the pattern drawn: the moves followed belong to the search run, which is now another one.
function searchEdited() {
  state.search.next = [];
  drawSearch(null);
}

function moveRegion(region, place) {
  const s = state.search;
  const dx = region[0] - s.region[0], dy = region[1] - s.region[1];
  const moved = {};
  for (const [p, ch] of Object.entries(s.letters)) {
    const [x, y] = sgfToXY(p);
    if (x + dx >= region[0] && x + dx <= region[2] && y + dy >= region[1] && y + dy <= region[3]) moved[xyToSgf(x + dx, y + dy)] = ch;
  }
  s.letters = moved;
  s.region = region;
  s.place = place;
  searchEdited();
}

function searchClick(move) {
  const s = state.search, [x, y] = gtpToXY(move);
  if (x < s.region[0] || x > s.region[2] || y < s.region[1] || y > s.region[3]) {
    $("s-note").textContent = `${move} is outside the region: drag across the board to set the region.`;
    return;
  }
  const p = xyToSgf(x, y), next = SEARCH_CYCLE[s.letters[p] || "."] || ".";
  if (next === ".") delete s.letters[p]; else s.letters[p] = next;
  searchEdited();
}

function searchDrag(from, to, done) {
  const region = [Math.min(from[0], to[0]), Math.min(from[1], to[1]), Math.max(from[0], to[0]), Math.max(from[1], to[1])];
  if (!done) return drawSearch(region);
  const s = state.search;
  s.letters = Object.fromEntries(Object.entries(s.letters).filter(([p]) => {
    const [x, y] = sgfToXY(p);
    return x >= region[0] && x <= region[2] && y >= region[1] && y <= region[3];
  }));
  s.region = region;
  s.place = placeOf(region, s.place);
  searchEdited();
}

function runSearch() {
  const s = state.search;
  s.filters = {player: $("s-player").value.trim(), min_rank: $("s-min-rank").value.trim(), from: $("s-from").value.trim(),
    to: $("s-to").value.trim(), result: $("s-result").value, event: $("s-event").value.trim()};
  s.limit = Math.max(1, Math.min(500, parseInt($("s-limit").value, 10) || 50));
  s.fixedColour = $("s-fixed-colour").checked;
  s.fixedOrientation = $("s-fixed-orientation").checked;
  s.ran = searchParams(s);
  refresh();
}

// A continuation followed (B:Q16), or the moves followed cut back to the first n.
function follow(move) { state.search.next.push(move); runSearch(); }
function followBack(n) { state.search.next = state.search.next.slice(0, n); runSearch(); }

function searchControls() {
  const sides = {top: [5, 0, 13, 4], bottom: [5, 14, 13, 18], left: [0, 5, 4, 13], right: [14, 5, 18, 13]};
  for (const b of document.querySelectorAll(".s-corner")) {
    b.addEventListener("click", () => moveRegion(snapped([0, 0, 6, 6], b.dataset.place), b.dataset.place));
  }
  for (const b of document.querySelectorAll(".s-side")) {
    b.addEventListener("click", () => moveRegion(sides[b.dataset.place.split(":")[1]], b.dataset.place));
  }
  $("s-anywhere").addEventListener("click", () => { state.search.place = "anywhere"; searchEdited(); });
  $("s-clear").addEventListener("click", () => { state.search.letters = {}; searchEdited(); });
  $("s-placement").addEventListener("change", (e) => moveRegion(snapped(state.search.region, e.target.value), e.target.value));
  $("search-form").addEventListener("submit", (e) => { e.preventDefault(); runSearch(); });
}

function step(delta) {
  if (state.view === "review") {
    if (!state.game) return;
    state.gameMove = Math.max(0, Math.min(state.game.moves.length, state.gameMove + delta));
  } else if (state.view === "explore") {
    for (let i = 0; i < Math.abs(delta); i++) {
      if (delta < 0 && state.moves.length) state.future.unshift(state.moves.pop());
      else if (delta > 0 && state.future.length) state.moves.push(state.future.shift());
    }
  } else return;
  refresh();
}

async function start() {
  fromUrl();
  board = new Board($("board"), (x, y) => play(xyToGtp(x, y)));
  board.onDrag = (from, to, done) => { if (state.view === "search") searchDrag(from, to, done); };
  legend();
  try {
    catalogue = await api("/api/catalogue");
  } catch (e) {
    showError(e.message);
  }
  const box = $("collections");
  for (const name of catalogue.collections) {
    const label = el("label", null, "collection");
    const input = el("input");
    input.type = "checkbox";
    input.value = name;
    input.addEventListener("change", () => {
      state.collections = [...document.querySelectorAll("#collections input:checked")].map((i) => i.value);
      refresh();
    });
    label.appendChild(input);
    label.appendChild(document.createTextNode(" " + name));
    box.appendChild(label);
  }
  if (!catalogue.collections.length) box.appendChild(el("span", " none (the store is empty)"));
  const profile = $("profile");
  profile.appendChild(el("option", "global"));
  profile.options[0].value = "";
  for (const name of catalogue.profiles) {
    if (name === "global") continue;
    const option = el("option", name);
    option.value = name;
    profile.appendChild(option);
  }
  $("practise-colour").value = state.practiseColour;
  controls();
  if (state.view === "practise" && !state.moves.length) await practiseStart();
  else refresh();
}

document.addEventListener("DOMContentLoaded", start);
