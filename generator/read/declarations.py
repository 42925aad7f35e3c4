"""The classes a handlers file declares for burgee: `CommandError` subclasses (declared errors,
or a built-in kind raised by a handler) and `Outcome` subclasses (declared outcomes), and the
enums and records registered by name before any annotation is resolved."""

from __future__ import annotations

import ast
import re

from burgee.model.ir import ErrorDecl, OutcomeDecl, Scalar
from burgee.read import docstrings
from burgee.read.annotations import MODEL_BASES, NotLiteral, literal_value
from burgee.read.checks import Checks
from burgee.runtime.core.errors import BUILTIN_ERRORS

_KIND = re.compile(r"^[a-z][a-z0-9_]*$")


class Declarations(Checks):
    """Reads the error, outcome, enum and record classes of the file."""

    def register_class(self, node: ast.ClassDef) -> None:
        """Note enums and records by name before any annotation is resolved."""
        name = node.name
        self.classes[name] = node
        bases = [self.names.qualify(b) or "" for b in node.bases]
        if any(b.startswith("enum.") for b in bases):
            self.names.enums[name] = enum_values(node)
        elif any(b.endswith(".TypedDict") or b in MODEL_BASES for b in bases) or any(
            (self.names.qualify(decorator_target(d)) or "").endswith("dataclasses.dataclass")
            for d in node.decorator_list
        ):
            self.names.records.add(name)

    def read_error_class(self, node: ast.ClassDef) -> None:
        """Read a CommandError subclass as a declared error (an Outcome one as an outcome)."""
        if self.is_error_class(node, base="Outcome"):
            self.read_outcome_class(node)
            return
        if not self.is_error_class(node):
            return
        attrs = self.error_attributes(node)
        own = self.error_attributes(node, inherited=False)
        if "kind" not in own and "exit_code" not in own and self.is_error_class(node, local=True):
            # NOTE: a subclass that changes neither is the same error, declared once already.
            return
        description = docstrings.parse(ast.get_docstring(node)).description
        kind, exit_code = attrs.get("kind"), attrs.get("exit_code")
        retryable = attrs.get("retryable", False)
        if not isinstance(kind, str) or not _KIND.match(kind):
            self.error(node, f"error class {node.name} needs kind = 'snake_case_name'")
            return
        if not isinstance(exit_code, int) or isinstance(exit_code, bool):
            if kind in BUILTIN_ERRORS:
                self.error(node, f"error kind {kind!r} is built in; choose another kind")
            self.error(node, f"error class {node.name} needs exit_code = <integer>")
            return
        if kind in BUILTIN_ERRORS:
            # NOTE: the built-in error itself, raised by a handler, when its code is the same
            # (checked once program(exit_codes=...) is known); never a second declaration.
            self.builtin_raised.append((node, kind, exit_code))
            return
        decl = ErrorDecl(
            class_name=node.name,
            kind=kind,
            exit_code=exit_code,
            retryable=bool(retryable),
            description=description,
            span=self.span(node),
        )
        kinds, codes = self.kinds, self.codes
        if kind in kinds:
            self.error(
                node,
                f"error kind {kind!r} of {decl.class_name} is already declared by "
                f"{kinds[kind].class_name}; give each error its own kind",
            )
            return
        if exit_code in codes:
            other = codes[exit_code]
            self.error(
                node,
                f"exit_code {exit_code} of {decl.class_name} is already used by "
                f"{other.class_name} (kind {other.kind!r}); give each kind its own exit code",
            )
            return
        kinds[kind], codes[exit_code] = decl, decl
        self.errors.append(decl)

    def read_outcome_class(self, node: ast.ClassDef) -> None:
        """Read an Outcome subclass: a declared outcome (`name`, `exit_code`, the docstring)."""
        attrs = self.error_attributes(node)
        own = self.error_attributes(node, inherited=False)
        if (
            "name" not in own
            and "exit_code" not in own
            and self.is_error_class(node, local=True, base="Outcome")
        ):
            return  # NOTE: the same outcome, declared once already
        name, exit_code = attrs.get("name"), attrs.get("exit_code")
        class_name = node.name
        if not isinstance(name, str) or not _KIND.match(name):
            self.error(node, f"outcome class {class_name} needs name = 'snake_case_name'")
            return
        if not isinstance(exit_code, int) or isinstance(exit_code, bool):
            self.error(node, f"outcome class {class_name} needs exit_code = <integer>")
            return
        for other in self.outcomes:
            if name == other.name:
                self.error(
                    node,
                    f"outcome name {name!r} of {class_name} is already declared by "
                    f"{other.class_name}; give each outcome its own name",
                )
                return
        self.outcomes.append(
            OutcomeDecl(
                class_name=class_name,
                name=name,
                exit_code=exit_code,
                description=docstrings.parse(ast.get_docstring(node)).description,
                span=self.span(node),
            )
        )

    def is_error_class(
        self,
        node: ast.ClassDef,
        seen: frozenset[str] = frozenset(),
        *,
        local: bool = False,
        base: str = "CommandError",
    ) -> bool:
        """True for a class that derives from burgee's `base` (CommandError, or Outcome),
        directly or not (`local`: only through such a class of this file)."""
        for parent_node in node.bases:
            if self.api_name(parent_node) == base and not local:
                return True
            parent = parent_node.id if isinstance(parent_node, ast.Name) else None
            if parent in self.classes and parent not in seen:
                if self.is_error_class(self.classes[parent], seen | {node.name}, base=base):
                    return True
        return False

    def error_attributes(self, node: ast.ClassDef, *, inherited: bool = True) -> dict[str, object]:
        """`kind`, `exit_code`, `retryable` (and an outcome's `name`), inherited from local
        parent classes."""
        attrs: dict[str, object] = {}
        for base in node.bases if inherited else ():
            if isinstance(base, ast.Name) and base.id in self.classes:
                attrs.update(self.error_attributes(self.classes[base.id]))
        for small in node.body:
            target, value = assignment(small)
            if target in ("kind", "exit_code", "retryable", "name") and value is not None:
                try:
                    attrs[target] = self.literal(value, f"{node.name}.{target}")
                except NotLiteral:
                    pass
        return attrs


def enum_values(node: ast.ClassDef) -> tuple[Scalar, ...]:
    """The literal member values of an enum class; `read_enum` reports any that are not."""
    values: list[Scalar] = []
    for statement in node.body:
        target, value = assignment(statement)
        if target and not target.startswith("_") and value is not None:
            try:
                member = literal_value(value)
            except ValueError:
                continue
            if isinstance(member, str | int):
                values.append(member)
    return tuple(values)


def decorator_target(decorator: ast.expr) -> ast.expr:
    return decorator.func if isinstance(decorator, ast.Call) else decorator


def assignment(small: ast.stmt) -> tuple[str | None, ast.expr | None]:
    if isinstance(small, ast.Assign) and len(small.targets) == 1:
        target = small.targets[0]
        if isinstance(target, ast.Name):
            return target.id, small.value
    if isinstance(small, ast.AnnAssign) and isinstance(small.target, ast.Name):
        return small.target.id, small.value
    return None, None
