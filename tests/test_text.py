"""SGF text in every charset: a declared CA honoured, a missing one detected, a wrong one told; real Fox and
Tygem records; file names decoded; the store and the CLI naming the players right."""

from __future__ import annotations

import json
import os
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from joseki.book.importer import import_file
from joseki.book.store.database import Store
from joseki.book.store.files import starter_book
from joseki.games.annotate import annotate
from joseki.games.learn import learn
from joseki.sgf.archive import expand_games, real_name, storable
from joseki.sgf.forest import flatten_bytes
from joseki.sgf.game import game_from_bytes, read_game
from joseki.sgf.text import charset_of, file_name

from .conftest import GAMES, need
from .games import sgf_text
from .test_cli import joseki
from .webserver import running

RECORDS = {
    "gb2312": ("柯洁", "古力", "第三届梦百合杯世界围棋公开赛决赛", "黑中盘胜"),
    "shift_jis": ("井山裕太", "一力遼", "第四十七期名人戦七番勝負第一局", "黒中押し勝ち"),
    "euc_kr": ("이세돌", "박정환", "제12회 농심신라면배 세계바둑최강전", "흑 불계승"),
    "big5": ("周俊勳", "林至涵", "第十屆名人戰挑戰賽", "黑中盤勝"),
}
"""A game's players, event and comment in the charsets of the Chinese, Japanese, Korean and Taiwanese servers."""

DECLARED = [
    ("GB2312", "gb2312", ("柯洁", "古力")),
    ("GB2312", "gbk", ("柯洁", "王堃")),  # GBK's own character under the older name, as Chinese servers write
    ("GBK", "gbk", ("芈昱廷", "王堃")),
    ("GB18030", "gb18030", ("柯洁", "㐀𠀀")),
    ("Big5", "big5", ("周俊勳", "林至涵")),
    ("Big5-HKSCS", "big5hkscs", ("周俊勳", "㗎")),
    ("Shift_JIS", "shift_jis", ("井山裕太", "一力遼")),
    ("Shift_JIS", "cp932", ("髙尾紳路", "①")),  # CP932's own characters under the standard's name
    ("EUC-JP", "euc_jp", ("井山裕太", "一力遼")),
    ("EUC-KR", "euc_kr", ("이세돌", "박정환")),
    ("EUC-KR", "cp949", ("이세돌", "똠방")),  # CP949's own syllables
    ("ISO-8859-1", "latin-1", ("Jürgen Müller", "François Dœuf".replace("œ", "oe"))),
    ("Latin-1", "latin-1", ("Zoë", "Ångström")),
    ("windows-1252", "cp1252", ("Œuvre", "naïve €")),
    ("ISO-8859-2", "iso8859-2", ("Łukasz Żółć", "Čapek")),
    ("KOI8-R", "koi8-r", ("Иванов", "Пётр")),
    ("windows-1251", "cp1251", ("Иванов", "Пётр")),
    ("ISO-8859-7", "iso8859-7", ("Παπαδόπουλος", "Νίκος")),
    ("UTF-8", "utf-8", ("柯洁", "이세돌 井山裕太")),
]


FIVE = ("Q16", "R14", "R11", "D4", "C16")


def encoded(text: str, encoding: str) -> bytes:
    data = text.encode(encoding)
    assert b"]" not in data and not data.endswith(b"\\"), "a second byte SGF would read as the value's end"
    return data


def record(values: tuple[str, ...], encoding: str, ca: str | None, moves: tuple[str, ...] = FIVE) -> bytes:
    """A game record of ``moves`` with players, event and comment (as many as given) in ``encoding``, declaring
    ``ca``."""
    keys = (b"PB", b"PW", b"EV", b"C")[: len(values)]
    props = b"".join(key + b"[" + encoded(v, encoding) + b"]" for key, v in zip(keys, values, strict=True))
    head = b"(;GM[1]FF[4]SZ[19]" + (b"CA[" + ca.encode() + b"]" if ca else b"") + props
    return head + sgf_text(list(moves)).removeprefix("(;FF[4]GM[1]SZ[19]").encode()


