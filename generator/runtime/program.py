# burgee: joins tail 10
"""The program: every fact about it the runtime reads, in one frozen object.

A generated file writes its tables as plain code and then builds the one value the runtime
reads, `PROGRAM = Program(name=..., commands=COMMANDS, ...)`, after its handlers' code and
tables (nothing the runtime runs while it is defined reads it). Only where a run starts is it
read from the module (`cli.main`, and `invoke` through it; `mcp_asgi.asgi`): from there it is
a parameter, carried by what a run makes (`_Invocation.program`, `Context._program`, an MCP
server's `program`), as Click passes its `Context` (tests/test_runtime_shape.py checks it).
`PROGRAM` below is a stand-in, the program of no commands, which tests start from
(`tests/runtime_program.py` builds others and passes them); the joiner keeps only the class.

It imports no other runtime module: the values it holds are typed `Any` or as callables.

`Program`, every per-program fact the runtime reads (name, version, commands, groups, aliases,
root, errors, moved exit codes, outcomes, shadows, shared options, records, documents, MCP
tables, prompts, resources, `import_handlers`, the completion functions, …) in one frozen
object: a slotted class written out (a dataclass would run `exec` at start-up), made by keyword,
read only; the only piece joined (the first of `TAIL`); it imports no other runtime module.
Never joined (`catalog.stand_ins()`): `PROGRAM`, the stand-in the runtime modules import (a
program of no commands, empty documents), `replaced()` (a program with some facts changed:
tests, `render/tables.lookup`), and `TABLES`, each fact's table in the generated file (the
keywords of its `PROGRAM = Program(...)`; `model/reserved.py` reserves the names).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable


class Program:
    """Every per-program fact: made once, by keyword, then read only (setting one raises).

    A slotted class written out, not a dataclass: making the class costs next to nothing at
    start-up (a dataclass runs `exec` for its `__init__`)."""

    __slots__ = (
        "aliases",
        "commands",
        "complete_values",
        "completion_slots",
        "config",
        "data",
        "debug_env",
        "description",
        "distribution",
        "errors",
        "exit_codes",
        "extra_commands",
        "frameworks",
        "free_completers",
        "group_help",
        "groups",
        "import_handlers",
        "max_output",
        "mcp_completions",
        "mcp_extra",
        "mcp_lists",
        "mcp_names",
        "media",
        "name",
        "outcomes",
        "prompts",
        "records",
        "requires_python",
        "resources",
        "root",
        "root_mode",
        "shadows",
        "shared",
        "version",
        "version_short",
    )

    #: The program's name, as its command line and messages spell it.
    name: str
    version: str
    #: The distribution whose installed version `--version` prefers ("": `version` is it).
    distribution: str
    #: `program(version_short="-V")`: the short spelling of `--version` ("" for none).
    version_short: str
    description: str
    #: The oldest Python the tool runs on (newer than 3.9 only when its handlers' syntax needs it).
    requires_python: str
    #: The environment variable that turns on tracebacks (`TOOL_DEBUG=1`).
    debug_env: str
    #: Each group's help text, by group path ("" is the program).
    group_help: dict[str, str]
    #: Every command: path -> its row, made into a `_Command` on first use (`table._command`).
    commands: dict[str, tuple[Any, ...]]
    #: Each group's visible children (name, summary), for help and for finding commands in argv.
    groups: dict[str, tuple[tuple[str, str], ...]]
    #: `@command(aliases=[...])`: alias path -> the command's path.
    aliases: dict[str, str]
    #: `@command(root=True)`: the command that runs when argv names none ("": there is none), or
    #: `program(default=...)`'s.
    root: str
    #: How argv finds the root command: "alone" (it is the only command: no subcommand level),
    #: "words" (a first word that names no command is its argument), "flags" (argv starts with
    #: an option, or is empty), "empty" (only an empty argv: `program(default=...)`).
    root_mode: str
    #: The error kinds the handlers declare: kind -> (exit code, description).
    errors: dict[str, tuple[int, str]]
    #: `program(exit_codes={...})`: the built-in kinds the program moved, kind -> exit code.
    exit_codes: dict[str, int]
    #: The outcomes the handlers declare (a data state, not a failure): name -> (exit code,
    #: description).
    outcomes: dict[str, tuple[int, str]]
    #: `Option(..., shadows=True)`: command path (or alias path) -> the tool-wide flag spellings
    #: its own options take over on that command.
    shadows: dict[str, tuple[str, ...]]
    #: `options=` of the program ("") and its groups: group path -> the spellings of the options
    #: its commands share, which may come before the command too -> how many words each takes.
    shared: dict[str, dict[str, int]]
    #: Each record's result shape: name -> (field shapes, required field names).
    records: dict[str, tuple[dict[str, Any], tuple[str, ...]]]
    #: `program(max_output=N)`: the limit of what an agent gets, in characters (None: the default).
    max_output: int | None
    #: Whether the tool reads a config file (`program(config=True)`).
    config: bool
    #: The embedded documents (`embedded._document`): base64 of zlib of a JSON object.
    data: str
    #: The MCP lists (`tools/list`, prompts, resources, templates) of a program whose lists are
    #: short, as plain JSON text, by document name (`mcp_tools`, ...); empty when they are in
    #: `data`. A session lists its tools without decompressing `data` (`render/embedded.py`).
    mcp_lists: dict[str, str]
    #: Tool name -> (command path, whether structuredContent wraps the data as {"result": ...}).
    mcp_names: dict[str, tuple[str, bool]]
    #: Each `@prompt`: name -> its entry (a `_Command`), run by `_execute` like a command.
    prompts: dict[str, Any]
    #: Each `@resource`: URI or URI template -> (MIME type, its entry).
    resources: dict[str, tuple[str | None, Any]]
    #: The MCP methods this program adds to `_MCP_METHODS` (prompts, resources, logging).
    mcp_extra: dict[str, Any]
    #: `completion/complete`: "prompt NAME" or "resource TEMPLATE" -> each of its arguments, as
    #: (name, convert, `complete=` function or None, its arity, choices), for a prompt or a
    #: template one of whose arguments completes.
    mcp_completions: dict[str, tuple[tuple[Any, ...], ...]]
    #: A program whose commands return images or audio: `(media._write_media, media._media_text,
    #: media._bytes_for_terminal, media._media_total)`, how text mode writes them, how an MCP
    #: answer carries them, text mode's refusal before a call whose bytes could go nowhere, and
    #: the check of one answer's total; empty in any other.
    media: tuple[Any, ...]
    #: The built-in commands this program adds (`prompt`, `resource`): word -> (help, function).
    extra_commands: dict[str, tuple[str, Any]]
    #: A program whose handlers use click or typer: how each command's handler is called
    #: (`frameworks._framework_call`: their context, their exceptions as kinds); else None.
    frameworks: Callable[..., object] | None
    #: The handlers' imports that only their functions use, run once before the first command
    #: or `complete=` function (`table._import_once`); None in a program that has none.
    import_handlers: Callable[[], None] | None
    #: The `complete=` functions that need none of `import_handlers`' imports (by name).
    free_completers: frozenset[str]
    #: Each input of a command with `complete=`: path -> (name, flags, mode, convert, fn, arity);
    #: None in a tool that has no such input.
    completion_slots: Callable[[str], tuple[tuple[Any, ...], ...]] | None
    #: The values `complete=` functions offer for the last of the words, in this program
    #: (`complete._candidates` in a tool that has such options; none in one that has not).
    complete_values: Callable[[list[str], Program], list[str]]

    def __init__(
        self,
        *,
        name: str,
        version: str,
        version_short: str,
        distribution: str,
        description: str,
        requires_python: str,
        debug_env: str,
        group_help: dict[str, str],
        commands: dict[str, tuple[Any, ...]],
        groups: dict[str, tuple[tuple[str, str], ...]],
        aliases: dict[str, str],
        root: str,
        root_mode: str,
        errors: dict[str, tuple[int, str]],
        exit_codes: dict[str, int],
        outcomes: dict[str, tuple[int, str]],
        shadows: dict[str, tuple[str, ...]],
        shared: dict[str, dict[str, int]],
        records: dict[str, tuple[dict[str, Any], tuple[str, ...]]],
        max_output: int | None,
        config: bool,
        data: str,
        mcp_lists: dict[str, str],
        mcp_names: dict[str, tuple[str, bool]],
        prompts: dict[str, Any],
        resources: dict[str, tuple[str | None, Any]],
        mcp_extra: dict[str, Any],
        mcp_completions: dict[str, tuple[tuple[Any, ...], ...]],
        media: tuple[Any, ...],
        extra_commands: dict[str, tuple[str, Any]],
        frameworks: Callable[..., object] | None,
        import_handlers: Callable[[], None] | None,
        free_completers: frozenset[str],
        completion_slots: Callable[[str], tuple[tuple[Any, ...], ...]] | None,
        complete_values: Callable[[list[str], Program], list[str]],
    ) -> None:
        facts = locals()
        for fact in Program.__slots__:
            object.__setattr__(self, fact, facts[fact])

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"the program is read only: {name} cannot be set")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"the program is read only: {name} cannot be deleted")

    def __repr__(self) -> str:
        return f"Program(name={self.name!r}, commands={list(self.commands)!r})"


#: Each fact -> the name of the table a generated file writes it in, as plain code, then
#: gives `Program` (`PROGRAM = Program(name=PROGRAM_NAME, ...)`); a handlers file may not bind
#: one (`model/reserved.RUNTIME_NAMES`).
TABLES = {
    "name": "PROGRAM_NAME",
    "version": "VERSION",
    "version_short": "VERSION_SHORT",
    "distribution": "DISTRIBUTION",
    "description": "DESCRIPTION",
    "requires_python": "REQUIRES_PYTHON",
    "debug_env": "DEBUG_ENV",
    "group_help": "GROUP_HELP",
    "commands": "COMMANDS",
    "groups": "GROUPS",
    "aliases": "ALIASES",
    "root": "ROOT",
    "root_mode": "ROOT_MODE",
    "errors": "ERRORS",
    "exit_codes": "EXIT_CODES",
    "outcomes": "OUTCOMES",
    "shadows": "SHADOWS",
    "shared": "SHARED",
    "records": "RECORDS",
    "max_output": "_MAX_OUTPUT",
    "config": "_CONFIG",
    "data": "_DATA",
    "mcp_lists": "_MCP_LISTS",
    "mcp_names": "_MCP_NAMES",
    "prompts": "PROMPTS",
    "resources": "RESOURCES",
    "mcp_extra": "_MCP_EXTRA",
    "mcp_completions": "_MCP_COMPLETIONS",
    "media": "_MEDIA",
    "extra_commands": "_EXTRA_COMMANDS",
    "frameworks": "_FRAMEWORKS",
    "import_handlers": "_import_handlers",
    "free_completers": "_FREE_COMPLETERS",
    "completion_slots": "_completion_slots",
    "complete_values": "_complete_values",
}


def replaced(program: Program, **facts: Any) -> Program:
    """`program` with the facts given in place of its own (the generator's examples check and
    tests build programs so; never joined)."""
    return Program(**{**{fact: getattr(program, fact) for fact in Program.__slots__}, **facts})


def _no_values(words: list[str], program: Program) -> list[str]:
    return []


def _packed(documents: dict[str, str | list[str]]) -> str:
    """`_DATA` for `documents` (`burgee gen` writes it; `runtime/core/embedded._document`
    reads it): base64 of an index line (`name:size:length,...`: each stream's size and its
    text's), then each document's zlib stream in that order, so a run decompresses only the
    one it reads; a document given in parts (the `inputs` of a wide tool) has a stream per
    part, its name once for each."""
    # NOTE: imported here: the joiner keeps a module's imports, and only `Program` is joined.
    import base64
    import zlib

    streams = []
    for name, text in sorted(documents.items()):
        for part in [text] if isinstance(text, str) else text:
            data = part.encode("utf-8")
            # NOTE: level 6, not 9: the same size within 1%, a quarter of the time on a large tool.
            streams.append((name, len(data), zlib.compress(data, 6)))
    index = ",".join(f"{name}:{len(data)}:{length}" for name, length, data in streams)
    payload = index.encode("ascii") + b"\n" + b"".join(data for _, _, data in streams)
    return base64.b64encode(payload).decode("ascii")


def _no_documents() -> str:
    """An empty schema, tool, prompt and resource lists, skill, completion table and inputs."""
    return _packed(
        {
            "schema": '{"commands": []}',
            "llms": '{"tools": []}',
            "mcp_tools": '{"tools":[]}',
            "mcp_prompts": '{"prompts":[]}',
            "mcp_resources": '{"resources":[]}',
            "mcp_templates": '{"resourceTemplates":[]}',
            "skill": "",
            "completion": '{"groups": [["", []]], "commands": []}',
            "inputs": "",
        }
    )


#: The stand-in: a program of no commands and empty documents (a generated file builds its own).
PROGRAM = Program(
    name="tool",
    version="0.0.0",
    version_short="",
    distribution="",
    description="",
    requires_python=">=3.9",
    debug_env="TOOL_DEBUG",
    group_help={},
    commands={},
    groups={"": ()},
    aliases={},
    root="",
    root_mode="",
    errors={},
    exit_codes={},
    outcomes={},
    shadows={},
    shared={},
    records={},
    max_output=None,
    config=False,
    data=_no_documents(),
    mcp_lists={},
    mcp_names={},
    prompts={},
    resources={},
    mcp_extra={},
    mcp_completions={},
    media=(),
    extra_commands={},
    frameworks=None,
    import_handlers=None,
    free_completers=frozenset(),
    completion_slots=None,
    complete_values=_no_values,
)
