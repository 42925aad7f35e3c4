"""Files `burgee gen` writes beside the tool when asked: completion scripts, SKILL.md, AGENTS.md."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from burgee.describe import skill
from burgee.model.ir import Program
from burgee.render import completions
from burgee.write.files import diff, is_generated, write_atomic, written

#: The name line of a tool burgee wrote (`PROGRAM = "..."` before the program object came).
_PROGRAM_LINE = re.compile(r'^PROGRAM(?:_NAME)? = "([^"\\]*)"$')


def sidecar_files(program: Program, args: argparse.Namespace) -> dict[Path, str]:
    """Every extra file asked for, by path."""
    found: dict[Path, str] = {}
    if args.completions:
        names = completions.file_names(program.name)
        for shell, text in completions.scripts(program).items():
            found[args.completions / names[shell]] = text
    if args.skill_dir:
        found.update(skill.files(program, program.source_name, args.skill_dir))
    return found


def check_sidecars(files: dict[Path, str]) -> list[str]:
    """--check: compare the extra files with what is on disk; return those missing or stale
    (each reported on stderr, with its diff)."""
    stale = []
    for target, text in files.items():
        difference = diff(target, text)
        if difference is not None:
            stale.append(str(target))
            print(f"burgee: {target} is stale; regenerate it with burgee gen", file=sys.stderr)
            print(difference, file=sys.stderr, end="" if difference.endswith("\n") else "\n")
    return stale


def write_sidecars(files: dict[Path, str], done: dict[str, bool]) -> None:
    """Write the extra files (each atomically), each reported on stderr and in `done` (path:
    whether it changed); raises OSError."""
    for target, text in files.items():
        changed = write_atomic(target, text, force=True)
        done[str(target)] = changed
        print(written(target, changed), file=sys.stderr)


def previous_program(output: Path) -> str | None:
    """The name of the program a generated module was before it is written again (its
    `PROGRAM_NAME = "..."` line), or None: not there, or not burgee's."""
    if not is_generated(output):
        return None
    try:
        with output.open(encoding="utf-8", errors="replace") as file:
            # NOTE: the constants come before the first function (the start-up code's), after
            # the `if TYPE_CHECKING:` block, whose stubs may run to hundreds of lines.
            for line in file:
                found = _PROGRAM_LINE.match(line)
                if found:
                    return found[1]
                if line.startswith(("def ", "async def ")):
                    break
    except OSError:
        return None
    return None


def orphans(previous: str | None, program: Program, args: argparse.Namespace) -> list[Path]:
    """The skill and completion files burgee wrote for `previous`, the program the output
    module was before this run, when the program has another name now (it was renamed): left
    in place, they go on describing a tool that no longer exists. Keyed on the module, not on
    a folder's contents: another tool's files in a shared folder are never named."""
    if previous is None or previous == program.name:
        return []
    found: list[Path] = []
    if args.skill_dir:
        page = args.skill_dir / skill.skill_name(previous) / "SKILL.md"
        if skill.skill_name(previous) != skill.skill_name(program.name) and is_generated(page):
            found.append(page)
    if args.completions:
        for name in completions.file_names(previous).values():
            if is_generated(args.completions / name):
                found.append(args.completions / name)
    return found
