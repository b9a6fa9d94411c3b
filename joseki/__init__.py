"""joseki: a Go joseki database and pattern-matching tool.

The pure core (``geometry``, ``notation``, ``steps``, ``zone``) has no I/O; ``forest``
reads SGF files; the store and the CLI sit on top.
"""

__version__ = "0.1.0"
