"""The work of `burgee gen` and `burgee check`, for burgee's own command line (`commands.py`):
every file computed and every refusal found before any file is written; problems raised.

The work of burgee's own `gen` and `check` commands: `targets()` (`[tool.burgee]` of the nearest
pyproject.toml: paths, and `plain`), `gen()` (every file computed and every refusal found before
any is written, its own input never a target even with `--force`; answers `Files`: written,
unchanged, stale), `check()` (read and checked, nothing written); problems raised
(`GenerationError`, `Refused`).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path

from burgee.model.diagnostics import Diagnostic, SourceSpan
from burgee.model.ir import PROGRAM_NAME, PROGRAM_NAME_RULE, Program
from burgee.read.effects import TABLE
from burgee.read.imports import load_toml, nearest_pyproject, toml_error
from burgee.read.source import decode
from burgee.write.files import WriteError, diff, refusal, write_atomic, written
from burgee.write.generate import checked, default_output, generate, read, uncollected
from burgee.write.sidecars import (
    check_sidecars,
    orphans,
    previous_program,
    sidecar_files,
    write_sidecars,
)


class Refused(Exception):
    """`gen` may not go on; nothing was written. `problems`: one sentence each; `where`: what
    was refused: "handlers" (the file cannot be read: `PATH: ...`), "gen" (`[tool.burgee]`)
    "write" (a target it may not replace) or "io" (writing failed)."""

    def __init__(self, problems: list[str], where: str = "write") -> None:
        super().__init__("; ".join(problems))
        self.problems = problems
        self.where = where


#: `[tool.burgee]` keys: the `gen` option each one fills in (a path; `plain`: true or false).
_PROJECT_KEYS = {
    "handlers": "handlers",
    "output": "output",
    "completions": "completions",
    "skill-dir": "skill_dir",
    "plain": "plain",
}


def targets(args: argparse.Namespace) -> None:
    """Without a handlers file, fill in `gen`'s targets from `[tool.burgee]` of the nearest
    pyproject.toml (paths relative to it; `plain`, the form); options given on the command
    line win."""
    if args.handlers is not None:
        return
    found = nearest_pyproject(Path.cwd() / "pyproject.toml")
    data = load_toml(found) if found is not None else None
    if found is not None and data is None:
        # NOTE: its [tool.burgee] may be there: say why it cannot be read, not that it is not.
        raise Refused([toml_error(found) or f"{found}: cannot be read"], "gen")
    table = data.get("tool", {}).get("burgee") if isinstance(data, dict) else None
    if found is None or not isinstance(table, dict):
        raise Refused(
            ['give a handlers file, or add [tool.burgee] with handlers = "..." to pyproject.toml'],
            "gen",
        )
    # NOTE: `commands` (the effects declared beside the app) is read with the handlers.
    unknown = sorted(set(table) - set(_PROJECT_KEYS) - {TABLE})
    if unknown:
        known = ", ".join((*_PROJECT_KEYS, TABLE))
        raise Refused(
            [f"{found}: unknown key {unknown[0]!r} in [tool.burgee] (known: {known})"], "gen"
        )
    if "handlers" not in table:
        raise Refused([f'{found}: [tool.burgee] needs handlers = "handlers.py"'], "gen")
    for key, attribute in _PROJECT_KEYS.items():
        value = table.get(key)
        if value is None or getattr(args, attribute, None) is not None:
            continue
        if key == "plain":
            if not isinstance(value, bool):
                raise Refused([f"{found}: [tool.burgee] plain must be true or false"], "gen")
            setattr(args, attribute, value)
            continue
        if not isinstance(value, str):
            raise Refused([f"{found}: [tool.burgee] {key} must be a path (a string)"], "gen")
        setattr(args, attribute, Path(os.path.relpath(found.parent / value)))


def _source(handlers: Path) -> str:
    try:
        data = handlers.read_bytes()
    except OSError as error:
        raise Refused([f"{handlers}: cannot read the handlers file: {error}"], "handlers") from None
    return decode(data, str(handlers))


class Files:
    """What `gen` did to each file: `changed` the paths written anew, `unchanged` those that
    already held the output (with `--check`: those up to date), `stale` (`--check` only) those
    missing or different."""

    def __init__(self) -> None:
        self.changed: list[str] = []
        self.unchanged: list[str] = []
        self.stale: list[str] = []

    def record(self, done: dict[str, bool]) -> None:
        for path, changed in done.items():
            (self.changed if changed else self.unchanged).append(path)


def gen(args: argparse.Namespace, warn: Callable[[Diagnostic], None]) -> Files:
    """Generate (or with `args.check`, compare) the tool and the files asked for beside it.

    Returns what became of each file; raises GenerationError (the handlers' diagnostics) or
    Refused. Reports each file written, and each stale one with its diff, on stderr.
    """
    targets(args)
    if args.name is not None and not PROGRAM_NAME.match(args.name):
        raise Refused([f"--name {args.name!r}: a program name is {PROGRAM_NAME_RULE}"], "gen")
    handlers: Path = args.handlers
    source = _source(handlers)
    program, text = generate(
        source,
        str(handlers),
        output=args.output,
        name=args.name,
        version=args.program_version,
        warn=warn,
        strict=args.strict,
        # NOTE: neither --plain/--no-plain nor [tool.burgee]: the form of the file on disk.
        plain=args.plain,
    )
    sidecars = sidecar_files(program, args) if args.completions or args.skill_dir else {}
    output: Path = args.output or default_output(handlers, program)
    files = Files()
    writing = [output, *sidecars]
    blocked = _inputs_in_the_way(
        writing, [handlers, *(handlers.parent / name for name in program.bundled)]
    )
    if args.check and blocked:
        raise Refused(list(blocked.values()))
    if args.check:
        difference = diff(output, text)
        if difference is not None:
            print(f"burgee: {output} is stale; regenerate it with burgee gen", file=sys.stderr)
            print(difference, file=sys.stderr, end="" if difference.endswith("\n") else "\n")
        files.stale = ([str(output)] if difference is not None else []) + check_sidecars(sidecars)
        stale = set(files.stale)
        files.unchanged = [str(path) for path in writing if str(path) not in stale]
        return files
    # NOTE: every file is checked before any is written: a refusal leaves nothing behind.
    refused = (refusal(target, args.force) for target in writing if target not in blocked)
    problems = [*blocked.values(), *(problem for problem in refused if problem is not None)]
    if problems:
        raise Refused(problems)
    done: dict[str, bool] = {}
    previous = previous_program(output)
    try:
        done[str(output)] = write_atomic(output, text, force=args.force, executable=True)
        print(written(output, done[str(output)]), file=sys.stderr)
        write_sidecars(sidecars, done)
    except (WriteError, OSError) as error:
        raise Refused([str(error)], "io") from None
    files.record(done)
    for orphan in orphans(previous, program, args):
        warn(
            Diagnostic(
                span=SourceSpan(path=str(handlers), line=1, column=1),
                message=f"{orphan} is {previous!r}'s, the program {output} was before; remove "
                "it if that program was renamed",
                level="warning",
            )
        )
    return files


def _inputs_in_the_way(targets: list[Path], inputs: list[Path]) -> dict[Path, str]:
    """The files gen would write that are its own input (the handlers file, a sibling it
    bundles): never replaced, --force or not. A program named after its handlers file
    (`mytool.py`, no `program(name=...)`) would be written over it by default."""
    problems = {}
    for target in targets:
        for source in inputs:
            try:
                same = target.exists() and os.path.samefile(target, source)
            except OSError:
                continue
            if same:
                what = "the handlers file" if source == inputs[0] else "a module the tool bundles"
                problems[target] = (
                    f"{target} is {what}: burgee never writes over its input, even with "
                    "--force; name the output with -o (or the program with program(name=...))"
                )
                break
    return problems


def check(handlers: Path, strict: bool, warn: Callable[[Diagnostic], None]) -> Program:
    """Read a handlers file as `gen` would (its examples parsed, its warnings reported; with
    `strict`, warnings are errors), writing nothing; raises GenerationError or Refused."""
    source = _source(handlers)
    with uncollected():
        program = read(source, str(handlers))
        checked(program, str(handlers), warn=warn, strict=strict)
    return program
