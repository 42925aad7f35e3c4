"""The generator's view of the runtime: each module as chunks of code and the names they bind.

Never joined into a tool (like `program`): `burgee gen` reads it to choose what a program
needs (`burgee.render.join`) and which names a handlers file may not redefine.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

#: Modules joined before the handlers' code, in this order.
HEAD = ("errors", "context")
#: Modules joined after the per-program tables, in this order.
TAIL = (
    "flags",
    "kinds",
    "values",
    "output",
    "truncate",
    "sanitize",
    "deliver",
    "sources",
    "inputs",
    "execute",
    "batch",
    "argv",
    "describe",
    "complete",
    "mcp_io",
    "mcp_http",
    "mcp",
    "surfaces",
    "cli",
)
_RUNTIME = "burgee.runtime"


def source(module: str) -> str:
    """The source text of one runtime module (`"values"`), as installed."""
    return (files(_RUNTIME) / f"{module}.py").read_text("utf-8")


@dataclass(frozen=True)
class Chunk:
    """One top-level statement of a runtime module."""

    module: str
    binds: frozenset[str]
    uses: frozenset[str]
    text: str


@dataclass(frozen=True)
class Import:
    """One standard-library import a runtime module makes: the name it binds, its source."""

    binds: str
    text: str
    checking: bool


@dataclass(frozen=True)
class Joined:
    """The runtime a program needs: code before and after its own, and the imports."""

    head: str
    tail: str
    imports: tuple[str, ...]
    checking: tuple[str, ...]


def names_used(tree: ast.AST) -> frozenset[str]:
    """Every name an AST loads or stores (annotations included: type checkers read them)."""
    return frozenset(node.id for node in ast.walk(tree) if isinstance(node, ast.Name))


def _binds(node: ast.stmt) -> frozenset[str]:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return frozenset({node.name})
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = list(node.targets)
    elif isinstance(node, ast.AnnAssign):
        targets = [node.target]
    return frozenset(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))


def _import_texts(node: ast.Import | ast.ImportFrom, checking: bool) -> Iterable[Import]:
    if isinstance(node, ast.ImportFrom):
        module = node.module or ""
        if module.startswith(_RUNTIME) or module == "__future__":
            return
        for alias in node.names:
            if module == "typing" and alias.name == "TYPE_CHECKING":
                # NOTE: the generated module defines it itself, without importing typing.
                continue
            shown = f"{alias.name} as {alias.asname}" if alias.asname else alias.name
            # NOTE: `typing` costs milliseconds of start-up; only type checkers import it.
            text = f"from {module} import {shown}"
            yield Import(alias.asname or alias.name, text, checking or module == "typing")
        return
    for alias in node.names:
        shown = f"{alias.name} as {alias.asname}" if alias.asname else alias.name
        yield Import(alias.asname or alias.name.split(".")[0], f"import {shown}", checking)


def _is_type_checking(node: ast.stmt) -> bool:
    return (
        isinstance(node, ast.If)
        and isinstance(node.test, ast.Name)
        and (node.test.id == "TYPE_CHECKING")
    )


@cache
def parse(module: str) -> tuple[tuple[Chunk, ...], tuple[Import, ...]]:
    """The chunks and the imports of one runtime module."""
    text = source(module)
    lines = text.splitlines()
    tree = ast.parse(text)
    chunks: list[Chunk] = []
    imports: list[Import] = []
    end = 0
    for index, node in enumerate(tree.body):
        start, end = end, node.end_lineno or node.lineno
        if index == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # the module docstring
        if isinstance(node, ast.Import | ast.ImportFrom):
            imports.extend(_import_texts(node, checking=False))
            continue
        if _is_type_checking(node):
            assert isinstance(node, ast.If)
            for inner in node.body:
                if isinstance(inner, ast.Import | ast.ImportFrom):
                    imports.extend(_import_texts(inner, checking=True))
                else:
                    # NOTE: TypeVars and the like: kept in the TYPE_CHECKING block.
                    segment = ast.get_source_segment(text, inner) or ""
                    chunks.append(Chunk(module, _binds(inner), names_used(inner), "\t" + segment))
            continue
        # NOTE: from the end of the previous statement, so the comments above come along.
        body = "\n".join(lines[start:end]).strip("\n")
        chunks.append(Chunk(module, _binds(node), names_used(node), body))
    return tuple(chunks), tuple(imports)


def runtime_names() -> frozenset[str]:
    """Every top-level name the runtime binds, in any module: a handler may not reuse one."""
    found: set[str] = set()
    for module in (*HEAD, *TAIL, "program"):
        chunks, _ = parse(module)
        for chunk in chunks:
            found |= chunk.binds
    return frozenset(found)
