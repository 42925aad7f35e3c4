"""Where nodes of the handlers file start, as 1-based lines and columns.

libcst's PositionProvider renders the whole module to compute positions, which costs seconds
for a file with a thousand commands. The nodes the IR records (commands, parameters, classes,
group calls) are found instead through the standard library's `ast` parser, which is written
in C; any other node, which only an error report asks for, falls back to libcst's exact pass.
"""

from __future__ import annotations

import ast

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider

from burgee.read.source import tree as parsed


class Positions:
    """The start of any node of one parsed module."""

    def __init__(self, module: cst.Module, source: str) -> None:
        self.module = module
        self.lines = source.splitlines()
        self.known: dict[cst.CSTNode, tuple[int, int]] = {}
        self.exact: dict[cst.CSTNode, CodeRange] | None = None
        try:
            tree = parsed(source)
        except SyntaxError:
            return
        self._index_module(tree)

    def start(self, node: cst.CSTNode) -> tuple[int, int]:
        """The 1-based line and column where `node` starts."""
        found = self.known.get(node)
        if found is not None:
            return found
        if self.exact is None:
            wrapper = MetadataWrapper(self.module, unsafe_skip_copy=True)
            self.exact = dict(wrapper.resolve(PositionProvider))
        position = self.exact[node].start
        return position.line, position.column + 1

    def _at(self, node: cst.CSTNode, tree: ast.AST, shift: int = 0) -> None:
        line, offset = tree.lineno, tree.col_offset  # type: ignore[attr-defined]
        # NOTE: ast counts columns in UTF-8 bytes, libcst in characters.
        text = self.lines[line - 1].encode("utf-8")[:offset].decode("utf-8", errors="replace")
        self.known[node] = (line, len(text) + 1 + shift)

    def _index_module(self, tree: ast.Module) -> None:
        statements = iter(tree.body)
        for node in self.module.body:
            if isinstance(node, cst.SimpleStatementLine):
                for small in node.body:
                    self._index_small(small, next(statements))
            else:
                self._index_compound(node, next(statements))

    def _index_small(self, node: cst.BaseSmallStatement, tree: ast.stmt) -> None:
        self._at(node, tree)
        value = getattr(node, "value", None)
        tree_value = getattr(tree, "value", None)
        if isinstance(value, cst.Call) and isinstance(tree_value, ast.Call):
            self._at(value, tree_value)

    def _index_compound(self, node: cst.BaseCompoundStatement, tree: ast.stmt) -> None:
        if isinstance(node, cst.ClassDef) and isinstance(tree, ast.ClassDef):
            self._at(node, tree)
        elif isinstance(node, cst.FunctionDef) and isinstance(
            tree, ast.FunctionDef | ast.AsyncFunctionDef
        ):
            self._at(node, tree)
            for decorator, tree_decorator in zip(node.decorators, tree.decorator_list, strict=True):
                # NOTE: ast places a decorator at its expression; libcst at the `@` before it.
                self._at(decorator, tree_decorator, shift=-1)
            params = (*node.params.posonly_params, *node.params.params, *node.params.kwonly_params)
            args = (*tree.args.posonlyargs, *tree.args.args, *tree.args.kwonlyargs)
            for param, arg in zip(params, args, strict=True):
                self._at(param, arg)
