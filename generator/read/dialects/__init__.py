"""The dialects burgee reads: its own (the rest of `read/`), Typer's and Click's.

A Typer or Click program is read as it is written, never imported, into one reading of its
groups, commands and parameters (`common.Param`: Typer's markers land where Click's decorators
do, Typer being built on Click), which is then written over the file in burgee's own dialect
(`emit`): the framework's declarations (decorators, `app = typer.Typer()`, `typer.Option(...)`
defaults) give way to burgee's, every other line stays as written and keeps its place for
diagnostics. The burgee reader then reads the result, so the IR, render, describe and the
runtime are the same whichever dialect a program came from; `Program.dialect` says which.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from burgee.model.diagnostics import Diagnostic, GenerationError
from burgee.read.dialects.click import ClickReading
from burgee.read.dialects.common import Placer, Reading, Rewrite
from burgee.read.dialects.program import write_click
from burgee.read.dialects.typer import write_typer
from burgee.read.source import imports
from burgee.read.source import tree as parsed

DIALECTS = ("burgee", "typer", "click")


@dataclass
class Translated:
    """A program rewritten into burgee's dialect."""

    source: str
    origins: list[tuple[str, int]]
    dialect: str
    warnings: list[Diagnostic] = field(default_factory=list)
    #: The framework modules the rewritten code no longer imports.
    dropped: set[str] = field(default_factory=set)


def dialect_of(source: str) -> str:
    """Which dialect a file is written in: burgee's when it imports burgee, else Typer's or
    Click's when it imports one of them."""
    modules = set()
    for node in imports(source):
        if isinstance(node, ast.Import):
            modules |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            modules.add(node.module.split(".")[0])
    for name in ("burgee", "typer", "click"):
        if name in modules:
            return name
    if "click_default_group" in modules:
        return "click"
    return "burgee"


def translate(source: str, path: str, origins: list[tuple[str, int]] | None) -> Translated | None:
    """A Typer or Click program in burgee's dialect; None for one in burgee's already."""
    dialect = dialect_of(source)
    if dialect == "burgee":
        return None
    tree = parsed(source)
    place = Placer(path, origins)
    reading = Reading(source, tree, place)
    rewrite = Rewrite(reading.text)
    if dialect == "typer":
        dropped = write_typer(reading, rewrite)
    else:
        click = ClickReading(reading)
        click.read()
        dropped = write_click(click, rewrite)
    errors = [d for d in reading.diagnostics if d.level == "error"]
    if errors:
        raise GenerationError(sorted(errors, key=lambda d: (d.span.path, d.span.line)))
    text, lines = rewrite.apply(place)
    warnings = [d for d in reading.diagnostics if d.level != "error"]
    return Translated(text, lines, dialect, warnings, dropped)
