"""The state shared by every part of the reader, and its helpers (spans, errors, literals)."""

from __future__ import annotations

import ast

import libcst as cst

from burgee.model.diagnostics import Diagnostic, SourceSpan
from burgee.model.ir import Command, EnumDecl, ErrorDecl, Group, Prompt, Record, Resource
from burgee.read.annotations import Names, NotLiteral, literal_value
from burgee.read.positions import Positions
from burgee.read.strip import Removals


class Reader:
    """What is known so far about one handlers file, its problems, and the helpers to read it."""

    def __init__(self, source: str, path: str, original: str | None = None) -> None:
        self.path = path
        #: The file as written (`source` may hold placeholders for plain helper code).
        self.original = source if original is None else original
        self.original_lines = self.original.splitlines()
        self.diagnostics: list[Diagnostic] = []
        self.removals = Removals()
        self.names = Names()
        #: Local names bound to burgee's API: local name -> API name.
        self.api: dict[str, str] = {}
        self.api_modules: set[str] = set()
        self.groups: dict[str, Group] = {}
        self.group_nodes: list[Group] = []
        self.commands: list[Command] = []
        self.prompts: list[Prompt] = []
        self.resources: list[Resource] = []
        self.errors: list[ErrorDecl] = []
        self.program_args: dict[str, object] = {}
        self.classes: dict[str, cst.ClassDef] = {}
        self.records: dict[str, Record] = {}
        self.enums: dict[str, EnumDecl] = {}
        #: Each line's origin (path, line) when sibling modules were bundled in (`read.imports`).
        self.origins: list[tuple[str, int]] | None = None
        self.module = cst.parse_module(source)
        # NOTE: function bodies masked for libcst keep every statement where it was, so the
        # file's own tree (already parsed) places them; masked plain statements do not.
        plain = "__burgee_plain__(" in source
        self.positions = Positions(self.module, source if plain else self.original)

    # -- helpers ---------------------------------------------------------------------------

    def span(self, node: cst.CSTNode) -> SourceSpan:
        """Where a node starts, as a 1-based line and column."""
        line, column = self.positions.start(node)
        return self.placed(line, column)

    def placed(self, line: int, column: int) -> SourceSpan:
        """A line and column of the source read, in the file it came from."""
        if self.origins is not None and 1 <= line <= len(self.origins):
            path, line = self.origins[line - 1]
            return SourceSpan(path=path, line=line, column=column)
        return SourceSpan(path=self.path, line=line, column=column)

    def ast_span(self, node: ast.AST, shift: int = 0) -> SourceSpan:
        """Where an `ast` node of the original file starts (ast counts columns in bytes)."""
        line, offset = node.lineno, node.col_offset  # type: ignore[attr-defined]
        text = self.original_lines[line - 1].encode("utf-8")[:offset]
        column = len(text.decode("utf-8", errors="replace")) + 1 + shift
        return self.placed(line, column)

    def error(self, node: cst.CSTNode, message: str) -> None:
        """Record a problem at a node."""
        self.diagnostics.append(Diagnostic(span=self.span(node), message=message))

    def code(self, node: cst.CSTNode) -> str:
        """The source text of a node."""
        return self.module.code_for_node(node)

    def api_name(self, node: cst.BaseExpression) -> str | None:
        """Which burgee API name an expression refers to (`command`, `Option`, ...)."""
        if isinstance(node, cst.Name):
            return self.api.get(node.value)
        if (
            isinstance(node, cst.Attribute)
            and isinstance(node.value, cst.Name)
            and node.value.value in self.api_modules
        ):
            return node.attr.value
        return None

    def literal(self, node: cst.BaseExpression, what: str) -> object:
        """A literal value, or a recorded error and `NotLiteral`."""
        try:
            return literal_value(node)
        except ValueError as error:
            reason = str(error)
            if reason == "not a literal":
                reason = f"must be a literal, not {self.code(node)}"
            self.error(node, f"{what} {reason}")
            raise NotLiteral from None

    def call_args(
        self, call: cst.Call, positional: tuple[str, ...], allowed: set[str], what: str
    ) -> dict[str, cst.BaseExpression]:
        """Map a call's arguments to names, reporting unknown or misplaced ones."""
        result: dict[str, cst.BaseExpression] = {}
        for index, arg in enumerate(call.args):
            if arg.star:
                self.error(arg, f"{what}: *args and **kwargs are not supported here")
            elif arg.keyword is None:
                if index < len(positional):
                    result[positional[index]] = arg.value
                else:
                    self.error(arg, f"{what}: too many positional arguments")
            elif arg.keyword.value not in allowed:
                known = ", ".join(sorted(allowed))
                self.error(arg, f"{what}: unknown argument {arg.keyword.value!r} (known: {known})")
            else:
                result[arg.keyword.value] = arg.value
        return result
