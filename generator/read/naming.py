"""The checks of names, made once the whole file is read (`Checks` builds on them).

- `NameChecks`: command and group names unique and not reserved, `@X.command` only on a
  group, a tool-wide flag only with `shadows=True`, prompts and resources unique, no
  top-level name the generated module defines itself, and no name of burgee's used where the
  tool keeps the code.
- `API_NAMES`, what a handlers file may import from burgee; `KEPT_API`, those the tool keeps.

`API_NAMES` (what a handlers file may import from burgee), `KEPT_API` (those the tool keeps);
`NameChecks`, the checks of names once the whole file is read: `check_stripped_names()` (a name
of burgee's used where the tool keeps the code, which has no such name; a text search picks the
statements to walk), `check_reserved_flags()` (a tool-wide spelling only with `shadows=True`, on
a root command only when it is the program's only command; `--config` free in a program that
reads no config file), `check_names()` (unique commands and groups, reserved group names,
aliases, one root, `--yes` of a command that asks first, names the generated module defines),
`check_group_variables()` (`@X.command`/`X.group(...)` whose `X` is no group: undefined, or a
command's function), `check_surfaces()` (prompts and resources unique); `env_clashes()`, an
option whose env var is the tool's debug switch (run on the finished `Program`).
"""

from __future__ import annotations

import ast
import builtins
import difflib
import re

import burgee
from burgee.model.diagnostics import Diagnostic
from burgee.model.ir import Command, Param, Program, cli_word
from burgee.model.reserved import (
    CONFIRM_FLAGS,
    RESERVED_COMMANDS,
    RESERVED_FLAGS,
    RESERVED_WHEN,
    RESERVED_WITHOUT_CONFIG,
    RUNTIME_IMPORTS,
    RUNTIME_NAMES,
    SHADOWABLE_FLAGS,
)
from burgee.read.reader import Reader

#: The names a handlers file may import from burgee.
API_NAMES = frozenset(name for name in burgee.__all__ if not name.startswith("__"))
#: Those of them the generated tool has too (the runtime's own classes); the rest exist only
#: while burgee reads the file.
KEPT_API = (
    "Audio",
    "BadParameter",
    "CommandError",
    "Context",
    "EmbeddedResource",
    "Image",
    "Outcome",
    "UsageError",
)


