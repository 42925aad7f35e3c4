"""Files `burgee gen` writes beside the tool when asked: completion scripts, SKILL.md, AGENTS.md."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from burgee.describe import skill
from burgee.model.ir import Program
from burgee.render import completions
from burgee.write.files import diff, write_atomic, written


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
