"""The command line converts into click only the command it runs (fast start), and still knows them all."""

from __future__ import annotations

import subprocess
import sys

import pytest

from joseki.cli.common import invoked_command

from .test_cli import joseki


@pytest.mark.parametrize(("argv", "name"), [
    (["next", "Q16"], "next"),
    (["--db", "x.sqlite", "next", "Q16"], "next"),
    (["--db=x.sqlite", "db", "info"], "db"),
    (["--db", "next"], None),
    (["--help"], None),
    (["--db", "x", "--help", "next"], None),
    ([], None),
])
def test_invoked_command(argv: list[str], name: str | None) -> None:
    assert invoked_command(argv) == name


COUNT_CONVERSIONS = """
import sys, typer.main
seen = []
convert = typer.main.get_command_from_info
def counting(*args, **kwargs):
    info = args[0] if args else kwargs["command_info"]
    seen.append(info.name)
    return convert(*args, **kwargs)
typer.main.get_command_from_info = counting
sys.argv = ["joseki", *sys.argv[1:]]
from joseki.cli.main import app
try:
    app()
except SystemExit:
    pass
print("CONVERTED", ",".join(sorted(seen)), file=sys.stderr)
"""


def converted(*args: str) -> list[str]:
    run = subprocess.run([sys.executable, "-c", COUNT_CONVERSIONS, *args], capture_output=True, text=True,
                         timeout=300)
    line = [x for x in run.stderr.splitlines() if x.startswith("CONVERTED")][-1]
    return line.split(" ", 1)[1].split(",") if " " in line else []


def test_a_command_converts_only_itself() -> None:
    assert converted("flatten", "--help") == ["flatten"]
    assert converted("--db", "x.sqlite", "db", "--help") == ["info", "upgrade"]
    assert len(converted("--help")) >= 14


def test_help_and_typos_still_see_every_command() -> None:
    listed = joseki("--help").stdout
    for name in ("import", "next", "flatten", "learn", "mine", "gtp", "match", "show", "export", "db"):
        assert f"  {name} " in listed
    typo = joseki("nxt")
    assert typo.returncode == 2
    assert "Did you mean 'next'" in typo.stderr
