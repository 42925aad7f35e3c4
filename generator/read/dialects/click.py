"""A Click program read as it is written (never imported): its groups and commands
(`@click.group`, `@click.command`, `@grp.command()`, `grp.add_command(...)`, across the modules
of one package once they are bundled), each command's stack of `@click.option` and
`@click.argument` (and decorators a module binds to a name, `verbose = click.option(...)`),
`pass_context`, `version_option` and click-default-group's `DefaultGroup`."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from burgee.read.dialects.common import PATH_CHECKS, Param, Reading, click_name
from burgee.read.dialects.constants import Unreadable
from burgee.read.dialects.decorators import Factories
from burgee.read.imports import installed_version

#: Click's type objects and what burgee calls them.
SCALARS = {
    "STRING": "str", "INT": "int", "FLOAT": "float", "BOOL": "bool", "UUID": "_uuid.UUID",
    "UNPROCESSED": "str", "str": "str", "int": "int", "float": "float", "bool": "bool",
}  # fmt: skip
#: The keywords of `click.option`/`click.argument` that say nothing about argv's meaning.
_QUIET = {"show_default", "show_envvar", "show_choices", "shell_complete", "autocompletion"}
#: The keywords of a group or command that either change nothing argv means or are checked.
_GROUP_SETTINGS = {
    "context_settings", "invoke_without_command", "no_args_is_help", "default_if_no_args",
    "epilog", "add_help_option", "chain",
}  # fmt: skip
#: Click's parameter types a program may bind to a name first (`LEVELS = click.Choice(...)`).
_TYPES = {"Choice", "Path", "File", "IntRange", "FloatRange", "DateTime", "Tuple"}
#: The decorators that make a command (or a group) of a function.
_MAKERS = {"command", "group"}


@dataclass
class Found:
    """A function Click makes a command or a group of."""

    node: ast.FunctionDef | ast.AsyncFunctionDef
    group: bool
    name: str
    #: The group variable whose `.command` made it, or None (`click.command`, `add_command`).
    parent: str | None
    params: list[Param] = field(default_factory=list)
    context: str | None = None
    #: `pass_obj`: the name of the parameter given the run's `ctx.obj`.
    obj: str | None = None
    options: dict[str, object] = field(default_factory=dict)
    help: str | None = None
    default_command: str | None = None


#: The parameter a command is given the run's context by, where the function names none.
CONTEXT = "_burgee_context"


class ClickReading:
    """The Click side of a file: the names it binds to click, then its commands."""

    def __init__(self, reading: Reading) -> None:
        self.reading = reading
        #: Local names bound to the click module, and to its members (local -> click name).
        self.modules: set[str] = set()
        self.members: dict[str, str] = {}
        #: `verbose = click.option(...)` at the top level: name -> the call.
        self.decorators: dict[str, ast.Call] = {}
        #: `LEVELS = click.Choice(...)` at the top level (uvicorn's): name -> the type's call.
        self.types: dict[str, ast.Call] = {}
        #: The app's own decorators that only add options (`@load_extension_option`).
        self.factories = Factories(
            lambda func: self.member(func) in ("option", "argument"), self.decorators
        )
        self.found: dict[str, Found] = {}
        #: `grp.add_command(cmd, name)`: cmd's function name -> (grp, name or None).
        self.added: dict[str, tuple[str, str | None]] = {}
        self.version: str | None = None
        #: `a = b` at the top level: a -> b.
        self.aliases = {
            s.targets[0].id: s.value.id
            for s in reading.tree.body
            if isinstance(s, ast.Assign)
            and len(s.targets) == 1
            and isinstance(s.targets[0], ast.Name)
            and isinstance(s.value, ast.Name)
        }
        for statement in ast.walk(reading.tree):
            if isinstance(statement, ast.Import):
                for alias in statement.names:
                    if alias.name == "click":
                        self.modules.add(alias.asname or "click")
            elif isinstance(statement, ast.ImportFrom) and statement.module in (
                "click",
                "click_default_group",
            ):
                for alias in statement.names:
                    self.members[alias.asname or alias.name] = alias.name

    def member(self, node: ast.expr) -> str | None:
        """Which of click's names an expression is (`click.option`, `option`)."""
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id in self.modules:
                return node.attr
        if isinstance(node, ast.Name):
            return self.members.get(node.id)
        return None

    def read(self) -> None:
        for statement in self.reading.tree.body:
            if (
                isinstance(statement, ast.Assign)
                and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name)
                and isinstance(statement.value, ast.Call)
                and self.member(statement.value.func) in ("option", "argument")
            ):
                self.decorators[statement.targets[0].id] = statement.value
            elif (
                isinstance(statement, ast.Assign)
                and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name)
                and isinstance(statement.value, ast.Call)
                and self.member(statement.value.func) in _TYPES
            ):
                self.types[statement.targets[0].id] = statement.value
            elif isinstance(statement, ast.Assign):
                self.factories.read_assign(statement)
            elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if not self.factories.read_function(statement):
                    self.read_function(statement)
            elif isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
                self.read_add(statement.value)
        # NOTE: a type's name bound once only is the type it was made as
        stored = [
            n.id
            for n in ast.walk(self.reading.tree)
            if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)
        ]
        for name in [n for n in self.types if stored.count(n) > 1]:
            del self.types[name]

    def read_add(self, call: ast.Call) -> None:
        func = call.func
        if not (
            isinstance(func, ast.Attribute)
            and func.attr == "add_command"
            and isinstance(func.value, ast.Name)
            and call.args
        ):
            return
        added = call.args[0]
        target = (
            added.id if isinstance(added, ast.Name) else
            added.attr if isinstance(added, ast.Attribute) else None
        )  # fmt: skip
        if target is None:
            self.reading.error(added, "add_command(...) of a command burgee cannot name")
            return
        seen = {target}
        while target in self.aliases and self.aliases[target] not in seen:
            # NOTE: `from .build import _main as _build_cmd` is `_build_cmd = _main` bundled
            target = self.aliases[target]
            seen.add(target)
        name_node = (
            call.args[1]
            if len(call.args) > 1
            else next((k.value for k in call.keywords if k.arg == "name"), None)
        )
        name = self.reading.text_of(name_node, "the command's name") if name_node else None
        self.added[target] = (func.value.id, name)

    def read_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        maker: ast.expr | None = None
        stack: list[ast.Call] = []
        context: str | None = None
        obj: str | None = None
        for decorator in node.decorator_list:
            call = decorator if isinstance(decorator, ast.Call) else None
            target = call.func if call else decorator
            if isinstance(target, ast.Name) and target.id in self.decorators:
                stack.append(self.decorators[target.id])
                continue
            added = self.factories.expand(decorator)
            if added is not None:
                stack += added
                continue
            what = self.member(target)
            if what in _MAKERS or (isinstance(target, ast.Attribute) and target.attr in _MAKERS):
                maker = decorator
            elif what in ("option", "argument") and call:
                stack.append(call)
            elif what in ("pass_context", "pass_obj"):
                # NOTE: Click passes it as the first positional parameter, named as it may be
                first = [*node.args.posonlyargs, *node.args.args][:1]
                context = first[0].arg if first else "ctx"
                if what == "pass_obj":
                    obj, context = context, CONTEXT
            elif what == "version_option" and call:
                self.read_version(call)
            elif what == "help_option":
                continue
            elif maker is not None or what is not None:
                self.reading.error(
                    decorator,
                    "a decorator a static reading cannot follow (its code may add options "
                    "or change how the command runs); burgee reads click's option, argument, "
                    "pass_context, pass_obj, version_option and command/group: put the options "
                    "it adds on the command as @click.option, and its other work in the body",
                )
        if maker is None:
            return
        self.read_maker(node, maker, stack, context)
        if obj is not None and node.name in self.found:
            self.found[node.name].obj = obj

    def read_version(self, call: ast.Call) -> None:
        given = (
            call.args[0]
            if call.args
            else next((k.value for k in call.keywords if k.arg == "version"), None)
        )
        if given is None:
            # NOTE: Click reads the installed distribution's when it runs; gen reads it now
            self.version = installed_version(self.reading.place.path) or self.version
            return
        version = self.reading.text_of(given, "version_option's version")
        if version:
            self.version = version
        # NOTE: its flags after the version (`version_option(v, "-V", "--version")`).
        flags = [a.value for a in call.args[1:] if isinstance(a, ast.Constant)]
        if "--version" in flags:
            self.reading.version_flags([f for f in flags if isinstance(f, str)])

    def read_maker(
        self,
        node: ast.FunctionDef | ast.AsyncFunctionDef,
        maker: ast.expr,
        stack: list[ast.Call],
        context: str | None,
    ) -> None:
        call = maker if isinstance(maker, ast.Call) else None
        target = call.func if call else maker
        is_group = (self.member(target) or getattr(target, "attr", None)) == "group"
        parent = None
        if self.member(target) is None and isinstance(target, ast.Attribute):
            if isinstance(target.value, ast.Name):
                parent = target.value.id
        name = node.name.replace("_", "-").lower()
        if node.name.endswith(("_command", "_cmd", "_group", "_grp")) and parent is None:
            name = name.rsplit("-", 1)[0]  # NOTE: Click 8.2's own rule
        found = Found(node=node, group=is_group, name=name, parent=parent, context=context)
        for index, arg in enumerate(call.args if call else []):
            if index == 0:
                given = self.reading.text_of(arg, "the command's name")
                if given:
                    found.name = given
        for keyword in call.keywords if call else []:
            self.read_maker_keyword(found, keyword)
        for decorator in stack:
            param = self.read_param(decorator)
            if param is not None:
                found.params.append(param)
        if is_group:
            self.reading.shared(found.params)
        self.found[node.name] = found

    def read_maker_keyword(self, found: Found, keyword: ast.keyword) -> None:
        reading = self.reading
        if keyword.arg == "name":
            given = reading.text_of(keyword.value, "the command's name")
            if given:
                found.name = given
        elif keyword.arg in ("help", "short_help"):
            found.options[keyword.arg] = reading.text_of(keyword.value, keyword.arg + "=")
        elif keyword.arg in ("hidden", "deprecated"):
            try:
                found.options[keyword.arg] = reading.fold(keyword.value)
            except Unreadable:
                reading.error(keyword.value, f"{keyword.arg}= must be a literal")
        elif keyword.arg == "cls":
            if self.member(keyword.value) == "DefaultGroup" or (
                isinstance(keyword.value, ast.Name) and keyword.value.id == "DefaultGroup"
            ):
                return
            reading.error(
                keyword.value,
                "a custom Group or Command class runs code while parsing, which a static "
                "reading cannot follow; use click's own, or write the program in burgee's "
                "dialect",
            )
        elif keyword.arg == "default":
            found.default_command = reading.text_of(keyword.value, "the default command")
        elif keyword.arg in _GROUP_SETTINGS:
            if keyword.arg == "chain":
                reading.error(keyword.value, "a chained group (chain=True) is not supported")
            elif keyword.arg == "context_settings":
                self.read_settings(found, keyword.value)
            elif keyword.arg == "invoke_without_command":
                reading.without_command(keyword)
        else:
            reading.warn(keyword, f"{keyword.arg}= is not read: it is left out")

    def read_settings(self, found: Found, node: ast.expr) -> None:
        if not isinstance(node, ast.Dict):
            return
        for key, value in zip(node.keys, node.values, strict=False):
            if isinstance(key, ast.Constant) and key.value == "help_option_names":
                self.reading.warn(
                    value,
                    "help_option_names: the tool's help is -h and --help (a command's own "
                    "option may take -h: on that command -h is the option's)",
                )
            elif isinstance(key, ast.Constant) and key.value == "auto_envvar_prefix":
                prefix = self.reading.text_of(value, "auto_envvar_prefix")
                if prefix:
                    found.options["auto_envvar_prefix"] = prefix

    def read_param(self, call: ast.Call) -> Param | None:
        reading = self.reading
        argument = self.member(call.func) == "argument"
        decls: list[str] = []
        for arg in call.args:
            text = reading.text_of(arg, "a parameter's declaration")
            if text is None:
                return None
            decls.append(text)
        name, flags, off = click_name(decls)
        if argument:
            name = decls[0].replace("-", "_").lower() if decls else None
            flags = []
        if name is None:
            reading.error(call, "a parameter needs a name")
            return None
        param = Param(name=name, node=call, argument=argument, flags=flags, off=off)
        param.is_flag = bool(off)
        param.required = argument
        keywords = {k.arg: k.value for k in call.keywords if k.arg}
        given = keywords.get("is_flag")
        flag = isinstance(given, ast.Constant) and given.value is True
        if not argument and reading.is_version(keywords, flags, flag):
            return None
        for key, value in keywords.items():
            if not self.read_keyword(param, key, value, keywords):
                return None
        if param.is_flag and param.default is None:
            param.default = "False"
        if (
            param.type == "bool"
            and not (param.is_flag or param.count)
            and not self.value_bool(param)
        ):
            return None
        if param.argument and param.nargs == -1 and "required" not in keywords:
            param.required = False
        reading.settle_flags(param)
        return param

    def value_bool(self, param: Param) -> bool:
        """A bool option that takes a value (`--deflate false`, uvicorn's `type=bool`): text,
        made a bool first in the command's body, as Click's BOOL converts it; False, after an
        error at its place, where that cannot be."""
        if param.argument or param.multiple or param.nargs != 1:
            self.reading.error(
                param.node,
                f"{param.name}: a bool that takes a value, as an argument or repeated, is not "
                "supported: make it a flag (is_flag=True or --x/--no-x)",
            )
            return False
        param.bool_value = True
        param.type = "str"
        param.default = {"True": "'true'", "False": "'false'"}.get(
            param.default or "", param.default
        )
        return True

    def read_keyword(
        self, param: Param, key: str, value: ast.expr, keywords: dict[str, ast.expr]
    ) -> bool:
        reading = self.reading
        if key == "type":
            self.read_type(param, value)
        elif key == "default":
            try:
                folded = reading.fold(value)
                param.default = repr(list(folded) if isinstance(folded, tuple) else folded)
                if folded is not None:
                    param.required = False
            except Unreadable:
                if isinstance(value, ast.Call) and not value.args and not value.keywords:
                    param.default_factory = reading.code(value.func)
                    param.required = False
                else:
                    reading.error(
                        value,
                        "a default computed when the program runs: write it as a literal, "
                        "or as a call of a function of no arguments (read as default_factory)",
                    )
                    return False
            if "type" not in keywords and param.default not in (None, "None"):
                folded_type = type(reading.fold(value)) if not param.default_factory else str
                if folded_type in (int, float, bool):
                    param.type = folded_type.__name__
        elif key in ("required", "is_flag", "multiple", "count", "hidden", "nargs"):
            try:
                setattr(param, "is_flag" if key == "is_flag" else key, reading.fold(value))
            except Unreadable:
                reading.error(value, f"{key}= must be a literal")
                return False
            if key == "required" and param.required is False and param.argument:
                param.default = param.default or "None"
        elif key == "help":
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
        elif key == "prompt":
            try:
                param.prompt = reading.fold(value)  # type: ignore[assignment]
            except Unreadable:
                param.prompt = True
        elif key == "is_eager":
            pass  # NOTE: the order Click processes parameters in; burgee's values are the same
        elif key == "callback":
            # NOTE: run after parsing, first in the command's body (`program._prologue`)
            param.callback = reading.code(value)
        elif key == "expose_value":
            reading.error(value, "expose_value=False is not supported")
            return False
        elif key == "flag_value":
            # NOTE: `default=False, flag_value=True` is a flag (towncrier's --draft); another
            # value given by a flag is not burgee's
            if not isinstance(value, ast.Constant) or value.value is not True:
                reading.error(value, "flag_value= other than True is not supported: use a Choice")
                return False
            param.is_flag = True
        elif key not in _QUIET:
            reading.warn(value, f"{key}= is not read: it is left out")
        return True

    def read_file(self, param: Param, node: ast.expr) -> None:
        """`click.File(mode, ...)`: the handler takes it open (`TextIO`, `BinaryIO`)."""
        reading = self.reading
        call = node if isinstance(node, ast.Call) else None
        given = {k.arg: k.value for k in call.keywords if k.arg} if call else {}
        written = call.args[0] if call and call.args else given.get("mode")
        try:
            mode = reading.fold(written) if written is not None else "r"
        except Unreadable:
            mode = None
        param.read_file_mode(reading, written or node, mode)
        for key in ("encoding", "errors", "lazy", "atomic"):
            if key in given:
                reading.warn(given[key], f"click.File({key}=...) is not read: the file is "
                             "opened when the command runs, with Python's defaults")  # fmt: skip

    def read_type(self, param: Param, node: ast.expr) -> None:
        reading = self.reading
        if isinstance(node, ast.Name) and node.id in self.types:
            self.read_type(param, self.types[node.id])  # NOTE: read where it was made
            return
        name = self.member(node) if not isinstance(node, ast.Call) else self.member(node.func)
        if isinstance(node, ast.Name) and node.id in SCALARS and name is None:
            param.type = SCALARS[node.id]
        elif name in SCALARS and not isinstance(node, ast.Call):
            param.type = SCALARS[name]
        elif isinstance(node, ast.Call) and name == "Choice":
            try:
                choices = reading.fold(node.args[0]) if node.args else ()
            except Unreadable:
                choices = None
            if not isinstance(choices, tuple) or not choices:
                reading.error(node, "choices computed when the program runs: list them")
                return
            param.type = f"_Literal[{', '.join(repr(c) for c in choices)}]"
            for keyword in node.keywords:
                if keyword.arg == "case_sensitive":
                    param.case_sensitive = reading.truth(keyword.value, "case_sensitive", True)
        elif (name in ("Path", "File") and isinstance(node, ast.Call)) or name in ("Path", "File"):
            param.type = "str"
            if name == "File":
                self.read_file(param, node)
            for keyword in node.keywords if isinstance(node, ast.Call) else []:
                if keyword.arg == "path_type":
                    # NOTE: `path_type=str` (or None) gives a str, as Click does
                    kind = keyword.value
                    named = getattr(kind, "id", None) or getattr(kind, "attr", None)
                    if named == "Path":
                        param.type = "_pathlib.Path"
                    elif named != "str" and not (
                        isinstance(kind, ast.Constant) and kind.value is None
                    ):
                        reading.error(
                            kind,
                            "path_type= other than str or pathlib.Path is not supported: "
                            "convert the value in the command's body",
                        )
                elif keyword.arg in PATH_CHECKS and name == "Path":
                    reading.path_check(param, keyword.arg, keyword.value)
        elif name in ("IntRange", "FloatRange") and isinstance(node, ast.Call):
            param.type = "int" if name == "IntRange" else "float"
            bounds = [*node.args[:2]]
            named = {k.arg: k.value for k in node.keywords}
            low = named.get("min", bounds[0] if bounds else None)
            high = named.get("max", bounds[1] if len(bounds) > 1 else None)
            if "clamp" in named:
                reading.warn(named["clamp"], "clamp=True: a value out of range is refused")
            if low is not None and not (isinstance(low, ast.Constant) and low.value is None):
                param.minimum = reading.code(low)
            if high is not None and not (isinstance(high, ast.Constant) and high.value is None):
                param.maximum = reading.code(high)
        elif name == "DateTime":
            param.type = "_datetime.datetime"
        elif isinstance(node, ast.Tuple) or (
            name == "Tuple" and isinstance(node, ast.Call) and node.args
        ):
            # NOTE: `type=(int, int)` is Click's `click.Tuple([int, int])`
            items = node if isinstance(node, ast.Tuple) else node.args[0]
            kinds = []
            for item in getattr(items, "elts", []):
                inner = Param(name="_", node=item)
                self.read_type(inner, item)
                kinds.append(inner.type)
            param.type = f"tuple[{', '.join(kinds)}]"
        else:
            reading.error(
                node,
                "a parameter type a static reading cannot follow (a custom ParamType's "
                "convert runs code): use click's own types, or read it as text and convert "
                "it in the command's body",
            )
