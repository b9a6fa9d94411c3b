"""Same answers: prove that a checkout of joseki answers byte for byte as another does.

The rule for restructuring the code is "behaviour unchanged": the command line's and the HTTP
API's answers must stay byte-identical on a fixed set of stores, positions and games. This
script records those answers and compares two recordings. It talks to the code under test only
through its public faces, the ``joseki`` command line (``python -m joseki``, with the checkout
first on ``PYTHONPATH``) and HTTP requests to ``joseki serve`` run as a subprocess; it never
imports ``joseki``, so it keeps working while modules move.

Run it with the project's virtualenv (``. .venv/bin/activate``), from anywhere::

    python benchmarks/same_answers.py record OUTDIR [--checkout PATH]   # 3.5-5 min here, 9 at load 7
    python benchmarks/same_answers.py compare A B                        # exit 1 when anything differs
    python benchmarks/same_answers.py against PATH                       # record this repo and PATH, compare

``record`` builds four fresh SQLite stores in a temporary folder with the checkout's code (a:
the starter book, loaded by the first ``next``; b: Kogo 2014 as ``kogo`` and GNU Go's
``hoshi_keima.sgf`` as ``gnugo``; c: every collection of ../shared/data/joseki, Fox games learnt
into the global profile and into ``pro``, a few judged by GNU Go into ``judged``, Tygem games
mined as ``tygem``; s: a scratch store for bad input), runs the fixed list of commands and
requests, and writes one file per case into OUTDIR (``cases/NAME.out``: the command or request,
the exit code or status, whitelisted headers, then stdout, stderr, output files or body, each
with its byte count) and ``index.json`` (the cases and their SHA-256). ``--checkout`` defaults
to the repository this script lives in. Sizes are options (``record --help``); ``--env KEY=VALUE``
adds a variable to the code's environment, for experiments such as proving that a comparison bites.
The server is recorded twice on store c: as started by default (computing processes, answers kept)
and with ``--processes 0 --cache-mb 0``.

Normalisations, applied to every recorded byte string and nothing else:

- the temporary folder of the recording -> ``<WORK>`` (store paths, ``db info``'s URL, temp files);
- the checkout's path -> ``<CHECKOUT>`` (files that ship with the code, such as the starter book);
- the unpacked Tygem games' real path -> ``<TYGEM>`` (one folder, which a checkout may reach through a link);
- in the server's own console output only, its port -> ``<PORT>``.

Not recorded: HTTP headers other than Content-Type, Content-Security-Policy and
X-Content-Type-Options (so no Date, Server, X-Cache, ETag, Last-Modified; Content-Length is the
body's), ``/api/stats`` (the server's pid and cache counters), ``/api/practise`` without a seed.
Every HTTP request is sent twice (the second answer may come from the server's memory); the
file says ``again: same`` or holds the second answer too.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import hashlib
import http.client
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHARED = ROOT.parent / "shared" / "data"
JOSEKI = SHARED / "joseki"
GAMES = SHARED / "games"
KOGO = JOSEKI / "kogo-kjd-2014" / "Kogo_s_Joseki_Dictionary.sgf"
HOSHI_KEIMA = JOSEKI / "gnugo" / "hoshi_keima.sgf"
TYGEM_CACHE = ROOT / "benchmarks" / ".cache" / "tygem"
TYGEM_ARCHIVE = GAMES / "tygem-9d-2011" / "tygem-9d-2011-dev.tar.xz"
GNUGO = "/usr/games/gnugo"
WIDTH = "200"
KEPT_HEADERS = ("content-type", "content-security-policy", "x-content-type-options")
NAME = re.compile(r"^[a-z0-9][a-z0-9._-]*$")
NORMALISATIONS = [
    "the recording's temporary folder -> <WORK>",
    "the checkout's path -> <CHECKOUT>",
    "the unpacked Tygem games' real path -> <TYGEM>",
    "the server's port, in the server's console output only -> <PORT>",
]


@dataclass
class Sizes:
    """How much of the real data a recording uses."""

    fox: int = 300
    fox_profile: int = 200
    local: int = 3
    tygem: int = 2000
    evaluate: int = 6


@dataclass
class Data:
    """The game records a recording reads, in a fixed order."""

    fox: list[str]
    kgs: list[str]
    ai: list[str]
    tygem: list[str]
    gnugo: bool


def sgf_files(folder: Path) -> list[str]:
    """Every ``*.sgf`` below ``folder``, sorted by path."""
    if not folder.is_dir():
        sys.exit(f"same_answers: data folder not found: {folder}")
    return sorted(str(p) for p in folder.rglob("*.sgf"))


def tygem_folder() -> Path:
    """The unpacked Tygem games (benchmarks/.cache/tygem), unpacked from the archive when missing; real path."""
    if not TYGEM_CACHE.exists():
        if not TYGEM_ARCHIVE.exists():
            sys.exit(f"same_answers: neither {TYGEM_CACHE} nor {TYGEM_ARCHIVE} exists")
        TYGEM_CACHE.mkdir(parents=True)
        subprocess.run(["tar", "xJf", str(TYGEM_ARCHIVE), "-C", str(TYGEM_CACHE)], check=True)
    return TYGEM_CACHE.resolve()


def load_data() -> Data:
    """The game sets, read once per recording."""
    return Data(fox=sgf_files(GAMES / "fox-pro"), kgs=sgf_files(GAMES / "kgs-highdan-2019-04"),
                ai=sgf_files(GAMES / "computer-go-dataset-ai"), tygem=sgf_files(tygem_folder()),
                gnugo=Path(GNUGO).exists() or shutil.which("gnugo") is not None)


def game_moves(path: str) -> str:
    """A game's main line as ``/api/review`` takes it: colour and SGF point per move (``tt`` a pass)."""
    from sgfmill import sgf

    game = sgf.Sgf_game.from_bytes(Path(path).read_bytes())
    size = game.get_size()
    text = []
    for node in game.get_main_sequence():
        colour, point = node.get_move()
        if colour is None:
            continue
        text.append(colour + ("tt" if point is None else chr(97 + point[1]) + chr(97 + size - 1 - point[0])))
    return "".join(text)


def python_root(checkout: Path) -> Path:
    """The folder to put first on PYTHONPATH for ``checkout``: the checkout, or its ``src`` if joseki lives there."""
    return checkout / "src" if (checkout / "src" / "joseki").is_dir() else checkout


