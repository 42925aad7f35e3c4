"""Run burgee's benchmark suite and print the tables.

    python bench/run.py                      # everything, full repetition counts
    python bench/run.py --quick              # smoke run: tiny counts, same code paths
    python bench/run.py --cases startup,gen  # some cases only

Peers are installed from PyPI into venvs under bench/.venvs (one per peer, reused across
runs); generated programs go to bench/.work. A full run of every case rewrites
bench/RESULTS.md; other runs write bench/.work/results.md. Goals that are missed are reported,
never turned into a failing exit code: only a benchmark that could not run exits non-zero.
"""

from __future__ import annotations

import argparse
import dataclasses
import shlex
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path

import case_gen
import case_heavy
import case_http
import case_incumbent
import case_mcp
import case_memory
import case_startup
import case_truncate
import case_wide
import report
from context import FULL, QUICK, Context, Section
from harness import BenchError
from venvs import VenvError, VenvManager

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
CASES: dict[str, Callable[[Context], Section]] = {
    "startup": case_startup.run,
    "heavy": case_heavy.run,
    "mcp": case_mcp.run,
    "http": case_http.run,
    "gen": case_gen.run,
    "memory": case_memory.run,
    "truncate": case_truncate.run,
    "wide": case_wide.run,
    "incumbent": case_incumbent.run,
}
MIN_ROUNDS = 15


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python bench/run.py", description="Run burgee's benchmarks and print the tables."
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="smoke run with tiny repetition counts (numbers not quotable)",
    )
    parser.add_argument(
        "--cases",
        default=",".join(CASES),
        help=f"comma-separated subset of: {', '.join(CASES)} (default: all)",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        help="measured rounds for start-up, generation and truncation (default: 31 / 15)",
    )
    parser.add_argument(
        "--cache",
        type=Path,
        default=BENCH / ".venvs",
        help="where the peers' venvs live (default: bench/.venvs)",
    )
    parser.add_argument(
        "--work",
        type=Path,
        default=BENCH / ".work",
        help="where generated programs go (default: bench/.work)",
    )
    parser.add_argument(
        "--python",
        default=sys.executable,
        help="base interpreter for every venv (default: this one)",
    )
    parser.add_argument(
        "--burgee-python",
        help="use this interpreter's installed burgee instead of a venv with "
        "`pip install -e` of this checkout",
    )
    parser.add_argument("--rebuild", action="store_true", help="rebuild every venv")
    parser.add_argument("--seed", type=int, default=20261129, help="shuffle seed")
    parser.add_argument(
        "--output",
        type=Path,
        help="Markdown report path (default: bench/RESULTS.md for a full run "
        "of every case, else bench/.work/results.md)",
    )
    args = parser.parse_args(argv)
    args.case_list = [c.strip() for c in args.cases.split(",") if c.strip()]
    unknown = [c for c in args.case_list if c not in CASES]
    if unknown:
        parser.error(f"unknown case(s): {', '.join(unknown)}")
    return args


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    budget = QUICK if args.quick else FULL
    if args.rounds:
        budget = dataclasses.replace(budget, rounds=args.rounds, gen_rounds=args.rounds)
    if not args.quick and budget.rounds < MIN_ROUNDS:
        log(f"warning: {budget.rounds} rounds is below the method's minimum of {MIN_ROUNDS}")
    ctx = Context(
        repo=REPO,
        work=args.work.resolve(),
        venvs=VenvManager(args.cache.resolve(), args.python, rebuild=args.rebuild, log=log),
        budget=budget,
        quick=args.quick,
        seed=args.seed,
        burgee_python=args.burgee_python,
        log=log,
    )
    load_before = report.load_average()
    sections: list[Section] = []
    failed = False
    for name in args.case_list:
        log(f"case {name}")
        try:
            section = CASES[name](ctx)
        except (BenchError, VenvError, OSError) as exc:
            traceback.print_exc()
            ctx.skip(f"case {name} failed: {exc}")
            failed = True
            continue
        sections.append(section)
        print("\n".join(report.render_section(section)), flush=True)
    command = "python bench/run.py" + (" " + shlex.join(argv or sys.argv[1:])).rstrip()
    text = report.document(ctx, sections, load_before, command)
    full = not args.quick and set(args.case_list) == set(CASES) and not args.rounds
    output = args.output or (BENCH / "RESULTS.md" if full else ctx.work / "results.md")
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(text)
    goals = report.goals_table(sections)
    if goals.rows:
        print("## Goals\n\n" + "\n".join(report.render_table(goals)) + "\n")
    for message in ctx.skipped:
        print(f"left out: {message}")
    print(f"\nreport written to {output}")
    if args.quick:
        print("this was a quick smoke run; the full benchmark is: python bench/run.py")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
