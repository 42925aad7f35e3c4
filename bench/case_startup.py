"""Case 1: start-up of one command (`hello greet --name x`) for 1-, 50- and 500-command programs.

burgee's programs are written as docs/handlers.md shows handlers (`programs.BURGEE_EXAMPLES_CMD`:
typing imports, `Annotated` options, a `Literal`, a list, an example each), and the tools of
examples/ are timed too (`EXAMPLES`), as a script and installed.
Peers: the burgee-generated tool (run as a script, with its code cache and without it, and
installed as a console script by the current pip, by the older pip whose wrapper imports `re`
and by uv), hand-written argparse, click, typer and cyclopts. Each runs from its own venv with
that venv's interpreter. All commands of all sizes run in one interleaved, shuffled series of
rounds, and each figure is also given as the median per-round ratio to `python -c pass` from a
bare venv of the same base interpreter.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

import programs
from burgee_tool import Burgee
from context import Context, Goal, Section, Table, fmt_ms, fmt_ratio
from harness import BenchError, Command, Series, check_output, clean_env, interleaved_rounds

ARGS = ("greet", "--name", "x")
EXPECT = "Hello, x!"
#: The goals, as ratios to `python -c pass`: installed (both wrappers; issue 12's) and as a
#: script (issue 49's: Python compiles a script's whole source, handlers included, every run).
GOALS = {
    "burgee-installed": {1: 1.3, 50: 1.3, 500: 1.4},
    "burgee-installed-uv": {1: 1.3, 50: 1.3, 500: 1.4},
    "burgee-script": {50: 2.5, 500: 6.0},
}

VARIANTS = (
    ("burgee-installed", "burgee, installed by pip (console script)"),
    ("burgee-installed-uv", "burgee, installed by uv (console script)"),
    ("burgee-installed-old-pip", "burgee, installed by pip < 25.2 (wrapper imports re)"),
    ("burgee-installed-nocache", "burgee, installed by pip, no code cache"),
    ("burgee-script", "burgee, run as a script"),
    ("burgee-script-nocache", "burgee, run as a script, no code cache"),
    ("burgee-cached-start", "burgee, a script started as `--print-config` starts it"),
    ("burgee-plain-script", "burgee, plain form (`gen --plain`), run as a script"),
    ("burgee-plain-installed", "burgee, plain form, installed by pip"),
    ("argparse", "hand-written argparse"),
    ("click", "click"),
    ("typer", "typer"),
    ("cyclopts", "cyclopts"),
)
#: The examples/ tools timed: name, the command line, what it prints.
EXAMPLES = (
    ("todo", ("list", "--store", "missing-tasks.json"), "(no results)"),
    ("textkit", ("count", "words.txt"), "words.txt"),
)
REPO = Path(__file__).resolve().parent.parent
REFERENCES = (
    ("true", "/bin/true (process floor)"),
    ("pass", "python -c pass"),
    ("import", "python -c 'import argparse, json'"),
)


@dataclass(frozen=True)
class Measured:
    """The commands of this case, and the size each belongs to (None for references)."""

    commands: list[Command]
    sizes: dict[str, int]
    variants: dict[str, str]


def build_commands(ctx: Context) -> Measured:
    """Write every peer's programs, generate and install burgee's, and check each once."""
    if "startup-commands" in ctx.memo:
        return ctx.memo["startup-commands"]  # type: ignore[return-value]
    base = ctx.base()
    py = str(base.python)
    commands = [
        Command("true", REFERENCES[0][1], ("/bin/true",)),
        Command("pass", REFERENCES[1][1], (py, "-c", "pass")),
        Command("import", REFERENCES[2][1], (py, "-c", "import argparse, json")),
    ]
    sizes: dict[str, int] = {}
    variants: dict[str, str] = {}
    directory = ctx.work / "startup"
    burgee = Burgee.get(ctx)

    def add(variant: str, n: int, argv: tuple[str, ...], env: dict[str, str] | None = None) -> None:
        label = dict(VARIANTS)[variant]
        extra = tuple((env or {}).items())
        cmd = Command(f"{variant}/{n}", f"{label}, {n} cmd", (*argv, *ARGS), EXPECT, env=extra)
        try:
            check_output(cmd, {**clean_env(), **dict(extra)})
        except BenchError as exc:
            ctx.skip(f"start-up: {exc}")
            return
        commands.append(cmd)
        sizes[cmd.key] = n
        variants[cmd.key] = variant

    for n in ctx.budget.startup_sizes:
        if burgee is not None:
            try:
                handlers = programs.write_program(directory, "burgee-examples", n)
                module = burgee.generate(handlers, directory / f"hello_{n}.py")
                add("burgee-script", n, (py, str(module)))
                # NOTE: what a run costs when the cache cannot be used (read-only home, `off`).
                add("burgee-script-nocache", n, (py, str(module)), {"BURGEE_CACHE_DIR": "off"})
                installed = burgee.install(f"burgee-hello-{n}", module, "hello")
                add("burgee-installed", n, (str(installed.script("hello")),))
                nocache = {"BURGEE_CACHE_DIR": "off"}
                add("burgee-installed-nocache", n, (str(installed.script("hello")),), nocache)
                by_uv = burgee.install(f"burgee-hello-uv-{n}", module, "hello", installer="uv")
                add("burgee-installed-uv", n, (str(by_uv.script("hello")),))
                # NOTE: the pip `python -m venv` bundles: its wrapper imports `re`.
                old = burgee.install(
                    f"burgee-hello-old-pip-{n}", module, "hello", installer="pip-bundled"
                )
                add("burgee-installed-old-pip", n, (str(old.script("hello")),))
                add("burgee-cached-start", n, (py, *_printed_start(py, module)))
                plain = burgee.generate(handlers, directory / f"hello_plain_{n}.py", plain=True)
                add("burgee-plain-script", n, (py, str(plain)))
                by_pip = burgee.install(f"burgee-hello-plain-{n}", plain, "hello")
                add("burgee-plain-installed", n, (str(by_pip.script("hello")),))
            except BenchError as exc:
                ctx.skip(f"start-up, burgee, {n} commands: {exc}")
        add("argparse", n, (py, str(programs.write_program(directory, "argparse", n))))
        for peer in ("click", "typer", "cyclopts"):
            venv = ctx.peer(peer)
            if venv is not None:
                path = programs.write_program(directory, peer, n)
                add(peer, n, (str(venv.python), str(path)))
    if burgee is not None:
        commands += _example_commands(ctx, burgee, directory)
    measured = Measured(commands, sizes, variants)
    ctx.memo["startup-commands"] = measured
    return measured


def _printed_start(python: str, module: Path) -> tuple[str, ...]:
    """The interpreter's arguments `--mcp --print-config` gives for the script `module` (run as
    `python -m` runs a module, from its cached bytecode; issue 49), without `--mcp`."""
    proc = subprocess.run(
        (python, str(module), "--mcp", "--print-config"),
        capture_output=True,
        env=clean_env(),
        timeout=60,
        check=False,
    )
    if proc.returncode != 0:
        raise BenchError(f"{module.name} --mcp --print-config exits {proc.returncode}")
    (server,) = json.loads(proc.stdout)["mcpServers"].values()
    return tuple(server["args"][: server["args"].index("--mcp")])


def _example_commands(ctx: Context, burgee: Burgee, directory: Path) -> list[Command]:
    """The tools of examples/, generated afresh from their handlers, as a script and installed
    by pip, each running one command that reads what it is given."""
    py = str(ctx.base().python)
    (directory / "words.txt").write_text("one two three\nfour five\n", encoding="utf-8")
    found: list[Command] = []
    for name, args, expect in EXAMPLES:
        words = tuple(str(directory / w) if w == "words.txt" else w for w in args)
        try:
            source = REPO / "examples" / name / "handlers.py"
            module = burgee.generate(source, directory / f"{name}.py")
            installed = burgee.install(f"burgee-example-{name}", module, name)
            runs = (
                Command(
                    f"example-{name}",
                    f"examples/{name} as a script",
                    (py, str(module), *words),
                    expect,
                ),
                Command(
                    f"example-{name}-installed",
                    f"examples/{name}, installed by pip: `{name} {' '.join(args)}`",
                    (str(installed.script(name)), *words),
                    expect,
                ),
            )
            for cmd in runs:
                check_output(cmd, clean_env())
            found += runs
        except BenchError as exc:
            ctx.skip(f"start-up, examples/{name}: {exc}")
    return found


def run(ctx: Context) -> Section:
    section = Section("Start-up: one command of a 1-, 50- and 500-command program")
    measured = build_commands(ctx)
    budget = ctx.budget
    ctx.log(f"start-up: {len(measured.commands)} commands x {budget.rounds} rounds")
    series = interleaved_rounds(
        measured.commands,
        "pass",
        warmup=budget.warmup,
        rounds=budget.rounds,
        rng=ctx.rng,
        progress=ctx.log,
    )
    sizes = budget.startup_sizes
    section.intro.append(
        f"`hello greet --name x`; wall time from spawn to exit, median of {budget.rounds} "
        f"interleaved rounds ({budget.warmup} warm-up rounds dropped); ratio = median of the "
        "per-round ratios to `python -c pass` (bare venv, same base interpreter)."
    )
    section.tables.append(("Summary: median ms (x python -c pass)", summary(series, measured)))
    section.tables.append(("Details", details(series, measured)))
    section.tables.append(("The examples' tools", examples_table(series, measured)))
    ref = series["pass"]
    section.notes.append(
        f"`python -c pass` median {fmt_ms(ref.median_ms())} ms, p90 {fmt_ms(ref.p90_ms())} ms."
    )
    section.goals.extend(goals(series, sizes))
    return section


def summary(series: dict[str, Series], measured: Measured) -> Table:
    sizes = sorted(set(measured.sizes.values()))
    table = Table(["command", *(f"{n} cmd" for n in sizes)], right=set(range(1, len(sizes) + 1)))
    for key, label in REFERENCES:
        s = series[key]
        cell = f"{fmt_ms(s.median_ms())} ({fmt_ratio(s.ratio())})"
        table.rows.append([label, *([cell] * len(sizes))])
    for variant, label in VARIANTS:
        cells = []
        for n in sizes:
            got = series.get(f"{variant}/{n}")
            cells.append(
                "skipped"
                if got is None
                else f"{fmt_ms(got.median_ms())} ({fmt_ratio(got.ratio())})"
            )
        if any(c != "skipped" for c in cells):
            table.rows.append([label, *cells])
    return table


def details(series: dict[str, Series], measured: Measured) -> Table:
    table = Table(
        ["command", "wall median ms", "p90 ms", "x python -c pass", "CPU median ms"],
        right={1, 2, 3, 4},
    )
    for cmd in measured.commands:
        s = series[cmd.key]
        table.rows.append(
            [
                cmd.label,
                fmt_ms(s.median_ms()),
                fmt_ms(s.p90_ms()),
                fmt_ratio(s.ratio()),
                fmt_ms(s.cpu_median_ms()),
            ]
        )
    return table


def examples_table(series: dict[str, Series], measured: Measured) -> Table:
    table = Table(["command", "wall median ms", "x python -c pass"], right={1, 2})
    for cmd in measured.commands:
        if cmd.key.startswith("example-"):
            s = series[cmd.key]
            words = " ".join(cmd.argv[2:] if cmd.argv[0].endswith("python") else cmd.argv[1:])
            table.rows.append(
                [f"{cmd.label}: `{words}`", fmt_ms(s.median_ms()), fmt_ratio(s.ratio())]
            )
    return table


def goals(series: dict[str, Series], sizes: tuple[int, ...]) -> list[Goal]:
    out = []
    for variant, limits in GOALS.items():
        label = dict(VARIANTS)[variant]
        for n in sizes:
            if n not in limits:
                continue
            s = series.get(f"{variant}/{n}")
            text = f"start-up, {label}, {n}-command program: ≤ {limits[n]}x python -c pass"
            if s is None:
                out.append(Goal(text, "not measured", None))
            else:
                out.append(Goal(text, fmt_ratio(s.ratio()), s.ratio() <= limits[n]))
    return out