@pytest.mark.parametrize(("ca", "encoding", "names"), DECLARED)
def test_a_declared_charset_is_honoured(tmp_path: Path, ca: str, encoding: str, names: tuple[str, str]) -> None:
    path = tmp_path / "game.sgf"
    path.write_bytes(record(names, encoding, ca))
    game = read_game(path)
    assert (game.black, game.white) == names and game.warnings == []
    forest = flatten_bytes(record((*names, "", names[0] + names[1]), encoding, ca))
    assert forest.variations[0].notes[0].comment == names[0] + names[1] and forest.warnings == []


@pytest.mark.parametrize("encoding", sorted(RECORDS))
def test_a_missing_charset_is_detected(tmp_path: Path, encoding: str) -> None:
    values = RECORDS[encoding]
    path = tmp_path / "game.sgf"
    path.write_bytes(record(values, encoding, None))
    assert charset_of(path.read_bytes()).chosen == "detected"
    game = read_game(path)
    assert (game.black, game.white) == values[:2] and game.warnings == []
    forest = flatten_bytes(record(values, encoding, None))
    assert forest.game_info["C"] == values[3] and forest.warnings == []


def test_a_wrong_charset_is_read_as_detected_and_told() -> None:
    data = record(RECORDS["gb2312"], "gb2312", "UTF-8")
    game = game_from_bytes(data)
    assert (game.black, game.white) == RECORDS["gb2312"][:2]
    assert game.warnings == ["CA[UTF-8] does not fit the file's bytes: read as gb18030"]
    forest = flatten_bytes(data)
    assert forest.game_info["C"] == RECORDS["gb2312"][3] and forest.warnings == game.warnings
    utf8 = game_from_bytes(record(("Müller", "柯洁"), "utf-8", "ISO-8859-1"))
    assert (utf8.black, utf8.white) == ("Müller", "柯洁")
    assert utf8.warnings == ["CA[ISO-8859-1], but the text is UTF-8: read as UTF-8"]
    unknown = game_from_bytes(record(("Müller", "柯洁"), "utf-8", "klingon"))
    assert (unknown.black, unknown.white) == ("Müller", "柯洁")
    assert unknown.warnings == ["unknown charset CA[klingon]: read as UTF-8"]


def test_a_wrong_charset_is_counted_by_import(new_db: Callable[..., str], tmp_path: Path) -> None:
    path = tmp_path / "book.sgf"
    path.write_bytes(record(RECORDS["shift_jis"], "shift_jis", "UTF-8"))
    store = Store(new_db("wrong"), upgrade=True)
    try:
        report = import_file(store, path, "wrong")
    finally:
        store.close()
    assert report.error is None and report.warnings == ["CA[UTF-8] does not fit the file's bytes: read as cp932"]


def test_fox_records_name_their_players_without_replacement_characters() -> None:
    fox = need(GAMES / "fox-pro")
    files = sorted(fox.glob("foxpro-*.sgf"))[::25]
    assert len(files) > 100
    for path in files:
        game = read_game(path)
        for name in (game.black, game.white):
            assert "\ufffd" not in name, (path, name)
    clean = read_game(fox / "foxpro-00000.sgf")  # valid UTF-8 without CA
    assert (clean.black, clean.white) == ("蔡文驰", "陈正勋") and clean.warnings == []
    lost = read_game(fox / "foxpro-00001.sgf")  # a byte of the first character lost upstream
    assert lost.white == "?维清" or lost.black == "?维清"
    assert lost.warnings == ["1 text values had characters whose bytes were lost to '?' upstream, each shown as '?'"]


def test_tygem_records_name_their_players() -> None:
    archive = need(GAMES / "tygem-9d-2011" / "tygem-9d-2011-dev.tar.xz")
    seen = 0
    with tarfile.open(archive, "r|xz") as stream:
        for member in stream:
            handle = stream.extractfile(member) if member.isfile() else None
            if handle is None:
                continue
            data = handle.read()
            game = game_from_bytes(data, member.name)
            assert game.black and game.white and game.warnings == []
            assert f"PB[{game.black}]".encode() in data and "\ufffd" not in game.black + game.white
            seen += 1
            if seen == 40:
                break
    assert seen == 40


