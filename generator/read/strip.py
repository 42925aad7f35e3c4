"""Turn the handlers file into the user code carried into the generated module.

burgee's imports, decorators, `program(...)` and `group(...)` statements are removed,
`Annotated[T, Argument(...)]` becomes `T`, and an injected `ctx: Context = None`
gets a default that type-checks. Everything else is left exactly as written.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import libcst as cst

from burgee.read.source import BODY
from burgee.runtime.catalog import code_names


class Removals:
    """The nodes of the handlers file that belong to burgee, found while reading it."""

    def __init__(self) -> None:
        self.statements: set[cst.CSTNode] = set()
        self.decorators: set[cst.Decorator] = set()
        #: Annotation node -> the plain type node that replaces it.
        self.annotations: dict[cst.Annotation, cst.BaseExpression] = {}
        self.context_defaults: set[cst.Param] = set()
        #: `burgee.X` attribute nodes to replace by the bare runtime name X.
        self.attributes: set[cst.Attribute] = set()
        #: Top-level statements that contain any of the above.
        self.touched: set[cst.CSTNode] = set()
        #: Top-level statements that contain an attribute to replace.
        self.with_attributes: set[cst.CSTNode] = set()


class _Stripper(cst.CSTTransformer):
    def __init__(self, removals: Removals) -> None:
        self.removals = removals

    def on_leave(  # type: ignore[override]
        self, original_node: cst.CSTNode, updated_node: cst.CSTNode
    ) -> cst.CSTNode | cst.RemovalSentinel:
        if original_node in self.removals.statements:
            return cst.RemoveFromParent()
        return super().on_leave(original_node, updated_node)  # type: ignore[return-value]

    def leave_Decorator(
        self, original_node: cst.Decorator, updated_node: cst.Decorator
    ) -> cst.Decorator | cst.RemovalSentinel:
        if original_node in self.removals.decorators:
            return cst.RemoveFromParent()
        return updated_node

    def leave_Annotation(
        self, original_node: cst.Annotation, updated_node: cst.Annotation
    ) -> cst.Annotation:
        plain = self.removals.annotations.get(original_node)
        return updated_node.with_changes(annotation=plain) if plain is not None else updated_node

    def leave_Param(self, original_node: cst.Param, updated_node: cst.Param) -> cst.Param:
        if original_node in self.removals.context_defaults:
            return updated_node.with_changes(default=cst.Name("INJECTED"))
        return updated_node

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        if original_node in self.removals.attributes:
            return cst.Name(original_node.attr.value)
        return updated_node


def strip(
    module: cst.Module,
    removals: Removals,
    originals: dict[str, str] | None = None,
    bodies: Sequence[tuple[str, str]] = (),
) -> tuple[str, str]:
    """The user code without burgee's markers, as (import statements, everything else).

    `originals`: placeholder text → the original lines of plain helper code that libcst was
    not given (`read.source.mask`), and `bodies` the same for function bodies, by index;
    they are put back as written."""
    # NOTE: only the top-level statements that hold one of burgee's markers are transformed;
    # visiting the whole tree of a big handlers file is what made this step slow.
    body: Sequence[cst.BaseStatement] = [
        _strip_statement(statement, removals) if statement in removals.touched else statement
        for statement in module.body
        if statement not in removals.statements
    ]
    if body and _is_docstring(body[0]):
        body = body[1:]
    imports: list[cst.BaseStatement] = []
    rest: list[cst.BaseStatement] = []
    for statement in body:
        (imports if _is_import(statement) else rest).append(statement)
    render = cst.Module(body=[], default_newline=module.default_newline)
    rest_code = "".join(render.code_for_node(s) for s in rest)
    for placeholder, original in (originals or {}).items():
        rest_code = rest_code.replace(placeholder, original, 1)
    if bodies:

        def restore(found: re.Match[str]) -> str:
            placeholder, original = bodies[int(found.group(1))]
            return original if found.group(0) == placeholder else found.group(0)

        rest_code = BODY.sub(restore, rest_code)
    code = rest_code.strip("\n") + "\n" if rest_code.strip() else ""
    # NOTE: the names of the code as the IR keeps it: rendering asks about the same text.
    used = code_names(code)
    imports = [s for s in (_prune_import(s, used) for s in imports) if s is not None]
    import_code = "".join(render.code_for_node(s.with_changes(leading_lines=())) for s in imports)
    return import_code, code


def _strip_statement(statement: cst.BaseStatement, removals: Removals) -> cst.BaseStatement:
    if isinstance(statement, cst.FunctionDef) and statement not in removals.with_attributes:
        # NOTE: a command's markers sit in its decorators and parameters only, so those are
        # rewritten directly instead of visiting the whole function body.
        return _strip_function(statement, removals)
    stripped = statement.visit(_Stripper(removals))
    assert isinstance(stripped, cst.BaseStatement)
    return stripped


def _strip_function(node: cst.FunctionDef, removals: Removals) -> cst.FunctionDef:
    def param(p: cst.Param) -> cst.Param:
        if p.annotation is not None and p.annotation in removals.annotations:
            p = p.with_changes(
                annotation=p.annotation.with_changes(annotation=removals.annotations[p.annotation])
            )
        if p in removals.context_defaults:
            p = p.with_changes(default=cst.Name("INJECTED"))
        return p

    params = node.params
    return node.with_changes(
        decorators=[d for d in node.decorators if d not in removals.decorators],
        params=params.with_changes(
            posonly_params=[param(p) for p in params.posonly_params],
            params=[param(p) for p in params.params],
            kwonly_params=[param(p) for p in params.kwonly_params],
        ),
    )


def _is_docstring(statement: cst.BaseStatement) -> bool:
    return (
        isinstance(statement, cst.SimpleStatementLine)
        and len(statement.body) == 1
        and isinstance(statement.body[0], cst.Expr)
        and isinstance(statement.body[0].value, cst.SimpleString | cst.ConcatenatedString)
    )


def _is_import(statement: cst.BaseStatement) -> bool:
    return isinstance(statement, cst.SimpleStatementLine) and all(
        isinstance(small, cst.Import | cst.ImportFrom) for small in statement.body
    )


def _prune_import(statement: cst.BaseStatement, used: frozenset[str]) -> cst.BaseStatement | None:
    """Drop `__future__` imports, and typing names that only burgee's markers used."""
    # NOTE: the generated module starts with `from __future__ import annotations` itself,
    # and every other __future__ feature is mandatory on the Pythons it supports.
    assert isinstance(statement, cst.SimpleStatementLine)
    kept: list[cst.BaseSmallStatement] = []
    for small in statement.body:
        if isinstance(small, cst.ImportFrom) and isinstance(small.module, cst.Name):
            module = small.module.value
            if module == "__future__":
                continue
            if module in ("typing", "typing_extensions") and not isinstance(
                small.names, cst.ImportStar
            ):
                aliases = [a for a in small.names if _local_name(a) in used]
                if not aliases:
                    continue
                aliases[-1] = aliases[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
                kept.append(small.with_changes(names=aliases))
                continue
        kept.append(small)
    return statement.with_changes(body=kept) if kept else None


def _local_name(alias: cst.ImportAlias) -> str:
    if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
        return alias.asname.name.value
    name = alias.name
    return name.value if isinstance(name, cst.Name) else ""