class NameChecks(Reader):
    """The checks of names: commands, groups, prompts, resources and the module's own."""

    def __init__(self, source: str, path: str) -> None:
        super().__init__(source, path)
        #: "prompts" and "resources", once a function is marked so (even one with problems).
        self.surfaces_seen: set[str] = set()

    def check_reserved_flags(self, command: Command, param: Param) -> None:
        """A command's option may not take a tool-wide flag's spelling, unless it says so
        (`Option(..., shadows=True)`): then it wins on its own command, and a root command's
        wherever the line reaches it (`argv._reaches_root`; `--config` is free where no config
        is read)."""
        config = bool(self.program_args.get("config", False))
        reserved = RESERVED_FLAGS if config else RESERVED_WITHOUT_CONFIG
        version = self.program_args.get("version_short")
        if isinstance(version, str) and version:
            reserved = reserved | {version}  # NOTE: `program(version_short="-V")`
        # NOTE: the usual `--no-X` is reserved exactly when `--X` is; a named off form is checked.
        named = (*param.flags, *(param.off or ()))
        spellings = [s for s in named if s in reserved]
        taken = [s for s in spellings if s not in SHADOWABLE_FLAGS]
        many = len(self.commands) > 1
        if param.shadows and not spellings:
            # NOTE: a warning: the flag it was written for may have left (`--config` in a tool
            # that reads no config file), and the file still means what it says.
            message = f"{param.flag} of {command.name!r} shadows no tool-wide flag; remove shadows="
            self.warnings.append(Diagnostic(span=param.span, level="warning", message=message))
            return
        elif spellings and (taken or not param.shadows):
            flag = (taken or spellings)[0]
            # NOTE: a short flag is changed apart from the name (`Option("-O", "--out")`).
            change = (
                "give it another short flag (or none)"
                if flag == param.short
                else "rename the parameter"
            )
            message = (
                f"{flag} of {command.name!r} clashes with the tool's reserved flag {flag}; "
                + change
            )
            if not taken:
                message += ", or declare Option(..., shadows=True) to take it over on this command"
        elif param.short == "-h" and (param.shared is not None or (command.root and many)):
            where = "a shared option" if param.shared is not None else "a root command's option"
            message = (
                f"-h of {command.name!r}: {where} cannot take -h, which is help before the "
                "command is named; a command's own option may (--help stays help)"
            )
        else:
            return
        self.diagnostics.append(Diagnostic(span=param.span, message=message))

    def check_stripped_names(self, tree: ast.Module) -> None:
        """A name of burgee's (`command`, `Option`, a group, `burgee.X`) used where the tool
        keeps the code: it exists only while burgee reads the file (in a decorator or a
        statement burgee removes, or an annotation, which the tool never evaluates)."""
        gone = {local for local, api in self.api.items() if api not in KEPT_API} | set(self.groups)
        modules = self.api_modules
        if not gone and not modules:
            return
        words = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(gone | modules))) + r")\b")
        # NOTE: a stack, not recursion: an expression may nest thousands deep (`1+1+...`).
        todo: list[tuple[ast.AST, set[str]]] = [(tree, gone)]
        while todo:
            node, names = todo.pop()
            if id(node) in self.removals.statements:
                continue
            if isinstance(node, ast.Module):
                todo += [
                    (statement, names)
                    for statement in node.body
                    if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
                    or self._mentions(words, [statement])
                ]
                continue
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                todo += self._definition_parts(node, names, gone, words)
                continue
            if isinstance(node, ast.AnnAssign):
                if node.value is not None:
                    todo.append((node.value, names))
                continue
            if self._report_stripped(node, names):
                continue
            todo += [(child, names) for child in ast.iter_child_nodes(node)]

    def _stripped(self, node: ast.AST) -> bool:
        """The node is inside code burgee removes from the tool."""
        start, end = self.text.start(node), self.text.end(node)
        return any(a <= start and end <= b for a, b, _ in self.removals.edits)

    def _mentions(self, words: re.Pattern[str], nodes: list[ast.stmt]) -> bool:
        # NOTE: a text search first: walking every statement's tree costs a big file a
        # tenth of a second, and most mention none of these names.
        return bool(nodes) and bool(
            words.search(self.text.source, self.text.start(nodes[0]), self.text.end(nodes[-1]))
        )

    def _definition_parts(
        self,
        node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef,
        names: set[str],
        gone: set[str],
        words: re.Pattern[str],
    ) -> list[tuple[ast.AST, set[str]]]:
        """The parts of a function or class the tool keeps, each with the names of burgee's
        that are still burgee's there."""

        def burgees(decorator: ast.expr) -> bool:
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            while isinstance(target, ast.Attribute):
                target = target.value
            return isinstance(target, ast.Name) and (
                target.id in gone or target.id in self.api_modules
            )

        # NOTE: burgee's decorators are removed, or reported where they stand.
        parts: list[tuple[ast.AST, set[str]]] = [
            (decorator, names)
            for decorator in node.decorator_list
            if not burgees(decorator) and not self._stripped(decorator)
        ]
        if isinstance(node, ast.ClassDef):
            return parts + [(child, names) for child in (*node.bases, *node.keywords, *node.body)]
        arguments = node.args
        defaults = (*arguments.defaults, *arguments.kw_defaults)
        parts += [(default, names) for default in defaults if default is not None]
        if self._mentions(words, node.body):
            # NOTE: a parameter or a local of the same name is the function's own.
            local = {a.arg for a in ast.walk(arguments) if isinstance(a, ast.arg)}
            local |= {
                n.id
                for n in ast.walk(node)
                if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)
            }
            parts += [(child, names - local) for child in node.body]
        return parts

    def _report_stripped(self, node: ast.AST, names: set[str]) -> bool:
        """Report a use of a name of burgee's the tool will not have; True when the node's
        parts need no further look."""
        if isinstance(node, ast.Name) and node.id in names and not self._stripped(node):
            self.error(
                node,
                f"{node.id!r} is burgee's, so the generated tool has no such name: use it "
                "as a decorator, in an annotation or in program(...)",
            )
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in self.api_modules
            and node.attr in API_NAMES
            and node.attr not in KEPT_API
            and not self._stripped(node)
        ):
            self.error(
                node,
                f"{node.value.id}.{node.attr} is burgee's, so the generated tool has no "
                "such name: use it as a decorator or in an annotation",
            )
            return True
        return False

    def check_group_variables(self, tree: ast.Module) -> None:
        """`@notes.command` where `notes` is no group: a name the file never defines (a typo of
        a group's variable, a builtin), a command's function, or a group made only further
        down. Each would stop the tool at start-up (NameError, AttributeError). A name bound to
        anything else may be another library's (`app.command` of Typer) and is left alone, as
        is every name the file does not define under `import *`."""
        if not self.not_groups:
            return
        star = any(isinstance(s, ast.ImportFrom) and s.names[0].name == "*" for s in tree.body)
        bound = {name for name, _, _ in _top_level_bindings(tree)}
        functions = {command.function for command in self.commands}
        for name, node in self.not_groups:
            group = self.groups.get(name)
            if group is not None:
                problem = (
                    f"{name!r} is used before its group(...) line (line {group.span.line}); "
                    "move that line up"
                )
            elif name in functions:
                problem = f"{name!r} is a command, not a group (a group is made by group(...))"
            elif name not in bound and hasattr(builtins, name):
                problem = (
                    f"{name!r} is a Python builtin, not a group (a group is made by group(...))"
                )
            elif name not in bound and not star:
                close = difflib.get_close_matches(name, list(self.groups), n=1)
                problem = f"{name!r} is not defined" + (
                    f"; did you mean the group {close[0]!r}?"
                    if close
                    else " (a group is made by group(...))"
                )
            else:
                continue
            use = f"{name}.{node.attr}" if isinstance(node, ast.Attribute) else name
            self.error(node, f"{use}: {problem}")

    def check_names(self, tree: ast.Module) -> None:
        """Report duplicate command paths and clashes with the tool's reserved names."""
        self._check_paths()
        self._check_roots()
        self.check_surfaces()
        self._check_named_functions(tree)
        self._check_bindings(tree)

    def _check_paths(self) -> None:
        """Each group, command and alias has a path of its own, none of them the tool's."""
        seen: dict[tuple[str, ...], str] = {}
        for group in self.group_nodes:
            if group.path in seen:
                self.diagnostics.append(
                    Diagnostic(
                        span=group.span, message=f"group {' '.join(group.path)!r} is defined twice"
                    )
                )
            elif len(group.path) == 1 and group.path[0] in RESERVED_COMMANDS:
                self.diagnostics.append(
                    Diagnostic(
                        span=group.span,
                        message=f"group name {group.path[0]!r} is reserved by the generated tool",
                    )
                )
            seen[group.path] = "group"
        for command in self.commands:
            what = seen.get(command.path)
            if what is not None:
                self.diagnostics.append(
                    Diagnostic(
                        span=command.span,
                        message=f"duplicate command name {command.name!r} (already a {what})",
                    )
                )
            elif len(command.path) == 1 and command.path[0] in RESERVED_COMMANDS:
                self.diagnostics.append(
                    Diagnostic(
                        span=command.span,
                        message=f"command name {command.name!r} is reserved by the generated tool",
                    )
                )
            elif command.path[0] in self.surface_commands():
                what = self.surface_commands()[command.path[0]]
                self.diagnostics.append(
                    Diagnostic(
                        span=command.span,
                        message=f"{command.path[0]!r} is the generated tool's command for the "
                        f"{what} of this program; rename the command or its group",
                    )
                )
            seen[command.path] = "command"
            for alias in command.aliases:
                path = (*command.path[:-1], alias)
                taken = RESERVED_COMMANDS | set(self.surface_commands())
                if path in seen or (len(path) == 1 and alias in taken):
                    self.diagnostics.append(
                        Diagnostic(
                            span=command.span,
                            message=f"alias {' '.join(path)!r} of {command.name!r} is already "
                            f"taken, by {_a(seen.get(path, 'command of the tool'))}",
                        )
                    )
                seen[path] = f"alias of {command.name!r}"
            if command.confirm is not None:
                for param in command.inputs:
                    clash = [s for s in param.spellings if s in CONFIRM_FLAGS]
                    if param.role == "option" and clash:
                        flag = clash[0]
                        self.diagnostics.append(
                            Diagnostic(
                                span=param.span,
                                message=f"{flag} of {command.name!r}, which asks first, is the "
                                "tool's own confirmation flag (--yes/-y); remove the parameter, "
                                "or use @command(confirm=False)",
                            )
                        )
            for param in command.inputs:
                self.check_reserved_flags(command, param)

    def _check_roots(self) -> None:
        """At most one root command, at the top level, and not with program(default=...)."""
        roots = [c for c in self.commands if c.root]
        for command in roots:
            if len(command.path) != 1:
                self.diagnostics.append(
                    Diagnostic(
                        span=command.span,
                        message=f"root command {command.name!r} must be a top-level command, "
                        "not one of a group",
                    )
                )
        default = self.program_args.get("default")
        at = self.program_nodes.get("default")
        if isinstance(default, str) and at is not None:
            names = [command.name for command in self.commands]
            if default not in names:
                close = difflib.get_close_matches(default, names, n=1)
                listed = f"; commands: {', '.join(names)}"
                hint = f" (did you mean {close[0]!r}?)" if close else listed
                self.error(at, f"program(default={default!r}) names no command{hint}")
            elif roots:
                self.error(
                    at,
                    f"program(default={default!r}) and the root command {roots[0].name!r}: "
                    "both run when argv names no command; keep one",
                )
        for command in roots[1:]:
            self.diagnostics.append(
                Diagnostic(
                    span=command.span,
                    message=f"{command.name!r} and {roots[0].name!r} are both root=True; "
                    "a program has at most one root command",
                )
            )

    def _check_named_functions(self, tree: ast.Module) -> None:
        """default_factory= and complete= name functions at the top level of the file."""
        functions = {
            s.name for s in tree.body if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)
        }
        for command in self.commands:
            for param in command.inputs:
                if param.default_factory and param.default_factory not in functions:
                    self.diagnostics.append(
                        Diagnostic(
                            span=param.span,
                            message=f"default_factory={param.default_factory} of "
                            f"{param.name!r} must name a function defined at the top level "
                            "of this file",
                        )
                    )
                if param.complete and param.complete not in functions:
                    self.diagnostics.append(
                        Diagnostic(
                            span=param.span,
                            message=f"complete={param.complete} of {param.name!r} must name a "
                            "function defined at the top level of this file",
                        )
                    )

    def _check_bindings(self, tree: ast.Module) -> None:
        """No top-level name of the file is one the generated module defines."""
        generated = {f"_{kind}_{c.ident}" for c in self.commands for kind in ("build", "run")}
        generated |= {f"_to_{name}" for name in self.records}
        taken = RUNTIME_NAMES | generated | set(RUNTIME_IMPORTS)
        for name, node, statement in _top_level_bindings(tree):
            if name not in taken:
                continue
            if isinstance(node, ast.alias):
                if same_import(node, statement):
                    continue
                message = (
                    f"{name!r} is defined by the generated module; import it under another name"
                )
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and any(
                command.function == name for command in self.commands
            ):
                # NOTE: the command may keep its name: only the function's is taken.
                message = _renaming(
                    name, next(c for c in self.commands if c.function == name), taken
                )
            elif name.startswith("_"):
                # NOTE: the runtime's own names are private ones; a later burgee may add more.
                message = (
                    f"{name!r} is defined by the generated module (burgee's runtime, whose own "
                    "names start with '_'); rename it, best without a leading underscore"
                )
            else:
                message = f"{name!r} is defined by the generated module; rename it"
            self.diagnostics.append(Diagnostic(span=self.span(node), message=message))

    def surface_commands(self) -> dict[str, str]:
        """The reserved commands this program's prompts and resources take (`RESERVED_WHEN`)."""
        return {w: what for w, what in RESERVED_WHEN.items() if what in self.surfaces_seen}

    def check_surfaces(self) -> None:
        """Prompt names and resource URIs and names are each unique."""
        seen: dict[str, str] = {}
        for prompt in self.prompts:
            if prompt.name in seen:
                self.diagnostics.append(
                    Diagnostic(span=prompt.span, message=f"prompt {prompt.name!r} is defined twice")
                )
            seen[prompt.name] = prompt.function
        uris: set[str] = set()
        names: set[str] = set()
        for resource in self.resources:
            if resource.uri in uris:
                self.diagnostics.append(
                    Diagnostic(
                        span=resource.span, message=f"resource {resource.uri!r} is defined twice"
                    )
                )
            elif resource.name in names:
                self.diagnostics.append(
                    Diagnostic(
                        span=resource.span,
                        message=f"resource name {resource.name!r} is used twice; give one name=",
                    )
                )
            uris.add(resource.uri)
            names.add(resource.name)


