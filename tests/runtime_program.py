"""Programs for in-process unit tests of the runtime modules.

A generated file builds its one `PROGRAM` (`burgee.runtime.program.Program`) from its tables;
the runtime modules import the stand-in, so a test builds a program (`program()`: the
stand-in's facts, with those it gives) and `install()`s it in every module that reads it.
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from burgee.render.embedded import pack, unpack
from burgee.runtime import catalog
from burgee.runtime.agents import embedded
from burgee.runtime.execution import table
from burgee.runtime.program import Program, replaced

#: Where the program installed now is (`program.PROGRAM`, which `install` sets too).
STAND_IN = importlib.import_module("burgee.runtime.program")
MODULES = [importlib.import_module(catalog.dotted(name)) for name in (*catalog.HEAD, *catalog.TAIL)]


def program(documents: dict[str, str] | None = None, **facts: Any) -> Program:
    """The program installed now (at first the stand-in: no commands, empty documents) with
    the facts given (by `Program`'s names: `name=`, `commands=`, ...); `documents`
    (`{"schema": ..., "skill": ...}`) go into `data`, over its own, encoded as `burgee gen`
    encodes them."""
    base = STAND_IN.PROGRAM
    if documents:
        facts["data"] = pack({**unpack(base.data), **documents})
    return replaced(base, **facts)


def install(monkeypatch: pytest.MonkeyPatch, made: Program) -> None:
    """Make `made` the program every runtime module reads, for this test."""
    # NOTE: what the modules made from another test's program: its `_Command`s and documents.
    monkeypatch.setattr(table, "_MADE", {})
    monkeypatch.setattr(embedded, "_DOCUMENTS", {})
    monkeypatch.setattr(embedded, "_PACKED", [])
    for module in MODULES:
        if "PROGRAM" in vars(module):
            monkeypatch.setattr(module, "PROGRAM", made)
