"""Node keys: the id of a book node is a hash of its canonical step string.

Kept apart from the store so that reading a book (:mod:`joseki.book.store.bookfile`) needs no
SQLAlchemy.
"""

from __future__ import annotations

import hashlib


def node_id(steps: str) -> int:
    """The node key of a canonical step string: its BLAKE2b hash as a signed 64-bit integer.

    A hash rather than a sequence number, so that any process can compute the key of a
    prefix without asking the database, and concurrent writers never disagree about it.
    """
    return int.from_bytes(hashlib.blake2b(steps.encode("ascii"), digest_size=8).digest(), "big", signed=True)


ROOT_ID = node_id("")
