# burgee: joins head 20
# burgee: section timeout: _cancel_event
# burgee: section confirm: _answer _question_field _form _answer_steps _asked _ask_fields
# burgee: section confirm: _from_person _ask _rerun_line _answer_flags
"""What a handler may ask of the running tool (`Context`), and one command's table entry.

`Context` (what a handler may ask: cancellation (an Event that also cancels an async handler's
task), progress, `log`, `action_required`, `confirm`/`ask`/`form`, `on_exit`,
agent/interactive), `_Command` (one command's table entry, with its result shape and its
confirmation question); **the one way a question is answered** (the `confirm` section):
`_answer` (`ctx.confirm`/`ctx.ask`: the answer given ahead by `--answer NAME=VALUE`, else
`_asked`, else `action_required` whose `next` reruns the call with each answer, `_answer_steps`)
and `_form` (`ctx.form`: the fields given ahead, the others asked at once, else
`action_required` with one line answering every field; the form built by gen's `_to_FORM`),
`_asked` (one question, a missing `Option(prompt=)`'s and a command that asks first's too)
through `_ask_fields` (every field of the MCP client's user in one `elicitation/create` through
`Context._elicit`, never a secret; else of a person at the terminal, field by field,
`_from_person`, re-asked until the answer fits; `_UNANSWERED` where nobody can be asked);
`_answer_name()`, a question's stable NAME from its first words; `_rerun_line()`, a call's
command line again with more flags (`--yes`, `--answer`; one no question asked yet in a
variable's place, `_answer_flags`) and its `--config`; `_secret()`, the one way a value becomes
a secret (`_SECRETS`), with every number its digits become.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

from burgee.runtime.core.errors import (
    UsageError,
    _Aborted,
    _ActionRequired,
    _AfterRun,
    _Exited,
    _Placed,
    _ShowHelp,
    _unsecret,
    _variable,
    _written,
)
from burgee.runtime.core.fields import _answer_text, _checked, _field_schema, _form_fields
from burgee.runtime.rows import _FieldRow, _row_of

if TYPE_CHECKING:
    import argparse
    import threading
    from collections.abc import Callable, Sequence
    from typing import NoReturn, TypeVar

    from burgee.runtime.program import Program

    #: What `Context.form` returns: the form's own class.
    _F = TypeVar("_F")
    #: What `Context.invoke` returns: the function's own result.
    _T = TypeVar("_T")


def _with_context(
    callback: Callable[..., Any], context: object, kwargs: dict[str, Any]
) -> dict[str, Any]:
    """`kwargs` with `context` for each parameter of `callback` annotated as a Context that
    they do not give (`Context.invoke`, and the authoring API's)."""
    for name, kind in getattr(callback, "__annotations__", {}).items():
        named = kind if isinstance(kind, str) else getattr(kind, "__name__", "")
        if named.rpartition(".")[2] == "Context" and name not in kwargs:
            kwargs[name] = context
    return kwargs


#: Every secret value this process has seen (value -> name): an option given `secret=True`
#: (from a flag, JSON input, env var or config file) or `ctx.secret(...)`. Whatever the tool
#: writes is cleaned of them (`<secret:NAME>`), whichever call the text came from.
_SECRETS: dict[str, str] = {}


def _secret(text: str, name: str) -> None:
    """Keep `text` a secret (`_SECRETS`), in capitals and in small letters too (`str.upper()`
    of it shows as much), and every number its digits become when a handler converts it:
    `int("0048151623")` shows 48151623, `float("7314159.2700")` 7314159.27, and `int()` or
    `round()` of that 7314159; each is redacted as the text is."""
    _SECRETS[text] = name
    _SECRETS.setdefault(text.upper(), name)
    _SECRETS.setdefault(text.lower(), name)
    stripped = text.strip()
    if not stripped or stripped[0] not in "+-.0123456789" or len(stripped) > 400:
        return  # NOTE: no number (and no 4,000-digit int: its conversion is refused)
    forms = []
    try:
        forms.append(str(int(stripped)))
    except ValueError:
        pass
    try:
        number = float(stripped)
    except ValueError:
        number = None
    if number is not None and abs(number) < float("inf"):
        forms += [repr(number), str(int(number)), str(round(number))]
    for form in forms:
        _SECRETS.setdefault(form, name)


#: Environment variables that name the agent running this tool.
_AGENTS = (
    ("CLAUDECODE", "claude-code"),
    ("CURSOR_AGENT", "cursor"),
    ("CODEX_THREAD_ID", "codex"),
    ("GEMINI_CLI", "gemini-cli"),
)


def _switched_on(variable: str) -> bool:
    """An environment variable set to anything but empty or false-like (`0`, `false`, `no`,
    `off`): how the tool reads every switch it takes from the environment."""
    return os.environ.get(variable, "").strip().lower() not in ("", "0", "false", "no", "off")


def _agent() -> str | None:
    """The coding agent named by the environment, if any (`AI_AGENT` names itself)."""
    if _switched_on("AI_AGENT"):
        return os.environ["AI_AGENT"].strip()
    return next((agent for variable, agent in _AGENTS if _switched_on(variable)), None)


def _interactive() -> bool:
    """A person can answer: a terminal on stdin, no CI and no agent, or FORCE_TTY=1."""
    if _switched_on("FORCE_TTY"):
        return True
    return sys.stdin.isatty() and not _switched_on("CI") and _agent() is None


#: The MCP (syslog) log levels of `ctx.log`, least to most severe.
_LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")


class Context:
    """What a handler may ask of the running tool. It is injected, never parsed."""

    #: Where progress goes instead of the terminal (set by the MCP server for each call).
    _report: Callable[[float, float | None, str | None], None] | None = None
    #: Where `log` messages go instead of stderr (set by the MCP server for each call).
    _log: Callable[[str, str, dict[str, object]], None] | None = None
    #: `--debug`: every level of `log` reaches stderr, not only warning and above.
    _verbose = False
    #: A person may be asked at the terminal (the command line, without JSON input; the
    #: terminal itself is looked at only when a question comes, `_interactive`).
    _person = False
    #: `--yes`: every yes/no question (`ctx.confirm`) not answered by name is answered yes.
    _yes = False
    #: Asks the MCP client's user (`elicitation/create`): (name, message, requested schema)
    #: -> the client's ElicitResult; set by the MCP server when the client can be asked.
    _elicit: Callable[[str, str, dict[str, Any]], dict[str, Any]] | None = None
    #: The `next` step that reruns the call with answers (`--answer NAME=VALUE` each): the
    #: answers -> its command line; set where the call has one (the command line, a batch, MCP).
    _rerun: Callable[[dict[str, str]], str] | None = None

    def __init__(self, command: str, json: bool, program: Program) -> None:
        #: The program the call is of: what the runtime reads of it goes through here.
        self._program = program
        #: Its name (a handler's `ctx.program`).
        self.program: str = program.name
        self.command = command
        self.json = json
        self._callbacks: list[Callable[[], object]] = []
        #: Called when `cancelled` is set (an async handler's task is cancelled then).
        self._on_cancel: list[Callable[[], object]] = []
        #: Answers given ahead, by question name (`--answer NAME=VALUE`).
        self._answers: dict[str, str] = {}
        #: The names of the questions the call asked (`_given`): an answer given ahead to none
        #: of them was not used (`cli._warn_unused_answers`).
        self._asked: set[str] = set()
        #: The env vars the call's values came from (`_Sources.pick`): a line that runs the
        #: call again says so, as it cannot hold them.
        self._environ: list[str] = []

    def _given(self, name: str) -> str | None:
        """The answer given ahead (`--answer`) to the question `name` the call asks now."""
        self._asked.add(name)
        return self._answers.get(name)

    @property
    def cancelled(self) -> threading.Event:
        """Set when the caller gives up on this command; long handlers should check it."""
        event: threading.Event | None = self.__dict__.get("_cancelled")
        if event is None:
            # NOTE: the MCP reader or the --timeout timer may ask at the same moment as the
            # handler; setdefault is atomic, so every thread gets the same Event.
            event = self.__dict__.setdefault("_cancelled", _cancel_event(self._on_cancel))
        return event

    def progress(self, done: float, total: float | None = None, message: str | None = None) -> None:
        """Report progress: a status line on a terminal's stderr, and nothing elsewhere."""
        if self._report is not None:
            self._report(done, total, message)
            return
        # NOTE: `output._Status`, when a terminal shows one (output imports this module).
        status = getattr(sys.stderr, "status", None)
        if status is None or not sys.stderr.isatty():
            return
        amount = f"{done:g}/{total:g}" if total else f"{done:g}"
        status.show(f"{self.command}: {amount} {message or ''}".rstrip())

    def log(self, level: str, message: str, **data: object) -> None:
        """Log `message` (and `data`): to an MCP client that asked for the level, else to
        stderr (warning and above, or every level with `--debug`)."""
        if level not in _LOG_LEVELS:
            raise ValueError(f"log level {level!r} is not one of {', '.join(_LOG_LEVELS)}")
        if self._log is not None:
            self._log(level, str(message), data)
            return
        if _LOG_LEVELS.index(level) < 3 and not self._verbose:
            return
        extra = "".join(f" {key}={value!r}" for key, value in data.items())
        sys.stderr.write(f"{self._program.name}: {level}: {message}{extra}\n")

    @property
    def interactive(self) -> bool:
        """True only when a person can answer: a terminal on stdin, no CI, no agent."""
        return _interactive()

    @property
    def agent(self) -> str | None:
        """The coding agent running this tool, when the environment names one."""
        return _agent()

    def secret(self, value: str | float, name: str = "secret") -> None:
        """Never write `value` (say, a token read from a file): it becomes `<secret:NAME>`. A
        number is kept as its text (a number that shows it is written as that text redacted)."""
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = repr(value)
        if isinstance(value, str) and value:
            _secret(value, name)

    def action_required(
        self, *, reason: str, message: str, next: Sequence[dict[str, str] | str] = ()
    ) -> NoReturn:
        """Stop: the caller must act first. `next` lists commands: `"x --yes"`, or
        `{"command": "x --yes", "when": "..."}`."""
        program = self._program
        steps = [_unsecret(step, _SECRETS, program) for step in next] if _SECRETS else next
        raise _ActionRequired(reason, message, steps, self.json, program.name, self._environ)

    def show_help(self) -> NoReturn:
        """Stop, and show the command's help instead of an answer: on the command line, as
        `COMMAND --help` does (exit 0); over MCP or in a batch, a usage error saying so."""
        raise _ShowHelp(self.command, self._program.name)

    def confirm(self, question: str, *, default: bool = False, name: str | None = None) -> bool:
        """Ask a yes/no question: at a terminal, of an MCP client's user, or answered ahead
        with `--answer NAME=yes`; where nobody can answer, the call stops with
        `action_required`, whose `next` answers it. `name` (default: from the question) is the
        NAME of `--answer`."""
        answer = _answer(self, name, question, default, False, None, True)
        return answer is True

    def ask(
        self,
        question: str,
        *,
        default: str | None = None,
        secret: bool = False,
        choices: Sequence[str] | None = None,
        name: str | None = None,
    ) -> str:
        """Ask for a value (one of `choices`, when given; a secret without echo, never of an
        MCP client): as `confirm` asks; a declined or cancelled question stops the call with
        `action_required`."""
        return str(_answer(self, name, question, default, secret, choices, False))

    def form(self, message: str, form: type[_F], *, legacy_titles: Sequence[str] = ()) -> _F:
        """Ask for several values at once: the fields of `form`, a dataclass or TypedDict of
        the handlers file (each field's type, default and help; a Literal or an Enum of strings
        is a choice, titled by its members' names for an Enum; a list of one, several). Asked
        as `ask` asks: one form of an MCP client's user, each field in turn at a terminal,
        `--answer FIELD=VALUE` given ahead; else `action_required`. `legacy_titles`: the Enum
        fields whose titles an MCP client gets as `enumNames`, for clients that read no
        `oneOf`. Returns a `form` made of the answers (a field left empty: its default)."""
        return _form(self, message, form, tuple(legacy_titles))  # type: ignore[return-value]

    #: What a body written for Click or Typer keeps for later (`ctx.obj`), as theirs does.
    obj: Any = None

    def exit(self, code: int = 0) -> NoReturn:
        """End the command now (Click's and Typer's `ctx.exit`): at 0 a success with no data,
        else the error `exit` at `code`."""
        raise _Exited(code)

    def fail(self, message: str) -> NoReturn:
        """Stop with a usage error (Click's `ctx.fail`): exit 2."""
        raise UsageError(message)

    def abort(self) -> NoReturn:
        """Stop as Click's `ctx.abort()` does: the error `aborted`, exit 1."""
        raise _Aborted("Aborted!")

    def invoke(self, callback: Callable[..., _T], /, *args: Any, **kwargs: Any) -> _T:
        """Run another command's function from this one (Click's `ctx.invoke`): with the
        values given, its own defaults for the rest, and this context where it takes one."""
        return callback(*args, **_with_context(callback, self, kwargs))

    def ensure_object(self, kind: type[_F]) -> _F:
        """`obj`, made a new `kind` first unless it is one (Click's `ctx.ensure_object`)."""
        if not isinstance(self.obj, kind):
            self.obj = kind()
        return self.obj

    def find_object(self, kind: type[_F]) -> _F | None:
        """`obj` when it is a `kind`, else None (Click's `ctx.find_object`)."""
        return self.obj if isinstance(self.obj, kind) else None

    def on_exit(self, callback: Callable[[], object]) -> None:
        """Run `callback` once when the command ends, however it ends."""
        self._callbacks.append(callback)

    def close(self) -> None:
        """Run the on_exit callbacks, newest first, each exactly once."""
        while self._callbacks:
            callback = self._callbacks.pop()
            try:
                callback()
            except (Exception, SystemExit) as error:  # noqa: BLE001
                # NOTE: a cleanup that fails must not hide the command's own result.
                sys.stderr.write(f"{self._program.name}: on_exit callback failed: {error!r}\n")


def _cancel_event(hooks: list[Callable[[], object]]) -> threading.Event:
    """A `threading.Event` that also calls `hooks` when it is set."""
    import threading

    class Cancel(threading.Event):
        def set(self) -> None:
            super().set()
            for hook in list(hooks):
                hook()

    return Cancel()


#: A question nobody here can answer: no terminal, no MCP client that asks its user, no answer
#: given ahead (`--answer`).
_UNANSWERED: Any = object()


def _answer_name(question: str) -> str:
    """A question's stable name, from its first words: "Overwrite {path}?" -> `overwrite-path`."""
    words = "".join(c.lower() if c.isalnum() else " " for c in question).split()
    return "-".join(words[:4]) or "answer"


def _question_field(
    name: str, question: str, default: object, choices: Sequence[str] | None, boolean: bool
) -> _FieldRow:
    """The one field of a question (`ctx.confirm`, `ctx.ask`, `prompt=`, a confirmation)."""
    return _row_of(
        _FieldRow,
        name=name,
        title=question,
        description="",
        kind="boolean" if boolean else "string",
        several=False,
        choices=tuple(choices or ()),
        titles=(),
        required=True,
        default=default,
    )


def _answer(
    context: Context,
    name: str | None,
    question: str,
    default: object,
    secret: bool,
    choices: Sequence[str] | None,
    boolean: bool,
) -> object:
    """`ctx.confirm` and `ctx.ask`: the answer given ahead, or asked (`_asked`); else stop.
    The handler is running: an answer that does not fit is `_AfterRun`, not `usage`."""
    try:
        return _answering(context, name, question, default, secret, choices, boolean)
    except UsageError as error:
        raise _AfterRun(error.message, hint=error.hint) from None


def _answering(
    context: Context,
    name: str | None,
    question: str,
    default: object,
    secret: bool,
    choices: Sequence[str] | None,
    boolean: bool,
) -> object:
    name = name or _answer_name(question)
    entry = _question_field(name, question, default, choices, boolean)
    given = context._given(name)
    if given is None and boolean and context._yes:
        given = "yes"  # NOTE: `--yes` answers every yes/no question not answered by name
    if given is not None:
        answer: object = _checked(given, entry)
    else:
        answer = _asked(context, name, question, default, secret, choices, boolean)
        if answer is _UNANSWERED:
            where = "no terminal to ask at and no answer given"
            if secret and context._elicit is not None:
                where = "a secret is never asked of an MCP client"
            elif context._elicit is not None:
                where = "the MCP client could not be asked now"
            raise _ActionRequired(
                "answer",
                f"{question} ({where}: --answer {name}=...)",
                _answer_steps(context, (entry,), secret),
                context.json,
                context._program.name,
                context._environ,
            )
        if answer is None:
            answer = default
    if secret and isinstance(answer, str) and answer:
        _secret(answer, name)
    return answer


def _form(context: Context, message: str, form: type, legacy: tuple[str, ...]) -> object:
    """`ctx.form`: each field given ahead (`--answer FIELD=VALUE`), the others asked as one
    form (`_ask_fields`), else stop; the form built from the answers by the converter gen wrote
    for it (`_to_FORM`), which checks them as JSON input is checked. An answer that does not
    fit is `_AfterRun`, as `_answer`'s."""
    try:
        return _forming(context, message, form, legacy)
    except UsageError as error:
        raise _AfterRun(error.message, hint=error.hint) from None


def _forming(context: Context, message: str, form: type, legacy: tuple[str, ...]) -> object:
    fields = _form_fields(form, context._program)
    values: dict[str, Any] = {}
    missing = []
    for entry in fields:
        given = context._given(entry.name)
        if given is None:
            missing.append(entry)
        else:
            values[entry.name] = _checked(given, entry)
    if missing:
        answers = _ask_fields(context, form.__name__, message, missing, False, legacy)
        if answers is _UNANSWERED:
            names = ", ".join(entry.name for entry in missing)
            raise _ActionRequired(
                "answer",
                f"{message} (no terminal to ask at and no answer given: --answer FIELD=VALUE"
                f" for each of {names})",
                _answer_steps(context, missing),
                context.json,
                context._program.name,
                context._environ,
            )
        values.update((key, value) for key, value in answers.items() if value is not None)
    try:
        return globals()["_to_" + form.__name__](values)
    except ValueError as error:
        raise UsageError(f"the answers to {message!r}: {error}") from None


def _answer_steps(
    context: Context, fields: Sequence[_FieldRow], secret: bool = False
) -> list[dict[str, str]]:
    """The `next` steps of questions nobody could answer: the call again with each answer
    (a secret's never shown: `VALUE`): a question's every choice, or a form's fields at once."""
    if context._rerun is None:
        return []
    if len(fields) > 1:
        given = {
            entry.name: "VALUE" if entry.default is None else _answer_text(entry.default)
            for entry in fields
        }
        when = "as it is, or with other answers in place of the defaults shown"
        if "VALUE" in given.values():
            when = "with the answers in place of VALUE"
            if any(entry.default is not None for entry in fields):
                when += " (and of the defaults shown, as you wish)"
        return [{"command": context._rerun(given), "when": when}]
    name, default, choices = fields[0].name, fields[0].default, fields[0].choices
    if fields[0].kind == "boolean":
        values = ["yes", "no"]
    else:
        shown = default if isinstance(default, str) and default and not secret else "VALUE"
        values = list(choices or [shown])
    steps = []
    for value in values:
        when = f"to answer {value}" if value != "VALUE" else "with the answer in place of VALUE"
        steps.append({"command": context._rerun({name: value}), "when": when})
    return steps


def _asked(
    context: Context,
    name: str,
    question: str,
    default: object,
    secret: bool,
    choices: Sequence[str] | None,
    boolean: bool,
) -> object:
    """One question (`ctx.confirm`/`ctx.ask`, a missing `Option(prompt=)`, a command that asks
    first), asked as every question is (`_ask_fields`): the answer; None: the default (an empty
    answer); `_UNANSWERED`: nobody could be asked."""
    entry = _question_field(name, question, default, choices, boolean)
    answers = _ask_fields(context, name, question, [entry], secret)
    return answers if answers is _UNANSWERED else answers[name]


def _ask_fields(
    context: Context,
    key: str,
    message: str,
    fields: Sequence[_FieldRow],
    secret: bool = False,
    legacy: Sequence[str] = (),
) -> Any:
    """The one way questions are asked: of the MCP client's user (one `elicitation/create`
    of every field, `key` naming it; never a secret), else of a person at the terminal, each
    field in turn. The answers by field name (None: the default, an empty answer);
    `_UNANSWERED`: nobody could be asked. Declined, a form or an `ask` stops the call, a yes/no
    question is no; cancelled, any stops (`action_required`, reason `declined`/`cancelled`,
    with no `next`: nothing may answer for the person)."""
    if context._elicit is not None and not secret:
        properties = {entry.name: _field_schema(entry, entry.name in legacy) for entry in fields}
        required = [entry.name for entry in fields if entry.required]
        schema = {"type": "object", "properties": properties, "required": required}
        result = context._elicit(key, message, schema)
        action = result.get("action")
        if action is None:
            return _UNANSWERED  # NOTE: asked of nobody (no place to wait): no person's no
        if action == "accept":
            content = result.get("content")
            content = content if isinstance(content, dict) else {}
            answers: dict[str, object] = {}
            for entry in fields:
                value = content.get(entry.name)
                if value is None and (
                    entry.default is not None or entry.kind == "boolean" or not entry.required
                ):
                    answers[entry.name] = None  # NOTE: the default (a field the client left out)
                else:
                    answers[entry.name] = _checked(value, entry)
            return answers
        if action == "decline" and key == fields[0].name and fields[0].kind == "boolean":
            return {key: False}  # NOTE: a yes/no question (named as its field), not a form
        # NOTE: the person's no is final: no line that answers for them (`--answer`, `--yes`).
        if action == "decline":
            ended, said = "declined", "the person declined to answer"
        else:
            ended, said = "cancelled", "the person cancelled the question"
        raise _ActionRequired(
            ended,
            f"{message} ({said}: nothing more ran)",
            [],
            context.json,
            context._program.name,
            context._environ,
        )
    if not (context._person and _interactive()):
        return _UNANSWERED
    if len(fields) > 1 or message != fields[0].title:
        sys.stderr.write(message + "\n")
    answers = {}
    for entry in fields:
        answer = _from_person(entry, secret)
        if answer is _UNANSWERED:
            return _UNANSWERED
        answers[entry.name] = answer
    return answers


def _from_person(entry: _FieldRow, secret: bool) -> object:
    """Ask at the terminal until the answer is one the field takes (an empty one: None, the
    default, when there is one); `_UNANSWERED` at the end of input."""
    question, description, kind = entry.title, entry.description, entry.kind
    several, choices, default = entry.several, entry.choices, entry.default
    boolean = kind == "boolean"
    if description:
        question += f" ({description})"
    if boolean:
        question += " [Y/n]" if default else " [y/N]"
    elif choices:
        question += f" ({'/'.join(choices)}{', several: a,b' if several else ''})"
    shown = None if boolean or default in (None, []) else _answer_text(default)
    while True:
        answer = _ask(question, shown, secret, " " if boolean else ": ")
        if answer is None:
            return _UNANSWERED
        answer = answer.strip() if kind != "string" or several else answer
        if not answer:
            if default is not None or boolean:
                return None
            continue
        try:
            return _checked(answer, entry)
        except UsageError as error:
            wanted = error.message.partition("expected ")[2].rpartition(", got")[0]
            if boolean or (choices and not several):
                wanted = "y or n" if boolean else ", ".join(choices)
            sys.stderr.write(f"answer {wanted}\n")


def _ask(question: str, default: object, secret: bool, end: str = ": ") -> str | None:
    """Ask a person once (hidden input for a secret): the line typed; None at the end of input."""
    shown = "" if default is None else f" [{_jsonable_text(default)}]"
    text = f"{question}{shown}{end}"
    if secret:
        import getpass

        try:
            return getpass.getpass(text)
        except EOFError:
            return None
    sys.stderr.write(text)
    sys.stderr.flush()
    line = sys.stdin.readline()
    return line.rstrip("\r\n") if line else None


def _rerun_line(
    program: Program,
    path: str,
    rest: list[str],
    json_input: str | None,
    flags: list[str],
    config: str | None = None,
) -> str:
    """The command line of a call of `program` again (its words as given, or its JSON input) with
    `flags` (`--yes`, `--answer NAME=VALUE`), before a `--`, after which every word is a value; with
    the call's `--config` (absolute), and no secret in clear (`_written`)."""
    if json_input is not None:
        flags = ["--json", json_input, *flags]
    end = rest.index("--") if "--" in rest else len(rest)
    words = [] if program.root_mode == "alone" else path.split()
    if config is not None:
        words = ["--config", os.path.abspath(config), *words]
    return _written([*words, *rest[:end], *flags, *rest[end:]], _SECRETS, program)


def _answer_flags(
    program: Program,
    answers: dict[str, str],
    more: dict[str, str],
    asked: set[str] | None = None,
) -> list[str]:
    """`--answer` flags of a call of `program` that give `answers` and `more` (in place of
    earlier ones); an answer to no question `asked` yet keeps its place, not its value
    (`_Placed`)."""
    flags: list[str] = []
    for key, text in {**answers, **more}.items():
        if key in more or (asked is not None and key in asked):
            flags += ["--answer", f"{key}={text}"]
            continue
        word = _Placed(f"{key}=")
        word.variable = _variable(key, program, "answer ")
        word.what = f"your answer to {key}"
        flags += ["--answer", word]
    return flags


def _jsonable_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return " ".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)


