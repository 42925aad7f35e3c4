"""The MCP side of the generated tool, computed at generation time.

`tools/list` is embedded as JSON text (parsed never: the server splices it into its answer),
each tool's name maps to its command path, and the command's result is checked by the one
execution path every caller shares (`burgee.runtime.execute`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from burgee.describe import builtins
from burgee.describe.schemas import tool, wraps_result
from burgee.model.diagnostics import Diagnostic, GenerationError
from burgee.model.ir import Command, Program
from burgee.model.literals import py

_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def tool_name(command: Command, program: Program) -> str:
    """The MCP name of a command: its path joined with `_`, or the program's name."""
    if len(program.commands) == 1:
        return re.sub(r"[^A-Za-z0-9_-]", "_", program.name)[:64]
    return "_".join(command.path)


def served(program: Program) -> list[Command]:
    """The commands an MCP client may call: all but the withheld ones, in file order."""
    return [c for c in program.commands if c.effects != "withheld"]


@dataclass(frozen=True)
class McpView:
    """The MCP server's tables: the `tools/list` result (JSON text, spliced into answers,
    never parsed) and the source lines of the tool name -> command table."""

    tools_json: str
    names: list[str]


def mcp_view(program: Program) -> McpView:
    """The generated tables of the MCP server; raise on names clients would reject."""
    problems: list[Diagnostic] = []
    seen: dict[str, Command] = {}
    tools: list[str] = []
    names: list[str] = []
    for command in served(program):
        name = tool_name(command, program)
        if not _NAME.match(name):
            problems.append(
                Diagnostic(
                    span=command.span,
                    message=f"MCP tool name {name!r} must match [A-Za-z0-9_-]{{1,64}}; rename it",
                )
            )
        elif name in seen:
            problems.append(
                Diagnostic(
                    span=command.span,
                    message=f"MCP tool name {name!r} is also the name of {seen[name].name!r}",
                )
            )
        seen[name] = command
        entry = tool(command, program)
        body = {
            "name": name,
            "title": command.summary or name,
            **{k: v for k, v in entry.items() if k != "name"},
        }
        tools.append(json.dumps(body, ensure_ascii=False, separators=(",", ":")))
        wraps = wraps_result(command)
        names.append(f"    {py(name)}: ({py(command.name)}, {wraps}),")
    if problems:
        raise GenerationError(problems)
    if builtins.NAME not in seen:
        # NOTE: the built-in that pages back a cut answer (`burgee.runtime.deliver._OUTPUT`).
        tools.append(json.dumps(builtins.mcp_tool(), ensure_ascii=False, separators=(",", ":")))
        names.append(f"    {py(builtins.NAME)}: ({py(builtins.NAME)}, False),")
    return McpView(tools_json='{"tools":[' + ",".join(tools) + "]}", names=names)
