"""Matches between two GTP engines: play N games, referee them, score them and write each as SGF.

The first engine (``black_cmd``) takes black in games 1, 3, 5 ..., the second in games 2, 4,
6 .... A game ends on two passes in a row, a resignation, or ``max_moves``. The referee
scores the first and the last itself, so no result waits on a slow engine:

* after two passes, by area (:func:`area_result`: stones plus empty points surrounded by
  one colour, minus komi), once the stones an engine names in ``final_status_list dead``
  (the first engine's answer, else the second's) are taken off; if neither can say, all
  stones count as alive (if one hangs, the game is left unscored);
* a game cut short by the move limit, by an estimate of the area on the position reached
  (:func:`estimate_result`: stones plus the empty points the project's influence model,
  :func:`joseki.core.influence.area`, gives each side, minus komi). No engine is asked:
  dead-stone analysis of an unfinished game is slow (GNU Go: half a minute) and a guess.

The rule used is written in the SGF comment. The referee is
:class:`~joseki.engine.gtp.GameState` (simple ko, no suicide): a move it rejects, a failed or
unparseable ``genmove``, or an engine refusing a legal ``play`` or dying loses the game for
that engine by forfeit (``B+F`` / ``W+F``). An engine that does not answer within the timeout
(a guard against hung engines, not a time limit) leaves the game unscored (``?``) rather than
losing it. Engines are kept between games and restarted if one has died.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from sgfmill import sgf

from joseki import __version__
from joseki.core.errors import BadInput
from joseki.core.geometry import Point
from joseki.core.influence import area, influence
from joseki.core.notation import format_gtp_vertex, parse_gtp_vertex
from joseki.core.steps import other
from joseki.engine.gtp import (
    DEFAULT_TIMEOUT,
    SLOW_FACTOR,
    EngineDied,
    EngineError,
    EngineTimeout,
    GameState,
    GtpEngine,
    GtpError,
)
from joseki.engine.gtp_syntax import format_komi
from joseki.sgf.output import write_output


@dataclass(slots=True)
class GameRecord:
    """One finished game of a match.

    ``result`` is the SGF ``RE`` value (``B+3.5``, ``W+R``, ``B+F``, ``0`` for a draw, ``?`` if
    unscored); ``winner`` is ``"b"``, ``"w"`` or None; ``moves`` counts the moves played,
    passes included; ``swapped`` is True when the second engine (``white_cmd``) played black;
    ``scoring`` says how the result was counted (empty when the game was not counted).
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
    scoring: str = ""


def _result(margin: float) -> tuple[str, str | None]:
    """The SGF result and winner of black's margin (komi included); ``0`` is a draw."""
    if margin == 0:
        return "0", None
    winner = "b" if margin > 0 else "w"
    return f"{winner.upper()}+{abs(margin):g}", winner


def area_result(state: GameState, dead: Iterable[Point] = ()) -> tuple[str, str | None]:
    """The SGF result and winner by area count: stones plus empty regions that touch one colour only, minus komi.

    ``dead`` stones are taken off the board first; an empty region touching both colours
    counts for neither. ``0`` is a draw.
    """
    board = state.board.copy()
    board.apply_setup((), (), [(state.size - 1 - y, x) for x, y in dead])
    return _result(board.area_score() - state.komi)


def estimate_result(state: GameState) -> tuple[str, str | None]:
    """The SGF result and winner of an unfinished game: stones plus influence area, minus komi.

    Every stone counts as alive; an empty point counts for a colour when
    :func:`joseki.core.influence.area` gives it to that colour.
    """
    stones = {(x, y): colour for x in range(state.size) for y in range(state.size)
              if (colour := state.stone((x, y))) is not None}
    areas = area(influence(stones, state.size), stones)
    black = len(areas["b"]) + sum(1 for colour in stones.values() if colour == "b")
    white = len(areas["w"]) + sum(1 for colour in stones.values() if colour == "w")
    return _result(black - white - state.komi)


def parse_dead(answer: str, state: GameState) -> list[Point]:
    """The points of a ``final_status_list dead`` answer; BadInput unless each holds a stone."""
    points: list[Point] = []
    for token in answer.split():
        point = parse_gtp_vertex(token, state.size)
        if point is None or state.stone(point) is None:
            raise BadInput(f"final_status_list names {token!r}, which holds no stone")
        points.append(point)
    return points


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

    def send(self, command: str, slow: bool = False) -> str:
        """Send a command to the engine of this game; never restarts it (EngineDied if it has gone).

        ``slow`` commands (dead-stone analysis) get SLOW_FACTOR times the timeout.
        """
        if self.engine is None:
            raise EngineDied(f"engine {self.command!r} is not running")
        return self.engine.send(command, self.timeout * (SLOW_FACTOR if slow else 1))

    def close(self) -> None:
        if self.engine is not None:
            self.engine.close()


class _GameOver(Exception):
    def __init__(self, result: str, winner: str | None, reason: str, scoring: str = "") -> None:
        super().__init__(reason)
        self.result, self.winner, self.reason, self.scoring = result, winner, reason, scoring


def _forfeit(loser: str, reason: str) -> _GameOver:
    winner = other(loser)
    return _GameOver(f"{winner.upper()}+F", winner, f"{reason} (forfeit by {loser.upper()})")


