"""The oldest Python that can run a handlers file's syntax (generated tools promise 3.9)."""

from __future__ import annotations

import ast
import sys
import warnings

from burgee.model.diagnostics import Diagnostic, SourceSpan
from burgee.read.source import OLDEST, parses_on_oldest


def needed_minor(source: str, path: str) -> tuple[int, Diagnostic | None]:
    """The minor version of Python 3 the syntax needs, and, when that is newer than 3.9, a
    warning at the first place that needs it (`ast.parse(feature_version=...)` tells)."""
    place: Diagnostic | None = None
    if parses_on_oldest(source):
        return OLDEST, None
    for minor in range(OLDEST, sys.version_info.minor + 1):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ast.parse(source, path, feature_version=(3, minor))
        except SyntaxError as error:
            if place is None:
                span = SourceSpan(path=path, line=error.lineno or 1, column=error.offset or 1)
                place = Diagnostic(span=span, message="", level="warning")
            continue
        if place is None:
            return minor, None
        first = _first_newer(source)
        if first is not None:
            span = SourceSpan(path=path, line=first[0], column=first[1])
            place = place.model_copy(update={"span": span})
        message = (
            f"this syntax needs Python 3.{minor} or later, so the generated tool does too "
            f"(it declares so in --version, schema and its skill); write it the 3.{OLDEST} "
            "way to keep the tool running everywhere"
        )
        return minor, place.model_copy(update={"message": message})
    return sys.version_info.minor, place


#: Statements newer than 3.9, by the AST class that holds them (present on this Python only).
_NEWER = ("Match", "TryStar", "TypeAlias")


def _first_newer(source: str) -> tuple[int, int] | None:
    """Where the first statement newer than 3.9 starts (a SyntaxError under an older grammar
    points at where parsing gave up, which can be lines later)."""
    kinds = tuple(getattr(ast, name) for name in _NEWER if hasattr(ast, name))
    found: list[tuple[int, int]] = []
    for node in ast.walk(ast.parse(source)):
        newer = isinstance(node, kinds) or bool(getattr(node, "type_params", None))
        if newer and isinstance(node, ast.stmt):
            found.append((node.lineno, node.col_offset + 1))
    return min(found, default=None)
