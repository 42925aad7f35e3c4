"""Read a handlers file with `ast` (never importing it) into a `Program`.

`read_program()`: the `ast` tree's top level read (imports, `program()`, `group()`, the
decorated functions (`read/commands.py`), `CommandError` and `Outcome` subclasses
(`read/declarations.py`), `program(exit_codes=...)`, `burgee.X` attributes), with the name
checks made while reading (a name taken from burgee must be in `burgee.__all__`; burgee's own
modules, `burgee.write…`, are refused at the import, since the tool does not include them), then
the checks of `read/checks.py`, `strip`, and the `Program`; `nearest_project()`: the name and
version of the nearest pyproject.toml that has `[tool.burgee]`, for a program without a literal
version.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

from burgee.model.diagnostics import Diagnostic, GenerationError, SourceSpan
from burgee.model.ir import (
    COMMAND_NAME,
    NAME_RULE,
    PROGRAM_NAME,
    PROGRAM_NAME_RULE,
    Command,
    Group,
    Param,
    Program,
    env_word,
)
from burgee.model.reserved import FREE_NAMES, RESERVED_FLAGS
from burgee.read import docstrings
from burgee.read.annotations import NotLiteral, literal_value
from burgee.read.checks import calls_log, config_collisions, with_outcomes, with_stdin
from burgee.read.commands import NONE_IS_UNSAID, CommandReader
from burgee.read.declarations import assignment
from burgee.read.dialects import translate
from burgee.read.effects import declared_effects
from burgee.read.frameworks import Frameworks, frameworks
from burgee.read.imports import (
    Bundle,
    bundle,
    installed_version,
    load_toml,
    nearest_pyproject,
    project_version,
    pyproject_dependencies,
    requirement,
)
from burgee.read.models import model_classes
from burgee.read.naming import API_NAMES, KEPT_API, env_clashes
from burgee.read.python_version import needed_minor
from burgee.read.reader import is_none
from burgee.read.runtime_use import start_notes, typing_notes
from burgee.read.source import check, longest_line, marker_lines, statements_naming
from burgee.read.strip import Stripped, strip
from burgee.runtime.core.errors import BUILTIN_ERRORS

_REQUIREMENT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*\s*(\[[^\]]*\])?\s*([;<>=!~@ (].*)?$")
_SHORT = re.compile(r"^-[A-Za-z0-9]$")
_ENV = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
#: `from` and the space after it, up to the module name of `from MODULE import ...`.
_AFTER_FROM = re.compile(r"from(?:[ \t\f]|\\\r?\n)*")


_PROGRAM_KEYS = (
    "name",
    "version",
    "description",
    "env_prefix",
    "config",
    "max_output",
    "dependencies",
    "exit_codes",
    "options",
    "default",
    "version_short",
)
#: The names a handlers file may import from burgee: its public API, read from the package.


class ProgramReader(CommandReader):
    """Walks the top level of one handlers file, collecting the program and every problem."""

    # -- the walk ---------------------------------------------------------------------------

    def read(self) -> None:
        """Read every top-level statement."""
        body = self.tree.body
        for statement in body:
            if isinstance(statement, ast.Import | ast.ImportFrom):
                self.read_imports(statement)
        for statement in body:
            if isinstance(statement, ast.ClassDef):
                self.register_class(statement)
            elif isinstance(statement, ast.Assign | ast.AnnAssign):
                self.register_alias(statement)
        for statement in body:
            if isinstance(statement, ast.ClassDef):
                self.read_error_class(statement)
            elif isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
                self.read_function(statement)
            elif isinstance(statement, ast.Expr | ast.Assign | ast.AnnAssign):
                self.read_simple(statement)
        self.check_exit_codes()
        self.check_shared()
        if self.api_modules:
            self.read_runtime_attributes()
        tree = self.tree
        self.check_lazy_imports(tree)
        self.check_misplaced_commands(tree)
        self.check_names(tree)
        self.check_group_variables(tree)
        self.check_stripped_names(tree)
        self.check_records()

    def read_imports(self, statement: ast.Import | ast.ImportFrom) -> None:
        """Learn what imported names refer to, and which of them are burgee's."""
        if isinstance(statement, ast.ImportFrom) and statement.module is not None:
            module = statement.module
            if not statement.level and module.startswith("burgee."):
                self.check_api_module(self._module_place(statement), module)
            if statement.names[0].name == "*":
                if module == "burgee":
                    self.error(statement, "import burgee's names explicitly, not with *")
                return
            for alias in statement.names:
                imported = alias.name
                local = alias.asname or imported
                self.names.imports[local] = f"{module}.{imported}"
                if module == "burgee":
                    self.check_api_name(alias, imported)
                    self.api[local] = imported
            if module == "burgee":
                self.removals.statements.add(id(statement))
        elif isinstance(statement, ast.Import):
            for alias in statement.names:
                imported = alias.name
                local = alias.asname or imported
                if imported.startswith("burgee."):
                    self.check_api_module(alias, imported)
                self.names.imports[local.split(".")[0]] = (
                    imported if alias.asname else imported.split(".")[0]
                )
                if imported == "burgee":
                    self.api_modules.add(local)
                    self.removals.statements.add(id(statement))

    def _module_place(self, statement: ast.ImportFrom) -> ast.AST:
        """A stand-in node at the module name of `from MODULE import ...`."""
        start = self.text.start(statement)
        found = _AFTER_FROM.match(self.text.source, start)
        index = found.end() if found is not None else start
        line = self.text.line_of(index)
        place = ast.Name(id=statement.module or "")
        place.lineno = line
        place.col_offset = len(self.text.source[self.text.starts[line - 1] : index].encode())
        return place

    def read_runtime_attributes(self) -> None:
        """`burgee.CommandError` / `burgee.Context` / `burgee.Outcome` become the runtime's own
        names; any other `burgee.X` must be one of burgee's names."""
        for statement in statements_naming(self.original, tuple(sorted(self.api_modules))):
            for node in ast.walk(statement):
                if not isinstance(node, ast.Attribute):
                    continue
                name = self.api_name(node)
                if name is not None:
                    self.check_api_name(self.attr_span_node(node), name)
                if name in KEPT_API:
                    self.removals.replace(self.text, node, node.attr)
                    self.kept_attributes.add(name)

    def check_api_name(self, node: ast.AST, name: str) -> None:
        """A name taken from burgee must be one burgee defines: the import is removed from
        the tool, so an unknown one would fail only when the tool starts."""
        if name not in API_NAMES:
            known = ", ".join(sorted(API_NAMES))
            self.error(node, f"burgee has no name {name!r}; it defines {known}")

    def check_api_module(self, node: ast.AST, module: str) -> None:
        """burgee's own modules are not part of a tool: it runs without burgee installed, so
        the import would fail when the tool starts, even for `--help`."""
        known = ", ".join(sorted(API_NAMES))
        self.error(
            node,
            f"{module} is part of burgee, which the generated tool does not include; "
            f"import from burgee itself: {known}",
        )

    def read_simple(self, statement: ast.Expr | ast.Assign | ast.AnnAssign) -> None:
        """Read `program(...)` and `name = group(...)` statements."""
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
            if self.api_name(statement.value.func) == "program":
                self.read_program_call(statement.value)
                self.removals.statements.add(id(statement))
        target, value = assignment(statement)
        if target is not None and isinstance(value, ast.Call):
            self.read_group(statement, target, value)

    def read_program_call(self, call: ast.Call) -> None:
        """Read the literal arguments of `program(...)`."""
        if self.program_seen:
            # NOTE: the first call is the program's; this one is not read (its arguments would
            # mix with the first's).
            self.error(call, "program(...) is called more than once")
            return
        self.program_seen = True
        args = self.call_args(call, _PROGRAM_KEYS, set(_PROGRAM_KEYS), "program()")
        self.program_nodes = args
        for key, value in args.items():
            if is_none(value) and key in NONE_IS_UNSAID:
                continue  # NOTE: the signature's own default, spelled out
            if key == "exit_codes":
                self.read_exit_codes(value)
                continue
            if key == "options":
                self.read_options(value, ())
                continue
            try:
                self.program_args[key] = self.literal(value, f"program({key}=...)")
            except NotLiteral:
                continue
            if key == "max_output":
                self.check_max_output(value, self.program_args[key], "program")
                continue
            if key == "dependencies":
                listed = self.program_args[key]
                if not isinstance(listed, tuple) or not all(
                    isinstance(d, str) and _REQUIREMENT.match(d) for d in listed
                ):
                    self.error(value, "program(dependencies=...) must be a list of requirements")
                    self.program_args[key] = ()
                continue
            expected = bool if key == "config" else str
            if self.program_args[key] is None and key in ("version", "description"):
                continue  # NOTE: the same as not saying (`version=None`: from pyproject.toml)
            if not isinstance(self.program_args[key], expected):
                self.error(value, f"program({key}=...) must be a {expected.__name__}")
        short = self.program_args.get("version_short")
        taken = {*RESERVED_FLAGS, "-h"}
        if isinstance(short, str) and (not _SHORT.match(short) or short in taken):
            self.error(
                args["version_short"],
                f"program(version_short={short!r}) must be a short flag (-V) the tool does not"
                " use already",
            )
            self.program_args["version_short"] = None
        prefix = self.program_args.get("env_prefix")
        if isinstance(prefix, str) and not _ENV.match(prefix):
            self.error(args["env_prefix"], f"env_prefix {prefix!r} is not a valid variable name")

    def read_exit_codes(self, value: ast.expr) -> None:
        """`program(exit_codes={"internal": 70})`: built-in kinds moved to other codes."""
        if not isinstance(value, ast.Dict):
            self.error(value, 'program(exit_codes=...) must be a dict such as {"internal": 70}')
            return
        for key, item in zip(value.keys, value.values, strict=True):
            if key is None:
                message = "program(exit_codes=...): ** is not supported here"
                self.diagnostics.append(Diagnostic(span=self.span(item, shift=-2), message=message))
                continue
            try:
                kind, code = literal_value(key), literal_value(item)
            except ValueError:
                kind = code = None
            if not isinstance(kind, str) or kind not in BUILTIN_ERRORS:
                known = ", ".join(BUILTIN_ERRORS)
                self.error(key, f"exit_codes: {kind!r} is not a built-in kind ({known})")
            elif not isinstance(code, int) or isinstance(code, bool) or not 1 <= code <= 125:
                self.error(item, f"exit_codes: {kind!r} needs an exit code from 1 to 125")
            else:
                self.moved[kind] = (code, key)

    def read_group(self, statement: ast.stmt, target: str, call: ast.Call) -> None:
        """Read `tasks = group("tasks", help=...)` or `sub = tasks.group(...)`."""
        func = call.func
        parent = self.parent_of(func, "group")
        if parent is None:
            return
        self.removals.statements.add(id(statement))
        args = self.call_args(call, ("name", "help"), {"name", "help", "options"}, "group()")
        try:
            name = self.literal(args["name"], "a group name") if "name" in args else None
            help_text = self.literal(args["help"], "group help") if "help" in args else ""
        except NotLiteral:
            return
        if not isinstance(name, str) or not COMMAND_NAME.match(name):
            self.error(call, f"group() needs a name: {NAME_RULE}")
            # NOTE: its commands are still read, under the variable's name, so their own
            # problems are reported now too (nothing is written either way).
            name = target
        if help_text is not None and not isinstance(help_text, str):
            self.error(args["help"], "group(help=...) must be a string")
            help_text = ""
        group = Group(path=(*parent, name), help=str(help_text or ""), span=self.span(call))
        if "options" in args:
            self.read_options(args["options"], group.path)
        self.groups[target] = group
        self.group_nodes.append(group)


