"""Case 5: cutting a long answer costs no more than sending it whole (issue 34).

A handlers file written as docs/handlers.md shows handlers (a dataclass record, an `Annotated`
option) has one command that returns 100,000 records, about 13 MB of JSON. Its generated tool
runs that command with `--json`, which sends the answer whole, and with `--json --max-output
40000`, which saves the whole answer in a spill file (`output REF` pages it back) and sends it
cut to 40,000 characters. Both run as whole processes, interleaved; the ratio is the cut run's
wall time over the whole run's in the same round, median over the rounds.
"""

from __future__ import annotations

import math

from burgee_tool import Burgee
from context import GEN_UNAVAILABLE, Context, Goal, Section, Table, fmt_ms, fmt_ratio
from harness import BenchError, Command, Series, check_output, clean_env, interleaved_rounds

#: Issue 34's goal: the cut run at most this many times the whole run.
GOAL_RATIO = 1.1
RECORDS = 100_000
LIMIT = 40_000

HANDLERS = '''"""Records: one command with a long answer."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated

from burgee import Option, command, program

program(name="records", version="1.0.0")


@dataclass
class Record:
    """One record."""

    id: int
    name: str
    email: str
    active: bool = True
    score: float = 0.0
    tags: list[str] = field(default_factory=list)


@command(effects="read_only", cardinality="unbounded")
def records(count: Annotated[int, Option(help="How many records")] = 10) -> list[Record]:
    """List the records."""
    return [
        Record(i, f"user {i}", f"user{i}@example.com", i % 3 == 0, i / 7, ["a", "b"])
        for i in range(count)
    ]
'''


def run(ctx: Context) -> Section:
    section = Section(
        f"Truncation: {RECORDS:,} records sent whole, and cut with `--max-output {LIMIT:,}`"
    )
    goal = Goal(f"`--max-output` cut of {RECORDS:,} records ≤ {GOAL_RATIO}x sent whole", "", None)
    burgee = Burgee.get(ctx)
    if burgee is None:
        section.notes.append(f"Skipped: {GEN_UNAVAILABLE} (see the skip notes).")
        section.goals.append(_measured(goal, float("nan")))
        return section
    directory = ctx.work / "truncate"
    directory.mkdir(parents=True, exist_ok=True)
    handlers = directory / "records_handlers.py"
    handlers.write_text(HANDLERS)
    tool = directory / "records.py"
    python = str(ctx.base().python)
    base = (python, str(tool), "records", "--count", str(RECORDS), "--json")
    spill = directory / "spill"
    whole = Command("whole", "sent whole (`--json`)", base, expect='"ok": true')
    cut = Command(
        "cut",
        f"cut (`--json --max-output {LIMIT}`)",
        (*base, "--max-output", str(LIMIT), "--spill-dir", str(spill)),
        expect='"truncated"',
    )
    try:
        burgee.generate(handlers, tool)
        for command in (whole, cut):
            check_output(command, clean_env())
    except BenchError as exc:
        ctx.skip(f"truncation: {exc}")
        section.goals.append(_measured(goal, float("nan")))
        return section
    budget = ctx.budget
    ctx.log(f"truncation: 2 commands x {budget.gen_rounds} rounds")
    series = interleaved_rounds(
        [whole, cut],
        "whole",
        warmup=budget.gen_warmup,
        rounds=budget.gen_rounds,
        rng=ctx.rng,
        progress=ctx.log,
    )
    section.intro.append(
        f"Wall time from spawn to exit (output to /dev/null), CPU time and wait4 peak RSS, "
        f"median of {budget.gen_rounds} interleaved rounds ({budget.gen_warmup} warm-up "
        "dropped); the ratio is the median of each round's cut run over its whole run."
    )
    section.tables.append(("", table(series)))
    section.notes.append(
        "Every cut run saves the same text: after the first, the spill file is found in place "
        "and only touched, as for an agent that asks again."
    )
    section.goals.append(_measured(goal, series["cut"].ratio()))
    return section


def table(series: dict[str, Series]) -> Table:
    out = Table(
        ["run", "wall median ms", "p90 ms", "CPU median ms", "x sent whole", "peak RSS MiB"],
        right={1, 2, 3, 4, 5},
    )
    for key in ("whole", "cut"):
        s = series[key]
        out.rows.append(
            [
                s.command.label,
                fmt_ms(s.median_ms()),
                fmt_ms(s.p90_ms()),
                fmt_ms(s.cpu_median_ms()),
                fmt_ratio(s.ratio()),
                f"{s.maxrss_median_mib():.1f}",
            ]
        )
    return out


def _measured(goal: Goal, ratio: float) -> Goal:
    if math.isnan(ratio):
        return Goal(goal.text, "not measured", None)
    return Goal(goal.text, f"{ratio:.2f}x", ratio <= GOAL_RATIO)
