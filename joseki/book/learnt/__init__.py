"""What games taught the book: results per move and profile, judged corners, statistics per whole-board context,
and the moves played beyond a mined book."""
