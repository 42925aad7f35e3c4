"""Where each import of the generated module goes, and when it runs.

The handlers' imports are split when the file is read (`read/strip.py`): those only
annotations use go under `if TYPE_CHECKING:`; those only function bodies use wait for the
first command (or `complete=` function) that runs, in `_import_handlers`, which the runtime
calls once (`table._import_once`); the rest, used by code that runs when the module is
defined, run at the top of the module. A third-party import is guarded wherever it runs: a
missing package becomes `_Missing` (the tool still starts, describes itself and serves MCP; a
command that uses it fails as `missing_dependency`).

In the default form the runtime's own imports sit with its code, in the string `_boot` runs;
the module's top holds the start-up code's imports and the handlers'. In the plain form
(`gen --plain`) every import that runs at start-up is at the top.

`free_completers()`: the `complete=` functions that reach none of the names `_import_handlers`
binds, through the file's own functions and classes (`read/runtime_use.names_reached`), written
as `_FREE_COMPLETERS`; `placed()`: where each import of the generated module goes (`Placed`):
the top's import block (the start-up code's and the handlers' that run at start-up; in the plain
form the runtime's too), its `if TYPE_CHECKING:` block (the handlers' annotation-only and
deferred imports, the runtime's names the module's own code uses and, in the default form, their
stubs from `render/stubs.py` with those of `PUBLIC`, what a user's tests call: `main`, `invoke`,
`Context`, …), the guarded third-party imports (`third_party()`: a missing package becomes
`_Missing`), `_import_handlers` (`deferred_imports()`: the handlers' imports only function
bodies use, third-party ones guarded, run once by `runtime/execution/table._import_once`), and,
in the default form, the runtime's own imports and `TYPE_CHECKING` block, which go into the
string with its code.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from burgee.model.ir import Program
from burgee.model.literals import call, py
from burgee.read.runtime_use import names_reached
from burgee.render.imports import LIMIT, ImportBlock
from burgee.render.join import Joined
from burgee.render.stubs import stubs
from burgee.runtime.catalog import BOOT, IN_THE_CODE, ON_A_MISS, parse, stand_ins
from burgee.runtime.execution.frameworks import STAND_INS
from burgee.runtime.execution.records import MODELS_BEGIN

#: The runtime's names a user's tests of the tool call (`tool.invoke([...])`, `tool.main()`):
#: type checkers see them in the default form too, where the runtime is in the string.
PUBLIC = ("main", "invoke", "Invoked", "Context", "CommandError", "Outcome", "UsageError")
#: What the runtime defines when `typing` is not imported (its `cast` is a no-op at run time).
_CAST = [
    "else:",
    "",
    "    def cast(kind: object, value: object) -> object:",
    "        return value",
]


@dataclass(frozen=True)
class Placed:
    """The generated module's import blocks."""

    #: The module's import block.
    top: str
    #: Its `if TYPE_CHECKING:` block.
    checking: str
    #: The handlers' third-party imports that run at start-up, each guarded.
    guarded: str
    #: `_import_handlers`, the handlers' imports that wait for the first command; "" for none.
    deferred: str
    #: The default form's: the runtime's imports, and its `if TYPE_CHECKING:` block, in the string.
    runtime: str = ""
    runtime_checking: str = ""


def third_party(program: Program, source: str) -> tuple[str, list[str]]:
    """The import statements of `source` split in two: those of the standard library, and
    the third-party ones, each guarded (as lines)."""
    packages = dict(program.third_party)
    if not (packages or program.stand_ins) or not source.strip():
        return source, []
    plain: list[str] = []
    guarded: list[str] = []
    for statement in ast.parse(source).body:
        pieces: list[tuple[ast.stmt, str | None, list[str]]] = []
        if isinstance(statement, ast.Import):
            for alias in statement.names:
                top = alias.name.split(".")[0]
                pieces.append((ast.Import(names=[alias]), top, [alias.asname or top]))
        elif isinstance(statement, ast.ImportFrom) and statement.level == 0:
            top = (statement.module or "").split(".")[0]
            pieces.append((statement, top, [a.asname or a.name for a in statement.names]))
        else:
            pieces.append((statement, None, []))
        for node, root, names in pieces:
            code = ast.unparse(node)
            if root in program.stand_ins:
                guarded += _stand_in(node, str(root))
                continue
            if root is None or root not in packages:
                plain.append(code)
                continue
            missing = call("_Missing", [py(root), py(packages[root]), "_import_error"])
            guarded += [
                "try:",
                f"    {code}",
                "except ImportError as _import_error:",
                f"    {' = '.join(names)} = {missing}  # type: ignore",
                *_routed(node, root, program),
            ]
    return "\n".join(plain) + ("\n" if plain else ""), guarded


