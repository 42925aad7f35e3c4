"""The checks made once the whole file is read, and what the commands' code says.

- `Checks` (on top of `naming.NameChecks`, the checks of names): exit codes never shared
  (built-in, moved, declared errors and outcomes), burgee's modules imported inside functions
  must exist, `@command` only on top-level functions, records that do not contain themselves.
- `check_context_uses()`: a handler's `ctx.X` names something `Context` has.
- `with_outcomes()`: each command's outcomes, those its handler names; `with_stdin()`: the
  commands that read standard input; `calls_log()`: whether the handlers call `.log(...)`.

`Checks` (on top of `NameChecks`): `check_exit_codes()` (built-in (moved), error and outcome
codes never shared), `check_lazy_imports()` (`burgee.*` imports inside functions stay there;
their modules and names must exist), `check_misplaced_commands()`, `check_records()` (no record
contains itself); `check_context_uses()` (each `ctx.X` of a handler, whatever its Context
parameter is called, is an attribute of the runtime's `Context` class, with a "did you mean");
`with_outcomes()`: each command's outcomes, those its handler names; `with_stdin()`: the
commands whose handler reads standard input, itself or through the top-level functions it calls
(`sys.stdin`, `input()`, `fileinput`, `open(0)`, `os.read(0, ...)`; its tool description then
says so, `describe/schemas.py`); `calls_log()`: the handlers call `.log(...)` (the tool then
offers MCP logging).
"""

from __future__ import annotations

import ast
import difflib
import functools
import os
from collections.abc import Iterable

from burgee.model.diagnostics import Diagnostic, SourceSpan
from burgee.model.ir import Command, ErrorDecl, OutcomeDecl, Question, TypeRef
from burgee.read.forms import read_form
from burgee.read.naming import NameChecks
from burgee.read.reader import Reader
from burgee.read.source import nested_imports, statements_naming, statements_with
from burgee.read.source import tree as parsed
from burgee.runtime.core.context import Context, _answer_name
from burgee.runtime.core.errors import BUILTIN_ERRORS
from burgee.runtime.program import PROGRAM


