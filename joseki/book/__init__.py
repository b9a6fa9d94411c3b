"""The book: the store and its schema (``store``), importing collections (``importer``), the read path of
``next`` and ``show`` (``query``), what games taught it (``learnt``), the games behind a position
(``gamerefs``), the counts of ``joseki stats`` (``stats``) and SGF export (``export``).

May import ``joseki.core`` and ``joseki.sgf``; never the games layer, the engine or the CLI.
"""
