"""The joseki explorer in the browser: ``joseki serve`` (an outer layer over book, games and engine)."""
