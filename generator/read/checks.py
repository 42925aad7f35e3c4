"""The checks made once the whole file is read, and what the commands' code says.

- `Checks`: exit codes never shared (built-in, moved, declared errors and outcomes), burgee's
  modules imported inside functions must exist, a tool-wide flag only with `shadows=True`,
  `@command` only on top-level functions, records that do not contain themselves, command
  and group names unique and not reserved, prompts and resources unique, no top-level name
  the generated module defines itself.
- `with_outcomes()`: each command's outcomes, those its handler names; `calls_log()`: whether
  the handlers call `.log(...)`.
"""

from __future__ import annotations

import ast
import builtins
import difflib
import re

import burgee
from burgee.model.diagnostics import Diagnostic, SourceSpan
from burgee.model.ir import Command, ErrorDecl, OutcomeDecl, Param, TypeRef
from burgee.model.reserved import (
    CONFIRM_FLAGS,
    RESERVED_COMMANDS,
    RESERVED_FLAGS,
    RESERVED_WHEN,
    RUNTIME_IMPORTS,
    RUNTIME_NAMES,
    SHADOWABLE_FLAGS,
)
from burgee.read.reader import Reader
from burgee.read.source import nested_imports, statements_with
from burgee.read.source import tree as parsed
from burgee.runtime.errors import BUILTIN_ERRORS

#: The names a handlers file may import from burgee.
API_NAMES = frozenset(name for name in burgee.__all__ if not name.startswith("__"))
#: Those of them the generated tool has too (the runtime's own classes); the rest exist only
#: while burgee reads the file.
KEPT_API = ("CommandError", "Context", "Outcome")


