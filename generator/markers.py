"""The authoring API: the names a handlers file imports from burgee.

burgee reads handler files statically and never imports them, so nothing here
runs at generation time. These definitions exist so that a handlers file imports,
type-checks and can be unit-tested on its own; the generated module carries its
own standard-library versions of `CommandError` and `Context`. `Image`, `Audio` and
`EmbeddedResource` are the runtime's own classes (`runtime/answers/media_items.py`, which
imports nothing else of the runtime), so a handler's unit test makes the checks the tool
makes: a MIME type, a URI, at most 16 MiB.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, Literal, NoReturn, TypeVar, overload

# NOTE: re-exported (`burgee.Image`, ...): the runtime's classes, not copies of them.
from burgee.runtime.answers.media_items import Audio, EmbeddedResource, Image
from burgee.runtime.core.context import _with_context
from burgee.runtime.core.errors import BUILTIN_ERRORS

Effects = Literal[
    "read_only", "idempotent", "non_idempotent", "destructive", "withheld", "undeclared"
]
Cardinality = Literal["single", "bounded", "unbounded"]
Trust = Literal["trusted", "workspace", "private", "external", "untrusted"]
#: The MCP (syslog) log levels, least to most severe.
LogLevel = Literal["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]

__all__ = [
    "Argument",
    "Audio",
    "BadParameter",
    "Cardinality",
    "CommandError",
    "Context",
    "Effects",
    "EmbeddedResource",
    "Group",
    "Image",
    "LogLevel",
    "Option",
    "Outcome",
    "Trust",
    "UsageError",
    "command",
    "group",
    "program",
    "prompt",
    "resource",
]

_F = TypeVar("_F", bound=Callable[..., Any])
_T = TypeVar("_T")


class Argument:
    """Marks a parameter as positional: `Annotated[str, Argument(help="...")]`.

    `passthrough=True`, on the last argument, a `list[str]`: every word from its first one is
    its, flags included (`tool run APP --app-flag`, as `pipx run` and `uv run` read a line).
    `metavar="SRC"`: the word help, usage and the Agent Skill show for it (default: its name).
    On a `Path`, `exists=`, `file_okay=`, ... check it as `Option`'s do.
    `case_sensitive=False` on a `Literal` or an Enum: a choice in any case, as `Option`'s.
    `mode="w"` on a `TextIO` or `BinaryIO`: the mode the file is opened in, as `Option`'s.
    """

    def __init__(
        self,
        *,
        help: str | None = None,
        complete: Callable[..., Any] | None = None,
        passthrough: bool = False,
        metavar: str | None = None,
        exists: bool = False,
        file_okay: bool = True,
        dir_okay: bool = True,
        readable: bool = True,
        writable: bool = False,
        executable: bool = False,
        resolve_path: bool = False,
        allow_dash: bool = False,
        case_sensitive: bool = True,
        mode: str | None = None,
    ):
        self.help = help
        self.complete = complete
        self.passthrough = passthrough
        self.metavar = metavar
        self.exists = exists
        self.file_okay = file_okay
        self.dir_okay = dir_okay
        self.readable = readable
        self.writable = writable
        self.executable = executable
        self.resolve_path = resolve_path
        self.allow_dash = allow_dash
        self.case_sensitive = case_sensitive
        self.mode = mode


class Option:
    """Adds details to an option: `Annotated[list[str], Option("-t", help="...")]`.

    Positional arguments name its flags: a short one (`"-t"`), a long one (`"--from"`), or
    both. `count=True` counts a repeated flag (`-vvv` is 3). `pattern=`, `min_length=` and
    `max_length=` constrain a string. `prompt=True` (or the question) asks at a terminal when
    no value came from anywhere. `default_factory=fn` makes the default on every run.
    `shadows=True` lets the option take a tool-wide flag's spelling (`-o`, `--output`,
    `--version`, ...) on its own command, where the option wins.
    `metavar="FILE"`: the word help, usage and the Agent Skill show for its value.
    `deprecated=True` (or the reason): help says so, and using it warns on stderr.
    On a `Path` (or a `str`), `click.Path`'s checks by its names and defaults: `exists=True`,
    `file_okay=False`, `dir_okay=False`, `readable=`, `writable=True`, `executable=True`,
    `resolve_path=True`, `allow_dash=True`; a value that fails them is a usage error.
    `nargs="+"` (or `"*"`, or a number N) on a list option: one flag takes every word after it
    that is no flag (`--files a.py b.py`; `+`: at least one), or exactly N; repeated, the lists
    join.
    `case_sensitive=False` on a `Literal` or an Enum (or a list of one): a choice is taken in
    any case (`--format JSON` is `json`), as Click's `Choice(case_sensitive=False)` takes it.
    On a `TextIO` or `BinaryIO` the handler takes the file open: `mode="w"` (`"a"`, `"x"`;
    default `"r"`) is how the tool opens it, just before the handler runs.

    A bool option is `--force` and `--no-force`. `off="--deep"` names its off form
    (`--shallow`/`--deep`); `off=False` leaves it out (`--force` alone, default False). A flag
    spelled `--no-...` is the off form alone: `Option("--no-input")` sets `input` False (default
    True). The JSON key stays the parameter's name either way.
    """

    def __init__(
        self,
        *names: str,
        help: str | None = None,
        env: str | Sequence[str] | Literal[False] | None = None,
        hidden: bool = False,
        secret: bool = False,
        complete: Callable[..., Any] | None = None,
        min: float | None = None,
        max: float | None = None,
        count: bool = False,
        pattern: str | None = None,
        min_length: int | None = None,
        max_length: int | None = None,
        prompt: bool | str = False,
        default_factory: Callable[[], Any] | None = None,
        shadows: bool = False,
        off: str | Literal[False] | None = None,
        metavar: str | None = None,
        deprecated: bool | str = False,
        nargs: int | Literal["+", "*"] | None = None,
        exists: bool = False,
        file_okay: bool = True,
        dir_okay: bool = True,
        readable: bool = True,
        writable: bool = False,
        executable: bool = False,
        resolve_path: bool = False,
        allow_dash: bool = False,
        case_sensitive: bool = True,
        mode: str | None = None,
    ):
        self.names = names
        self.nargs = nargs
        self.short = next((n for n in names if not n.startswith("--")), None)
        self.min = min
        self.max = max
        self.help = help
        self.env = env
        self.hidden = hidden
        self.secret = secret
        self.complete = complete
        self.count = count
        self.pattern = pattern
        self.min_length = min_length
        self.max_length = max_length
        self.prompt = prompt
        self.default_factory = default_factory
        self.shadows = shadows
        self.off = off
        self.metavar = metavar
        self.deprecated = deprecated
        self.exists = exists
        self.file_okay = file_okay
        self.dir_okay = dir_okay
        self.readable = readable
        self.writable = writable
        self.executable = executable
        self.resolve_path = resolve_path
        self.allow_dash = allow_dash
        self.case_sensitive = case_sensitive
        self.mode = mode


class CommandError(Exception):
    """Base class for a tool's declared errors; subclass it with `kind` and `exit_code`.

    Raised with a message, an optional `hint`, optional `details` (JSON data: the
    envelope's `error.details`) and optional `text`: what a person reads on stderr instead of
    the usual lines (without --json; JSON callers get the envelope as always). A class with a
    built-in kind and its exit code (`kind = "usage"`, `exit_code = 2`) raises the built-in
    error itself. Raised as it is, it is an `internal` error with your message.
    """

    kind: str = "internal"
    exit_code: int = 1
    retryable: bool = False

    def __init__(
        self,
        message: str,
        *,
        hint: str | None = None,
        details: dict[str, Any] | None = None,
        text: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.details = details
        self.text = text


class UsageError(CommandError):
    """A mistake in what the caller gave, found by a handler (`raise UsageError("give --width
    or --height")`): the tool's usage error, kind `usage` (exit 2), as the parser's are."""

    kind = "usage"
    exit_code = BUILTIN_ERRORS["usage"][0]


class BadParameter(UsageError):
    """A value a handler found wrong, as Click's `BadParameter` says it: a usage error whose
    message starts with the flag it names (`raise BadParameter("must be even",
    param_hint="--width")` says `--width: must be even`)."""

    def __init__(
        self,
        message: str,
        *,
        param_hint: str | None = None,
        hint: str | None = None,
        details: dict[str, Any] | None = None,
        text: str | None = None,
    ) -> None:
        shown = f"{param_hint}: {message}" if param_hint else message
        super().__init__(shown, hint=hint, details=details, text=text)


class Outcome(Exception):
    """Base class for a tool's declared outcomes: a non-zero exit that means a data state, not
    a failure (like diff's 1). Subclass it with `name` and `exit_code`; a handler raises one
    with its result (`raise Stale(diff_text)`), which is still its answer."""

    name: str = "outcome"
    exit_code: int = 1

    def __init__(self, result: object = None) -> None:
        super().__init__(self.name)
        self.result = result


class Context:
    """What a handler may ask of the running tool; injected, never parsed. The tool's own is
    `runtime/core/context.py`'s (tests/test_authoring.py holds the two alike)."""

    program: str = ""
    command: str = ""
    json: bool = False
    interactive: bool = False
    agent: str | None = None

    def __init__(self) -> None:
        self.cancelled = threading.Event()

    def progress(self, done: float, total: float | None = None, message: str | None = None) -> None:
        """Report progress; the generated tool decides where it goes."""

    def on_exit(self, callback: Callable[[], object]) -> None:
        """Register a callback to run once when the command ends or is cancelled."""

    def log(self, level: LogLevel, message: str, **data: object) -> None:
        """Log a message: `notifications/message` to an MCP client that asked for this level
        (`logging/setLevel`), a line on stderr on the command line (warning and above, or
        every level with `--debug`)."""

    def secret(self, value: str | float, name: str = "secret") -> None:
        """Never write `value` (say, a token read from a file): it becomes `<secret:NAME>`. A
        number is kept as its text (a number that shows it is written as that text redacted)."""

    def show_help(self) -> NoReturn:
        """Stop, and show the command's help instead of an answer: on the command line, as
        `COMMAND --help` does (exit 0); over MCP or in a batch, a usage error saying so."""
        raise UsageError("the command showed its help")

    def confirm(self, question: str, *, default: bool = False, name: str | None = None) -> bool:
        """Ask yes or no: at a terminal, of an MCP client's user (elicitation), or answered by
        `--answer NAME=yes`; where nobody can answer, the command stops with
        `action_required` whose `next` reruns it with each answer. `name`: the question's NAME
        (default: its first words, `overwrite-x` for "Overwrite x?")."""
        return default

    def ask(
        self,
        question: str,
        *,
        default: str | None = None,
        secret: bool = False,
        choices: Sequence[str] | None = None,
        name: str | None = None,
    ) -> str:
        """Ask for text (one of `choices`; a `secret` without echo, never of an MCP client), as
        `confirm` asks; declined or cancelled, the command stops with `action_required`."""
        return default or ""

    def form(self, message: str, form: type[_T], *, legacy_titles: Sequence[str] = ()) -> _T:
        """Ask for several values at once: the fields of `form`, a dataclass or TypedDict of
        the handlers file (str, int, float, bool, a Literal or an Enum of strings, or a list of
        such a choice; defaults and `Attributes:` help included; an Enum's members titled by
        their names). One form over MCP (elicitation), each field in turn at a terminal,
        `--answer FIELD=VALUE` given ahead; else `action_required`. `legacy_titles`: Enum
        fields whose titles MCP clients get as `enumNames` (for clients that read no
        `oneOf`). Returns a `form` of the answers; here, one of its defaults."""
        return form()

    def action_required(
        self, *, reason: str, message: str, next: Sequence[dict[str, str] | str] = ()
    ) -> NoReturn:
        """Stop the command and tell the caller what must happen first. `next` lists commands:
        `"x --yes"`, or `{"command": "x --yes", "when": "..."}`.

        The tool answers `{"ok": false, "status": "action_required", ...}` with `next[]` as
        runnable command lines, and exits with the kind's code (4 unless the program moves it).
        """
        error = CommandError(message)
        error.kind = "action_required"
        raise error

    #: What a body written for Click or Typer keeps for later (`ctx.obj`), as theirs does.
    obj: Any = None

    def exit(self, code: int = 0) -> NoReturn:
        """End the command now (Click's and Typer's `ctx.exit`): at 0 a success with no data,
        else the error `exit` at `code`."""
        raise SystemExit(code)

    def fail(self, message: str) -> NoReturn:
        """Stop with a usage error (Click's `ctx.fail`): exit 2."""
        raise CommandError(message)

    def abort(self) -> NoReturn:
        """Stop as Click's `ctx.abort()` does: the error `aborted`, exit 1."""
        raise CommandError("Aborted!")

    def invoke(self, callback: Callable[..., _T], /, *args: Any, **kwargs: Any) -> _T:
        """Run another command's function from this one (Click's `ctx.invoke`): with the
        values given, its own defaults for the rest, and this context where it takes one."""
        return callback(*args, **_with_context(callback, self, kwargs))

    def ensure_object(self, kind: type[_T]) -> _T:
        """`obj`, made a new `kind` first unless it is one (Click's `ctx.ensure_object`)."""
        if not isinstance(self.obj, kind):
            self.obj = kind()
        return self.obj

    def find_object(self, kind: type[_T]) -> _T | None:
        """`obj` when it is a `kind`, else None (Click's `ctx.find_object`)."""
        return self.obj if isinstance(self.obj, kind) else None


def command(
    *,
    effects: Effects,
    name: str | None = None,
    examples: Sequence[str] = (),
    cardinality: Cardinality | None = None,
    hidden: bool = False,
    open_world: bool | None = None,
    max_output: int | None = None,
    sanitize: bool = True,
    trust: Trust = "workspace",
    aliases: Sequence[str] = (),
    root: bool = False,
    confirm: bool | str = True,
    deprecated: bool | str = False,
    short_help: str | None = None,
    exclusive: Sequence[Sequence[str]] = (),
    one_of: Sequence[Sequence[str]] = (),
) -> Callable[[_F], _F]:
    """Declare a function (or an `async def` one) as a command.

    `aliases`: other names it answers to. `root=True`: it runs when the command line names no
    command. `confirm`: a destructive command asks before it runs, and any other when given
    (`--yes` skips the question; `False` never asks; a string is the question, with
    `{param}` filled in). `deprecated=True` (or the reason): help and `schema` say so, and
    running it warns on stderr. `short_help`: its line in its group's listing (default: the
    docstring's first line).

    `exclusive=[("json_out", "csv_out")]`: options (by parameter name) of which a call gives
    at most one; `one_of=[("name", "ref")]`: exactly one. Each needs a default (None), and
    the handler gets the defaults of those not given.

    `max_output`: the most an agent gets of its answer, in characters (0: no limit); the rest is
    saved for `mytool output REF`. `sanitize=False`: a trusted command whose text is not
    neutralised for agents. `trust`: where its data comes from; `"external"` and `"untrusted"`
    (and `open_world=True`) quarantine its text in `<untrusted_tool_output>` tags.
    """

    def mark(fn: _F) -> _F:
        return fn

    return mark


class Group:
    """A named group of commands, created with `group(...)`."""

    def __init__(
        self, name: str, help: str | None = None, *, options: Sequence[object] = ()
    ) -> None:
        self.name = name
        self.help = help
        self.options = options

    def command(
        self,
        *,
        effects: Effects,
        name: str | None = None,
        examples: Sequence[str] = (),
        cardinality: Cardinality | None = None,
        hidden: bool = False,
        open_world: bool | None = None,
        max_output: int | None = None,
        sanitize: bool = True,
        trust: Trust = "workspace",
        aliases: Sequence[str] = (),
        root: bool = False,
        confirm: bool | str = True,
        deprecated: bool | str = False,
        short_help: str | None = None,
        exclusive: Sequence[Sequence[str]] = (),
        one_of: Sequence[Sequence[str]] = (),
    ) -> Callable[[_F], _F]:
        """Declare a function as a command of this group (see `command`)."""
        return command(effects=effects)

    def group(self, name: str, help: str | None = None, *, options: Sequence[object] = ()) -> Group:
        """Create a nested group (`options=`: see `group`)."""
        return Group(name, help, options=options)


@overload
def prompt(fn: _F, /) -> _F: ...


@overload
def prompt(*, name: str | None = None) -> Callable[[_F], _F]: ...


def prompt(fn: Any = None, /, *, name: str | None = None) -> Any:
    """Declare a function as an MCP prompt (`@prompt` or `@prompt(name=...)`).

    Its `str` parameters are the prompt's arguments (required when they have no default); it
    returns a `str` (one user message) or a list of `{"role": ..., "content": ...}` messages.
    """
    if fn is not None:
        return fn

    def mark(inner: _F) -> _F:
        return inner

    return mark


def resource(
    uri: str, *, name: str | None = None, mime_type: str | None = None
) -> Callable[[_F], _F]:
    """Declare a function as an MCP resource at `uri`; `{placeholders}` in it make a template
    whose values are the function's parameters. It returns text, bytes or JSON-able data."""

    def mark(fn: _F) -> _F:
        return fn

    return mark


def group(name: str, help: str | None = None, *, options: Sequence[object] = ()) -> Group:
    """Create a top-level group of commands.

    `options=[Verbose, ...]`: options its commands share, each a module-level alias
    `Verbose = Annotated[int, Option("-v", count=True)]` that every command of the group
    (and of its groups) takes as a parameter of the same name (`verbose: Verbose = 0`). They
    may then be given before the command too, after the group's name (`tool remote -v add`).
    """
    return Group(name, help, options=options)


def program(
    name: str | None = None,
    version: str | None = None,
    description: str | None = None,
    env_prefix: str | None = None,
    config: bool = False,
    *,
    max_output: int | None = None,
    dependencies: Sequence[str] = (),
    exit_codes: dict[str, int] | None = None,
    options: Sequence[object] = (),
    default: str | None = None,
    version_short: str | None = None,
) -> None:
    """Describe the program; optional, and only read by the generator.

    `dependencies`: the requirements of third-party packages the handlers import
    (`["requests>=2.31"]`), for the tool's PEP 723 block; default: the nearest
    pyproject.toml's `[project].dependencies`.
    `exit_codes`: built-in error kinds moved to other exit codes (`{"internal": 70}`), for
    example to free 1 for an outcome.
    `options`: options every command shares, given before the command too (`tool -v clone`):
    module-level `Annotated[..., Option(...)]` aliases, as for `group(options=...)`.
    `default`: the command (its path, `"run"`, `"db migrate"`) that runs when the command line
    is empty (`tool` alone, tool-wide flags aside), as pre-commit's `run`; a word that names
    no command stays an unknown command.
    `version_short`: a short spelling of the tool's `--version` (`"-V"`, as pip's and uv's),
    before the command; no command's option may then take it.
    """