def free_port() -> int:
    """A TCP port on the loopback that nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def section(title: str, data: bytes) -> bytes:
    """One section of a case file: its title with the byte count, the bytes, a newline."""
    return f"--- {title}: {len(data)} bytes\n".encode() + data + b"\n"


def shown_command(args: Sequence[str]) -> str:
    """A command line as written into a case file; long runs of file arguments shortened."""
    args = list(args)
    files = [i for i, a in enumerate(args) if a.endswith(".sgf") and a.startswith("/")]
    if len(files) > 8:
        first, last = files[0], files[-1]
        args = [*args[:first + 2], f"... ({last - first + 1} files) ...", *args[last:]]
    return shlex.join(args)


@dataclass
class Server:
    """``joseki serve`` as a subprocess on a free port (its own process group, stopped by its id)."""

    rec: Recorder
    db: Path
    options: list[str] = field(default_factory=list)
    proc: subprocess.Popen[bytes] | None = None
    port: int = 0
    started: str = ""
    out_path: Path = Path("/dev/null")
    err_path: Path = Path("/dev/null")

    def start(self, timeout: float = 120.0) -> bool:
        """Start the server and wait until it answers; False (and the reason in ``started``) if it does not."""
        self.port = free_port()
        argv = [sys.executable, "-m", "joseki", "--db", str(self.db), "serve", "--port", str(self.port), *self.options]
        logs = self.rec.work / "logs"
        logs.mkdir(exist_ok=True)
        self.out_path, self.err_path = logs / f"serve-{self.port}.out", logs / f"serve-{self.port}.err"
        with open(self.out_path, "wb") as out, open(self.err_path, "wb") as err:
            self.proc = subprocess.Popen(argv, cwd=self.rec.run_dir, env=self.rec.env, stdin=subprocess.DEVNULL,
                                         stdout=out, stderr=err, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self.started = f"exited with {self.proc.returncode} before answering"
                return False
            try:
                status, _, _ = self.request("GET", "/api/catalogue", timeout=2.0)
                if status:
                    return True
            except OSError:
                time.sleep(0.2)
        self.started = f"no answer within {timeout:.0f} s"
        self.stop()
        return False

    def request(self, method: str, target: str, body: bytes | None = None, headers: dict[str, str] | None = None,
                timeout: float = 120.0) -> tuple[int, list[tuple[str, str]], bytes]:
        """One HTTP request on a new connection: status, headers (lower-case names), body."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            conn.request(method, target, body=body, headers=headers or {})
            response = conn.getresponse()
            return response.status, [(k.lower(), v) for k, v in response.getheaders()], response.read()
        finally:
            conn.close()

    def stop(self) -> tuple[int | None, bytes, bytes]:
        """Stop the server (SIGTERM to its process group, SIGKILL after 30 s): exit code, stdout, stderr."""
        code = None
        if self.proc is not None:
            if self.proc.poll() is None:
                os.killpg(self.proc.pid, signal.SIGTERM)
                try:
                    self.proc.wait(30)
                except subprocess.TimeoutExpired:
                    os.killpg(self.proc.pid, signal.SIGKILL)
                    self.proc.wait(30)
            code = self.proc.returncode
            self.proc = None
        return code, self.out_path.read_bytes(), self.err_path.read_bytes()


