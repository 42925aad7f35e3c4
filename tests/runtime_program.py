"""Fill in the per-program names of the runtime modules, for in-process unit tests.

A generated file defines `PROGRAM`, `COMMANDS`, `RECORDS`, ... once for everything; the
runtime modules import stand-ins from `burgee.runtime.program`, so a test sets the value in
every module that imported it.
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from burgee.runtime import catalog

MODULES = [
    importlib.import_module(f"burgee.runtime.{name}") for name in (*catalog.HEAD, *catalog.TAIL)
]


def install(monkeypatch: pytest.MonkeyPatch, **names: Any) -> None:
    """Give every runtime module that uses one of `names` the value given here."""
    program = importlib.import_module("burgee.runtime.program")
    for name, value in names.items():
        assert hasattr(program, name), f"{name} is not a per-program name"
        monkeypatch.setattr(program, name, value)
        for module in MODULES:
            if name in vars(module):
                monkeypatch.setattr(module, name, value)
