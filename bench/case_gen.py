"""Case 3: `burgee gen` wall time and peak RSS for 10, 100 and 1,000 commands.

A 1-command run is measured too: it is the fixed cost (starting the generator, reading
templates), so the marginal cost per command is `(t(n) - t(1)) / (n - 1)`. Generation is linear
when that stays flat: the check is that the slope from 100 to 1,000 commands is at most 1.5x
the slope from 10 to 100 commands. Also reported: the generated module's size per command.

Two handlers files of each size: the plain shape (`programs.burgee_handlers`), and the shape
docs/handlers.md shows (typing imports, `Annotated` options, an example per command:
`programs.burgee_examples_handlers`), whose examples `gen` parses (issue 34: that check walked
every command once per example).
"""

from __future__ import annotations

import math

import case_startup
import programs
from burgee_tool import Burgee
from context import GEN_UNAVAILABLE, Context, Goal, Section, Table, fmt_ms, fmt_ratio
from harness import BenchError, Command, Series, check_output, clean_env, interleaved_rounds

#: Issue 12's goals: generation time, and the generated module's size.
GOAL_1_MS = 600.0
GOAL_1000_MS = 2000.0
#: The handlers files measured: the series' prefix, and the writer's name in `programs`.
SHAPES = (("gen", "burgee"), ("gen-examples", "burgee-examples"))
#: What each shape is called in the tables and goals.
SHAPE_NAMES = {"gen": "", "gen-examples": " with an example each (Annotated options)"}
LINEAR_SLOPE_RATIO = 1.5
GOAL_1_KB = 480.0  # issue 49 (issue 34 set 320 KB; the runtime grew with MCP, media and safety)
GOAL_KB_PER_COMMAND = 1.5


def run(ctx: Context) -> Section:
    section = Section("Generation: `burgee gen` for 1, 10, 100 and 1,000 commands")
    burgee = Burgee.get(ctx)
    sizes = ctx.budget.gen_sizes
    if burgee is None:
        section.notes.append(f"Skipped: {GEN_UNAVAILABLE} (see the skip notes).")
        section.goals.extend(goals({}, sizes))
        return section
    directory = ctx.work / "gen"
    commands = [
        Command("pass", "python -c pass (generator venv)", (str(burgee.python), "-c", "pass"))
    ]
    shaped: dict[str, dict[int, int]] = {}
    for prefix, writer in SHAPES:
        outputs = shaped[prefix] = {}
        for n in sizes:
            handlers = programs.write_program(directory, writer, n)
            output = directory / f"{handlers.stem}_out.py"
            try:
                burgee.generate(handlers, output)  # once, and its tool checked, before timing
                tool = (str(ctx.base().python), str(output), *case_startup.ARGS)
                check_output(
                    Command(f"check/{n}", f"generated {n}-command tool", tool, case_startup.EXPECT),
                    clean_env(),
                )
            except BenchError as exc:
                ctx.skip(f"generation ({writer}), {n} commands: {exc}")
                continue
            outputs[n] = output.stat().st_size
            commands.append(
                Command(
                    f"{prefix}/{n}",
                    f"burgee gen, {n} commands{SHAPE_NAMES[prefix]}",
                    burgee.gen_argv(handlers, output),
                )
            )
    if not any(shaped.values()):
        section.goals.extend(goals({}, sizes))
        return section
    section.goals.extend(size_goals(shaped["gen"]))
    budget = ctx.budget
    ctx.log(f"generation: {len(commands)} commands x {budget.gen_rounds} rounds")
    series = interleaved_rounds(
        commands,
        "pass",
        warmup=budget.gen_warmup,
        rounds=budget.gen_rounds,
        rng=ctx.rng,
        progress=ctx.log,
    )
    section.intro.append(
        f"Wall time from spawn to exit and wait4 peak RSS, median of {budget.gen_rounds} "
        f"interleaved rounds ({budget.gen_warmup} warm-up dropped), with the generator's "
        "console script from its venv (`pip install -e` of this checkout)."
    )
    for prefix, _ in SHAPES:
        if shaped[prefix]:
            title = f"Handlers{SHAPE_NAMES[prefix]}" if SHAPE_NAMES[prefix] else ""
            section.tables.append((title, table(series, shaped[prefix], prefix)))
    section.notes.append(
        "Peak RSS here cannot read below the harness that forks the generator "
        "(see the memory case); the generator itself is well above that floor."
    )
    for prefix, _ in SHAPES:
        section.notes.extend(linearity_notes(series, shaped[prefix], prefix))
    section.goals.extend(goals(series, sizes))
    return section


def _ms(series: dict[str, Series], n: int, prefix: str = "gen") -> float:
    s = series.get(f"{prefix}/{n}")
    return s.median_ms() if s else float("nan")


