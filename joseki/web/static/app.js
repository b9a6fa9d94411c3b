"use strict";
// The explorer: three views over the JSON API. Every text from the store or an SGF file is set as
// textContent (never parsed as HTML). The URL holds the view and the position, so it can be shared.

const state = {
  view: "explore", moves: [], future: [], first: "black", corner: "top-right", collections: [],
  profile: "", rank: "popularity", order: "newest",
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
    else if (state.game) q.set("played", played(state.game.moves.length));
    q.set("move", String(state.gameMove));
  } else if (state.moves.length) q.set("moves", state.moves.join(","));
  if (state.first !== "black") q.set("first", state.first);
  if (state.corner !== "top-right") q.set("corner", state.corner);
  state.collections.forEach((c) => q.append("collection", c));
  if (state.profile) q.set("profile", state.profile);
  if (state.rank !== "popularity") q.set("rank", state.rank);
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
  state.practiseColour = q.get("colour") === "white" ? "white" : "black";
  state.gameMove = parseInt(q.get("move") || "0", 10) || 0;
  state.gameKey = q.get("game");
  const playedText = q.get("played");
  if (playedText && !state.gameKey) {
    const moves = [];
    for (let i = 0; i + 3 <= playedText.length; i += 3) moves.push([playedText[i], playedText.slice(i + 1, i + 3)]);
    state.game = {moves, black: "", white: "", result: "", source: "(from the link)"};
  }
}

// ---- drawing ----
function drawStones(stones, last) {
  board.clear();
  for (const colour of ["black", "white"]) {
    for (const p of stones[colour]) board.stone(p, colour, p === last);
  }
}

function drawCandidates(list, dim) {
  for (const c of list) if (c.point) board.candidate(c.point, c.label, c.category, dim);
}

function stateText(corner) {
  const who = corner.to_move === "black" ? "Black" : "White";
  const names = {"in-book": "in book", "left-book": "out of book", empty: "empty corner",
    "tenuki-variation": "in book (a tenuki variation)", "interrupted": "interrupted (tenuki)",
    "in-book-by-transposition": "in book by transposition"};
  let text = `${corner.corner}: ${names[corner.state] || corner.state}, ${who} to play`;
  if (corner.left_at) {
    const after = (corner.book_moves || []).join(" ") || "the empty corner";
    text += `. Left the book at local move ${corner.left_at} (${corner.left_move}); the book's moves there, after ${after}, are lettered.`;
  }
  if (corner.book_position_moves) {
    text += `. Transposition: the same position as the book's line ${corner.book_position_moves.join(" ")}.`;
  }
  return text;
}

function winBar(c) {
  const cell = el("td", null, "winrate");
  if (!c.corners) { cell.textContent = ""; return cell; }
  const bar = el("span", null, "bar");
  for (const [part, n] of [["win", c.wins], ["draw", c.draws], ["loss", c.losses]]) {
    if (!n) continue;
    const seg = el("span", null, part);
    seg.style.width = (100 * n / c.corners) + "%";
    bar.appendChild(seg);
  }
  cell.appendChild(bar);
  cell.appendChild(el("span", ` ${Math.round(100 * c.win_rate)}%`, "rate"));
  return cell;
}

function candidateTable(list) {
  const body = $("candidates").tBodies[0];
  body.replaceChildren();
  if (!list.length) {
    const row = body.insertRow();
    const cell = el("td", "the book has no move here", "none");
    cell.colSpan = 9;
    row.appendChild(cell);
    return;
  }
  for (const c of list) {
    const row = body.insertRow();
    row.className = "candidate-row";
    row.dataset.move = c.move;
    const label = el("td", c.label || "", "label");
    label.style.color = categoryColour(c.category);
    row.appendChild(label);
    const move = el("td");
    const link = el("a", c.move, "move");
    link.href = "#";
    link.addEventListener("click", (e) => { e.preventDefault(); play(c.move === "tenuki" ? "pass" : c.move); });
    move.appendChild(link);
    row.appendChild(move);
    row.appendChild(el("td", c.games, "num"));
    row.appendChild(winBar(c));
    row.appendChild(el("td", c.paths, "num"));
    row.appendChild(el("td", c.priority.toFixed(2), "num"));
    const category = el("td", c.category_label || "", "category");
    category.style.color = categoryColour(c.category);
    row.appendChild(category);
    row.appendChild(el("td", (c.conditions || []).join("; "), "conditions"));
    const fav = c.favourability ? c.favourability.mover : null;
    row.appendChild(el("td", fav === null ? "" : (fav >= 0 ? "+" : "") + fav.toFixed(2), "num"));
    row.addEventListener("mouseenter", () => highlight(c.point, true));
    row.addEventListener("mouseleave", () => highlight(c.point, false));
  }
}

