"""The MCP side of the generated tool, computed at generation time.

`tools/list` is embedded as JSON text (parsed never: the server splices it into its answer),
each tool's name maps to its command path, and the command's result is checked by the one
execution path every caller shares (`burgee.runtime.execution.execute`).

The MCP tool table: each tool's `tools/list` entry and its name → command; refuses tool names
clients would reject; `surfaces()`: the `prompts/list`, `resources/list`,
`resources/templates/list` entries (also in `--llms`, `schema`); `extra_tables()`: the generated
`_MCP_EXTRA` and `_EXTRA_COMMANDS`; `completing()`: the prompts and templates with an argument
that completes (`completion/complete` and its capability only then).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from burgee.describe import builtins
from burgee.describe.schemas import tool, wraps_result
from burgee.model.diagnostics import Diagnostic, GenerationError
from burgee.model.ir import Command, Program, Prompt, Resource
from burgee.model.literals import py

_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def tool_name(command: Command, program: Program) -> str:
    """The MCP name of a command: its path joined with `_`; the program's name for a root
    command that is the program's only one, as on the command line (`hello NAME`)."""
    if program.root()[1] == "alone":
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
    tools: list[dict[str, Any]] = []
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
        tools.append(body)
        wraps = wraps_result(command)
        names.append(f"    {py(name)}: ({py(command.name)}, {wraps}),")
        if command.name not in (name, builtins.NAME):
            # NOTE: `--llms` names a command by its path (`vault peek`, a root command alone
            # by its command), where the tool's name joins it with `_` (`vault_peek`: a tool
            # name has no space) or is the program's: a client that calls the `--llms` name
            # reaches the same command. No tool name has a space, so none collides.
            names.append(f"    {py(command.name)}: ({py(command.name)}, {wraps}),")
    if problems:
        raise GenerationError(problems)
    if builtins.NAME not in seen:
        # NOTE: the built-in that pages back a cut answer (`runtime/execution/table._OUTPUT`).
        tools.append(builtins.mcp_tool())
        names.append(f"    {py(builtins.NAME)}: ({py(builtins.NAME)}, False),")
    # NOTE: one encoding of the whole list (one per tool was a tenth of a large program's render).
    text = json.dumps({"tools": tools}, ensure_ascii=False, separators=(",", ":"))
    return McpView(tools_json=text, names=names)


def _prompt_entry(prompt: Prompt) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": prompt.name}
    if prompt.summary:
        entry["title"] = prompt.summary
    if prompt.description:
        entry["description"] = prompt.description
    arguments = []
    for param in prompt.params:
        if param.role == "context":
            continue
        argument: dict[str, Any] = {"name": param.name}
        if param.help:
            argument["description"] = param.help
        argument["required"] = param.required
        arguments.append(argument)
    entry["arguments"] = arguments
    return entry


def _resource_entry(resource: Resource) -> dict[str, Any]:
    key = "uriTemplate" if resource.templated else "uri"
    entry: dict[str, Any] = {key: resource.uri, "name": resource.name}
    if resource.summary:
        entry["title"] = resource.summary
    if resource.description:
        entry["description"] = resource.description
    if resource.mime_type:
        entry["mimeType"] = resource.mime_type
    return entry


def surfaces(program: Program) -> dict[str, list[dict[str, Any]]]:
    """The `prompts/list`, `resources/list` and `resources/templates/list` entries (the
    lists a program has, only)."""
    found: dict[str, list[dict[str, Any]]] = {}
    if program.prompts:
        found["prompts"] = [_prompt_entry(p) for p in program.prompts]
    fixed = [_resource_entry(r) for r in program.resources if not r.templated]
    templates = [_resource_entry(r) for r in program.resources if r.templated]
    if program.resources:
        found["resources"] = fixed
        found["resourceTemplates"] = templates
    return found


#: The MCP methods of prompts, resources and logging, and the runtime functions that answer
#: them (`burgee.runtime.agents.surfaces`).
_PROMPT_METHODS = (("prompts/list", "_mcp_prompts_list"), ("prompts/get", "_mcp_prompt_get"))
_RESOURCE_METHODS = (
    ("resources/list", "_mcp_resources_list"),
    ("resources/templates/list", "_mcp_templates_list"),
    ("resources/read", "_mcp_resource_read"),
)
_LOG_METHODS = (("logging/setLevel", "_mcp_set_level"),)
_COMPLETE_METHODS = (("completion/complete", "_mcp_complete"),)
#: The CLI's built-in commands for them: word -> (help, runtime function).
PROMPT_COMMAND = (
    "prompt",
    "list the prompts, or print one: prompt NAME [--ARG VALUE]",
    "_prompt_cli",
)
RESOURCE_COMMAND = (
    "resource",
    "list the resources, or read one: resource URI",
    "_resource_cli",
)


def completing(program: Program) -> list[Prompt | Resource]:
    """The prompts and resource templates one of whose arguments completes (`completion/
    complete`): with a `complete=` function, or from its choices (a `Literal`, an enum)."""
    every: list[Prompt | Resource] = [*program.prompts, *program.resources]
    return [
        surface
        for surface in every
        if any(
            p.complete or (p.type is not None and p.type.kind in ("choice", "enum"))
            for p in surface.params
            if p.role != "context"
        )
    ]


def extra_tables(program: Program) -> tuple[list[str], list[str]]:
    """The source lines of `_MCP_EXTRA` (method -> function) and `_EXTRA_COMMANDS`."""
    methods: list[tuple[str, str]] = []
    commands: list[tuple[str, str, str]] = []
    if program.prompts:
        methods += _PROMPT_METHODS
        commands.append(PROMPT_COMMAND)
    if program.resources:
        methods += _RESOURCE_METHODS
        commands.append(RESOURCE_COMMAND)
    if completing(program):
        methods += _COMPLETE_METHODS
    if program.logging:
        methods += _LOG_METHODS
    return (
        [f"    {py(method)}: {function}," for method, function in methods],
        [f"    {py(word)}: ({py(text)}, {function})," for word, text, function in commands],
    )