def _engine_failed(colour: str, exc: EngineError | GtpError) -> _GameOver:
    """A failed command: a forfeit, except a timeout, which leaves the game unscored."""
    if isinstance(exc, EngineTimeout):
        return _GameOver("?", None, f"not scored: {exc}")
    return _forfeit(colour, f"engine error: {exc}")


def _estimate(state: GameState, reason: str) -> _GameOver:
    result, winner = estimate_result(state)
    return _GameOver(result, winner, reason, f"Cut short: scored by an estimate of the area (stones plus the empty "
                                             f"points the influence model gives each side, komi {state.komi:g}).")


def _count(state: GameState, reason: str, dead: list[Point] | None, judge: str) -> _GameOver:
    result, winner = area_result(state, dead or ())
    rule = f"Scored by area (stones plus surrounded points, komi {state.komi:g})"
    if dead is None:
        rule += f", all stones alive: {judge}"
    elif dead:
        vertices = " ".join(format_gtp_vertex(point, state.size) for point in dead)
        rule += f", after taking off the stones {judge} judged dead: {vertices}"
    else:
        rule += f", all stones alive as {judge} judged"
    return _GameOver(result, winner, reason, rule + ".")


def _score_passes(players: list[_Player], state: GameState) -> _GameOver:
    """Two passes: take off the stones an engine calls dead, then count the area.

    An engine that cannot say (it lacks the command, fails or dies) passes the question on;
    one that hangs leaves the game unscored, so no timeout changes a result.
    """
    problems: list[str] = []
    for player in players:
        try:
            dead = parse_dead(player.send("final_status_list dead", slow=True), state)
        except EngineTimeout as exc:
            return _GameOver("?", None, f"two passes; not scored: {exc}")
        except (EngineError, GtpError, ValueError) as exc:
            problems.append(str(exc))
            continue
        return _count(state, "two passes", dead, player.label)
    return _count(state, "two passes", None, f"no engine named the dead stones ({'; '.join(problems)})")


def _play_game(players: list[_Player], swapped: bool, state: GameState, max_moves: int) -> _GameOver:
    sides = {"b": players[1], "w": players[0]} if swapped else {"b": players[0], "w": players[1]}
    for colour, player in sides.items():
        try:
            player.start()
            for command in (f"boardsize {state.size}", "clear_board", f"komi {format_komi(state.komi)}"):
                player.send(command)
        except (EngineError, GtpError) as exc:
            return _engine_failed(colour, exc)
    colour, passes = "b", 0
    while True:
        if len(state.moves) >= max_moves:
            return _estimate(state, f"move limit ({max_moves})")
        try:
            answer = sides[colour].send(f"genmove {colour}")
        except (EngineError, GtpError) as exc:
            return _engine_failed(colour, exc)
        token = answer.split()[0] if answer.split() else ""
        if token.lower() == "resign":
            winner = other(colour)
            return _GameOver(f"{winner.upper()}+R", winner, "resignation")
        try:
            point = parse_gtp_vertex(token, state.size)
            state.play(colour, point)
        except ValueError as exc:
            return _forfeit(colour, f"illegal move {answer!r}: {exc}")
        try:
            sides[other(colour)].send(f"play {colour} {format_gtp_vertex(point, state.size)}")
        except (EngineError, GtpError) as exc:
            return _engine_failed(other(colour), exc)
        passes = passes + 1 if point is None else 0
        if passes == 2:
            return _score_passes(players, state)
        colour = other(colour)


def _write_sgf(path: Path, state: GameState, black: str, white: str, over: _GameOver) -> None:
    game = sgf.Sgf_game(state.size)
    root = game.get_root()
    root.set("AP", ("joseki", __version__))
    root.set("PB", black)
    root.set("PW", white)
    root.set("KM", state.komi)
    root.set("DT", date.today().isoformat())
    root.set("RE", over.result)
    root.set("C", f"Game ended: {over.reason}." + (f" {over.scoring}" if over.scoring else ""))
    for colour, point in state.moves:
        node = game.extend_main_sequence()
        node.set_move(colour, None if point is None else (state.size - 1 - point[1], point[0]))
    write_output(path, game.serialise())


def play_match(black_cmd: str, white_cmd: str, games: int, out_dir: Path, max_moves: int = 400,
               komi: float = 7.5, size: int = 19, timeout: float = DEFAULT_TIMEOUT,
               progress: Callable[[int, GameRecord], None] | None = None) -> list[GameRecord]:
    """Play ``games`` games, colours alternating, writing ``out_dir/game-0001.sgf`` ...; return their records.

    ``black_cmd`` is the first engine (black in odd games). BadInput for bad arguments;
    engine failures never raise, they lose the game they happen in.
    """
    if games < 1:
        raise BadInput(f"games must be at least 1, not {games}")
    if max_moves < 1:
        raise BadInput(f"max_moves must be at least 1, not {max_moves}")
    if not 0 < timeout < math.inf:
        raise BadInput(f"timeout must be a positive number of seconds, not {timeout}")
    format_komi(komi)  # checks the komi is finite
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
                                over.winner, over.reason, swapped, over.scoring)
            records.append(record)
            if progress is not None:
                progress(number, record)
    finally:
        for player in players:
            player.close()
    return records
