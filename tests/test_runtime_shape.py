"""The runtime's shape, read from its source with `ast`: the program is passed, not read from
the module-level `PROGRAM`, except where a run starts (issue 46, item 1)."""

from __future__ import annotations

import ast

from burgee.runtime import catalog

#: Where a run starts: the only functions that read the module-level `PROGRAM` (a generated
#: file's own), and give it to the rest as a parameter. `main` (the command line, and through
#: it `invoke`) and `asgi` (an ASGI server calls it; it makes the endpoint's servers).
ENTRY_POINTS = frozenset({("cli", "main"), ("mcp_asgi", "asgi")})

#: The modules that still read it: each step of the change takes some out (it only shrinks).
NOT_YET = frozenset(
    (
        "argv argv_parser batch cli cli_help complete describe embedded execute mcp mcp_asgi"
        " mcp_ask mcp_call mcp_http mcp_io mcp_loop mcp_methods mcp_wire sources surfaces"
        " table"
    ).split()
)


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
    assert [
        read for module, found in reads.items() if module not in NOT_YET for read in found
    ] == []
    assert sorted(module for module in NOT_YET if not reads[module]) == [], "done: not NOT_YET"


def test_a_read_added_anywhere_else_is_found() -> None:
    text = "def main():\n    return PROGRAM\n\ndef _helper(program=None):\n"
    text += "    p = program or PROGRAM\n"
    assert _reads("cli", text) == ["cli._helper:5"]
    assert _reads("argv", "X = PROGRAM.name\n") == ["argv.:1"]
    assert _reads("argv", "from burgee.runtime.program import PROGRAM\n") == []