def table(series: dict[str, Series], outputs: dict[int, int], prefix: str = "gen") -> Table:
    out = Table(
        [
            "commands",
            "wall median ms",
            "p90 ms",
            "x python -c pass",
            "ms per command beyond the 1-command run",
            "peak RSS MiB",
            "module KiB",
            "module bytes per command",
        ],
        right=set(range(0, 8)),
    )
    fixed = _ms(series, 1, prefix)
    for n, size in sorted(outputs.items()):
        s = series[f"{prefix}/{n}"]
        marginal = (s.median_ms() - fixed) / (n - 1) if n > 1 else float("nan")
        out.rows.append(
            [
                f"{n:,}",
                fmt_ms(s.median_ms()),
                fmt_ms(s.p90_ms()),
                fmt_ratio(s.ratio()),
                "-" if math.isnan(marginal) else f"{marginal:.2f}",
                f"{s.maxrss_median_mib():.1f}",
                f"{size / 1024:,.1f}",
                f"{size / n:,.0f}",
            ]
        )
    return out


def slopes(series: dict[str, Series], prefix: str = "gen") -> tuple[float, float]:
    """ms per command from 10 to 100 commands, and from 100 to 1,000."""
    low = (_ms(series, 100, prefix) - _ms(series, 10, prefix)) / 90
    return low, (_ms(series, 1000, prefix) - _ms(series, 100, prefix)) / 900


def linearity_notes(
    series: dict[str, Series], outputs: dict[int, int], prefix: str = "gen"
) -> list[str]:
    notes = []
    low, high = slopes(series, prefix)
    if not math.isnan(low) and not math.isnan(high):
        notes.append(
            f"Slope{SHAPE_NAMES[prefix]}: {low:.2f} ms/command from 10 to 100 commands, "
            f"{high:.2f} ms/command from 100 to 1,000 (ratio {high / low:.2f}; linear means "
            f"≤ {LINEAR_SLOPE_RATIO})."
        )
    if prefix != "gen":
        return notes
    if 1 in outputs and 1000 in outputs:
        per = (outputs[1000] - outputs[1]) / 999
        notes.append(
            f"Generated module: {outputs[1] / 1024:.1f} KiB for 1 command, "
            f"+{per:,.0f} bytes per further command."
        )
    rss = {n: series[f"{prefix}/{n}"].maxrss_median_mib() for n in outputs}
    if 1 in rss and 1000 in rss:
        notes.append(f"Peak RSS grows {(rss[1000] - rss[1]) * 1024 / 999:.1f} KiB per command.")
    return notes


def size_goals(outputs: dict[int, int]) -> list[Goal]:
    """The module of a 1-command program, and what each further command adds (largest run)."""
    found = []
    if 1 in outputs:
        kib = outputs[1] / 1024
        found.append(
            Goal(f"module of 1 command ≤ {GOAL_1_KB:g} KB", f"{kib:.1f} KB", kib <= GOAL_1_KB)
        )
        largest = max(outputs)
        if largest > 1:
            per = (outputs[largest] - outputs[1]) / (largest - 1) / 1024
            found.append(
                Goal(
                    f"each further command adds ≤ {GOAL_KB_PER_COMMAND:g} KB (1 → {largest:,})",
                    f"{per:.2f} KB",
                    per <= GOAL_KB_PER_COMMAND,
                )
            )
    return found


def goals(series: dict[str, Series], sizes: tuple[int, ...]) -> list[Goal]:
    t1 = _ms(series, 1) if series else float("nan")
    one = [
        Goal(
            f"`burgee gen` of 1 command ≤ {GOAL_1_MS / 1000:g} s",
            "not measured" if math.isnan(t1) else f"{t1 / 1000:.2f} s",
            None if math.isnan(t1) else t1 <= GOAL_1_MS,
        )
    ]
    return one + [goal for prefix, _ in SHAPES for goal in _goals_1000(series, sizes, prefix)]


def _goals_1000(
    series: dict[str, Series], sizes: tuple[int, ...], prefix: str = "gen"
) -> list[Goal]:
    t1000 = _ms(series, 1000, prefix) if series else float("nan")
    low, high = slopes(series, prefix) if series else (float("nan"), float("nan"))
    shape = SHAPE_NAMES[prefix]
    ratio = high / low if not math.isnan(low) and not math.isnan(high) and low > 0 else float("nan")
    return (
        [
            Goal(
                f"`burgee gen` of 1,000 commands{shape} ≤ {GOAL_1000_MS / 1000:g} s",
                "not measured" if math.isnan(t1000) else f"{t1000 / 1000:.2f} s",
                None if math.isnan(t1000) else t1000 <= GOAL_1000_MS,
            ),
            Goal(
                f"generation time{shape} linear in commands (slope 100→1,000 ≤ "
                f"{LINEAR_SLOPE_RATIO}x slope 10→100)",
                "not measured" if math.isnan(ratio) else f"{ratio:.2f}",
                None if math.isnan(ratio) else ratio <= LINEAR_SLOPE_RATIO,
            ),
        ]
        if 1000 in sizes
        else []
    )