def _stand_in(node: ast.stmt, root: str) -> list[str]:
    """The names an import of `click` or `typer` binds, bound to the runtime's stand-in
    (`runtime/execution/frameworks.py`); type checkers see the package's own (the imports
    under `if TYPE_CHECKING:`)."""
    stand_in = STAND_INS[root].__name__
    if isinstance(node, ast.Import):
        return [f"{node.names[0].asname or root} = {stand_in}  # type: ignore"]
    assert isinstance(node, ast.ImportFrom)
    # NOTE: mypy may find a stand-in function of the package's own type: no error to ignore.
    ignore = "# type: ignore[assignment, unused-ignore]"
    return [f"{a.asname or a.name} = {stand_in}.{a.name}  {ignore}" for a in node.names]


def _routed(node: ast.stmt, root: str, program: Program) -> list[str]:
    """The real `click` or `typer`, imported, with its questions asked as the tool asks
    (`frameworks._Asking`): an `else:` of the guarded import, in a program that uses it."""
    if root not in program.frameworks:
        return []
    stand_in = STAND_INS[root].__name__
    if isinstance(node, ast.Import):
        bound = node.names[0].asname or root
        return ["else:", f"    {bound} = _Asking({bound})  # type: ignore"]
    assert isinstance(node, ast.ImportFrom)
    asked = [a for a in node.names if a.name in ("confirm", "prompt")]
    if not asked:
        return []
    return ["else:", *(f"    {a.asname or a.name} = {stand_in}.{a.name}" for a in asked)]


def deferred_imports(program: Program, taken: ImportBlock | None = None) -> tuple[str, str]:
    """`_import_handlers`: the handlers' imports that only function bodies use, run once
    before the first command or `complete=` function (`runtime/execution/table._import_once`), but
    those the module's top has (`taken`); and those imports, for type checkers."""
    if not program.user_deferred.strip() and not program.user_models:
        return "", ""
    block = ImportBlock.of(program.user_deferred).without(taken or ImportBlock())
    shown = block.render() if block.plain or block.names or block.verbatim else ""
    if not shown and not program.user_models:
        return "", ""
    plain, guarded = third_party(program, shown)
    eager = ImportBlock.of(plain)
    models = model_names(program)
    bound = sorted(block.bound())
    free = free_completers(program, {*bound, *models})
    lines = [
        "def _import_handlers() -> None:",
        '    """The handlers\' imports that only their functions use, and their pydantic models:',
        "    run once, before the first command or `complete=` function that needs them (not",
        '    for help or schema)."""',
        *_globals(bound),
        *(line for line in eager.render(indent="    ").splitlines() if line and plain.strip()),
        *(f"    {line}" for line in guarded),
        # NOTE: the models are written once, below, where type checkers read them.
        *(["    _run_models(globals())"] if models else []),
        *(["    _made(globals())"] if program.user_made_later else []),
        "",
        "",
        *([MODELS_BEGIN, *indented(program.user_models).splitlines(), "", ""] if models else []),
        "#: The `complete=` functions that use none of those imports: a TAB press runs them alone.",
        f"_FREE_COMPLETERS: frozenset[str] = frozenset({_names(free)})",
        *_made_later(program),
    ]
    return "\n".join(lines) + "\n", shown


def _made_later(program: Program) -> list[str]:
    """The stand-ins of the names the handlers' code uses while it is defined only to make
    its functions' defaults (`Path(".")`), until `_import_handlers` imports them and makes
    those defaults (`runtime/execution/later.py`)."""
    if not program.user_made_later:
        return []
    return [
        "",
        '#: What the handlers\' defaults call (`Path(".")`): noted until `_import_handlers`',
        "#: imports it and makes them; help, schema and the MCP lists never import it (`_Later`).",
        "if not TYPE_CHECKING:",
        *(f"    {name} = _Later({py(name)})" for name in program.user_made_later),
        "    _watch(globals())",
    ]


def _globals(names: list[str]) -> list[str]:
    """`global` statements of `names` under a `def`, as many as keep each within `LIMIT`
    (a `global` statement cannot be wrapped in parentheses)."""
    lines: list[str] = []
    for name in names:
        if lines and len(lines[-1]) + len(name) + 2 <= LIMIT:
            lines[-1] += f", {name}"
        else:
            lines.append(f"    global {name}")
    return lines


def model_names(program: Program) -> list[str]:
    """The classes `program.user_models` defines, in order."""
    if not program.user_models:
        return []
    tree = ast.parse(program.user_models)
    return [node.name for node in tree.body if isinstance(node, ast.ClassDef)]


def indented(code: str) -> str:
    """`code` one level deeper (four spaces), its strings' own lines left as written."""
    inside: set[int] = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Constant | ast.JoinedStr) and node.end_lineno != node.lineno:
            inside.update(range(node.lineno + 1, (node.end_lineno or node.lineno) + 1))
    return "".join(
        line if number in inside or not line.strip() else "    " + line
        for number, line in enumerate(code.splitlines(keepends=True), 1)
    )


def _names(names: list[str]) -> str:
    """A set display of `names` in order, or nothing (`frozenset()`)."""
    return "{" + ", ".join(py(name) for name in names) + "}" if names else ""