function highlight(point, on) {
  if (!point) return;
  for (const node of document.querySelectorAll(`.candidate[data-point="${point}"]`)) node.classList.toggle("hot", on);
}

function comments(line) {
  const box = $("comments");
  box.replaceChildren();
  if (!line || !line.moves) return;
  const last = line.moves[line.moves.length - 1];
  if (!last) return;
  for (const c of last.comments) {
    const p = el("p", null, "comment");
    p.appendChild(el("span", `[${c.collection}] `, "source"));
    p.appendChild(el("span", c.text, "text"));
    box.appendChild(p);
  }
  for (const point of last.comment_points || []) board.mark(point, "comment");
  if (line.records && line.records.length) box.appendChild(el("p", "a complete record in " + line.records.join(", "), "records"));
}

function pathList(moves, onPick) {
  const list = $("path");
  list.replaceChildren();
  moves.forEach((m, i) => {
    const item = el("li");
    const link = el("a", m === "pass" ? "tenuki" : m);
    link.href = "#";
    link.addEventListener("click", (e) => { e.preventDefault(); onPick(i + 1); });
    item.appendChild(link);
    list.appendChild(item);
  });
}

// ---- explore ----
async function explore() {
  const number = ++requestNumber;
  const data = await api("/api/explore", {moves: state.moves.join(","), first: state.first, corner: state.corner,
    ...common()});
  if (number !== requestNumber) return;
  const last = state.moves.length ? state.moves[state.moves.length - 1] : null;
  const lastPoint = last && last !== "pass" ? xyToSgf(...gtpToXY(last)) : null;
  drawStones(data.board, lastPoint);
  const focus = data.corners.find((c) => c.corner === data.focus) || data.corners[0];
  const shown = focus.candidates.length || !focus.alternatives ? focus.candidates : focus.alternatives;
  for (const c of data.corners) if (c !== focus) drawCandidates(c.candidates.length ? c.candidates : (c.alternatives || []), true);
  drawCandidates(shown, false);
  for (const c of shown) for (const p of c.named || []) board.mark(p, "condition");
  $("state").textContent = stateText(focus);
  candidateTable(shown);
  comments(data.line);
  const others = $("others");
  others.replaceChildren();
  for (const c of data.corners) if (c !== focus) others.appendChild(el("p", stateText(c), "other-corner"));
  pathList(state.moves, (n) => { state.future = state.moves.slice(n).concat(state.future); state.moves = state.moves.slice(0, n); refresh(); });
  $("corner-label").hidden = state.moves.length > 0;
  await games(focus);
}

async function games(focus) {
  const box = $("games-box");
  if (!state.moves.length) { box.hidden = true; return; }
  let data;
  try {
    data = await api("/api/games", {moves: state.moves.join(","), first: state.first, profile: state.profile,
      order: state.order, limit: 20});
  } catch (e) {
    box.hidden = true;
    return;
  }
  box.hidden = data.count === 0;
  $("games-count").textContent = `${data.count} game${data.count === 1 ? "" : "s"} reached this position in the ${focus.corner} corner` +
    (data.count > data.games.length ? ` (the first ${data.games.length} shown)` : "");
  const body = $("games").tBodies[0];
  body.replaceChildren();
  for (const g of data.games) {
    const row = body.insertRow();
    row.className = "game-row";
    const rank = (r) => (r ? ` (${r})` : "");
    row.appendChild(el("td", (g.black || "?") + rank(g.black_rank)));
    row.appendChild(el("td", (g.white || "?") + rank(g.white_rank)));
    row.appendChild(el("td", g.date || ""));
    row.appendChild(el("td", g.result || ""));
    row.appendChild(el("td", String(g.source || "").split("/").pop()));
    row.appendChild(el("td", g.move_number));
    row.dataset.key = g.key;
    row.addEventListener("click", () => openStoreGame(g.key, g.move_number));
  }
}

function play(move) {
  if (state.view === "practise") return practiseMove(move);
  if (state.view === "review") return;
  state.moves.push(move);
  state.future = [];
  refresh();
}

// ---- review ----
function played(n) {
  return state.game.moves.slice(0, n).map(([c, p]) => c + p).join("");
}

async function openStoreGame(key, move) {
  const data = await api("/api/game/" + encodeURIComponent(key));
  state.game = data.game;
  state.gameKey = key;
  state.gameMove = Math.min(move || 0, data.game.moves.length);
  setView("review");
}

