"""``python -m joseki``: the command line."""

from joseki.cli.main import app

app()
