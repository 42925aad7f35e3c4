"""Fill in the per-program names of the runtime modules, for in-process unit tests.

A generated file defines `PROGRAM`, `COMMANDS`, `RECORDS`, ... once for everything; the
runtime modules import stand-ins from `burgee.runtime.program`, so a test sets the value in
every module that imported it.
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from burgee.render.embedded import pack, unpack
from burgee.runtime import catalog, embedded, table

MODULES = [
    importlib.import_module(f"burgee.runtime.{name}") for name in (*catalog.HEAD, *catalog.TAIL)
]


#: The documents of `_DATA`, by the names tests give them (`_SCHEMA_JSON=...`).
DOCUMENTS = {
    "_SCHEMA_JSON": "schema",
    "_LLMS_JSON": "llms",
    "_MCP_TOOLS_JSON": "mcp_tools",
    "_SKILL": "skill",
    "_COMPLETION_TABLE": "completion",
}


def install(monkeypatch: pytest.MonkeyPatch, **names: Any) -> None:
    """Give every runtime module that uses one of `names` the value given here; documents
    (`_SCHEMA_JSON`, `_SKILL`, ...) go into `_DATA`, encoded as `burgee gen` encodes them."""
    program = importlib.import_module("burgee.runtime.program")
    given = {DOCUMENTS[name]: names.pop(name) for name in list(names) if name in DOCUMENTS}
    if given:
        # NOTE: the stand-in's own (empty) documents, with the ones given here in their place.
        names["_DATA"] = pack({**unpack(program._DATA), **given})
        monkeypatch.setattr(embedded, "_DOCUMENTS", {})
    if "COMMANDS" in names:
        # NOTE: the `_Command`s made from the rows of another test's table.
        monkeypatch.setattr(table, "_MADE", {})
    for name, value in names.items():
        assert hasattr(program, name), f"{name} is not a per-program name"
        monkeypatch.setattr(program, name, value)
        for module in MODULES:
            if name in vars(module):
                monkeypatch.setattr(module, name, value)
