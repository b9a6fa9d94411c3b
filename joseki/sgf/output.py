"""Writing an output file safely: whole or not at all, never through a symbolic link.

The data goes to a new temporary file in the target's folder, is flushed to the disk
(``fsync``), and is renamed over the target (``os.replace``): a reader sees the old file or
the new one, never half of one, and a failure (a full disk, EFBIG, Ctrl-C) removes the
temporary file and leaves the old file as it was.

A target that is a symbolic link is refused (:class:`OutputError`): writing through it would
clobber a file elsewhere, and replacing it would silently break the link, so the user
chooses (give the file it points to, or remove the link). So are folders and other
non-regular files (devices, FIFOs). An existing file keeps its mode (and, where allowed,
its owner); a new file gets the mode the umask gives, as with any program's output.
A hard-linked file is replaced by a new file, so its other names keep the old content.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from pathlib import Path

from joseki.core.errors import UserError


class OutputError(UserError):
    """An output file that cannot be written; the message names the file and the reason."""


def check_output(path: Path) -> os.stat_result | None:
    """Check that ``path`` can be written; return the existing file's status (None for a new file).

    Called before long work too, so that a bad ``-o`` fails at once.
    """
    folder = path.parent
    if not folder.exists():
        raise OutputError(f"{path}: no such folder {folder}")
    if not folder.is_dir():
        raise OutputError(f"{path}: {folder} is not a folder")
    try:
        st = path.lstat()
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise OutputError(f"{path}: cannot write: {exc.strerror}") from None
    if st is not None and stat.S_ISLNK(st.st_mode):
        raise OutputError(f"{path}: is a symbolic link; not writing through it (give the file it points to, "
                          f"or remove the link)")
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise OutputError(f"{path}: is a folder (give a file name)")
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise OutputError(f"{path}: is not a regular file")
    if st is not None and not os.access(path, os.W_OK):
        raise OutputError(f"{path}: cannot write: Permission denied")
    return st


def write_output(path: Path | str, data: bytes | str, encoding: str = "utf-8") -> None:
    """Write ``data`` to ``path`` atomically (see the module); OutputError naming the file and the problem."""
    path = Path(path)
    st = check_output(path)
    payload = data.encode(encoding) if isinstance(data, str) else data
    temp = path.parent / f".{path.name[:180]}.{secrets.token_hex(4)}.tmp"
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)  # the umask applies
    except OSError as exc:
        raise OutputError(f"{path}: cannot write in {path.parent}: {exc.strerror}") from None
    try:
        try:
            view = memoryview(payload)
            while view:
                view = view[os.write(fd, view):]
            if st is not None:
                os.fchmod(fd, stat.S_IMODE(st.st_mode))
                with contextlib.suppress(OSError):
                    os.fchown(fd, st.st_uid, st.st_gid)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        if isinstance(exc, OSError):
            raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None
        raise
    _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
    """Flush the rename to the disk too (best effort: not every system can open a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)
