"use strict";
// The views drawn from the API's answers: explore (with the games behind a position), review, practise, search.
// Every text from the store or an SGF file is set as textContent; the one exception is a comment's "html",
// which the server made safe (Markdown with raw HTML off) and which is inserted only through safeHtml's
// allow-list. State and controls are in app.js.

// ---- drawing ----
function drawStones(stones, last) {
  board.clear();
  for (const colour of ["black", "white"]) {
    for (const p of stones[colour]) board.stone(p, colour, p === last);
  }
}

// Only lettered candidates are drawn: the server letters no candidate on a stone.
function drawCandidates(list, dim) {
  let drawn = 0;
  for (const c of list) if (c.point && c.label && !c.occupied) { board.candidate(c.point, c.label, c.category, dim); drawn++; }
  return drawn;
}

function legend() {
  const box = $("legend");
  box.replaceChildren();
  for (const [category, colour] of Object.entries(CATEGORY_COLOURS)) {
    const item = el("span", null, "legend-item");
    const swatch = el("span", null, "swatch");
    swatch.style.background = colour;
    item.appendChild(swatch);
    item.appendChild(document.createTextNode(CATEGORY_NAMES[category] || category));
    box.appendChild(item);
  }
  const silent = el("span", null, "legend-item");
  const grey = el("span", null, "swatch");
  grey.style.background = categoryColour(null);
  silent.appendChild(grey);
  silent.appendChild(document.createTextNode("no verdict"));
  box.appendChild(silent);
  for (const [cls, text] of [["ring", "a point a condition names"], ["square", "a point a comment names"]]) {
    const item = el("span", null, "legend-item");
    item.appendChild(el("span", null, "swatch " + cls));
    item.appendChild(document.createTextNode(text));
    box.appendChild(item);
  }
}

