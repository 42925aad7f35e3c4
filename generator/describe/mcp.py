"""The MCP side of the generated tool, computed at generation time.

`tools/list` is embedded as JSON text (parsed never: the server splices it into its answer),
each tool's name maps to its command path, and each tool gets a checker of its result's
shape, so `structuredContent` always conforms to the declared `outputSchema`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from burgee.describe.schemas import tool, wraps_result
from burgee.model.diagnostics import Diagnostic, GenerationError
from burgee.model.ir import Command, Program, Record, TypeRef
from burgee.model.literals import call, py

_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_SIMPLE_SHAPES = {
    "str": "_s_str",
    "path": "_s_str",
    "date": "_s_str",
    "datetime": "_s_str",
    "time": "_s_str",
    "uuid": "_s_str",
    "decimal": "_s_decimal",
    "int": "_s_int",
    "float": "_s_number",
    "bool": "_s_bool",
    "any": "_s_any",
    "none": "_s_null",
}


def tool_name(command: Command, program: Program) -> str:
    """The MCP name of a command: its path joined with `_`, or the program's name."""
    if len(program.commands) == 1:
        return re.sub(r"[^A-Za-z0-9_-]", "_", program.name)[:64]
    return "_".join(command.path)


def served(program: Program) -> list[Command]:
    """The commands an MCP client may call: all but the withheld ones, in file order."""
    return [c for c in program.commands if c.effects != "withheld"]


def shape(ref: TypeRef) -> str:
    """The runtime expression that checks JSON data against `ref`."""
    if ref.kind in _SIMPLE_SHAPES:
        code = _SIMPLE_SHAPES[ref.kind]
    elif ref.kind in ("choice", "enum"):
        code = call("_s_in", (py(c) for c in ref.choices))
    elif ref.kind == "list":
        assert ref.item is not None
        code = f"_s_list({shape(ref.item)})"
    elif ref.kind == "record":
        code = f"_s_record({py(ref.name)})"
    else:  # dict
        code = f"_s_map({shape(ref.value)})" if ref.value is not None else "_s_map(_s_any)"
    return f"_s_null_or({code})" if ref.nullable and ref.kind != "none" else code


def record_shape(record: Record) -> str:
    """The checker of one record's JSON object: each field's shape, and the required keys."""
    fields = "{" + ", ".join(f"{py(f.name)}: {shape(f.type)}" for f in record.fields) + "}"
    required = py(tuple(f.name for f in record.fields if f.required))
    return f"_s_object({fields}, {required})"


def _records(program: Program) -> list[Record]:
    names: set[str] = set()

    def visit(ref: TypeRef | None) -> None:
        if ref is None:
            return
        if ref.kind == "record" and ref.name and ref.name not in names:
            names.add(ref.name)
            for field in by_name[ref.name].fields:
                visit(field.type)
        visit(ref.item)
        visit(ref.value)

    by_name = {r.name: r for r in program.records}
    for command in served(program):
        visit(command.returns)
    return [by_name[name] for name in sorted(names)]


@dataclass(frozen=True)
class McpView:
    """What `_mcp.py.jinja` needs: source lines of its tables."""

    tools_json: list[str]
    names: list[str]
    shapes: list[str]
    records: list[str]


def mcp_view(program: Program) -> McpView:
    """The generated tables of the MCP server; raise on names clients would reject."""
    problems: list[Diagnostic] = []
    seen: dict[str, Command] = {}
    tools: list[str] = []
    names: list[str] = []
    shapes: list[str] = []
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
        returns = command.returns or TypeRef(kind="none", source="None")
        shapes.append(f"        {py(name)}: {shape(returns)},")
    if problems:
        raise GenerationError(problems)
    items = [py(text + ("," if i < len(tools) - 1 else "")) for i, text in enumerate(tools)]
    lines = ["    '{\"tools\":['", *(f"    {item}" for item in items), "    ']}'"]
    records = [f"        {py(r.name)}: {record_shape(r)}," for r in _records(program)]
    return McpView(tools_json=lines, names=names, shapes=shapes, records=records)
