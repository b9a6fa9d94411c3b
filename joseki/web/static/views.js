"use strict";
// The three views drawn from the API's answers: explore, review, practise. Every text from the store
// or an SGF file is set as textContent, never parsed as HTML. State and controls are in app.js.

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

// The order the list is given in, and the whole-board context's games (which order it only when asked).
function orderText(corner) {
  const games = (n) => `${n || "no"} game${n === 1 ? "" : "s"}`;
  const names = {popularity: "popularity (book paths + games)", priority: "priority", winrate: "win rate",
    games: "games", context: "the whole-board context"};
  let text = `Order: ${names[corner.order] || corner.order}.`;
  if (corner.statistics === undefined) return text + (state.rank === "context" ? " (No whole board here: no context.)" : "");
  const region = corner.similar_games !== corner.context_games ? `, ${games(corner.similar_games)} in its region` : "";
  if (corner.order === "context") return text + ` Ranked by ${games(corner.context_games)} in this whole-board context${region}.`;
  if (state.rank === "context") return text + ` The whole-board context has ${games(corner.context_games)}${region}: it orders nothing.`;
  return text + ` Whole-board context: ${games(corner.context_games)}${region} (order "whole-board context" ranks by them).`;
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

// Moves played after this line in too few games to be book moves: each one a link that plays it.
function beyondLine(list) {
  const box = $("beyond");
  box.replaceChildren();
  box.hidden = !list.length;
  if (!list.length) return;
  box.appendChild(el("span", "played beyond the book (too few games for a book move): "));
  list.slice(0, 8).forEach((b, i) => {
    if (i) box.appendChild(document.createTextNode(", "));
    const link = el("a", b.move, "move");
    link.href = "#";
    link.addEventListener("click", (e) => { e.preventDefault(); play(b.move === "tenuki" ? "pass" : b.move); });
    box.appendChild(link);
    box.appendChild(document.createTextNode(` (${b.games} game${b.games === 1 ? "" : "s"})`));
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
  $("order-line").textContent = orderText(focus);
  candidateTable(shown);
  beyondLine(focus.beyond || []);
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
  if (!new URLSearchParams(location.search).has("seed")) state.seed = Math.floor(Math.random() * 1e9);
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

