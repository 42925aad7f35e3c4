"""A Typer app read as it is written (never imported): `typer.Typer(...)` apps,
`@app.command()`, `@app.callback()`, `app.add_typer(...)`, `typer.run(main)`, and each
parameter as Typer reads it (a plain one without a default is an argument, with one an option;
`Annotated[T, typer.Option(...)]` or `= typer.Option(default, ...)`), onto the reading Click's
programs land on too (`common.Param`)."""

from __future__ import annotations

import ast
import re

from burgee.read.dialects.click import Found
from burgee.read.dialects.common import (
    PATH_CHECKS,
    Param,
    Reading,
    Rewrite,
    auto_env,
    auto_env_prefix,
    flag_word,
)
from burgee.read.dialects.constants import Unreadable
from burgee.read.dialects.emit import GroupOut, parameter_span, plain_list
from burgee.read.dialects.program import (
    Layout,
    drop_declarations,
    drop_imports,
    remove_decorators,
    remove_statement,
    write_layout,
)

#: Keywords of Typer's markers that say nothing about what argv means.
_QUIET = {
    "show_default", "rich_help_panel", "show_choices", "show_envvar", "autocompletion",
    "shell_complete",
}  # fmt: skip


#: Typer's file types, and the mode each opens its file in.
_FILES = {"FileText": "r", "FileTextWrite": "w", "FileBinaryRead": "rb", "FileBinaryWrite": "wb"}