class Checks(NameChecks):
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
        # NOTE: 130 and 143 (interrupted, terminated) are out of a declared code's range anyway.
        taken = ", ".join(f"{c} ({k})" for c, k in sorted(owners.items()) if c <= 125)
        for node, kind, code in self.builtin_raised:
            if code != builtin[kind]:
                self.error(
                    node,
                    f"error kind {kind!r} is built in; choose another kind (or, to raise the "
                    f"built-in error, exit_code = {builtin[kind]})",
                )
        for error in self.errors:
            # NOTE: 1 and 2 are free once `internal`/`usage` are moved (Click's errors exit 1).
            if not 1 <= error.exit_code <= 125 or error.exit_code in owners:
                message = (
                    f"exit_code {error.exit_code} of {error.class_name} must be between 1 and "
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
    for node in statements_naming(source, tuple(sorted(by_class))):
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


#: The words of a statement that may read standard input (`_reads_stdin` decides).
_STDIN_TEXT = r"stdin|fileinput"
_STDIN_WORDS = ("input", "open", "read", "fdopen")


def _reads_stdin(node: ast.AST) -> bool:
    """Whether code reads standard input as written: `sys.stdin` (or `sys.__stdin__`),
    `input()`, `fileinput`, `"/dev/stdin"`, or descriptor 0 (`open(0)`, `os.read(0, n)`,
    `os.fdopen(0)`)."""
    for inner in ast.walk(node):
        if isinstance(inner, ast.Attribute) and inner.attr in ("stdin", "__stdin__"):
            return True
        if isinstance(inner, ast.Name) and inner.id == "fileinput":
            return True
        if isinstance(inner, ast.Constant) and inner.value == "/dev/stdin":
            return True
        if not isinstance(inner, ast.Call):
            continue
        function = inner.func
        name = function.id if isinstance(function, ast.Name) else getattr(function, "attr", "")
        if name == "input":
            return True
        first = inner.args[0] if inner.args else None
        if (
            name in ("open", "read", "fdopen")
            and isinstance(first, ast.Constant)
            and type(first.value) is int
            and first.value == 0
        ):
            return True
    return False


def with_stdin(commands: tuple[Command, ...], source: str) -> tuple[Command, ...]:
    """Each command whose handler reads standard input, itself or through the top-level
    functions it calls (by name, in this file), marked `reads_stdin`."""
    readers = {
        node.name
        for node in [
            *statements_with(source, _STDIN_TEXT),
            *statements_naming(source, _STDIN_WORDS),
        ]
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _reads_stdin(node)
    }
    if not readers:
        return commands
    found = readers
    while found:
        # NOTE: only the functions whose text names a reader found so far can call one.
        found = {
            node.name
            for node in statements_naming(source, tuple(sorted(found)), inside=True)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and node.name not in readers
            and any(
                isinstance(call, ast.Call)
                and isinstance(call.func, ast.Name)
                and call.func.id in found
                for call in ast.walk(node)
            )
        }
        readers |= found
    return tuple(
        c.model_copy(update={"reads_stdin": True}) if c.function in readers else c for c in commands
    )


@functools.cache
def _context_names() -> frozenset[str]:
    """What a handler's Context has: the runtime class's attributes, and those its `__init__`
    sets (read from a real one, so this never lags behind the class)."""
    return frozenset(dir(Context)) | frozenset(vars(Context("", json=False, program=PROGRAM)))


#: The Context methods that ask a question.
_ASKING = ("confirm", "ask", "form")


def _question(reader: Reader, call: ast.Call) -> Question | None:
    """What one `ctx.confirm(...)`, `ctx.ask(...)` or `ctx.form(...)` asks: its text when
    literal, and the `--answer` names (`name=`, else made of the question's words as the
    runtime makes them; a form's fields)."""
    kind = call.func.attr  # type: ignore[attr-defined]
    given = {keyword.arg: keyword.value for keyword in call.keywords}
    first = call.args[0] if call.args else given.get("message" if kind == "form" else "question")
    text = first.value if isinstance(first, ast.Constant) else None
    text = text if isinstance(text, str) else None
    if kind == "form":
        record = read_form(reader, call)
        if record is None:
            return None
        fields = tuple(field.name for field in record.fields)
        return Question(kind="form", text=text, answers=fields)
    named = given.get("name")
    if isinstance(named, ast.Constant) and isinstance(named.value, str):
        answers: tuple[str, ...] = (named.value,)
    else:
        answers = (_answer_name(text),) if text is not None and named is None else ()
    return Question(kind=kind, text=text, answers=answers)


def check_context_uses(
    reader: Reader, node: ast.FunctionDef | ast.AsyncFunctionDef, name: str
) -> None:
    """Every `NAME.X` a handler reads, where NAME is its Context parameter, must be something
    `Context` has: a misspelt `ctx.progess(...)` would otherwise fail only when it runs, as an
    internal error. Its questions (`NAME.confirm`, `.ask`, `.form`: `read/forms.py` reads a
    form) join `reader.questions`."""
    known = _context_names()
    uses: list[ast.Attribute] = []
    asked: list[ast.Call] = []
    stack: list[ast.AST] = [*node.body]
    while stack:
        item = stack.pop()
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            inner = item.args
            every = [*inner.posonlyargs, *inner.args, *inner.kwonlyargs, inner.vararg, inner.kwarg]
            if any(arg is not None and arg.arg == name for arg in every):
                continue  # NOTE: another `ctx` in there, not the Context
        if isinstance(item, ast.Attribute) and isinstance(item.value, ast.Name):
            if item.value.id == name:
                uses.append(item)
        if isinstance(item, ast.Call) and isinstance(item.func, ast.Attribute):
            called = item.func
            if called.attr in _ASKING and isinstance(called.value, ast.Name):
                if called.value.id == name:
                    asked.append(item)
        stack.extend(ast.iter_child_nodes(item))
    questions = []
    for call in sorted(asked, key=lambda c: (c.lineno, c.col_offset)):
        question = _question(reader, call)
        if question is not None:
            questions.append(question)
    if questions:
        reader.questions[node.name] = tuple(questions)
    # NOTE: an attribute the handler sets itself is its own to read back.
    own = {use.attr for use in uses if isinstance(use.ctx, ast.Store)}
    public = sorted(n for n in known if not n.startswith("_"))
    for use in sorted(uses, key=lambda u: (u.lineno, u.col_offset)):
        if use.attr in known or use.attr in own:
            continue
        close = difflib.get_close_matches(use.attr, public, n=1)
        advice = f"did you mean {close[0]!r}?" if close else f"it has {', '.join(public)}"
        reader.error(reader.attr_span_node(use), f"Context has no attribute {use.attr!r}; {advice}")


def config_collisions(name: str, commands: Iterable[Command]) -> list[Diagnostic]:
    """A warning at each default that names the file a `config=True` tool reads its
    configuration from in the working directory (`./NAME.json`): once a command writes it,
    every command reads it as configuration, and refuses it."""
    from burgee.runtime.execution.sources import _CONFIG_FILES  # noqa: PLC0415

    files = {f.format(name=name) for f in _CONFIG_FILES if "{config}" not in f}
    warnings = []
    for command in commands:
        for param in command.params:
            default = param.default
            if isinstance(default, str) and os.path.normpath(default) in files:
                message = (
                    f"the default of {param.name!r}, {default!r}, is the file this tool reads "
                    f"its configuration from (config=True): once a command writes it, every "
                    f"command reads it as configuration; choose another name"
                )
                warnings.append(Diagnostic(span=param.span, level="warning", message=message))
    return warnings
