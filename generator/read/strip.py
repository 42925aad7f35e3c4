"""Turn the handlers file into the user code carried into the generated module.

burgee's imports, decorators, `program(...)` and `group(...)` statements are removed,
`Annotated[T, Argument(...)]` becomes `T`, an injected `ctx: Context = None` gets a default
that type-checks, and `burgee.X` becomes `X`: text edits at the places `ast` gives. Everything
else is copied exactly as written (comments, blank lines, formatting).

What goes with a removed statement: the blank and comment lines just above it (a comment
about it), as far back as the statement before; what stays with a compound statement (a
function, a class): the comment and blank lines after it indented at least as far as its body
(where libcst, which burgee read with before, put them; the output did not change).

The handlers file minus burgee's markers (imports, decorators, `program()`, `group()`,
`Annotated[..., Option()]` metadata, `ctx: Context = None` → `INJECTED`, `burgee.X` → `X`), as
text edits at the places `ast` gives, everything else copied as written (comments, blank lines,
formatting; a removed statement takes the comment lines just above it, a function keeps the
comment lines after it indented as its body); it becomes the user code of the generated module.
Its imports are split by when they are needed: those whose names the code uses only in
annotations go under `if TYPE_CHECKING:` (`user_checking`), so a tool written with `from typing
import Annotated, Literal` never imports `typing` when it runs; those only function bodies use
(or nothing: a side effect a command may need) wait for the first command (`user_deferred`: the
generated `_import_handlers`), and so do those it uses then only to make its functions'
default values (`Path(".")`: `made_later`, stand-ins until then, `runtime/execution/later.py`);
those code uses while the module is defined (class bases, decorators, other default values,
module-level statements, and whatever a top-level function or class those use reads) run at
start-up (`user_imports`), and gen notes a `typing` name
(`typing_notes`) or a third-party module (`start_notes`) used so, at its first such use. It runs
while reading, and its result is part of the IR (`user_imports`, `user_checking`,
`user_deferred`, `user_code`).
"""

from __future__ import annotations

import ast
import bisect
from dataclasses import dataclass, field

from burgee.read.runtime_use import at_definition, runtime_names, type_only_aliases
from burgee.read.source import Text
from burgee.runtime.catalog import code_names, code_tree


@dataclass
class Removals:
    """What of the handlers file belongs to burgee, found while reading it."""

    #: Top-level statements to remove (by id), with the comments and blank lines above them.
    statements: set[int] = field(default_factory=set)
    #: Text edits: (start, end, replacement), indices into the file's text.
    edits: list[tuple[int, int, str]] = field(default_factory=list)

    def replace(self, text: Text, node: ast.AST, replacement: str) -> None:
        """Replace a node's text."""
        self.edits.append((text.start(node), text.end(node), replacement))

    def remove_decorator(
        self, text: Text, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef, index: int
    ) -> None:
        """Remove a decorator's lines, with the comment lines between it and the one before."""
        decorator = node.decorator_list[index]
        if index:
            first = (node.decorator_list[index - 1].end_lineno or 0) + 1
        else:
            first = decorator.lineno
        last = decorator.end_lineno or decorator.lineno
        self.edits.append((text.starts[first - 1], text.starts[last], ""))


@dataclass
class _Unit:
    """One top-level statement line (statements joined by `;` are one), as libcst saw it."""

    statements: list[ast.stmt]
    #: First and last line of the statement itself, and the first of the lines above it
    #: that go with it (blank and comment lines after the statement before).
    first: int
    last: int
    lead: int


@dataclass(frozen=True)
class Stripped:
    """The user code without burgee's markers."""

    #: The import statements the code needs when it runs.
    imports: str
    #: Those whose names the code uses only in annotations (for `if TYPE_CHECKING:`).
    checking: str
    #: Everything else.
    code: str
    #: (name, module) of each `typing`/`typing_extensions` name the code uses when the module
    #: is defined (one only functions use waits for the first command, as `deferred` does).
    typing_at_run_time: tuple[tuple[str, str], ...] = ()
    #: The imports whose names only function bodies use (none at all: a side effect a
    #: command may need): they run when the first command runs (`_import_handlers`).
    deferred: str = ""
    #: (name, module) of each name imported for code that runs when the module is defined.
    eager: tuple[tuple[str, str], ...] = ()
    #: The pydantic models' classes: made when the first command runs (`_import_handlers`),
    #: never at start-up (help, schema and completion read them statically).
    models: str = ""
    #: The names of `deferred` the module uses while it is defined only to make its functions'
    #: defaults (`Path(".")`): a stand-in makes those until `_import_handlers` imports them.
    made_later: tuple[str, ...] = ()


