# burgee: joins head 25
"""Bodies written for Click or Typer, run unchanged: the stand-in for the part of `click` and
`typer` a command's body calls (`_Click`, `_Typer`: `echo`, `secho`, `style`, `confirm`,
`prompt`, the exceptions, `get_current_context()`, `get_app_dir`), which a generated file binds
in place of the package when that is all its handlers use (`read/frameworks.py` decides), and
`_framework_call`, how a command of such a program runs (`Program.frameworks`): inside a
context `get_current_context()` finds, its Click or Typer exceptions (the stand-in's or the real
package's, alike) made the envelope's kinds.

Bodies written for Click or Typer: `_Click`/`_Typer`, the stand-in a generated file binds in
place of the package (`echo`, `secho`, `style`, `confirm`/`prompt` through
`Context.confirm`/`ask`, the exceptions, `get_current_context()`: the running `Context`, whose
`obj`/`exit`/`fail`/`abort` are Click's, `get_app_dir`); `_Asking`, the real package with its
questions asked as the tool asks; `_framework_call` (`Program.frameworks`, called by
`table._reader`): a handler run with its context where `get_current_context()` finds it, its
Click or Typer exceptions made the envelope's kinds (`_framework_error`: `usage`, and
`errors._Aborted`, `_Failed`, `_Exited`; `ctx.exit(0)` a success, `execute._execute`).
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

from burgee.runtime.core.context import Context
from burgee.runtime.core.errors import CommandError, UsageError, _Aborted, _Exited, _Failed

if TYPE_CHECKING:
    from collections.abc import Callable

#: The context of the command each thread runs (`get_current_context()`), by thread.
_CLICK_CONTEXTS: dict[int, Context] = {}
_COLOURS = ("black", "red", "green", "yellow", "blue", "magenta", "cyan", "white")


class _ClickError(Exception):
    """The stand-in's `click.ClickException`: a failure with a message and an exit code."""

    exit_code = 1

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def format_message(self) -> str:
        return self.message

    def show(self, file: Any = None) -> None:
        (file or sys.stderr).write(f"Error: {self.format_message()}\n")


class _ClickUsage(_ClickError):
    """The stand-in's `click.UsageError`: the command line was wrong (exit 2)."""

    exit_code = 2

    def __init__(self, message: str, ctx: Any = None) -> None:
        super().__init__(message)
        self.ctx = ctx


class _BadParameter(_ClickUsage):
    """The stand-in's `click.BadParameter`: a value was wrong ("Invalid value for ...")."""

    def __init__(
        self, message: str, ctx: Any = None, param: Any = None, param_hint: Any = None
    ) -> None:
        super().__init__(message, ctx)
        self.param_hint = param_hint

    def format_message(self) -> str:
        hint = self.param_hint
        if isinstance(hint, (list, tuple)):
            hint = " / ".join(repr(h) for h in hint)
        return (
            f"Invalid value for {hint}: {self.message}"
            if hint
            else f"Invalid value: {self.message}"
        )


class _Abort(RuntimeError):
    """The stand-in's `click.Abort`."""


class _Exit(RuntimeError):
    """The stand-in's `click.exceptions.Exit` and `typer.Exit`: end the command at `code`."""

    def __init__(self, code: int = 0) -> None:
        super().__init__(code)
        self.exit_code = code


def _framework_error(error: BaseException) -> CommandError | None:
    """`error` as the envelope's kind when it is one of Click's or Typer's exceptions (the
    stand-in's or the real package's, by class name: `typer` vendors click); None for any
    other, which goes on as it is. An exit at 0 is `_Exited(0)`, a success (`_execute`)."""
    names = {
        kind.__name__
        for kind in type(error).__mro__
        if kind.__module__.split(".")[0] in ("click", "typer")
    }
    if isinstance(error, _Exit) or "Exit" in names:
        return _Exited(getattr(error, "exit_code", 0) or 0)
    if isinstance(error, _Abort) or "Abort" in names:
        return _Aborted("Aborted!")
    if isinstance(error, _ClickUsage) or "UsageError" in names:
        return UsageError(error.format_message())  # type: ignore[attr-defined]
    if isinstance(error, _ClickError) or "ClickException" in names:
        failed = _Failed(error.format_message())  # type: ignore[attr-defined]
        failed.exit_code = getattr(error, "exit_code", 1)
        return failed
    return None


def _framework_call(
    context: Context, handler: Callable[..., Any], args: list[Any], given: dict[str, Any]
) -> object:
    """Run a command's handler as Click would: its context is what `get_current_context()`
    finds (the real package's own too, when it is imported), its exceptions the envelope's
    kinds; an `async def` one's too, while it is awaited."""
    result = _in_context(context, given, lambda: handler(*args, **given))
    if type(result).__name__ == "coroutine":
        return _framework_await(context, given, result)
    return result