class Recorder:
    """Runs cases against one checkout and writes each answer into the output folder."""

    def __init__(self, out: Path, checkout: Path, work: Path, extra_env: dict[str, str]) -> None:
        self.out, self.checkout, self.work = out, checkout, work
        self.run_dir, self.stores = work / "run", work / "stores"
        for folder in (self.run_dir, self.stores, work / "home", work / "tmp"):
            folder.mkdir(parents=True, exist_ok=True)
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(work / "home"),
            "XDG_DATA_HOME": str(work / "home" / "data"), "XDG_CONFIG_HOME": str(work / "home" / "config"),
            "XDG_CACHE_HOME": str(work / "home" / "cache"), "TMPDIR": str(work / "tmp"), "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8", "TZ": "UTC", "TERM": "dumb", "COLUMNS": WIDTH, "LINES": "60",
            "PYTHONPATH": str(python_root(checkout)), "PYTHONDONTWRITEBYTECODE": "1", "PYTHONIOENCODING": "utf-8",
            **extra_env,
        }
        pairs = {str(work): "<WORK>", str(work.resolve()): "<WORK>", str(checkout): "<CHECKOUT>",
                 str(checkout.resolve()): "<CHECKOUT>", str(tygem_folder()): "<TYGEM>"}
        self.replacements = sorted(((k.encode(), v.encode()) for k, v in pairs.items()), key=lambda kv: -len(kv[0]))
        self.cases: list[dict[str, Any]] = []

    def check_import(self) -> str:
        """Fail loudly unless ``python -m joseki`` would run the checkout's code; the joseki file imported."""
        probe = subprocess.run([sys.executable, "-c", "import joseki; print(joseki.__file__)"], cwd=self.run_dir,
                               env=self.env, stdin=subprocess.DEVNULL, capture_output=True, text=True)
        found = Path(probe.stdout.strip()).resolve() if probe.returncode == 0 else None
        if found is None or not found.is_relative_to(self.checkout.resolve()):
            sys.exit(f"same_answers: PYTHONPATH={self.env['PYTHONPATH']} imports joseki from {found} "
                     f"(not from the checkout {self.checkout}): {probe.stderr.strip()}")
        return str(found)

    def normalise(self, data: bytes) -> bytes:
        """The listed normalisations (module docstring), nothing else."""
        for old, new in self.replacements:
            data = data.replace(old, new)
        return data

    def store(self, name: str) -> Path:
        """The path of store ``name`` in the work folder."""
        return self.stores / f"{name}.sqlite"

    def write(self, name: str, kind: str, head: list[tuple[str, str]], body: bytes, **facts: Any) -> None:
        """Write one case file and add it to the index."""
        if not NAME.match(name) or any(c["name"] == name for c in self.cases):
            raise ValueError(f"bad or repeated case name {name!r}")
        text = f"case: {name}\n".encode() + b"".join(self.normalise(f"{k}: {v}\n".encode()) for k, v in head) + body
        path = self.out / "cases" / f"{name}.out"
        path.write_bytes(text)
        self.cases.append({"name": name, "kind": kind, "file": f"cases/{name}.out",
                           "sha256": hashlib.sha256(text).hexdigest(), **facts})
        print(f"  {name}", file=sys.stderr, flush=True)

    def cli(self, name: str, args: Sequence[str], db: str | Path | None = None, files: Sequence[str] = (),
            timeout: float = 1800.0) -> subprocess.CompletedProcess[bytes]:
        """Run ``python -m joseki [--db DB] ARGS`` and record its exit code, stdout, stderr and output ``files``."""
        argv = [*(("--db", str(db)) if db is not None else ()), *args]
        for f in files:
            (self.run_dir / f).unlink(missing_ok=True)
        proc = subprocess.run([sys.executable, "-m", "joseki", *argv], cwd=self.run_dir, env=self.env,
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
        body = section("stdout", self.normalise(proc.stdout)) + section("stderr", self.normalise(proc.stderr))
        for f in files:
            written = self.run_dir / f
            if written.exists():
                body += section(f"file {f}", self.normalise(written.read_bytes()))
                written.unlink()
            else:
                body += f"--- file {f}: not written\n".encode()
        self.write(name, "cli", [("command", "joseki " + shown_command(argv)), ("exit", str(proc.returncode))], body,
                   exit=proc.returncode)
        return proc

    def cli_both(self, name: str, args: Sequence[str], db: str | Path | None = None) -> None:
        """The same command as a table (``NAME``) and with ``--json`` (``NAME.json``)."""
        self.cli(name, args, db)
        self.cli(name + ".json", [*args, "--json"], db)

    def http(self, server: Server, name: str, target: str, method: str = "GET", data: bytes | None = None,
             headers: dict[str, str] | None = None) -> bytes:
        """Send a request twice and record the first answer (status, kept headers, body) and whether the second
        was the same; returns the first body."""
        answers = [self._ask(server, method, target, data, headers) for _ in range(2)]
        (status, got, body), again = answers[0], answers[1]

        def kept(h: list[tuple[str, str]]) -> list[tuple[str, str]]:
            return [(k, v) for k, v in h if k in KEPT_HEADERS]

        head = [("request", f"{method} {target}"), *((f"header {k}", v) for k, v in (headers or {}).items())]
        head += [("status", str(status)), *kept(got)]
        same = again[0] == status and kept(again[1]) == kept(got) and again[2] == body
        head.append(("again", "same" if same else "different"))
        out = section("body", self.normalise(body))
        if not same:
            out += section(f"again: status {again[0]}, {kept(again[1])}; body", self.normalise(again[2]))
        self.write(name, "http", head, out, status=status)
        return body

    @staticmethod
    def _ask(server: Server, method: str, target: str, data: bytes | None,
             headers: dict[str, str] | None) -> tuple[int | str, list[tuple[str, str]], bytes]:
        """One request; a server that does not answer gives the exception's name as the status."""
        try:
            return server.request(method, target, data, headers)
        except (OSError, http.client.HTTPException) as exc:
            return f"no answer ({type(exc).__name__})", [], b""

    def serve(self, prefix: str, db: Path, options: Sequence[str], requests: Any) -> None:
        """Run ``requests(server)`` against ``joseki serve`` on ``db``; record the server's own output as
        ``PREFIX.serve`` after stopping it."""
        server = Server(self, db, list(options))
        try:
            if server.start():
                requests(server)
        finally:
            code, out, err = server.stop()
        port = str(server.port).encode()
        body = (section("stdout", self.normalise(out).replace(port, b"<PORT>"))
                + section("stderr", self.normalise(err).replace(port, b"<PORT>")))
        command = shown_command(["--db", str(db), "serve", "--port", "PORT", *options]).replace("PORT", "<PORT>")
        head = [("command", "joseki " + command),
                ("started", server.started or "answered"), ("exit after SIGTERM", str(code))]
        self.write(f"{prefix}.serve", "serve", head, body, exit=code)


# The cases ------------------------------------------------------------------------------------------------------

NEXT_STARTER: list[tuple[str, list[str]]] = [
    ("empty", []),
    ("q16", ["Q16"]),
    ("q16-r14", ["Q16", "R14"]),
    ("d4-c6", ["D4", "C6"]),
    ("d16-f17", ["D16", "F17"]),
    ("q4-o3", ["Q4", "O3"]),
    ("q16-o17-reflected", ["Q16", "O17"]),
    ("sgf-pd-qf", ["pd", "qf"]),
    ("first-white", ["Q16", "R14", "--first", "white"]),
    ("steps", ["--steps", "DDCF"]),
    ("steps-corner", ["--steps", "DDCF", "--corner", "bottom-left", "--first", "white"]),
    ("empty-corner", ["--corner", "bottom-right"]),
    ("tenuki", ["Q16", "R14", "pass"]),
    ("tenuki-tt", ["Q16", "tt"]),
    ("left-book", ["Q16", "R14", "S18"]),
    ("top-2", ["Q16", "R14", "--top", "2"]),
    ("show-steps", ["Q16", "R14", "--show-steps"]),
    ("rank-priority", ["Q16", "R14", "--rank", "priority"]),
    ("rank-winrate", ["Q16", "R14", "--rank", "winrate"]),
    ("rank-games", ["Q16", "R14", "--rank", "games"]),
    ("two-corners", ["Q16", "D4", "R14", "C6"]),
]

NEXT_BOOK: list[tuple[str, list[str]]] = [
    ("q16-r14", ["Q16", "R14"]),
    ("q16-r14-top6", ["Q16", "R14", "--top", "6"]),
    ("d4-c6", ["D4", "C6"]),
    ("d16-c14-reflected", ["D16", "C14"]),
    ("q4-r6", ["Q4", "R6"]),
    ("sgf-dp-cn", ["dp", "cn"]),
    ("first-white", ["Q16", "R14", "--first", "white", "--top", "5"]),
    ("steps", ["--steps", "DDCF", "--top", "5"]),
    ("komoku", ["R16", "P17"]),
    ("komoku-deep", ["R16", "P17", "M16", "P14", "P16", "O16"]),
    ("ladder-breaker", ["Q4", "D4", "R16", "P17", "M16", "P14", "P16", "O16", "--top", "4"]),
    ("transposition", ["P15", "R14", "Q16", "R17"]),
    ("transposition-steps", ["--steps", "EECFDDCC"]),
    ("left-book", ["Q16", "R14", "S18"]),
    ("left-book-late", ["Q16", "R14", "P15", "R17", "A1"]),
    ("tenuki", ["Q16", "R14", "pass"]),
    ("tenuki-twice", ["Q16", "pass", "pass", "R14"]),
    ("col-kogo", ["Q16", "R14", "--collection", "kogo", "--top", "5"]),
    ("col-gnugo", ["Q16", "R14", "--collection", "gnugo"]),
    ("col-both", ["Q16", "R14", "--collection", "kogo", "--collection", "gnugo", "--top", "8"]),
    ("rank-priority", ["Q16", "R14", "--rank", "priority", "--top", "5"]),
    ("rank-winrate", ["Q16", "R14", "--rank", "winrate", "--top", "5"]),
    ("rank-games", ["Q16", "R14", "--rank", "games", "--top", "5"]),
    ("show-steps", ["R16", "P17", "--show-steps", "--top", "4"]),
    ("whole-board", ["Q16", "D4", "R14", "C6", "D16", "F17", "--top", "3"]),
]

NEXT_LEARNT: list[tuple[str, list[str]]] = [
    ("empty", ["--top", "8"]),
    ("q16-r14", ["Q16", "R14", "--top", "10"]),
    ("q16-r14-pro", ["Q16", "R14", "--profile", "pro", "--top", "10"]),
    ("q16-r14-pro-priority", ["Q16", "R14", "--profile", "pro", "--rank", "priority", "--top", "10"]),
    ("q16-r14-judged", ["Q16", "R14", "--profile", "judged", "--rank", "priority", "--top", "10"]),
    ("q16-r14-winrate", ["Q16", "R14", "--rank", "winrate", "--top", "10"]),
    ("q16-r14-games", ["Q16", "R14", "--rank", "games", "--top", "10"]),
    ("tygem", ["Q16", "R14", "--collection", "tygem"]),
    ("tygem-deep", ["R16", "P17", "--collection", "tygem"]),
    ("tygem-beyond", ["Q16", "R14", "O17", "--collection", "tygem"]),
    ("katago", ["Q16", "R14", "--collection", "katago_rating_joseki", "--top", "6"]),
    ("ogs-pachi", ["D4", "C6", "--collection", "OGS_export", "--collection", "joseki_44", "--top", "6"]),
    ("context", ["Q16", "D4", "D16", "R14", "--top", "5"]),
    ("context-other", ["Q16", "D4", "Q4", "R14", "--top", "5"]),
    ("first-white", ["D16", "C14", "--first", "white", "--top", "5"]),
    ("steps", ["--steps", "DDCF", "--top", "5"]),
    ("transposition", ["P15", "R14", "Q16", "R17", "--top", "5"]),
    ("left-book", ["Q16", "R14", "S18"]),
    ("tenuki", ["Q16", "R14", "pass", "--top", "5"]),
]

BAD_NEXT: list[tuple[str, list[str]]] = [
    ("bad-vertex", ["Z99"]),
    ("bad-letter-i", ["I5"]),
    ("stone-on-stone", ["Q16", "Q16"]),
    ("bad-steps", ["--steps", "DDC"]),
    ("unknown-collection", ["Q16", "--collection", "nope"]),
    ("unknown-profile", ["Q16", "--profile", "nope"]),
    ("unknown-rank", ["Q16", "--rank", "bogus"]),
    ("top-0", ["Q16", "--top", "0"]),
    ("move-without-sgf", ["Q16", "--move", "3"]),
    ("missing-sgf", ["--sgf", "/nonexistent/game.sgf"]),
]


def bad_files(run_dir: Path) -> dict[str, str]:
    """Small bad game and collection files written by the recorder (names relative to the run folder)."""
    texts = {
        "bad/illegal.sgf": "(;GM[1]FF[4]SZ[19]RE[B+R];B[pd];W[dd];B[dd])",
        "bad/nine.sgf": "(;GM[1]FF[4]SZ[9]RE[W+2.5];B[cc];W[gg])",
        "bad/truncated.sgf": "(;GM[1]FF[4]SZ[19];B[pd];W[dd];B[q",
        "bad/empty.sgf": "",
        "bad/text.sgf": "this is not SGF\n",
        "bad/noresult.sgf": "(;GM[1]FF[4]SZ[19];B[pd];W[dd];B[pq];W[dp])",
        "bad/notadb.sqlite": "hello, I am not a database\n",
    }
    (run_dir / "bad").mkdir(exist_ok=True)
    (run_dir / "out").mkdir(exist_ok=True)
    for name, text in texts.items():
        (run_dir / name).write_text(text, encoding="utf-8")
    return texts


def record_cli(rec: Recorder, data: Data, sizes: Sizes) -> None:
    """Build the stores and run every command-line case."""
    fox, tygem = data.fox, data.tygem
    learnt, pro = fox[: sizes.fox], fox[sizes.fox: sizes.fox + sizes.fox_profile]
    judged = fox[sizes.fox + sizes.fox_profile: sizes.fox + sizes.fox_profile + sizes.local]
    unseen = fox[len(fox) // 2: len(fox) // 2 + sizes.evaluate]
    tygem_unseen = tygem[sizes.tygem + 500: sizes.tygem + 500 + sizes.evaluate]
    games = {"fox-learnt": (fox[0], 60), "fox-unseen": (unseen[0], 40), "kgs": (data.kgs[0], 50),
             "ai": (data.ai[0], 80), "tygem-mined": (tygem[0], 30), "tygem-unseen": (tygem_unseen[0], 45)}
    bad_files(rec.run_dir)

    # Files alone (no store).
    rec.cli("files.flatten.hoshi-keima", ["flatten", str(HOSHI_KEIMA)])
    rec.cli("files.flatten.hoshi-keima.json", ["flatten", str(HOSHI_KEIMA), "--json"])
    rec.cli("files.flatten.pachi-44", ["flatten", str(JOSEKI / "pachi" / "joseki_44.sgf")])
    rec.cli("files.flatten.kogo.json", ["flatten", str(KOGO), "--json"])
    rec.cli("files.flatten.missing", ["flatten", "/nonexistent/book.sgf"])
    rec.cli("files.flatten.text", ["flatten", "bad/text.sgf"])
    for slug, path in [("kogo", KOGO), ("ogs", JOSEKI / "ogs-joseki-export" / "OGS_export.sgf"),
                       ("hoshi-keima", HOSHI_KEIMA), ("pachi-fix", JOSEKI / "pachi" / "josekifix.sgf"),
                       ("katago-rating", JOSEKI / "katago-joseki-extraction" / "katago_rating_joseki.sgf")]:
        rec.cli(f"files.lint.{slug}.json", ["lint", str(path), "--json"])
    rec.cli("files.lint.hoshi-keima", ["lint", str(HOSHI_KEIMA)])
    rec.cli("files.lint.missing", ["lint", "/nonexistent/book.sgf"])
    rec.cli("files.lint.truncated", ["lint", "bad/truncated.sgf"])

    # (a) A new store answered with the starter book: the first next loads it.
    a = rec.store("a")
    rec.cli("a.next.first-loads-starter", ["next", "Q16", "R14"], a)
    for slug, args in NEXT_STARTER:
        rec.cli_both(f"a.next.{slug}", ["next", *args], a)
    rec.cli_both("a.show.q16-r14", ["show", "Q16", "R14"], a)
    rec.cli_both("a.show.steps", ["show", "DDCF", "--show-steps"], a)
    rec.cli_both("a.games.q16-r14", ["games", "Q16", "R14"], a)
    rec.cli_both("a.stats", ["stats"], a)
    rec.cli("a.export", ["export", "-o", "out/a-export.sgf", "--json"], a, files=["out/a-export.sgf"])
    rec.cli("a.next.sgf", ["next", "--sgf", games["fox-unseen"][0], "--move", "40"], a)
    rec.cli_both("a.db-info", ["db", "info"], a)

    # (b) Kogo 2014 as kogo, GNU Go's hoshi_keima as gnugo.
    b = rec.store("b")
    rec.cli("b.import.kogo", ["import", str(KOGO), "--collection", "kogo"], b)
    rec.cli("b.import.gnugo.json", ["import", str(HOSHI_KEIMA), "--collection", "gnugo", "--json"], b)
    rec.cli("b.import.again.json", ["import", str(KOGO), "--collection", "kogo", "--json"], b)
    for slug, args in NEXT_BOOK:
        rec.cli_both(f"b.next.{slug}", ["next", *args], b)
    for slug, args in BAD_NEXT:
        rec.cli(f"b.next.{slug}", ["next", *args], b)
    rec.cli("b.next.sgf-first", ["next", "--sgf", games["kgs"][0], "--first", "white"], b)
    rec.cli("b.next.sgf-illegal", ["next", "--sgf", "bad/illegal.sgf"], b)
    rec.cli("b.next.sgf-nine", ["next", "--sgf", "bad/nine.sgf"], b)
    rec.cli("b.next.sgf-text", ["next", "--sgf", "bad/text.sgf"], b)
    rec.cli("b.next.sgf-empty", ["next", "--sgf", "bad/empty.sgf"], b)
    for slug, (game, move) in games.items():
        rec.cli_both(f"b.next.sgf.{slug}", ["next", "--sgf", game, "--move", str(move)], b)
    rec.cli_both("b.show.q16-r14", ["show", "Q16", "R14"], b)
    rec.cli_both("b.show.komoku-deep", ["show", "R16", "P17", "M16", "P14", "P16", "O16"], b)
    rec.cli_both("b.show.gnugo", ["show", "Q16", "R14", "O17", "--collection", "gnugo", "--show-steps"], b)
    rec.cli("b.show.steps-corner.json", ["show", "DDCF", "--corner", "bottom-left", "--first", "white", "--json"], b)
    rec.cli("b.show.not-in-book", ["show", "Q16", "A1"], b)
    rec.cli("b.show.bad", ["show", "DDC"], b)
    rec.cli_both("b.stats", ["stats"], b)
    rec.cli("b.stats.gnugo.json", ["stats", "--collection", "gnugo", "--json"], b)
    rec.cli("b.export.all", ["export", "-o", "out/b-export.sgf"], b, files=["out/b-export.sgf"])
    rec.cli("b.export.gnugo.json", ["export", "--collection", "gnugo", "-o", "out/b-gnugo.sgf", "--json"], b,
            files=["out/b-gnugo.sgf"])
    rec.cli("b.export.unknown", ["export", "--collection", "nope", "-o", "out/b-nope.sgf"], b,
            files=["out/b-nope.sgf"])
    rec.cli("b.annotate", ["annotate", games["fox-unseen"][0], "-o", "out/b-annotated.sgf"], b,
            files=["out/b-annotated.sgf"])
    rec.cli("b.annotate.kgs.json", ["annotate", games["kgs"][0], "-o", "out/b-kgs.sgf", "--top", "3", "--json"], b,
            files=["out/b-kgs.sgf"])
    rec.cli("b.annotate.missing", ["annotate", "/nonexistent/game.sgf", "-o", "out/b-missing.sgf"], b)
    rec.cli_both("b.evaluate", ["evaluate", *unseen], b)
    rec.cli("b.evaluate.kogo-priority.json", ["evaluate", *unseen, "--collection", "kogo", "--rank", "priority",
                                              "--json"], b)
    rec.cli("b.stats.favourability.json", ["stats", "--collection", "gnugo", "--favourability", "--json"], b)
    rec.cli("b.show.after-favourability.json", ["show", "Q16", "R14", "O17", "--json"], b)
    rec.cli("b.db-info.json", ["db", "info", "--json"], b)

    # (c) Every collection, learnt Fox games (global, pro, judged) and mined Tygem games.
    c = rec.store("c")
    rec.cli("c.import.all.json", ["import", str(JOSEKI), "--json"], c)
    rec.cli("c.learn.global", ["learn", *learnt, "--workers", "2"], c)
    rec.cli("c.learn.pro.json", ["learn", *pro, "--profile", "pro", "--workers", "2", "--json"], c)
    rec.cli("c.learn.again.json", ["learn", *learnt[:20], "--workers", "2", "--json"], c)
    if data.gnugo:
        rec.cli("c.learn.local.json", ["learn", *judged, "--signal", "local", "--profile", "judged",
                                       "--workers", "2", "--json"], c)
    rec.cli("c.mine.tygem.json", ["mine", *tygem[: sizes.tygem], "--min-games", "5", "--collection", "tygem",
                                  "--workers", "2", "--json"], c)
    for slug, args in NEXT_LEARNT:
        rec.cli_both(f"c.next.{slug}", ["next", *args], c)
    for slug, (game, move) in games.items():
        rec.cli_both(f"c.next.sgf.{slug}", ["next", "--sgf", game, "--move", str(move)], c)
    rec.cli("c.next.sgf.fox-learnt.end.json", ["next", "--sgf", games["fox-learnt"][0], "--json"], c)
    rec.cli("c.next.sgf.fox-learnt.move0.json", ["next", "--sgf", games["fox-learnt"][0], "--move", "0", "--json"], c)
    rec.cli("c.next.sgf.pro.json", ["next", "--sgf", pro[0], "--move", "50", "--profile", "pro", "--rank",
                                    "priority", "--json"], c)
    rec.cli("c.next.sgf.tygem-col.json", ["next", "--sgf", games["tygem-unseen"][0], "--move", "45",
                                          "--collection", "tygem", "--json"], c)
    rec.cli("c.next.sgf.beyond-end", ["next", "--sgf", games["kgs"][0], "--move", "100000"], c)
    for order in ("newest", "strongest"):
        rec.cli_both(f"c.games.q16-r14.{order}", ["games", "Q16", "R14", "--order", order], c)
        rec.cli(f"c.games.pro.{order}.json", ["games", "Q16", "R14", "--profile", "pro", "--order", order,
                                              "--json"], c)
    rec.cli_both("c.games.komoku", ["games", "R16", "P17", "--limit", "5"], c)
    rec.cli("c.games.transposition.json", ["games", "P15", "R14", "Q16", "R17", "--json"], c)
    rec.cli("c.games.first-white.json", ["games", "D16", "C14", "--first", "white", "--limit", "3", "--json"], c)
    rec.cli("c.games.bad-vertex", ["games", "Z99"], c)
    rec.cli("c.games.unknown-profile", ["games", "Q16", "--profile", "nope"], c)
    rec.cli_both("c.show.q16-r14-pro", ["show", "Q16", "R14", "--profile", "pro"], c)
    rec.cli("c.show.tygem.json", ["show", "R16", "P17", "--collection", "tygem", "--json"], c)
    rec.cli_both("c.evaluate", ["evaluate", *unseen], c)
    rec.cli("c.evaluate.pro-priority.json", ["evaluate", *unseen, "--profile", "pro", "--rank", "priority",
                                             "--json"], c)
    rec.cli("c.evaluate.tygem.json", ["evaluate", *tygem_unseen, "--collection", "tygem", "--json"], c)
    rec.cli("c.evaluate.bad.json", ["evaluate", "bad/illegal.sgf", "bad/nine.sgf", "bad/text.sgf", "--json"], c)
    rec.cli("c.annotate.tygem", ["annotate", games["tygem-unseen"][0], "-o", "out/c-tygem.sgf"], c,
            files=["out/c-tygem.sgf"])
    rec.cli("c.annotate.fox.json", ["annotate", games["fox-unseen"][0], "-o", "out/c-fox.sgf", "--collection",
                                    "tygem", "--json"], c, files=["out/c-fox.sgf"])
    rec.cli_both("c.stats", ["stats"], c)
    rec.cli("c.export.tygem.json", ["export", "--collection", "tygem", "-o", "out/c-tygem-export.sgf", "--json"], c,
            files=["out/c-tygem-export.sgf"])
    rec.cli("c.export.katago", ["export", "--collection", "katago_rating_joseki", "-o", "out/c-katago.sgf"], c,
            files=["out/c-katago.sgf"])
    rec.cli_both("c.db-info", ["db", "info"], c)

    # (s) A scratch store for bad input: every failure leaves it as it was; then a small mined book.
    s = rec.store("s")
    rec.cli("s.import.missing", ["import", "/nonexistent/book.sgf"], s)
    rec.cli("s.import.text.json", ["import", "bad/text.sgf", "--json"], s)
    rec.cli("s.import.nine", ["import", "bad/nine.sgf"], s)
    rec.cli("s.learn.missing", ["learn", "/nonexistent/games"], s)
    rec.cli("s.learn.unusable.json", ["learn", "bad/illegal.sgf", "bad/nine.sgf", "bad/text.sgf", "bad/empty.sgf",
                                      "bad/noresult.sgf", "--json"], s)
    rec.cli("s.mine.unusable", ["mine", "bad/illegal.sgf", "bad/truncated.sgf", "--min-games", "1"], s)
    rec.cli("s.mine.zero", ["mine", "bad/noresult.sgf", "--min-games", "0"], s)
    rec.cli_both("s.db-info", ["db", "info"], s)
    rec.cli("s.mine.table", ["mine", *tygem[:200], "--min-games", "3", "--collection", "small", "--workers", "2"], s)
    rec.cli("s.learn.table", ["learn", *data.kgs[:50], "--profile", "kgs", "--workers", "2"], s)
    rec.cli_both("s.next.q16-r14-kgs", ["next", "Q16", "R14", "--profile", "kgs"], s)
    rec.cli("s.not-a-database", ["next", "Q16"], "bad/notadb.sqlite")
    rec.cli("s.usage.unknown-command", ["frobnicate"], s)
    rec.cli("s.usage.no-args", [], s)


EXPLORE: list[tuple[str, dict[str, Any]]] = [
    ("empty", {}),
    ("q16", {"moves": "Q16"}),
    ("q16-r14", {"moves": "Q16,R14"}),
    ("sgf-pd-qf", {"moves": "pd qf"}),
    ("first-white", {"moves": "Q16,R14", "first": "white"}),
    ("d4-c6", {"moves": "D4,C6"}),
    ("corner", {"corner": "bottom-left"}),
    ("tenuki", {"moves": "Q16,R14,pass"}),
    ("left-book", {"moves": "Q16,R14,S18"}),
    ("transposition", {"moves": "P15,R14,Q16,R17"}),
    ("ladder", {"moves": "Q4,D4,R16,P17,M16,P14,P16,O16"}),
    ("pro-priority", {"moves": "Q16,R14", "profile": "pro", "rank": "priority"}),
    ("tygem", {"moves": "Q16,R14,O17", "collection": "tygem"}),
    ("two-collections", {"moves": "Q16,R14", "collection": ["hoshi_keima", "OGS_export"]}),
    ("top-favour-all", {"moves": "Q16,D4,R14", "top": 3, "favour": "all"}),
    ("rank-games", {"moves": "R16,P17", "rank": "games", "top": 5}),
]

PRACTISE: list[tuple[str, dict[str, Any]]] = [
    ("empty", {"seed": 1}),
    ("q16", {"moves": "Q16", "seed": 3}),
    ("q16-r14", {"moves": "Q16,R14", "seed": 7}),
    ("white", {"moves": "D4", "first": "white", "seed": 2}),
    ("pro", {"moves": "Q16,R14,O17", "profile": "pro", "seed": 5}),
    ("tygem", {"moves": "R16", "collection": "tygem", "seed": 11}),
    ("tenuki", {"moves": "Q16,R14,pass", "seed": 4}),
    ("off-book", {"moves": "Q16,R14,S18", "seed": 6}),
]

GAMES_HTTP: list[tuple[str, dict[str, Any]]] = [
    ("q16-r14", {"moves": "Q16,R14"}),
    ("strongest", {"moves": "Q16,R14", "order": "strongest", "limit": 5}),
    ("pro", {"moves": "Q16,R14", "profile": "pro", "limit": 5}),
    ("komoku", {"moves": "R16,P17", "limit": 3}),
    ("transposition", {"moves": "P15,R14,Q16,R17", "limit": 3}),
    ("whole-board", {"moves": "Q16,D4,R14", "limit": 3}),
    ("empty", {}),
]

BAD_HTTP: list[tuple[str, str]] = [
    ("explore.bad-vertex", "/api/explore?moves=Z99"),
    ("explore.stone-on-stone", "/api/explore?moves=Q16,Q16"),
    ("explore.top-0", "/api/explore?moves=Q16&top=0"),
    ("explore.bad-colour", "/api/explore?moves=Q16&first=green"),
    ("explore.bad-favour", "/api/explore?moves=Q16&favour=some"),
    ("explore.bad-corner", "/api/explore?corner=middle"),
    ("explore.unknown-collection", "/api/explore?moves=Q16&collection=nope"),
    ("explore.unknown-profile", "/api/explore?moves=Q16&profile=nope"),
    ("explore.unknown-rank", "/api/explore?moves=Q16&rank=bogus"),
    ("review.bad-length", "/api/review?game=bpdw"),
    ("review.bad-move", "/api/review?game=bpdwzz"),
    ("review.beyond", "/api/review?game=bpdwdd&move=5"),
    ("games.bad-order", "/api/games?moves=Q16&order=oldest"),
    ("games.bad-limit", "/api/games?moves=Q16&limit=0"),
    ("game.unknown-key", "/api/game/00000000000000000000000000000000"),
    ("game.bad-key", "/api/game/not-a-key"),
    ("practise.stone-on-stone", "/api/practise?moves=Q16,Q16&seed=1"),
    ("not-found", "/api/nothing"),
]


def target(path: str, params: dict[str, Any]) -> str:
    """``path?query`` with ``params`` in order (a list value repeats its key)."""
    return path + ("?" + urlencode(params, doseq=True, quote_via=quote, safe=",") if params else "")


def record_http_full(rec: Recorder, server: Server, prefix: str, data: Data, sizes: Sizes) -> None:
    """The HTTP cases on store (c)."""
    p = prefix
    rec.http(server, f"{p}.page.index", "/")
    rec.http(server, f"{p}.page.api", "/api")
    rec.http(server, f"{p}.openapi", "/api/openapi.json")
    rec.http(server, f"{p}.catalogue", "/api/catalogue")
    for slug, params in EXPLORE:
        rec.http(server, f"{p}.explore.{slug}", target("/api/explore", params))
    fox = data.fox
    reviewed = {"fox-learnt": fox[0], "fox-unseen": fox[len(fox) // 2], "kgs": data.kgs[0],
                "tygem": data.tygem[sizes.tygem + 500]}
    for slug, path in reviewed.items():
        moves = game_moves(path)
        for move in (0, 9, 30, None):
            query: dict[str, Any] = {"game": moves, **({} if move is None else {"move": move})}
            rec.http(server, f"{p}.review.{slug}.{'end' if move is None else move}", target("/api/review", query))
    played = game_moves(fox[0])
    rec.http(server, f"{p}.review.options", target("/api/review", {"game": played, "move": 40, "profile": "pro",
                                                                   "rank": "priority", "top": 3, "favour": "all"}))
    rec.http(server, f"{p}.review.tygem-col", target("/api/review", {"game": played, "move": 25,
                                                                     "collection": "tygem"}))
    for slug, params in PRACTISE:
        rec.http(server, f"{p}.practise.{slug}", target("/api/practise", params))
    keys: list[str] = []
    for slug, params in GAMES_HTTP:
        body = rec.http(server, f"{p}.games.{slug}", target("/api/games", params))
        with contextlib.suppress(ValueError, AttributeError, KeyError, TypeError):
            keys += [g["key"] for g in json.loads(body).get("games", [])[:1]]
    for i, key in enumerate(dict.fromkeys(keys)):
        rec.http(server, f"{p}.game.{i}", f"/api/game/{key}")
    sgf_bytes = Path(fox[len(fox) // 2]).read_bytes()
    rec.http(server, f"{p}.upload.fox", "/api/upload", "POST", sgf_bytes, {"X-File-Name": "game.sgf"})
    rec.http(server, f"{p}.upload.empty", "/api/upload", "POST", b"")
    rec.http(server, f"{p}.upload.text", "/api/upload", "POST", b"this is not SGF", {"X-File-Name": "t.sgf"})
    rec.http(server, f"{p}.upload.nine", "/api/upload", "POST", b"(;GM[1]SZ[9];B[cc];W[gg])")
    rec.http(server, f"{p}.upload.illegal", "/api/upload", "POST", b"(;GM[1]SZ[19];B[pd];W[pd])")
    for slug, path in BAD_HTTP:
        rec.http(server, f"{p}.bad.{slug}", path)
    rec.http(server, f"{p}.bad.post-explore", "/api/explore", "POST", b"{}")
    rec.http(server, f"{p}.bad.host", "/api/catalogue", headers={"Host": "evil.example"})


def record_http_starter(rec: Recorder, server: Server, prefix: str, data: Data) -> None:
    """The HTTP cases on store (a), the starter book."""
    p = prefix
    rec.http(server, f"{p}.catalogue", "/api/catalogue")
    for slug, params in [("empty", {}), ("q16-r14", {"moves": "Q16,R14"}),
                         ("d4-c6-white", {"moves": "D4,C6", "first": "white"}),
                         ("tenuki", {"moves": "Q16,R14,pass"}), ("left-book", {"moves": "Q16,R14,S18"})]:
        rec.http(server, f"{p}.explore.{slug}", target("/api/explore", params))
    rec.http(server, f"{p}.practise.q16", target("/api/practise", {"moves": "Q16", "seed": 3}))
    rec.http(server, f"{p}.practise.tenuki", target("/api/practise", {"moves": "Q16,R14,pass", "seed": 9}))
    rec.http(server, f"{p}.games.q16-r14", target("/api/games", {"moves": "Q16,R14"}))
    rec.http(server, f"{p}.review.fox", target("/api/review", {"game": game_moves(data.fox[0]), "move": 30}))
    rec.http(server, f"{p}.bad.unknown-profile", "/api/explore?moves=Q16&profile=pro")


def record(out: Path, checkout: Path, sizes: Sizes, extra_env: dict[str, str], keep_work: bool) -> None:
    """Record every case of ``checkout`` into ``out``."""
    started = time.monotonic()
    checkout = checkout.resolve()
    if out.exists() and any(out.iterdir()):
        sys.exit(f"same_answers: {out} is not empty")
    work = Path(tempfile.mkdtemp(prefix="same_answers-"))
    try:
        rec = Recorder(out, checkout, work, extra_env)
        imported = rec.check_import()
        (out / "cases").mkdir(parents=True, exist_ok=True)
        print(f"recording {checkout} (joseki from {imported}) into {out}; work folder {work}", file=sys.stderr)
        data = load_data()
        record_cli(rec, data, sizes)
        rec.serve("c-http", rec.store("c"), [], lambda server: record_http_full(rec, server, "c-http", data, sizes))
        rec.serve("c-http-nocache", rec.store("c"), ["--processes", "0", "--cache-mb", "0"],
                  lambda server: record_http_full(rec, server, "c-http-nocache", data, sizes))
        rec.serve("a-http", rec.store("a"), [], lambda server: record_http_starter(rec, server, "a-http", data))
        seconds = round(time.monotonic() - started, 1)
        index = {"checkout": str(checkout), "joseki": imported, "python": sys.version.split()[0],
                 "sizes": vars(sizes), "env": extra_env, "gnugo": data.gnugo, "normalisations": NORMALISATIONS,
                 "seconds": seconds, "cases": rec.cases}
        (out / "index.json").write_text(json.dumps(index, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"recorded {len(rec.cases)} cases in {seconds} s", file=sys.stderr)
    finally:
        if keep_work:
            print(f"work folder kept: {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)


# Comparing -------------------------------------------------------------------------------------------------------

def shown_lines(data: bytes) -> list[str]:
    """A case file as lines for a diff: a long line that is JSON (an HTTP body) is spread over indented lines."""
    lines: list[str] = []
    for line in data.decode("utf-8", "replace").splitlines():
        if len(line) > 200 and line[:1] in "{[":
            try:
                lines += json.dumps(json.loads(line), indent=1, ensure_ascii=False).splitlines()
                continue
            except ValueError:
                pass
        lines.append(line)
    return lines


def load_index(folder: Path) -> dict[str, Any]:
    """A recording's index."""
    path = folder / "index.json"
    if not path.exists():
        sys.exit(f"same_answers: {path} not found (not a recording)")
    return dict(json.loads(path.read_text(encoding="utf-8")))


def compare(a: Path, b: Path, lines: int = 40) -> bool:
    """Print a short diff per differing case and the JSON summary last; True when every case is the same."""
    ia, ib = load_index(a), load_index(b)
    if ia.get("sizes") != ib.get("sizes"):
        print(f"note: the recordings used different sizes: {ia.get('sizes')} / {ib.get('sizes')}")
    files_a = {c["name"]: c["file"] for c in ia["cases"]}
    files_b = {c["name"]: c["file"] for c in ib["cases"]}
    names = list(dict.fromkeys([*files_a, *files_b]))
    different: list[str] = []
    for name in names:
        if name not in files_a or name not in files_b:
            print(f"=== {name}: only in {a if name in files_a else b}")
            different.append(name)
            continue
        da, db = (a / files_a[name]).read_bytes(), (b / files_b[name]).read_bytes()
        if da == db:
            continue
        different.append(name)
        print(f"=== {name}")
        diff = list(difflib.unified_diff(shown_lines(da), shown_lines(db), str(a / files_a[name]),
                                         str(b / files_b[name]), n=2, lineterm=""))
        if not diff:
            diff = ["(the bytes differ only in line endings or encoding)"]
        for line in diff[:lines]:
            print(line[:300])
        if len(diff) > lines:
            print(f"... ({len(diff) - lines} more diff lines)")
    print(json.dumps({"cases": len(names), "same": len(names) - len(different), "different": different}))
    return not different


# The command line ------------------------------------------------------------------------------------------------

def parse_env(pairs: Iterable[str]) -> dict[str, str]:
    """``KEY=VALUE`` options as a dict."""
    env: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            sys.exit(f"same_answers: --env wants KEY=VALUE, not {pair!r}")
        env[key] = value
    return env


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and run record, compare or against."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    sub = parser.add_subparsers(dest="command", required=True)

    def sizes_options(p: argparse.ArgumentParser) -> None:
        defaults = Sizes()
        p.add_argument("--fox", type=int, default=defaults.fox, help="Fox games learnt into the global profile")
        p.add_argument("--fox-profile", type=int, default=defaults.fox_profile,
                       help="the next Fox games, learnt into profile 'pro'")
        p.add_argument("--local", type=int, default=defaults.local,
                       help="the next Fox games, judged by GNU Go into profile 'judged'")
        p.add_argument("--tygem", type=int, default=defaults.tygem, help="Tygem games mined as collection 'tygem'")
        p.add_argument("--evaluate", type=int, default=defaults.evaluate, help="games given to evaluate")
        p.add_argument("--env", action="append", default=[], metavar="KEY=VALUE",
                       help="an extra environment variable for the code under test (experiments only)")
        p.add_argument("--keep-work", action="store_true", help="keep the temporary stores")

    rec_p = sub.add_parser("record", help="record the answers of one checkout into OUTDIR")
    rec_p.add_argument("outdir", type=Path)
    rec_p.add_argument("--checkout", type=Path, default=ROOT, help="the checkout to run (default: this repository)")
    sizes_options(rec_p)
    cmp_p = sub.add_parser("compare", help="compare two recordings; exit 1 when any case differs")
    cmp_p.add_argument("a", type=Path)
    cmp_p.add_argument("b", type=Path)
    cmp_p.add_argument("--lines", type=int, default=40, help="diff lines shown per case")
    ag_p = sub.add_parser("against", help="record this repository and the checkout at PATH, and compare")
    ag_p.add_argument("path", type=Path)
    ag_p.add_argument("--keep", action="store_true", help="keep both recordings even when they agree")
    ag_p.add_argument("--lines", type=int, default=40, help="diff lines shown per case")
    sizes_options(ag_p)
    args = parser.parse_args(argv)

    if args.command == "compare":
        return 0 if compare(args.a, args.b, args.lines) else 1
    sizes = Sizes(args.fox, args.fox_profile, args.local, args.tygem, args.evaluate)
    env = parse_env(args.env)
    if args.command == "record":
        record(args.outdir, args.checkout, sizes, env, args.keep_work)
        return 0
    if not (args.path / "joseki").is_dir() and not (args.path / "src" / "joseki").is_dir():
        sys.exit(f"same_answers: {args.path} is not a joseki checkout")
    base = Path(tempfile.mkdtemp(prefix="same_answers-against-"))
    record(base / "this", ROOT, sizes, env, args.keep_work)
    record(base / "other", args.path, sizes, env, args.keep_work)
    same = compare(base / "this", base / "other", args.lines)
    if same and not args.keep:
        shutil.rmtree(base, ignore_errors=True)
    else:
        print(f"recordings kept in {base}", file=sys.stderr)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
