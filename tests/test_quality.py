"""Book quality on the real collections: categories, conditions, priors, favourability, export, stats, lint."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import select

from joseki.book.export import export
from joseki.book.importer import import_file
from joseki.book.learnt.results import add_records, profile_id
from joseki.book.query.answer import Options
from joseki.book.query.favour import COLUMNS, ZONE_POINTS, fill, main_line, measure
from joseki.book.query.lookup import Lookup
from joseki.book.query.next import next_moves
from joseki.book.query.show import show
from joseki.book.stats import stats
from joseki.book.store.database import Store
from joseki.book.store.keys import node_id
from joseki.core.conditions import Condition, display, from_json
from joseki.core.errors import UserError
from joseki.core.geometry import Corner, Transform
from joseki.core.influence import assess, favourability
from joseki.core.position import replay
from joseki.core.priority import Record
from joseki.sgf.booknotes import book_notes
from joseki.sgf.dialects.verdicts import verdicts
from joseki.sgf.forest import flatten_bytes, flatten_file
from joseki.sgf.lint import lint

from .conftest import JOSEKI, KOGO, OGS, Databases, need

PACHI_44 = JOSEKI / "pachi" / "joseki_44.sgf"
JOSEKIFIX = JOSEKI / "pachi" / "josekifix.sgf"
GNUGO_KOMOKU = JOSEKI / "gnugo" / "komoku.sgf"
KATAGO = JOSEKI / "katago-joseki-extraction" / "katago_rating_joseki.sgf"


def book_rows(store: Store, collection: str) -> dict[str, tuple[str | None, list[Condition], int | None, int | None]]:
    """Each move of a collection: category, conditions, prior games and wins."""
    t = store.tables
    n, nb, c = t["node"], t["node_book"], t["collection"]
    with store.read() as conn:
        rows = conn.execute(select(n.c.steps, nb.c.category, nb.c.conditions, nb.c.prior_games, nb.c.prior_wins)
                            .join(nb, nb.c.node_id == n.c.id).join(c, c.c.id == nb.c.collection_id)
                            .where(c.c.name == collection))
        return {steps: (category, from_json(conditions), pg, pw) for steps, category, conditions, pg, pw in rows}


def setup_rows(store: Store, collection: str) -> dict[tuple[str, str], tuple[int, str | None, list[Condition]]]:
    """Each move of a collection played with setup stones, by stones and steps: paths, category, conditions."""
    t = store.tables
    n, sb, c = t["node"], t["setup_book"], t["collection"]
    with store.read() as conn:
        rows = conn.execute(select(sb.c.setup, n.c.steps, sb.c.paths, sb.c.category, sb.c.conditions)
                            .join(sb, sb.c.node_id == n.c.id).join(c, c.c.id == sb.c.collection_id)
                            .where(c.c.name == collection))
        return {(stones, steps): (paths, category, from_json(conditions))
                for stones, steps, paths, category, conditions in rows}


def records(store: Store, collection: str) -> set[tuple[str, str]]:
    """A collection's records: steps and setup stones."""
    t = store.tables
    with store.read() as conn:
        return {(steps, stones) for steps, stones in conn.execute(
            select(t["variation"].c.steps, t["variation"].c.setup_stones).join(t["collection"])
            .where(t["collection"].c.name == collection))}


def global_stats(store: Store) -> dict[str, tuple[int, int, int, int]]:
    t = store.tables
    n, ns = t["node"], t["node_stats"]
    with store.read() as conn:
        return {s: (g, w, lo, d) for s, g, w, lo, d in conn.execute(
            select(n.c.steps, ns.c.games, ns.c.wins, ns.c.losses, ns.c.draws).join(ns, ns.c.node_id == n.c.id))}


@pytest.fixture(scope="module")
def kogo(databases: Databases) -> Iterator[Store]:
    """Kogo's dictionary imported once for the module."""
    url = databases.new("kogo")
    store = Store(url)
    report = import_file(store, need(KOGO), "kogo")
    assert report.error is None
    yield store
    store.close()
    databases.drop(url)


