"""The `burgee` command: a thin layer that maps results and errors to exit codes."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from burgee import __version__, scaffold
from burgee.write.files import WriteError, diff, may_write, write_atomic


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="burgee",
        description="Generate standalone, agent-ready command-line tools "
        "from typed Python handlers.",
    )
    parser.add_argument("--version", action="version", version=f"burgee {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    gen = commands.add_parser(
        "gen",
        help="generate a tool from a handlers file",
        description="Read HANDLERS (never importing it) and write one standalone Python module. "
        "Without HANDLERS, the targets come from [tool.burgee] in the nearest pyproject.toml "
        "(handlers, output, completions, skill-dir), so one `burgee gen` refreshes them all.",
    )
    gen.add_argument(
        "handlers",
        type=Path,
        nargs="?",
        help="the handlers file (default: [tool.burgee] handlers in pyproject.toml)",
    )
    gen.add_argument(
        "-o", "--output", type=Path, help="output file (default: <name>.py beside HANDLERS)"
    )
    gen.add_argument("--name", help="the program name (overrides program(name=...))")
    gen.add_argument(
        "--version",
        dest="program_version",
        metavar="VERSION",
        help="the program version (overrides program(version=...))",
    )
    gen.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 if the output is missing or stale",
    )
    gen.add_argument(
        "--strict",
        action="store_true",
        help="treat warnings (a list result without cardinality, undeclared dependencies, syntax "
        "newer than Python 3.9) "
        "as errors",
    )
    gen.add_argument(
        "--force", action="store_true", help="replace an output file that burgee did not generate"
    )
    gen.add_argument(
        "--completions",
        type=Path,
        metavar="DIR",
        help="also write the bash, zsh, fish and pwsh completion scripts into DIR",
    )
    gen.add_argument(
        "--skill-dir",
        type=Path,
        metavar="DIR",
        help="also write DIR/<name>/SKILL.md and DIR/AGENTS.md",
    )
    new = commands.add_parser(
        "new",
        help="create a new tool project",
        description="Create a ready-to-ship tool project from a template.",
    )
    scaffold.add_arguments(new)
    refresh = commands.add_parser(
        "refresh",
        help="re-render a project's template files safely",
        description="Add template files a project lacks and list those that differ; "
        "never overwrite anything.",
    )
    scaffold.add_refresh_arguments(refresh)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run burgee; return the exit code."""
    args = _parser().parse_args(argv)
    if args.command == "new":
        return scaffold.run(args)
    if args.command == "refresh":
        return scaffold.run_refresh(args)
    return _gen(args)


def _gen(args: argparse.Namespace) -> int:
    # NOTE: pydantic looks for plugins in every installed distribution's entry points when
    # the IR's models are built; burgee uses none, and the search costs a noticeable part of
    # a run in a crowded environment.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    from burgee.model.diagnostics import ExitCode, GenerationError  # noqa: PLC0415
    from burgee.read.source import decode  # noqa: PLC0415
    from burgee.write.generate import generate  # noqa: PLC0415
    from burgee.write.sidecars import (  # noqa: PLC0415
        check_sidecars,
        refusals,
        sidecar_files,
        write_sidecars,
    )

    if args.handlers is None:
        problem = _project_targets(args)
        if problem:
            print(f"burgee gen: error: {problem}", file=sys.stderr)
            return ExitCode.ERROR
    handlers: Path = args.handlers
    try:
        data = handlers.read_bytes()
    except OSError as error:
        print(f"{handlers}: error: cannot read the handlers file: {error}", file=sys.stderr)
        return ExitCode.ERROR
    sidecars: dict[Path, str] = {}
    try:
        source = decode(data, str(handlers))
        name, text = generate(
            source,
            str(handlers),
            output=args.output,
            name=args.name,
            version=args.program_version,
            warn=lambda warning: print(warning, file=sys.stderr),
            strict=args.strict,
        )
        if args.completions or args.skill_dir:
            sidecars = sidecar_files(source, str(handlers), args)
    except GenerationError as error:
        for diagnostic in error.diagnostics:
            print(diagnostic, file=sys.stderr)
        count = len(error.diagnostics)
        print(f"burgee: {count} error{'s' if count != 1 else ''}; nothing written", file=sys.stderr)
        return ExitCode.ERROR
    output: Path = args.output or handlers.with_name(f"{name.replace('-', '_')}.py")
    if args.check:
        extra = check_sidecars(sidecars)
        difference = diff(output, text)
        if difference is None:
            return extra
        print(f"burgee: {output} is stale; regenerate it with burgee gen", file=sys.stderr)
        print(difference, file=sys.stderr, end="" if difference.endswith("\n") else "\n")
        return ExitCode.DIFF
    # NOTE: every file is checked before any is written: a refusal leaves nothing behind.
    problems = refusals(sidecars, args.force)
    if not may_write(output, args.force):
        problems.insert(
            0, f"{output} exists and was not generated by burgee; use --force to replace it"
        )
    if problems:
        for problem in problems:
            print(f"burgee: error: {problem}", file=sys.stderr)
        print("burgee: nothing written", file=sys.stderr)
        return ExitCode.ERROR
    try:
        write_atomic(output, text, force=args.force, executable=True)
        print(f"burgee: wrote {os.path.relpath(output)}", file=sys.stderr)
        write_sidecars(sidecars)
    except (WriteError, OSError) as error:
        print(f"burgee: error: {error}", file=sys.stderr)
        return ExitCode.ERROR
    return ExitCode.OK


#: `[tool.burgee]` keys: the `gen` option each one fills in.
_PROJECT_KEYS = {
    "handlers": "handlers",
    "output": "output",
    "completions": "completions",
    "skill-dir": "skill_dir",
}


def _project_targets(args: argparse.Namespace) -> str | None:
    """Fill in `gen`'s targets from `[tool.burgee]` of the nearest pyproject.toml (paths are
    relative to it); options given on the command line win. Return a problem, or None."""
    from burgee.read.imports import load_toml, nearest_pyproject  # noqa: PLC0415

    found = nearest_pyproject(Path.cwd() / "pyproject.toml")
    data = load_toml(found) if found is not None else None
    table = data.get("tool", {}).get("burgee") if isinstance(data, dict) else None
    if found is None or not isinstance(table, dict):
        return 'give a handlers file, or add [tool.burgee] with handlers = "..." to pyproject.toml'
    unknown = sorted(set(table) - set(_PROJECT_KEYS))
    if unknown:
        known = ", ".join(_PROJECT_KEYS)
        return f"{found}: unknown key {unknown[0]!r} in [tool.burgee] (known: {known})"
    if not isinstance(table.get("handlers"), str):
        return f'{found}: [tool.burgee] needs handlers = "handlers.py"'
    for key, attribute in _PROJECT_KEYS.items():
        value = table.get(key)
        if value is None or getattr(args, attribute) is not None:
            continue
        if not isinstance(value, str):
            return f"{found}: [tool.burgee] {key} must be a path (a string)"
        setattr(args, attribute, Path(os.path.relpath(found.parent / value)))
    return None