def strip(
    text: Text, tree: ast.Module, removals: Removals, models: frozenset[str] = frozenset()
) -> Stripped:
    """The user code without burgee's markers, its imports split by when they are needed
    (`models`: the classes that wait for the first command, with what only they import)."""
    units = _units(text, tree)
    kept = [u for u in units if not any(id(s) in removals.statements for s in u.statements)]
    if kept and _is_docstring(kept[0]):
        kept = kept[1:]
    edits = sorted(removals.edits)
    newline = _newline(text)
    imports: list[_Unit] = []
    rest: list[str] = []
    waiting: list[str] = []
    for unit in kept:
        if all(isinstance(s, ast.Import | ast.ImportFrom) for s in unit.statements):
            imports.append(unit)
            continue
        if all(isinstance(s, ast.ClassDef) and s.name in models for s in unit.statements):
            waiting.append(_edited(text, (unit.first, unit.last), edits, newline))
            continue
        # NOTE: the lines above the file's first statement are its header, nobody's.
        lead = unit.lead if unit is not units[0] else unit.first
        rest.append(_edited(text, (lead, unit.last), edits, newline))
    rest_code = "".join(rest)
    code = rest_code.strip("\r\n") + newline if rest_code.strip() else ""
    parsed = code_tree(code)
    aliases = type_only_aliases(parsed) if code else []
    if aliases:
        code = _checking_only(code, aliases, newline)
        parsed = code_tree(code)
    # NOTE: the names of the code as the IR keeps it: rendering asks about the same text.
    model_code = "".join(waiting)
    used = code_names(code) | (code_names(model_code) if model_code else frozenset())
    running = frozenset(runtime_names(parsed)) if code else frozenset()
    if model_code:
        running |= frozenset(runtime_names(code_tree(model_code)))
    found, makers = at_definition(parsed) if code else ({}, frozenset())
    defining = frozenset(found)
    pruned = [_pruned(text, unit, (used, running, defining), newline) for unit in imports]
    deferred = "".join(p.deferred for p in pruned)
    return Stripped(
        imports="".join(p.imports for p in pruned),
        checking="".join(p.checking for p in pruned),
        code=code,
        typing_at_run_time=tuple(t for p in pruned for t in p.typing_at_run_time),
        deferred=deferred,
        eager=tuple(e for p in pruned for e in p.eager),
        models=model_code,
        made_later=tuple(sorted(makers & _bound_by(deferred))),
    )


def _bound_by(imports: str) -> frozenset[str]:
    """The names import statements bind."""
    return frozenset(
        _bound(alias)
        for statement in ast.parse(imports).body
        if isinstance(statement, ast.Import | ast.ImportFrom)
        for alias in statement.names
    )


def _checking_only(code: str, aliases: list[ast.stmt], newline: str) -> str:
    """`code` with each of `aliases` (statements on lines of their own) under `if
    TYPE_CHECKING:`, where type checkers read it and the tool never runs it; aliases on
    consecutive lines share one."""
    runs: list[list[int]] = []
    for statement in aliases:
        first, last = statement.lineno - 1, statement.end_lineno or statement.lineno
        if runs and runs[-1][1] == first:
            runs[-1][1] = last
        else:
            runs.append([first, last])
    lines = code.splitlines(keepends=True)
    for first, last in reversed(runs):
        body = ["    " + line if line.strip() else line for line in lines[first:last]]
        lines[first:last] = ["if TYPE_CHECKING:  # only annotations use these" + newline, *body]
    return "".join(lines)


def _units(text: Text, tree: ast.Module) -> list[_Unit]:
    units: list[_Unit] = []
    previous_end = 0
    for statement in tree.body:
        first = statement.lineno
        decorators = getattr(statement, "decorator_list", None)
        if decorators:
            first = min(first, decorators[0].lineno)
        last = statement.end_lineno or first
        if units and first == units[-1].last and not _compound(statement):
            units[-1].statements.append(statement)
            units[-1].last = last
            previous_end = last
            continue
        if units:
            units[-1].last = _with_footer(text, units[-1], first)
            previous_end = units[-1].last
        units.append(_Unit([statement], first, last, previous_end + 1))
    if units:
        units[-1].last = _with_footer(text, units[-1], len(text.lines) + 1)
    return units


def _compound(statement: ast.stmt) -> bool:
    return hasattr(statement, "body") or isinstance(statement, ast.Match)


def _with_footer(text: Text, unit: _Unit, before: int) -> int:
    """The last line of a statement with the comment lines after it that belong to its body
    (indented at least as far), up to the line `before`."""
    statement = unit.statements[-1]
    if isinstance(statement, ast.Match):
        inner: ast.AST = statement.cases[0].pattern
        line = text.lines[inner.lineno - 1]  # type: ignore[attr-defined]
        prefix = line[: len(line) - len(line.lstrip(" \t\f"))]
    else:
        body = getattr(statement, "body", None)
        if not body or not isinstance(body, list):
            return unit.last
        inner = body[0]
        line = text.lines[inner.lineno - 1]  # type: ignore[attr-defined]
        prefix = line[: text.column(inner.lineno, inner.col_offset) - 1]  # type: ignore[attr-defined]
    if prefix.strip():
        return unit.last  # NOTE: a body on the header's line (`def f(): pass`)
    last = unit.last
    for number in range(unit.last + 1, before):
        line = text.lines[number - 1]
        # NOTE: a comment or blank line indented at least as the body (its indentation
        # starts with the body's), as libcst assigned them.
        rest = line.lstrip(" \t\f")
        if (rest.startswith("#") or not rest.strip("\r\n")) and line.startswith(prefix):
            last = number
    return last