def sgf_store(new_db: Callable[..., str], tmp_path: Path, text: str, name: str = "book") -> Store:
    path = tmp_path / f"{name}.sgf"
    path.write_text(text, encoding="utf-8")
    store = Store(new_db(name))
    report = import_file(store, path, name)
    assert report.error is None, report.error
    return store


# Categories


def test_free_text_rates_the_moves_it_names() -> None:
    def targets(comment: str) -> list[tuple[str, object, str]]:
        return [(v.target.kind, v.target.key, v.category) for v in verdicts(comment)]

    assert targets("'a' is correct. 'b' is a mistake.") == [("label", "a", "ideal"), ("label", "b", "mistake")]
    assert targets("White continues with 'a'. White 'b' is not recommended.") == [
        ("label", "a", "good"), ("label", "b", "question")]
    assert targets("White 12 is a mistake.") == [("move", 12, "mistake")]
    assert targets("* Joseki *") == [("self", None, "ideal")]
    assert targets("'a' or 'b' don't help.") == [("label", "a", "mistake"), ("label", "b", "mistake")]
    assert targets("White may try 'a' or 'b'. Neither work.") == [("label", "a", "mistake"), ("label", "b", "mistake")]
    assert targets("This is not a mistake.") == [("self", None, "good")]
    assert targets("'a' is better than 'b'.") == [("label", "a", "good")]
    assert targets("White plays elsewhere, a mistake.") == [("self", None, "mistake")]
    assert targets("Good for White.") == []
    assert targets("If White made the mistake to play White 4 without the ladder, Black punishes on 'b'.") == []


def test_a_comment_about_other_moves_does_not_rate_its_own(new_db: Callable[..., str], tmp_path: Path) -> None:
    store = sgf_store(new_db, tmp_path, "(;FF[4]SZ[19];B[pd];W[qf]C['a' is correct. 'b' is a mistake. White 2 is "
                                        "joseki.]LB[nc:a][pf:b](;B[nc])(;B[pf];W[pg]C[* Joseki *]))")
    rows = book_rows(store, "book")
    assert rows["DDCF"][0] == "ideal"
    assert rows["DDCFFC"][0] == "ideal"
    assert rows["DDCFDF"][0] == "mistake"
    assert rows["DDCFDFDG"][0] == "ideal"
    assert rows["DD"][0] is None


def test_kogo_categories_are_plentiful_and_precise(kogo: Store) -> None:
    rows = book_rows(kogo, "kogo")
    counts: dict[str | None, int] = {}
    for category in [r[0] for r in rows.values()] + [r[1] for r in setup_rows(kogo, "kogo").values()]:
        counts[category] = counts.get(category, 0) + 1
    assert counts["ideal"] > 1000 and counts["good"] > 4000 and counts["mistake"] > 1500
    assert counts["question"] > 800 and counts["trick"] > 50 and counts["tenuki-ok"] >= 1
    rated = {v.steps[: 2 * n.step] for v in flatten_file(KOGO).variations if not v.setup for n in v.notes
             if n.own and n.comment == "'a' is correct. 'b' is a mistake."}
    assert len(rated) > 150
    assert sum(rows[p][0] == "mistake" for p in rated) < len(rated) / 20
    warned = sum(any(rows[c][0] == "mistake" for c in rows if c[:-2] == p) for p in rated)
    assert warned > 0.95 * len(rated)


