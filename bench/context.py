"""What every case shares: repetition counts, venvs, the work dir, and the report parts."""

from __future__ import annotations

import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from venvs import Venv, VenvError, VenvManager

GEN_UNAVAILABLE = "burgee gen not available"


@dataclass(frozen=True)
class Budget:
    """Repetition counts. The full budget follows the method; quick is a smoke run only."""

    warmup: int = 3
    rounds: int = 31
    mcp_warmup: int = 1
    mcp_spawns: int = 10
    mcp_calls: int = 2000
    gen_warmup: int = 1
    gen_rounds: int = 15
    mem_runs: int = 5
    startup_sizes: tuple[int, ...] = (1, 50, 500)
    gen_sizes: tuple[int, ...] = (1, 10, 100, 1000)


FULL = Budget()
QUICK = Budget(
    warmup=1,
    rounds=3,
    mcp_warmup=0,
    mcp_spawns=2,
    mcp_calls=100,
    gen_warmup=0,
    gen_rounds=1,
    mem_runs=1,
)


@dataclass
class Table:
    headers: list[str]
    rows: list[list[str]] = field(default_factory=list)
    right: set[int] = field(default_factory=set)  # columns to right-align (numbers)


@dataclass
class Goal:
    text: str
    measured: str
    ok: bool | None  # None: not measured in this run

    def verdict(self) -> str:
        return {True: "met", False: "MISSED", None: "not measured"}[self.ok]


@dataclass
class Section:
    title: str
    intro: list[str] = field(default_factory=list)
    tables: list[tuple[str, Table]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    goals: list[Goal] = field(default_factory=list)


PEER_PACKAGES: dict[str, tuple[str, ...]] = {
    "click": ("click",),
    "typer": ("typer",),
    "cyclopts": ("cyclopts",),
    "mcp-sdk": ("mcp>=2",),
    "fastmcp": ("fastmcp",),
    # NOTE: the pydantic tool run as a script; the originals of the ported CLIs (case heavy).
    "pydantic": ("pydantic",),
    "originals": ("black", "sqlite-utils", "twine"),
    # NOTE: a Typer app read as it is (issue 47), the version tests/test_dialects.py reads.
    "incumbents": ("cruft>=2.16,<2.17",),
}


class Context:
    """Shared state of one benchmark run."""

    def __init__(
        self,
        *,
        repo: Path,
        work: Path,
        venvs: VenvManager,
        budget: Budget,
        quick: bool,
        seed: int,
        burgee_python: str | None = None,
        log: Callable[[str], None] = print,
    ) -> None:
        self.repo = repo
        self.work = work
        self.venvs = venvs
        self.budget = budget
        self.quick = quick
        self.rng = random.Random(seed)
        self.burgee_python = burgee_python
        self.log = log
        self.skipped: list[str] = []
        self.versions: dict[str, str] = {}
        self.memo: dict[str, object] = {}
        self.started = time.time()
        work.mkdir(parents=True, exist_ok=True)

    def skip(self, message: str) -> None:
        """Record (once) and print why something was left out of this run."""
        if message not in self.skipped:
            self.skipped.append(message)
            self.log(f"SKIP: {message}")

    def base(self) -> Venv:
        """The bare venv: `python -c pass`, hand-written argparse, generated scripts."""
        return self.venvs.ensure("base")

    def peer(self, name: str) -> Venv | None:
        """The venv of one PyPI peer, or None (and a skip note) if it does not install."""
        key = f"venv:{name}"
        if key not in self.memo:
            try:
                venv: Venv | None = self.venvs.ensure(name, PEER_PACKAGES[name])
            except VenvError as exc:
                self.skip(f"{name}: install failed: {exc}")
                venv = None
            if venv is not None:
                dists = [p.split(">")[0].split("=")[0] for p in PEER_PACKAGES[name]]
                found = self.venvs.versions(venv, [*dists, "pydantic", "mcp"])
                self.versions.update(found)
            self.memo[key] = venv
        return self.memo[key]  # type: ignore[return-value]

    def python_version(self) -> str:
        return sys.version.split()[0]


def fmt_ms(value: float) -> str:
    if math.isnan(value):  # NaN
        return "-"
    return f"{value:,.1f}" if value < 10_000 else f"{value:,.0f}"


def fmt_ratio(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.2f}x"


def fmt_int(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:,.0f}"


def ordered_unique(items: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(items))
