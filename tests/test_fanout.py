"""The fan-out over local worker processes: results in the items' order, and work handed out ahead."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from joseki.games.fanout import CHUNKS_PER_PROCESS, Workers, fan_out


@dataclass(frozen=True)
class Touch:
    """A chunk task that leaves a file for each item it was given (so the test sees how far the workers got)."""

    folder: str

    def __call__(self, chunk: list[int]) -> list[int]:
        for item in chunk:
            Path(self.folder, str(item)).touch()
        return chunk


def test_the_workers_go_on_ahead_while_the_caller_stops(tmp_path: Path) -> None:
    # mine stops taking results while it writes: the workers must have its ``ahead`` items to go on with
    ahead = 4 * CHUNKS_PER_PROCESS * 2
    results = fan_out(Touch(str(tmp_path)), range(1000), 1000, Workers(2), chunk=1, ahead=ahead)
    assert next(results) == [0]
    deadline = time.monotonic() + 300  # only a broken fan-out waits this long
    while len(list(tmp_path.iterdir())) < ahead and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(list(tmp_path.iterdir())) >= ahead  # without ``ahead``: 1 + CHUNKS_PER_PROCESS * 2 at most
    assert [item for part in results for item in part] == list(range(1, 1000))
    assert len(list(tmp_path.iterdir())) == 1000