def test_the_gnugo_dialect_is_told_by_the_file(new_db: Callable[..., str], tmp_path: Path) -> None:
    assert book_notes(flatten_file(need(GNUGO_KOMOKU))).dialect == "gnugo"
    text = "(;FF[4]SZ[19];B[pd]C[U is how this shape looks];W[qf]MA[pd]C[0];B[qh]MA[pd]C[U])"
    plain = book_notes(flatten_bytes(text.encode()))
    assert plain.dialect == "text" and plain.moves["DD"].category is None
    gnugo = book_notes(flatten_bytes(b"This is GNU Go, a Go program.\n" + text.encode()))
    assert gnugo.dialect == "gnugo"
    # an unmarked node makes no GNU Go pattern, so its class letter rates nothing
    assert gnugo.moves["DD"].category is None and gnugo.moves["DDCF"].category == "mistake"
    assert gnugo.moves["DDCFCH"].category == "ideal"


def test_real_dialects_give_their_categories() -> None:
    def counts(path: Path) -> tuple[str, dict[str, int]]:
        notes = book_notes(flatten_file(need(path)))
        found: dict[str, int] = {}
        for note in notes.moves.values():
            if note.category:
                found[note.category] = found.get(note.category, 0) + 1
        return notes.dialect, found

    # on a board without setup stones; its lines from setup stones (below) speak of their own positions
    assert counts(PACHI_44) == ("pachi", {"mistake": 60, "tenuki-ok": 17, "ideal": 2, "good": 1})
    from_setup = book_notes(flatten_file(PACHI_44)).positions.values()
    assert Counter(n.category for n in from_setup if n.category) == {"mistake": 32, "tenuki-ok": 3}
    dialect, ogs = counts(OGS)
    assert dialect == "ogs" and ogs["ideal"] > 600 and ogs["mistake"] == 11
    dialect, gnugo = counts(GNUGO_KOMOKU)
    # 24 antisuji and 53 urgent patterns; three more nodes start with "0" and one with "U" but have no
    # mark, so GNU Go makes no pattern of them
    assert dialect == "gnugo" and gnugo["mistake"] == 24 and gnugo["ideal"] == 53


def test_sgf_marks_map_to_the_vocabulary(new_db: Callable[..., str], tmp_path: Path) -> None:
    store = sgf_store(new_db, tmp_path, "(;FF[4]SZ[19];B[pd]TE[2](;W[qf]BM[1])(;W[qh]DO[])(;W[qc]IT[])(;W[qj]TE[1]))")
    rows = book_rows(store, "book")
    assert [rows[s][0] for s in ("DD", "DDCF", "DDCH", "DDCC", "DDCJ")] == [
        "ideal", "mistake", "question", "trick", "good"]


def test_katago_counts_become_priors_of_the_mover(new_db: Callable[..., str]) -> None:
    store = Store(new_db("katago"))
    assert import_file(store, need(KATAGO), "katago").error is None
    rows = book_rows(store, "katago")
    assert rows["DD"][2:] == (79431 + 76335, 79431)
    assert rows["DDCC"][2:] == (31775 + 29644, 29644)
    assert all(pg is not None and pw is not None and pw <= pg for _, _, pg, pw in rows.values())


def test_mistakes_are_shown_but_never_first(kogo: Store) -> None:
    warned = 0
    for steps in ("DD", "CD", "CC", "DDCF", "CDFD", "CCDF", "CDEC", "DDCFFC"):
        [answer] = next_moves(kogo, steps=steps)
        categories = [c.category for c in answer.candidates]
        warnings = [i for i, c in enumerate(categories) if c in ("mistake", "trick")]
        if warnings:
            warned += 1
            assert warnings[0] > 0 and all(c in ("mistake", "trick") for c in categories[warnings[0] :])
            assert answer.candidates[warnings[0]].paths >= min(c.paths for c in answer.candidates) or warned
    assert warned >= 3


# Conditions