def read_program(
    source: str, path: str, *, name: str | None = None, version: str | None = None
) -> Program:
    """Read a handlers file; raise GenerationError with every problem found."""
    # NOTE: first what could crash a parser (deep nesting, huge literals) and Python's own
    # syntax errors; then the file's `ast` tree is read.
    check(source, path)
    bundled = bundle(source, path)
    if bundled.source != source:
        # NOTE: sibling modules were bundled in: check the whole again.
        source = bundled.source
        check(source, path)
    dialect = "burgee"
    translated = translate(source, path, bundled.origins)
    if translated is not None:
        # NOTE: a Typer or Click program, now written in burgee's dialect (read/dialects/)
        source, dialect = translated.source, translated.dialect
        check(source, path)
        third_party = {m: s for m, s in bundled.third_party.items() if m not in translated.dropped}
        bundled = Bundle(source, translated.origins, third_party, bundled.siblings)
    # NOTE: an app burgee did not write is an installed package's, with a version of its own
    installed = installed_version(path) if translated is not None else None
    try:
        program = _read(source, path, name, version, bundled=bundled, installed=installed)
    except RecursionError:
        line = longest_line(source)
        message = (
            "an expression here is too long or too deeply nested for burgee to read "
            "(RecursionError); split it, or move it into a helper function"
        )
        span = SourceSpan(path=path, line=line, column=1)
        raise GenerationError([Diagnostic(span=span, message=message)]) from None
    if translated is None:
        return program
    warnings = (*translated.warnings, *program.warnings)
    return program.model_copy(update={"dialect": dialect, "warnings": warnings})


