"""The intermediate representation: a frozen description of the program to generate.

Everything a template needs is computed here, including the Python source of every
literal (via `repr`), so templates never quote or escape anything themselves.

`cli_word()`, the one spelling of a Python name on the command line (kebab-case, a trailing
underscore dropped: commands, prompts, resources, flags, env vars); the frozen pydantic IR:
`Program` (`builtin_errors()`: the runtime's table with the program's moved exit codes;
`shared`: the spellings of the options the program's and each group's `options=` share, and how
many words each takes (the tool's `SHARED`); `paths`: what the words of a command line name, a
command or a group; `env_of()`, the env vars an option reads; `debug_env`, the one that turns on
tracebacks), `Command`, `Exclusive` (a command's group of options given apart: `exclusive=`, at
most one, or `one_of=`, exactly one), `Param`, `TypeRef`, `Record`, `EnumDecl`, `ErrorDecl`,
`OutcomeDecl`, `Group`, `Prompt`, `Resource`, each with a `SourceSpan`.
"""

from __future__ import annotations

import re
from functools import cache, cached_property
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict

from burgee.model.diagnostics import Diagnostic, SourceSpan
from burgee.runtime.core.errors import BUILTIN_ERRORS, FRAMEWORK_ERRORS

Effects = Literal[
    "read_only", "idempotent", "non_idempotent", "destructive", "withheld", "undeclared"
]
EFFECTS: tuple[str, ...] = get_args(Effects)
Trust = Literal["trusted", "workspace", "private", "external", "untrusted"]
TRUSTS: tuple[str, ...] = get_args(Trust)
Scalar = str | int | float | bool | None

#: The leaf kinds are the names of `TYPES` (`burgee.runtime.core.kinds`; a test holds the
#: two together), the others are built from them.
TypeKind = Literal[
    "str",
    "int",
    "float",
    "bool",
    "path",
    "textfile",
    "binaryfile",
    "date",
    "datetime",
    "time",
    "uuid",
    "decimal",
    "choice",
    "enum",
    "list",
    "record",
    "any",
    "dict",
    "tuple",
    "count",
    "none",
    "image",
    "audio",
    "resource",
    "content",
]


#: What a program's name may be (it is the command people type, and a file and env prefix).
PROGRAM_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
PROGRAM_NAME_RULE = "ASCII letters, digits, '.', '-' and '_', starting with a letter or a digit"
#: What a command's, an alias', a prompt's or a resource's name may be, and the rule in words.
COMMAND_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")
NAME_RULE = "use ASCII letters, digits, '-' and '_', starting with a letter or a digit"


@cache  # NOTE: asked ~15 times for each parameter (`Param.flag`)
def cli_word(identifier: str) -> str:
    """A Python name as the command line spells it: `list_tasks` is `list-tasks`, and a
    trailing underscore, there to dodge a keyword or a builtin (`list_`, `from_`), is dropped."""
    return (identifier.rstrip("_") or identifier).replace("_", "-")


def env_word(name: str) -> str:
    """A parameter's name as an env var spells it (`Program.env_of`): `max_rows` is
    `MAX_ROWS`, a record's leaf option `ship_to.city` is `SHIP_TO_CITY`."""
    return cli_word(name).replace("-", "_").replace(".", "_").upper()


