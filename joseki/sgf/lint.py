"""``joseki lint``: what an editor of a collection file should look at before it goes into the book.

Findings, each with where it is (game, move number, the line's moves):

- ``duplicate``: two root-to-leaf paths give the same record (the same local moves, in
  any of the eight orientations, either colour first);
- ``transposition``: a record reaches the same position as another line by another order;
- ``outside-zone``: a move far from the line's corner (outside its zone), which the book
  reads as a tenuki;
- ``pass-first``, ``double-pass``, ``same-colour``, ``pass-then-same``: passes and colour
  sequences whose meaning is unclear (a line starting with a pass; both players passing;
  two moves of one colour in a row, which the book reads as a tenuki by the other; a pass
  followed by the same colour);
- ``illegal``: a move on an occupied point, or a suicide;
- and what the file's dialect flags (:mod:`joseki.sgf.dialects`) on passes (``untagged-pass``: in
  Pachi's, a pass without its ``<tenuki>`` or ``<later>`` tag) and on comments (``missing-label``:
  in free text, a label such as ``'c'`` that the node does not show).

A file that cannot be read raises ValueError; findings never do. Time and memory grow with the
file as importing it does: a line's moves are never copied move by move, and a finding keeps the
last :data:`SHOWN_MOVES` of them (``earlier`` counts the others).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from sgfmill import sgf_grammar

from joseki.core.conditions import sgf_points
from joseki.core.errors import BadInput
from joseki.core.geometry import Point, Transform, nearest_corner
from joseki.core.notation import format_gtp_vertex, parse_sgf_point
from joseki.core.position import LocalBoard, keys_along
from joseki.core.zone import ZONE_BOARD_SIZE, in_zone
from joseki.sgf.booknotes import book_notes
from joseki.sgf.dialects import dialect_named, lint_kinds
from joseki.sgf.dialects.dialect import Dialect
from joseki.sgf.forest import Forest, flatten_bytes, read_sgf_bytes
from joseki.sgf.setups import placements, stored_stones
from joseki.sgf.sgfparse import parse_collection
from joseki.sgf.text import SgfText

MOVE_KINDS = ("duplicate", "transposition", "outside-zone", "pass-first", "double-pass", "same-colour",
              "pass-then-same")
SHOWN_MOVES = 30


def kinds() -> tuple[str, ...]:
    """Every kind of finding, in the order counts are given: the line's, the dialects' on passes, illegal moves,
    the dialects' on comments."""
    passes, comments = lint_kinds()
    return *MOVE_KINDS, *passes, "illegal", *comments


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing to look at: its kind, what is wrong, and where.

    ``line``: the last moves of the line up to it (at most :data:`SHOWN_MOVES`), ``earlier`` the moves
    before those.
    """

    kind: str
    message: str
    game: int
    move: int | None = None
    line: tuple[str, ...] = ()
    earlier: int = 0

    def where(self) -> str:
        shown = ("...", *self.line) if self.earlier else self.line
        place = f"game {self.game + 1}" + (f", move {self.move}" if self.move is not None else "")
        return place + (f" ({' '.join(shown)})" if shown else "")

    def as_json(self) -> dict[str, object]:
        return {"kind": self.kind, "message": self.message, "game": self.game + 1, "move": self.move,
                "line": list(self.line), "earlier": self.earlier}


@dataclass(frozen=True, slots=True)
class _Line:
    """Where a line is: its last :data:`SHOWN_MOVES` moves and how many it has played."""

    recent: tuple[str, ...]
    count: int


def _then(line: _Line | None, move: str) -> _Line:
    if line is None:
        return _Line((move,), 1)
    return _Line((*line.recent[1 - SHOWN_MOVES :], move), line.count + 1)


def _at(line: _Line | None, kind: str, message: str, game: int, number: int) -> Finding:
    """A finding after the moves of ``line``, with the last :data:`SHOWN_MOVES` of them."""
    if line is None:
        return Finding(kind, message, game, number)
    return Finding(kind, message, game, number, line.recent, line.count - len(line.recent))


@dataclass(slots=True)
class LintReport:
    """The findings of one file."""

    path: str
    dialect: str
    records: int
    findings: list[Finding] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        found = Counter(f.kind for f in self.findings)
        return {kind: found[kind] for kind in kinds() if found[kind]}

    def as_json(self) -> dict[str, object]:
        return {"file": self.path, "dialect": self.dialect, "records": self.records, "counts": self.counts(),
                "findings": [f.as_json() for f in self.findings]}


def lint(path: Path | str) -> LintReport:
    """The findings of the collection file at ``path``; BadInput naming the file if it cannot be read."""
    path = Path(path)
    try:
        data = read_sgf_bytes(path)
        forest = flatten_bytes(data, str(path))
        games = parse_collection(data)
    except ValueError as exc:
        raise BadInput(f"{path}: {exc}") from None
    try:
        dialect = dialect_named(book_notes(forest).dialect)
    except ValueError as exc:
        raise BadInput(f"{path}: {exc}") from None
    report = LintReport(str(path), dialect.name, len(forest.variations))
    text = SgfText(forest.encoding, "declared")  # the charset the forest was read in
    for index, game in enumerate(games):
        report.findings.extend(_walk(game, index, dialect, text))
    report.findings.extend(_records(forest))
    return report


def _records(forest: Forest) -> list[Finding]:
    """Duplicate records (the same moves and setup stones) and records that transpose into another line
    (on a board without setup stones, where the moves alone make the position)."""
    found: list[Finding] = []
    seen: dict[tuple[str, str], str] = {}
    plain = []
    for v in forest.variations:
        record = (v.steps, stored_stones(placements(v), v.steps))
        if not record[1]:
            plain.append(v)
        if record in seen:
            found.append(Finding("duplicate", f"same record {v.steps}{' with its setup stones' if record[1] else ''}"
                                 f" as tree path {seen[record]}", v.game, None, (f"tree path {v.tree_path}",)))
        else:
            seen[record] = v.tree_path
    first = {steps: path for (steps, stones), path in seen.items() if not stones}
    keys = keys_along(v.steps for v in plain)
    by_key: dict[int, list[str]] = {}
    for steps, key in keys.items():
        by_key.setdefault(key, []).append(steps)
    games = {v.steps: v.game for v in plain}
    for steps in first:
        others = [s for s in by_key[keys[steps]] if s != steps]
        if others:
            found.append(Finding("transposition", f"record {steps} reaches the position of {min(others)} "
                                 f"({len(others)} other order{'s' if len(others) > 1 else ''})", games[steps]))
    return found


Frame = tuple[sgf_grammar.Coarse_game_tree, Transform | None, str | None, bool, int, _Line | None, LocalBoard]


def _walk(game: sgf_grammar.Coarse_game_tree, index: int, dialect: Dialect, text: SgfText) -> list[Finding]:
    """Move-by-move findings of one game tree, each node once."""
    found: list[Finding] = []
    stack: list[Frame] = [(game, None, None, False, 0, None, LocalBoard(ZONE_BOARD_SIZE))]
    while stack:
        tree, transform, last, passed, number, line, board = stack.pop()
        for props in tree.sequence:
            _setup(board, props)
            colour = "b" if "B" in props else "w" if "W" in props else None
            if colour is not None:
                number += 1
                raw = props["B" if colour == "b" else "W"][0].decode("ascii", "replace")
                try:
                    point = parse_sgf_point(raw, ZONE_BOARD_SIZE)
                except ValueError:
                    point = None
                name = f"{'B' if colour == 'b' else 'W'} {format_gtp_vertex(point)}"
                line = _then(line, name)
                if transform is None and point is not None:
                    transform = Transform(nearest_corner(point, ZONE_BOARD_SIZE))
                found.extend(_move(colour, point, last, passed, transform, props, dialect, index, number, line,
                                   text))
                if point is not None:
                    try:
                        board.play(colour, point)
                    except ValueError as exc:
                        problem = "is suicide" if "suicide" in str(exc) else "is on an occupied point"
                        found.append(_at(line, "illegal", f"{name} {problem}", index, number))
                        board.play(colour, point, lenient=True)
                passed = point is None
                last = colour
            if dialect.comment_kinds and "C" in props:
                found.extend(_comment_findings(dialect, props, index, number, line, text))
        children = tree.children
        for i in range(len(children) - 1, -1, -1):
            stack.append((children[i], transform, last, passed, number, line, board if i == 0 else board.copy()))
    return found


def _move(colour: str, point: Point | None, last: str | None, passed: bool, transform: Transform | None,
          props: dict[str, list[bytes]], dialect: Dialect, game: int, number: int,
          line: _Line | None, text: SgfText) -> list[Finding]:
    found = []
    who = "Black" if colour == "b" else "White"
    if point is None:
        if transform is None:
            found.append(_at(line, "pass-first", f"{who} passes before the line's first move", game, number))
        elif passed and last != colour:
            found.append(_at(line, "double-pass", "both players pass: the book cannot tell who played elsewhere",
                             game, number))
        if dialect.pass_kinds:
            found.extend(_at(line, kind, message, game, number)
                         for kind, message in dialect.pass_findings(_comment(props, text), who))
    elif last == colour:
        kind = "pass-then-same" if passed else "same-colour"
        said = (f"{who} passes, then plays again" if passed
                else f"two {who} moves in a row: read as a tenuki by {'White' if colour == 'b' else 'Black'}")
        found.append(_at(line, kind, said, game, number))
    if point is not None and transform is not None and not in_zone(transform.to_zone(point, ZONE_BOARD_SIZE)):
        found.append(_at(line, "outside-zone", f"{who} {format_gtp_vertex(point)} is outside the "
                         f"{transform.corner.value} zone: read as a tenuki", game, number))
    return found


def _setup(board: LocalBoard, props: dict[str, list[bytes]]) -> None:
    """Put a node's setup stones (AB, AW) on the board and take its AE points off."""
    for key, colour in (("AE", None), ("AB", "b"), ("AW", "w")):
        for value in props.get(key, ()):
            try:
                points = sgf_points(value.decode("ascii", "replace"))
            except ValueError:
                continue
            for point in points:
                board.stones.pop(point, None)
                if colour is not None:
                    board.stones[point] = colour


def _comment(props: dict[str, list[bytes]], text: SgfText) -> str:
    return text.text(props["C"][0], "C") if "C" in props else ""


def _comment_findings(dialect: Dialect, props: dict[str, list[bytes]], game: int, number: int,
                      line: _Line | None, text: SgfText) -> list[Finding]:
    """What the dialect flags in a node's comment, given the labels the node shows."""
    shown = {text.decode(v).partition(":")[2].strip().lower() for v in props.get("LB", [])}
    return [_at(line, kind, message, game, number) for kind, message in dialect.comment_findings(
        _comment(props, text), shown)]