def _edited(
    text: Text, lines: tuple[int, int], edits: list[tuple[int, int, str]], newline: str
) -> str:
    """Lines `first` to `last` of the file with the edits (sorted) that fall in them applied."""
    first, last = lines
    begin, end = text.starts[first - 1], text.starts[min(last, len(text.lines))]
    pieces: list[str] = []
    at = begin
    for start, stop, replacement in edits[bisect.bisect_left(edits, (begin,)) :]:
        if start >= end:
            break
        if start < at:
            continue  # NOTE: inside a larger edit already made
        pieces += [text.source[at:start], replacement]
        at = stop
    pieces.append(text.source[at:end])
    code = "".join(pieces)
    if code and not code.endswith(("\n", "\r")):
        code += newline
    return code


def _newline(text: Text) -> str:
    first = text.lines[0] if text.lines else "\n"
    return "\r\n" if first.endswith("\r\n") else "\r" if first.endswith("\r") else "\n"


def _is_docstring(unit: _Unit) -> bool:
    statement = unit.statements[0]
    return (
        len(unit.statements) == 1
        and isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str | bytes)
    )


def _pruned(
    text: Text,
    unit: _Unit,
    names: tuple[frozenset[str], frozenset[str], frozenset[str]],
    newline: str,
) -> Stripped:
    """An import line without `__future__` imports, typing names only burgee's markers used
    and `TYPE_CHECKING` (the generated module says `from __future__ import annotations` and
    defines `TYPE_CHECKING` itself, and every other __future__ feature is mandatory on the
    Pythons it supports), split into what runs when the module is defined, what only
    functions use (it runs with the first command) and what only annotations use. `names`:
    those the code uses at all, when it runs, and while the module is defined."""
    used, running, defining = names
    kept: list[str] = []
    checking: list[str] = []
    deferred: list[str] = []
    eager: list[tuple[str, str]] = []
    typing_names: list[tuple[str, str]] = []
    changed = False
    for statement in unit.statements:
        aliases, module = _imported(statement)
        if aliases is None:
            kept.append(text.code(statement))
            continue
        if module == "__future__":
            changed = True
            continue
        every = len(aliases)
        if module in _TYPING:
            aliases = [
                a
                for a in aliases
                if (a.asname or a.name) in used and (a.name, a.asname) != ("TYPE_CHECKING", None)
            ]
        at_start = [a for a in aliases if _bound(a) in defining]
        annotations = [a for a in aliases if _bound(a) in used and _bound(a) not in running]
        later = [a for a in aliases if a not in at_start and a not in annotations]
        eager += [(_bound(a), module or a.name) for a in at_start]
        if module in _TYPING or (module is None and any(a.name in _TYPING for a in aliases)):
            typing_names += [(_bound(a), module or a.name) for a in at_start]
        if len(at_start) == every:
            kept.append(text.code(statement))
            continue
        changed = True
        if at_start:
            kept.append(_statement(statement, at_start))
        if annotations:
            checking.append(_statement(statement, annotations) + newline)
        if later:
            deferred.append(_statement(statement, later) + newline)
    found = tuple(typing_names)
    if not changed:
        whole = _edited(text, (unit.first, unit.last), [], newline)
        return Stripped(
            imports=whole, checking="", code="", typing_at_run_time=found, eager=tuple(eager)
        )
    line = "; ".join(kept) + newline if kept else ""
    return Stripped(
        imports=line,
        checking="".join(checking),
        code="",
        typing_at_run_time=found,
        deferred="".join(deferred),
        eager=tuple(eager),
    )


#: The modules whose names are annotations' own (`Literal`, `Optional`, `Annotated`, ...).
_TYPING = ("typing", "typing_extensions")


def _imported(statement: ast.stmt) -> tuple[list[ast.alias] | None, str | None]:
    """The names an absolute import binds and its module (None for `import a, b`); None for
    the names of a statement that is kept as written (relative or star imports)."""
    if isinstance(statement, ast.Import):
        return list(statement.names), None
    if isinstance(statement, ast.ImportFrom) and statement.level == 0:
        if statement.names[0].name != "*":
            return list(statement.names), statement.module or ""
    return None, None


def _bound(alias: ast.alias) -> str:
    return alias.asname or alias.name.split(".")[0]


def _statement(statement: ast.stmt, aliases: list[ast.alias]) -> str:
    names = ", ".join(a.name + (f" as {a.asname}" if a.asname else "") for a in aliases)
    if isinstance(statement, ast.ImportFrom):
        return f"from {statement.module} import {names}"
    return f"import {names}"