def free_completers(program: Program, bound: set[str]) -> list[str]:
    """The program's `complete=` functions that reach none of the names `bound` (those the
    imports of `_import_handlers` bind), through the file's own functions and classes."""
    params = [p for c in program.commands for p in c.params]
    params += [p for prompt in program.prompts for p in prompt.params]
    params += [p for resource in program.resources for p in resource.params]
    names = sorted({p.complete for p in params if p.complete})
    if not names:
        return []
    tree = ast.parse(program.user_code)
    return [name for name in names if not names_reached(tree, name) & bound]


def _checking_block(lines: list[str], code: list[str], tail: list[str]) -> str:
    """`if TYPE_CHECKING:` with the import lines (sorted, once), the code and an `else:`."""
    checking = ImportBlock()
    checking.add_source("\n".join(lines))
    # NOTE: within isort's default 88, as a handlers file's own block is likely written.
    body = checking.render(width=88, indent="    ").splitlines()
    body += ["", *(f"    {line}" for line in code)] if code else []
    if not any(line.strip() for line in body):
        body = ["    pass"]  # NOTE: never empty (the else branch may still be needed)
    return "\n".join(["if TYPE_CHECKING:", *body, *tail]) + "\n\n"


def placed(program: Program, joined: Joined, roots: set[str], *, plain: bool) -> Placed:
    """The import blocks of the module: `roots` are the names its own code (the handlers'
    and the tables') uses, which type checkers must see at its top in the default form.

    The runtime's own modules get private aliases (`import datetime as _datetime`), so they
    never clash with what the handlers file imports. `typing` is not imported at run time
    at all: it costs milliseconds of start-up that the tool has no use for.
    """
    eager, guarded = third_party(program, program.user_imports)
    top = ImportBlock.of(eager)
    if plain:
        top.add_source("\n".join(joined.imports))
    else:
        top.add_source("\n".join(i.text for i in parse(BOOT)[1] if not i.checking))
    deferred, waiting = deferred_imports(program, top)
    user = ImportBlock.of(eager).bound() | ImportBlock.of("\n".join(guarded)).bound()
    # NOTE: the runtime's `cast` stands in unless the handlers' imports bind it at the top.
    cast = [] if "cast" in user else _CAST
    # NOTE: the deferred imports, for type checkers, as if they ran at the top.
    user_checking = [program.user_checking, waiting]
    user |= ImportBlock.of("\n".join(user_checking)).bound()
    runtime_checking = [line for line in joined.checking if line.startswith(("import ", "from "))]
    runtime_code = [line for line in joined.checking if line not in runtime_checking]
    runtime_checking = [line for line in runtime_checking if line.rsplit(" ", 1)[-1] not in user]
    common = {"guarded": "\n".join(guarded) + ("\n" if guarded else ""), "deferred": deferred}
    if plain:
        checking = _checking_block([*user_checking, *runtime_checking], runtime_code, cast)
        return Placed(top=top.render(), checking=checking, **common)
    boot_checking = [i.text for i in parse(BOOT)[1] if i.checking]
    # NOTE: the runtime's annotation-only names the module's own code uses (`Any`, `cast`).
    wanted = [line for line in runtime_checking if line.rsplit(" ", 1)[-1] in roots]
    shown = top.render()
    stub_imports, stub_code = _stubbed(joined, roots)
    return Placed(
        top=shown,
        # NOTE: `cast` at the top: the module's own code calls it too (a TypedDict's converter).
        checking=_checking_block(
            [*boot_checking, *user_checking, *wanted, stub_imports], stub_code, cast
        ),
        runtime=_without(ImportBlock.of("\n".join(joined.imports)).render(), shown),
        runtime_checking=_checking_block(runtime_checking, runtime_code, []),
        **common,
    )


def _stubbed(joined: Joined, roots: set[str]) -> tuple[str, list[str]]:
    """The stubs of the runtime names the module's own code uses, and of those a user's
    tests call (`PUBLIC`), for type checkers and linters (the runtime itself is in the
    string): their imports, and their code."""
    defined = {"cast", *stand_ins()}
    boot = parse(BOOT)[0]
    in_string = ON_A_MISS | IN_THE_CODE
    defined |= {name for chunk in boot for name in chunk.binds} - in_string
    # NOTE: the start-up code calls what a cache miss needs, and what runs once the code has,
    # which are in the string.
    missed = {name for chunk in boot if not chunk.binds & in_string for name in chunk.uses}
    names = ((roots | set(PUBLIC)) & joined.bound | (missed & in_string)) - defined
    text = stubs(names, defined=defined)
    tree = ast.parse(text)
    code = next(
        (node for node in tree.body if not isinstance(node, ast.Import | ast.ImportFrom)), None
    )
    if code is None:
        return text, []
    first = min([code.lineno, *(d.lineno for d in getattr(code, "decorator_list", ()))])
    lines = text.splitlines()
    return "\n".join(lines[: first - 1]), lines[first - 1 :]


def _without(block: str, taken: str) -> str:
    """`block` minus the import lines `taken` already has."""
    done = {line for line in taken.splitlines() if line.startswith(("import ", "from "))}
    return "\n".join(line for line in block.splitlines() if line not in done).lstrip("\n") + "\n"
