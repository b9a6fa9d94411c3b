"""Annotating a game record with the book: where each corner left the book, and what the book offered.

The game is read and written with sgfmill, every original property kept as raw bytes; the
book's words are appended to the comments (``C``) of main-line nodes, and the book's
alternatives at the move that left it are added as labels (``LB``) on the board.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from sgfmill import sgf, sgf_grammar

from joseki.book.query.answer import CornerAnswer, Options
from joseki.book.query.lookup import Lookup
from joseki.book.query.next import answer_corner, answer_table, move_numbers
from joseki.book.store.database import Store
from joseki.core.corners import corner_tables
from joseki.core.errors import BadInput
from joseki.core.notation import TENUKI, format_gtp_vertex, format_sgf_point
from joseki.core.zone import check_zone_size
from joseki.sgf.forest import read_sgf_bytes
from joseki.sgf.game import game_from_bytes
from joseki.sgf.output import check_output, write_output
from joseki.sgf.text import charset_of

LABELS = "abcdefghijklmnopqrstuvwxyz"


@dataclass(slots=True)
class Annotation:
    """What annotating a game wrote."""

    notes: dict[int, list[str]] = field(default_factory=dict)
    labels: dict[int, list[tuple[tuple[int, int], str]]] = field(default_factory=dict)
    left: dict[str, int | None] = field(default_factory=dict)
    """Corner name -> the game move number at which it left the book (None: it never did)."""
    offered: dict[str, list[str]] = field(default_factory=dict)
    """Corner name -> the book's moves (GTP, or ``tenuki``) where it left the book."""


def plan(store: Store, moves: list[tuple[str, tuple[int, int] | None]], top: int = 5,
         collections: list[str] | None = None) -> Annotation:
    """The notes and labels for each move number of a game's main line.

    Where each corner left the book is :func:`joseki.book.query.next.answer_table`'s answer for the
    whole game, as ``next --sgf`` gives it move by move.
    """
    result = Annotation()
    options = Options(top=top)
    with store.read() as conn:
        lookup = Lookup(store, conn, collections)
        for table in corner_tables(moves).values():
            b = table.builder
            if b.first_colour is None:
                continue
            name = table.corner.value
            answer = answer_table(lookup, table, b.first_colour, options, pending=False)
            numbers, steps = move_numbers(table), b.steps
            for index in range(answer.in_book):
                if steps[2 * index : 2 * index + 2] == TENUKI:
                    continue
                here = answer_corner(lookup, table.corner, steps[: 2 * index + 2], bool(b.swap), b.first_colour,
                                     options)
                via = " (by transposition)" if here.via else ""
                paths = sum(c.paths for c in here.candidates)
                result.notes.setdefault(numbers[index], []).append(
                    f"Book, {name}{via}: step {index + 1} of {here.line(steps[: 2 * index + 2])}"
                    + (f"; the book continues with {_moves(here)} ({paths} paths)" if here.candidates
                       else "; end of the book's line"))
            result.left[name] = answer.left_move_number
            if answer.left_at is None or answer.left_move_number is None:
                continue
            number = answer.left_move_number
            offered = answer.alternatives
            result.offered[name] = [c.move for c in offered]
            taken = result.labels.setdefault(number, [])  # a tenuki can leave two corners' books at once
            points = [c.point for c in offered if c.point is not None]
            labels = [(p, LABELS[len(taken) + i]) for i, p in enumerate(points[: len(LABELS) - len(taken)])]
            taken.extend(labels)
            words = ", ".join(f"{label} {format_gtp_vertex(point)}" for point, label in labels) or "no move"
            tenuki = " or tenuki" if any(c.token == TENUKI for c in offered) else ""
            what = "this move" if answer.left_move != "tenuki" else f"this tenuki (away from the {name})"
            result.notes.setdefault(number, []).append(
                f"Out of the book, {name}: {what} left the book's line "
                f"{answer.line(steps[: 2 * (answer.left_at - 1)]) or '(empty corner)'} at local step {answer.left_at}; "
                f"the book offered {words}{tenuki}.")
    return result


def _moves(answer: CornerAnswer) -> str:
    return ", ".join(c.move for c in answer.candidates[:5])


def annotate(store: Store, game_path: Path, out_path: Path, top: int = 5,
             collections: list[str] | None = None) -> Annotation:
    """Write ``game_path`` annotated with the book to ``out_path``; BadInput for a bad game file."""
    check_output(out_path)
    data = read_sgf_bytes(game_path)
    game = game_from_bytes(data, str(game_path))
    check_zone_size(game.size)
    try:
        sgf_game = sgf.Sgf_game.from_bytes(data)
    except ValueError as exc:
        raise BadInput(f"not valid SGF: {exc}") from None
    result = plan(store, game.moves, top, collections)
    encoding = charset_of(data, sgf_game.get_root().get_raw("CA") if sgf_game.get_root().has_property("CA")
                          else None).encoding
    number = 0
    for node in sgf_game.get_main_sequence():
        if not (node.has_property("B") or node.has_property("W")):
            continue
        number += 1
        notes = result.notes.get(number)
        if notes:
            text = sgf_grammar.escape_text("\n".join(notes).encode(encoding, errors="replace"))
            old = node.get_raw("C") if node.has_property("C") else b""
            node.set_raw("C", old + (b"\n\n" if old else b"") + text)
        labels = result.labels.get(number)
        if labels:
            old_labels = node.get_raw_list("LB") if node.has_property("LB") else []
            taken = {v.split(b":")[0] for v in old_labels}
            new = [f"{format_sgf_point(p, game.size)}:{label}".encode() for p, label in labels]
            node.set_raw_list("LB", old_labels + [v for v in new if v.split(b":")[0] not in taken])
    write_output(out_path, sgf_game.serialise())
    return result
