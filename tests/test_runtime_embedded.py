"""The embedded documents, in-process: a run decompresses only the document it reads, and one
command's input is read without the other commands' (a wide tool's `tools/list`, its first
`tools/call` and `--json` input)."""

from __future__ import annotations

import json

import pytest

from burgee.describe.documents import inputs
from burgee.render.embedded import pack, unpack
from burgee.runtime.agents import embedded
from burgee.runtime.execution.inputs import _input_schema
from tests.runtime_program import install, program

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


@pytest.fixture(autouse=True)
def _program(monkeypatch: pytest.MonkeyPatch) -> None:
    documents = {"schema": json.dumps(SCHEMA), "inputs": inputs(SCHEMA), "mcp_tools": "[1]"}
    install(monkeypatch, program(documents=documents))


def test_each_document_is_decompressed_alone() -> None:
    assert embedded._document("mcp_tools") == "[1]"
    assert set(embedded._DOCUMENTS) == {"mcp_tools"}
    assert json.loads(embedded._document("schema")) == SCHEMA
    assert set(embedded._DOCUMENTS) == {"mcp_tools", "schema"}
    with pytest.raises(KeyError):
        embedded._document("nothing")


def test_one_commands_input_is_read_without_the_schema() -> None:
    schema, secrets = _input_schema("vault peek")
    assert schema == SCHEMA["commands"][0]["input_schema"]
    assert secrets == {"token"}
    # NOTE: a command whose path begins another's is its own line.
    assert _input_schema("vault") == ({"type": "object", "properties": {}}, frozenset())
    assert _input_schema("add") == (None, frozenset())
    assert _input_schema("missing") == (None, frozenset())
    assert set(embedded._DOCUMENTS) == {"inputs"}


def test_pack_and_unpack_are_inverse() -> None:
    documents = {"a": "x" * 1000, "b": "", "c": "é\n\t{}"}
    assert unpack(pack(documents)) == documents
