"""The book: the SQLAlchemy models and store, importing collections, statistics records,
looking positions up, the next-move query, ``show``, ``stats`` and SGF export.

May import ``joseki.core`` and ``joseki.sgf``; never the games layer, the engine or the CLI.
"""
