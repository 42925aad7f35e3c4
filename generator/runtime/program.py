"""Stand-ins for the names every generated module defines for its own program.

In a generated file these are the constants and tables `burgee gen` writes from the handlers
file; here they are placeholders, so the runtime modules import, type-check and run in tests
(`tests/runtime_program.py` fills them in). The joiner never copies this module.
"""

from __future__ import annotations

import base64
import json
import zlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

    from burgee.runtime.context import _Command

PROGRAM = "tool"
VERSION = "0.0.0"
#: The distribution whose installed version `--version` prefers ("": VERSION is the version).
DISTRIBUTION = ""
DESCRIPTION = ""
#: The oldest Python the tool runs on (newer than 3.9 only when its handlers' syntax needs it).
REQUIRES_PYTHON = ">=3.9"
#: The environment variable that turns on tracebacks (`TOOL_DEBUG=1`).
DEBUG_ENV = "TOOL_DEBUG"
#: Each group's help text, by group path ("" is the program).
GROUP_HELP: dict[str, str] = {}
#: Every command: path -> its row, made into a `_Command` on first use (`table._command`).
COMMANDS: dict[str, tuple[Any, ...]] = {}
#: Each group's visible children (name, summary), for help and for finding commands in argv.
GROUPS: dict[str, tuple[tuple[str, str], ...]] = {"": ()}
#: `@command(aliases=[...])`: alias path -> the command's path.
ALIASES: dict[str, str] = {}
#: `@command(root=True)`: the command that runs when argv names none ("": there is none).
ROOT = ""
#: How argv finds the root command: "alone" (it is the only command: no subcommand level),
#: "words" (a first word that names no command is its argument), "flags" (argv starts with
#: an option, or is empty).
ROOT_MODE = ""
#: The error kinds the handlers declare: kind -> (exit code, description).
ERRORS: dict[str, tuple[int, str]] = {}
#: `program(exit_codes={...})`: the built-in kinds the program moved, kind -> exit code.
EXIT_CODES: dict[str, int] = {}
#: The outcomes the handlers declare (a data state, not a failure): name -> (exit code,
#: description).
OUTCOMES: dict[str, tuple[int, str]] = {}
#: `Option(..., shadows=True)`: command path (or alias path) -> the tool-wide flag spellings
#: its own options take over on that command.
SHADOWS: dict[str, tuple[str, ...]] = {}
#: `options=` of the program ("") and its groups: group path -> the spellings of the options
#: its commands share, which may come before the command too -> how many words each takes.
SHARED: dict[str, dict[str, int]] = {}
#: Each record's result shape: name -> (field shapes, required field names).
RECORDS: dict[str, tuple[dict[str, Any], tuple[str, ...]]] = {}
#: `program(max_output=N)`: the limit of what an agent gets, in characters (None: the default).
_MAX_OUTPUT: int | None = None
#: Whether the tool reads a config file (`program(config=True)`).
_CONFIG = False
#: The embedded documents (`embedded._document`): base64 of zlib of a JSON object; here, an
#: empty schema, tool, prompt and resource lists, skill and completion table.
_DATA = base64.b64encode(
    zlib.compress(
        json.dumps(
            {
                "schema": '{"commands": []}',
                "llms": '{"tools": []}',
                "mcp_tools": '{"tools":[]}',
                "mcp_prompts": '{"prompts":[]}',
                "mcp_resources": '{"resources":[]}',
                "mcp_templates": '{"resourceTemplates":[]}',
                "skill": "",
                "completion": '{"groups": [["", []]], "commands": []}',
            }
        ).encode()
    )
).decode()
#: Tool name -> (command path, whether structuredContent wraps the data as {"result": ...}).
_MCP_NAMES: dict[str, tuple[str, bool]] = {}
#: Each `@prompt`: name -> its entry, run by `_execute` like a command.
PROMPTS: dict[str, _Command] = {}
#: Each `@resource`: URI or URI template -> (MIME type, its entry).
RESOURCES: dict[str, tuple[str | None, _Command]] = {}
#: The MCP methods this program adds to `_MCP_METHODS` (prompts, resources, logging).
_MCP_EXTRA: dict[str, Any] = {}
#: `completion/complete`: "prompt NAME" or "resource TEMPLATE" -> each of its arguments, as
#: (name, convert, `complete=` function or None, its arity, choices), for a prompt or a
#: template one of whose arguments completes.
_MCP_COMPLETIONS: dict[str, tuple[tuple[Any, ...], ...]] = {}
#: A program whose commands return images or audio: `(media._write_media, media._media_text)`,
#: how text mode writes them and how an MCP answer carries them; empty in any other.
_MEDIA: tuple[Any, ...] = ()
#: The built-in commands this program adds (`prompt`, `resource`): word -> (help, function).
_EXTRA_COMMANDS: dict[str, tuple[str, Any]] = {}


#: The handlers' imports that only their functions use, run once before the first command
#: or `complete=` function (`table._import_once`); None in a program that has none.
_import_handlers: Callable[[], None] | None = None
#: The `complete=` functions that need none of `_import_handlers`' imports (by name).
_FREE_COMPLETERS: frozenset[str] = frozenset()


def _completion_slots(path: str) -> tuple[tuple[Any, ...], ...]:
    """Each input of a command with `complete=`: (name, flags, mode, convert, fn, arity)."""
    return ()


def _complete_values(words: list[str]) -> list[str]:
    """The values `complete=` functions offer for the last of `words` (`complete._candidates`
    in a tool that has such options; none in one that has not)."""
    return []