class Checks(Reader):
    """A reader's findings that the checks read, and the checks."""

    def __init__(self, source: str, path: str) -> None:
        super().__init__(source, path)
        #: Error declarations by kind and by exit code, to refuse duplicates.
        self.kinds: dict[str, ErrorDecl] = {}
        self.codes: dict[int, ErrorDecl] = {}
        #: `Outcome` subclasses, in file order.
        self.outcomes: list[OutcomeDecl] = []
        #: `program(exit_codes={...})`: kind -> (exit code, where it was given).
        self.moved: dict[str, tuple[int, ast.AST]] = {}
        #: Error classes of a built-in kind (`kind = "usage"`): the class, kind, exit code.
        self.builtin_raised: list[tuple[ast.ClassDef, str, int]] = []
        #: "prompts" and "resources", once a function is marked so (even one with problems).
        self.surfaces_seen: set[str] = set()

    def check_exit_codes(self) -> None:
        """Every exit code means one thing: the built-in kinds (at the codes the program moved
        them to), the declared errors and the declared outcomes never share one."""
        builtin = {
            kind: self.moved[kind][0] if kind in self.moved else code
            for kind, (code, _) in BUILTIN_ERRORS.items()
        }
        owners: dict[int, str] = {}
        for kind, code in builtin.items():
            other = owners.get(code)
            if other is not None:
                moved = kind if kind in self.moved else other
                self.error(
                    self.moved[moved][1],
                    f"exit code {code} of {moved!r} is already taken by the built-in "
                    f"{kind if moved == other else other!r}; give each kind its own exit code",
                )
            owners.setdefault(code, kind)
        taken = ", ".join(f"{c} ({k})" for c, k in sorted(owners.items()))
        for node, kind, code in self.builtin_raised:
            if code != builtin[kind]:
                self.error(
                    node,
                    f"error kind {kind!r} is built in; choose another kind (or, to raise the "
                    f"built-in error, exit_code = {builtin[kind]})",
                )
        for error in self.errors:
            if not 3 <= error.exit_code <= 125 or error.exit_code in owners:
                message = (
                    f"exit_code {error.exit_code} of {error.class_name} must be between 3 and "
                    f"125 and not one of the built-in codes: {taken}"
                )
                self.diagnostics.append(Diagnostic(span=error.span, message=message))
        declared = {e.exit_code: f"error {e.kind!r}" for e in self.errors}
        for outcome in self.outcomes:
            code = outcome.exit_code
            clash = f"the built-in {owners[code]!r}" if code in owners else declared.get(code)
            if not 1 <= code <= 125:
                message = f"exit_code {code} of outcome {outcome.class_name} must be 1 to 125"
            elif clash:
                message = (
                    f"exit_code {code} of outcome {outcome.class_name} is already taken by "
                    f"{clash}: an outcome never shares an exit code with an error or another "
                    "outcome (program(exit_codes={...}) moves a built-in kind)"
                )
            else:
                declared[code] = f"outcome {outcome.name!r}"
                continue
            self.diagnostics.append(Diagnostic(span=outcome.span, message=message))

    def check_lazy_imports(self, tree: ast.Module) -> None:
        """An import of burgee's own modules inside a function (`from burgee.write.generate
        import generate`) stays there, so the tool loads it only when that code runs (and
        needs burgee installed then); the module and the names must exist."""
        for node in nested_imports(self.original):
            if isinstance(node, ast.ImportFrom):
                if node.level or not (node.module or "").startswith(("burgee.", "burgee")):
                    continue
                if node.module not in ("burgee",) and not (node.module or "").startswith("burgee."):
                    continue
                modules = [(node.module or "", [alias.name for alias in node.names])]
            else:
                modules = [(a.name, []) for a in node.names if a.name.startswith("burgee.")]
            for module, names in modules:
                problem = _missing_in_burgee(module, names)
                if problem:
                    span = SourceSpan(path=self.path, line=node.lineno, column=node.col_offset + 1)
                    self.diagnostics.append(Diagnostic(span=span, message=problem))

    def check_reserved_flags(self, command: Command, param: Param) -> None:
        """A command's option may not take a tool-wide flag's spelling, unless it says so
        (`Option(..., shadows=True)`): then it wins on its own command."""
        spellings = [s for s in (param.short, param.flag) if s in RESERVED_FLAGS]
        taken = [s for s in spellings if s not in SHADOWABLE_FLAGS]
        if param.shadows and command.root:
            flag = spellings[0] if spellings else param.flag
            message = (
                f"{flag} of root command {command.name!r} cannot shadow a tool-wide flag: no "
                "word names a root command, so the tool's flags come first"
            )
        elif param.shadows and not spellings:
            message = f"{param.flag} of {command.name!r} shadows no tool-wide flag; remove shadows="
        elif spellings and (taken or not param.shadows):
            flag = (taken or spellings)[0]
            message = (
                f"{flag} of {command.name!r} clashes with the tool's reserved flag {flag}; "
                "rename the parameter"
            )
            if not taken:
                message += ", or declare Option(..., shadows=True) to take it over on this command"
        else:
            return
        self.diagnostics.append(Diagnostic(span=param.span, message=message))

    def check_misplaced_commands(self, tree: ast.Module) -> None:
        """`@command` anywhere but on a top-level function: nothing could call it, and the
        decorator would stay in the tool, where `command` is not defined."""
        top = {id(s) for s in tree.body if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)}
        # NOTE: only a decorated class, and statements with an `@` below their first line.
        below = {id(s) for s in statements_with(self.original, "@", inside=True)}
        chosen = [
            s
            for s in tree.body
            if id(s) in below or (isinstance(s, ast.ClassDef) and s.decorator_list)
        ]
        stack: list[tuple[ast.AST, str]] = [(s, "") for s in reversed(chosen)]
        while stack:
            node, inside = stack.pop()
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                if isinstance(node, ast.ClassDef):
                    what = "a class"
                elif inside:
                    what = "a method" if inside == "class" else "a nested function"
                else:
                    what = "a function inside a block"
                if id(node) not in top:
                    for decorator in node.decorator_list:
                        if self._is_command_decorator(decorator):
                            self.diagnostics.append(
                                Diagnostic(
                                    span=self.span(decorator, shift=-1),
                                    message="@command marks a function at the top level of "
                                    f"the file, and {node.name!r} is {what}",
                                )
                            )
                inner = "class" if isinstance(node, ast.ClassDef) else "function"
                stack.extend((child, inner) for child in reversed(node.body))
                continue
            stack.extend((child, inside) for child in reversed(list(ast.iter_child_nodes(node))))

    def _is_command_decorator(self, decorator: ast.expr) -> bool:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(target, ast.Name):
            return self.api.get(target.id) == "command"
        return (
            isinstance(target, ast.Attribute)
            and target.attr == "command"
            and isinstance(target.value, ast.Name)
            and (target.value.id in self.groups or target.value.id in self.api_modules)
        )

    def check_records(self) -> None:
        """Records that contain themselves, directly or through others: their schemas and
        converters would never end."""
        for name, record in self.records.items():
            path = self._cycle(name, name, ())
            if path is not None:
                self.diagnostics.append(
                    Diagnostic(
                        span=record.span,
                        message=f"record {name} contains itself ({' -> '.join(path)} -> {name}); "
                        "recursive types are not supported",
                    )
                )

    def _cycle(self, start: str, name: str, path: tuple[str, ...]) -> tuple[str, ...] | None:
        record = self.records.get(name)
        if record is None or len(path) > len(self.records):
            return None
        for field in record.fields:
            for inner in _record_names(field.type):
                step = (*path, f"{name}.{field.name}")
                if inner == start:
                    return step
                if all(not part.startswith(f"{inner}.") for part in path):
                    found = self._cycle(start, inner, step)
                    if found is not None:
                        return found
        return None

    def check_stripped_names(self, tree: ast.Module) -> None:
        """A name of burgee's (`command`, `Option`, a group, `burgee.X`) used where the tool
        keeps the code: it exists only while burgee reads the file (in a decorator or a
        statement burgee removes, or an annotation, which the tool never evaluates)."""
        kept = KEPT_API
        gone = {local for local, api in self.api.items() if api not in kept} | set(self.groups)
        removed = self.removals.edits

        def stripped(node: ast.AST) -> bool:
            start, end = self.text.start(node), self.text.end(node)
            return any(a <= start and end <= b for a, b, _ in removed)

        def burgees(decorator: ast.expr) -> bool:
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            while isinstance(target, ast.Attribute):
                target = target.value
            return isinstance(target, ast.Name) and (target.id in gone or target.id in modules)

        modules = self.api_modules
        if not gone and not modules:
            return
        words = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(gone | modules))) + r")\b")
        source = self.text.source

        def mentions(nodes: list[ast.stmt]) -> bool:
            # NOTE: a text search first: walking every statement's tree costs a big file a
            # tenth of a second, and most mention none of these names.
            return bool(nodes) and bool(
                words.search(source, self.text.start(nodes[0]), self.text.end(nodes[-1]))
            )

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
                    or mentions([statement])
                ]
                continue
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                # NOTE: burgee's decorators are removed, or reported where they stand.
                todo += [
                    (decorator, names)
                    for decorator in node.decorator_list
                    if not burgees(decorator) and not stripped(decorator)
                ]
                if isinstance(node, ast.ClassDef):
                    todo += [(child, names) for child in (*node.bases, *node.keywords, *node.body)]
                    continue
                arguments = node.args
                defaults = (*arguments.defaults, *arguments.kw_defaults)
                todo += [(default, names) for default in defaults if default is not None]
                if mentions(node.body):
                    # NOTE: a parameter or a local of the same name is the function's own.
                    local = {a.arg for a in ast.walk(arguments) if isinstance(a, ast.arg)}
                    local |= {
                        n.id
                        for n in ast.walk(node)
                        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)
                    }
                    todo += [(child, names - local) for child in node.body]
                continue
            if isinstance(node, ast.AnnAssign):
                if node.value is not None:
                    todo.append((node.value, names))
                continue
            if isinstance(node, ast.Name) and node.id in names and not stripped(node):
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
                and node.attr not in kept
                and not stripped(node)
            ):
                self.error(
                    node,
                    f"{node.value.id}.{node.attr} is burgee's, so the generated tool has no "
                    "such name: use it as a decorator or in an annotation",
                )
                continue
            todo += [(child, names) for child in ast.iter_child_nodes(node)]

    def check_group_variables(self, tree: ast.Module) -> None:
        """`@notes.command` where `notes` is no group: a name the file never defines (a typo of
        a group's variable) or a command's function. Either would stop the tool at start-up
        (NameError, AttributeError). A name bound to anything else may be another library's
        (`app.command` of Typer) and is left alone, as is every name under `import *`."""
        if not self.not_groups or any(
            isinstance(s, ast.ImportFrom) and s.names[0].name == "*" for s in tree.body
        ):
            return
        bound = {name for name, _, _ in _top_level_bindings(tree)}
        functions = {command.function for command in self.commands}
        for name, node in self.not_groups:
            if name in functions:
                problem = f"{name!r} is a command, not a group (a group is made by group(...))"
            elif name not in bound and not hasattr(builtins, name):
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
                if path in seen or (len(path) == 1 and alias in RESERVED_COMMANDS):
                    self.diagnostics.append(
                        Diagnostic(
                            span=command.span,
                            message=f"alias {' '.join(path)!r} of {command.name!r} is already "
                            f"the name of a {seen.get(path, 'command of the tool')}",
                        )
                    )
                seen[path] = f"alias of {command.name!r}"
            if command.confirm is not None:
                for param in command.inputs:
                    if param.flag in CONFIRM_FLAGS or param.short in CONFIRM_FLAGS:
                        flag = param.short if param.short in CONFIRM_FLAGS else param.flag
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
        for command in roots[1:]:
            self.diagnostics.append(
                Diagnostic(
                    span=command.span,
                    message=f"{command.name!r} and {roots[0].name!r} are both root=True; "
                    "a program has at most one root command",
                )
            )
        self.check_surfaces()
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
        generated = {f"_{kind}_{c.ident}" for c in self.commands for kind in ("build", "run")}
        generated |= {f"_to_{name}" for name in self.records}
        taken = RUNTIME_NAMES | generated | set(RUNTIME_IMPORTS)
        for name, node, statement in _top_level_bindings(tree):
            if name not in taken:
                continue
            if isinstance(node, ast.alias):
                if self._same_import(node, statement):
                    continue
                message = (
                    f"{name!r} is defined by the generated module; import it under another name"
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

    def _same_import(self, alias: ast.alias, statement: ast.stmt) -> bool:
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


def _missing_in_burgee(module: str, names: list[str]) -> str | None:
    """Why `from MODULE import NAMES` of burgee's own modules would fail, or None."""
    import importlib  # noqa: PLC0415 (burgee's own modules, already loaded or cheap)

    try:
        found = importlib.import_module(module)
    except ImportError:
        return f"burgee has no module {module!r}"
    for name in names:
        if name != "*" and not hasattr(found, name):
            try:
                importlib.import_module(f"{module}.{name}")
            except ImportError:
                return f"{module} has no name {name!r}"
    return None


def _record_names(ref: TypeRef) -> list[str]:
    """The records a type refers to, at any depth (list items, dict values)."""
    found: list[str] = []
    stack = [ref]
    while stack:
        current = stack.pop()
        if current.kind == "record" and current.name is not None:
            found.append(current.name)
        stack.extend(inner for inner in (current.item, current.value) if inner is not None)
    return found


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


def with_outcomes(
    commands: list[Command], outcomes: list[OutcomeDecl], source: str
) -> tuple[Command, ...]:
    """Each command with the outcomes its handler names (`raise Stale(...)`); an outcome that
    no handler names (a helper raises it) may end any command."""
    if not outcomes:
        return tuple(commands)
    by_class = {o.class_name: o.name for o in outcomes}
    named: dict[str, set[str]] = {}
    # NOTE: only the functions whose text names one of the classes.
    words = "|".join(re.escape(name) for name in sorted(by_class))
    for node in statements_with(source, rf"\b(?:{words})\b"):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
            named[node.name] = {by_class[n] for n in names if n in by_class}
    handlers = {c.function for c in commands}
    anywhere = set(by_class.values()) - set().union(
        *(found for function, found in named.items() if function in handlers)
    )
    return tuple(
        c.model_copy(update={"outcomes": tuple(sorted(named.get(c.function, set()) | anywhere))})
        for c in commands
    )


def calls_log(source: str) -> bool:
    """Whether the handlers call `<something>.log(...)`: then the MCP server offers logging."""
    # NOTE: only the statements whose text says `log` (non-ASCII names may normalize to it).
    statements = parsed(source).body if not source.isascii() else statements_with(source, "log")
    return any(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "log"
        for statement in statements
        for node in ast.walk(statement)
    )