def same_import(alias: ast.alias, statement: ast.stmt) -> bool:
    """Imports burgee removes, typing names under their own names, and imports the
    runtime makes itself bind nothing new."""
    if isinstance(statement, ast.ImportFrom):
        module = statement.module or ""
        if statement.level == 0 and module == "burgee":
            return True
        if module in ("typing", "typing_extensions") and alias.asname is None:
            return True
        text = f"from {'.' * statement.level}{module} import {alias.name}"
    else:
        if alias.name == "burgee" or alias.name.startswith("burgee."):
            return True
        if alias.asname is None:
            # NOTE: `import os.path` binds `os`, the same module the runtime imports.
            return f"import {alias.name.split('.')[0]}" in RUNTIME_IMPORTS.get(
                alias.name.split(".")[0], frozenset()
            )
        text = f"import {alias.name}"
    if alias.asname is not None:
        text += f" as {alias.asname}"
    return text in RUNTIME_IMPORTS.get(alias.asname or alias.name, frozenset())


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_INNER_SCOPES = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _top_level_bindings(tree: ast.Module) -> list[tuple[str, ast.AST, ast.stmt]]:
    """Every name the module's own scope binds: (name, the node that binds it, its statement).

    Iterative, and it does not enter functions, classes, lambdas or comprehensions."""
    found: list[tuple[str, ast.AST, ast.stmt]] = []
    for statement in tree.body:
        stack: list[ast.AST] = [statement]
        while stack:
            node = stack.pop()
            if isinstance(node, _SCOPES):
                found.append((node.name, node, statement))
                # NOTE: decorators and defaults run in the module scope (`:=` may bind there).
                continue
            if isinstance(node, ast.Import | ast.ImportFrom):
                for alias in node.names:
                    if alias.name != "*":
                        found.append((alias.asname or alias.name.split(".")[0], alias, node))
                continue
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                found.append((node.id, node, statement))
            elif isinstance(node, ast.ExceptHandler) and node.name:
                found.append((node.name, node, statement))
            elif isinstance(node, ast.MatchAs | ast.MatchStar) and node.name:
                found.append((node.name, node, statement))
            if isinstance(node, _INNER_SCOPES):
                continue
            stack.extend(ast.iter_child_nodes(node))
    return found


