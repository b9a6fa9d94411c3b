"""The SGF edge: reading collections and game records, flattening a joseki forest into
play-step records, reading the notes (categories, comments, conditions) of its nodes in the
collection's dialect (:mod:`joseki.sgf.dialects`), and linting a collection file.

May import ``joseki.core`` and sgfmill; never the store, the games layer, the engine or the CLI.
"""
