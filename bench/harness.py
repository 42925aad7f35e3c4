"""Timing primitives: spawn a command, wait for it, and keep its wall time and rusage.

Stdlib only. Every measured child gets a cleared environment (`PATH` of system directories,
`HOME`, `LANG=C.UTF-8`), stdin from /dev/null (or a given file) and stdout/stderr to /dev/null.
Runs are timed from `posix_spawn` to `wait4`; CPU time and peak RSS come from `wait4`'s rusage.
"""

from __future__ import annotations

import os
import random
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"
GNU_TIME = "/usr/bin/time"


class BenchError(RuntimeError):
    """A benchmark could not run as designed (a failed check, a crashed child)."""


def clean_env() -> dict[str, str]:
    """The environment every measured child gets: nothing that changes what is measured."""
    return {"PATH": SYSTEM_PATH, "HOME": os.environ.get("HOME", "/tmp"), "LANG": "C.UTF-8"}


@dataclass(frozen=True)
class Command:
    """One thing to measure: a label for the tables and the argv to run (argv[0] absolute)."""

    key: str
    label: str
    argv: tuple[str, ...]
    expect: str | None = None  # text that stdout must contain, checked once before timing
    stdin: str = os.devnull
    #: Variables added to the cleared environment for this command only.
    env: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Sample:
    """One run: wall time from spawn to reap, CPU time and peak RSS of the child."""

    wall_ns: int
    cpu_ns: int
    maxrss_kib: int
    returncode: int


def spawn_once(argv: Sequence[str], env: dict[str, str], stdin: str = os.devnull) -> Sample:
    """Run argv once with posix_spawn, outputs to /dev/null; time it to wait4."""
    actions = [
        (os.POSIX_SPAWN_OPEN, 0, stdin, os.O_RDONLY, 0),
        (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
        (os.POSIX_SPAWN_DUP2, 1, 2),
    ]
    start = time.perf_counter_ns()
    pid = os.posix_spawn(argv[0], list(argv), env, file_actions=actions)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter_ns() - start
    cpu = round((usage.ru_utime + usage.ru_stime) * 1e9)
    return Sample(wall, cpu, usage.ru_maxrss, os.waitstatus_to_exitcode(status))


def check_output(cmd: Command, env: dict[str, str], timeout: float = 120.0) -> None:
    """Run cmd once, capturing its output, and check its exit code and expected text."""
    with open(cmd.stdin, "rb") as stdin:
        proc = subprocess.run(
            cmd.argv, stdin=stdin, capture_output=True, env=env, timeout=timeout, check=False
        )
    out = proc.stdout.decode(errors="replace")
    if proc.returncode != 0 or (cmd.expect is not None and cmd.expect not in out):
        err = proc.stderr.decode(errors="replace").strip().splitlines()[-5:]
        raise BenchError(
            f"{cmd.label}: exit {proc.returncode}, stdout {out.strip()[:200]!r}, "
            f"expected {cmd.expect!r}; stderr tail: {' | '.join(err)}"
        )


@dataclass
class Series:
    """All samples of one command, plus its per-round ratio against the baseline command."""

    command: Command
    samples: list[Sample] = field(default_factory=list)
    ratios: list[float] = field(default_factory=list)

    def wall_ms(self) -> list[float]:
        return [s.wall_ns / 1e6 for s in self.samples]

    def median_ms(self) -> float:
        return statistics.median(self.wall_ms())

    def p90_ms(self) -> float:
        return percentile(self.wall_ms(), 90)

    def cpu_median_ms(self) -> float:
        return statistics.median(s.cpu_ns / 1e6 for s in self.samples)

    def ratio(self) -> float:
        return statistics.median(self.ratios) if self.ratios else float("nan")

    def maxrss_median_mib(self) -> float:
        return statistics.median(s.maxrss_kib for s in self.samples) / 1024


def percentile(values: Sequence[float], pct: float) -> float:
    """Nearest-rank percentile (p90 of 15 values is the 14th smallest)."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = max(1, -(-len(ordered) * pct // 100))
    return ordered[int(rank) - 1]


def interleaved_rounds(
    commands: Sequence[Command],
    baseline_key: str,
    *,
    warmup: int,
    rounds: int,
    rng: random.Random,
    progress: Callable[[str], None] = lambda _msg: None,
    runner: Callable[[Command], Sample] | None = None,
) -> dict[str, Series]:
    """Run every command once per round, in an order reshuffled each round.

    Warm-up rounds are run and thrown away. Each measured round also yields, for every
    command, its wall time divided by the same round's baseline wall time.
    """
    env = clean_env()
    run = runner or (lambda c: spawn_once(c.argv, {**env, **dict(c.env)}, c.stdin))
    series = {c.key: Series(c) for c in commands}
    if baseline_key not in series:
        raise BenchError(f"baseline {baseline_key!r} is not among the commands")
    order = list(commands)
    for index in range(warmup + rounds):
        rng.shuffle(order)
        got: dict[str, Sample] = {}
        for cmd in order:
            sample = run(cmd)
            if sample.returncode != 0:
                raise BenchError(f"{cmd.label}: exit {sample.returncode} during timing")
            got[cmd.key] = sample
        if index < warmup:
            continue
        base = got[baseline_key].wall_ns
        for key, sample in got.items():
            series[key].samples.append(sample)
            series[key].ratios.append(sample.wall_ns / base)
        progress(f"round {index - warmup + 1}/{rounds}")
    return series


def gnu_time_available() -> bool:
    """True if /usr/bin/time is GNU time (it reports wait4's ru_maxrss with `-f %M`)."""
    if not os.access(GNU_TIME, os.X_OK):
        return False
    proc = subprocess.run([GNU_TIME, "--version"], capture_output=True, check=False)
    return b"GNU" in proc.stdout + proc.stderr


class RssProbe:
    """Peak RSS of a command, with as low a floor as this machine allows.

    A child's ru_maxrss can never read below the RSS of the process that forked it, because
    the kernel carries the parent's high-water mark across exec. The harness is a Python
    process of 15+ MiB, so measuring from it directly hides anything smaller. GNU time forks
    from a ~2 MiB process and reports the same wait4 ru_maxrss; it is used when present.
    """

    def __init__(self) -> None:
        self.via_gnu_time = gnu_time_available()
        self._tmp = Path(tempfile.mkdtemp(prefix="bench-rss-"))
        self._env = clean_env()

    def describe(self) -> str:
        if self.via_gnu_time:
            return "wait4 ru_maxrss, read through GNU time (`/usr/bin/time -f %M`)"
        return "wait4 ru_maxrss of the harness's own child (GNU time not found)"

    def run(self, cmd: Command) -> Sample:
        env = {**self._env, **dict(cmd.env)}
        if not self.via_gnu_time:
            return spawn_once(cmd.argv, env, cmd.stdin)
        out = self._tmp / "maxrss"
        argv = (GNU_TIME, "-f", "%M", "-o", str(out), *cmd.argv)
        sample = spawn_once(argv, env, cmd.stdin)
        text = out.read_text().strip().splitlines()
        kib = int(text[-1]) if text and text[-1].isdigit() else -1
        return Sample(sample.wall_ns, sample.cpu_ns, kib, sample.returncode)

    def close(self) -> None:
        shutil.rmtree(self._tmp, ignore_errors=True)
