# burgee: joins head 10
# burgee: section confirm: _Placed _variable _written _unsecret
"""The errors a command can end with (a kind, an exit code, a message), and the table of the
built-in kinds and their exit codes: the clispec document, help and the skill read it too.

`BUILTIN_ERRORS` (burgee's codes), `_exit_code()`/`_builtin_errors()`/`_exit_code_of()` (with
the codes a program moved, `Program.exit_codes`: a `CommandError`'s own `exit_code` is burgee's
code of its kind), `CommandError`, `Outcome` (a declared data state: raised with the result),
`UsageError`, `_ActionRequired`, `_Internal`, `_TimedOut`, `_MissingDependency` and `_Missing`
(stands for a third-party import that is not installed); `_on_sigterm` (SIGTERM raises
`_Terminated`, so it ends a run, a batch or an MCP server the way Ctrl-C does);
`_on_sigint`/`_SIGINTS`/`_from_ctrl_c` (the stdio MCP server tells a real Ctrl-C from a
handler's own KeyboardInterrupt, even after a handler swallowed a Ctrl-C); `_success()`: **the**
success envelope (`{ok: true, data}`), and `_failure()`: **the** failure envelope (with
`details` when the error has them, `status`/`reason`/`next` for `action_required`), for the CLI
and MCP alike; `_invoked_as()`, how this run was started (an installed name on PATH, else the
interpreter and the absolute path, `uv run --script FILE` for an interpreter in uv's cache
(`_uv_cached`), or `python -m` when the module is found without the cwd), worked out only when a
line is printed, and `_command_line()`/`_run_hint()`, every command line the tool prints for
someone to run (`next[]`, hints) built on it; a line that runs a command (`_ActionRequired`'s)
starts `cd FOLDER &&` (`_FOLDER`, the run's folder, `_here()`) and its `when` names what the
line cannot hold (`_needs`: the env vars its values came from, the variables in a secret's
place); `_written()` (the `confirm` section) writes a line's words with each secret's value as a
shell variable (`"$VAULT_TOKEN"`, `_variable`, `_PLACED`), and `_unsecret()` a handler's own
`next` line the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from burgee.runtime.rows import _CommandRow
from burgee.runtime.start.boot import EXIT_INTERRUPTED

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import NoReturn

    from burgee.runtime.program import Program


#: Built-in error kinds: kind -> (exit code, description), as burgee numbers them; a program may
#: move their codes (`program(exit_codes=...)`): `_exit_code`, `_builtin_errors`. 0 is success.
BUILTIN_ERRORS: dict[str, tuple[int, str]] = {
    kind: (code, text)
    for kind, (code, text) in {
        "internal": (1, "An unexpected failure inside a handler; report it as a bug."),
        "usage": (
            2,
            "A bad flag or argument, or a value the parser or the command rejected.",
        ),
        "action_required": (4, "The command needs a decision or an action first; see next[]."),
        "missing_dependency": (69, "A package the command needs is not installed; see the hint."),
        "timeout": (124, "The command ran past --timeout and was cancelled."),
        "failed_after_run": (
            126,
            (
                "The handler ran, and what it did stands, but the call failed after: an answer"
                " given ahead that does not fit its question, an answer that could not be"
                " written; a retry runs it again."
            ),
        ),
        "batch_failed": (
            125,
            "At least one call of a --batch failed; its line says which and why.",
        ),
        "interrupted": (EXIT_INTERRUPTED, "Interrupted (Ctrl-C / SIGINT); on_exit callbacks ran."),
        "terminated": (143, "Terminated (SIGTERM); on_exit callbacks ran."),
    }.items()
}


#: The kinds a Typer or Click body's own exits become (`frameworks._framework_error`), listed
#: for their programs: their codes are Click's (`aborted` shares 1 with `internal`: Click's
#: `Abort` exits 1; the envelope's `kind` tells them apart, docs/contract.md).
FRAMEWORK_ERRORS: dict[str, tuple[int, str]] = {
    "exit": (
        1,
        "The command ended itself early (typer.Exit, ctx.exit, sys.exit) with this code, or "
        "the one it gave.",
    ),
    "aborted": (1, "The command aborted (click.Abort, ctx.abort(), a confirmation refused)."),
    "failed": (1, "The command failed (click.ClickException) with its message, at its code."),
}


def _exit_code(kind: str, program: Program) -> int:
    """The exit code of a built-in kind, with the code `program` moved it to, if it did."""
    return program.exit_codes.get(kind, BUILTIN_ERRORS[kind][0])


def _builtin_errors(program: Program) -> dict[str, tuple[int, str]]:
    """`BUILTIN_ERRORS` with `program`'s moved codes in place of burgee's."""
    return {kind: (_exit_code(kind, program), text) for kind, (_, text) in BUILTIN_ERRORS.items()}


def _exit_code_of(error: CommandError, program: Program) -> int:
    """The code `program` exits with for `error`: its class's own, or its built-in kind's,
    moved where the program moved it."""
    if isinstance(getattr(type(error), "exit_code", None), property):
        return _exit_code(error.kind if error.kind in BUILTIN_ERRORS else "internal", program)
    return error.exit_code


#: Exit code of a tool whose reader went away (`tool ... | head`): 128 + SIGPIPE.
EXIT_BROKEN_PIPE = 141


class CommandError(Exception):
    """A failure the tool declares: a kind, an exit code, a message, an optional hint,
    optional details (data) and optional text for people."""

    # NOTE: raised as it is (`raise CommandError("...")`), it is an `internal` error with the
    # handler's message: a kind every table documents. A declared error names its own.
    kind = "internal"
    retryable = False

    @property
    def exit_code(self) -> int:
        """The built-in kind's code, burgee's (a declared error's class sets its own; the code
        a program moved it to is `_exit_code_of`'s, where the tool answers)."""
        return BUILTIN_ERRORS[self.kind if self.kind in BUILTIN_ERRORS else "internal"][0]

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
        #: More about the failure, as data (`error.details` of the envelope).
        self.details = details
        #: What a person reads on stderr instead of `PROG: error: MESSAGE`, the hint and the
        #: envelope line (without --json only; JSON callers get the envelope as always).
        self.text = text


class Outcome(Exception):
    """A declared outcome: the command ends with a data state (like diff's or grep's 1), not a
    failure. Raised with the command's result, which is still its answer."""

    name = "outcome"
    exit_code = 1

    def __init__(self, result: object = None) -> None:
        super().__init__(self.name)
        self.result = result


class UsageError(CommandError):
    """The command line or the JSON input was wrong: found by the parser (nothing ran), or by a
    handler (`raise UsageError("give --width or --height")`)."""

    kind = "usage"


class _ShowHelp(UsageError):
    """`ctx.show_help()`: on the command line, the command's help instead of its answer (exit
    0, as `COMMAND --help`); where nobody reads help (MCP, a batch), the usage error it is."""

    def __init__(self, command: str, name: str) -> None:
        super().__init__(
            f"{command or name}: not enough to go on, so the command showed its help",
            hint=_run_hint(f"{command} --help".lstrip(), name),
        )
        self.command = command


class BadParameter(UsageError):
    """A value a handler found wrong, as Click's `BadParameter` says it: a usage error whose
    message starts with the flag it names (`param_hint`), as the parser's do."""

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


class _AfterRun(CommandError):
    """A failure once the handler ran (or began): not `usage`, which says nothing ran."""

    kind = "failed_after_run"


class _Internal(CommandError):
    """A failure the tool did not declare: a bug in a handler, or a result of the wrong type."""

    kind = "internal"


class _TimedOut(CommandError):
    kind = "timeout"


class _Exited(CommandError):
    """`ctx.exit(code)` (Click's, Typer's `Exit`): the command ends now; at 0 a success with no
    data (`execute._execute`), else this error at `code`."""

    kind = "exit"
    exit_code = 1

    def __init__(self, code: int) -> None:
        super().__init__(f"the command exited with code {code}")
        self.exit_code = code


class _Aborted(CommandError):
    """`ctx.abort()` (Click's and Typer's `Abort`): "Aborted!" at exit 1."""

    kind = "aborted"
    exit_code = 1


class _Failed(CommandError):
    """`click.ClickException`: the body's failure, with its message, at its own exit code."""

    kind = "failed"
    exit_code = 1


class _Interrupted(CommandError):
    kind = "interrupted"


class _Terminated(BaseException):
    """Raised in the main thread on SIGTERM, so `finally` blocks and on_exit callbacks run.

    A BaseException, like KeyboardInterrupt: a handler's `except Exception` must not swallow it.
    """


def _terminate(signum: int, frame: object) -> None:
    raise _Terminated


def _on_sigterm() -> None:
    """SIGTERM ends a command the way Ctrl-C does: `finally` blocks and on_exit callbacks run,
    then a `terminated` error (exit 143)."""
    # NOTE: the C module: `signal` itself imports enum, a fifth of a run's start-up.
    import _signal  # type: ignore[import-not-found, unused-ignore]

    try:
        _signal.signal(_signal.SIGTERM, _terminate)
    except (ValueError, OSError):
        pass  # not the main thread (an embedding program): leave its signals alone


#: The KeyboardInterrupt the last Ctrl-C raised in an MCP server (`_on_sigint`): any other one
#: was raised by a handler, and is that call's error, not the server's end.
_SIGINTS: list[BaseException] = []


def _on_sigint() -> None:
    """Ctrl-C raises KeyboardInterrupt as usual, and is recorded in `_SIGINTS`."""
    import _signal  # type: ignore[import-not-found, unused-ignore]

    def interrupt(number: int, frame: object) -> None:
        # NOTE: the exception itself, not a count: a handler that swallowed a Ctrl-C must not
        # make its later KeyboardInterrupt of its own stop the server.
        error = KeyboardInterrupt()
        _SIGINTS[:] = [error]
        raise error

    try:
        _signal.signal(_signal.SIGINT, interrupt)
    except (ValueError, OSError):
        pass  # not the main thread (an embedding program): leave its signals alone


def _from_ctrl_c(error: BaseException) -> bool:
    """Whether Ctrl-C raised `error`, rather than a handler."""
    return any(error is seen for seen in _SIGINTS)


class _ActionRequired(CommandError):
    """The command stopped because the caller must decide or do something first."""

    kind = "action_required"

    def __init__(
        self,
        reason: str,
        message: str,
        steps: Sequence[dict[str, str] | str],
        json: bool,
        name: str,
        environ: Sequence[str] = (),
    ) -> None:
        self.reason = reason
        self.next: list[dict[str, str]] = []
        for given in steps:
            # NOTE: a plain string, the natural spelling, is the command line itself.
            step = {"command": given} if isinstance(given, str) else given
            line = step.get("command", "").strip()
            # NOTE: `deploy --yes` or `shipit deploy --yes`: either way, run as this run was.
            if line.split(" ", 1)[0] == name:
                line = line[len(name) :].lstrip()
            if json and "--json" not in line.split():
                line = _with_flag(line, "--json")
            line = _command_line(line, name, here=True)
            needs = _needs(line, environ)
            when = step.get("when", "")
            if needs:
                when = f"{when} ({needs})" if when else needs
            self.next.append({**step, "command": line, **({"when": when} if when else {})})
        hint = "; ".join(
            f"run {_cited(s['command'])}" + (f" {s['when']}" if s.get("when") else "")
            for s in self.next
        )
        super().__init__(message, hint=hint or None)


#: The folder the run started in (`--cwd`'s for an MCP server), which the relative paths of
#: its calls are read from: a line that runs a command starts `cd FOLDER &&`.
_FOLDER: list[str] = []
#: The shell variables lines hold in a secret's place (`"$VAULT_TOKEN"`) -> what to set them
#: to, in words (`context._written` fills it, `_needs` says it).
_PLACED: dict[str, str] = {}


def _here() -> None:
    """Remember the folder the run reads relative paths from (before a handler moves)."""
    import os

    try:
        _FOLDER[:] = [os.getcwd()]
    except OSError:
        _FOLDER[:] = []  # NOTE: the folder was removed: a line cannot go back to it


def _needs(line: str, environ: Sequence[str]) -> str:
    """What a line needs besides its words, in words: the variables it holds in a secret's
    place, and the env vars the call's values came from (the line gives neither)."""
    said = [f"{name} set to {what}" for name, what in _PLACED.items() if f'"${name}"' in line]
    if environ:
        names = ", ".join(dict.fromkeys(environ))
        said.append(f"{names} set as for this call")
    return "with " + "; ".join(said) if said else ""


def _invoked_as() -> list[str]:
    """The words that run this tool again, as it runs now, from any folder: its name when an
    installed script of that name on PATH ran, else the interpreter and the absolute path
    (`python -m pkg.tool` stays so when the module is found without the current folder); none
    when another program imported the tool (a test, an embedding). Only a printed command line
    asks (`shutil` costs an import)."""
    import os
    import shutil
    import sys

    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    # NOTE: the main module's file is absolute (Python 3.9+), whatever folder a handler or
    # `--cwd` moved to since; in an archive (a zipapp) it is not a file, the archive is.
    script = getattr(main, "__file__", None) or ""
    if not os.path.isfile(script):
        script = sys.argv[0] if sys.argv and sys.argv[0] else ""
    if __name__ != "__main__":
        # NOTE: imported: by an installed entry point (`from tool import main`, whose script
        # is argv[0]), or by another program (a test, an embedding): its name is not ours.
        ours = sys.modules.get(__name__)
        names = list(vars(main).values()) if main is not None else []
        if not any(v is ours or getattr(v, "__module__", None) == __name__ for v in names):
            return []
    if spec is not None and spec.name not in ("__main__", None):
        # NOTE: `python -m pkg.tool`. Found through the current folder (`-m` puts it first on
        # sys.path), the tool (one file) is run by its path instead.
        origin = os.path.realpath(spec.origin or "")
        start = sys.path[0] if sys.path and sys.path[0] else os.getcwd()  # NOTE: `-m`'s cwd
        here = os.path.join(os.path.realpath(start), "")
        if __name__ != "__main__" or not origin.startswith(here):
            return [sys.executable or "python", "-m", spec.name.removesuffix(".__main__")]
        script = origin
    if not os.path.isfile(script):
        return []
    name = os.path.basename(script)
    found = shutil.which(name) if not name.endswith(".py") else None
    if found and os.path.realpath(found) == os.path.realpath(script):
        return [name]
    if __name__ != "__main__" and os.access(script, os.X_OK):
        return [os.path.abspath(script)]  # NOTE: an entry point's own script, off PATH
    if sys.executable and _uv_cached(sys.executable):
        # NOTE: `uv run tool.py` runs it in an environment of uv's cache, which
        # `uv cache clean` removes: the line runs it through uv instead.
        return [os.environ.get("UV") or "uv", "run", "--script", os.path.abspath(script)]
    return [sys.executable or "python", os.path.abspath(script)]


def _uv_cached(executable: str) -> bool:
    """Whether `executable` is in one of uv's cached environments (those `uv run` makes for a
    script with dependencies, or for `--with`), which `uv cache clean` removes."""
    import os

    path = os.path.normcase(os.path.abspath(executable))
    cache = os.environ.get("UV_CACHE_DIR")
    if cache and path.startswith(os.path.join(os.path.normcase(os.path.abspath(cache)), "")):
        return True
    parts = path.split(os.sep)
    for at, part in enumerate(parts):
        if part.startswith(("environments-v", "archive-v", "builds-v")):
            return "uv" in parts[:at]
    return False


class _Placed(str):
    """A word of a line whose value is withheld: the word (`passw=`) and then `"$VARIABLE"`,
    which the person sets to `what` (an `--answer` no question asked yet, whose value the
    warning about it hides: `cli._warn_unused_answers`)."""

    variable = ""
    what = ""


def _variable(name: str, program: Program, infix: str = "", command: str = "") -> str:
    """The shell variable a line holds in the place of the secret `name`: its option's env var
    when one has it (the line's `command`'s first: same-named options of two commands may read
    two variables), else the tool's prefix and the name (`VAULT_TOKEN`)."""
    rows = program.commands
    first = [rows[command]] if command in rows else []
    for row in [*first, *rows.values()]:
        for each in _CommandRow(row).inputs:
            env = dict(each.options).get("env") if each.name == name else None
            env = env[0] if isinstance(env, tuple) else env  # NOTE: a Click option's first
            if isinstance(env, str) and env and not infix:
                return env
    prefix = program.debug_env[: -len("DEBUG")]
    return prefix + "".join(c if c.isalnum() else "_" for c in infix + name).upper()


def _written(words: Sequence[str], secrets: dict[str, str], program: Program) -> str:
    """`shlex.join(words)`, but each secret's value (`secrets`, as given or as it reads in
    JSON) is a shell variable in its place, `"$VAULT_TOKEN"`, never its text nor
    `<secret:NAME>` (a redirection to a shell): the line runs once the variable is set, which
    the line's `when` says (`_PLACED`, `errors._needs`)."""
    import json
    import re
    import shlex

    values: dict[str, str] = {}
    for value, name in secrets.items():
        if len(value) >= 4:  # NOTE: as `sanitize._redaction_order`: shorter is never redacted
            values[value] = name
            values.setdefault(json.dumps(value)[1:-1], name)
    pattern = "|".join(re.escape(v) for v in sorted(values, key=lambda v: (-len(v), v)))
    # NOTE: the command the line runs: the longest run of its words that names one.
    command = max(
        (
            " ".join(words[start:end])
            for start in range(len(words))
            for end in range(start + 1, len(words) + 1)
            if " ".join(words[start:end]) in program.commands
        ),
        key=len,
        default="",
    )
    #: Each secret value's variable: a name's first value its variable, its next ones (an
    #: option of several, `--keys K1 K2`) `_2`, `_3`, ..., so the line gives each its own.
    held: dict[str, str] = {}
    parts = []
    for word in words:
        if isinstance(word, _Placed):
            _PLACED[word.variable] = word.what
            parts.append(shlex.quote(str(word)) + f'"${word.variable}"')
            continue
        pieces = re.split(f"({pattern})", word) if pattern else [word]
        if len(pieces) == 1:
            parts.append(shlex.quote(word))
            continue
        written = []
        for at, piece in enumerate(pieces):
            if at % 2:
                written.append(f'"${_held(piece, values[piece], command, held, program)}"')
            elif piece:
                written.append(shlex.quote(piece))
        parts.append("".join(written))
    return " ".join(parts)


def _held(value: str, name: str, command: str, held: dict[str, str], program: Program) -> str:
    """The variable a line holds the secret `value` of the option `name` in (`_written`): its
    option's (`_variable`) for its first value, `_2`, `_3`, ... for the others, each said in
    `_PLACED`."""
    variable = held.get(value)
    if variable is not None:
        return variable
    base = _variable(name, program, command=command)
    numbered = base + "_"
    count = 1 + sum(
        v == base or (v.startswith(numbered) and v[len(numbered) :].isdecimal())
        for v in held.values()
    )
    variable = base if count == 1 else f"{base}_{count}"
    held[value] = variable
    _PLACED[variable] = (
        f"the secret {name}" if count == 1 else f"value {count} of the secret {name}"
    )
    if count == 2:
        _PLACED[base] = f"value 1 of the secret {name}"
    return variable


def _unsecret(
    step: dict[str, str] | str, secrets: dict[str, str], program: Program
) -> dict[str, str] | str:
    """A handler's `next` step (`ctx.action_required`) with a secret's value in its line
    written as `_written` writes one; a line a shell cannot read is left to redaction."""
    line = step if isinstance(step, str) else step.get("command", "")
    if not any(len(value) >= 4 and value in line for value in secrets):
        return step
    import shlex

    try:
        line = _written(shlex.split(line), secrets, program)
    except ValueError:
        return step
    return line if isinstance(step, str) else {**step, "command": line}


def _command_line(words: str, name: str, here: bool = False) -> str:
    """`words` (a command line after the tool's name, quoted as a shell reads it) as a line a
    shell runs from any folder: `_invoked_as()` (else the tool's `name`) before them; `here`
    (a line that runs a command, whose relative paths, config file and handler's folder are
    this run's): `cd FOLDER &&` first, when the tool runs from a shell."""
    import shlex

    started = _invoked_as()
    prefix = shlex.join(started or [name])
    if here and started and _FOLDER:
        prefix = f"cd {shlex.quote(_FOLDER[0])} && {prefix}"
    return f"{prefix} {words}" if words else prefix


def _run_hint(words: str, name: str) -> str:
    """A hint to run the tool `name` with `words` (after its name), as `_command_line` spells
    it."""
    return f"run {_cited(_command_line(words, name))}"


def _cited(line: str) -> str:
    """A command line set apart in a hint's text: in single quotes, or in backquotes when it
    holds one itself (`--json '{}'`), so what an agent copies out is the line, whole."""
    return f"`{line}`" if "'" in line else f"'{line}'"


def _with_flag(line: str, flag: str) -> str:
    """A command line with one more flag: at its end, or before its `--` (after which every
    word is a value)."""
    if " -- " not in f" {line} ":
        return f"{line} {flag}"
    import shlex

    try:
        words = shlex.split(line)
    except ValueError:
        return f"{line} {flag}"  # NOTE: not a shell line (an open quote): left to its author
    end = words.index("--") if "--" in words else len(words)
    return shlex.join([*words[:end], flag, *words[end:]])


class _MissingDependency(CommandError):
    """A third-party package the command needs is not installed."""

    kind = "missing_dependency"


class _Absent(type):
    """The class of `_Missing` and of each stand-in it makes: using a stand-in (an attribute,
    a call, an item, a loop) fails as `missing_dependency`."""

    _missing: tuple[str, str, str]

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        if cls is _Missing:
            # NOTE: `_Missing(module, package, error)` makes a stand-in, a class: an exception
            # class of the package (`except UnidentifiedImageError:`) is still one to `except`,
            # which then lets the command's `missing_dependency` through, not a TypeError.
            module, package, error = args
            return _Absent(module, (_Missing,), {"_missing": (module, package, str(error))})
        cls._fail()

    def _fail(cls) -> NoReturn:
        import shlex

        module, package, reason = cls._missing
        raise _MissingDependency(
            f"this command needs the package {package!r} (module {module!r}), which is not"
            f" installed: {reason}",
            # NOTE: `package` is the requirement as declared; a pin like `>=4.9` is quoted, or
            # the shell would read `>` as a redirection.
            hint=f"pip install {shlex.quote(package)}",
        )

    def __getattr__(cls, name: str) -> Any:
        if name.startswith("__") or name == "_missing":
            raise AttributeError(name)  # NOTE: `_missing` of `_Missing` itself: none
        cls._fail()

    def __getitem__(cls, key: object) -> Any:
        cls._fail()

    def __iter__(cls) -> Any:
        cls._fail()


class _Missing(Exception, metaclass=_Absent):
    """Stands for a third-party module, or a name imported from one, that is not installed:
    `_Missing(module, package, error)` is a class of its own (see `_Absent`).

    The tool still starts, describes itself and serves MCP; a command that uses it fails as
    `missing_dependency`, with the package to install in the hint.
    """


class _Invalid(ValueError):
    """A value that does not fit its parameter's type; the message says why."""

    #: Whether the message names its places itself (a record's fields): no label added.
    placed = False

    def within(self, key: str, items: list[Any], convert: Any, flag: str | None) -> _Invalid:
        """The problem of a list parameter `key` whose `items` `convert` refused: itself (a
        record's problems are each told at its item: `records._Problems`)."""
        return self


class _Explained(Exception):
    """Raised by `_Call.check()` under --explain: every value is known; the handler must not run."""


def _success(data: Any) -> dict[str, Any]:
    """The `{ok: true, data}` envelope of an answer, the same on the CLI and over MCP (`meta`,
    `outcome` and the like are added by whoever knows them)."""
    return {"ok": True, "data": data}


def _failure(error: CommandError) -> dict[str, Any]:
    """The `{ok: false, ...}` envelope of `error`, the same on the CLI and over MCP."""
    body: dict[str, Any] = {"kind": error.kind, "message": error.message}
    if error.hint:
        body["hint"] = error.hint
    if error.retryable:
        body["retryable"] = True
    if error.details:
        body["details"] = error.details
    if isinstance(error, _ActionRequired):
        return {
            "ok": False,
            "status": "action_required",
            "reason": error.reason,
            "error": body,
            "next": error.next,
        }
    return {"ok": False, "error": body}