def test_conditions_from_comments_setup_and_keys(new_db: Callable[..., str], tmp_path: Path) -> None:
    store = sgf_store(new_db, tmp_path, "(;FF[4]SZ[19];B[pd];W[qf]C[White must have the ladder to play this way.]"
                                        "(;B[nc]C['a' if White is in the lower right.]LB[oc:a];W[oc])"
                                        "(;AB[dp]AW[pp];B[qh]))")
    rows = book_rows(store, "book")
    # stored in the canonical frame (joseki.core.wording), shown in the frame asked for
    assert rows["DDCF"][1] == [Condition("ladder", "{c:2:White} must have the ladder to play this way.")]
    assert rows["DDCFFCEC"][1] == [Condition("nearby", "{p:EC} if {c:2:White} is in the {k:AS:lower right}.")]
    upper_right, lower_left_swapped = Transform(Corner.TOP_RIGHT), Transform(Corner.BOTTOM_LEFT, True)
    assert display(rows["DDCFFCEC"][1][0], upper_right, "b").text == "nearby: P17 if White is in the lower right."
    assert display(rows["DDCFFCEC"][1][0], lower_left_swapped, "w").text == \
        "nearby: C5 if Black is in the lower right."
    assert rows["DDCFFC"][1] == []
    # the move after setup stones is another position than the same move without them, and depends on them
    assert "DDCFCH" not in rows
    assert setup_rows(store, "book") == {("black PP; white DP", "DDCFCH"): (1, None, [
        Condition("setup", "black PP; white DP")])}


def test_real_conditions(kogo: Store) -> None:
    kinds: dict[str, int] = {}
    for conditions in [r[1] for r in book_rows(kogo, "kogo").values()] + [
            r[2] for r in setup_rows(kogo, "kogo").values()]:
        for c in conditions:
            kinds[c.kind] = kinds.get(c.kind, 0) + 1
    assert kinds["ladder"] > 500 and kinds["nearby"] > 200 and kinds["setup"] > 100
    fix = book_notes(flatten_file(need(JOSEKIFIX)))
    texts = {c.text for note in fix.moves.values() for c in note.conditions if c.kind == "ladder"}
    assert "noladder_other = {p:FD}" in texts and len(texts) > 5  # F4 of Pachi's lower-left corner
    shown = {display(Condition("ladder", t), Transform(Corner.BOTTOM_LEFT), "b").text for t in texts}
    assert "ladder: noladder_other = F4" in shown and "ladder: ladder_own_setup_own = F4 G2" in shown


def test_next_carries_conditions(kogo: Store) -> None:
    [answer] = next_moves(kogo, steps="DDCFFCCC")
    data = answer.as_json()
    assert all("conditions" in c for c in data["candidates"])  # type: ignore[union-attr]


# Favourability


def test_favourability_of_hand_worked_positions() -> None:
    lone = measure("AA")
    assert (lone.area_first, lone.influence_first, lone.influence_second, lone.first, lone.second) == (0, 12, 0, 1, -1)
    pair = measure("AAAC")
    assert (pair.area_first, pair.area_second, pair.influence_first, pair.influence_second) == (0, 0, 6, 12)
    assert pair.first == pytest.approx(-3 / 11) and pair.second == pytest.approx(3 / 11)
    mirrored = measure("CDDC")
    assert mirrored.first == mirrored.second == 0 and mirrored.influence_first == mirrored.influence_second


def test_stored_favourability_matches_a_direct_computation(new_db: Callable[..., str]) -> None:
    store = Store(new_db("pachi"))
    import_file(store, need(PACHI_44), "pachi")
    assert fill(store) == 297
    assert fill(store) == 0
    var = store.tables["variation"]
    with store.read() as conn:
        rows = list(conn.execute(select(var.c.steps, *(var.c[name] for name in COLUMNS)).limit(40)))
    for steps, *stored in rows:
        board, _ = replay(steps)
        a = assess(board.stones, ZONE_POINTS)
        first, second = favourability(a, "b")
        assert stored == [a.black_area, a.white_area, a.black_influence, a.white_influence,
                          pytest.approx(first), pytest.approx(second)]


