"""The pipeline in one call: read → model → render."""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from burgee.read.program import read_program
from burgee.render.module import render


def regenerate_command(handlers: str, output: Path | None, name: str) -> str:
    """The `burgee gen` line to put in the header, relative to the output's directory."""
    out = output or Path(handlers).with_name(f"{name.replace('-', '_')}.py")
    here = out.resolve().parent
    source = os.path.relpath(Path(handlers).resolve(), here)
    return f"burgee gen {shlex.quote(source)} -o {shlex.quote(out.name)}"


def generate(
    source: str,
    path: str,
    *,
    output: Path | None = None,
    name: str | None = None,
    version: str | None = None,
) -> tuple[str, str]:
    """Generate the module for one handlers file; return (program name, module source)."""
    program = read_program(source, path, name=name, version=version)
    return program.name, render(program, regenerate_command(path, output, program.name))
