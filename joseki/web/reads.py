"""What a view's book reads run on: a current SQLite book read straight through sqlite3, one connection per thread.

:func:`joseki.book.query.next.next_moves` and the rest of a corner's answer accept a
:class:`joseki.book.store.bookfile.BookFile` (a read-only sqlite3 connection, no SQLAlchemy in between:
about 40 % less work for a position's corners on Kogo), and so does the line
(:func:`joseki.book.query.show.show`); a BookFile is one connection, so each thread that computes
views gets its own. Any other store (PostgreSQL, a file the reader declines) is read through
the store itself, as are the views the reader does not serve yet (the games behind a
position, the catalogue). Either way the reads keep their answers in the server's memo: a store
read directly is given it as its :attr:`~joseki.book.store.database.Store.memo` (the server never writes
through it).
"""

from __future__ import annotations

import threading

from sqlalchemy.engine import make_url

from joseki.book.query.memo import Memo
from joseki.book.store.bookfile import BookFile, open_book_file
from joseki.book.store.database import Store


class Reads:
    """The book to read a view's corners and line from, for the calling thread; its reads kept in ``memo``
    (shared by the threads' connections), which the caller clears whenever the store changes."""

    def __init__(self, store: Store, memo: Memo | None = None) -> None:
        self.store, self.memo = store, memo
        url = make_url(store.url)
        self.path = url.database if store.is_sqlite and not url.query and url.database != ":memory:" else None
        """The SQLite file read through sqlite3, None when the book is read through the store."""
        if self.path is None and memo is not None:
            store.memo = memo
        self._local = threading.local()
        self._opened: list[BookFile] = []
        self._lock = threading.Lock()

    def __call__(self) -> Store | BookFile:
        if self.path is None:
            return self.store
        book: BookFile | None = getattr(self._local, "book", None)
        if book is None:
            book = open_book_file(self.path)
            if book is None:  # not a current book: the store says what is wrong
                return self.store
            book.memo = self.memo
            self._local.book = book
            with self._lock:
                self._opened.append(book)
        return book

    def close(self) -> None:
        """Close every thread's connection."""
        with self._lock:
            for book in self._opened:
                book.close()
            self._opened.clear()