// A corner's state; "lettered" only when the book's moves where it left the book are drawn on the board.
function stateText(corner, lettered) {
  const who = corner.to_move === "black" ? "Black" : "White";
  const names = {"in-book": "in book", "left-book": "out of book", empty: "empty corner",
    "tenuki-variation": "in book (a tenuki variation)", "interrupted": "interrupted (tenuki)",
    "in-book-by-transposition": "in book by transposition"};
  let text = `${corner.corner}: ${names[corner.state] || corner.state}, ${who} to play`;
  if (corner.left_at) {
    const after = (corner.book_moves || []).join(" ") || "the empty corner";
    const offered = (corner.alternatives || []).filter((c) => c.point && c.label && !c.occupied).length;
    text += `. Left the book at local move ${corner.left_at} (${corner.left_move}); the book's moves there, after ${after}, ` +
      (lettered && offered ? "are lettered." : offered ? `are ${offered} (listed, not lettered here).` : "are none on an empty point.");
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
  const region = corner.similar_games && corner.similar_games !== corner.context_games ?
    `, ${games(corner.similar_games)} in its region` : "";
  if (corner.order === "context") return text + ` Ranked by ${games(corner.context_games)} in this whole-board context${region}.`;
  if (state.rank === "context") return text + ` The whole-board context has ${games(corner.context_games)}${region}: it orders nothing.`;
  if (corner.context_games) return text + ` Whole-board context: ${games(corner.context_games)}${region} (the order "whole-board context" ranks by them).`;
  return text + ` Whole-board context: ${games(0)}${region}.`;
}

// Results in the players' colours, as the lichess explorer shows them: Black wins, draws, White wins.
function results(c, mover) {
  const black = mover === "black" ? c.wins : c.losses, white = mover === "black" ? c.losses : c.wins;
  return {black, draws: c.draws || 0, white, total: c.corners || 0};
}

function winBar(c, mover) {
  const cell = el("td", null, "winrate");
  const r = results(c, mover);
  if (!r.total) return cell;
  const bar = el("span", null, "bar");
  for (const [part, n] of [["black-wins", r.black], ["draw", r.draws], ["white-wins", r.white]]) {
    if (!n) continue;
    const seg = el("span", null, part);
    seg.style.width = (100 * n / r.total) + "%";
    bar.appendChild(seg);
  }
  cell.title = `Black wins ${r.black}, draws ${r.draws}, White wins ${r.white} (of ${r.total} corners with a result)`;
  cell.appendChild(bar);
  cell.appendChild(el("span", ` ${r.black} / ${r.draws} / ${r.white}`, "counts"));
  return cell;
}

const COLUMNS_SHOWN = [
  ["", "the candidate's letter on the board"],
  ["move", "the move (click to play it)"],
  ["games", "games that played the move (learnt or mined)"],
  ["in context", "games that played it in this whole-board context"],
  ["Black / draws / White", "results of the corners that played the move: Black wins / draws / White wins"],
  ["paths", "book variations through the move, over the collections"],
  ["priority", "the move's chance to win, from its results and the collections' verdicts (0.5: even)"],
  ["category", "the collections' verdict (their names where they differ)"],
  ["conditions", "what the line needs on the board, as the collections state it"],
  ["fav.", "favourability of the move's main line for the player to move (influence model; + is good)"],
];

function candidateHeader(context) {
  const head = $("candidates").tHead;
  head.replaceChildren();
  const row = head.insertRow();
  for (const [name, title] of COLUMNS_SHOWN) {
    if (name === "in context" && !context) continue;
    const th = el("th", name);
    th.title = title;
    row.appendChild(th);
  }
}

function candidateTable(list, corner) {
  const context = corner.statistics !== undefined && corner.context_games > 0;
  candidateHeader(context);
  const body = $("candidates").tBodies[0];
  body.replaceChildren();
  if (!list.length) {
    const row = body.insertRow();
    const cell = el("td", "the book has no move here", "none");
    cell.colSpan = COLUMNS_SHOWN.length;
    row.appendChild(cell);
    return;
  }
  for (const c of list) {
    const row = body.insertRow();
    row.className = "candidate-row" + (c.occupied ? " occupied" : "");
    row.dataset.move = c.move;
    const label = el("td", c.label || "", "label");
    label.style.color = categoryColour(c.category);
    row.appendChild(label);
    const move = el("td");
    if (c.occupied) {
      move.appendChild(el("span", c.move));
      move.appendChild(el("span", " (on a stone)", "note"));
    } else {
      const link = el("a", c.move, "move");
      link.href = "#";
      link.addEventListener("click", (e) => { e.preventDefault(); play(c.move === "tenuki" ? "pass" : c.move); });
      move.appendChild(link);
    }
    row.appendChild(move);
    row.appendChild(el("td", c.games, "num"));
    if (context) row.appendChild(el("td", c.context_games || 0, "num"));
    row.appendChild(winBar(c, corner.to_move));
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

// A comment's safe HTML as nodes: only the server's allowed tags survive (anything else becomes its text),
// links only to http(s) pages, opened without the page's opener.
const ALLOWED_TAGS = new Set(["P", "BR", "H1", "H2", "H3", "H4", "H5", "H6", "EM", "STRONG", "UL", "OL", "LI",
  "CODE", "PRE", "A", "BLOCKQUOTE", "HR"]);
function safeHtml(html) {
  const parsed = new DOMParser().parseFromString(html, "text/html").body;
  const out = document.createDocumentFragment();
  const copy = (from, into) => {
    for (const node of from.childNodes) {
      if (node.nodeType === Node.TEXT_NODE) { into.appendChild(document.createTextNode(node.textContent)); continue; }
      if (node.nodeType !== Node.ELEMENT_NODE) continue;
      if (!ALLOWED_TAGS.has(node.tagName)) { into.appendChild(document.createTextNode(node.textContent)); continue; }
      const made = document.createElement(node.tagName.toLowerCase());
      if (node.tagName === "A") {
        const href = node.getAttribute("href") || "";
        if (/^https?:\/\//i.test(href)) { made.href = href; made.rel = "noopener noreferrer"; made.target = "_blank"; }
      }
      copy(node, made);
      into.appendChild(made);
    }
  };
  copy(parsed, out);
  return out;
}

function comments(line) {
  const box = $("comments");
  box.replaceChildren();
  if (!line || !line.moves) return;
  const last = line.moves[line.moves.length - 1];
  if (!last) return;
  for (const c of last.comments) {
    const item = el("div", null, "words");
    item.appendChild(el("div", c.collection, "source"));
    const body = el("div", null, "body");
    body.appendChild(safeHtml(c.html || ""));
    item.appendChild(body);
    if (c.summary !== undefined && c.summary !== c.text) {
      body.classList.add("folded");
      const more = el("button", "more", "more");
      more.type = "button";
      more.addEventListener("click", () => {
        const folded = body.classList.toggle("folded");
        more.textContent = folded ? "more" : "less";
      });
      item.appendChild(more);
    }
    box.appendChild(item);
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
    setup: setupOf(state.setup), ...common()});
  if (number !== requestNumber) return;
  $("clear-setup").hidden = !state.setup.length;
  const last = state.moves.length ? state.moves[state.moves.length - 1] : null;
  const lastPoint = last && last !== "pass" ? xyToSgf(...gtpToXY(last)) : null;
  drawStones(data.board, lastPoint);
  const focus = data.corners.find((c) => c.corner === data.focus) || data.corners[0];
  const shown = focus.candidates.length || !focus.alternatives ? focus.candidates : focus.alternatives;
  for (const c of data.corners) if (c !== focus) drawCandidates(c.candidates.length ? c.candidates : (c.alternatives || []), true);
  const lettered = drawCandidates(shown, false);
  for (const c of shown) for (const p of c.named || []) board.mark(p, "condition");
  $("state").textContent = stateText(focus, shown === focus.alternatives && lettered > 0);
  $("order-line").textContent = orderText(focus);
  candidateTable(shown, focus);
  beyondLine(focus.beyond || []);
  comments(data.line);
  const others = $("others");
  others.replaceChildren();
  for (const c of data.corners) if (c !== focus) others.appendChild(el("p", stateText(c, !c.candidates.length), "other-corner"));
  pathList(state.moves, (n) => { state.future = state.moves.slice(n).concat(state.future); state.moves = state.moves.slice(0, n); refresh(); });
  $("corner-label").hidden = state.moves.length > 0;
  await games(focus, number);
}

function mappedText(g, focus) {
  const m = g.mapped || {};
  const notes = [];
  if (m.corner) notes.push("another corner");
  if (m.colours) notes.push("colours swapped");
  if (m.reflected) notes.push("reflected");
  if (m.known === false) notes.push("record unreadable");
  return g.corner + (notes.length ? ` (${notes.join(", ")})` : "");
}

async function games(focus, number) {
  const box = $("games-box");
  if (!state.moves.length) { box.hidden = true; return; }
  const f = state.filters;
  let data;
  try {
    data = await api("/api/games", {moves: state.moves.join(","), first: state.first, profile: state.profile,
      order: state.order, limit: 20, setup: setupOf(state.setup), player: f.player, rank: f.rank, since: f.since, until: f.until, result: f.result});
  } catch (e) {
    if (number !== requestNumber) return;
    box.hidden = false;
    $("games-count").textContent = e.message;
    $("games").tBodies[0].replaceChildren();
    return;
  }
  if (number !== requestNumber) return;
  const filtered = data.matched !== undefined;
  box.hidden = data.count === 0 && !filtered;
  const n = data.count, s = (k) => (k === 1 ? "" : "s");
  let text = `${n} game${s(n)} reached this position (${focus.corner} corner; games in other corners and colours are mapped onto it)`;
  if (filtered) text += `; of the games the store keeps for it, ${data.matched} pass the filters`;
  if (data.games.length < (filtered ? data.matched : n)) text += ` (the first ${data.games.length} shown)`;
  $("games-count").textContent = text + ".";
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
    row.appendChild(el("td", mappedText(g, focus), "mapped"));
    row.appendChild(el("td", g.move_number));
    row.dataset.key = g.key;
    row.title = String(g.source || "").split("/").pop();
    row.addEventListener("click", () => openStoreGame(g.key, g.move_number));
  }
}

function play(move) {
  if (state.view === "practise") return practiseMove(move);
  if (state.view === "search") return searchClick(move);
  if (state.view === "review") return;
  state.moves.push(move);
  state.future = [];
  refresh();
}

// ---- review ----
function played(n) {
  return state.game.moves.slice(0, n).map(([c, p]) => c + p).join("");
}
function setupOf(stones) {
  return (stones || []).map(([c, p]) => c + p).join("");
}
function setupText() {
  return setupOf(state.game.setup);
}

async function openStoreGame(key, move) {
  try {
    const data = await api("/api/game/" + encodeURIComponent(key));
    state.game = data.game;
    state.gameKey = key;
    state.gameMove = Math.min(move || 0, data.game.moves.length);
    setView("review");
  } catch (e) {
    showError(e.message);
  }
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

// The game's moves up to the one shown, as the explorer takes them (GTP points, "pass"), after its setup stones.
function exploreMoves() {
  const g = state.game;
  if (!g) return null;
  return g.moves.slice(0, Math.min(state.gameMove, g.moves.length)).map(([c, p]) => (p === "tt" ? "pass" : xyToGtp(...sgfToXY(p))));
}

function exploreHere() {
  const moves = exploreMoves();
  if (!moves) return;
  state.first = state.game.moves.length && state.game.moves[0][0] === "w" ? "white" : "black";
  state.setup = (state.game.setup || []).slice();
  state.moves = moves;
  state.future = [];
  setView("explore");
}

async function review() {
  const number = ++requestNumber;
  const body = $("review-corners").tBodies[0];
  if (state.gameKey && !state.game) {
    const data = await api("/api/game/" + encodeURIComponent(state.gameKey));
    state.game = data.game;
  }
  if (!state.game) {
    body.replaceChildren();
    board.clear();
    $("game-info").textContent = "No game open: upload an SGF file, or pick a game in the explorer.";
    $("explore-here").hidden = true;
    $("review-note").textContent = "";
    return;
  }
  const g = state.game, n = Math.min(state.gameMove, g.moves.length);
  const setup = g.setup && g.setup.length ? `; ${g.setup.length} setup stone${g.setup.length === 1 ? "" : "s"}` : "";
  $("game-info").textContent = `${g.black || "?"} (Black) vs ${g.white || "?"} (White), ${g.result || "no result"}${setup}; ${String(g.source || "").split("/").pop()}`;
  const slider = $("move-slider");
  slider.max = String(g.moves.length);
  slider.value = String(n);
  $("move-number").textContent = `move ${n} of ${g.moves.length}`;
  $("explore-here").hidden = false;
  const data = await api("/api/review", {game: played(g.moves.length), setup: setupText(), move: n, ...common()});
  if (number !== requestNumber) return;  // a later move was asked for: never draw this one's letters
  const last = n ? g.moves[n - 1][1] : null;
  drawStones(data.board, last === "tt" ? null : last);
  body.replaceChildren();
  let lettered = 0;
  for (const c of data.corners) {
    const offered = c.alternatives && c.left_at ? c.alternatives : c.candidates;
    const drawn = c.corner === data.focus || c.left_at ? drawCandidates(offered, c.corner !== data.focus) : 0;
    lettered += drawn;
    const row = body.insertRow();
    row.className = "review-corner " + c.state;
    row.appendChild(el("td", c.corner));
    row.appendChild(el("td", stateText(c, offered === c.alternatives && drawn > 0)));
    row.appendChild(el("td", c.moves.join(" ")));
    row.appendChild(el("td", offered.map((x) => (x.label && !x.occupied ? x.label + " " : "") + x.move +
      (x.occupied ? " (on a stone)" : "")).join(", ")));
  }
  $("review-note").textContent = lettered ? "The book's moves are lettered on the board (faint: another corner's)." :
    "No book move is lettered here.";
  comments(data.line);
  pathList(g.moves.slice(0, n).map(([c, p]) => (p === "tt" ? "pass" : xyToGtp(...sgfToXY(p)))),
    (k) => { state.gameMove = k; refresh(); });
}

// ---- practise ----
async function practiseStart() {
  state.moves = [];
  state.verdicts = [];
  state.practiseOver = false;
  if (!new URLSearchParams(location.search).has("seed")) state.seed = Math.floor(Math.random() * 1e9);
  if (state.practiseColour !== state.first) {  // the book moves first: its first move by its own policy
    try {
      const data = await api("/api/practise", {moves: "", first: state.first, corner: state.corner,
        collection: state.collections, profile: state.profile, seed: state.seed});
      if (data.reply) state.moves.push(data.reply.move);
      else state.practiseOver = true;
    } catch (e) {
      showError(e.message);
    }
  }
  refresh();
}

async function practiseMove(move) {
  if (state.practiseOver) {
    $("practise-note").textContent = "The book's line has ended: restart to practise again.";
    return;
  }
  const moves = state.moves.concat([move]);
  let data;
  try {
    data = await api("/api/practise", {moves: moves.join(","), first: state.first,
      collection: state.collections, profile: state.profile, seed: state.seed + moves.length});
  } catch (e) {
    showError(e.message);  // every refusal (a stone on a stone, a suicide, a ko) is said on the page
    return;
  }
  state.moves = moves;
  if (data.reply) state.moves.push(data.reply.move);
  state.verdicts.push({...data.judgement, reply: data.reply});
  if (data.line_ends) state.practiseOver = true;
  refresh();
}

async function practise() {
  const number = ++requestNumber;
  const last = state.moves.length ? state.moves[state.moves.length - 1] : null;
  const data = await api("/api/explore", {moves: state.moves.join(","), first: state.first, corner: state.corner,
    ...common()});
  if (number !== requestNumber) return;
  drawStones(data.board, last && last !== "pass" ? xyToSgf(...gtpToXY(last)) : null);
  const list = $("verdicts");
  list.replaceChildren();
  let inBook = 0;
  for (const v of state.verdicts) {
    if (v.in_book) inBook++;
    const move = v.tenuki ? `${v.move === "pass" ? "" : v.move + ", "}tenuki` : v.move;
    let text = `${move}: ` + (v.in_book ? `in book${v.category_label ? " (" + v.category_label + ")" : ""}` : "not in the book");
    if (v.more_popular.length) text += `; more popular: ${v.more_popular.join(", ")}`;
    text += !v.reply ? ". The book has no answer here: its line ends." :
      v.reply.tenuki ? ". The book plays elsewhere (tenuki)." : `. The book answers ${v.reply.move}.`;
    list.appendChild(el("li", text, "verdict " + (v.in_book ? "good" : "bad")));
  }
  $("score").textContent = state.verdicts.length ? `score: ${inBook} of ${state.verdicts.length} moves in book` : "Play a move.";
  $("practise-note").textContent = state.practiseOver ?
    (state.verdicts.length ? "The book's line has ended: the score is final. Restart to practise again." :
      "The book has no first move here: restart with other collections.") : "";
  pathList(state.moves, () => {});
}

// ---- search ----
const SEARCH_COLOUR = "#2a6fdb";
const PLACE_WORDS = {anywhere: "anywhere on the board", at: "only where drawn"};
let searchShown = null;  // the answer drawn, while the pattern drawn is the one it answers

function placeText(place) {
  const [kind, name] = place.split(":");
  return kind === "corner" ? `in the ${name} corner, as drawn` : kind === "side" ? `along the ${name} side` : PLACE_WORDS[kind];
}

// The pattern as drawn (``preview``: a region being dragged), and over it the answer when it is the drawn one's.
function drawSearch(preview) {
  const s = state.search;
  const current = searchShown && JSON.stringify(searchParams(s)) === JSON.stringify(searchShown.params);
  board.clear();
  const r = preview || s.region;
  board.region(r[0], r[1], r[2], r[3], preview ? "preview" : "");
  for (const [p, ch] of Object.entries(s.letters)) {
    const [x, y] = sgfToXY(p);
    if (x < r[0] || x > r[2] || y < r[1] || y > r[3]) continue;
    if (ch === "X" || ch === "O") board.stone(p, ch === "X" ? "black" : "white");
    else board.mark(p, ch === "*" ? "any" : ch);
  }
  $("s-placement").value = s.place;
  $("s-fixed-colour").checked = s.fixedColour;
  $("s-fixed-orientation").checked = s.fixedOrientation;
  const [w, h] = regionSize(r);
  $("s-pattern").textContent = `Pattern ${w}x${h}, ${xyToGtp(r[0], r[1])} to ${xyToGtp(r[2], r[3])}, found ${placeText(s.place)}` +
    `${s.fixedColour ? ", colours as drawn" : ""}${s.fixedOrientation ? ", orientation as drawn" : ""}: ${searchRows({...s, region: r}).join(" / ")}`;
  $("s-results").hidden = !current;
  $("s-note").textContent = preview ? "Release to set the region." : current ? "" :
    s.ran ? "The pattern has changed: press Search." : "Draw a pattern and press Search.";
  if (!current || preview) return;
  const data = searchShown.data;
  const sequence = data.sequence;
  for (const m of sequence) board.stone(m.point, m.colour === "B" ? "black" : "white", m === sequence[sequence.length - 1]);
  for (const c of data.continuations) {
    if (c.occupied) continue;  // never a letter on a stone
    const g = board.candidate(c.point, c.label, null);
    g.querySelector("circle").setAttribute("fill", SEARCH_COLOUR);
    g.classList.add("continuation");
  }
}

function searchFormValues() {
  const f = state.search.filters;
  $("s-player").value = f.player;
  $("s-min-rank").value = f.min_rank;
  $("s-from").value = f.from;
  $("s-to").value = f.to;
  $("s-result").value = f.result;
  $("s-event").value = f.event;
  $("s-limit").value = String(state.search.limit);
}

async function search() {
  const number = ++requestNumber;
  searchFormValues();
  const s = state.search;
  if (!s.ran) { searchShown = null; drawSearch(null); return; }
  const params = s.ran;
  let data;
  try {
    data = await api("/api/search", params);
  } catch (e) {
    if (number !== requestNumber) return;
    searchShown = null;
    drawSearch(null);
    $("s-note").textContent = "";
    throw e;
  }
  if (number !== requestNumber) return;
  searchShown = {params, data};
  drawSearch(null);
  searchResults(data);
}

function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }

function searchResults(data) {
  const after = $("s-after");
  after.textContent = data.sequence.length ? "" : "the pattern (no move followed yet)";
  const list = $("s-sequence");
  list.replaceChildren();
  data.sequence.forEach((m, i) => {
    const item = el("li");
    const link = el("a", `${i + 1}. ${m.colour === "B" ? "Black" : "White"} ${m.vertex}`, "move");
    link.href = "#";
    link.title = "back to the search after this move";
    link.addEventListener("click", (e) => { e.preventDefault(); followBack(i + 1); });
    item.appendChild(link);
    list.appendChild(item);
  });
  if (data.sequence.length) {
    const item = el("li");
    const link = el("a", "(back to the pattern)", "move");
    link.href = "#";
    link.addEventListener("click", (e) => { e.preventDefault(); followBack(0); });
    item.appendChild(link);
    list.appendChild(item);
  }
  const seconds = data.seconds < 1 ? `${Math.round(data.seconds * 1000)} ms` : `${data.seconds.toFixed(1)} s`;
  $("s-summary").textContent = `${plural(data.games, "game")} with a hit, ${plural(data.hits, "hit")} in all ` +
    `(a hit: a move with which the pattern came into being; a game may have several), of ${plural(data.searched, "game")} ` +
    `searched (${seconds}).` + (data.continuations.length ? " Continuations: the first move played next inside the region, most played first." :
      " No move was played next inside the region.");
  const body = $("s-continuations").tBodies[0];
  body.replaceChildren();
  for (const c of data.continuations) {
    const row = body.insertRow();
    row.className = "candidate-row";
    row.dataset.move = c.vertex;
    const label = el("td", c.label, "label");
    label.style.color = SEARCH_COLOUR;
    row.appendChild(label);
    const majority = c.black >= c.white ? "B" : "W";
    const move = el("td");
    const link = el("a", c.vertex, "move follow");
    link.href = "#";
    link.title = `follow ${majority === "B" ? "Black" : "White"}'s ${c.vertex}`;
    link.addEventListener("click", (e) => { e.preventDefault(); follow(`${majority}:${c.vertex}`); });
    move.appendChild(link);
    if (c.occupied) move.appendChild(el("span", " (on a stone)", "note"));
    row.appendChild(move);
    for (const [colour, n] of [["B", c.black], ["W", c.white]]) {
      const cell = el("td", null, "num");
      if (n) {
        const a = el("a", n, "move follow-" + colour);
        a.href = "#";
        a.title = `follow ${colour === "B" ? "Black" : "White"}'s ${c.vertex}`;
        a.addEventListener("click", (e) => { e.preventDefault(); follow(`${colour}:${c.vertex}`); });
        cell.appendChild(a);
      } else cell.textContent = "0";
      row.appendChild(cell);
    }
    row.appendChild(searchBar(c));
    row.appendChild(el("td", c.after_tenuki, "num"));
    row.addEventListener("mouseenter", () => highlight(c.point, true));
    row.addEventListener("mouseleave", () => highlight(c.point, false));
  }
  const shown = data.results.length;
  $("s-games-count").textContent = shown ? `Games with a hit, newest first: ${shown < data.games ? `the first ${shown} of ${data.games}` : `all ${data.games}`}.` : "";
  const games = $("s-games").tBodies[0];
  games.replaceChildren();
  for (const g of data.results) {
    const row = games.insertRow();
    row.className = "game-row";
    row.dataset.key = g.key;
    const rank = (r) => (r ? ` (${r})` : "");
    row.appendChild(el("td", (g.black || "?") + rank(g.black_rank)));
    row.appendChild(el("td", (g.white || "?") + rank(g.white_rank)));
    row.appendChild(el("td", g.date || ""));
    row.appendChild(el("td", g.result || ""));
    row.appendChild(el("td", g.event || ""));
    const hits = el("td", null, "hits");
    g.hits.forEach((h, i) => {
      if (i) hits.appendChild(document.createTextNode("; "));
      const a = el("a", h.move_number ? `move ${h.move_number}` : "the start", "move hit");
      a.href = "#";
      a.dataset.move = String(h.move_number);
      a.title = "open the game at this move";
      a.addEventListener("click", (e) => { e.preventDefault(); openStoreGame(g.key, h.move_number); });
      hits.appendChild(a);
      const notes = [h.orientation];
      if (h.swapped) notes.push("colours swapped");
      if (h.next_vertex) notes.push(`next ${h.next_vertex} at move ${h.next_move}`);
      hits.appendChild(document.createTextNode(` (${notes.join(", ")})`));
    });
    row.appendChild(hits);
    row.title = String(g.source || "").split("/").pop();
  }
}

// How the times a continuation was played ended: Black played it and won, other results, White played it and won.
function searchBar(c) {
  const cell = el("td", null, "winrate");
  const total = c.black + c.white;
  if (!total) return cell;
  const other = total - c.black_wins - c.white_wins;
  const bar = el("span", null, "bar");
  for (const [part, n] of [["black-wins", c.black_wins], ["other", other], ["white-wins", c.white_wins]]) {
    if (!n) continue;
    const seg = el("span", null, part);
    seg.style.width = (100 * n / total) + "%";
    bar.appendChild(seg);
  }
  cell.title = `of ${total} times played: Black played it and won ${c.black_wins}, White played it and won ${c.white_wins}, ` +
    `other results ${other} (the mover lost, a draw, or no result)`;
  cell.appendChild(bar);
  cell.appendChild(el("span", ` ${c.black_wins} / ${other} / ${c.white_wins}`, "counts"));
  return cell;
}
