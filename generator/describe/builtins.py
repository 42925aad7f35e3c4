"""The tool's built-in `output` command, described once for every document that lists it
(clispec `schema`, `--llms`, MCP `tools/list`); what it does lives in `burgee.runtime.deliver`
(`_OUTPUT`), whose help texts are read from there."""

from __future__ import annotations

from typing import Any

from burgee.runtime.deliver import _OUTPUT
from burgee.runtime.truncate import _PAGE

NAME = "output"

INPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "ref": {"type": "string", "description": "The reference a cut answer names."},
        "offset": {"type": "integer", "minimum": 0, "default": 0},
        "limit": {"type": "integer", "minimum": 1, "default": _PAGE},
    },
    "required": ["ref"],
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
            {"name": "ref", "type": "string", "required": True},
            {"name": "--offset", "type": "integer", "required": False, "default": 0},
            {"name": "--limit", "type": "integer", "required": False, "default": _PAGE},
        ],
        "stdout_schema": envelope,
        "example": {"args": ["output", "0123456789abcdef"]},
        "usage_examples": list(_OUTPUT.examples),
        "input_schema": INPUT_SCHEMA,
    }