class Node(BaseModel):
    """Base of every IR node: immutable, no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class TypeRef(Node):
    """A supported type, resolved from an annotation."""

    kind: TypeKind
    #: The annotation as written, for messages.
    source: str
    nullable: bool = False
    #: Literal values (kind "choice") or enum member values (kind "enum").
    choices: tuple[Scalar, ...] = ()
    #: The element type of a list.
    item: TypeRef | None = None
    #: The class name of an enum or record defined in the handlers file.
    name: str | None = None
    #: For a dict: the value type.
    value: TypeRef | None = None
    #: For a tuple: the type of each of its values, in order; for content (`Image | str`, a
    #: list's item): the types it may be.
    items: tuple[TypeRef, ...] = ()


#: pydantic's `Field(...)` keywords burgee reads -> `Field`'s names for what they say: the
#: reader (`read/models.py`) and the schemas built from pydantic itself (`describe/schemas.py`)
#: both map through it.
FIELD_KEYWORDS = {
    "alias": "alias",
    "ge": "minimum",
    "le": "maximum",
    "gt": "exclusive_minimum",
    "lt": "exclusive_maximum",
    "min_length": "min_length",
    "max_length": "max_length",
    "pattern": "pattern",
}


class Field(Node):
    """A field of a dataclass, TypedDict or pydantic model."""

    name: str
    type: TypeRef
    required: bool
    help: str = ""
    #: A model's `Field(alias=...)`: its key in JSON (pydantic reads it by that name).
    alias: str | None = None
    #: A model's default as JSON data, when written as a literal (`has_default`).
    default: Any = None
    has_default: bool = False
    #: A model's `Field(ge=, gt=, le=, lt=, min_length=, max_length=, pattern=)`.
    minimum: int | float | None = None
    maximum: int | float | None = None
    exclusive_minimum: int | float | None = None
    exclusive_maximum: int | float | None = None
    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None

    @property
    def key(self) -> str:
        """Its key in JSON: the alias, else its name."""
        return self.alias or self.name


class Record(Node):
    """A dataclass, TypedDict or pydantic model defined in the handlers file."""

    name: str
    style: Literal["dataclass", "typeddict", "model"]
    fields: tuple[Field, ...]
    doc: str = ""
    span: SourceSpan


class EnumDecl(Node):
    """An Enum subclass defined in the handlers file."""

    name: str
    members: tuple[tuple[str, Scalar], ...]
    doc: str = ""
    span: SourceSpan


#: `click.Path`'s checks, by Click's names, with Click's defaults (`Option(exists=True)`).
PATH_CHECKS: dict[str, bool] = {
    "exists": False,
    "file_okay": True,
    "dir_okay": True,
    "readable": True,
    "writable": False,
    "executable": False,
    "resolve_path": False,
    "allow_dash": False,
}


class PathChecks(Node):
    """`Option(exists=, file_okay=, ...)` of a `Path` parameter: what Click's `click.Path`
    checks, with its defaults (`PATH_CHECKS`)."""

    exists: bool = False
    file_okay: bool = True
    dir_okay: bool = True
    readable: bool = True
    writable: bool = False
    executable: bool = False
    resolve_path: bool = False
    allow_dash: bool = False

    @property
    def given(self) -> dict[str, bool]:
        """The checks that are not Click's defaults, as `schema` shows them."""
        return {key: value for key, value in self if value != PATH_CHECKS[key]}

    @property
    def note(self) -> str:
        """What a value must be, as help and the input schema say it (`(an existing file)`),
        or "" when any path will do."""
        what = "file" if not self.dir_okay else "directory" if not self.file_okay else "path"
        musts = [word for word in ("writable", "executable") if getattr(self, word)]
        if not self.exists and what == "path" and not musts:
            return ""
        head = f"an existing {what}" if self.exists else f"a {what}"
        tail = "".join(
            f", {word} if it exists" if not self.exists else f", {word}" for word in musts
        )
        return f"({head}{tail})"