class TyperReading:
    def __init__(self, reading: Reading) -> None:
        self.reading = reading
        self.modules: set[str] = set()
        self.members: dict[str, str] = {}
        for node in ast.walk(reading.tree):
            if isinstance(node, ast.Import):
                self.modules |= {a.asname or a.name for a in node.names if a.name == "typer"}
            elif isinstance(node, ast.ImportFrom) and node.module == "typer":
                self.members.update({a.asname or a.name: a.name for a in node.names})
        #: app variable -> its Typer(...) keywords; (parent app, name, help) once added.
        self.apps: dict[str, dict[str, ast.expr]] = {}
        self.added: dict[str, tuple[str, str | None, str | None]] = {}
        self.commands: list[tuple[str, Found]] = []
        self.callbacks: dict[str, Found] = {}
        self.run: str | None = None
        #: `weight = typer.Option(...)` at the top level, a default several commands share.
        self.markers: dict[str, ast.Call] = {}

    def member(self, node: ast.expr) -> str | None:
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id in self.modules:
                return node.attr
        if isinstance(node, ast.Name):
            return self.members.get(node.id)
        return None

    def read(self) -> None:
        for node in ast.walk(self.reading.tree):
            # NOTE: `typer.run(main)`, most often under `if __name__ == "__main__":`
            if isinstance(node, ast.Call) and self.member(node.func) == "run" and node.args:
                if isinstance(node.args[0], ast.Name):
                    self.run = node.args[0].id
        for statement in self.reading.tree.body:
            if (
                isinstance(statement, ast.Assign)
                and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name)
                and isinstance(statement.value, ast.Call)
                and self.member(statement.value.func) == "Typer"
            ):
                keywords = {k.arg: k.value for k in statement.value.keywords if k.arg}
                self.apps[statement.targets[0].id] = keywords
                self.check_app(keywords)
            elif (
                isinstance(statement, ast.Assign)
                and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name)
                and isinstance(statement.value, ast.Call)
                and self.member(statement.value.func) in ("Option", "Argument")
            ):
                self.markers[statement.targets[0].id] = statement.value
            elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.read_function(statement)
            elif isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
                self.read_call(statement.value)

    def check_app(self, keywords: dict[str, ast.expr]) -> None:
        """What of `typer.Typer(...)` changes how argv reads, or what help shows."""
        reading = self.reading
        if "cls" in keywords:
            reading.error(
                keywords["cls"],
                "a custom Group class (lazy commands, plugins) runs code while parsing, which "
                "a static reading cannot follow: declare the commands on the app",
            )
        if "rich_markup_mode" in keywords:
            reading.warn(
                keywords["rich_markup_mode"],
                "rich markup in help is shown as written ([bold] and the like stay)",
            )
        settings = keywords.get("context_settings")
        unread = [
            key.value if isinstance(key, ast.Constant) else "..."
            for key in (settings.keys if isinstance(settings, ast.Dict) else [None])
            if not (isinstance(key, ast.Constant) and key.value == "auto_envvar_prefix")
        ]
        if settings is not None and unread:
            reading.warn(settings, f"context_settings: {', '.join(map(str, unread))} not read")

    def read_call(self, call: ast.Call) -> None:
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr == "add_typer"):
            return
        if not (isinstance(func.value, ast.Name) and call.args):
            return
        child = call.args[0]
        name = child.id if isinstance(child, ast.Name) else getattr(child, "attr", None)
        if name is None:
            self.reading.error(child, "add_typer(...) of an app burgee cannot name")
            return
        keywords = {k.arg: k.value for k in call.keywords if k.arg}
        given = keywords.get("name")
        help_node = keywords.get("help")
        self.added[name] = (
            func.value.id,
            self.reading.text_of(given, "the group's name") if given else None,
            self.reading.text_of(help_node, "help=") if help_node else None,
        )

    def read_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for decorator in node.decorator_list:
            call = decorator if isinstance(decorator, ast.Call) else None
            target = call.func if call else decorator
            if not (
                isinstance(target, ast.Attribute)
                and target.attr in ("command", "callback")
                and isinstance(target.value, ast.Name)
            ):
                continue
            found = Found(node=node, group=False, name=node.name.replace("_", "-").lower(),
                          parent=target.value.id)  # fmt: skip
            for index, arg in enumerate(call.args if call else []):
                if index == 0:
                    found.name = self.reading.text_of(arg, "the command's name") or found.name
            for keyword in call.keywords if call else []:
                if keyword.arg == "name":
                    found.name = self.reading.text_of(keyword.value, "name=") or found.name
                elif keyword.arg in ("help", "short_help"):
                    found.options[keyword.arg] = self.reading.text_of(keyword.value, "help=")
                elif keyword.arg in ("hidden", "deprecated"):
                    try:
                        found.options[keyword.arg] = self.reading.fold(keyword.value)
                    except Unreadable:
                        self.reading.error(keyword.value, f"{keyword.arg}= must be a literal")
                elif keyword.arg == "cls":
                    self.reading.error(keyword.value, "a custom command class is not supported")
                elif keyword.arg == "invoke_without_command":
                    self.reading.without_command(keyword)
            self.read_params(found)
            if target.attr == "callback":
                self.reading.shared(found.params)
                self.callbacks[target.value.id] = found
            else:
                self.commands.append((target.value.id, found))
            return
        if self.run is not None and node.name == self.run:
            found = Found(node=node, group=False, name=node.name, parent=None)
            self.read_params(found)
            self.commands.append(("", found))

    def member_default(self, kind: ast.expr, default: str | None) -> str | None:
        """An Enum's default given as its value (`color: Color = typer.Option("red")`, which
        Typer converts as it converts a word): the member, `Color.red`, as burgee writes it."""
        if default is None or not isinstance(kind, ast.Name):
            return default
        members = _enum_members(self.reading.tree, kind.id)
        try:
            value = ast.literal_eval(default)
        except (ValueError, SyntaxError):
            return default
        found = [name for name, each in members if each == value and type(each) is type(value)]
        return f"{kind.id}.{found[0]}" if found else default

    def read_params(self, found: Found) -> None:
        args = found.node.args
        if args.vararg or args.kwarg:
            self.reading.error(found.node, "*args and **kwargs are not read as parameters")
        positional = [*args.posonlyargs, *args.args]
        defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults))
        pairs = [
            *zip(positional, [*defaults, *args.defaults], strict=False),
            *zip(args.kwonlyargs, args.kw_defaults, strict=False),
        ]
        for arg, given in pairs:
            param = self.read_param(found, arg, given)
            if param is not None:
                found.params.append(param)

    def read_param(self, found: Found, arg: ast.arg, given: ast.expr | None) -> Param | None:
        reading = self.reading
        kind = arg.annotation
        marker: ast.Call | None = None
        annotated = False
        if isinstance(kind, ast.Subscript) and _named(kind.value, "Annotated"):
            items = kind.slice.elts if isinstance(kind.slice, ast.Tuple) else [kind.slice]
            kind = items[0]
            for extra in items[1:]:
                if isinstance(extra, ast.Call) and self.member(extra.func) in (
                    "Option",
                    "Argument",
                ):
                    marker, annotated = extra, True
        if marker is None and isinstance(given, ast.Name) and given.id in self.markers:
            given = self.markers[given.id]  # NOTE: `weight = typer.Option(...)`, shared
        if marker is None and isinstance(given, ast.Call):
            if self.member(given.func) in ("Option", "Argument"):
                marker = given
                given = None
        if (kind is not None and self.member(kind) == "Context") or (
            isinstance(kind, ast.Attribute) and kind.attr == "Context"
        ):
            found.context = arg.arg
            return None
        if kind is None:
            reading.error(arg, f"parameter {arg.arg} needs a type: Typer reads it from there")
            return None
        param = Param(name=arg.arg, node=arg, annotation=reading.code(kind))
        param.type = param.annotation or "str"
        if self.member(kind) in _FILES:
            param.read_file_mode(reading, kind, _FILES[self.member(kind) or ""])
        is_bool = param.annotation in ("bool", "Optional[bool]")
        if marker is None:
            param.argument = given is None
            param.default = reading.code(given) if given is not None else None
            param.required = given is None
        else:
            param.argument = self.member(marker.func) == "Argument"
            decls = list(marker.args)
            if not annotated and decls:
                given = decls.pop(0)
            for keyword in marker.keywords:
                if keyword.arg == "default":
                    given = keyword.value
            if given is None or (isinstance(given, ast.Constant) and given.value is Ellipsis):
                param.required = True
            else:
                param.default = reading.code(given)
            for decl in decls:
                text = reading.text_of(decl, "a parameter's declaration")
                if text is None:
                    return None
                first, slash, second = text.partition("/")
                param.flags += [f.strip() for f in first.split("/") if f.strip()]
                if slash and second.strip():
                    param.off.append(second.strip())
            keywords = {k.arg: k.value for k in marker.keywords if k.arg}
            flag = "bool" in (param.annotation or "")
            if reading.is_version(keywords, param.flags or [flag_word(param.name)], flag):
                return None
            if not self.read_keywords(param, marker):
                return None
        if is_bool and not param.argument and param.flags:
            param.is_flag = True  # NOTE: without flags, Typer's --x/--no-x is burgee's too
        param.default = self.member_default(kind, param.default)
        sequence = re.search(r"\b(List|list|Sequence|Tuple|tuple)\[", param.annotation or "")
        if sequence and param.default == "None" and not param.argument:
            param.default = "[]"  # NOTE: Typer gives [] for a list option left out, not None
        if param.argument:
            param.flags = []
        reading.settle_flags(param)
        return param

    def read_keywords(self, param: Param, marker: ast.Call) -> bool:
        reading = self.reading
        for keyword in marker.keywords:
            key, value = keyword.arg, keyword.value
            if key in (None, "default"):
                continue
            if key == "help":
                param.help = reading.text_of(value, "help=")
            elif key == "metavar":
                param.metavar = reading.text_of(value, "metavar=")
            elif key == "envvar":
                envvar = reading.envvar_of(value, param.argument)
                if envvar is None:
                    return False
                param.envvar = envvar
            elif key == "allow_from_autoenv":
                try:
                    param.autoenv = bool(reading.fold(value))
                except Unreadable:
                    reading.error(value, f"{key}= must be a literal")
                    return False
            elif key in ("hidden", "count"):
                try:
                    setattr(param, key, bool(reading.fold(value)))
                except Unreadable:
                    reading.error(value, f"{key}= must be a literal")
                    return False
            elif key in ("min", "max"):
                setattr(param, "minimum" if key == "min" else "maximum", reading.code(value))
            elif key == "clamp":
                reading.warn(value, "clamp=True: a value out of range is refused")
            elif key == "prompt":
                try:
                    param.prompt = reading.fold(value)  # type: ignore[assignment]
                except Unreadable:
                    param.prompt = True
            elif key == "default_factory":
                param.default_factory = reading.code(value)
            elif key == "case_sensitive":
                param.case_sensitive = reading.truth(value, "case_sensitive", True)
            elif key == "mode" and param.mode is not None:
                try:
                    mode = reading.fold(value)
                except Unreadable:
                    mode = None
                binary = "b" if param.type.endswith("BinaryIO") else ""
                param.read_file_mode(reading, value, f"{mode}{binary}" if mode else mode)
            elif key in PATH_CHECKS:
                if not reading.path_check(param, key, value):
                    return False
            elif key == "is_eager":
                continue  # NOTE: the order Click processes parameters in
            elif key in ("callback", "parser", "click_type"):
                reading.error(
                    value,
                    f"{key}= runs code while parsing, which a static reading cannot follow: "
                    "check or convert the value in the command's body instead",
                )
                return False
            elif key not in _QUIET:
                reading.warn(value, f"{key}= is not read: it is left out")
        return True


