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


#: The runtime's folders, bottom first: each imports only folders before it (issue 46, item 3;
#: docs/architecture.md draws them). `program.py`, beside them, any folder may import.
LAYERS = ("start", "core", "answers", "execution", "mcpserver", "commandline", "agents")


def _folder_imports() -> dict[tuple[str, str], list[str]]:
    """Each (folder, folder it imports) -> the imports, as `module -> module`: every import of
    a runtime module, at module level, inside a function or under `TYPE_CHECKING`."""
    found: dict[tuple[str, str], list[str]] = {}
    folders = catalog._folders()
    for module, folder in folders.items():
        if not folder:
            continue
        for node in ast.walk(ast.parse(catalog.source(module))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "burgee.runtime."
            ):
                target = node.module.rsplit(".", 1)[-1] if node.module else ""
                other = folders.get(target, "")
                if other and other != folder:
                    pair = (folder.rstrip("."), other.rstrip("."))
                    found.setdefault(pair, []).append(f"{module} -> {target}")
    return found


def test_no_two_runtime_folders_import_each_other() -> None:
    imports = _folder_imports()
    both = sorted((a, b) for a, b in imports if (b, a) in imports and a < b)
    assert both == [], {pair: imports[pair] + imports[pair[::-1]] for pair in both}


def test_each_runtime_folder_imports_only_the_layers_below_it() -> None:
    assert sorted(LAYERS) == sorted(
        {folder.rstrip(".") for folder in catalog._folders().values() if folder}
    )
    upward = {
        pair: modules
        for pair, modules in _folder_imports().items()
        if LAYERS.index(pair[1]) > LAYERS.index(pair[0])
    }
    assert upward == {}
