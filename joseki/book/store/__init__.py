"""The store and its schema: the database at any SQLAlchemy URL (:mod:`~joseki.book.store.database`), its
tables (:mod:`~joseki.book.store.schema`), and the read-only SQLite book read without SQLAlchemy
(:mod:`~joseki.book.store.bookfile`)."""
