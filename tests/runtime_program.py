"""Programs for in-process unit tests of the runtime modules.

A generated file builds its one `PROGRAM` (`burgee.runtime.program.Program`) from its tables
and gives it to the runtime where a run starts (`main`, `asgi`); the runtime's functions take
it as a parameter. So a test builds a program (`program()`: the stand-in's facts, with those
it gives) and passes it, as a run does: no module is patched.
"""

from __future__ import annotations

from typing import Any

from burgee.render.embedded import pack, unpack
from burgee.runtime.program import PROGRAM, Program, replaced


def program(documents: dict[str, str | list[str]] | None = None, **facts: Any) -> Program:
    """The stand-in program (no commands, empty documents) with the facts given (by
    `Program`'s names: `name=`, `commands=`, ...); `documents` (`{"schema": ..., "skill":
    ...}`) go into `data`, over its own, encoded as `burgee gen` encodes them."""
    if documents:
        facts["data"] = pack({**unpack(PROGRAM.data), **documents})
    return replaced(PROGRAM, **facts)
