"use strict";
// A 19x19 Go board drawn as SVG: stones, lettered candidates, marks; clicks report the point.
const SVG = "http://www.w3.org/2000/svg";
const SIZE = 19, CELL = 30, MARGIN = 30;
const COLUMNS = "ABCDEFGHJKLMNOPQRST";
const CATEGORY_COLOURS = {ideal: "#1b7f2a", good: "#2a6fdb", "tenuki-ok": "#7a4fc4", question: "#b8860b",
  trick: "#e07000", mistake: "#c62828"};

function sgfToXY(p) { return [p.charCodeAt(0) - 97, p.charCodeAt(1) - 97]; }
function xyToSgf(x, y) { return String.fromCharCode(97 + x) + String.fromCharCode(97 + y); }
function xyToGtp(x, y) { return COLUMNS[x] + String(SIZE - y); }
function gtpToXY(v) {
  const x = COLUMNS.indexOf(v[0].toUpperCase());
  return [x, SIZE - parseInt(v.slice(1), 10)];
}
const CATEGORY_NAMES = {ideal: "ideal", good: "good", "tenuki-ok": "tenuki is fine", question: "questionable",
  trick: "trick", mistake: "mistake"};
function categoryColour(c) { return CATEGORY_COLOURS[c] || "#555"; }

function svgNode(tag, attrs, parent) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

class Board {
  constructor(container, onClick) {
    const full = 2 * MARGIN + (SIZE - 1) * CELL;
    this.svg = svgNode("svg", {viewBox: `0 0 ${full} ${full}`, id: "goban", role: "img",
      "aria-label": "Go board"}, container);
    svgNode("rect", {x: 0, y: 0, width: full, height: full, class: "wood"}, this.svg);
    const lines = svgNode("g", {class: "lines"}, this.svg);
    for (let i = 0; i < SIZE; i++) {
      const a = MARGIN + i * CELL, end = MARGIN + (SIZE - 1) * CELL;
      svgNode("line", {x1: MARGIN, y1: a, x2: end, y2: a}, lines);
      svgNode("line", {x1: a, y1: MARGIN, x2: a, y2: end}, lines);
      const top = svgNode("text", {x: a, y: MARGIN - 16, class: "coord"}, lines);
      top.textContent = COLUMNS[i];
      const left = svgNode("text", {x: MARGIN - 20, y: a + 4, class: "coord"}, lines);
      left.textContent = String(SIZE - i);
    }
    for (const x of [3, 9, 15]) for (const y of [3, 9, 15]) {
      svgNode("circle", {cx: MARGIN + x * CELL, cy: MARGIN + y * CELL, r: 3, class: "hoshi"}, lines);
    }
    this.layer = svgNode("g", {}, this.svg);
    this.hits = svgNode("g", {class: "hits"}, this.svg);
    for (let x = 0; x < SIZE; x++) for (let y = 0; y < SIZE; y++) {
      const r = svgNode("rect", {x: MARGIN + (x - 0.5) * CELL, y: MARGIN + (y - 0.5) * CELL, width: CELL,
        height: CELL, class: "hit", id: "pt-" + xyToSgf(x, y), "data-point": xyToSgf(x, y)}, this.hits);
      r.addEventListener("click", () => onClick(x, y));
      r.addEventListener("mousedown", (e) => { if (this.onDrag) { e.preventDefault(); this.dragFrom = [x, y]; } });
      r.addEventListener("mouseenter", () => { if (this.onDrag && this.dragFrom) this.onDrag(this.dragFrom, [x, y], false); });
      r.addEventListener("mouseup", () => {
        const from = this.dragFrom;
        this.dragFrom = null;
        if (this.onDrag && from && (from[0] !== x || from[1] !== y)) this.onDrag(from, [x, y], true);
      });
    }
    // A drag from one point to another (a press, a move, a release elsewhere): onDrag(from, to, done), told while
    // it moves and once when released; a press and release on one point stays a click.
    this.onDrag = null;
    this.dragFrom = null;
    document.addEventListener("mouseup", () => { this.dragFrom = null; });
  }

  // The rectangle of points from (x0, y0) to (x1, y1), shaded under the stones.
  region(x0, y0, x1, y1, cls) {
    svgNode("rect", {x: MARGIN + (x0 - 0.5) * CELL, y: MARGIN + (y0 - 0.5) * CELL, width: (x1 - x0 + 1) * CELL,
      height: (y1 - y0 + 1) * CELL, class: "region" + (cls ? " " + cls : ""), "data-from": xyToSgf(x0, y0),
      "data-to": xyToSgf(x1, y1)}, this.layer);
  }

  clear() { this.layer.replaceChildren(); }

  stone(point, colour, last) {
    const [x, y] = sgfToXY(point);
    const g = svgNode("circle", {cx: MARGIN + x * CELL, cy: MARGIN + y * CELL, r: CELL / 2 - 1,
      class: "stone " + colour, "data-point": point}, this.layer);
    if (last) {
      svgNode("circle", {cx: MARGIN + x * CELL, cy: MARGIN + y * CELL, r: CELL / 5,
        class: "last " + (colour === "black" ? "on-black" : "on-white")}, this.layer);
    }
    return g;
  }

  candidate(point, label, category, dim) {
    const [x, y] = sgfToXY(point);
    const cx = MARGIN + x * CELL, cy = MARGIN + y * CELL;
    const g = svgNode("g", {class: "candidate" + (dim ? " dim" : ""), "data-point": point,
      "data-label": label || ""}, this.layer);
    const disc = svgNode("circle", {cx, cy, r: CELL / 2 - 3, class: "candidate-disc"}, g);
    disc.setAttribute("fill", categoryColour(category));
    const t = svgNode("text", {x: cx, y: cy + 5, class: "candidate-label"}, g);
    t.textContent = label || "";
    return g;
  }

  // A point a comment or condition names: a ring around the point (a condition) or a small square in its
  // top-right corner (a comment), so a candidate's letter or a stone always stays readable.
  mark(point, kind) {
    const [x, y] = sgfToXY(point);
    const cx = MARGIN + x * CELL, cy = MARGIN + y * CELL;
    if (kind === "x" || kind === "o" || kind === "any") {  // a pattern letter that is not one colour: a small triangle
      const s = CELL / 3, left = cx - CELL / 2 + 1, top = cy - CELL / 2 + 1;
      svgNode("path", {d: `M${left} ${top}h${s}l${-s} ${s}z`, class: "mark letter-mark letter-" + kind,
        "data-point": point}, this.layer);
    } else if (kind === "comment") {
      const s = CELL / 5;
      svgNode("rect", {x: cx + CELL / 2 - s - 1, y: cy - CELL / 2 + 1, width: s, height: s,
        class: "mark comment-mark", "data-point": point}, this.layer);
    } else {
      svgNode("circle", {cx, cy, r: CELL / 2 - 1, class: "mark condition-mark", "data-point": point}, this.layer);
    }
  }
}
