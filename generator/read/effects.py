"""Effects declared beside the app, not in it: `[tool.burgee.commands."PATH"]` of the nearest
pyproject.toml sets `effects` (one of `EFFECTS`, `withheld` too) of a command whose app leaves
them undeclared (every command of a Typer or Click app; `@command(effects="undeclared")`), so
an author describes what a command does to the world without touching the app."""

from __future__ import annotations

import difflib
import re

from burgee.model.diagnostics import Diagnostic, SourceSpan
from burgee.model.ir import EFFECTS, Command
from burgee.read.imports import load_toml, nearest_pyproject

#: The table's name in pyproject.toml, under `[tool.burgee]`.
TABLE = "commands"
#: A command's table header: `[tool.burgee.commands."db drop"]`, `[tool.burgee.commands.show]`.
_HEADER = re.compile(r"""^\s*\[\s*tool\.burgee\.commands\.(?:"([^"]*)"|'([^']*)'|([\w-]+))\s*\]""")


def declared_effects(path: str, commands: list[Command]) -> tuple[list[Command], list[Diagnostic]]:
    """`commands` with the effects the nearest pyproject.toml declares for them, and every
    problem of its `[tool.burgee.commands]` table, placed in it."""
    found = nearest_pyproject(path)
    data = load_toml(found) if found is not None else None
    tool = data.get("tool") if data is not None else None
    burgee = tool.get("burgee") if isinstance(tool, dict) else None
    table = burgee.get(TABLE) if isinstance(burgee, dict) else None
    if found is None or table is None:
        return commands, []
    lines = found.read_text(encoding="utf-8").splitlines()
    problems: list[Diagnostic] = []

    def problem(line: int, message: str) -> None:
        problems.append(
            Diagnostic(span=SourceSpan(path=str(found), line=line, column=1), message=message)
        )

    if not isinstance(table, dict):
        problem(_line_of(lines, "[tool.burgee"), f"[tool.burgee] {TABLE} must be a table")
        return commands, problems
    by_name = {c.name: c for c in commands}
    declared: dict[str, str] = {}
    for name, settings in table.items():
        header = _header_line(lines, name)
        command = by_name.get(name)
        if command is None:
            close = difflib.get_close_matches(name, list(by_name), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            problem(header, f"[tool.burgee.{TABLE}] names no command {name!r}{hint}")
            continue
        if not isinstance(settings, dict) or set(settings) - {"effects"}:
            problem(header, f'[tool.burgee.{TABLE}."{name}"] takes only effects = "..."')
            continue
        effects = settings.get("effects")
        if effects not in EFFECTS or effects == "undeclared":
            shown = ", ".join(e for e in EFFECTS if e != "undeclared")
            problem(_line_of(lines, "effects", header), f"effects must be one of {shown}")
            continue
        if command.effects != "undeclared":
            problem(
                header,
                f"{name} declares its effects in the app (effects={command.effects!r}): "
                f"[tool.burgee.{TABLE}] sets those of commands that leave them undeclared",
            )
            continue
        declared[name] = str(effects)
    changed = [
        c.model_copy(update={"effects": declared[c.name]}) if c.name in declared else c
        for c in commands
    ]
    return changed, problems


def _header_line(lines: list[str], name: str) -> int:
    """The line of a command's table header (1 when it is written another way)."""
    for number, line in enumerate(lines, 1):
        match = _HEADER.match(line)
        if match and next(g for g in match.groups() if g is not None) == name:
            return number
    return 1


def _line_of(lines: list[str], start: str, after: int = 0) -> int:
    """The first line from `after` on that begins with `start` (else `after`, or 1)."""
    for number, line in enumerate(lines[after:], after + 1):
        if line.lstrip().startswith(start):
            return number
    return after or 1
