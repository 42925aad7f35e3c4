"""Problems found in a handlers file, collected as values and printed together.

`SourceSpan`, `Diagnostic` (`path:line:col: error: …`), `GenerationError` (every problem, raised
together); burgee's exit codes are its commands' (`commands.py`).
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict

#: What `str.splitlines` breaks a line at, with the blanks around it.
_LINE_BREAK = re.compile(r"[ \t]*[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]+[ \t]*")


class SourceSpan(BaseModel):
    """A place in the handlers file: 1-based line and column."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    path: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


class Diagnostic(BaseModel):
    """One problem, tied to the place in the source that caused it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    span: SourceSpan
    message: str
    #: A note says what the tool will cost or do, and is never made an error (`--strict`).
    level: Literal["error", "warning", "note"] = "error"

    def __str__(self) -> str:
        # NOTE: one diagnostic, one line: a message that quotes code written over several
        # lines shows it on one.
        message = _LINE_BREAK.sub(" ", self.message)
        return f"{self.span}: {self.level}: {message}"


class GenerationError(Exception):
    """Raised with every diagnostic once reading is over, so the CLI can print them all."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__("\n".join(map(str, diagnostics)))
        self.diagnostics = diagnostics