class Param(Node):
    """One handler parameter: a positional argument, an option, or the injected context."""

    name: str
    role: Literal["argument", "option", "context"]
    type: TypeRef | None = None
    help: str = ""
    short: str | None = None
    #: `Option("--from")`: the long flag, when not the parameter's name in kebab case.
    long: str | None = None
    #: `Option("--from-ref", "--source")`: its other long flags, each another spelling of the
    #: one option (help shows them all; the JSON key and the MCP property stay its name).
    aliases: tuple[str, ...] = ()
    #: `None`: the program's env prefix decides; `""`: opted out; several names: read in their
    #: order, the first set wins (a Click `envvar=` list, then its `auto_envvar_prefix` name).
    env: str | tuple[str, ...] | None = None
    hidden: bool = False
    secret: bool = False
    complete: str | None = None
    #: Bounds of a number (or of each number of a list), checked on every value.
    minimum: int | float | None = None
    maximum: int | float | None = None
    #: `Option(pattern=, min_length=, max_length=)`: what a string (or each string) must be.
    pattern: str | None = None
    min_length: int | None = None
    max_length: int | None = None
    #: `Option(exists=, file_okay=, ...)` of a `Path`: Click's checks of it; None: none.
    path: PathChecks | None = None
    #: `Option(prompt=...)`: the question asked at a terminal when no value came from anywhere.
    prompt: str | None = None
    #: `Option(default_factory=fn)`: a function of the handlers file that makes the default.
    default_factory: str | None = None
    required: bool = True
    #: Python source of the default, evaluated afresh on every call.
    default_code: str | None = None
    #: The default as JSON data, for help and schemas.
    default: Any = None
    #: Declared before `/`: the handler takes it by position only.
    positional_only: bool = False
    #: `Option(..., shadows=True)`: it may take a tool-wide flag's spelling on its command.
    shadows: bool = False
    #: `Argument(passthrough=True)`: every word from its first one is its, flags included.
    passthrough: bool = False
    #: `case_sensitive=False`: a choice (a Literal's, an Enum's) is taken in any case.
    case_sensitive: bool = True
    #: A file's (`TextIO`, `BinaryIO`) mode, as `open()` takes it: `Option(mode="w")`, `b` for
    #: bytes; None for any other type.
    mode: str | None = None
    #: A bool option's flags that set it False: None for the usual `--no-` form of its long
    #: flag; `Option(off="--deep")`, `off=False` (none), or every flag of `Option("--no-input")`.
    off: tuple[str, ...] | None = None
    #: `Option(nargs="+" | "*" | N)` of a list option: the words one flag takes, as argparse's
    #: `nargs` (every word after it that is no flag, `+` at least one; or exactly N); None:
    #: one word a flag, repeated for more.
    nargs: int | str | None = None
    #: `Option(metavar="FILE")`, `Argument(metavar="SRC")`: the word shown for its value.
    metavar: str | None = None
    #: `Option(deprecated=...)`: the reason ("" for none); None: not deprecated.
    deprecated: str | None = None
    #: An option a group's (or the program's) `options=` shares: that group's path (`()`: the
    #: program), after whose name it may also be given, before the command; None: not shared.
    shared: tuple[str, ...] | None = None
    #: One leaf field of a pydantic model parameter, as an option of its own (`--ship-to.city`):
    #: the parameter's name, and the field's keys in JSON under it (aliases as pydantic reads
    #: them); the parameter gets the model its leaves make.
    part_of: str | None = None
    key_path: tuple[str, ...] = ()
    #: A command's only parameter, a pydantic model (fireargs' input model), and its leaves:
    #: the fields are the command's options, unprefixed, and its JSON input is the object.
    whole_input: bool = False
    span: SourceSpan

    @property
    def renamed(self) -> bool:
        """An option whose flag does not spell its JSON key (`Option("--from")`, `list_`): the
        key is given apart (clispec's `burgee_key`, argparse's `dest`)."""
        return self.role == "option" and self.flag[2:].replace("-", "_") != self.name

    @property
    def flag(self) -> str:
        """The command-line spelling: `--kebab-name` for options, the name for arguments."""
        if self.role == "argument":
            return self.name
        if self.long:
            return self.long
        return "--" + cli_word(self.name)

    @property
    def flags(self) -> tuple[str, ...]:
        """The flags that give an option's value (a bool's: set it True), as argparse gets
        them: its short flag, its long flag, its other long flags (`aliases`)."""
        own = (self.short, self.flag) if self.short else (self.flag,)
        return own + self.aliases

    @property
    def negatives(self) -> tuple[str, ...]:
        """The flags that set a bool option False (`--no-force`, `--deep`, none): by default
        `--no-` and each long flag (`--no-if-not-exists`, `--no-ignore`)."""
        if self.off is not None:
            return self.off
        return tuple("--no-" + flag[2:] for flag in (self.flag, *self.aliases))

    @property
    def spellings(self) -> tuple[str, ...]:
        """Every word an option answers to: its flags (`flags`) and a bool's negatives."""
        own = self.flags
        if self.type is None or self.type.kind != "bool":
            return own
        return own + tuple(name for name in self.negatives if name not in own)

    @property
    def placeholder(self) -> str:
        """The word for an option's value where its type says no more (`--from` → FROM)."""
        return self.flag[2:].upper().replace("-", "_")


class Exclusive(Node):
    """`@command(exclusive=[...])` (at most one of its options given) or `one_of=[...]`
    (exactly one): a group of options, by parameter name, in the order written."""

    names: tuple[str, ...]
    required: bool = False
    span: SourceSpan


