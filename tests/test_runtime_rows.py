"""Named rows (issue 46 item 4): the rows of the generated file's tables are read by the
names of their fields (`runtime/rows.py`), never by position, and `burgee gen` writes each
row's values in the order its class declares."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from burgee.runtime.rows import _CommandRow, _row_fields, _row_of, _ToolRow

ROOT = Path(__file__).resolve().parent.parent
RUNTIME = ROOT / "generator" / "runtime"

#: What a table's rows are read from: a row, its inputs, its slots, the program's tables.
_TABLES = re.compile(
    r"\b(row|entry|slot|slots|inputs)\b|\.(commands|completion_slots|mcp_completions|media"
    r"|records|extra_commands|resources|mcp_names)\b"
)


def _unpacks_a_row(target: ast.expr, source: ast.expr) -> bool:
    """`target` takes a row apart by position: `name, flags, *_ = row`, also through
    `enumerate(...)`, `.items()`, `.values()` and `a if ... else b` (a call's result, or a
    tuple written out, is no row)."""
    if not isinstance(target, ast.Tuple):
        return False
    if isinstance(source, ast.IfExp):
        return _unpacks_a_row(target, source.body) or _unpacks_a_row(target, source.orelse)
    if isinstance(source, ast.Call):
        called = source.func
        if isinstance(called, ast.Name) and called.id == "enumerate" and len(target.elts) == 2:
            return _unpacks_a_row(target.elts[1], source.args[0])
        if isinstance(called, ast.Attribute) and called.attr == "items" and len(target.elts) == 2:
            return _unpacks_a_row(target.elts[1], called.value)
        if isinstance(called, ast.Attribute) and called.attr == "values":
            return _unpacks_a_row(target, called.value)
        return False
    return not isinstance(source, ast.Tuple) and bool(_TABLES.search(ast.unparse(source)))


def _positional_reads(tree: ast.AST) -> list[tuple[int, str]]:
    """Where a table's row is unpacked (`name, flags, *_ = ...`, `for a, b, c in ...`) or
    indexed by a number (`row[3]`)."""
    found = []
    for node in ast.walk(tree):
        targets: list[tuple[ast.expr, ast.expr]] = []
        if isinstance(node, ast.For | ast.comprehension):
            targets.append((node.target, node.iter))
        elif isinstance(node, ast.Assign):
            targets += [(target, node.value) for target in node.targets]
        for target, source in targets:
            if _unpacks_a_row(target, source):
                found.append((target.lineno, ast.unparse(target) + " <- " + ast.unparse(source)))
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.slice, ast.Constant)
            and type(node.slice.value) is int
            and not isinstance(node.value, ast.Call)
            and _TABLES.search(ast.unparse(node.value))
        ):
            found.append((node.lineno, ast.unparse(node)))
    return found


def test_the_check_finds_a_read_by_position() -> None:
    tree = ast.parse("for name, flags, *_ in row.inputs: pass\nx = PROGRAM.media[2]")
    assert [line for line, _ in _positional_reads(tree)] == [1, 2]


def test_no_row_is_read_by_position() -> None:
    found = {
        (path.name, text)
        for path in sorted(RUNTIME.rglob("*.py"))
        for _, text in _positional_reads(ast.parse(path.read_text(encoding="utf-8")))
    }
    assert found == set()


def test_gen_writes_each_row_in_its_declared_order() -> None:
    """A row made by field name holds its values in the order its class declares, and reads
    them back by name; a field left out (or one too many) is refused."""
    row = _row_of(_ToolRow, wrapped=True, command="vault peek")
    assert tuple(row) == ("vault peek", True)
    assert (row.command, row.wrapped) == ("vault peek", True)
    assert _row_fields(_CommandRow) == ("handler", "summary", "returns", "inputs", "details")
    inputs = _CommandRow((print, "s", None, (("n", ("--n",), "_Int", 1, ()),), ())).inputs
    assert [(each.name, each.flags, each.default) for each in inputs] == [("n", ("--n",), 1)]
    with pytest.raises(TypeError):
        _row_of(_ToolRow, command="x")
