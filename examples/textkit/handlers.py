"""Textkit: count, search and tidy text files (or standard input).

Each command reads the files it is given, or standard input when there are none.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Annotated

from burgee import Argument, CommandError, Option, command, group, program

program(name="textkit", version="0.3.0")


class Unreadable(CommandError):
    """A file could not be read (missing, a directory, or not text)."""

    kind = "io"
    exit_code = 3


class BadPattern(CommandError):
    """The search pattern is not a valid regular expression."""

    kind = "bad_pattern"
    exit_code = 5


class Case(Enum):
    """How to treat letter case."""

    KEEP = "keep"
    LOWER = "lower"
    UPPER = "upper"


@dataclass
class Counts:
    """Line, word and character counts of one input."""

    name: str
    lines: int
    words: int
    chars: int


@dataclass
class Match:
    """One matching line."""

    name: str
    line: int
    text: str


def _read(files: list[Path]) -> list[tuple[str, str]]:
    if not files:
        return [("-", sys.stdin.read())]
    texts = []
    for path in files:
        try:
            texts.append((str(path), path.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError) as error:
            raise Unreadable(f"cannot read {path}: {error}", hint="check the path") from None
    return texts


@command(
    effects="read_only",
    cardinality="bounded",
    examples=["textkit count notes.txt todo.md", "textkit count < notes.txt"],
)
def count(
    files: Annotated[list[Path], Argument(help="Files to count (default: standard input)")] = [],
    total: Annotated[bool, Option(help="Add a line with the totals")] = False,
) -> list[Counts]:
    """Count lines, words and characters, like wc."""
    rows = [
        Counts(name=name, lines=text.count("\n"), words=len(text.split()), chars=len(text))
        for name, text in _read(files)
    ]
    if total and len(rows) > 1:
        rows.append(
            Counts(
                name="total",
                lines=sum(r.lines for r in rows),
                words=sum(r.words for r in rows),
                chars=sum(r.chars for r in rows),
            )
        )
    return rows


@command(effects="read_only", cardinality="bounded", examples=["textkit search 'TODO|FIXME' src.py"])
def search(
    pattern: Annotated[str, Argument(help="A regular expression")],
    files: Annotated[list[Path], Argument(help="Files to search (default: standard input)")] = [],
    ignore_case: Annotated[bool, Option("-i", help="Match without regard to case")] = False,
    limit: Annotated[int | None, Option("-n", help="Stop after this many matches")] = None,
) -> list[Match]:
    """Print the lines that match a pattern, like grep -n."""
    try:
        regex = re.compile(pattern, re.IGNORECASE if ignore_case else 0)
    except re.error as error:
        raise BadPattern(f"bad pattern {pattern!r}: {error}") from None
    found: list[Match] = []
    for name, text in _read(files):
        for number, line in enumerate(text.splitlines(), start=1):
            if regex.search(line):
                found.append(Match(name=name, line=number, text=line))
                if limit is not None and len(found) >= limit:
                    return found
    return found


tidy = group("tidy", help="Rewrite text into a cleaner form.")


@tidy.command(effects="read_only", examples=["textkit tidy slug 'Héllo, Wörld!'"])
def slug(
    text: Annotated[str, Argument(help="The text to turn into a slug")],
    separator: str = "-",
    max_length: Annotated[int, Option("-m", help="Cut the slug to this many characters")] = 60,
) -> str:
    """Make a URL slug: ASCII letters and digits joined by a separator."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    words = re.findall(r"[a-z0-9]+", ascii_text.lower())
    return separator.join(words)[:max_length].strip(separator)


@tidy.command(
    effects="read_only",
    cardinality="unbounded",
    examples=["textkit tidy lines notes.txt --case lower --unique"],
)
def lines(
    files: Annotated[list[Path], Argument(help="Files to read (default: standard input)")] = [],
    case: Case = Case.KEEP,
    unique: Annotated[bool, Option("-u", help="Drop repeated lines, keeping the first")] = False,
    strip: Annotated[bool, Option(help="Strip blanks around each line")] = True,
) -> list[str]:
    """Normalize lines: strip, change case, drop blanks and (optionally) duplicates."""
    seen: set[str] = set()
    out: list[str] = []
    for _, text in _read(files):
        for line in text.splitlines():
            line = line.strip() if strip else line
            if case is Case.LOWER:
                line = line.lower()
            elif case is Case.UPPER:
                line = line.upper()
            if not line or (unique and line in seen):
                continue
            seen.add(line)
            out.append(line)
    return out