def test_candidates_are_judged_by_their_main_line(kogo: Store) -> None:
    [answer] = next_moves(kogo, steps="DD", options=Options(top=3, favour=True))
    with kogo.read() as conn:
        lookup = Lookup(kogo, conn)
        for cand in answer.candidates:
            line = main_line(lookup, "DD" + cand.token)
            assert line.startswith("DD" + cand.token) and not lookup.children(line)
            assert cand.favour == measure(line)
    assert answer.as_json()["candidates"][0]["favourability"]["first"] == round(  # type: ignore[index]
        answer.candidates[0].favour.first, 4)  # type: ignore[union-attr]


# show


def test_show_a_line(kogo: Store) -> None:
    shown = show(kogo, moves=["Q16", "R14", "P17"])
    assert shown.steps == "DDCFEC" and [m.move for m in shown.moves] == ["Q16", "R14", "P17"]
    assert shown.moves[0].in_book and shown.moves[0].category == "ideal" and shown.moves[0].comments
    assert shown.favour == measure("DDCFEC")
    lines = sorted(steps for steps, stones in records(kogo, "kogo") if not stones)
    record = next(r for r, after in zip(lines, [*lines[1:], ""], strict=True) if not after.startswith(r))
    full = show(kogo, steps=record)
    assert full.records == ["kogo"] and all(m.in_book for m in full.moves) and full.main_line is None
    assert full.as_json()["moves"][0]["move"] == full.moves[0].move  # type: ignore[index]
    with pytest.raises(ValueError, match="one corner"):
        show(kogo, moves=["Q16", "D4"])


def test_show_gives_statistics(new_db: Callable[..., str]) -> None:
    store = Store(new_db("pachi"))
    import_file(store, need(PACHI_44), "pachi")
    with store.write() as conn:
        pid = profile_id(conn, store, None, create=True)
        assert pid is not None
        add_records(conn, store, pid, {node_id("DD"): Record(5, 3, 2, 0)})
    shown = show(store, steps="DDCF")
    assert shown.moves[0].record == Record(5, 3, 2, 0) and shown.continuations > 1


# export


@pytest.mark.parametrize("path", [KOGO, OGS, PACHI_44, KATAGO, GNUGO_KOMOKU, JOSEKIFIX], ids=lambda p: p.stem)
def test_export_round_trip(path: Path, new_db: Callable[..., str], tmp_path: Path) -> None:
    source = Store(new_db("source"))
    assert import_file(source, need(path), "book").error is None
    with source.write() as conn:
        pid = profile_id(conn, source, None, create=True)
        assert pid is not None
        some = sorted(records(source, "book"))[:5]
        add_records(conn, source, pid, {node_id(s[:4]): Record(7, 4, 2, 1) for s, _ in some})
    out = tmp_path / "export.sgf"
    report = export(source, out, "book")
    assert report.records == len(records(source, "book"))
    again = Store(new_db("again"))
    assert import_file(again, out, "book").error is None
    assert records(again, "book") == records(source, "book")
    assert book_rows(again, "book") == book_rows(source, "book")
    assert setup_rows(again, "book") == setup_rows(source, "book")
    assert global_stats(again) == global_stats(source) != {}
    assert import_file(again, out, "copy").error is None
    assert global_stats(again) == global_stats(source)


def test_export_writes_sgf_an_editor_reads(new_db: Callable[..., str], tmp_path: Path) -> None:
    store = sgf_store(new_db, tmp_path, "(;FF[4]SZ[19];B[dd]C[* Joseki *];W[cf];B[];W[fc]BM[1]C[White 4 is bad.])")
    out = tmp_path / "out.sgf"
    export(store, out)
    text = out.read_text(encoding="utf-8")
    assert "(;GM[1]FF[4]CA[UTF-8]SZ[19]" in text and "GN[book]" in text
    assert ";B[pd]TE[2]JC[ideal]C[* Joseki *];W[qf];B[]" in text
    assert "BM[1]JC[mistake]" in text
    with pytest.raises(ValueError, match="no collection named 'nope'"):
        export(store, out, "nope")
    with pytest.raises(UserError, match="no such folder"):
        export(store, tmp_path / "missing" / "out.sgf")


