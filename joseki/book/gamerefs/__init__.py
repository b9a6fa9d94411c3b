"""The games behind a book position: written by ``learn`` and ``mine`` (:mod:`~joseki.book.gamerefs.write`),
read by ``joseki games`` and the explorer (:mod:`~joseki.book.gamerefs.read`)."""
