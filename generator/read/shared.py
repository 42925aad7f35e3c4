"""Options shared by many commands: a module-level alias of an option, and `options=` of
`program(...)`/`group(...)`, whose commands may then be given it before the command too.

`SharedOptions`, options many commands share: `Name = Annotated[T, Option(...)]` at the top
level, an alias a parameter's annotation may name (`verbose: Verbose = 0`; `read/params.py`
reads it as written there, the tool keeps `Name = T`), and `options=[...]` of
`program(...)`/`group(...)`, whose every command (its groups' too) must take each alias under
one name (`Param.shared`: the group's path, after whose name it may also be given).
"""

from __future__ import annotations

import ast

from burgee.model.diagnostics import Diagnostic, SourceSpan
from burgee.model.ir import Command
from burgee.read.annotations import subscript_elements
from burgee.read.declarations import Declarations, assignment


class SharedOptions(Declarations):
    """Reads `Verbose = Annotated[int, Option("-v", count=True)]` (an alias a parameter's
    annotation may name, `read/params.py` resolves) and the `options=[Verbose, ...]` lists
    that share such aliases with every command of the program or of a group."""

    def register_alias(self, statement: ast.stmt) -> None:
        """Note `Name = Annotated[T, Option(...)]` before any command is read. The tool keeps
        the statement as `Name = T` (its parameters' annotations still name it)."""
        target, value = assignment(statement)
        if target is None or not _a_type(value):
            return
        assert value is not None
        if not (
            isinstance(value, ast.Subscript) and self.names.is_typing(value.value, "Annotated")
        ):
            self.type_aliases[target] = value
            return
        elements = subscript_elements(value)
        kinds = {id(e): self.api_name(_called(e)) for e in elements[1:]}
        markers = [e for e in elements[1:] if kinds[id(e)] in ("Option", "Argument")]
        if not markers:
            self.type_aliases[target] = value
            return
        self.aliases[target] = value
        if "Argument" in kinds.values():
            self.arguments.add(target)
        base = elements[0]
        others = [e for e in elements[1:] if e not in markers]
        kept = self.code(base)
        if others:
            kept = f"Annotated[{', '.join(self.code(e) for e in (base, *others))}]"
        self.removals.replace(self.text, value, kept)

    def read_options(self, value: ast.expr, scope: tuple[str, ...]) -> None:
        """`options=[Verbose, ...]` of `program(...)` (scope `()`) or of a group."""
        where = f"{'group' if scope else 'program'}(options=...)"
        if not isinstance(value, ast.List | ast.Tuple):
            self.error(value, f"{where} must be a list of option aliases")
            return
        for element in value.elts:
            name = element.id if isinstance(element, ast.Name) else None
            alias = self.aliases.get(name or "")
            if name is None or alias is None:
                self.error(
                    element,
                    f"{where} lists options declared once at the top of the file, "
                    f'such as Verbose = Annotated[int, Option("-v", count=True)]; '
                    f"{self.code(element)} is not one",
                )
                continue
            if name in self.arguments:
                self.error(
                    element,
                    f"{name} is an Argument: only options can be given before the command",
                )
                continue
            self.shared.append((scope, name, element))

    def check_shared(self) -> None:
        """Every command of a scope takes each of its shared options, under one name; those
        parameters are marked `shared` (their scope)."""
        seen: dict[str, tuple[str, ...]] = {}
        taken = {(function, alias) for (function, _), alias in self.alias_uses.items()}
        for scope, alias, node in self.shared:
            where = _scope_name(scope)
            if alias in seen:
                self.error(node, f"{alias} is already shared by {_scope_name(seen[alias])}")
                continue
            seen[alias] = scope
            inside = [
                (index, command)
                for index, command in enumerate(self.commands)
                if command.path[: len(scope)] == scope and len(command.path) > len(scope)
            ]
            names = [
                param.name
                for _, command in inside
                for param in command.params
                if self.alias_uses.get((command.function, param.name)) == alias
            ]
            name = names[0] if names else _snake(alias)
            for index, command in inside:
                found = [
                    param
                    for param in command.params
                    if self.alias_uses.get((command.function, param.name)) == alias
                ]
                if not found:
                    if (command.function, alias) in taken:
                        continue  # NOTE: it takes the alias, whose own problem is reported
                    self._problem(
                        command.span,
                        f"{command.name!r} is a command of {where}, whose options= shares "
                        f"{alias}: give {command.function} the parameter {name}: {alias}",
                    )
                    continue
                param = found[0]
                if param.name != name:
                    self._problem(
                        param.span,
                        f"{param.name!r} takes {alias}, which {where} shares as {name!r}: "
                        "every command names it alike (its JSON key)",
                    )
                    continue
                if param.shadows:
                    # NOTE: an option a Click group or a Typer callback declares is named by
                    # its flags (its alias is gen's own name for it)
                    named = " ".join(param.spellings) if alias.startswith("_burgee_") else alias
                    self._problem(
                        param.span,
                        f"{named} is shared ({where}), so it cannot take a tool-wide flag's "
                        "spelling (shadows=True): before the command, that flag is the tool's",
                    )
                    continue
                if param.nargs in ("+", "*"):
                    self._problem(
                        param.span,
                        f"{alias} is shared ({where}), so it cannot take nargs={param.nargs!r}: "
                        "before the command, its words would run into the command's name; "
                        "give it a number of words, or repeat the flag",
                    )
                    continue
                marked = param.model_copy(update={"shared": scope})
                params = tuple(marked if p is param else p for p in command.params)
                # NOTE: made anew, not `model_copy`, which would keep a cached `inputs`.
                fields = {key: getattr(command, key) for key in Command.model_fields}
                self.commands[index] = Command(**{**fields, "params": params})

    def _problem(self, span: SourceSpan, message: str) -> None:
        self.diagnostics.append(Diagnostic(span=span, message=message))


def _called(node: ast.expr) -> ast.expr:
    return node.func if isinstance(node, ast.Call) else node


def _scope_name(scope: tuple[str, ...]) -> str:
    return f"group {' '.join(scope)!r}" if scope else "program"


def _a_type(value: ast.expr | None) -> bool:
    """`value` may be a type alias's: a subscript (`Literal[...]`, `list[str]`, `Annotated[...]`)
    or a union (`int | None`); what it names is read only where an annotation uses it."""
    if isinstance(value, ast.BinOp):
        return isinstance(value.op, ast.BitOr) and _a_type(value.left)
    return isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name | ast.Attribute)


def _snake(alias: str) -> str:
    """`RepoHome` → `repo_home`: the parameter name an error suggests."""
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in alias).lstrip("_")
