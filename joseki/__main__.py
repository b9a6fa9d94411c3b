"""``python -m joseki``: the command line."""

from joseki.cli import app

app()
