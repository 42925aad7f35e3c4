"""What the handlers use of `click` and `typer`, read statically: the packages the tool can do
without (every use is part of the runtime's stand-in, `runtime/execution/frameworks.STAND_INS`),
and for each other one a note at the first use the stand-in lacks (the tool then needs the real
package, declared in its PEP 723 block).

`frameworks()`: what the handlers use of `click` and `typer`: the packages the runtime's
stand-in replaces (every use is `X.NAME` or `from X import NAME` of its `SURFACE`, read from
`runtime/execution/frameworks.STAND_INS`; then `Program.stand_ins`, no dependency), and a note
at the first use beyond it (the real package then).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass

from burgee.model.diagnostics import Diagnostic, SourceSpan
from burgee.read.runtime_use import is_type_checking
from burgee.read.source import imports
from burgee.read.source import tree as parsed
from burgee.runtime.execution.frameworks import STAND_INS

#: What each stand-in offers: its public names, and those of the namespaces it holds
#: (`click.exceptions.Exit`).
SURFACE: dict[str, dict[str, frozenset[str]]] = {
    package: {
        name: frozenset(n for n in vars(value) if not n.startswith("_"))
        if isinstance(value, type) and not issubclass(value, BaseException)
        else frozenset()
        for name, value in vars(stand_in).items()
        if not name.startswith("_")
    }
    for package, stand_in in STAND_INS.items()
}


@dataclass(frozen=True)
class Frameworks:
    """The framework packages the handlers import (`used`), and those the stand-in replaces."""

    used: tuple[str, ...] = ()
    stand_ins: tuple[str, ...] = ()
    notes: tuple[Diagnostic, ...] = ()


def frameworks(source: str, span: Callable[[ast.AST], SourceSpan]) -> Frameworks:
    """Which of `click` and `typer` the handlers import, and which the stand-in can replace:
    a package whose every use is `import X` then `X.NAME` (`X.NAME.INNER` into a namespace of
    the stand-in's), or `from X import NAME`, with NAME the stand-in's."""
    modules: dict[str, str] = {}  # local name -> package
    first_beyond: dict[str, tuple[ast.AST, str]] = {}
    used: set[str] = set()
    tree = parsed(source)
    checking = _type_checking_only(tree)
    for statement in imports(source):
        if id(statement) in checking:
            continue
        if isinstance(statement, ast.Import):
            for alias in statement.names:
                root = alias.name.split(".")[0]
                if root not in SURFACE:
                    continue
                used.add(root)
                if alias.name != root:
                    _beyond(first_beyond, root, (statement, alias.name))
                else:
                    modules[alias.asname or root] = root
        elif statement.level == 0 and statement.module:
            root = statement.module.split(".")[0]
            if root not in SURFACE:
                continue
            used.add(root)
            for alias in statement.names:
                if statement.module != root or alias.name not in SURFACE[root]:
                    _beyond(first_beyond, root, (statement, f"{statement.module}.{alias.name}"))
    if modules:
        _attribute_uses(tree, modules, first_beyond)
    notes = []
    for root in sorted(first_beyond):
        node, what = first_beyond[root]
        notes.append(
            Diagnostic(
                span=span(node),
                level="note",
                message=f"{what} is more than burgee's stand-in for {root}: the tool needs "
                f"{root} installed (its PEP 723 block declares it); with only "
                f"{', '.join(sorted(SURFACE[root]))} it would need neither",
            )
        )
    stand_ins = tuple(sorted(used - set(first_beyond)))
    return Frameworks(tuple(sorted(used)), stand_ins, tuple(notes))


def _beyond(found: dict[str, tuple[ast.AST, str]], root: str, use: tuple[ast.AST, str]) -> None:
    """Note `use` of `root` beyond the stand-in, when it comes before the one noted so far."""
    node, _ = use
    noted = found.get(root)
    where = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
    if noted is None or where < (
        getattr(noted[0], "lineno", 0),
        getattr(noted[0], "col_offset", 0),
    ):
        found[root] = use


def _type_checking_only(tree: ast.Module) -> set[int]:
    """The imports under `if TYPE_CHECKING:` (cookiecutter's `from click import Context`),
    which never run."""
    inside: set[int] = set()
    # NOTE: the module's own blocks (where such imports are): walking every node of a
    # 1,000-command file cost `gen` a tenth of a second
    for node in tree.body:
        if not isinstance(node, ast.If):
            continue
        if is_type_checking(node.test):
            for statement in node.body:
                if isinstance(statement, (ast.Import, ast.ImportFrom)):
                    inside.add(id(statement))
    return inside


def _annotations(tree: ast.Module) -> set[int]:
    """The nodes inside annotations, which never run (the tool is under `from __future__
    import annotations`): a type of the real package's there needs no package."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        marks: list[ast.AST | None] = []
        if isinstance(node, ast.arg):
            marks.append(node.annotation)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            marks.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            marks.append(node.annotation)
        for mark in marks:
            if mark is not None:
                inside.update(id(n) for n in ast.walk(mark))
    return inside


def _attribute_uses(
    tree: ast.Module, modules: dict[str, str], first_beyond: dict[str, tuple[ast.AST, str]]
) -> None:
    """Each use of a module's name (`click.echo`): beyond the stand-in, the first is noted."""
    parents: dict[int, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
    typing_only = _annotations(tree)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Name) or node.id not in modules or id(node) in typing_only:
            continue
        root = modules[node.id]
        parent = parents.get(id(node))
        if not isinstance(parent, ast.Attribute):
            # NOTE: the module itself passed around, or rebound: only the real one will do.
            _beyond(first_beyond, root, (node, node.id))
            continue
        surface = SURFACE[root]
        what = f"{root}.{parent.attr}"
        if parent.attr not in surface:
            _beyond(first_beyond, root, (parent, what))
            continue
        inner = surface[parent.attr]
        above = parents.get(id(parent))
        if inner and isinstance(above, ast.Attribute) and above.attr not in inner:
            _beyond(first_beyond, root, (above, f"{what}.{above.attr}"))
