"""Case: a Typer app as it is installed next to the tool `burgee gen` makes of it (issue 47).

The app's CLI module is read where its package is installed (a copy, so the tool is named
after the package); the tool is timed installed (its console script, by pip and by uv) and as
a script of the bare interpreter: `--help`, a command's help, `schema` and `--llms`, none of
which imports typer, click or rich. The original's rows are its own console script. One
interleaved, shuffled series of rounds with `python -c pass`, as the other start-up cases.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from burgee_tool import Burgee
from case_heavy import table
from context import Context, Goal, Section, fmt_ms, fmt_ratio
from harness import BenchError, Command, check_output, clean_env, interleaved_rounds

#: The incumbent apps: package, its CLI module, console script, the words of each row.
INCUMBENTS = (
    ("cruft", "_cli.py", "cruft", (("help", ("--help",)), ("check", ("check", "--help")))),
)
#: What the tool made of an incumbent answers besides: none of these imports typer or click.
INCUMBENT_TOOL_RUNS = (("schema", ("schema",)), ("llms", ("--llms",)))


def _incumbent_commands(ctx: Context, burgee: Burgee, directory: Path) -> list[Command]:
    """A Typer app as installed (`cruft --help`) and the tool `burgee gen` makes of its CLI
    module, read where the package is installed (a copy, so the tool is named after it)."""
    venv = ctx.peer("incumbents")
    if venv is None:
        return []
    py = str(ctx.base().python)
    found = []
    for package, cli, script, runs in INCUMBENTS:
        installed = next(venv.path.glob(f"lib/python*/site-packages/{package}"), None)
        if installed is None:
            ctx.skip(f"incumbent {package}: not installed in its venv")
            continue
        copy = directory / "incumbents" / package
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(installed, copy, ignore=shutil.ignore_patterns("__pycache__"))
        try:
            module = burgee.generate(copy / cli, directory / f"incumbent_{package}.py")
            tool = burgee.install(f"burgee-incumbent-{package}", module, script)
            by_uv = burgee.install(f"burgee-incumbent-uv-{package}", module, script, "uv")
        except BenchError as exc:
            ctx.skip(f"incumbent {package}: {exc}")
            continue
        tool_runs = (*runs, *INCUMBENT_TOOL_RUNS)
        for key, words in runs:
            shown = " ".join(words)
            found.append(
                Command(
                    f"incumbent-{package}-{key}-original",
                    f"{script} itself, installed: `{shown}`",
                    (str(venv.script(script)), *words),
                )
            )
        for key, words in tool_runs:
            shown = " ".join(words)
            for how, head in (
                ("installed", (str(tool.script(script)),)),
                ("installed-uv", (str(by_uv.script(script)),)),
                ("script", (py, str(module))),
            ):
                found.append(
                    Command(
                        f"incumbent-{package}-{key}-{how}",
                        f"the tool made from {script}, {how.replace('-uv', ' by uv')}: `{shown}`",
                        (*head, *words),
                    )
                )
    return found


#: Issue 47's goal: the tool made from a Typer app, installed, ≤ 1.5x `python -c pass`.
GOAL_RATIO = 1.5


def run(ctx: Context) -> Section:
    section = Section("A Typer app as it is, and the tool burgee made from it")
    commands = [Command("pass", "python -c pass", (str(ctx.base().python), "-c", "pass"))]
    burgee = Burgee.get(ctx)
    if burgee is not None:
        commands += _incumbent_commands(ctx, burgee, ctx.work / "incumbent")
    checked = []
    for cmd in commands:
        try:
            check_output(cmd, clean_env())
        except BenchError as exc:
            ctx.skip(f"incumbent: {exc}")
            continue
        checked.append(cmd)
    budget = ctx.budget
    ctx.log(f"incumbent: {len(checked)} commands x {budget.rounds} rounds")
    series = interleaved_rounds(
        checked, "pass", warmup=budget.warmup, rounds=budget.rounds, rng=ctx.rng,
        progress=ctx.log,
    )  # fmt: skip
    section.intro.append(
        f"Wall time from spawn to exit, median of {budget.rounds} interleaved rounds "
        f"({budget.warmup} warm-up rounds dropped); ratio = median of the per-round ratios to "
        "`python -c pass`; peak RSS as the memory case reads it."
    )
    section.tables.append(("cruft (Typer) and its tool", table(series, "incumbent-", rss=True)))
    for key, s in series.items():
        if "-installed" in key and key.startswith("incumbent-") and "-help-" in key:
            text = f"{s.command.label}: ≤ {GOAL_RATIO}x python -c pass"
            section.goals.append(Goal(text, fmt_ratio(s.ratio()), s.ratio() <= GOAL_RATIO))
    ref = series["pass"]
    section.notes.append(f"`python -c pass` median {fmt_ms(ref.median_ms())} ms.")
    return section