async function upload(file) {
  if (!file) return;
  try {
    const data = await api("/api/upload", {}, {method: "POST", body: await file.arrayBuffer(),
      headers: {"Content-Type": "application/x-go-sgf", "X-File-Name": encodeURIComponent(file.name)}});
    state.game = data.game;
    state.gameKey = null;
    state.gameMove = 0;
    showError("");
    refresh();
  } catch (e) {
    showError(e.message);
  }
}

async function review() {
  const body = $("review-corners").tBodies[0];
  body.replaceChildren();
  if (state.gameKey && !state.game) {
    const data = await api("/api/game/" + encodeURIComponent(state.gameKey));
    state.game = data.game;
  }
  if (!state.game) {
    board.clear();
    $("game-info").textContent = "No game open: upload an SGF file, or pick a game in the explorer.";
    return;
  }
  const g = state.game, n = Math.min(state.gameMove, g.moves.length);
  $("game-info").textContent = `${g.black || "?"} (Black) vs ${g.white || "?"} (White), ${g.result || "no result"}; ${g.source}`;
  const slider = $("move-slider");
  slider.max = String(g.moves.length);
  slider.value = String(n);
  $("move-number").textContent = `move ${n} of ${g.moves.length}`;
  const data = await api("/api/review", {game: played(g.moves.length), move: n, ...common()});
  const last = n ? g.moves[n - 1][1] : null;
  drawStones(data.board, last === "tt" ? null : last);
  for (const c of data.corners) {
    const row = body.insertRow();
    row.className = "review-corner " + c.state;
    row.appendChild(el("td", c.corner));
    row.appendChild(el("td", stateText(c)));
    row.appendChild(el("td", c.moves.join(" ")));
    const offered = c.alternatives && c.left_at ? c.alternatives : c.candidates;
    row.appendChild(el("td", offered.map((x) => (x.label ? x.label + " " : "") + x.move).join(", ")));
    if (c.corner === data.focus || c.left_at) drawCandidates(offered, c.corner !== data.focus);
  }
  comments(data.line);
  pathList(g.moves.slice(0, n).map(([c, p]) => (p === "tt" ? "pass" : xyToGtp(...sgfToXY(p)))),
    (k) => { state.gameMove = k; refresh(); });
}

// ---- practise ----
async function practiseStart() {
  state.moves = [];
  state.verdicts = [];
  state.seed = Math.floor(Math.random() * 1e9);
  if (state.practiseColour !== state.first) {
    const data = await api("/api/explore", {first: state.first, corner: state.corner, ...common()});
    const best = data.corners[0].candidates.find((c) => c.point);
    if (best) state.moves.push(best.move);
  }
  refresh();
}

async function practiseMove(move) {
  const moves = state.moves.concat([move]);
  const data = await api("/api/practise", {moves: moves.join(","), first: state.first,
    collection: state.collections, profile: state.profile, seed: state.seed + moves.length});
  state.moves = moves;
  if (data.reply) state.moves.push(data.reply.move);
  state.verdicts.push({...data.judgement, reply: data.reply});
  refresh();
}

async function practise() {
  const last = state.moves.length ? state.moves[state.moves.length - 1] : null;
  const data = await api("/api/explore", {moves: state.moves.join(","), first: state.first, corner: state.corner,
    ...common()});
  drawStones(data.board, last && last !== "pass" ? xyToSgf(...gtpToXY(last)) : null);
  const list = $("verdicts");
  list.replaceChildren();
  let inBook = 0;
  for (const v of state.verdicts) {
    if (v.in_book) inBook++;
    const move = v.tenuki ? `${v.move === "pass" ? "" : v.move + ", "}tenuki` : v.move;
    let text = `${move}: ` + (v.in_book ? `in book${v.category_label ? " (" + v.category_label + ")" : ""}` : "not in the book");
    if (v.more_popular.length) text += `; more popular: ${v.more_popular.join(", ")}`;
    text += v.reply ? `. The book answers ${v.reply.move}.` : ". The book has no answer here: the line ends (restart).";
    list.appendChild(el("li", text, "verdict " + (v.in_book ? "good" : "bad")));
  }
  $("score").textContent = state.verdicts.length ? `score: ${inBook} of ${state.verdicts.length} moves in book` : "Play a move.";
  pathList(state.moves, () => {});
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
  if (view === "practise") state.moves = [], state.verdicts = [];
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
  $("upload").addEventListener("change", (e) => upload(e.target.files[0]));
  $("move-slider").addEventListener("input", (e) => { state.gameMove = parseInt(e.target.value, 10); refresh(); });
  $("practise-colour").addEventListener("change", (e) => { state.practiseColour = e.target.value; practiseStart(); });
  $("practise-restart").addEventListener("click", () => practiseStart());
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    if (e.key === "ArrowLeft") step(-1);
    if (e.key === "ArrowRight") step(1);
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