def test_file_names_are_decoded() -> None:
    assert file_name("%E6%9D%8E%E4%B8%96%E7%9F%B3.sgf") == "李世石.sgf"
    assert file_name("games/100%.sgf") == "games/100%.sgf"
    shift_jis = os.fsdecode("井山裕太-一力遼.sgf".encode("shift_jis"))
    assert file_name(shift_jis) == file_name(storable(shift_jis)) == "井山裕太-一力遼.sgf"
    assert real_name(storable(shift_jis)) == shift_jis and storable("李.sgf") == "李.sgf"


def test_the_store_and_the_cli_name_the_players_and_files_right(new_db: Callable[..., str], tmp_path: Path) -> None:
    folder = tmp_path / "learnt"
    (folder / "2024").mkdir(parents=True)
    lines = [["Q16", "R14", "R11", "D4"], ["Q16", "R14", "R11", "C3"], ["Q16", "R14", "R11", "D16"],
             ["Q16", "R14", "R11", "C4"]]
    # file names: percent-encoded, in Shift_JIS and in EUC-KR (as a Windows archive unpacked leaves them), UTF-8
    files = [(b"2024/%E6%A2%A6%E7%99%BE%E5%90%88%E6%9D%AF.sgf", "gb2312", None, "2024/梦百合杯.sgf"),
             ("2024/名人戦第一局.sgf".encode("shift_jis"), "shift_jis", "Shift_JIS", "2024/名人戦第一局.sgf"),
             ("농심배-이세돌.sgf".encode("euc_kr"), "euc_kr", None, "농심배-이세돌.sgf"),
             ("naïve.sgf".encode(), "utf-8", "UTF-8", "naïve.sgf")]
    names = {}
    for (raw, encoding, ca, _), moves in zip(files, lines, strict=True):
        values = RECORDS.get(encoding, ("Müller", "Zoë"))
        path = os.path.join(os.fsencode(folder), raw)
        with open(path, "wb") as out:
            out.write(record(values, encoding, ca, tuple(moves)))
        names[values] = raw
    assert len(expand_games([folder])) == 4
    url = new_db("names")
    store = Store(url, upgrade=True)
    try:
        assert not import_file(store, starter_book(), "starter").error
        report = learn(store, [folder], None, 1)
        assert report.learnt == 4, report.errors
        out = tmp_path / "annotated.sgf"
        annotate(store, Path(os.fsdecode(os.path.join(os.fsencode(folder), files[0][0]))), out)
        annotated = read_game(out)
        assert (annotated.black, annotated.white) == RECORDS["gb2312"][:2]
        with running(store) as base:
            web = httpx.get(base + "/api/games", params={"moves": "Q16,R14,R11", "limit": 10}, timeout=120).json()
    finally:
        store.close()
    cli = json.loads(joseki("games", "Q16", "R14", "R11", "--json", "--limit", "10", db=url).stdout)
    assert [{k: w[k] for k in c} for w, c in zip(web["games"], cli["games"], strict=True)] == cli["games"]
    players = {(g["black"], g["white"]) for g in cli["games"]}
    assert players == {values[:2] for values in names}, players
    sources = {g["source"] for g in cli["games"]}
    assert sources == {shown for *_, shown in files}, sources
    assert all(not os.path.isabs(s) and "%" not in s and "\ufffd" not in s for s in sources), sources
    table = joseki("games", "Q16", "R14", "R11", "--limit", "10", db=url).stdout
    assert "柯洁" in table and "井山裕太" in table and "이세돌" in table


def test_a_zip_member_named_in_the_machine_charset_is_decoded(tmp_path: Path) -> None:
    """A Windows zip names members in the machine's charset without the UTF-8 flag; zipfile reads them as CP437."""
    name = "名人戦第一局.sgf".encode("shift_jis")
    placeholder = b"x" * (len(name) - 4) + b".sgf"
    archive = tmp_path / "games.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr(placeholder.decode(), record(RECORDS["shift_jis"], "shift_jis", "Shift_JIS"))
    archive.write_bytes(archive.read_bytes().replace(placeholder, name))  # the name's bytes, without the flag
    [member] = expand_games([archive])
    assert file_name(member.removeprefix(f"{tmp_path}/")) == "games.zip/名人戦第一局.sgf"
    game = read_game(member)
    assert (game.black, game.white) == RECORDS["shift_jis"][:2]
