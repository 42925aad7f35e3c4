"""The commands and groups read from a Typer or Click program, written over it in burgee's
dialect: the tree they make (`Layout`), each command's decorator and parameter list, the
groups at the file's head, the framework's imports left out once nothing uses them.

`write_click` and `write_layout` write it: the decorators, keyword-only parameter lists with
the groups' shared options, the names the tool keeps for itself renamed, and the framework's
declarations and unused imports dropped (`read/dialects/emit.py` writes each piece's text)."""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field

from burgee.model.reserved import RUNTIME_IMPORTS, RUNTIME_NAMES
from burgee.read.dialects.click import CONTEXT, ClickReading, Found
from burgee.read.dialects.common import (
    BURGEE,
    Param,
    Reading,
    Rewrite,
    auto_env,
    auto_env_prefix,
)
from burgee.read.dialects.emit import (
    GroupOut,
    command_decorator,
    default,
    head,
    head_offset,
    parameter_list,
    parameter_span,
    shared_alias,
)
from burgee.read.imports import _is_main_block, installed_version
from burgee.read.naming import same_import

#: What of a command's decorator burgee's `@command` says too.
_COMMAND_OPTIONS = ("hidden", "deprecated", "short_help")


@dataclass
class Layout:
    """The program's tree: its own facts, its groups by function, the commands placed."""

    program: dict[str, object] = field(default_factory=dict)
    shared: list[Param] = field(default_factory=list)
    groups: dict[str, GroupOut] = field(default_factory=dict)
    #: (the command, the group path it is in, whether it is the root command)
    commands: list[tuple[Found, tuple[str, ...], bool]] = field(default_factory=list)
    #: Each group's function (Click) or callback (Typer), by the group's path: it runs after
    #: parsing, before the command, as Click runs it. Whether it keeps its own signature
    #: (Click: its context or obj first, by position) or is called with keywords (Typer).
    callbacks: dict[tuple[str, ...], tuple[Found, bool]] = field(default_factory=dict)


def write_click(click: ClickReading, rewrite: Rewrite) -> set[str]:
    """Write a Click program over itself in burgee's dialect; the modules no longer used."""
    reading = click.reading
    found = click.found
    parents = _click_parents(click)
    roots = [k for k, f in found.items() if f.group and parents[k] is None]
    layout = Layout()
    if len(roots) > 1:
        for extra in roots[1:]:
            reading.error(found[extra].node, "a second top-level group: a program has one")
        return set()
    root = roots[0] if roots else None
    paths: dict[str, tuple[str, ...]] = {}

    def path_of(key: str) -> tuple[str, ...] | None:
        if key == root:
            return ()
        if key in paths:
            return paths[key]
        parent = parents.get(key)
        if parent is None or parent not in found or not found[parent].group:
            return None
        above = path_of(parent)
        if above is None:
            return None
        paths[key] = (*above, found[key].name)
        return paths[key]

    _no_group_callbacks(click)
    if root is not None:
        top = found[root]
        layout.program["description"] = top.options.get("help") or _docstring(top.node)
        layout.shared = top.params
        layout.callbacks[()] = (top, True)
        remove_decorators(reading, rewrite, top.node, "")
    for key, item in found.items():
        if not item.group or key == root:
            continue
        where = path_of(key)
        if where is None:
            reading.error(item.node, f"group {item.name} is in no group of the program")
            continue
        layout.groups[key] = GroupOut(
            where, help=str(item.options.get("help") or _summary(item.node)), shared=item.params
        )
        layout.callbacks[where] = (item, True)
        remove_decorators(reading, rewrite, item.node, "")
    alone = [k for k, f in found.items() if not f.group and parents[k] is None]
    for key, item in found.items():
        if item.group:
            continue
        if root is None and len(alone) == 1:
            layout.commands.append((item, (), True))
            continue
        parent = parents[key]
        where = path_of(parent) if parent is not None else None
        if where is None:
            reading.error(item.node, f"command {item.name} is in no group of the program")
            continue
        is_default = (
            root is not None and parent == root and found[root].default_command == (item.name)
        )
        layout.commands.append((item, where, is_default))
    if click.version:
        layout.program["version"] = click.version
    top_key = root if root is not None else (alone[0] if len(alone) == 1 else None)
    _click_auto_env(click, layout, top_key, alone=root is None)
    write_layout(reading, rewrite, layout)
    drop_declarations(reading, rewrite, "add_command")
    _drop_option_helpers(reading, rewrite, click)
    dropped = drop_imports(
        reading, rewrite, {"click", "click_default_group"}, click.modules | set(click.members)
    )
    _drop_default_group(reading, rewrite)
    return dropped


