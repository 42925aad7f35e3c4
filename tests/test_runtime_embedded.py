"""The embedded documents, in-process: a run decompresses only the document it reads, and one
command's input is read without the other commands' (a wide tool's `tools/list`, its first
`tools/call` and `--json` input)."""

from __future__ import annotations

import json

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
    """The documents of `tool` decoded so far."""
    return {name for made, name in embedded._DOCUMENTS if made is tool}


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
