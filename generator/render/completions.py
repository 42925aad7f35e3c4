"""Shell completion: the completion table (bash, zsh, fish, pwsh scripts are rendered from it)
and the `__complete` slot tables.

The table says, per group and per visible command, what can follow it on the command line;
the tool stores it once in `_DATA`, and `completion SHELL` renders the script from it at run
time (`runtime/commandline/shells._completion_script`), as `gen --completions` does here in-process.
A script walks the words before the cursor to find the command and what is being completed;
it runs the tool (`PROG __complete WORD...`) only for a value whose parameter declares
`complete=fn`.

The completion table (`table()`: per group its children, per visible command its aliases,
options, positionals and whether it asks first; per group whose `options=` shares some, those
options (`_shared`); stored once in `_DATA`), `prompt` and `resource` with the prompts' names
and the resources' URIs, the scripts for `gen --completions` (rendered by the runtime's
`_completion_script`, in-process) and the `__complete` slot tables (a bool's off forms a slot of
their own, mode `off`); `surface_slots()`: the `_MCP_COMPLETIONS` table of `completion/complete`
(per prompt or template that completes, each argument's converter, `complete=` function, its
arity and choices).
"""

from __future__ import annotations

import ast
import json
from typing import Any

from burgee.describe import skill
from burgee.describe.mcp import PROMPT_COMMAND, RESOURCE_COMMAND, completing
from burgee.model.ir import Command, Param, Program, Prompt, TypeRef
from burgee.model.kinds import FILES
from burgee.model.literals import py
from burgee.render.converters import converter
from burgee.runtime.catalog import code_tree
from burgee.runtime.commandline.shells import _SHELLS, _completion_script, _help_line
from burgee.runtime.core.wording import _choice_text
from burgee.runtime.rows import (
    _CompletionOption,
    _CompletionPositional,
    _CompletionRow,
    _McpSlotRow,
    _row_of,
    _SharedRow,
    _SlotRow,
)

SHELLS: tuple[str, ...] = _SHELLS


def _choices(ref: TypeRef) -> list[str]:
    return [_choice_text(c) for c in ref.choices]


def _values(param: Param) -> str | list[str]:
    """How a value completes: "dynamic" (the author's function), its choices, "file", "none"."""
    assert param.type is not None
    if param.complete:
        return "dynamic"
    ref = param.type.item if param.type.kind == "list" and param.type.item else param.type
    if ref.kind in ("choice", "enum"):
        return _choices(ref)
    return "file" if ref.kind in ("path", *FILES) else "none"


def _option_row(param: Param) -> list[Any]:
    """An option's row (`runtime/rows._CompletionOption`): how many words it takes only when
    not one (`nargs=N` or a tuple: N; `nargs="+"`/`"*"`: "+", every word up to the next flag),
    which the scripts complete one after another."""
    assert param.type is not None
    text = _help_line(param.help)
    if param.type.kind == "bool":
        return _json_row(_CompletionOption, spellings=list(param.spellings), values=None, help=text)
    if param.type.kind == "count":
        return _json_row(_CompletionOption, spellings=list(param.flags), values=None, help=text)
    ref = param.type.item if param.type.kind == "list" and param.type.item else param.type
    takes = len(ref.items) if ref.kind == "tuple" else param.nargs or 1
    more = {"takes": takes if isinstance(takes, int) else "+"} if takes != 1 else {}
    return _json_row(
        _CompletionOption,
        spellings=list(param.flags),
        values=_values(param),
        help=text,
        **more,
    )


def _json_row(row: type[tuple[Any, ...]], **fields: Any) -> list[Any]:
    """A row of the completion table, as the JSON list it is there."""
    return list(_row_of(row, **fields))


def _command_row(command: Command) -> list[Any]:
    """One command's row (`runtime/rows._CompletionRow`)."""
    options: list[Any] = []
    positionals: list[Any] = []
    for param in command.inputs:
        assert param.type is not None
        if param.role == "argument":
            variadic = param.type.kind == "list"
            positionals.append(
                _json_row(_CompletionPositional, values=_values(param), variadic=variadic)
            )
        elif not param.hidden:
            options.append(_option_row(param))
    aliases = [" ".join((*command.path[:-1], alias)) for alias in command.aliases]
    return _completion_row(command.name, aliases, int(command.yes), options, positionals)