#: The default of an injected Context parameter; the tool always passes a real one.
INJECTED: Any = None


class _Command:
    """One command: its help, how to build its parser, how to run it, and its result's shape."""

    __slots__ = (
        "build",
        "confirm",
        "deprecated",
        "deprecated_flags",
        "description",
        "effects",
        "examples",
        "exclusive",
        "keys",
        "max_output",
        "questions",
        "returns",
        "run",
        "sanitize",
        "secret",
        "summary",
        "trust",
        "yes",
    )

    def __init__(
        self,
        summary: str,
        keys: tuple[str, ...],
        build: Callable[[argparse.ArgumentParser], None],
        run: Callable[[Any], object],  # NOTE: given a `values._Call`
        returns: Any,
        *,
        description: str | None = None,
        examples: tuple[str, ...] = (),
        effects: str = "read_only",
        max_output: int | None = None,
        sanitize: bool = True,
        trust: str = "workspace",
        confirm: str | None = None,
        questions: tuple[tuple[str, str, tuple[str, ...]], ...] = (),
        yes: bool = False,
        deprecated: str | None = None,
        deprecated_flags: tuple[tuple[str, str, str], ...] = (),
        exclusive: tuple[tuple[tuple[str, ...], bool], ...] = (),
        secret: bool = False,
    ) -> None:
        self.summary = summary
        #: The docstring's text (None: just the summary, as most commands have).
        self.description = summary if description is None else description
        self.examples = examples
        self.keys = keys
        self.build = build
        self.run = run
        #: The declared return type, as a shape `_conform` checks.
        self.returns = returns
        #: read_only, idempotent, non_idempotent, destructive, withheld (`@command(effects=)`) or
        #: undeclared (an incumbent app's command: `--batch` runs it alone, as a change).
        self.effects = effects
        #: `@command(max_output=N)`: the limit of what an agent gets (None: the program's).
        self.max_output = max_output
        #: `@command(sanitize=False)`: a trusted command whose text is not neutralised.
        self.sanitize = sanitize
        #: `@command(trust=)`: where its data comes from; external and untrusted are quarantined.
        self.trust = trust
        #: The question of a command that asks first (destructive, or `@command(confirm=)`),
        #: asked on the command line unless `--yes`; None: it runs without asking.
        self.confirm = confirm
        #: The questions its handler asks: (kind, text, `--answer` names) each (`ctx.confirm`,
        #: `ask`, `form`; the text "" when made as it runs), for its help.
        self.questions = questions
        #: It takes `--yes` (it asks first, or its handler asks yes or no: `ctx.confirm`).
        self.yes = yes or confirm is not None
        #: `@command(deprecated=)`: the reason ("" for none); None: not deprecated.
        self.deprecated = deprecated
        #: `Option(deprecated=)`: (key, flag, reason) of each deprecated option.
        self.deprecated_flags = deprecated_flags
        #: `@command(exclusive=, one_of=)`: each group's keys, and whether one is required.
        self.exclusive = exclusive
        #: Whether an input is `secret=True`: a word of its command line that is no known
        #: option's value may be the secret typed without its flag, so no message shows it.
        self.secret = secret


def _no_arguments(parser: argparse.ArgumentParser) -> None:
    """The parser of a command that takes no input needs nothing added."""
