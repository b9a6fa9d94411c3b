"""Matches between two GTP engines: play N games, referee them, score them and write each as SGF.

The first engine (``black_cmd``) takes black in games 1, 3, 5 ..., the second in games 2, 4,
6 .... A game ends on two passes in a row, a resignation, or ``max_moves``; the first two
and the move limit are scored by ``final_score`` (the first engine's, else the second's).
The referee is :class:`~joseki.engine.gtp.GameState` (simple ko, no suicide): a move it rejects,
a failed or unparseable ``genmove``, or an engine refusing a legal ``play`` or dying loses
the game for that engine by forfeit (``B+F`` / ``W+F``). Engines are kept between games and
restarted if one has died.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from sgfmill import sgf

from joseki import __version__
from joseki.core.notation import format_gtp_vertex, parse_gtp_vertex
from joseki.core.steps import other
from joseki.engine.gtp import DEFAULT_TIMEOUT, EngineDied, EngineError, GameState, GtpEngine, GtpError
from joseki.sgf.output import write_output

_SCORE = re.compile(r"^([BW])\+(\d+(?:\.\d+)?|R|Resign|T|Time|F|Forfeit)?$", re.IGNORECASE)


@dataclass(slots=True)
class GameRecord:
    """One finished game of a match.

    ``result`` is the SGF ``RE`` value (``B+3.5``, ``W+R``, ``B+F``, ``0`` for a draw, ``?`` if
    unscored); ``winner`` is ``"b"``, ``"w"`` or None; ``moves`` counts the moves played,
    passes included; ``swapped`` is True when the second engine (``white_cmd``) played black.
    """

    number: int
    path: Path
    black: str
    white: str
    result: str
    moves: int
    winner: str | None
    reason: str
    swapped: bool


def parse_score(text: str) -> tuple[str, str | None]:
    """The SGF result and winner of a ``final_score`` answer (``B+3.5``, ``W+R``, ``0``); ValueError otherwise."""
    token = text.strip()
    if token.lower() in ("0", "jigo", "draw", "b+0", "w+0"):
        return "0", None
    match = _SCORE.match(token)
    if match is None:
        raise ValueError(f"bad final_score answer {text!r}")
    colour, margin = match.group(1).upper(), match.group(2) or ""
    if margin and margin[0].isalpha():
        margin = margin[0].upper()
    return f"{colour}+{margin}", colour.lower()


class _Player:
    """One side of the match: its command and (re)started engine."""

    def __init__(self, command: str, timeout: float) -> None:
        self.command = command
        self.timeout = timeout
        self.engine: GtpEngine | None = None
        self.label = command

    def start(self) -> GtpEngine:
        """The running engine, started (again) if need be; EngineError if it cannot start."""
        if self.engine is None or not self.engine.alive:
            if self.engine is not None:
                self.engine.close()
            self.engine = GtpEngine(self.command, self.timeout)
            try:
                self.label = f"{self.engine.name()} {self.engine.version()}".strip()
            except GtpError:
                self.label = self.command
        return self.engine

    def send(self, command: str) -> str:
        """Send a command to the engine of this game; never restarts it (EngineDied if it has gone)."""
        if self.engine is None:
            raise EngineDied(f"engine {self.command!r} is not running")
        return self.engine.send(command, self.timeout)

    def close(self) -> None:
        if self.engine is not None:
            self.engine.close()


class _GameOver(Exception):
    def __init__(self, result: str, winner: str | None, reason: str) -> None:
        super().__init__(reason)
        self.result, self.winner, self.reason = result, winner, reason


def _forfeit(loser: str, reason: str) -> _GameOver:
    winner = other(loser)
    return _GameOver(f"{winner.upper()}+F", winner, f"{reason} (forfeit by {loser.upper()})")


def _score(players: list[_Player], reason: str) -> _GameOver:
    problems: list[str] = []
    for player in players:
        try:
            result, winner = parse_score(player.send("final_score"))
        except (EngineError, GtpError, ValueError) as exc:
            problems.append(str(exc))
            continue
        return _GameOver(result, winner, reason)
    return _GameOver("?", None, f"{reason}; not scored: {'; '.join(problems)}")


def _play_game(players: list[_Player], swapped: bool, state: GameState, max_moves: int) -> _GameOver:
    sides = {"b": players[1], "w": players[0]} if swapped else {"b": players[0], "w": players[1]}
    for color, player in sides.items():
        try:
            player.start()
            for command in (f"boardsize {state.size}", "clear_board", f"komi {state.komi:g}"):
                player.send(command)
        except (EngineError, GtpError) as exc:
            return _forfeit(color, f"engine error at the start: {exc}")
    color, passes = "b", 0
    while True:
        if len(state.moves) >= max_moves:
            return _score(players, f"move limit ({max_moves})")
        try:
            answer = sides[color].send(f"genmove {color}")
        except (EngineError, GtpError) as exc:
            return _forfeit(color, f"engine error: {exc}")
        token = answer.split()[0] if answer.split() else ""
        if token.lower() == "resign":
            winner = other(color)
            return _GameOver(f"{winner.upper()}+R", winner, "resignation")
        try:
            point = parse_gtp_vertex(token, state.size)
            state.play(color, point)
        except ValueError as exc:
            return _forfeit(color, f"illegal move {answer!r}: {exc}")
        try:
            sides[other(color)].send(f"play {color} {format_gtp_vertex(point, state.size)}")
        except (EngineError, GtpError) as exc:
            return _forfeit(other(color), f"engine error: {exc}")
        passes = passes + 1 if point is None else 0
        if passes == 2:
            return _score(players, "two passes")
        color = other(color)


def _write_sgf(path: Path, state: GameState, black: str, white: str, over: _GameOver) -> None:
    game = sgf.Sgf_game(state.size)
    root = game.get_root()
    root.set("AP", ("joseki", __version__))
    root.set("PB", black)
    root.set("PW", white)
    root.set("KM", state.komi)
    root.set("DT", date.today().isoformat())
    root.set("RE", over.result)
    root.set("C", f"Game ended: {over.reason}.")
    for color, point in state.moves:
        node = game.extend_main_sequence()
        node.set_move(color, None if point is None else (state.size - 1 - point[1], point[0]))
    write_output(path, game.serialise())


def play_match(black_cmd: str, white_cmd: str, games: int, out_dir: Path, max_moves: int = 400,
               komi: float = 7.5, size: int = 19, timeout: float = DEFAULT_TIMEOUT,
               progress: Callable[[int, GameRecord], None] | None = None) -> list[GameRecord]:
    """Play ``games`` games, colours alternating, writing ``out_dir/game-0001.sgf`` ...; return their records.

    ``black_cmd`` is the first engine (black in odd games). ValueError for bad arguments;
    engine failures never raise, they lose the game they happen in.
    """
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    if max_moves < 1:
        raise ValueError(f"max_moves must be at least 1, not {max_moves}")
    if timeout <= 0:
        raise ValueError(f"timeout must be positive, not {timeout}")
    GameState(size)  # checks the size
    out_dir.mkdir(parents=True, exist_ok=True)
    players = [_Player(black_cmd, timeout), _Player(white_cmd, timeout)]
    records: list[GameRecord] = []
    try:
        for number in range(1, games + 1):
            swapped = number % 2 == 0
            state = GameState(size, komi)
            over = _play_game(players, swapped, state, max_moves)
            black, white = (players[1], players[0]) if swapped else (players[0], players[1])
            path = out_dir / f"game-{number:04d}.sgf"
            _write_sgf(path, state, black.label, white.label, over)
            record = GameRecord(number, path, black.label, white.label, over.result, len(state.moves),
                                over.winner, over.reason, swapped)
            records.append(record)
            if progress is not None:
                progress(number, record)
    finally:
        for player in players:
            player.close()
    return records