def _completion_row(
    path: str, aliases: list[str], confirm: int, options: list[Any], positionals: list[Any]
) -> list[Any]:
    """A row of the completion table's commands, in the order `_CompletionRow` declares."""
    return _json_row(
        _CompletionRow,
        path=path,
        aliases=aliases,
        confirm=confirm,
        options=options,
        positionals=positionals,
    )


def table(program: Program) -> dict[str, Any]:
    """The completion table (`runtime/commandline/shells._completion_nodes` reads it): each group's
    children in source order, aliases beside their command, and each visible command."""
    members = sorted(
        [(g.span.line, g.path, g.help) for g in program.groups]
        + [(c.span.line, c.path, c.listed) for c in program.commands if not c.hidden]
        + [
            (c.span.line, (*c.path[:-1], alias), c.listed)
            for c in program.commands
            if not c.hidden
            for alias in c.aliases
        ]
    )
    groups: list[list[Any]] = [
        [" ".join(path), [[p[-1], _help_line(text)] for _, p, text in members if p[:-1] == path]]
        for path in [(), *(g.path for g in program.groups)]
    ]
    commands = [_command_row(c) for c in program.commands if not c.hidden]
    # NOTE: `prompt NAME --ARG VALUE` completes as a group of commands, one a prompt; `resource
    # URI` as a command whose one positional is a resource's URI (a template's URI has no fixed
    # words to offer).
    if program.prompts:
        groups[0][1].append([PROMPT_COMMAND[0], _help_line(PROMPT_COMMAND[1])])
        groups.append(["prompt", [[p.name, _help_line(p.summary)] for p in program.prompts]])
        for prompt in program.prompts:
            # NOTE: a prompt's `complete=` values are offered over MCP only (`completion/complete`).
            options = [
                _json_row(
                    _CompletionOption,
                    spellings=[a.flag],
                    values="none" if a.complete else _values(a),
                    help=_help_line(a.help),
                )
                for a in prompt.params
                if a.role != "context"
            ]
            commands.append(_completion_row(f"prompt {prompt.name}", [], 0, options, []))
    if program.resources:
        uris = [r.uri for r in program.resources if "{" not in r.uri]
        groups[0][1].append([RESOURCE_COMMAND[0], _help_line(RESOURCE_COMMAND[1])])
        positional = _json_row(_CompletionPositional, values=uris or "none", variadic=False)
        commands.append(_completion_row(RESOURCE_COMMAND[0], [], 0, [], [positional]))
    found: dict[str, Any] = {"groups": groups, "commands": commands, "root": list(program.root())}
    if program.version_short:
        found["version_short"] = program.version_short
    shared = _shared(program)
    if shared:
        found["shared"] = shared
    return found


def _shared(program: Program) -> list[list[Any]]:
    """A row (`runtime/rows._SharedRow`) for each group (the program: "") whose `options=`
    shares options: they complete before the command too, as its first command's."""
    found: dict[str, tuple[str, list[Any]]] = {}
    for command in program.commands:
        for param in command.inputs:
            if param.shared is None or param.hidden:
                continue
            first, options = found.setdefault(" ".join(param.shared), (command.name, []))
            if first == command.name:
                options.append(_option_row(param))
    return [
        _json_row(_SharedRow, scope=scope, command=first, options=options)
        for scope, (first, options) in found.items()
    ]


def table_json(program: Program) -> str:
    """The completion table as the JSON text `_DATA` stores."""
    return json.dumps(table(program), ensure_ascii=False, separators=(",", ":"))


def scripts(program: Program) -> dict[str, str]:
    """Every shell's script, by shell name."""
    found = table(program)
    return {s: _completion_script(s, program.name, found, program.config) for s in SHELLS}


def file_names(name: str) -> dict[str, str]:
    """The file each shell's script is installed as, by shell name."""
    return {"bash": name, "zsh": f"_{name}", "fish": f"{name}.fish", "pwsh": f"{name}.ps1"}