class Question(Node):
    """A question a handler asks, as gen sees it (`ctx.confirm`, `ctx.ask`, `ctx.form`): help,
    `schema`, `--llms` and the skill name it with the `--answer` name of each answer."""

    kind: Literal["confirm", "ask", "form"]
    #: The question (a form's message) when written as a literal; None: made as it runs.
    text: str | None = None
    #: The `--answer` names: the question's (`name=`, or made of its words), a form's fields;
    #: none when made as it runs (a question in an f-string without `name=`).
    answers: tuple[str, ...] = ()


class Command(Node):
    """A handler function exposed as a command."""

    path: tuple[str, ...]
    function: str
    summary: str
    description: str
    effects: Effects
    examples: tuple[str, ...] = ()
    #: Where each example is written, for diagnostics (the command's span when unknown).
    example_spans: tuple[SourceSpan, ...] = ()
    cardinality: Literal["single", "bounded", "unbounded"] | None = None
    hidden: bool = False
    open_world: bool | None = None
    #: The most an agent gets of its answer, in characters (None: the program's; 0: no limit).
    max_output: int | None = None
    #: False for a trusted command whose text is not neutralised for agents.
    sanitize: bool = True
    #: Where its data comes from; external and untrusted ones are quarantined for agents.
    trust: Trust = "workspace"
    #: `@command(aliases=[...])`: other names of the command, in its group.
    aliases: tuple[str, ...] = ()
    #: `@command(root=True)`: runs when the command line names no subcommand.
    root: bool = False
    #: The question a command asks first (a destructive one, or one given `confirm=`;
    #: `--yes`/`-y` skips it); None: it never asks.
    confirm: str | None = None
    #: The questions its handler asks (`ctx.confirm`, `ctx.ask`, `ctx.form`), in order.
    questions: tuple[Question, ...] = ()
    #: It takes `--yes`: it asks first, or its handler asks a yes/no question (`ctx.confirm`)
    #: and has no `--yes`/`-y` of its own; `--yes` answers every such question yes.
    yes: bool = False
    #: `@command(deprecated=...)`: the reason ("" for none); None: not deprecated.
    deprecated: str | None = None
    #: `@command(short_help=...)`: its line in a group's listing (None: its summary).
    short_help: str | None = None
    #: `async def`: the tool runs it on an event loop.
    is_async: bool = False
    #: Its handler reads standard input (itself or through a helper it calls, as written):
    #: empty over MCP and in `--batch`, which its description says.
    reads_stdin: bool = False
    #: The declared outcomes it can end with (those its handler names; an outcome no handler
    #: names, raised by a helper, is every command's).
    outcomes: tuple[str, ...] = ()
    params: tuple[Param, ...]
    #: `@command(exclusive=..., one_of=...)`: its groups of options given apart.
    exclusive: tuple[Exclusive, ...] = ()
    returns: TypeRef | None = None
    span: SourceSpan

    @property
    def name(self) -> str:
        """The space-separated command path."""
        return " ".join(self.path)

    @property
    def listed(self) -> str:
        """Its line in its group's listing (help, completion): `short_help=` or its summary,
        marked when deprecated."""
        text = self.short_help if self.short_help is not None else self.summary
        return f"(deprecated) {text}".rstrip() if self.deprecated is not None else text

    @property
    def ident(self) -> str:
        """A Python identifier unique to this command, for generated helper names."""
        return "_".join(re.sub(r"\W", "_", part) for part in self.path)

    @property
    def asked(self) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
        """Its questions as the runtime's `_Command` takes them: (kind, text, `--answer`
        names) each, the text "" when made as it runs."""
        return tuple((q.kind, q.text or "", q.answers) for q in self.questions)

    @cached_property
    def inputs(self) -> tuple[Param, ...]:
        """The parameters a caller provides (everything but the context)."""
        return tuple(p for p in self.params if p.role != "context")


class Prompt(Node):
    """A function marked `@prompt`: an MCP prompt, its `str` parameters its arguments."""

    name: str
    function: str
    summary: str
    description: str
    params: tuple[Param, ...]
    span: SourceSpan