async def _framework_await(context: Context, given: dict[str, Any], coroutine: Any) -> object:
    """An async handler's coroutine, awaited as `_framework_call` runs a sync one."""
    import _thread

    thread = _thread.get_ident()
    _CLICK_CONTEXTS[thread] = context
    real = sys.modules.get("click")
    try:
        if real is None:
            return await coroutine
        with _real_context(real, context, given):
            return await coroutine
    except BaseException as error:
        mapped = _mapped(error)
        if mapped is None:
            raise
        raise mapped from None
    finally:
        _CLICK_CONTEXTS.pop(thread, None)


def _in_context(context: Context, given: dict[str, Any], step: Callable[[], Any]) -> object:
    import _thread

    thread = _thread.get_ident()
    _CLICK_CONTEXTS[thread] = context
    real = sys.modules.get("click")
    try:
        if real is None:
            return step()
        with _real_context(real, context, given):
            return step()
    except BaseException as error:
        mapped = _mapped(error)
        if mapped is None:
            raise
        raise mapped from None
    finally:
        _CLICK_CONTEXTS.pop(thread, None)


def _real_context(real: Any, context: Context, given: dict[str, Any]) -> Any:
    """The real package's context, for a body that uses it (`.scope()`, with the values)."""
    name = context.command.split()[-1] if context.command else context.program
    ctx = real.Context(real.Command(name), info_name=name, obj=context.obj)
    ctx.params = given
    return ctx.scope(False)


def _mapped(error: BaseException) -> BaseException | None:
    """The envelope's error for what a Click or Typer body raised; None: as it is."""
    if isinstance(error, SystemExit):
        # NOTE: `sys.exit(code)` in a Click or Typer body ends the command at that code, as
        # it does the original; `sys.exit("message")`: the message, at exit 1
        if isinstance(error.code, str):
            return _Failed(error.code)
        return _Exited(error.code or 0)
    return _framework_error(error) if isinstance(error, Exception) else None


def _current(silent: bool = False) -> Any:
    """`click.get_current_context()`."""
    import _thread

    found = _CLICK_CONTEXTS.get(_thread.get_ident())
    if found is None and not silent:
        raise RuntimeError("There is no active click context.")
    return found


def _style(
    text: Any,
    fg: Any = None,
    bg: Any = None,
    bold: bool | None = None,
    dim: bool | None = None,
    underline: bool | None = None,
    overline: bool | None = None,
    italic: bool | None = None,
    blink: bool | None = None,
    reverse: bool | None = None,
    strikethrough: bool | None = None,
    reset: bool = True,
) -> str:
    """`click.style`: `text` in ANSI styling."""
    codes = [_colour(fg, 30), _colour(bg, 40)]
    for on, code in (
        (bold, 1),
        (dim, 2),
        (underline, 4),
        (overline, 53),
        (italic, 3),
        (blink, 5),
        (reverse, 7),
        (strikethrough, 9),
    ):
        if on is not None:
            off = 22 if code in (1, 2) else 55 if code == 53 else 20 + code
            codes.append(str(code if on else off))
    styled = "".join(f"\033[{code}m" for code in codes if code) + str(text)
    return styled + "\033[0m" if reset else styled


def _colour(colour: Any, base: int) -> str:
    """The ANSI code of a colour by name, 256-colour number or RGB tuple ("" for none)."""
    if colour is None:
        return ""
    if isinstance(colour, int):
        return f"{base + 8};5;{colour}"
    if isinstance(colour, tuple):
        return f"{base + 8};2;" + ";".join(str(c) for c in colour)
    name = str(colour).lower()
    if name == "reset":
        return str(base + 9)
    bright = name.startswith("bright_")
    return str(_COLOURS.index(name[7:] if bright else name) + base + (60 if bright else 0))


def _unstyled(text: str) -> str:
    """`text` without its ANSI styling (`click.unstyle`; without `re`, which costs a start)."""
    if "\033[" not in text:
        return text
    kept = []
    at = 0
    while True:
        start = text.find("\033[", at)
        if start < 0:
            kept.append(text[at:])
            return "".join(kept)
        kept.append(text[at:start])
        at = start + 2
        while at < len(text) and not text[at].isalpha():
            at += 1
        at += 1


def _echo(
    message: Any = None, file: Any = None, nl: bool = True, err: bool = False, color: Any = None
) -> None:
    """`click.echo`: `message` and a newline, styling taken out where no terminal shows it."""
    stream = file if file is not None else (sys.stderr if err else sys.stdout)
    if isinstance(message, (bytes, bytearray)):
        message = bytes(message).decode("utf-8", "replace")
    text = "" if message is None else str(message)
    if nl:
        text += "\n"
    if not color and not (getattr(stream, "isatty", lambda: False)() and color is None):
        text = _unstyled(text)
    stream.write(text)
    stream.flush()


