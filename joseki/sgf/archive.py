"""Game records inside ``.zip`` and tar archives (``.tar``, ``.tar.xz``, ``.tar.gz``, ...), read without unpacking.

A member is named ``ARCHIVE/MEMBER`` (``2011.tar.xz/2011-01/tygem-1.sgf``), as if the archive
were a folder; that name is what reports and the learnt games record. A name's bytes that are not
UTF-8 (a file named in another charset) are written ``%XX`` in it (:func:`storable`), so that a store
can keep it as text; reading maps them back (:func:`real_name`). A zip member is read on
its own wherever it is needed (zip has an index). A tar archive can only be read from the
start, so :func:`sources` streams each one once, in order, and hands on each member's bytes
with its name: the workers (local or on a cluster) then get ``(name, bytes)`` instead of a path.
:mod:`tarfile` and :mod:`zipfile` are imported only when an archive is read (fast start).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import groupby
from pathlib import Path, PurePosixPath
from typing import IO, TYPE_CHECKING

from joseki.core.errors import BadInput
from joseki.core.limits import MAX_FILE_BYTES, beyond
from joseki.sgf.forest import read_sgf_bytes

if TYPE_CHECKING:
    import zipfile

GAME_SUFFIXES = (".sgf",)
TAR_SUFFIXES = (".tar", ".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.bz2", ".tbz2")
ARCHIVE_SUFFIXES = (".zip", *TAR_SUFFIXES)

Source = str | tuple[str, bytes]
"""A game to read: a file or zip member by name, or a tar member's name and bytes."""


def storable(name: str) -> str:
    """``name`` with each byte that is not UTF-8 (which Python keeps as a surrogate escape) written ``%XX``."""
    if name.isascii() or not any("\udc80" <= c <= "\udcff" for c in name):
        return name
    return "".join(f"%{ord(c) - 0xDC00:02X}" if "\udc80" <= c <= "\udcff" else c for c in name)


def real_name(name: str) -> str:
    """The file system's name of a :func:`storable` name (``name`` itself when that exists or has no ``%XX``)."""
    if "%" not in name or os.path.exists(name):
        return name
    return _ESCAPED.sub(lambda m: chr(0xDC00 + int(m.group(1), 16)), name)


_ESCAPED = re.compile(r"%([89A-Fa-f][0-9A-Fa-f])")


def is_archive(path: Path | str) -> bool:
    return str(path).lower().endswith(ARCHIVE_SUFFIXES)


def _is_game(name: str) -> bool:
    return name.lower().endswith(GAME_SUFFIXES)


def expand_games(paths: Iterable[Path | str]) -> list[str]:
    """The games named by ``paths``: SGF files, archives' SGF members, folders searched recursively for both."""
    found: list[str] = []
    for item in paths:
        path = Path(item)
        if path.is_dir():
            for name in _files_below(path):
                if _is_game(name) or is_archive(name):
                    found.extend(members(Path(name)) if is_archive(name) else [storable(name)])
        elif is_archive(path) and path.is_file():
            found.extend(members(path))
        else:
            found.append(storable(str(path)))
    return found


def _files_below(folder: Path) -> list[str]:
    """The files below ``folder`` (links to folders not followed, unreadable folders passed over), as
    ``sorted(folder.rglob("*"))`` orders them: by their names' parts. Each folder is read once (:func:`os.scandir`,
    whose entries know their kind, so no file is asked for it again), which is what a folder of many games costs."""
    base = str(folder)
    found: list[tuple[tuple[str, ...], str]] = []
    pending: list[tuple[str, tuple[str, ...]]] = [(base, ())]
    while pending:
        top, parts = pending.pop()
        try:
            with os.scandir(top) as entries:
                for entry in entries:
                    if entry.is_dir(follow_symlinks=False):
                        pending.append((entry.path, (*parts, entry.name)))
                    elif entry.is_file():
                        found.append(((*parts, entry.name), entry.path))
        except PermissionError:
            continue
    found.sort()
    return [path if base != "." else path[2:] for _, path in found]