class Resource(Node):
    """A function marked `@resource(uri)`: a fixed resource, or a URI template whose
    `{placeholders}` are the function's parameters."""

    uri: str
    name: str
    function: str
    summary: str
    description: str
    mime_type: str | None = None
    params: tuple[Param, ...]
    span: SourceSpan

    @property
    def templated(self) -> bool:
        """True for a URI template (`kitchen://items/{name}`)."""
        return "{" in self.uri


class Group(Node):
    """A named group of commands."""

    path: tuple[str, ...]
    help: str = ""
    span: SourceSpan


class ErrorDecl(Node):
    """A CommandError subclass declared in the handlers file."""

    class_name: str
    kind: str
    exit_code: int
    retryable: bool = False
    description: str = ""
    span: SourceSpan


class OutcomeDecl(Node):
    """An Outcome subclass declared in the handlers file: a non-zero exit that means a data
    state, not a failure (clispec `outcomes`)."""

    class_name: str
    name: str
    exit_code: int
    description: str = ""
    span: SourceSpan


class Program(Node):
    """Everything burgee knows about the tool to generate."""

    name: str
    version: str
    #: The dialect the program was written in: "burgee", or "typer"/"click" for an app of
    #: theirs read as it is (`read/dialects/`); nothing but the runtime's stand-ins for what
    #: its bodies call differs by it.
    dialect: str = "burgee"
    #: The distribution whose installed metadata `--version` prefers (the version was read
    #: from its pyproject.toml at generation time), or None.
    distribution: str | None = None
    #: `program(version_short="-V")`: the short spelling of the tool's `--version`, or "".
    version_short: str = ""
    description: str
    env_prefix: str | None = None
    config: bool = False
    #: `program(default="run")`: the command that runs when argv is empty (`tool` alone), as
    #: pre-commit's; a word that names no command is still an unknown command.
    default: str | None = None
    #: `program(max_output=N)`: the most an agent gets of an answer (None: the default).
    max_output: int | None = None
    #: The oldest Python 3 minor version its handlers' syntax runs on (9 unless newer).
    python_minor: int = 9
    #: How the shipped tool is run, for what is written once for later (the skill, AGENTS.md,
    #: `--llms`): the name a `[project.scripts]` entry of its project installs it under, else
    #: `python FILE.py` (`write/generate.py`); empty: its name (a program not generated to a
    #: file). What the tool prints when it runs starts as it was run (`errors.py`).
    invocation: str = ""
    #: Warnings: things that generate, but that the author should know.
    warnings: tuple[Diagnostic, ...] = ()
    source_name: str
    groups: tuple[Group, ...]
    commands: tuple[Command, ...]
    #: `@prompt` and `@resource` functions, in file order.
    prompts: tuple[Prompt, ...] = ()
    resources: tuple[Resource, ...] = ()
    #: The handlers call `.log(...)` (on their Context): the MCP server offers logging.
    logging: bool = False
    errors: tuple[ErrorDecl, ...]
    outcomes: tuple[OutcomeDecl, ...] = ()
    #: `program(exit_codes={...})`: built-in error kinds moved to other exit codes.
    exit_codes: tuple[tuple[str, int], ...] = ()
    records: tuple[Record, ...]
    enums: tuple[EnumDecl, ...]
    #: The records the handlers ask for with `ctx.form` (`read/forms.py`), by name.
    forms: tuple[str, ...] = ()
    #: The handlers file with burgee's markers removed, split where imports end: the imports
    #: the code needs when it runs, those only its annotations use (`if TYPE_CHECKING:`),
    #: and the rest.
    user_imports: str
    user_checking: str = ""
    #: The imports only the code's functions use: run when the first command runs.
    user_deferred: str = ""
    #: The names of those the code uses while the module is defined, only to make its
    #: functions' defaults (`Path(".")`): stand-ins until then (`runtime/execution/later.py`).
    user_made_later: tuple[str, ...] = ()
    user_code: str
    #: The pydantic models' classes, made when the first command runs (`_import_handlers`).
    user_models: str = ""
    #: Third-party modules the handlers import: (top-level module, requirement to install).
    third_party: tuple[tuple[str, str], ...] = ()
    #: The requirements of the tool's PEP 723 block (`program(dependencies=...)`, else the
    #: nearest pyproject.toml's, else the distributions of the third-party imports).
    dependencies: tuple[str, ...] = ()
    #: Sibling files bundled into the tool, relative to the handlers file's directory.
    bundled: tuple[str, ...] = ()
    #: `click` and `typer`, as the handlers import them (`read/frameworks.py`): `frameworks`,
    #: every one (their commands run through `runtime/execution/frameworks._framework_call`);
    #: `stand_ins`, those the runtime's stand-in replaces (bound to it, no dependency).
    frameworks: tuple[str, ...] = ()
    stand_ins: tuple[str, ...] = ()
    #: Names the user code binds to burgee's runtime under other names (`Ctx = Context`).
    aliases: tuple[tuple[str, str], ...] = ()
    #: burgee's `Image`/`Audio`/`EmbeddedResource` as the handlers take them from burgee (a
    #: file's own class of that name is its own: `reserved.FREE_NAMES`).
    kept: tuple[str, ...] = ()

    @cached_property
    def paths(self) -> dict[str, str]:
        """What the words of a command line name: a command's path (an alias's too) ->
        "command", a group's -> "group" (`argv._named` says the same in the tool)."""
        found = {" ".join(group.path): "group" for group in self.groups}
        for command in self.commands:
            for last in (command.path[-1], *command.aliases):
                found[" ".join((*command.path[:-1], last))] = "command"
        return found

    @cached_property
    def shared(self) -> dict[str, dict[str, int]]:
        """`SHARED`: each group path ("" the program) whose `options=` shares options -> their
        spellings -> how many words each takes (none for a flag or a count)."""
        table: dict[str, dict[str, int]] = {}
        for command in self.commands:
            for param in command.inputs:
                if param.shared is None or param.type is None:
                    continue
                ref = param.type
                item = ref.item if ref.kind == "list" and ref.item is not None else ref
                takes = 0 if ref.kind in ("bool", "count") else max(len(item.items), 1)
                if isinstance(param.nargs, int):
                    takes = param.nargs
                spellings = table.setdefault(" ".join(param.shared), {})
                spellings.update(dict.fromkeys(param.spellings, takes))
        return table

    @cached_property
    def root_command(self) -> Command | None:
        """The command `root=True` marks, if any (found once: every MCP tool's name asks)."""
        return next((c for c in self.commands if c.root), None)

    def root(self) -> tuple[str, str]:
        """The root command's name and how argv reaches it: "alone" (it is the only command),
        "words" (words that name no command are its arguments) or "flags" (only its options
        come without a command word), or "empty" (`program(default=...)`: only when argv is
        empty); ("", "") without one."""
        root = self.root_command
        if root is None:
            return (self.default, "empty") if self.default else ("", "")
        if len(self.commands) == 1:
            return root.name, "alone"
        return root.name, "words" if any(p.role == "argument" for p in root.inputs) else "flags"

    @property
    def debug_env(self) -> str:
        """The environment variable that turns on tracebacks (`--debug` for every call)."""
        return self.name.upper().replace("-", "_").replace(".", "_") + "_DEBUG"

    def env_of(self, param: Param) -> tuple[str, ...]:
        """The environment variables an option reads, in the order it reads them (none, one,
        or a Click option's several): its own, else the program's prefix and its name."""
        if param.role != "option" or param.env == "":
            return ()
        if param.env:
            return (param.env,) if isinstance(param.env, str) else param.env
        if not self.env_prefix:
            return ()
        prefix = self.env_prefix if self.env_prefix.endswith("_") else self.env_prefix + "_"
        # NOTE: a whole input's leaf (`--item` of `request.item`) is named as its flag is.
        whole = param.whole_input and param.part_of is not None and param.long is not None
        return (prefix + env_word(param.long[2:] if whole else param.name),)  # type: ignore[index]

    def builtin_errors(self) -> dict[str, tuple[int, str]]:
        """The built-in error kinds (`errors.BUILTIN_ERRORS`) with this program's moved
        exit codes (`program(exit_codes=...)`): kind -> (exit code, description)."""
        moved = dict(self.exit_codes)
        # NOTE: a Typer or Click program's bodies exit as theirs do (`FRAMEWORK_ERRORS`)
        kinds = {**BUILTIN_ERRORS, **(FRAMEWORK_ERRORS if self.dialect != "burgee" else {})}
        return {kind: (moved.get(kind, code), text) for kind, (code, text) in kinds.items()}
