"""The embedded documents, in-process: a run decompresses only the document it reads, and one
command's input is read without the other commands' (a wide tool's `tools/list`, its first
`tools/call` and `--json` input)."""

from __future__ import annotations

import json
import tracemalloc
from typing import Any

import pytest

from burgee.describe.documents import inputs
from burgee.render.embedded import pack, unpack
from burgee.runtime.core import embedded
from burgee.runtime.execution.inputs import _input_schema
from burgee.runtime.program import Program
from tests.runtime_program import program

SCHEMA = {
    "commands": [
        {
            "name": "vault peek",
            "args": [{"name": "--token", "secret": True}, {"name": "--limit"}],
            "input_schema": {"type": "object", "properties": {"limit": {"type": "integer"}}},
        },
        {"name": "vault", "input_schema": {"type": "object", "properties": {}}},
        {"name": "add"},
    ]
}


def _tool() -> Program:
    """A program whose documents are read, none of them yet."""
    return program(
        documents={"schema": json.dumps(SCHEMA), "inputs": inputs(SCHEMA), "mcp_tools": "[1]"}
    )


def _decoded(tool: Program) -> set[str]:
    """The documents of `tool` decompressed so far (one of their parts or more)."""
    return {name for made, name, _ in embedded._DOCUMENT_PARTS if made is tool}


def test_each_document_is_decompressed_alone() -> None:
    tool = _tool()
    assert embedded._document("mcp_tools", tool) == "[1]"
    assert _decoded(tool) == {"mcp_tools"}
    assert json.loads(embedded._document("schema", tool)) == SCHEMA
    assert _decoded(tool) == {"mcp_tools", "schema"}
    with pytest.raises(KeyError):
        embedded._document("nothing", tool)


def test_one_commands_input_is_read_without_the_schema() -> None:
    tool = _tool()
    schema, secrets = _input_schema("vault peek", tool)
    assert schema == SCHEMA["commands"][0]["input_schema"]
    assert secrets == {"token"}
    # NOTE: a command whose path begins another's is its own line.
    assert _input_schema("vault", tool) == ({"type": "object", "properties": {}}, frozenset())
    assert _input_schema("add", tool) == (None, frozenset())
    assert _input_schema("missing", tool) == (None, frozenset())
    assert _decoded(tool) == {"inputs"}


def test_pack_and_unpack_are_inverse() -> None:
    documents = {"a": "x" * 1000, "b": "", "c": "é\n\t{}"}
    assert unpack(pack(documents)) == documents
    # NOTE: a document in parts (a wide tool's `inputs`) reads back whole.
    assert unpack(pack({"a": ["x", "", "yé"]})) == {"a": "xyé"}


def _wide_schema(count: int) -> dict[str, Any]:
    """A clispec document of `count` commands, each with an input schema of its own."""
    return {
        "commands": [
            {
                "name": f"cmd{n:03d}",
                "args": [{"name": "--token", "secret": True}] if n % 7 == 0 else [],
                "input_schema": {
                    "type": "object",
                    "properties": {
                        f"name{n}": {"type": "string", "description": f"The name of {n}: " * 80}
                    },
                },
            }
            for n in range(count)
        ]
    }


def test_a_wide_tools_command_input_decompresses_its_part_alone() -> None:
    """At 500 commands a first `tools/call` (or `--json` input) decompressed the whole
    `inputs` document to read one line of it; it reads the part that holds its line."""
    schema = _wide_schema(500)
    tool = program(documents={"inputs": inputs(schema)})
    whole = sum(map(len, inputs(schema)))
    tracemalloc.start()
    try:
        found = _input_schema("cmd321", tool)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert found == (schema["commands"][321]["input_schema"], frozenset())
    assert peak < whole / 3, (peak, whole)
    for entry in schema["commands"]:
        secrets = frozenset(["token"]) if entry["args"] else frozenset()
        assert _input_schema(entry["name"], tool) == (entry["input_schema"], secrets)
