"""Google-style docstrings: a summary, a description, and per-parameter help (Click's `\b` and
`\f` markers read as Click reads them)."""

from __future__ import annotations

import re

_SECTION = re.compile(
    r"^(Args|Arguments|Parameters|Params|Returns|Return|Yields|Raises|Examples|Example|"
    r"Notes|Note|Attributes|See Also|Warnings|Warning|Todo):\s*$"
)
_ARG_LINE = re.compile(r"^(\*{0,2}\w+)\s*(\([^)]*\))?\s*:\s*(.*)$")
_ARG_SECTIONS = {"Args", "Arguments", "Parameters", "Params", "Attributes"}


class Docstring:
    """The parts of a docstring that burgee uses."""

    def __init__(self, summary: str, description: str, params: dict[str, str]) -> None:
        self.summary = summary
        self.description = description
        self.params = params


def parse(doc: str | None) -> Docstring:
    """Split a cleaned docstring into summary, description and `Args:` entries."""
    if not doc:
        return Docstring("", "", {})
    # NOTE: Click's markers: help ends at a `\f` line, and a `\b` line (keep the next
    # paragraph's lines as written) is no text; a docstring written for Click reads as its help.
    doc = doc.partition("\f")[0]
    lines = [line for line in doc.strip("\n").splitlines() if line.strip() != "\b"]
    body: list[str] = []
    params: dict[str, str] = {}
    section: str | None = None
    current: str | None = None
    for line in lines:
        header = _SECTION.match(line.strip()) if not line.startswith((" ", "\t")) else None
        if header:
            section, current = header.group(1), None
            continue
        if section is None:
            body.append(line)
        elif section in _ARG_SECTIONS and line.strip():
            indent = len(line) - len(line.lstrip())
            match = _ARG_LINE.match(line.strip())
            if match and (current is None or indent <= _arg_indent(lines, section)):
                current = match.group(1).lstrip("*")
                params[current] = match.group(3).strip()
            elif current is not None:
                params[current] = (params[current] + " " + line.strip()).strip()
    description = "\n".join(body).strip()
    summary = " ".join(description.split("\n\n", 1)[0].split()) if description else ""
    return Docstring(summary, description, params)


def _arg_indent(lines: list[str], section: str) -> int:
    """The indentation of the first entry in a section, so continuation lines can be told apart."""
    seen = False
    for line in lines:
        if line.strip() == f"{section}:":
            seen = True
        elif seen and line.strip():
            return len(line) - len(line.lstrip())
    return 0
