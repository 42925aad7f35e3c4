"""Functions a person can hold (issue 46 item 5): none over 150 lines in the modules split so
far (extend `SPLIT` as more are)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 150
SPLIT = ["generator/runtime/mcpserver/mcp_http.py"]


def _longest(source: str) -> list[tuple[str, int]]:
    return [
        (node.name, (node.end_lineno or node.lineno) - node.lineno + 1)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]


@pytest.mark.parametrize("path", SPLIT)
def test_no_function_is_over_the_limit(path: str) -> None:
    source = (ROOT / path).read_text(encoding="utf-8")
    assert [(name, n) for name, n in _longest(source) if n > LIMIT] == []