def _secho(
    message: Any = None,
    file: Any = None,
    nl: bool = True,
    err: bool = False,
    color: Any = None,
    **styles: Any,
) -> None:
    """`click.secho`: `echo` of `style`."""
    _echo(_style(message, **styles) if message is not None else None, file, nl, err, color)


def _asker() -> Context:
    """The running command's context, which asks `confirm`'s and `prompt`'s questions."""
    current: Context = _current()
    return current


def _confirm(text: str, default: bool | None = False, abort: bool = False, **_: Any) -> bool:
    """`click.confirm`: a yes/no question, asked as every question of the tool is
    (`Context.confirm`); a no with `abort` ends the command with `_Abort`."""
    answer: bool = _asker().confirm(text, default=bool(default))
    if abort and not answer:
        raise _Abort()
    return answer


def _prompt(
    text: str, default: Any = None, hide_input: bool = False, type: Any = None, **_: Any
) -> Any:
    """`click.prompt`: a value, asked as every question of the tool is (`Context.ask`), made
    the type given (or the default's) where that is a number."""
    shown = None if default is None else str(default)
    answer = _asker().ask(text, default=shown, secret=hide_input)
    kind = type if type is not None else (default.__class__ if default is not None else str)
    if kind in (int, float):
        try:
            return kind(answer)
        except ValueError:
            raise _BadParameter(f"{answer!r} is not a valid {kind.__name__}") from None
    return answer


def _get_app_dir(app_name: str, roaming: bool = True, force_posix: bool = False) -> str:
    """`click.get_app_dir`: where an application keeps its configuration."""
    home = os.path.expanduser("~")
    if force_posix:
        return os.path.join(home, "." + app_name.lower().replace(" ", "-"))
    if sys.platform == "win32":
        base = os.environ.get("APPDATA" if roaming else "LOCALAPPDATA") or home
        return os.path.join(base, app_name)
    if sys.platform == "darwin":
        return os.path.join(home, "Library", "Application Support", app_name)
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    return os.path.join(base, app_name.lower().replace(" ", "-"))


class _Asking:
    """The real `click` or `typer` (a body uses more of it than the stand-in has), but for its
    questions, which the tool asks as it asks every one (`confirm`, `prompt`)."""

    def __init__(self, module: Any) -> None:
        self.module = module

    def __getattr__(self, name: str) -> Any:
        if name == "confirm":
            return _confirm
        if name == "prompt":
            return _prompt
        return getattr(self.module, name)


class _ClickExceptions:
    """The stand-in's `click.exceptions`."""

    ClickException = _ClickError
    UsageError = _ClickUsage
    BadParameter = _BadParameter
    Abort = _Abort
    Exit = _Exit


class _Click:
    """The stand-in for `click` in a tool whose handlers' bodies use only this of it."""

    echo = staticmethod(_echo)
    secho = staticmethod(_secho)
    style = staticmethod(_style)
    unstyle = staticmethod(_unstyled)
    confirm = staticmethod(_confirm)
    prompt = staticmethod(_prompt)
    get_current_context = staticmethod(_current)
    get_app_dir = staticmethod(_get_app_dir)
    ClickException = _ClickError
    UsageError = _ClickUsage
    BadParameter = _BadParameter
    Abort = _Abort
    exceptions = _ClickExceptions


class _TyperColours:
    """The stand-in's `typer.colors`: click's colour names."""

    BLACK, RED, GREEN, YELLOW, BLUE, MAGENTA, CYAN, WHITE = _COLOURS
    RESET = "reset"
    BRIGHT_BLACK, BRIGHT_RED, BRIGHT_GREEN, BRIGHT_YELLOW = (
        "bright_black",
        "bright_red",
        "bright_green",
        "bright_yellow",
    )
    BRIGHT_BLUE, BRIGHT_MAGENTA, BRIGHT_CYAN, BRIGHT_WHITE = (
        "bright_blue",
        "bright_magenta",
        "bright_cyan",
        "bright_white",
    )


class _Typer:
    """The stand-in for `typer` in a tool whose handlers' bodies use only this of it."""

    echo = staticmethod(_echo)
    secho = staticmethod(_secho)
    style = staticmethod(_style)
    confirm = staticmethod(_confirm)
    prompt = staticmethod(_prompt)
    get_app_dir = staticmethod(_get_app_dir)
    BadParameter = _BadParameter
    Abort = _Abort
    Exit = _Exit
    colors = _TyperColours


#: Each package the stand-in stands in for -> its stand-in (`read/frameworks.py` reads what
#: each offers from here).
STAND_INS: dict[str, type] = {"click": _Click, "typer": _Typer}
