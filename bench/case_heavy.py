"""Case: start-up of tools whose handlers are real: a tool whose handlers import pydantic, and
the ported real command lines (tests/ported: black, sqlite-utils, twine).

The pydantic tool (`programs.BURGEE_PYDANTIC_HANDLERS`) validates inside its handlers' bodies,
so `--help`, `schema` and TAB (`shop __complete add --category g`, as the bash completion
script runs the tool for a value a `complete=` function offers) need not import pydantic,
and a command (`shop greet --name x`) does. The ported CLIs are stubs that return what they
were given, so a command line measures the CLI's own start-up; each is timed as a script and
installed, next to the original's `--help` from a venv holding black, sqlite-utils and twine.
Everything runs in one interleaved, shuffled series of rounds with `python -c pass`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import programs
from burgee_tool import Burgee
from context import Context, Goal, Section, Table, fmt_ms, fmt_ratio
from harness import BenchError, Command, Series, check_output, clean_env, interleaved_rounds

REPO = Path(__file__).resolve().parent.parent
#: Issue 34's goal for the pydantic tool, installed: ≤ 1.5x `python -c pass`.
GOAL_RATIO = 1.5
#: The pydantic tool's rows: key, words, what stdout holds, whether the goal applies.
PYDANTIC_RUNS = (
    ("help", ("--help",), "usage: shop", True),
    ("schema", ("schema",), '"clispec"', True),
    ("tab", ("__complete", "add", "--category", "g"), "garden", True),
    ("command", ("greet", "--name", "x"), "Hello, x!", False),
)
#: The ported CLIs: directory under tests/ported, program name, console script of the
#: original, and one command line from its lines.txt.
PORTED = (
    ("black", "black", "black", ("--check", "--diff", "src")),
    ("sqlite_utils", "sqlite-utils", "sqlite-utils", ("data.db", "select * from dogs", "--csv")),
    ("twine", "twine", "twine", ("upload", "-r", "testpypi", "dist/a")),
)


@dataclass(frozen=True)
class Measured:
    commands: list[Command]
    #: The pydantic rows the goal is judged on (installed): key → what it runs.
    goal_keys: dict[str, str]


def _pydantic_commands(ctx: Context, burgee: Burgee, directory: Path) -> list[Command]:
    venv = ctx.peer("pydantic")
    if venv is None:
        return []
    handlers = programs.write_pydantic_handlers(directory)
    module = burgee.generate(handlers, directory / "shop.py")
    installed = burgee.install("burgee-shop", module, "shop", requirements=("pydantic",))
    found = []
    for key, words, expect, _ in PYDANTIC_RUNS:
        shown = " ".join(words)
        found.append(
            Command(
                f"shop-installed-{key}",
                f"pydantic tool, installed: `shop {shown}`",
                (str(installed.script("shop")), *words),
                expect,
            )
        )
        found.append(
            Command(
                f"shop-script-{key}",
                f"pydantic tool, as a script: `python shop.py {shown}`",
                (str(venv.python), str(module), *words),
                expect,
            )
        )
    return found


def _ported_commands(ctx: Context, burgee: Burgee, directory: Path) -> list[Command]:
    py = str(ctx.base().python)
    originals = ctx.peer("originals")
    found = []
    for folder, name, script, words in PORTED:
        try:
            module = burgee.generate(
                REPO / "tests" / "ported" / folder / "handlers.py", directory / f"{folder}.py"
            )
            installed = burgee.install(f"burgee-ported-{folder}", module, name)
        except BenchError as exc:
            ctx.skip(f"heavy, ported {name}: {exc}")
            continue
        line = " ".join(words)
        for how, head in (
            ("installed", (str(installed.script(name)),)),
            ("script", (py, str(module))),
        ):
            found.append(
                Command(
                    f"ported-{folder}-{how}-help",
                    f"{name} port, {how}: `--help`",
                    (*head, "--help"),
                    f"usage: {name}",
                )
            )
            found.append(
                Command(
                    f"ported-{folder}-{how}-line",
                    f"{name} port, {how}: `{line}`",
                    (*head, *words),
                )
            )
        if originals is not None:
            found.append(
                Command(
                    f"ported-{folder}-original-help",
                    f"{name} itself, installed: `--help`",
                    (str(originals.script(script)), "--help"),
                )
            )
    return found


def build_commands(ctx: Context) -> Measured:
    base = ctx.base()
    commands = [
        Command("true", "/bin/true (process floor)", ("/bin/true",)),
        Command("pass", "python -c pass", (str(base.python), "-c", "pass")),
    ]
    burgee = Burgee.get(ctx)
    if burgee is None:
        return Measured(commands, {})
    directory = ctx.work / "heavy"
    try:
        commands += _pydantic_commands(ctx, burgee, directory)
    except BenchError as exc:
        ctx.skip(f"heavy, the pydantic tool: {exc}")
    commands += _ported_commands(ctx, burgee, directory)
    checked = []
    for cmd in commands:
        try:
            check_output(cmd, clean_env())
        except BenchError as exc:
            ctx.skip(f"heavy: {exc}")
            continue
        checked.append(cmd)
    goal_keys = {
        f"shop-installed-{key}": " ".join(words) for key, words, _, goal in PYDANTIC_RUNS if goal
    }
    return Measured(checked, goal_keys)


def run(ctx: Context) -> Section:
    section = Section("Start-up of real handlers: a pydantic tool and the ported CLIs")
    measured = build_commands(ctx)
    budget = ctx.budget
    ctx.log(f"heavy: {len(measured.commands)} commands x {budget.rounds} rounds")
    series = interleaved_rounds(
        measured.commands,
        "pass",
        warmup=budget.warmup,
        rounds=budget.rounds,
        rng=ctx.rng,
        progress=ctx.log,
    )
    section.intro.append(
        f"Wall time from spawn to exit, median of {budget.rounds} interleaved rounds "
        f"({budget.warmup} warm-up rounds dropped); ratio = median of the per-round ratios to "
        "`python -c pass` (bare venv, same base interpreter). The pydantic tool's handlers "
        "`import pydantic` and use it in their bodies; TAB is `shop __complete add --category "
        "g`, what the bash completion script runs for a value a `complete=` function offers "
        "(static completion, of commands, options and choices, runs no Python at all)."
    )
    section.tables.append(("A tool whose handlers import pydantic", table(series, "shop-")))
    section.tables.append(("The ported CLIs (stub handlers)", table(series, "ported-")))
    ref = series["pass"]
    section.notes.append(
        f"`python -c pass` median {fmt_ms(ref.median_ms())} ms, p90 {fmt_ms(ref.p90_ms())} ms."
    )
    section.goals.extend(goals(series, measured))
    return section


def table(series: dict[str, Series], prefix: str, *, rss: bool = False) -> Table:
    head = ["command", "wall median ms", "p90 ms", "x python -c pass", "CPU median ms"]
    table = Table(head + (["peak RSS MiB"] if rss else []), right={1, 2, 3, 4, 5})
    for key, s in series.items():
        if key.startswith(prefix):
            row = [
                s.command.label,
                fmt_ms(s.median_ms()),
                fmt_ms(s.p90_ms()),
                fmt_ratio(s.ratio()),
                fmt_ms(s.cpu_median_ms()),
            ]
            table.rows.append(row + ([f"{s.maxrss_median_mib():.1f}"] if rss else []))
    return table


def goals(series: dict[str, Series], measured: Measured) -> list[Goal]:
    out = []
    for key, words in measured.goal_keys.items():
        text = f"pydantic tool, installed, `shop {words}`: ≤ {GOAL_RATIO}x python -c pass"
        s = series.get(key)
        if s is None:
            out.append(Goal(text, "not measured", None))
        else:
            out.append(Goal(text, fmt_ratio(s.ratio()), s.ratio() <= GOAL_RATIO))
    return out
