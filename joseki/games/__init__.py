"""Real games against the book: crediting results to book moves (``learn``), building a book
from game records (``mine``), measuring predictions (``evaluate``) and ``annotate``.

May import ``joseki.core``, ``joseki.sgf`` and ``joseki.book``; never the engine or the CLI.
"""
