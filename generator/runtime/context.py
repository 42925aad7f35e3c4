"""What a handler may ask of the running tool (`Context`), and one command's table entry."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

from burgee.runtime.errors import _ActionRequired
from burgee.runtime.program import PROGRAM

if TYPE_CHECKING:
    import argparse
    import threading
    from collections.abc import Callable, Sequence
    from typing import NoReturn

    from burgee.runtime.output import _Status
    from burgee.runtime.values import _Call

#: Every secret value this process has seen (value -> name): an option given `secret=True`
#: (from a flag, JSON input, env var or config file) or `ctx.secret(...)`. Whatever the tool
#: writes is cleaned of them (`<secret:NAME>`), whichever call the text came from.
_SECRETS: dict[str, str] = {}

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

    def __init__(self, command: str, json: bool) -> None:
        self.program = PROGRAM
        self.command = command
        self.json = json
        self._callbacks: list[Callable[[], object]] = []
        #: Called when `cancelled` is set (an async handler's task is cancelled then).
        self._on_cancel: list[Callable[[], object]] = []

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
        status: _Status | None = getattr(sys.stderr, "status", None)
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
        sys.stderr.write(f"{PROGRAM}: {level}: {message}{extra}\n")

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
            _SECRETS[value] = name

    def action_required(
        self, *, reason: str, message: str, next: Sequence[dict[str, str] | str] = ()
    ) -> NoReturn:
        """Stop: the caller must act first. `next` lists commands: `"x --yes"`, or
        `{"command": "x --yes", "when": "..."}`."""
        raise _ActionRequired(reason, message, next, self.json)

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
                sys.stderr.write(f"{PROGRAM}: on_exit callback failed: {error!r}\n")


def _cancel_event(hooks: list[Callable[[], object]]) -> threading.Event:
    """A `threading.Event` that also calls `hooks` when it is set."""
    import threading

    class Cancel(threading.Event):
        def set(self) -> None:
            super().set()
            for hook in list(hooks):
                hook()

    return Cancel()


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
        "returns",
        "run",
        "sanitize",
        "summary",
        "trust",
    )

    def __init__(
        self,
        summary: str,
        keys: tuple[str, ...],
        build: Callable[[argparse.ArgumentParser], None],
        run: Callable[[_Call], object],
        returns: Any,
        *,
        description: str | None = None,
        examples: tuple[str, ...] = (),
        effects: str = "read_only",
        max_output: int | None = None,
        sanitize: bool = True,
        trust: str = "workspace",
        confirm: str | None = None,
        deprecated: str | None = None,
        deprecated_flags: tuple[tuple[str, str, str], ...] = (),
        exclusive: tuple[tuple[tuple[str, ...], bool], ...] = (),
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
        #: read_only, idempotent, non_idempotent, destructive or withheld (`@command(effects=)`).
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
        #: `@command(deprecated=)`: the reason ("" for none); None: not deprecated.
        self.deprecated = deprecated
        #: `Option(deprecated=)`: (key, flag, reason) of each deprecated option.
        self.deprecated_flags = deprecated_flags
        #: `@command(exclusive=, one_of=)`: each group's keys, and whether one is required.
        self.exclusive = exclusive


def _no_arguments(parser: argparse.ArgumentParser) -> None:
    """The parser of a command that takes no input needs nothing added."""
