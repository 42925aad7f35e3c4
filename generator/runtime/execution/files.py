# burgee: joins tail 158
"""Files a handler takes open: a parameter typed `TextIO` or `BinaryIO` (Click's `click.File`,
Typer's `typer.FileText`, `FileTextWrite`, `FileBinaryRead`, `FileBinaryWrite`).

Joined only into a tool that has one: a command's row names `_opening` among its details. The
value is read, checked, explained and recorded as the path it is (text on the command line, a
string in JSON input and over MCP); `_opening` opens it in the parameter's mode just before the
handler runs, after every other check passed (a command that fails its input, or asks first and
is refused, never truncates a file it would have written), and closes it when the handler is
done, an `async def` handler's coroutine included. `-` is standard input (read) or output
(write), never closed: under `--json`, a batch and MCP those are the call's own (stdin empty,
stdout captured), never the caller's stream. A file that cannot be opened is a usage error
naming the parameter, as Click's `File` reports it while parsing (exit 2).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from burgee.runtime.core.errors import UsageError

if TYPE_CHECKING:
    from collections.abc import Callable, Coroutine


def _opening(
    handler: Callable[..., Any], files: tuple[tuple[str, str, str, str | None], ...], awaited: bool
) -> Callable[..., Any]:
    """`handler`, given its file parameters open, closed after it returns (after its coroutine
    ends: `awaited`). `files`, from its command's row: each one's name, the word that names it
    in messages (its long flag, or its name), its mode (`open()`'s) and its encoding (None:
    Python's)."""

    def call(*args: Any, **given: Any) -> Any:
        opened: list[Any] = []
        try:
            for name, label, mode, encoding in files:
                value = given.get(name)
                if isinstance(value, list):
                    given[name] = [_open(each, label, mode, encoding, opened) for each in value]
                elif value is not None:
                    given[name] = _open(value, label, mode, encoding, opened)
            result = handler(*args, **given)
        except BaseException:
            _close(opened)
            raise
        if awaited:
            return _closing(result, opened)
        _close(opened)
        return result

    return call


def _open(path: str, label: str, mode: str, encoding: str | None, opened: list[Any]) -> Any:
    """`path` opened in `mode` (`-`: the standard stream, left open)."""
    if path == "-":
        stream: Any = sys.stdin if "r" in mode else sys.stdout
        if "b" not in mode:
            return stream
        binary = getattr(stream, "buffer", None)
        if binary is None:
            raise UsageError(f"{label}: '-' takes text here, not bytes: give a file's path")
        return binary
    try:
        handle = open(path, mode, encoding=None if "b" in mode else encoding)  # noqa: SIM115
    except OSError as error:
        raise UsageError(f"{label}: {path!r}: {error.strerror or error}") from None
    opened.append(handle)
    return handle


def _close(opened: list[Any]) -> None:
    for handle in opened:
        try:
            handle.close()
        except OSError:
            pass  # NOTE: a write the disk refused at close is the handler's to have flushed


async def _closing(work: Coroutine[Any, Any, Any], opened: list[Any]) -> Any:
    try:
        return await work
    finally:
        _close(opened)