def template_values(program: Program) -> dict[str, object]:
    """The completion table and the skill (embedded in `_DATA`), and the slot tables of
    `complete=` options."""
    return {
        "documents": {
            "completion": table_json(program),
            "skill": skill.skill(program, program.source_name),
        },
        "slot_tables": slot_tables(program),
        "py": py,
    }


# ---- The __complete side: which function completes which value, and how to read the line ----


def arities(user_code: str) -> dict[str, int]:
    """How many positional parameters each top-level function of the user code takes (≤ 2)."""
    try:
        tree = code_tree(user_code)
    except SyntaxError:
        return {}
    found = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            args = node.args
            count = len(args.posonlyargs) + len(args.args)
            found[node.name] = 2 if args.vararg is not None else min(count, 2)
    return found


def slot_tables(program: Program) -> list[tuple[str, list[str]]]:
    """Per command with a `complete=` parameter: its path and the Python source of its slots
    (`runtime/rows._SlotRow`, whose fields order them; an option of several words has their
    number last: N, or -1 for every word up to the next flag)."""
    tables = []
    counts: dict[str, int] | None = None
    for command in program.commands:
        inputs = command.inputs
        if not any(p.complete for p in inputs):
            continue
        if counts is None:
            counts = arities(program.user_code)
        rows = []
        for param in inputs:
            assert param.type is not None
            ref = param.type
            off: list[str] = []
            item = ref.item if ref.kind == "list" and ref.item else ref
            if param.role == "argument":
                flags: tuple[str, ...] = ()
                mode = "args" if ref.kind == "list" else "arg"
            elif ref.kind == "bool":
                # NOTE: its off form is a slot of its own, the only one of a `--no-input`.
                flags = tuple(name for name in param.spellings if name not in param.negatives)
                mode = "flag"
                off.append(
                    _slot(
                        name=py(param.name),
                        flags=py(param.negatives),
                        mode="'off'",
                        convert="None",
                        complete="None",
                        arity="0",
                    )
                )
            else:
                flags = param.flags
                mode = "append" if ref.kind == "list" else "value"
            fn = param.complete or "None"
            arity = counts.get(param.complete, 2) if param.complete else 0
            code = converter(item)
            # NOTE: how many words an option of several takes (-1: up to the next flag).
            takes = len(item.items) if item.kind == "tuple" else param.nargs
            count = {"words": str(takes if isinstance(takes, int) else -1)} if takes else {}
            rows.append(
                _slot(
                    name=py(param.name),
                    flags=py(flags),
                    mode=py(mode),
                    convert=code,
                    complete=fn,
                    arity=str(arity),
                    **count,
                )
            )
            rows.extend(off)
        tables.append((command.name, rows))
    return tables


def _slot(**fields: str) -> str:
    """A completion slot's row, as code."""
    return f"({', '.join(_row_of(_SlotRow, **fields))})"


def surface_slots(program: Program) -> list[str]:
    """The entries of `_MCP_COMPLETIONS` (`completion/complete`): per prompt or resource
    template with an argument that completes, each argument's row (`runtime/rows._McpSlotRow`,
    whose fields order it)."""
    entries = []
    counts: dict[str, int] | None = None
    for surface in completing(program):
        if counts is None:
            counts = arities(program.user_code)
        word = "prompt" if isinstance(surface, Prompt) else "resource"
        key = f"{word} {surface.name if isinstance(surface, Prompt) else surface.uri}"
        rows = []
        for param in surface.params:
            if param.role == "context":
                continue
            assert param.type is not None
            fn = param.complete or "None"
            arity = counts.get(param.complete, 2) if param.complete else 0
            choices = py(tuple(_choices(param.type)))
            row = _row_of(
                _McpSlotRow,
                name=py(param.name),
                convert=converter(param.type),
                complete=fn,
                arity=str(arity),
                choices=choices,
            )
            rows.append(f"        ({', '.join(row)}),\n")
        entries.append(f"    {py(key)}: (\n{''.join(rows)}    ),")
    return entries