def _read(
    source: str,
    path: str,
    name: str | None,
    version: str | None,
    *,
    bundled: Bundle,
    installed: str | None = None,
) -> Program:
    reader, program_name = _checked_reader(source, path, name, bundled)
    stripped = strip(reader.text, reader.tree, reader.removals, model_classes(reader))
    minor, newer = needed_minor(source, path)
    if newer is not None:
        newer = newer.model_copy(update={"span": bundled.place(newer.span)})
    used = frameworks(reader.original, reader.span)
    third_party, dependencies, warnings = _packages(
        reader, bundled, stripped, used, path, newer=newer, program_name=program_name
    )
    module_doc = docstrings.parse(ast.get_docstring(reader.tree)).description
    aliases = tuple(
        sorted(
            (local, api) for local, api in reader.api.items() if local != api and api in KEPT_API
        )
    )
    # NOTE: the runtime's own `Image`/`Audio` only where the file takes them from burgee; its
    # own class of that name (`FREE_NAMES`) is no reason to join them.
    kept = tuple(sorted((set(reader.api.values()) | reader.kept_attributes) & FREE_NAMES))
    declared = version or reader.program_args.get("version")
    project = None if declared else nearest_project(path)
    commands = _commands(reader, source, path)
    program = Program(
        name=str(program_name),
        version=str(declared or (project[1] if project else installed or "0.1.0")),
        distribution=project[0] if project else None,
        description=str(reader.program_args.get("description") or module_doc),
        env_prefix=reader.program_args.get("env_prefix"),  # type: ignore[arg-type]
        config=bool(reader.program_args.get("config", False)),
        default=reader.program_args.get("default"),  # type: ignore[arg-type]
        version_short=reader.program_args.get("version_short") or "",  # type: ignore[arg-type]
        max_output=_max_output(reader.program_args.get("max_output")),
        source_name=Path(path).name,
        groups=tuple(reader.group_nodes),
        commands=tuple(commands),
        prompts=tuple(reader.prompts),
        resources=tuple(reader.resources),
        logging=calls_log(source),
        errors=tuple(reader.errors),
        outcomes=tuple(reader.outcomes),
        exit_codes=tuple(sorted((k, code) for k, (code, _) in reader.moved.items())),
        records=tuple(reader.records.values()),
        forms=tuple(sorted(reader.forms)),
        enums=tuple(reader.enums.values()),
        user_imports=stripped.imports,
        user_checking=stripped.checking,
        user_deferred=stripped.deferred,
        user_made_later=stripped.made_later,
        user_code=stripped.code,
        user_models=stripped.models,
        aliases=aliases,
        kept=kept,
        python_minor=minor,
        warnings=tuple(warnings),
        third_party=third_party,
        dependencies=dependencies if third_party else (),
        bundled=tuple(bundled.siblings),
        frameworks=used.used,
        stand_ins=used.stand_ins,
    )
    clashes = env_clashes(program)
    if clashes:
        raise GenerationError(clashes)
    return program