def members(archive: Path) -> list[str]:
    """The names of an archive's SGF members, in the archive's order; BadInput naming it if unreadable."""
    import tarfile
    import zipfile

    try:
        if str(archive).lower().endswith(".zip"):
            with zipfile.ZipFile(archive) as z:
                names = [_zip_name(i) for i in z.infolist() if not i.is_dir()]
        else:
            with tarfile.open(archive, "r:*") as t:
                names = [m.name for m in t if m.isfile()]
    except (OSError, zipfile.BadZipFile, tarfile.TarError, EOFError) as exc:
        raise BadInput(f"{archive}: not a readable archive: {exc}") from None
    return [storable(f"{archive}/{name}") for name in names if _is_game(name)]


def split_member(name: str) -> tuple[str, str] | None:
    """(archive, member) when ``name`` is inside an archive file, else None."""
    name = real_name(name)
    if os.path.exists(name):
        return None
    path = PurePosixPath(name)
    for parent in reversed(path.parents):
        if is_archive(parent.name) and os.path.isfile(parent):
            return str(parent), str(path.relative_to(parent))
    return None


def container(name: str) -> str:
    """The file holding game ``name``: its archive, or itself."""
    inside = split_member(name)
    return inside[0] if inside else name


def source_name(source: Source) -> str:
    return source if isinstance(source, str) else source[0]


def source_bytes(source: Source | Path) -> bytes:
    """The SGF bytes of a game; BadInput for a missing, unreadable, empty or too big one."""
    if isinstance(source, tuple):
        return _checked(source[1])
    inside = split_member(str(source))
    if inside is None:
        return read_sgf_bytes(Path(real_name(str(source))))
    archive, member = inside
    import tarfile
    import zipfile

    try:
        if archive.lower().endswith(".zip"):
            with _zip(archive).open(_zip_member(_zip(archive), member)) as handle:
                return _checked(handle.read(MAX_FILE_BYTES + 1))
        with tarfile.open(archive, "r:*") as t:  # one member alone: read up to it (sources streams instead)
            return _checked(_read_member(t.extractfile(member)))
    except KeyError:
        raise BadInput("no such member in the archive") from None
    except (OSError, zipfile.BadZipFile, tarfile.TarError, EOFError) as exc:
        raise BadInput(f"cannot read from the archive: {exc}") from None


def _zip_name(info: zipfile.ZipInfo) -> str:
    """A zip member's name as its bytes are: zipfile reads a name without the UTF-8 flag as CP437, but Windows
    writes it in the machine's own charset (GBK, Shift_JIS...), so its bytes are kept as a file system's would be."""
    if info.flag_bits & 0x800 or info.filename.isascii():
        return info.filename
    return os.fsdecode(info.filename.encode("cp437"))


def _zip_member(archive: zipfile.ZipFile, name: str) -> str:
    """zipfile's name of the member :func:`_zip_name` names ``name``."""
    try:
        archive.getinfo(name)
    except KeyError:
        return os.fsencode(name).decode("cp437")
    return name


@lru_cache(maxsize=8)
def _zip(archive: str) -> zipfile.ZipFile:
    """An open zip archive, kept for the next member (a worker reads many from one archive)."""
    import zipfile

    return zipfile.ZipFile(archive)


def _read_member(handle: IO[bytes] | None) -> bytes:
    if handle is None:
        raise BadInput("not a file in the archive")
    return handle.read(MAX_FILE_BYTES + 1)


def _checked(data: bytes) -> bytes:
    if len(data) > MAX_FILE_BYTES:
        raise beyond("a file", MAX_FILE_BYTES, "bytes")
    if not data.strip():
        raise BadInput("empty file")
    return data


def _tar_of(name: str) -> str | None:
    inside = split_member(name)
    return inside[0] if inside and not inside[0].lower().endswith(".zip") else None


def sources(names: Iterable[str]) -> Iterator[Source]:
    """Each game of ``names`` (from :func:`expand_games`) as a worker should get it, in order.

    Consecutive members of one tar archive come with their bytes, read in one pass over the
    archive; anything else is passed on by name. A member the pass does not meet (or an archive
    it cannot read) is passed on by name too, so that reading it names the problem.
    """
    for tar, group in groupby(names, _tar_of):
        wanted = list(group)
        if tar is None:
            yield from wanted
            continue
        import tarfile

        done = 0
        try:
            with tarfile.open(tar, "r|*") as stream:
                for member in stream:
                    if done < len(wanted) and member.isfile() and storable(f"{tar}/{member.name}") == wanted[done]:
                        yield wanted[done], _read_member(stream.extractfile(member))
                        done += 1
        except (OSError, tarfile.TarError, EOFError):
            pass
        yield from wanted[done:]
