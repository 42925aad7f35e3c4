"""Read a handlers file with `ast` (never importing it) into a `Program`."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import burgee
from burgee.model.diagnostics import Diagnostic, GenerationError, SourceSpan
from burgee.model.ir import (
    EFFECTS,
    TRUSTS,
    Command,
    ErrorDecl,
    Group,
    OutcomeDecl,
    Param,
    Program,
    Scalar,
    TypeRef,
)
from burgee.model.reserved import (
    CONFIRM_FLAGS,
    RESERVED_COMMANDS,
    RESERVED_FLAGS,
    RESERVED_WHEN,
    RUNTIME_IMPORTS,
    RUNTIME_NAMES,
    SHADOWABLE_FLAGS,
)
from burgee.read import docstrings
from burgee.read.annotations import NotLiteral, UnsupportedType, literal_value
from burgee.read.classes import read_type
from burgee.read.imports import (
    Bundle,
    bundle,
    distribution,
    load_toml,
    nearest_pyproject,
    project_version,
    pyproject_dependencies,
)
from burgee.read.params import read_params
from burgee.read.python_version import needed_minor
from burgee.read.reader import Decorator, Reader
from burgee.read.source import check, longest_line, nested_imports, statements_with
from burgee.read.source import tree as parsed
from burgee.read.strip import strip
from burgee.read.surfaces import read_prompt, read_resource
from burgee.runtime.errors import BUILTIN_ERRORS

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
_REQUIREMENT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*\s*(\[[^\]]*\])?\s*([;<>=!~@ (].*)?$")
_COMMAND_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")
_KIND = re.compile(r"^[a-z][a-z0-9_]*$")
_SHORT = re.compile(r"^-[A-Za-z0-9]$")
_ENV = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
#: `from` and the space after it, up to the module name of `from MODULE import ...`.
_AFTER_FROM = re.compile(r"from(?:[ \t\f]|\\\r?\n)*")
_COMMAND_KEYS = {
    "effects",
    "name",
    "examples",
    "cardinality",
    "hidden",
    "open_world",
    "max_output",
    "sanitize",
    "trust",
    "aliases",
    "root",
    "confirm",
}
_PROGRAM_KEYS = (
    "name",
    "version",
    "description",
    "env_prefix",
    "config",
    "max_output",
    "dependencies",
    "exit_codes",
)
#: The names a handlers file may import from burgee: its public API, read from the package.
API_NAMES = frozenset(name for name in burgee.__all__ if not name.startswith("__"))


class ProgramReader(Reader):
    """Walks the top level of one handlers file, collecting the program and every problem."""

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
        for statement in body:
            if isinstance(statement, ast.ClassDef):
                self.read_error_class(statement)
            elif isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
                self.read_function(statement)
            elif isinstance(statement, ast.Expr | ast.Assign | ast.AnnAssign):
                self.read_simple(statement)
        self.check_exit_codes()
        if self.api_modules:
            self.read_runtime_attributes()
        tree = self.tree
        self.check_lazy_imports(tree)
        self.check_misplaced_commands(tree)
        self.check_names(tree)
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
        words = "|".join(re.escape(name) for name in sorted(self.api_modules))
        for statement in statements_with(self.original, rf"\b(?:{words})\b"):
            for node in ast.walk(statement):
                if not isinstance(node, ast.Attribute):
                    continue
                name = self.api_name(node)
                if name is not None:
                    self.check_api_name(self.attr_span_node(node), name)
                if name in ("CommandError", "Context", "Outcome"):
                    self.removals.replace(self.text, node, node.attr)

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

    def register_class(self, node: ast.ClassDef) -> None:
        """Note enums and records by name before any annotation is resolved."""
        name = node.name
        self.classes[name] = node
        bases = [self.names.qualify(b) or "" for b in node.bases]
        if any(b.startswith("enum.") for b in bases):
            self.names.enums[name] = _enum_values(node)
        elif any(b.endswith(".TypedDict") for b in bases) or any(
            (self.names.qualify(_decorator_target(d)) or "").endswith("dataclasses.dataclass")
            for d in node.decorator_list
        ):
            self.names.records.add(name)

    def read_error_class(self, node: ast.ClassDef) -> None:
        """Read a CommandError subclass as a declared error (an Outcome one as an outcome)."""
        if self.is_error_class(node, base="Outcome"):
            self.read_outcome_class(node)
            return
        if not self.is_error_class(node):
            return
        attrs = self.error_attributes(node)
        own = self.error_attributes(node, inherited=False)
        if "kind" not in own and "exit_code" not in own and self.is_error_class(node, local=True):
            # NOTE: a subclass that changes neither is the same error, declared once already.
            return
        description = docstrings.parse(ast.get_docstring(node)).description
        kind, exit_code = attrs.get("kind"), attrs.get("exit_code")
        retryable = attrs.get("retryable", False)
        if not isinstance(kind, str) or not _KIND.match(kind):
            self.error(node, f"error class {node.name} needs kind = 'snake_case_name'")
            return
        if not isinstance(exit_code, int) or isinstance(exit_code, bool):
            if kind in BUILTIN_ERRORS:
                self.error(node, f"error kind {kind!r} is built in; choose another kind")
            self.error(node, f"error class {node.name} needs exit_code = <integer>")
            return
        if kind in BUILTIN_ERRORS:
            # NOTE: the built-in error itself, raised by a handler, when its code is the same
            # (checked once program(exit_codes=...) is known); never a second declaration.
            self.builtin_raised.append((node, kind, exit_code))
            return
        decl = ErrorDecl(
            class_name=node.name,
            kind=kind,
            exit_code=exit_code,
            retryable=bool(retryable),
            description=description,
            span=self.span(node),
        )
        kinds, codes = self.kinds, self.codes
        if kind in kinds:
            self.error(
                node,
                f"error kind {kind!r} of {decl.class_name} is already declared by "
                f"{kinds[kind].class_name}; give each error its own kind",
            )
            return
        if exit_code in codes:
            other = codes[exit_code]
            self.error(
                node,
                f"exit_code {exit_code} of {decl.class_name} is already used by "
                f"{other.class_name} (kind {other.kind!r}); give each kind its own exit code",
            )
            return
        kinds[kind], codes[exit_code] = decl, decl
        self.errors.append(decl)

    def read_outcome_class(self, node: ast.ClassDef) -> None:
        """Read an Outcome subclass: a declared outcome (`name`, `exit_code`, the docstring)."""
        attrs = self.error_attributes(node)
        own = self.error_attributes(node, inherited=False)
        if (
            "name" not in own
            and "exit_code" not in own
            and self.is_error_class(node, local=True, base="Outcome")
        ):
            return  # NOTE: the same outcome, declared once already
        name, exit_code = attrs.get("name"), attrs.get("exit_code")
        class_name = node.name
        if not isinstance(name, str) or not _KIND.match(name):
            self.error(node, f"outcome class {class_name} needs name = 'snake_case_name'")
            return
        if not isinstance(exit_code, int) or isinstance(exit_code, bool):
            self.error(node, f"outcome class {class_name} needs exit_code = <integer>")
            return
        for other in self.outcomes:
            if name == other.name:
                self.error(
                    node,
                    f"outcome name {name!r} of {class_name} is already declared by "
                    f"{other.class_name}; give each outcome its own name",
                )
                return
        self.outcomes.append(
            OutcomeDecl(
                class_name=class_name,
                name=name,
                exit_code=exit_code,
                description=docstrings.parse(ast.get_docstring(node)).description,
                span=self.span(node),
            )
        )

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

    def is_error_class(
        self,
        node: ast.ClassDef,
        seen: frozenset[str] = frozenset(),
        *,
        local: bool = False,
        base: str = "CommandError",
    ) -> bool:
        """True for a class that derives from burgee's `base` (CommandError, or Outcome),
        directly or not (`local`: only through such a class of this file)."""
        for parent_node in node.bases:
            if self.api_name(parent_node) == base and not local:
                return True
            parent = parent_node.id if isinstance(parent_node, ast.Name) else None
            if parent in self.classes and parent not in seen:
                if self.is_error_class(self.classes[parent], seen | {node.name}, base=base):
                    return True
        return False

    def error_attributes(self, node: ast.ClassDef, *, inherited: bool = True) -> dict[str, object]:
        """`kind`, `exit_code`, `retryable` (and an outcome's `name`), inherited from local
        parent classes."""
        attrs: dict[str, object] = {}
        for base in node.bases if inherited else ():
            if isinstance(base, ast.Name) and base.id in self.classes:
                attrs.update(self.error_attributes(self.classes[base.id]))
        for small in node.body:
            target, value = _assignment(small)
            if target in ("kind", "exit_code", "retryable", "name") and value is not None:
                try:
                    attrs[target] = self.literal(value, f"{node.name}.{target}")
                except NotLiteral:
                    pass
        return attrs

    def read_simple(self, statement: ast.Expr | ast.Assign | ast.AnnAssign) -> None:
        """Read `program(...)` and `name = group(...)` statements."""
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
            if self.api_name(statement.value.func) == "program":
                self.read_program_call(statement.value)
                self.removals.statements.add(id(statement))
        target, value = _assignment(statement)
        if target is not None and isinstance(value, ast.Call):
            self.read_group(statement, target, value)

    def read_program_call(self, call: ast.Call) -> None:
        """Read the literal arguments of `program(...)`."""
        if self.program_args:
            self.error(call, "program(...) is called more than once")
        args = self.call_args(call, _PROGRAM_KEYS, set(_PROGRAM_KEYS), "program()")
        for key, value in args.items():
            if key == "exit_codes":
                self.read_exit_codes(value)
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

    def parent_of(self, func: ast.expr, api: str) -> tuple[str, ...] | None:
        """The group path that `group(...)`/`command(...)` (or `grp.group`, `grp.command`)
        places its result in: `()` at the top level; None when `func` is not burgee's."""
        if self.api_name(func) == api:
            return ()
        if (
            isinstance(func, ast.Attribute)
            and func.attr == api
            and isinstance(func.value, ast.Name)
            and func.value.id in self.groups
        ):
            return self.groups[func.value.id].path
        return None

    def read_group(self, statement: ast.stmt, target: str, call: ast.Call) -> None:
        """Read `tasks = group("tasks", help=...)` or `sub = tasks.group(...)`."""
        func = call.func
        parent = self.parent_of(func, "group")
        if parent is None:
            return
        self.removals.statements.add(id(statement))
        args = self.call_args(call, ("name", "help"), {"name", "help"}, "group()")
        try:
            name = self.literal(args["name"], "a group name") if "name" in args else None
            help_text = self.literal(args["help"], "group help") if "help" in args else ""
        except NotLiteral:
            return
        if not isinstance(name, str) or not _COMMAND_NAME.match(name):
            self.error(call, "group() needs a name: letters, digits, '-' and '_'")
            return
        group = Group(path=(*parent, name), help=str(help_text or ""), span=self.span(call))
        self.groups[target] = group
        self.group_nodes.append(group)

    def read_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        """Read a function decorated as a command, a prompt or a resource."""
        found = False
        for index, decorator in enumerate(self.decorators(node)):
            target = _decorator_target(decorator.decorator)
            surface = self.api_name(target)
            if surface in ("prompt", "resource"):
                self.removals.remove_decorator(self.text, node, index)
                if found:
                    self.error(decorator, f"{node.name} is already a command or a {surface}")
                    continue
                found = True
                self.surfaces_seen.add(surface + "s")
                if surface == "prompt":
                    prompt = read_prompt(self, node, decorator)
                    if prompt is not None:
                        self.prompts.append(prompt)
                else:
                    resource = read_resource(self, node, decorator)
                    if resource is not None:
                        self.resources.append(resource)
                continue
            parent = self.parent_of(target, "command")
            if parent is None:
                continue
            self.removals.remove_decorator(self.text, node, index)
            if found:
                self.error(
                    decorator,
                    f"{node.name} has more than one @command; a function is one command",
                )
                continue
            found = True
            if not isinstance(decorator.decorator, ast.Call):
                self.error(decorator, "@command needs effects=..., as in @command(effects=...)")
                continue
            self.read_command(node, decorator, decorator.decorator, parent)

    def read_command(
        self,
        node: ast.FunctionDef | ast.AsyncFunctionDef,
        decorator: Decorator,
        call: ast.Call,
        parent: tuple[str, ...],
    ) -> None:
        """Build a Command from a decorated function."""
        args = self.call_args(call, (), _COMMAND_KEYS, "@command")
        options: dict[str, object] = {}
        for key, value in args.items():
            try:
                options[key] = self.literal(value, f"@command({key}=...)")
            except NotLiteral:
                continue
        effects = options.get("effects")
        if "effects" not in args:
            self.error(
                decorator,
                f"command {node.name} needs effects=: one of {', '.join(EFFECTS)}",
            )
        elif effects not in EFFECTS:
            self.error(args["effects"], f"effects must be one of {', '.join(EFFECTS)}")
        name = options.get("name") or node.name.replace("_", "-")
        if not isinstance(name, str) or not _COMMAND_NAME.match(name):
            self.error(decorator, f"command name {name!r}: use letters, digits, '-' and '_'")
            return
        examples = options.get("examples", ())
        if not isinstance(examples, tuple) or not all(isinstance(e, str) for e in examples):
            self.error(args["examples"], "examples must be a list of strings")
            examples = ()
        listed = args.get("examples")
        example_spans = (
            tuple(self.span(element) for element in listed.elts)
            if isinstance(listed, ast.List | ast.Tuple) and len(listed.elts) == len(examples)
            else ()
        )
        cardinality = options.get("cardinality")
        if cardinality not in (None, "single", "bounded", "unbounded"):
            self.error(args["cardinality"], "cardinality must be single, bounded or unbounded")
            cardinality = None
        max_output = options.get("max_output")
        if "max_output" in args:
            self.check_max_output(args["max_output"], max_output, "@command")
        sanitize = options.get("sanitize", True)
        if not isinstance(sanitize, bool):
            self.error(args["sanitize"], "sanitize must be True or False")
        trust = options.get("trust", "workspace")
        if trust not in TRUSTS:
            self.error(args["trust"], f"trust must be one of {', '.join(TRUSTS)}")
            trust = "workspace"
        if trust == "workspace" and options.get("open_world") is True:
            # NOTE: a command that reaches the open world brings back what it found there.
            trust = "external"
        aliases = options.get("aliases", ())
        if not isinstance(aliases, tuple) or not all(
            isinstance(a, str) and _COMMAND_NAME.match(a) and a != name for a in aliases
        ):
            self.error(
                args["aliases"],
                "aliases must be a list of command names (letters, digits, '-' and '_'), "
                "each other than the command's name",
            )
            aliases = ()
        root = options.get("root", False)
        if not isinstance(root, bool):
            self.error(args["root"], "root must be True or False")
            root = False
        confirm = options.get("confirm", True)
        if not isinstance(confirm, (bool, str)) or confirm == "":
            self.error(args["confirm"], "confirm must be True, False or the question to ask")
            confirm = True
        doc = docstrings.parse(ast.get_docstring(node))
        params = read_params(self, node, doc)
        returns = None
        if node.returns is not None:
            try:
                returns = read_type(self, node.returns, "return")
            except UnsupportedType as exc:
                self.error(exc.node, f"return type of {node.name}: {exc.message}")
        if effects not in EFFECTS:
            return
        self.commands.append(
            Command(
                path=(*parent, name),
                function=node.name,
                summary=doc.summary,
                description=doc.description,
                effects=effects,  # type: ignore[arg-type]
                examples=examples,
                example_spans=example_spans,
                cardinality=cardinality,
                hidden=bool(options.get("hidden", False)),
                open_world=options.get("open_world"),  # type: ignore[arg-type]
                max_output=max_output if isinstance(max_output, int) else None,
                sanitize=sanitize is not False,
                trust=trust,  # type: ignore[arg-type]
                aliases=aliases,
                root=root,
                confirm=(
                    None
                    if effects != "destructive" or confirm is False
                    else "Proceed?"
                    if confirm is True
                    else confirm
                ),
                is_async=isinstance(node, ast.AsyncFunctionDef),
                params=params,
                returns=returns,
                span=self.span(decorator),
            )
        )

    def check_max_output(self, node: ast.AST, value: object, where: str) -> None:
        """`max_output=` is a number of characters: a whole number, 0 for no limit."""
        if type(value) is not int or value < 0:
            self.error(
                node, f"{where}(max_output=...) must be a whole number of characters (0: no limit)"
            )

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
                                    span=self.ast_span(decorator, shift=-1),
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
                                message=f"{flag} of destructive command {command.name!r} is the "
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
            self.diagnostics.append(Diagnostic(span=self.ast_span(node), message=message))

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


def _enum_values(node: ast.ClassDef) -> tuple[Scalar, ...]:
    """The literal member values of an enum class; `read_enum` reports any that are not."""
    values: list[Scalar] = []
    for statement in node.body:
        target, value = _assignment(statement)
        if target and not target.startswith("_") and value is not None:
            try:
                member = literal_value(value)
            except ValueError:
                continue
            if isinstance(member, str | int):
                values.append(member)
    return tuple(values)


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


def _decorator_target(decorator: ast.expr) -> ast.expr:
    return decorator.func if isinstance(decorator, ast.Call) else decorator


def _assignment(small: ast.stmt) -> tuple[str | None, ast.expr | None]:
    if isinstance(small, ast.Assign) and len(small.targets) == 1:
        target = small.targets[0]
        if isinstance(target, ast.Name):
            return target.id, small.value
    if isinstance(small, ast.AnnAssign) and isinstance(small.target, ast.Name):
        return small.target.id, small.value
    return None, None


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
    try:
        return _read(source, path, name, version, bundled=bundled)
    except RecursionError:
        line = longest_line(source)
        message = (
            "an expression here is too long or too deeply nested for burgee to read "
            "(RecursionError); split it, or move it into a helper function"
        )
        span = SourceSpan(path=path, line=line, column=1)
        raise GenerationError([Diagnostic(span=span, message=message)]) from None


def _read(
    source: str,
    path: str,
    name: str | None,
    version: str | None,
    *,
    bundled: Bundle,
) -> Program:
    reader = ProgramReader(source, path)
    reader.origins = bundled.origins
    reader.read()
    top = SourceSpan(path=path, line=1, column=1)
    if not reader.commands and not reader.diagnostics:
        reader.diagnostics.append(
            Diagnostic(span=top, message="no commands found: decorate a function with @command")
        )
    program_name = name or reader.program_args.get("name") or _default_name(path)
    if not isinstance(program_name, str) or not _NAME.match(program_name):
        reader.diagnostics.append(
            Diagnostic(span=top, message=f"program name {program_name!r} is not a command name")
        )
    if reader.diagnostics:
        raise GenerationError(sorted(reader.diagnostics, key=_position))
    imports, code = strip(reader.text, reader.tree, reader.removals)
    minor, newer = needed_minor(source, path)
    if newer is not None:
        newer = newer.model_copy(update={"span": bundled.place(newer.span)})
    declared = reader.program_args.get("dependencies")
    dependencies = (
        tuple(str(d) for d in declared) if isinstance(declared, tuple) and declared else ()
    ) or pyproject_dependencies(path)
    third_party = tuple(
        (module, distribution(module, dependencies)) for module in sorted(bundled.third_party)
    )
    warnings = [newer] if newer is not None else []
    if third_party and not dependencies:
        dependencies = tuple(sorted({package for _, package in third_party}))
        first = min(bundled.third_party.values(), key=lambda s: (s.path != path, s.line))
        warnings.append(
            Diagnostic(
                span=first,
                level="warning",
                message="the handlers import third-party packages but declare no dependencies; "
                f"the tool's PEP 723 block lists {', '.join(dependencies)}: declare them, with "
                "versions, in program(dependencies=[...]) or pyproject.toml",
            )
        )
    module_doc = docstrings.parse(ast.get_docstring(reader.tree)).description
    aliases = tuple(
        sorted(
            (local, api)
            for local, api in reader.api.items()
            if local != api and api in ("CommandError", "Context", "Outcome")
        )
    )
    declared = version or reader.program_args.get("version")
    project = None if declared else nearest_project(path)
    commands = _with_outcomes(reader.commands, reader.outcomes, source)
    return Program(
        name=str(program_name),
        version=str(declared or (project[1] if project else "0.1.0")),
        distribution=project[0] if project else None,
        description=str(reader.program_args.get("description") or module_doc),
        env_prefix=reader.program_args.get("env_prefix"),  # type: ignore[arg-type]
        config=bool(reader.program_args.get("config", False)),
        max_output=_max_output(reader.program_args.get("max_output")),
        source_name=Path(path).name,
        groups=tuple(reader.group_nodes),
        commands=commands,
        prompts=tuple(reader.prompts),
        resources=tuple(reader.resources),
        logging=_calls_log(source),
        errors=tuple(reader.errors),
        outcomes=tuple(reader.outcomes),
        exit_codes=tuple(sorted((k, code) for k, (code, _) in reader.moved.items())),
        records=tuple(reader.records.values()),
        enums=tuple(reader.enums.values()),
        user_imports=imports,
        user_code=code,
        aliases=aliases,
        python_minor=minor,
        warnings=tuple(warnings),
        third_party=third_party,
        dependencies=dependencies if third_party else (),
        bundled=tuple(bundled.siblings),
    )


def _with_outcomes(
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


def nearest_project(path: str) -> tuple[str, str] | None:
    """The name and version of the nearest pyproject.toml's `[project]`, when that project
    generates its tool with burgee (it has `[tool.burgee]`; see `project_version`)."""
    version = project_version(path)
    found = nearest_pyproject(path) if version is not None else None
    data = load_toml(found) if found is not None else None
    project = data.get("project") if data is not None else None
    name = project.get("name") if isinstance(project, dict) else None
    return (name, version) if isinstance(name, str) and version is not None else None


def _calls_log(source: str) -> bool:
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


def _position(diagnostic: Diagnostic) -> tuple[int, int]:
    return diagnostic.span.line, diagnostic.span.column


def _default_name(path: str) -> str:
    file = Path(path).resolve()
    stem = (
        file.stem if file.stem not in ("handlers", "main", "__main__", "cli") else file.parent.name
    )
    return stem.replace("_", "-").lower()


def _max_output(value: object) -> int | None:
    return value if type(value) is int and value >= 0 else None