def _checked_reader(
    source: str, path: str, name: str | None, bundled: Bundle
) -> tuple[ProgramReader, str]:
    """The file read, and the program's name; every problem found, raised at once."""
    reader = ProgramReader(source, path)
    reader.origins = bundled.origins
    reader.read()
    top = SourceSpan(path=path, line=1, column=1)
    if not reader.commands and not reader.diagnostics:
        reader.diagnostics.append(
            Diagnostic(span=top, message="no commands found: decorate a function with @command")
        )
    program_name = name or reader.program_args.get("name") or _default_name(path)
    if not isinstance(program_name, str) or not PROGRAM_NAME.match(program_name):
        given = reader.program_nodes.get("name") if not name else None
        where = reader.span(given) if given is not None else top
        what = "program(name=...)" if given is not None else "the handlers file's path"
        fix = "" if given is not None else "; give one with program(name=...)"
        reader.diagnostics.append(
            Diagnostic(
                span=where,
                message=f"program name {program_name!r} (from {what}) is not a command name: "
                f"{PROGRAM_NAME_RULE}{fix}",
            )
        )
    reader.diagnostics.extend(
        found.model_copy(update={"span": bundled.place(found.span)})
        for found in marker_lines(source, path)
    )
    if reader.diagnostics:
        # NOTE: a shared alias's problem is found once for each command that names it.
        unique = {(d.span, d.message): d for d in reader.diagnostics}
        raise GenerationError(sorted(unique.values(), key=_position))
    return reader, str(program_name)