def test_bad_export_properties_fail_the_import(new_db: Callable[..., str], tmp_path: Path) -> None:
    path = tmp_path / "bad.sgf"
    path.write_text("(;FF[4]SZ[19];B[pd]JC[brilliant];W[qf])")
    store = Store(new_db("bad"))
    report = import_file(store, path, "bad")
    assert report.status == "failed" and "unknown category 'brilliant'" in (report.error or "")
    assert records(store, "bad") == set()


# stats and lint


def test_stats_count_what_the_store_holds(new_db: Callable[..., str]) -> None:
    store = Store(new_db("two"))
    import_file(store, need(PACHI_44), "pachi")
    import_file(store, need(GNUGO_KOMOKU), "gnugo")
    found = {s.name: s for s in stats(store)}
    assert set(found) == {"pachi", "gnugo"}
    pachi = found["pachi"]
    # 263 records of moves alone, and 34 more that play the same moves as one of them from setup stones
    assert pachi.records == len(records(store, "pachi")) == 297 and pachi.files == 1
    rows, from_setup = book_rows(store, "pachi"), setup_rows(store, "pachi")
    assert pachi.moves == len(rows) + len(from_setup) and pachi.setup_moves == len(from_setup)
    assert sum(pachi.categories.values()) + pachi.uncategorised == pachi.moves
    assert pachi.categories == {"ideal": 2, "good": 1, "tenuki-ok": 20, "mistake": 92}
    assert pachi.conditions == {"setup": 12} and pachi.favour_records == 0
    fill(store, ["gnugo"])
    assert {s.name: s.favour_records for s in stats(store)} == {"gnugo": 89, "pachi": 0}
    with pytest.raises(ValueError, match="no collection named 'nope'"):
        stats(store, ["nope"])


def test_lint_finds_what_an_editor_should_fix(tmp_path: Path) -> None:
    path = tmp_path / "draft.sgf"
    path.write_text("(;FF[4]SZ[19]"
                    "(;B[pd];W[qf];B[pf];W[pg])"          # record 1
                    "(;B[dp];W[cn];B[fp];W[fq])"          # record 1 again, in another corner
                    "(;B[pd];W[qf];B[pd])"                # a move on a stone
                    "(;B[];W[pd])"                        # a line that opens with a pass
                    "(;B[pd];W[];B[];W[qf])"              # both pass
                    "(;B[pd];B[qf])"                      # two Black moves
                    "(;B[pd];W[dd])"                      # far outside the zone
                    "(;B[pd];W[qf];B[nc];W[pf])"          # transposes into the next line
                    "(;B[pd];W[pf];B[nc];W[qf];B[qg])"
                    "(;B[pd]C['a' is joseki.]))")
    report = lint(path)
    counts = report.counts()
    assert counts["duplicate"] == 1 and counts["illegal"] == 1 and counts["pass-first"] == 1
    assert counts["double-pass"] == 1 and counts["same-colour"] == 1 and counts["outside-zone"] == 1
    assert counts["transposition"] >= 1 and counts["missing-label"] == 1
    assert json.loads(json.dumps(report.as_json()))["counts"] == counts
    with pytest.raises(ValueError, match=r"missing\.sgf: no such file"):
        lint(tmp_path / "missing.sgf")


def test_lint_real_collections() -> None:
    pachi = lint(need(PACHI_44))
    # a line from setup stones is another record than the same moves without them
    assert pachi.dialect == "pachi" and pachi.counts()["duplicate"] == 1
    assert "untagged-pass" not in pachi.counts()
    kogo = lint(need(KOGO))
    assert kogo.counts()["outside-zone"] > 1000 and kogo.counts()["duplicate"] == 5
