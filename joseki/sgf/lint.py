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
- ``untagged-pass``: in Pachi's dialect, a pass without its ``<tenuki>`` or ``<later>`` tag;
- ``illegal``: a move on an occupied point, or a suicide;
- ``missing-label``: a comment names a label (``'c'``) that the node does not show.

A file that cannot be read raises ValueError; findings never do.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from sgfmill import sgf_grammar

from joseki.core.category import pachi_tags
from joseki.core.conditions import sgf_points
from joseki.core.errors import BadInput
from joseki.core.geometry import Point, Transform, nearest_corner
from joseki.core.judgement import LABEL, judge
from joseki.core.notation import format_gtp_vertex, parse_sgf_point
from joseki.core.position import LocalBoard, keys_along
from joseki.core.zone import ZONE_BOARD_SIZE, in_zone
from joseki.sgf.booknotes import book_notes
from joseki.sgf.forest import Forest, flatten_bytes, read_sgf_bytes
from joseki.sgf.sgfparse import parse_collection

KINDS = ("duplicate", "transposition", "outside-zone", "pass-first", "double-pass", "same-colour", "pass-then-same",
         "untagged-pass", "illegal", "missing-label")
SHOWN_MOVES = 30


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing to look at: its kind, what is wrong, and where."""

    kind: str
    message: str
    game: int
    move: int | None = None
    line: tuple[str, ...] = ()

    def where(self) -> str:
        shown = self.line if len(self.line) <= SHOWN_MOVES else ("...", *self.line[-SHOWN_MOVES:])
        place = f"game {self.game + 1}" + (f", move {self.move}" if self.move is not None else "")
        return place + (f" ({' '.join(shown)})" if shown else "")

    def as_json(self) -> dict[str, object]:
        return {"kind": self.kind, "message": self.message, "game": self.game + 1, "move": self.move,
                "line": list(self.line)}


@dataclass(slots=True)
class LintReport:
    """The findings of one file."""

    path: str
    dialect: str
    records: int
    findings: list[Finding] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        found = Counter(f.kind for f in self.findings)
        return {kind: found[kind] for kind in KINDS if found[kind]}

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
        dialect = book_notes(forest).dialect
    except ValueError as exc:
        raise BadInput(f"{path}: {exc}") from None
    report = LintReport(str(path), dialect, len(forest.variations))
    for index, game in enumerate(games):
        report.findings.extend(_walk(game, index, dialect))
    report.findings.extend(_records(forest))
    return report


def _records(forest: Forest) -> list[Finding]:
    """Duplicate records and records that transpose into another line."""
    found: list[Finding] = []
    first: dict[str, str] = {}
    for v in forest.variations:
        if v.steps in first:
            found.append(Finding("duplicate", f"same record {v.steps} as tree path {first[v.steps]}", v.game, None,
                                 (f"tree path {v.tree_path}",)))
        else:
            first[v.steps] = v.tree_path
    prefixes = {v.steps[:end] for v in forest.variations for end in range(2, len(v.steps) + 1, 2)}
    keys = keys_along(sorted(prefixes))
    by_key: dict[int, list[str]] = {}
    for steps, key in keys.items():
        by_key.setdefault(key, []).append(steps)
    games = {v.steps: v.game for v in forest.variations}
    for steps in first:
        others = [s for s in by_key[keys[steps]] if s != steps]
        if others:
            found.append(Finding("transposition", f"record {steps} reaches the position of {min(others)} "
                                 f"({len(others)} other order{'s' if len(others) > 1 else ''})", games[steps]))
    return found


Frame = tuple[sgf_grammar.Coarse_game_tree, Transform | None, str | None, bool, int, tuple[str, ...], LocalBoard]


def _walk(game: sgf_grammar.Coarse_game_tree, index: int, dialect: str) -> list[Finding]:
    """Move-by-move findings of one game tree, each node once."""
    found: list[Finding] = []
    stack: list[Frame] = [(game, None, None, False, 0, (), LocalBoard(ZONE_BOARD_SIZE))]
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
                line = (*line, name)
                if transform is None and point is not None:
                    transform = Transform(nearest_corner(point, ZONE_BOARD_SIZE))
                found.extend(_move(colour, point, last, passed, transform, props, dialect, index, number, line))
                if point is not None:
                    try:
                        board.play(colour, point)
                    except ValueError as exc:
                        problem = "is suicide" if "suicide" in str(exc) else "is on an occupied point"
                        found.append(Finding("illegal", f"{name} {problem}", index, number, line))
                        board.play(colour, point, lenient=True)
                passed = point is None
                last = colour
            if dialect in ("text", "pachi") and "C" in props:
                found.extend(_labels(props, index, number, line))
        children = tree.children
        for i in range(len(children) - 1, -1, -1):
            stack.append((children[i], transform, last, passed, number, line, board if i == 0 else board.copy()))
    return found


def _move(colour: str, point: Point | None, last: str | None, passed: bool, transform: Transform | None,
          props: dict[str, list[bytes]], dialect: str, game: int, number: int,
          line: tuple[str, ...]) -> list[Finding]:
    found = []
    who = "Black" if colour == "b" else "White"
    if point is None:
        if transform is None:
            found.append(Finding("pass-first", f"{who} passes before the line's first move", game, number, line))
        elif passed and last != colour:
            found.append(Finding("double-pass", "both players pass: the book cannot tell who played elsewhere",
                                 game, number, line))
        if dialect == "pachi" and not {"<tenuki>", "<later>"} & set(pachi_tags(_comment(props))):
            found.append(Finding("untagged-pass", f"{who}'s pass has no <tenuki> or <later> tag", game, number, line))
    elif last == colour:
        kind = "pass-then-same" if passed else "same-colour"
        text = (f"{who} passes, then plays again" if passed
                else f"two {who} moves in a row: read as a tenuki by {'White' if colour == 'b' else 'Black'}")
        found.append(Finding(kind, text, game, number, line))
    if point is not None and transform is not None and not in_zone(transform.to_zone(point, ZONE_BOARD_SIZE)):
        found.append(Finding("outside-zone", f"{who} {format_gtp_vertex(point)} is outside the "
                             f"{transform.corner.value} zone: read as a tenuki", game, number, line))
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


def _comment(props: dict[str, list[bytes]]) -> str:
    return props["C"][0].decode("utf-8", "replace") if "C" in props else ""


def _labels(props: dict[str, list[bytes]], game: int, number: int, line: tuple[str, ...]) -> list[Finding]:
    """Labels a comment names that the node does not show."""
    shown = {v.decode("utf-8", "replace").partition(":")[2].strip().lower() for v in props.get("LB", [])}
    named = {str(j.target.key) for j in judge(_comment(props)) if j.target.kind == LABEL}
    return [Finding("missing-label", f"the comment names '{label}', which the node does not show", game, number,
                    line) for label in sorted(named - shown)]