def _click_parents(click: ClickReading) -> dict[str, str | None]:
    """Each command's and group's group (None: at the top), `add_command`'s included (which
    may rename what it adds)."""
    parents: dict[str, str | None] = {}
    for key, item in click.found.items():
        if key in click.added:
            parents[key], renamed = click.added[key]
            if renamed:
                item.name = renamed
        else:
            parents[key] = item.parent
    return parents


def _no_group_callbacks(click: ClickReading) -> None:
    """A group's option with a callback is an error: it runs code while parsing; so is one
    that is a bool taking a value (made one in a command's body, which a group has not)."""
    for item in click.found.values():
        for param in item.params if item.group else []:
            if param.bool_value:
                click.reading.error(
                    param.node,
                    f"{param.name}: a group's bool option that takes a value is not supported: "
                    "make it a flag (is_flag=True or --x/--no-x)",
                )
            elif param.callback:
                click.reading.error(
                    param.node,
                    "a callback on a group's option runs code while parsing, which a static "
                    "reading cannot follow: check the value in the group's body instead",
                )


def _drop_default_group(reading: Reading, rewrite: Rewrite) -> None:
    """`from click_default_group import DefaultGroup` (or a vendored copy's relative import)
    once only `cls=` named it: the tool's default command is its own, and the import would
    need the package (or, relative, fail in one file)."""
    for node in ast.walk(reading.tree):
        if not (isinstance(node, ast.ImportFrom) and node.module == "click_default_group"):
            continue
        bound = {a.asname or a.name for a in node.names}
        used = any(
            isinstance(n, ast.Name) and n.id in bound and not rewrite.covers(n)
            for n in ast.walk(reading.tree)
        )
        if not used and not rewrite.covers(node):
            remove_statement(reading, rewrite, node)


def _click_auto_env(click: ClickReading, layout: Layout, top: str | None, alone: bool) -> None:
    """Click's `auto_envvar_prefix` naming of env vars, where a group or command sets it in
    its `context_settings` (or the program calls its top function with it)."""
    prefixes: dict[tuple[str, ...], str] = {}
    places: list[tuple[str | None, tuple[str, ...]]] = [(top, ())]
    places += [(key, group.path) for key, group in layout.groups.items()]
    for item, where, is_root in layout.commands:
        key = next((k for k, f in click.found.items() if f is item), None)
        places.append((key, where if is_root and alone else (*where, item.name)))
    for key, where in places:
        given = click.found[key].options.get("auto_envvar_prefix") if key is not None else None
        if isinstance(given, str):
            prefixes[where] = given
    called = auto_env_prefix(click.reading, top) if top is not None else None
    if called and () not in prefixes:
        prefixes[()] = called
    if not prefixes:
        return
    auto_env(layout.shared, (), prefixes)
    for group in layout.groups.values():
        auto_env(group.shared, group.path, prefixes)
    for item, where, is_root in layout.commands:
        auto_env(item.params, where if is_root and alone else (*where, item.name), prefixes)