def env_clashes(program: Program) -> list[Diagnostic]:
    """An option whose environment variable is the tool's debug switch (an `env_prefix` that
    is the program's name and an option `debug`, say): setting it would show tracebacks."""
    found: list[Diagnostic] = []
    for command in program.commands:
        for param in command.params:
            if program.debug_env in program.env_of(param):
                found.append(
                    Diagnostic(
                        span=param.span,
                        message=f"{param.flag} reads the env var {program.debug_env}, which "
                        "turns on the tool's tracebacks; give it another with "
                        'Option(env=...), or env="" for none',
                    )
                )
    return found


def _a(what: str) -> str:
    """`a command`, `an alias of 'lead'`."""
    return ("an " if what[:1] in "aeiou" else "a ") + what


def _renaming(function: str, command: Command, taken: frozenset[str] | set[str]) -> str:
    """How to fix a command function named as the generated module names its own (`main`,
    `run`): `run_` is still the command `run` (a trailing underscore is dropped), or with
    `@command(name=...)` the function can be called anything."""
    problem = f"{function!r} is defined by the generated module"
    other = function + "_"
    if other in taken:
        return (
            f"{problem}; rename the function and keep the command's name with "
            f'@command(name="{command.path[-1]}", ...)'
        )
    if command.path[-1] == cli_word(other):
        return (
            f"{problem}; name the function {other}: its command is still called "
            f"{command.path[-1]!r} (a trailing underscore is dropped)"
        )
    return f"{problem}; name the function {other} (its command keeps its name= from @command)"
