"""The state shared by every part of the reader, and its helpers (spans, errors, literals).

`Reader`, the state of one read (what names refer to, what was found so far, every problem) and
its helpers (spans from ast places, errors, literals, call arguments; `Decorator`, placed at its
`@`; `Parameter`, an `ast.arg` with its default and kind).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from burgee.model.diagnostics import Diagnostic, SourceSpan
from burgee.model.ir import (
    Command,
    EnumDecl,
    ErrorDecl,
    Group,
    Prompt,
    Question,
    Record,
    Resource,
    TypeRef,
)
from burgee.read.annotations import Names, NotLiteral, literal_value
from burgee.read.source import text, tree
from burgee.read.strip import Removals


def is_none(node: ast.AST) -> bool:
    """`None` written out: for an argument whose default is None, the same as leaving it out."""
    return isinstance(node, ast.Constant) and node.value is None


@dataclass
class Decorator:
    """A decorator: its expression, placed at its `@` (ast places it at the expression)."""

    decorator: ast.expr
    lineno: int
    col_offset: int


@dataclass
class Parameter:
    """One parameter of a function: its `ast.arg`, its default, and how it is passed."""

    arg: ast.arg
    default: ast.expr | None
    #: "positional_only", "normal", "keyword_only", or the star of `*args` / `**kwargs`.
    kind: str
    lineno: int
    col_offset: int

    @property
    def name(self) -> str:
        return self.arg.arg

    @property
    def annotation(self) -> ast.expr | None:
        return self.arg.annotation


class Reader:
    """What is known so far about one handlers file, its problems, and the helpers to read it."""

    def __init__(self, source: str, path: str) -> None:
        self.path = path
        #: The file as read (sibling modules bundled in).
        self.original = source
        self.text = text(source)
        self.tree = tree(source)
        self.diagnostics: list[Diagnostic] = []
        self.removals = Removals()
        self.names = Names()
        #: Local names bound to burgee's API: local name -> API name.
        self.api: dict[str, str] = {}
        #: burgee's runtime classes the file names as attributes (`burgee.Image`).
        self.kept_attributes: set[str] = set()
        self.api_modules: set[str] = set()
        self.groups: dict[str, Group] = {}
        self.group_nodes: list[Group] = []
        #: `@X.command`/`X.group(...)` whose X is no group read so far: (X, the node), checked
        #: once the whole file is read (`check_group_variables`).
        self.not_groups: list[tuple[str, ast.AST]] = []
        self.commands: list[Command] = []
        self.prompts: list[Prompt] = []
        self.resources: list[Resource] = []
        self.errors: list[ErrorDecl] = []
        self.program_args: dict[str, object] = {}
        #: `program(...)` was called (its arguments may all be left out).
        self.program_seen = False
        #: The same arguments' nodes, where a problem with one is placed.
        self.program_nodes: dict[str, ast.expr] = {}
        self.classes: dict[str, ast.ClassDef] = {}
        self.records: dict[str, Record] = {}
        self.enums: dict[str, EnumDecl] = {}
        #: The records a handler asks for with `ctx.form` (`read/forms.py`).
        self.forms: dict[str, Record] = {}
        #: The questions each handler asks, by function name (`checks.check_context_uses`).
        self.questions: dict[str, tuple[Question, ...]] = {}
        #: `Name = Annotated[T, Option(...)]` at the top level: name -> its `Annotated[...]`
        #: (`read/shared.py`); those whose marker is an `Argument`.
        self.aliases: dict[str, ast.Subscript] = {}
        self.arguments: set[str] = set()
        #: Warnings found while reading (errors are `diagnostics`).
        self.warnings: list[Diagnostic] = []
        #: Any other `Name = <a type>` at the top level (`Stage = Literal["a", "b"]`, `Names =
        #: list[str]`): name -> the type, read where an annotation names it (`expand`).
        self.type_aliases: dict[str, ast.expr] = {}
        #: (function, parameter) -> the alias its annotation names.
        self.alias_uses: dict[tuple[str, str], str] = {}
        #: `options=[...]` of the program or a group: (its path, the alias, where it is listed).
        self.shared: list[tuple[tuple[str, ...], str, ast.expr]] = []
        #: Each line's origin (path, line) when sibling modules were bundled in (`read.imports`).
        self.origins: list[tuple[str, int]] | None = None
        #: (use, annotation as written) -> its type, for the types that name none of the
        #: file's classes (`classes.read_type`: the same few annotations, on every command).
        self.resolved: dict[tuple[str, str], TypeRef] = {}

    # -- helpers ---------------------------------------------------------------------------

    def span(self, node: ast.AST | Decorator | Parameter, shift: int = 0) -> SourceSpan:
        """Where a node starts, as a 1-based line and column (ast counts columns in bytes)."""
        line: int = node.lineno  # type: ignore[union-attr]
        column: int = node.col_offset  # type: ignore[union-attr]
        return self.placed(line, self.text.column(line, column) + shift)

    def placed(self, line: int, column: int) -> SourceSpan:
        """A line and column of the source read, in the file it came from."""
        if self.origins is not None and 1 <= line <= len(self.origins):
            path, line = self.origins[line - 1]
            return SourceSpan(path=path, line=line, column=column)
        return SourceSpan(path=self.path, line=line, column=column)

    def error(self, node: ast.AST | Decorator | Parameter, message: str) -> None:
        """Record a problem at a node."""
        self.diagnostics.append(Diagnostic(span=self.span(node), message=message))

    def code(self, node: ast.AST) -> str:
        """The source text of a node, as written."""
        return self.text.code(node)

    def decorators(
        self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
    ) -> list[Decorator]:
        """A definition's decorators, each placed at its `@`."""
        found = []
        for expr in node.decorator_list:
            line = self.text.lines[expr.lineno - 1].encode("utf-8")[: expr.col_offset]
            before = line.rstrip(b" \t\\\f")
            column = len(before) - 1 if before.endswith(b"@") else max(expr.col_offset - 1, 0)
            found.append(Decorator(expr, expr.lineno, column))
        return found

    def parameters(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[Parameter]:
        """A function's parameters in order, `*args` and `**kwargs` included."""
        args = node.args
        positional = [*args.posonlyargs, *args.args]
        defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults))
        defaults += args.defaults
        found = []
        for index, (arg, default) in enumerate(zip(positional, defaults, strict=True)):
            kind = "positional_only" if index < len(args.posonlyargs) else "normal"
            found.append(Parameter(arg, default, kind, arg.lineno, arg.col_offset))
        if args.vararg is not None:
            found.append(self._starred(args.vararg, "*"))
        for arg, default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
            found.append(Parameter(arg, default, "keyword_only", arg.lineno, arg.col_offset))
        if args.kwarg is not None:
            found.append(self._starred(args.kwarg, "**"))
        return found

    def _starred(self, arg: ast.arg, star: str) -> Parameter:
        line = self.text.lines[arg.lineno - 1].encode("utf-8")[: arg.col_offset]
        before = line.rstrip(b" \t")
        column = len(before) - len(star) if before.endswith(star.encode()) else arg.col_offset
        return Parameter(arg, None, star, arg.lineno, column)

    def api_name(self, node: ast.expr) -> str | None:
        """Which burgee API name an expression refers to (`command`, `Option`, ...)."""
        if isinstance(node, ast.Name):
            return self.api.get(node.id)
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in self.api_modules
        ):
            return node.attr
        return None

    def literal(self, node: ast.expr, what: str) -> object:
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
        self, call: ast.Call, positional: tuple[str, ...], allowed: set[str], what: str
    ) -> dict[str, ast.expr]:
        """Map a call's arguments to names, reporting unknown or misplaced ones."""
        result: dict[str, ast.expr] = {}
        given: list[ast.expr | ast.keyword] = [*call.args, *call.keywords]
        if call.keywords and call.args:
            given.sort(key=lambda arg: (arg.lineno, arg.col_offset))
        for index, arg in enumerate(given):
            if isinstance(arg, ast.Starred) or (isinstance(arg, ast.keyword) and arg.arg is None):
                self.error(arg, f"{what}: *args and **kwargs are not supported here")
            elif not isinstance(arg, ast.keyword):
                if index < len(positional):
                    result[positional[index]] = arg
                else:
                    self.error(arg, f"{what}: too many positional arguments")
            elif arg.arg not in allowed:
                known = ", ".join(sorted(allowed))
                self.error(arg, f"{what}: unknown argument {arg.arg!r} (known: {known})")
            else:
                assert arg.arg is not None
                result[arg.arg] = arg.value
        return result

    def attr_span_node(self, node: ast.Attribute) -> ast.AST:
        """A stand-in node placed at an attribute's name (`burgee.X`: at `X`)."""
        place = ast.Name(id=node.attr)
        place.lineno = node.end_lineno or node.lineno
        place.col_offset = (node.end_col_offset or 0) - len(node.attr.encode("utf-8"))
        return place