def write_layout(reading: Reading, rewrite: Rewrite, layout: Layout) -> None:
    """The commands' decorators and parameters, and the head with the program and groups."""
    if reading.version_short:
        layout.program["version_short"] = reading.version_short
    if reading.version_callback and not layout.program.get("version"):
        # NOTE: what the callback prints is code's; the installed distribution's is the
        # version it prints in the apps seen (uvicorn's `uvicorn.__version__`)
        found = installed_version(reading.place.path)
        if found:
            layout.program["version"] = found
    groups = {g.path: g for g in layout.groups.values()}
    for item, where, root in layout.commands:
        group = groups.get(where) if where else None
        extra = {k: item.options[k] for k in _COMMAND_OPTIONS if item.options.get(k)}
        decorator = command_decorator(item.name, group, root=root, extra=extra)
        remove_decorators(reading, rewrite, item.node, decorator)
        start, end = parameter_span(reading, item.node)
        shared = [(shared_alias((), p), p) for p in layout.shared]
        for depth in range(1, len(where) + 1):
            above = groups.get(where[:depth])
            if above is not None:
                shared += [(shared_alias(above.path, p), p) for p in above.shared]
        prologue = _prologue(layout, item, () if root and not where else where)
        context = item.context or (CONTEXT if prologue else None)
        text = parameter_list(item.params, context)
        _help_and_prologue(reading, rewrite, item, prologue(context or CONTEXT) if prologue else [])
        own = {p.name for p in item.params}
        for _, clash in shared:
            if clash.name in own:
                reading.error(
                    item.node,
                    f"command {item.name} has a parameter {clash.name}, as an option of its "
                    "group's has: Click gives each its own value, but a group's option is each "
                    "of its commands' own option too in the tool (given before the command or "
                    "after it), so the two would be one: rename one of them",
                )
        added = [
            f"{p.name}: {alias}" + ("" if default(p) is None else f" = {default(p)}")
            for alias, p in shared
            if p.name not in own
        ]
        if added:
            joined = ",\n    ".join(added)
            text = f"{text}    {joined},\n" if text else f"\n    *,\n    {joined},\n"
        rewrite.replace_span(start, end, text)
    program = dict(layout.program)
    program["shared"] = layout.shared
    rename_clashes(reading, rewrite)
    text = head(program, list(layout.groups.values()))
    emitted = text + "".join(edit[2] for edit in rewrite.edits)
    modules = "".join(
        f"import {m} as _{m}\n"
        for m in ("datetime", "pathlib", "sys", "typing", "uuid")
        if f"_{m}." in emitted
    )
    at = head_offset(reading)
    rewrite.replace_span(at, at, modules + text)


def _prologue(
    layout: Layout, item: Found, where: tuple[str, ...]
) -> Callable[[str], list[str]] | None:
    """What a command runs first, given its context's name: its groups' callbacks, the root
    first, with their options' values, then `pass_obj`'s obj; None when nothing."""
    along = [
        (layout.callbacks.get(where[:depth]), [*where, item.name][depth])
        for depth in range(len(where) + 1)
    ]
    found = [(f[0], f[1], below) for f, below in along if f and not _empty(f[0].node)]
    checks = [p for p in item.params if p.callback]
    bools = [p for p in item.params if p.bool_value]
    if not found and item.obj is None and not checks and not bools:
        return None

    def lines(context: str) -> list[str]:
        out = []
        for callback, own, below in found:
            # NOTE: Click's `ctx.invoked_subcommand`, which a group's function often asks
            out.append(f"{context}.invoked_subcommand = {below!r}")
            name = callback.node.name
            name = f"{name}_" if name in RUNTIME_NAMES else name  # NOTE: as rename_clashes
            args = [f"{p.name}={p.name}" for p in callback.params]
            if own and (callback.context or callback.obj):
                args.insert(0, f"{context}.obj" if callback.obj else context)
            elif callback.context:
                args.insert(0, f"{callback.context}={context}")
            call = f"{name}({', '.join(args)})"
            out.append(f"await {call}" if isinstance(callback.node, ast.AsyncFunctionDef) else call)
        for param in bools:
            out += _bool_of_text(param)
        if checks:
            # NOTE: Click's order: the group's function, then the command's parameters, each
            # callback given the context (`ctx.params`: the values), the parameter, the value
            values = ", ".join(f"{p.name!r}: {p.name}" for p in item.params)
            out.append(f"{context}.params = {{{values}}}")
        for param in checks:
            opts = param.flags or [param.name]
            shown = param.name.upper() if param.argument else "/".join(opts)
            about = (
                f"__import__('types').SimpleNamespace(name={param.name!r}, opts={opts!r}, "
                f"human_readable_name={shown!r})"
            )
            call = param.callback or ""
            call = f"{call}_" if call in RUNTIME_NAMES else call  # NOTE: as rename_clashes
            out.append(f"{param.name} = ({call})({context}, {about}, {param.name})")
            out.append(f"{context}.params[{param.name!r}] = {param.name}")
        if item.obj is not None:
            out.append(f"{item.obj} = {context}.obj")
        return out

    return lines


#: The words Click's BOOL reads (after `strip().lower()`).
_BOOL_WORDS = {
    **dict.fromkeys(("1", "true", "t", "yes", "y", "on"), True),
    **dict.fromkeys(("0", "false", "f", "no", "n", "off"), False),
}


def _bool_of_text(param: Param) -> list[str]:
    """A bool that takes a value, made one from its text as Click's BOOL makes it: a word
    it does not read is a usage error naming the option."""
    name = param.name
    flag = (param.flags or [f"--{name}"])[-1]
    return [
        f"if isinstance({name}, str):",
        f"    {name} = {_BOOL_WORDS!r}.get({name}.strip().lower(), {name})",
        f"if isinstance({name}, str):",
        f"    raise {BURGEE}.BadParameter(f'{{{name}!r}} is not a valid boolean', "
        f"param_hint={flag!r})",
    ]


