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
};
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
  state.view = ["explore", "review", "practise"].includes(q.get("view")) ? q.get("view") : "explore";
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
  for (const v of ["explore", "review", "practise"]) {
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
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    const moves = {ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1000, Home: -1000, ArrowDown: 1000, End: 1000};
    if (!(e.key in moves)) return;
    e.preventDefault();  // the arrows and Home/End move through the moves, never scroll the page
    step(moves[e.key]);
  });
  window.addEventListener("popstate", () => { fromUrl(); refresh(); });
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
