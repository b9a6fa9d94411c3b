"""joseki: a Go joseki database and pattern-matching tool.

Layers, innermost first; each may import only the layers before it (tests/test_layers.py):
``joseki.core`` (pure: geometry, play-step strings, zones, priorities), ``joseki.sgf``
(reading and flattening SGF), ``joseki.book`` (the store, import, the next-move query),
``joseki.games`` (learn, mine, evaluate, annotate), ``joseki.engine`` (GTP, the book as an
engine, matches) and ``joseki.cli`` (the command line).
"""

__version__ = "0.1.0"