def _help_and_prologue(reading: Reading, rewrite: Rewrite, item: Found, lines: list[str]) -> None:
    """A command's `help=` as its docstring (Click's help= wins over the docstring), then what
    it runs first."""
    given = item.options.get("help")
    if isinstance(given, str) and given:
        doc = item.node.body[0] if ast.get_docstring(item.node) else None
        if doc is not None:
            rewrite.replace(doc, repr(given))
        else:
            lines = [repr(given), *lines]
    if lines:
        _insert_in_body(reading, rewrite, item.node, lines)


def _empty(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A function whose body is a docstring, `pass` or `...` alone."""
    body = [
        s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
    ]
    return all(isinstance(s, ast.Pass) for s in body)


def _insert_in_body(
    reading: Reading,
    rewrite: Rewrite,
    node: ast.FunctionDef | ast.AsyncFunctionDef,
    lines: list[str],
) -> None:
    """Statements put first in a function's body (after its docstring)."""
    text = reading.text
    body = node.body
    has_doc = ast.get_docstring(node) is not None and not lines[0].startswith(("'", '"'))
    first = body[1] if len(body) > 1 and has_doc else body[0]
    indent = " " * first.col_offset
    code = "".join(f"{indent}{line}\n" for line in lines)
    if first is body[0] and has_doc:  # NOTE: a docstring alone: after it
        line = first.end_lineno or first.lineno
        at = text.starts[line] if line < len(text.starts) else len(text.source)
        rewrite.replace_span(at, at, code)
    else:
        at = text.starts[first.lineno - 1]
        rewrite.replace_span(at, at, code)


def remove_decorators(
    reading: Reading, rewrite: Rewrite, node: ast.FunctionDef | ast.AsyncFunctionDef, new: str
) -> None:
    text = reading.text
    if not node.decorator_list:
        at = text.starts[node.lineno - 1]  # NOTE: `typer.run(main)`: a function as it is
        rewrite.replace_span(at, at, new)
        return
    first = min(d.lineno for d in node.decorator_list)
    rewrite.replace_span(text.starts[first - 1], text.starts[node.lineno - 1], new)


def rename_clashes(reading: Reading, rewrite: Rewrite) -> None:
    """A top-level function named as one of the generated module's own names (`main`, `run`)
    is renamed with a trailing underscore, and every use of it with it: the whole program is
    one module by now, and a command's name is written out in its decorator. So is a name the
    module's own imports bind (`from click import Context`, under `TYPE_CHECKING` too), as the
    bundler renames a bundled module's (`read/imports.py`), unless a function binds the name
    for itself (then burgee's check says to import it under another name)."""
    clashing = {
        s.name
        for s in reading.tree.body
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name in RUNTIME_NAMES
    }
    aliases = _module_imports(reading.tree)
    local = _bound_in_functions(reading.tree)
    imported = {a.asname or a.name.split(".")[0] for a in aliases} - local - clashing
    if not clashing and not imported:
        return
    text = reading.text
    for alias in aliases:
        bound = alias.asname or alias.name.split(".")[0]
        if bound in imported and "." not in alias.name and not rewrite.covers(alias):
            rewrite.replace(alias, f"{alias.name} as {bound}_")
    clashing |= imported
    for statement in reading.tree.body:
        if _is_main_block(statement):
            continue
        for node in ast.walk(statement):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node in (
                reading.tree.body
            ):
                if node.name in clashing:
                    at = text.source.index(node.name, text.offset(node.lineno, node.col_offset))
                    rewrite.replace_span(at, at + len(node.name), node.name + "_")
            elif isinstance(node, ast.Name) and node.id in clashing and not rewrite.covers(node):
                rewrite.replace(node, node.id + "_")


def _module_imports(tree: ast.Module) -> list[ast.alias]:
    """The names the module's own scope imports that the generated module binds otherwise,
    in blocks too (`if TYPE_CHECKING:`, `try:`)."""
    taken = RUNTIME_NAMES | set(RUNTIME_IMPORTS)
    found: list[ast.alias] = []
    queue: list[ast.AST] = list(tree.body)
    while queue:
        node = queue.pop(0)
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found += [
                a
                for a in node.names
                if (a.asname or a.name.split(".")[0]) in taken
                and a.name != "*"
                and not same_import(a, node)
            ]
        elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            queue += [c for c in ast.iter_child_nodes(node) if isinstance(c, ast.stmt)]
    return found


def _bound_in_functions(tree: ast.Module) -> set[str]:
    """The names a function, class or lambda binds for itself (a parameter, an assignment, an
    import, a class attribute): renaming the module's name of that spelling there would change
    what they mean."""
    found: set[str] = set()
    for scope in ast.walk(tree):
        if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        for node in ast.walk(scope):
            if isinstance(node, ast.arg):
                found.add(node.arg)
            elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                found.add(node.id)
            elif isinstance(node, ast.alias):
                found.add(node.asname or node.name.split(".")[0])
    return found


def _docstring(node: ast.AST) -> str:
    return ast.get_docstring(node) or ""  # type: ignore[arg-type]


def _summary(node: ast.AST) -> str:
    return _docstring(node).strip().split("\n\n")[0].replace("\n", " ")


def remove_statement(reading: Reading, rewrite: Rewrite, node: ast.stmt) -> None:
    """A statement left out: its whole lines at the top level, `pass` in a block (which
    may need a statement)."""
    text = reading.text
    line_start = text.starts[node.lineno - 1]
    end = text.end(node)
    whole = not text.source[line_start : text.start(node)].strip()
    rest = text.source[end : text.starts[min((node.end_lineno or 0), len(text.lines))]]
    if node in reading.tree.body and whole and not rest.strip():
        rewrite.replace_span(line_start, end + len(rest), "")
    else:
        rewrite.replace(node, "pass")


def drop_declarations(reading: Reading, rewrite: Rewrite, method: str) -> None:
    """`grp.add_command(cmd)`, `app.add_typer(sub)`: said by the groups written at the head."""
    for statement in reading.tree.body:
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
            func = statement.value.func
            if isinstance(func, ast.Attribute) and func.attr == method:
                remove_statement(reading, rewrite, statement)


def _drop_option_helpers(reading: Reading, rewrite: Rewrite, click: ClickReading) -> None:
    """`verbose = click.option(...)`, a tuple of options, the app's decorators that only add
    options and its types bound to names (`LEVELS = click.Choice(...)`), once the commands'
    decorators naming them are gone and nothing else names them: the options are the tool's
    now, and the code would import click on every start."""
    helpers = {*click.decorators, *click.factories.tuples, *click.factories.found, *click.types}
    statements = {
        _bound_name(statement): statement
        for statement in reading.tree.body
        if _bound_name(statement) in helpers
    }
    dropped = True
    while dropped:
        dropped = False
        for name, statement in list(statements.items()):
            named = (
                node
                for node in ast.walk(reading.tree)
                if isinstance(node, ast.Name) and node.id == name
                and isinstance(node.ctx, ast.Load) and not rewrite.covers(node)
            )  # fmt: skip
            if next(named, None) is None:
                remove_statement(reading, rewrite, statement)
                del statements[name]
                dropped = True


def _bound_name(statement: ast.stmt) -> str | None:
    if isinstance(statement, ast.FunctionDef):
        return statement.name
    if (
        isinstance(statement, ast.Assign)
        and len(statement.targets) == 1
        and isinstance(statement.targets[0], ast.Name)
    ):
        return statement.targets[0].id
    return None


def drop_main_block(reading: Reading, rewrite: Rewrite) -> None:
    """`if __name__ == "__main__": app()`: the generated module has its own."""
    for statement in reading.tree.body:
        if _is_main_block(statement):
            start = reading.text.starts[statement.lineno - 1]
            rewrite.replace_span(start, reading.text.end(statement), "")


def drop_imports(
    reading: Reading, rewrite: Rewrite, modules: set[str], names: set[str]
) -> set[str]:
    """Leave out the imports of the framework when the rewritten code names none of what they
    bind (a body that calls `click.echo` keeps `import click`)."""
    drop_main_block(reading, rewrite)
    used = any(
        isinstance(node, ast.Name) and node.id in names and not rewrite.covers(node)
        for node in ast.walk(reading.tree)
    )
    if used:
        return set()
    for node in ast.walk(reading.tree):
        if (isinstance(node, ast.Import) and all(a.name in modules for a in node.names)) or (
            isinstance(node, ast.ImportFrom) and node.module in modules
        ):
            remove_statement(reading, rewrite, node)
    return modules