def _packages(
    reader: ProgramReader,
    bundled: Bundle,
    stripped: Stripped,
    used: Frameworks,
    path: str,
    *,
    newer: Diagnostic | None,
    program_name: str,
) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...], list[Diagnostic]]:
    """The third-party modules the tool imports (each with its package), the dependencies,
    and the warnings about the file."""
    declared = reader.program_args.get("dependencies")
    dependencies = (
        tuple(str(d) for d in declared) if isinstance(declared, tuple) and declared else ()
    ) or pyproject_dependencies(path)
    # NOTE: a framework the runtime's stand-in replaces is no dependency of the tool.
    third_party = tuple(
        (module, requirement(module, dependencies))
        for module in sorted(bundled.third_party)
        if module not in used.stand_ins
    )
    warnings = [newer] if newer is not None else []
    warnings += reader.warnings
    warnings += [n.model_copy(update={"span": bundled.place(n.span)}) for n in used.notes]
    warnings += typing_notes(reader.tree, reader.span, stripped.typing_at_run_time)
    warnings += start_notes(
        reader.tree, reader.span, stripped.eager, set(bundled.third_party) - set(used.stand_ins)
    )
    if reader.program_args.get("config") is True:
        warnings += config_collisions(str(program_name), reader.commands)
    listed = {d.strip() for d in dependencies}
    unlisted = [m for m, package in third_party if listed and package not in listed]
    if unlisted:
        warnings.append(_unlisted(unlisted, bundled, path, bool(declared)))
    if third_party and not dependencies:
        dependencies = tuple(sorted({package for _, package in third_party}))
        first = min(
            (bundled.third_party[module] for module, _ in third_party),
            key=lambda s: (s.path != path, s.line),
        )
        warnings.append(
            Diagnostic(
                span=first,
                level="warning",
                message="the handlers import third-party packages but declare no dependencies; "
                f"the tool's PEP 723 block lists {', '.join(dependencies)}: declare them, with "
                "versions, in program(dependencies=[...]) or pyproject.toml",
            )
        )
    return third_party, dependencies, warnings


def _commands(reader: ProgramReader, source: str, path: str) -> tuple[Command, ...]:
    """The commands read, with what the file says of them elsewhere (outcomes, stdin,
    declared effects, the env prefix)."""
    read = with_stdin(with_outcomes(reader.commands, reader.outcomes, source), source)
    found, problems = declared_effects(path, list(read))
    if problems:
        raise GenerationError(problems)
    commands = tuple(found)
    prefix = reader.program_args.get("env_prefix")
    if isinstance(prefix, str) and prefix:
        commands = per_command_env(commands, prefix)
    return commands