def _named(node: ast.expr, name: str) -> bool:
    return (isinstance(node, ast.Name) and node.id == name) or (
        isinstance(node, ast.Attribute) and node.attr == name
    )


def write_typer(reading: Reading, rewrite: Rewrite) -> set[str]:
    """Write a Typer app over itself in burgee's dialect; the modules no longer used."""
    typer = TyperReading(reading)
    typer.read()
    layout = Layout()
    roots = [app for app in typer.apps if app not in typer.added]
    if typer.run is None and len(roots) != 1:
        node = reading.tree
        reading.error(node.body[0] if node.body else node, "no one Typer app to read "
                      f"(top-level apps: {', '.join(roots) or 'none'})")  # fmt: skip
        return set()
    root = roots[0] if roots else ""
    paths: dict[str, tuple[str, ...]] = {root: ()}

    def path_of(app: str) -> tuple[str, ...] | None:
        if app in paths:
            return paths[app]
        if app not in typer.added:
            return None
        parent, name, _ = typer.added[app]
        above = path_of(parent)
        given = name or _text(reading, typer.apps.get(app, {}).get("name"))
        if above is None or not given:
            return None
        paths[app] = (*above, given)
        return paths[app]

    for app in typer.apps:
        where = path_of(app)
        callback = typer.callbacks.get(app)
        if callback is not None:
            remove_decorators(reading, rewrite, callback.node, "")
            start, end = parameter_span(reading, callback.node)
            rewrite.replace_span(start, end, plain_list(callback.params, callback.context))
        if callback is not None and where is not None:
            layout.callbacks[where] = (callback, False)
        helped = _text(reading, typer.apps[app].get("help"))
        if app == root:
            layout.program["name"] = _text(reading, typer.apps[app].get("name"))
            layout.program["description"] = helped or (
                ast.get_docstring(callback.node) or "" if callback else ""
            )
            layout.shared = callback.params if callback else []
            continue
        if where is None:
            reading.error(reading.tree, f"the Typer app {app} is in no group of the program")
            continue
        added_help = typer.added[app][2]
        doc = (ast.get_docstring(callback.node) or "") if callback else ""
        layout.groups[app] = GroupOut(
            where,
            help=added_help or helped or doc.strip().split("\n\n")[0].replace("\n", " "),
            shared=callback.params if callback else [],
        )
    own = [f for app, f in typer.commands if app == root]
    for app, found in typer.commands:
        where = paths.get(app) if app in paths else path_of(app)
        if where is None:
            reading.error(found.node, f"the app of command {found.name} is in no group")
            continue
        # NOTE: Typer's rule: an app of one command, no callback and no group is that command.
        alone = (
            app == root
            and len(own) == 1
            and root not in typer.callbacks
            and not any(parent == root for parent, _, _ in typer.added.values())
        )
        layout.commands.append((found, where, alone))
    _auto_env(typer, layout, root, paths)
    write_layout(reading, rewrite, layout)
    for statement in reading.tree.body:
        if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call):
            if typer.member(statement.value.func) == "Typer":
                remove_statement(reading, rewrite, statement)
    drop_declarations(reading, rewrite, "add_typer")
    return drop_imports(reading, rewrite, {"typer"}, typer.modules | set(typer.members))


