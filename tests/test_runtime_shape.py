"""The runtime's shape, read from its source with `ast`: the program is passed, not read from
the module-level `PROGRAM`, except where a run starts (issue 46, item 1)."""

from __future__ import annotations

import ast

from burgee.runtime import catalog

#: Where a run starts: the only functions that read the module-level `PROGRAM` (a generated
#: file's own), and give it to the rest as a parameter. `main` (the command line, and through
#: it `invoke`) and `asgi` (an ASGI server calls it; it makes the endpoint's servers).
ENTRY_POINTS = frozenset({("cli", "main"), ("mcp_asgi", "asgi")})


def _reads(module: str, text: str) -> list[str]:
    """Each read of the name `PROGRAM` in `text`, as `module.function:line` (`module:line` at
    module level), outside `ENTRY_POINTS`; an import of it is not a read."""
    found = []

    def visit(node: ast.AST, where: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            inside = where
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                inside = where or child.name
            if isinstance(child, ast.Name) and child.id == "PROGRAM":
                if (module, where) not in ENTRY_POINTS:
                    found.append(f"{module}.{where or ''}:{child.lineno}")
            visit(child, inside)

    visit(ast.parse(text), None)
    return found


def test_only_the_entry_points_read_the_module_level_program() -> None:
    reads = {
        module: _reads(module, catalog.source(module))
        for module in catalog._folders()
        if module not in ("catalog", "program")
    }
    assert [read for found in reads.values() for read in found] == []


def test_a_read_added_anywhere_else_is_found() -> None:
    text = "def main():\n    return PROGRAM\n\ndef _helper(program=None):\n"
    text += "    p = program or PROGRAM\n"
    assert _reads("cli", text) == ["cli._helper:5"]
    assert _reads("argv", "X = PROGRAM.name\n") == ["argv.:1"]
    assert _reads("argv", "from burgee.runtime.program import PROGRAM\n") == []


def test_no_test_patches_a_modules_program() -> None:
    """Tests build programs and pass them (`tests/runtime_program.py`); none sets a module's
    `PROGRAM`."""
    import re  # noqa: PLC0415
    from pathlib import Path  # noqa: PLC0415

    setting = re.compile(r"setattr\([^)]*[\"']PROGRAM[\"']")
    patched = [
        path.name
        for path in Path(__file__).parent.glob("*.py")
        if path.name != Path(__file__).name and setting.search(path.read_text(encoding="utf-8"))
    ]
    assert patched == []
    assert setting.search('monkeypatch.setattr(module, "PROGRAM", made)')