def nearest_project(path: str) -> tuple[str, str] | None:
    """The name and version of the nearest pyproject.toml's `[project]`, when that project
    generates its tool with burgee (it has `[tool.burgee]`; see `project_version`)."""
    version = project_version(path)
    found = nearest_pyproject(path) if version is not None else None
    data = load_toml(found) if found is not None else None
    project = data.get("project") if data is not None else None
    name = project.get("name") if isinstance(project, dict) else None
    return (name, version) if isinstance(name, str) and version is not None else None


def _unlisted(modules: list[str], bundled: Bundle, path: str, in_program: bool) -> Diagnostic:
    """A warning at the first import of a third-party module no declared dependency provides:
    the tool's PEP 723 block (and a package's metadata) would not install it."""
    first = min((bundled.third_party[m] for m in modules), key=lambda s: (s.path != path, s.line))
    pyproject = None if in_program else nearest_pyproject(path)
    source = "program(dependencies=[...])" if pyproject is None else os.path.relpath(pyproject)
    one = len(modules) == 1
    return Diagnostic(
        span=first,
        level="warning",
        message=f"the handlers import {', '.join(modules)}, which no declared dependency "
        f"provides (the dependencies come from {source}); the tool's PEP 723 block does not "
        f"install {'it' if one else 'them'}: add {'its' if one else 'their'} distribution there",
    )


def _position(diagnostic: Diagnostic) -> tuple[int, int]:
    return diagnostic.span.line, diagnostic.span.column


def per_command_env(commands: tuple[Command, ...], prefix: str) -> tuple[Command, ...]:
    """Options of one name that differ from command to command (`limit` with `max=1000` in
    `log`, `max=100` in `authors top`) read an env var each, named as Click's
    `auto_envvar_prefix` names them (`PREFIX_LOG_LIMIT`, `PREFIX_AUTHORS_TOP_LIMIT`): one
    `PREFIX_LIMIT` meant for one would break the other. Options alike keep `PREFIX_LIMIT`."""

    def rules(param: Param) -> tuple[object, ...]:
        ref = param.type
        assert ref is not None
        bounds = (param.minimum, param.maximum, param.pattern, param.min_length, param.max_length)
        return (ref.source, param.default_code, param.required, param.nargs, *bounds)

    seen: dict[str, set[tuple[object, ...]]] = {}
    for command in commands:
        for param in command.inputs:
            if param.role == "option" and param.env is None and param.shared is None:
                seen.setdefault(param.name, set()).add(rules(param))
    differ = {name for name, found in seen.items() if len(found) > 1}
    if not differ:
        return commands
    stem = prefix if prefix.endswith("_") else prefix + "_"
    changed = []
    for command in commands:
        words = "_".join(command.path).upper().replace("-", "_")
        params = tuple(
            param.model_copy(update={"env": f"{stem}{words}_{env_word(param.name)}"})
            if param.name in differ and param.env is None and param.shared is None
            else param
            for param in command.params
        )
        # NOTE: made anew, not `model_copy`, which would keep a cached `inputs`.
        fields = {key: getattr(command, key) for key in Command.model_fields}
        changed.append(Command(**{**fields, "params": params}))
    return tuple(changed)


#: File names that say what a file is, not what the program is called: its folder's name is.
_GENERIC_STEMS = frozenset(
    ("handlers", "main", "cli", "app", "init", "commands", "shell", "console")
)


def _default_name(path: str) -> str:
    """The program's name from its file: the stem, or its folder's name where the stem is
    generic (`cruft/_cli.py`, `tool/__main__.py`, `mytool/app.py` -> the folder's)."""
    file = Path(path).resolve()
    stem = file.stem.strip("_")
    if stem in _GENERIC_STEMS:
        stem = file.parent.name
    return stem.replace("_", "-").lower()


def _max_output(value: object) -> int | None:
    return value if type(value) is int and value >= 0 else None
