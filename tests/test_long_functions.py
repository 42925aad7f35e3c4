"""Functions a person can hold (issue 46 item 5): in the generator and its runtime (every module
under generator/), no function is over `LIMIT` lines and at most `MOST_LONG` are over `LONG`.

A function's lines run from its `def` to its last line (decorators left out); a function or
class nested in a function counts inside its parent as written, not again on its own; a method
of a class at module level is a function of its own."""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 150
LONG = 80
MOST_LONG = 5


def _lengths(tree: ast.AST, where: str) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            found.append((lines, f"{where}:{node.lineno} {node.name}"))
            continue  # NOTE: what it holds counts inside it
        if not isinstance(node, ast.expr):  # NOTE: no expression holds a `def`
            found += _lengths(node, where)
    return found


@lru_cache(maxsize=1)
def _all_lengths() -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for path in sorted((ROOT / "generator").rglob("*.py")):
        where = str(path.relative_to(ROOT))
        found += _lengths(ast.parse(path.read_text(encoding="utf-8")), where)
    return sorted(found, reverse=True)


def test_the_measure_counts_nested_code_inside_its_parent() -> None:
    source = "def outer():\n  class Inner:\n    def method(self):\n      pass\n  return 1"
    assert _lengths(ast.parse(source), "m.py") == [(5, "m.py:1 outer")]


def test_no_function_is_over_the_limit() -> None:
    assert [(n, name) for n, name in _all_lengths() if n > LIMIT] == []


def test_few_functions_are_long() -> None:
    long = [(n, name) for n, name in _all_lengths() if n > LONG]
    assert len(long) <= MOST_LONG, long