def _auto_env(
    typer: TyperReading, layout: Layout, root: str, paths: dict[str, tuple[str, ...]]
) -> None:
    """Click's `auto_envvar_prefix` naming of env vars, where an app sets it in its
    `context_settings` (or the program calls the app with it)."""
    prefixes: dict[tuple[str, ...], str] = {}
    for app, keywords in typer.apps.items():
        settings = keywords.get("context_settings")
        if not isinstance(settings, ast.Dict) or app not in paths:
            continue
        for key, value in zip(settings.keys, settings.values, strict=False):
            if isinstance(key, ast.Constant) and key.value == "auto_envvar_prefix":
                prefix = typer.reading.text_of(value, "auto_envvar_prefix")
                if prefix:
                    prefixes[paths[app]] = prefix
    called = auto_env_prefix(typer.reading, root) if root else None
    if called and () not in prefixes:
        prefixes[()] = called
    if not prefixes:
        return
    auto_env(layout.shared, (), prefixes)
    for group in layout.groups.values():
        auto_env(group.shared, group.path, prefixes)
    for found, where, alone in layout.commands:
        auto_env(found.params, where if alone else (*where, found.name), prefixes)


def _text(reading: Reading, node: ast.expr | None) -> str | None:
    return reading.text_of(node, "help=") if node is not None else None


def _enum_members(tree: ast.Module, name: str) -> list[tuple[str, object]]:
    """The members of the Enum class `name` of the module (name, literal value); [] if it is
    none such."""
    for statement in tree.body:
        if not (isinstance(statement, ast.ClassDef) and statement.name == name):
            continue
        bases = {
            b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in statement.bases
        }
        if not bases & {"Enum", "StrEnum", "IntEnum"}:
            return []
        members: list[tuple[str, object]] = []
        for item in statement.body:
            if (
                isinstance(item, ast.Assign)
                and len(item.targets) == 1
                and isinstance(item.targets[0], ast.Name)
                and isinstance(item.value, ast.Constant)
            ):
                members.append((item.targets[0].id, item.value.value))
        return members
    return []
