"""The tool's built-in `output` command, described once for every document that lists it
(clispec `schema`, `--llms`, MCP `tools/list`); what it does lives in the runtime
(`runtime/execution/table._OUTPUT`), whose help texts are read from there."""

from __future__ import annotations

from typing import Any

from burgee.runtime.answers.deliver import _OUTPUT_WORD
from burgee.runtime.execution.table import _OUTPUT, _OUTPUT_INPUTS

NAME = _OUTPUT_WORD


def _description(text: str) -> str:
    return text[0].upper() + text[1:] + "."


#: Its input schema, from the runtime's table of its inputs (bounds, defaults, help).
INPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        name: (
            {"type": "string", "description": _description(text)}
            if flag is None
            else {"type": "integer", "minimum": least, "default": default}
        )
        for name, flag, _, least, default, text in _OUTPUT_INPUTS
    },
    "required": [name for name, flag, *_ in _OUTPUT_INPUTS if flag is None],
    "additionalProperties": False,
}

OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "ref": {"type": "string"},
        "offset": {"type": "integer"},
        "length": {"type": "integer", "description": "The full text's length, in characters."},
        "text": {"type": "string"},
        "next": {
            "anyOf": [{"type": "integer"}, {"type": "null"}],
            "description": "The offset of the next page; null after the last.",
        },
    },
    "required": ["ref", "offset", "length", "text", "next"],
}


def mcp_tool() -> dict[str, Any]:
    """The `tools/list` entry of `output` (and its `--llms` entry)."""
    return {
        "name": NAME,
        "title": _OUTPUT.summary,
        "description": _OUTPUT.description,
        "inputSchema": INPUT_SCHEMA,
        "outputSchema": OUTPUT_SCHEMA,
        "annotations": {
            "readOnlyHint": True,
            "destructiveHint": False,
            "idempotentHint": True,
            "openWorldHint": False,
        },
    }


def clispec_entry(envelope: dict[str, Any]) -> dict[str, Any]:
    """The clispec `commands[]` entry of `output`; `envelope` wraps its data schema."""
    return {
        "name": NAME,
        "description": _OUTPUT.description,
        "effects": "read_only",
        "cardinality": "single",
        "args": [
            {"name": name, "type": "string", "required": True}
            if flag is None
            else {"name": flag, "type": "integer", "required": False, "default": default}
            for name, flag, _, _, default, _ in _OUTPUT_INPUTS
        ],
        "stdout_schema": envelope,
        "example": {"args": [NAME, "0123456789abcdef"]},
        "usage_examples": list(_OUTPUT.examples),
        "input_schema": INPUT_SCHEMA,
    }
