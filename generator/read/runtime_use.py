"""Which names the user code needs when it runs, as against only in its annotations.

The generated module is compiled as under `from __future__ import annotations`, so an
annotation is never evaluated: a name used only in annotations (`Literal`, `Optional`, a class
imported for a parameter's type) needs no import at run time, and its import goes under
`if TYPE_CHECKING:` where type checkers still read it. Importing `typing` alone costs a run
about as much as the rest of a plain command's start-up.

An annotation is evaluated after all where a library reads a class's annotations while the
class is made (pydantic, attrs, NamedTuple and TypedDict bases), and `dataclass` looks for
`ClassVar`, `InitVar` and `KW_ONLY` among its fields' annotations by name; so only a plain
class, or one decorated with `dataclass` alone, has annotations that never run, and those three
names always count.

`runtime_names()`: the names code uses when it runs, as against only in annotations (or in the
body of an `if TYPE_CHECKING:`); `type_only_aliases()`: the type aliases only annotations use
(through other such aliases), which `read/strip.py` puts under `if TYPE_CHECKING:`;
`module_level_names()`: those it uses while the module is defined (not in function bodies,
unless a top-level function or class is used then: it counts whole), but those it uses then
only to make its functions' default values (`at_definition()`: `Path(".")`, which a stand-in
makes until the first command); `start_notes()`, the note
at the first such use of a third-party module (its import then runs on every start);
`typing_notes()`, the note at the first run-time use of a `typing` name (parameters, returns,
variables; a class's annotations only where no library reads them: a plain class or a
`dataclass`, whose `ClassVar`/`InitVar`/`KW_ONLY` still count).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from burgee.model.diagnostics import Diagnostic, SourceSpan

#: Names `dataclass` looks for in its fields' annotations (as text, in the module's namespace).
_DATACLASS_MARKERS = frozenset({"ClassVar", "InitVar", "KW_ONLY"})


def runtime_names(tree: ast.AST) -> dict[str, ast.Name]:
    """Every name the code loads or stores when it runs, with its first such use (annotations
    that are never evaluated left out)."""
    found: dict[str, ast.Name] = {}
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name):
            found.setdefault(node.id, node)
            continue
        stack.extend(_evaluated_children(node))
    return found


def module_level_names(tree: ast.Module) -> dict[str, ast.Name]:
    """Every name the code uses while the module is defined (outside function bodies: class
    bases and bodies, decorators, default values, module-level statements), with its first
    such use; a top-level function or class that code uses then counts whole (it may be
    called then: `CONFIG = load()`, a decorator of the file's own). An import only function
    bodies use may wait for the first command (`_import_handlers`); so may one only
    `default_makers` uses."""
    return at_definition(tree)[0]


def at_definition(tree: ast.Module) -> tuple[dict[str, ast.Name], frozenset[str]]:
    """`module_level_names`, and `default_makers`: the names the module uses while it is
    defined only to make the default values of its functions (`Path(".")`, `dt.date(2026, 1,
    1)`, also as the items of a list or tuple), which are left out of the first."""
    every: list[ast.Name] = []
    found = _reached(tree, [(tree, False)], every)
    makers = _default_makers(tree, every, found)
    return {k: v for k, v in found.items() if k not in makers}, makers


def _default_makers(
    tree: ast.Module, every: list[ast.Name], found: dict[str, ast.Name]
) -> frozenset[str]:
    """Of the names `every` (each use while the module is defined), those only ever used as
    what a default value of a top-level function calls: a function without decorators, which
    nothing uses while the module is defined (`found`), so nothing sees its defaults before a
    command runs. Those defaults are constructed values of a standard type (docs/handlers.md,
    "Defaults") that the tool never uses, as its tables give every value itself: the generated
    module has a stand-in make them, and makes them again when it imports the name
    (`runtime/execution/later.py`)."""
    calls: set[int] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            if node.decorator_list or node.name in found:
                continue
            arguments = node.args
            for default in [*arguments.defaults, *arguments.kw_defaults]:
                calls.update(id(name) for name in _made(default))
    made = {name.id for name in every if id(name) in calls}
    return frozenset(made - {name.id for name in every if id(name) not in calls})


def _made(value: ast.expr | None) -> list[ast.Name]:
    """The names whose attribute or self `value` calls with literal arguments (`Path(".")`,
    `dt.date(2026, 1, 1)`), also as the items of a list or tuple."""
    if isinstance(value, ast.List | ast.Tuple):
        return [name for item in value.elts for name in _made(item)]
    if not isinstance(value, ast.Call):
        return []
    if not all(map(_literal, [*value.args, *(k.value for k in value.keywords if k.arg)])):
        return []
    if len(value.keywords) != sum(1 for k in value.keywords if k.arg):
        return []  # NOTE: `**kwargs`
    called = value.func
    while isinstance(called, ast.Attribute):
        called = called.value
    return [called] if isinstance(called, ast.Name) else []


def _literal(value: ast.expr) -> bool:
    """A constant, or a signed one (`-1`)."""
    if isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.USub | ast.UAdd):
        value = value.operand
    return isinstance(value, ast.Constant)


def names_reached(tree: ast.Module, name: str) -> set[str]:
    """The names the file's top-level function (or class) `name` uses when it runs, through
    every top-level function and class of the file it uses: a `complete=` function that
    reaches none of the imports that wait for the first command runs without them."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if node.name == name:
                return {name, *_reached(tree, [(node, True)])}
    return {name}


def _reached(
    tree: ast.Module, stack: list[tuple[ast.AST, bool]], every: list[ast.Name] | None = None
) -> dict[str, ast.Name]:
    """The names met walking `stack`'s nodes (`whole`: bodies included, else only what runs
    when the node is defined), each top-level definition a name loads walked whole, once
    (`every`: each use met, appended)."""
    defined = {
        node.name: node
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    }
    found: dict[str, ast.Name] = {}
    expanded: set[str] = {
        n.name
        for n, _ in stack
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    }
    while stack:
        node, whole = stack.pop()
        if isinstance(node, ast.Name):
            found.setdefault(node.id, node)
            if every is not None:
                every.append(node)
            loaded = isinstance(node.ctx, ast.Load)
            if loaded and node.id in defined and node.id not in expanded:
                expanded.add(node.id)
                stack.append((defined[node.id], True))
            continue
        children = _evaluated_children(node) if whole else _at_definition(node)
        stack.extend((child, whole) for child in children)
    return found


def _at_definition(node: ast.AST) -> list[ast.AST]:
    """The child nodes of `node` that run when it is defined: a function's decorators and
    default values, not its body."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
        arguments = node.args
        defaults = [*arguments.defaults, *(d for d in arguments.kw_defaults if d is not None)]
        decorators = [] if isinstance(node, ast.Lambda) else node.decorator_list
        return [*decorators, *defaults]
    return _evaluated_children(node)


def _evaluated_children(node: ast.AST) -> list[ast.AST]:
    """The child nodes of `node` that run, its unevaluated annotations left out."""
    if type(node) is ast.arg:
        return []  # NOTE: a parameter is its name and its annotation, which never runs
    if type(node) is ast.If and is_type_checking(node.test):
        return [node.test, *node.orelse]  # NOTE: its body is for type checkers alone
    read = isinstance(node, ast.ClassDef) and not _annotations_never_read(node)
    returns = node.returns if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) else None
    children: list[ast.AST] = []
    # NOTE: `ast.iter_child_nodes`' order, without its generators: the walk visits every node
    # of the handlers' code, twice.
    for field in node._fields:
        value = getattr(node, field, None)
        for child in value if type(value) is list else (value,):
            if not isinstance(child, ast.AST) or child is returns:
                continue
            if type(child) is ast.AnnAssign and not (read or _marks_dataclass(child)):
                children += [n for n in (child.target, child.value) if n is not None]
                continue
            children.append(child)
    return children


def is_type_checking(test: ast.expr) -> bool:
    """`TYPE_CHECKING` or `typing.TYPE_CHECKING`: false whenever the tool runs."""
    if isinstance(test, ast.Attribute):
        return test.attr == "TYPE_CHECKING"
    return isinstance(test, ast.Name) and test.id == "TYPE_CHECKING"


def type_only_aliases(tree: ast.Module) -> list[ast.stmt]:
    """The file's type aliases (`Store = Annotated[Path | None, Option(...)]`, `X: TypeAlias =
    ...`) that only annotations use, each assigned once at the top level on lines of its own:
    they go under `if TYPE_CHECKING:` and never run, as the imports annotations use do (on
    Python 3.9 `Path | None` cannot run). One alias another runs with runs too."""
    assigned: dict[str, list[ast.stmt]] = {}
    for statement in tree.body:
        for target in _targets(statement):
            assigned.setdefault(target, []).append(statement)
    aliases = {
        name: statements[0]
        for name, statements in assigned.items()
        if len(statements) == 1 and _alias(statements[0]) == name
    }
    if not aliases:
        return []
    ids = {id(statement) for statement in aliases.values()}
    needed: set[str] = set()
    for statement in tree.body:
        if id(statement) not in ids:
            needed.update(runtime_names(statement))
    waiting = [name for name in aliases if name in needed]
    while waiting:
        value = getattr(aliases[waiting.pop()], "value", None)
        for name in runtime_names(value) if value is not None else ():
            if name in aliases and name not in needed:
                waiting.append(name)
            needed.add(name)
    loaded = {
        n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    }
    lines: dict[int, int] = {}
    for statement in tree.body:
        for line in range(statement.lineno, (statement.end_lineno or statement.lineno) + 1):
            lines[line] = lines.get(line, 0) + 1
    return [
        statement
        for name, statement in aliases.items()
        if name not in needed
        and name in loaded
        and all(lines[n] == 1 for n in range(statement.lineno, (statement.end_lineno or 0) + 1))
        and not _multiline_string(statement)
    ]


def _targets(statement: ast.stmt) -> list[str]:
    """The names a top-level statement binds by assignment."""
    if isinstance(statement, ast.Assign):
        return [n.id for t in statement.targets for n in ast.walk(t) if isinstance(n, ast.Name)]
    if isinstance(statement, ast.AnnAssign | ast.AugAssign) and isinstance(
        statement.target, ast.Name
    ):
        return [statement.target.id]
    return []


def _alias(statement: ast.stmt) -> str | None:
    """The name a `NAME = VALUE` or `NAME: TypeAlias = VALUE` statement binds."""
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target = statement.targets[0]
        return target.id if isinstance(target, ast.Name) else None
    if isinstance(statement, ast.AnnAssign) and statement.value is not None:
        annotation = statement.annotation
        named = getattr(annotation, "id", getattr(annotation, "attr", None))
        if named == "TypeAlias" and isinstance(statement.target, ast.Name):
            return statement.target.id
    return None


def _multiline_string(statement: ast.stmt) -> bool:
    """A string over several lines, which indenting the statement would change."""
    return any(
        isinstance(n, ast.Constant)
        and isinstance(n.value, str | bytes)
        and n.lineno != n.end_lineno
        for n in ast.walk(statement)
    )


def _annotations_never_read(node: ast.ClassDef) -> bool:
    if node.bases or node.keywords:
        return False
    return all(_is_dataclass(d) for d in node.decorator_list)


def _is_dataclass(decorator: ast.expr) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    if isinstance(target, ast.Name):
        return target.id == "dataclass"
    return (
        isinstance(target, ast.Attribute)
        and target.attr == "dataclass"
        and isinstance(target.value, ast.Name)
        and target.value.id == "dataclasses"
    )


def _marks_dataclass(statement: ast.AnnAssign) -> bool:
    names = {n.id for n in ast.walk(statement.annotation) if isinstance(n, ast.Name)}
    attributes = {n.attr for n in ast.walk(statement.annotation) if isinstance(n, ast.Attribute)}
    return bool((names | attributes) & _DATACLASS_MARKERS)


def typing_notes(
    tree: ast.Module,
    span: Callable[[ast.AST], SourceSpan],
    at_run_time: tuple[tuple[str, str], ...],
) -> list[Diagnostic]:
    """A note at the first use of a `typing` name that makes the tool import `typing` on
    every run (names only annotations use are imported for type checkers alone)."""
    if not at_run_time:
        return []
    name, module = at_run_time[0]
    found: ast.AST | None = module_level_names(tree).get(name)
    # NOTE: an import nothing uses still runs; the note is then at the first import.
    node = found or next(s for s in tree.body if isinstance(s, ast.Import | ast.ImportFrom))
    others = sorted({n for n, _ in at_run_time} - {name})
    also = f" (and {', '.join(others)})" if others else ""
    message = (
        f"the tool imports {module} on every run, which costs about as much as the rest of a "
        f"command's start-up: {name}{also} is used here outside annotations; names used only "
        f"in annotations are never imported when the tool runs"
    )
    return [Diagnostic(span=span(node), level="note", message=message)]


def start_notes(
    tree: ast.Module,
    span: Callable[[ast.AST], SourceSpan],
    eager: tuple[tuple[str, str], ...],
    third_party: set[str],
) -> list[Diagnostic]:
    """A note at the first use, while the module is defined, of each third-party module's
    name: its import runs on every start of the tool, where one only functions use runs
    when the first command does."""
    notes: list[Diagnostic] = []
    uses: dict[str, ast.Name] | None = None
    noted: set[str] = set()
    for name, module in eager:
        root = module.split(".")[0]
        if root not in third_party or root in noted:
            continue
        if uses is None:
            uses = module_level_names(tree)  # NOTE: walked only for a third-party name
        if name not in uses:
            continue
        noted.add(root)
        message = (
            f"the tool imports {root} on every start (help, schema, completion, MCP lists): "
            f"{name} is used here when the module is defined; an import only functions use "
            "runs when the first command runs"
        )
        notes.append(Diagnostic(span=span(uses[name]), level="note", message=message))
    return notes
