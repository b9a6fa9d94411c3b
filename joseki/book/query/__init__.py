"""The read path of ``next`` and ``show``: looking positions up, walking a corner through the book, the answers
and their order, the whole-board re-ranking, one line shown move by move."""
