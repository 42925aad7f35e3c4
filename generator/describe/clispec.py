"""The program as data: a clispec v0.3 document with burgee's own keys beside clispec's.

Everything here is computed at generation time; the generated tool embeds the result as
JSON text and parses it only when asked (`schema`, `--schema`). clispec's keys are the ones
its v0.3 schema defines; burgee's own keys are chosen so none is one edit away from a
clispec key (clispec's `near-miss-key` lint): `input_schema`, `usage_examples`, `env`,
`secret`, `withheld`, `hidden`, `burgee_effects`, `burgee_trust`, `burgee_max_output`,
`burgee_sanitize`, `burgee_guessed` (the keys clispec needs that the author did not declare:
`cardinality` of a list), `explain`, `config`, `burgee_agents`, `burgee_aliases` (a command's
other names, an option's other long flags), `burgee_root`,
`burgee_key` (an option whose flag is not its JSON key; a model's leaf option: its dotted
place in the JSON input), `burgee_off` (a bool option's off
forms, when not the usual `--no-`), `burgee_metavar`, `burgee_nargs` (the words one flag
takes: argparse's `nargs`), `burgee_deprecated` (the reason, or
true; a command is clispec's `stability: deprecated` too), `burgee_default_factory`,
`burgee_prompt`, `burgee_path` (`click.Path`'s checks that are not its defaults, by its
names), `burgee_passthrough` (an argument that takes every word from its first one,
flags included), `burgee_exclusive` (a command's groups of options given apart: each its
`args` flags, and `required` for exactly one),
`burgee_shared` (an option the program's or a group's `options=` shares: the
words after which it may also be given, before the command: `tool remote`).

The program as a clispec v0.3 document (with `outcomes`, top-level and per command, and the
moved exit codes; an example's shared options given before the command put after it,
`argv._hoisted`; `command_words()`: an example's leading `NAME=VALUE` env vars and the words of
the pipeline stage that runs the program, which the examples check and the skill read too), with
burgee's own keys (`burgee_exclusive`, `burgee_questions`, `burgee_aliases`, `burgee_root`,
`burgee_key`, `burgee_off`, `burgee_metavar`, `burgee_deprecated`, `burgee_prompt`,
`burgee_default_factory`, `burgee_passthrough`, `burgee_shared`, …) and clispec's
`confirmation_bypass_arg`.
"""

from __future__ import annotations

import re
import shlex
from typing import Any

from burgee.describe import builtins
from burgee.describe.mcp import surfaces
from burgee.describe.schemas import DIALECT, input_schema, output_schema, wraps_result
from burgee.model.ir import Command, Param, Program, TypeRef
from burgee.runtime.answers.deliver import _AGENT_LIMIT
from burgee.runtime.answers.sanitize import _UNTRUSTED_NOTE
from burgee.runtime.commandline.argv import _hoisted
from burgee.runtime.core.flags import FLAGS, confirm_flag
from burgee.runtime.core.kinds import TYPES
from burgee.runtime.execution.sources import _CONFIG_FILES

CLISPEC_SCHEMA = "https://clispec.dev/schema/v0.3.json"

EXPLAIN = (
    "--explain <option> on a command says where its value came from "
    "(flag, env, config, pyproject or default) and what it beat; "
    "under --json the same rides in meta.provenance"
)

#: clispec's type of the kinds that are not in the runtime's type table.
_ARG_TYPES = {"record": "object", "dict": "object", "tuple": "array"}


def arg_type(ref: TypeRef) -> str:
    """clispec's free-form argument type: `string`, `integer`, `path`, `string[]`, …"""
    if ref.kind == "list" and ref.item is not None:
        return arg_type(ref.item) + "[]"
    if ref.kind in ("choice", "enum"):
        kinds = {type(choice) for choice in ref.choices}
        if kinds == {int}:
            return "integer"
        if kinds == {bool}:
            return "boolean"
        return "string"
    spec = TYPES.get(ref.kind)
    return spec.clispec if spec is not None else _ARG_TYPES.get(ref.kind, "string")


def _arg(param: Param, program: Program) -> dict[str, Any]:
    assert param.type is not None
    ref = param.type
    entry: dict[str, Any] = {"name": param.flag, "type": arg_type(ref)}
    if param.short:
        entry["short"] = param.short
    if param.aliases:
        entry["burgee_aliases"] = list(param.aliases)
    entry["required"] = param.required
    if param.default_factory:
        entry["burgee_default_factory"] = param.default_factory
    elif not param.required and not param.secret and param.default is not None:
        default = param.default
        entry["default"] = list(default) if isinstance(default, tuple) else default
    item = ref.item if ref.kind == "list" and ref.item is not None else ref
    if item.kind in ("choice", "enum"):
        entry["enum"] = list(item.choices)
    if param.help:
        entry["description"] = param.help
    env = program.env_of(param)
    if env:
        # NOTE: a name, or the names read in order (a Click option's `envvar=` list, then
        # its `auto_envvar_prefix` one)
        entry["env"] = env[0] if len(env) == 1 else list(env)
    if param.secret:
        entry["secret"] = True
    if param.minimum is not None:
        entry["minimum"] = param.minimum
    if param.maximum is not None:
        entry["maximum"] = param.maximum
    if param.hidden:
        entry["hidden"] = True
    if param.path is not None:
        entry["burgee_path"] = param.path.given
    if param.prompt is not None:
        entry["burgee_prompt"] = param.prompt
    if param.part_of is not None:
        # NOTE: a model's leaf option: its place in the JSON input, by the fields' aliases.
        place = param.key_path if param.whole_input else (param.part_of, *param.key_path)
        entry["burgee_key"] = ".".join(place)
    elif param.renamed:
        # NOTE: `Option("--from")`: the flag is not the JSON input's key.
        entry["burgee_key"] = param.name
    if param.passthrough:
        entry["burgee_passthrough"] = True
    if param.metavar:
        entry["burgee_metavar"] = param.metavar
    if param.nargs is not None:
        # NOTE: the words one flag takes (`--size 1 2`), where a list's flag takes one.
        entry["burgee_nargs"] = param.nargs
    if param.deprecated is not None:
        entry["burgee_deprecated"] = param.deprecated or True
    if param.off is not None:
        # NOTE: a bool's off form is `--no-` and its flag unless said otherwise: `--deep`, none
        # (`--force` alone), or the flag itself (`--no-input`).
        entry["burgee_off"] = list(param.off)
    if param.shared is not None:
        # NOTE: clispec has no group's args (and `global_args` are every command's, `schema`
        # and `output` too): the words after which it may also come, before the command.
        entry["burgee_shared"] = " ".join((program.name, *param.shared))
    return entry


#: A command line with nothing a shell (or `shlex`) reads specially: no quote, escape,
#: comment or operator.
_PLAIN_LINE = re.compile(r"[^'\"\\#;&|<>()]*")
#: What `shlex` splits words at.
_SHLEX_SPACE = re.compile(r"[ \t\r\n]+")


def plain_words(line: str) -> list[str] | None:
    """The words of a command line as `shlex` splits them (posix, with or without
    `punctuation_chars`), when it holds nothing a shell reads specially; None otherwise.
    `shlex` reads a character at a time: for a thousand examples, a tenth of a second."""
    if _PLAIN_LINE.fullmatch(line) is None:
        return None
    return [word for word in _SHLEX_SPACE.split(line) if word]


#: Where a shell ends one command (`tool list | jq .`, `tool add < notes.txt`).
_OPERATORS = frozenset({"|", "||", "&", "&&", ";", ">", ">>", "<", "(", ")"})
#: The operators that name a file the command reads or writes (`tool add < notes.txt`).
_REDIRECTIONS = frozenset({">", ">>", "<"})
#: A word that sets an env var for the command it comes before (`TOOL_LIMIT=5 tool list`).
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")


def command_words(example: str, name: str) -> tuple[dict[str, str], list[str]]:
    """The env vars an example command line sets for the program and the words that run it,
    its name first: the line up to a shell operator (`tool list | jq .`), or the stage of a
    pipeline that runs `name` (`echo hi | tool post --data -`); leading `NAME=VALUE` words are
    the env. Raises ValueError when the line is not shell words (an unclosed quote)."""
    words = plain_words(example)
    if words is None:
        lexer = shlex.shlex(example, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        words = list(lexer)
    stages: list[list[str]] = [[]]
    words_left = iter(words)
    for word in words_left:
        if word == "|":
            stages.append([])
        elif word in _REDIRECTIONS:
            next(words_left, None)  # NOTE: the file read or written, not the command's
        elif word in _OPERATORS:
            break  # NOTE: what follows `&&`, `;`, `&`... is another command
        else:
            stages[-1].append(word)
    found = [_assigned(stage) for stage in stages]
    return next((one for one in found if one[1][:1] == [name]), found[0])


def program_at(example: str, name: str) -> int | None:
    """Where in an example command line the program's name is typed (`TOOL_LIMIT=5 tool`,
    `echo hi | tool`), as `command_words` finds it; None when it is not."""
    for found in re.finditer(rf"(?<!\S){re.escape(name)}(?!\S)", example):
        before = example[: found.start()].split()
        if not before or before[-1] == "|" or _ASSIGNMENT.match(before[-1]):
            return found.start()
    return None


def _assigned(words: list[str]) -> tuple[dict[str, str], list[str]]:
    """The leading `NAME=VALUE` words of a command as env vars, and the rest."""
    env: dict[str, str] = {}
    while words and _ASSIGNMENT.match(words[0]):
        key, _, value = words.pop(0).partition("=")
        env[key] = value
    return env, words


def example_args(example: str, program: Program) -> list[str]:
    """An example command line as clispec's `example.args`: the argv after the program name."""
    try:
        _, words = command_words(example, program.name)
    except ValueError:
        words = example.split()
    if words and words[0] == program.name:
        words = words[1:]
    return words


def _next_steps() -> dict[str, Any]:
    """`next`: the command lines to run next (a failure's way on, a cut answer's way back)."""
    return {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {"command": {"type": "string"}, "when": {"type": "string"}},
            "required": ["command"],
        },
    }


def _error_envelope() -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "ok": {"const": False},
            "status": {"type": "string"},
            "error": {
                "type": "object",
                "properties": {
                    "kind": {"type": "string"},
                    "message": {"type": "string"},
                    "hint": {"type": "string"},
                    "retryable": {"type": "boolean"},
                    "details": {"type": "object"},
                },
                "required": ["kind", "message"],
            },
            "next": _next_steps(),
        },
        "required": ["ok", "error"],
    }


def stdout_schema(command: Command, program: Program) -> dict[str, Any]:
    """What `--json` prints: one envelope, `data` being the command's result."""
    data = output_schema(command, program)
    if wraps_result(command):
        data = data["properties"]["result"]
    return envelope_schema(data, command.outcomes)


def envelope_schema(data: dict[str, Any], outcomes: tuple[str, ...] = ()) -> dict[str, Any]:
    """The `--json` envelope whose success carries `data` (and, when the command ended with a
    declared outcome, its name)."""
    properties: dict[str, Any] = {"ok": {"const": True}, "data": data}
    if outcomes:
        properties["outcome"] = {"enum": list(outcomes)}
    properties["meta"] = {"type": "object"}
    properties["next"] = _next_steps()
    success = {"type": "object", "properties": properties, "required": ["ok", "data"]}
    return {"$schema": DIALECT, "oneOf": [success, _error_envelope()]}


def _cardinality(command: Command) -> str:
    if command.cardinality:
        return command.cardinality
    returns = command.returns
    return "bounded" if returns is not None and returns.kind == "list" else "single"


def _paging(command: Command, entry: dict[str, Any]) -> None:
    """Declare `--limit/--offset` and `--fields` where the command has them."""
    flags = {p.flag for p in command.inputs if p.role == "option"}
    if {"--limit", "--offset"} <= flags:
        entry["pagination"] = {"style": "offset", "limit_arg": "--limit", "offset_arg": "--offset"}
    if "--fields" in flags:
        entry["fields_arg"] = "--fields"


def _example(command: Command, program: Program) -> list[str] | None:
    """clispec's example: the command's first, as the tool reads it; or its path alone when
    it needs nothing more; None when neither is known."""
    if command.examples:
        words = example_args(command.examples[0], program)
        if program.shared:
            # NOTE: clispec's example starts with the command's path: the shared options given
            # before it come after it, where the tool reads them (`argv._hoisted`).
            paths = program.paths
            words = _hoisted(
                words, program.config, program.shared, lambda w: paths.get(w, ""), program.root()[0]
            )
        for alias in command.aliases:
            # NOTE: clispec's example starts with the command's path, not an alias of it.
            spelled = [*command.path[:-1], alias]
            if words[: len(spelled)] == spelled:
                words = [*command.path, *words[len(spelled) :]]
        return words
    if not any(p.required for p in command.inputs):
        return list(command.path)
    return None


def command_entry(command: Command, program: Program) -> dict[str, Any]:
    """One command of the document: clispec's keys first, then burgee's."""
    withheld = command.effects == "withheld"
    effects = command.effects
    if effects in ("destructive", "withheld", "undeclared"):
        # NOTE: clispec has no "destructive"; a destructive command is honestly
        # non-idempotent there. A withheld or undeclared command's effects are unknown: assume
        # the worst.
        effects = "non_idempotent"
    entry: dict[str, Any] = {
        "name": command.name,
        "description": command.description or command.summary or command.name,
        "effects": effects,
        "cardinality": _cardinality(command),
    }
    _paging(command, entry)
    entry["args"] = [_arg(p, program) for p in command.inputs]
    entry["stdout_schema"] = stdout_schema(command, program)
    if command.yes:
        entry["confirmation_bypass_arg"] = confirm_flag().name
    entry["errors"] = sorted({*program.builtin_errors(), *(e.kind for e in program.errors)})
    if command.outcomes:
        entry["outcomes"] = list(command.outcomes)
    if command.deprecated is not None:
        entry["stability"] = "deprecated"
    example = _example(command, program)
    if example is not None:
        entry["example"] = {"args": example}
    # burgee's own keys:
    if command.effects != effects:
        entry["burgee_effects"] = command.effects
    if command.cardinality is None and entry["cardinality"] != "single":
        # NOTE: clispec needs one; a list's length the author did not declare is a guess.
        entry["burgee_guessed"] = ["cardinality"]
    if withheld:
        entry["withheld"] = True
    if command.hidden:
        entry["hidden"] = True
    if command.aliases:
        entry["burgee_aliases"] = list(command.aliases)
    if command.root:
        entry["burgee_root"] = True
    entry["burgee_trust"] = command.trust
    if command.max_output is not None:
        entry["burgee_max_output"] = command.max_output
    if command.deprecated:
        entry["burgee_deprecated"] = command.deprecated
    if not command.sanitize:
        entry["burgee_sanitize"] = False
    if command.questions:
        entry["burgee_questions"] = [
            {
                "kind": question.kind,
                **({"question": question.text} if question.text is not None else {}),
                "answers": list(question.answers),
            }
            for question in command.questions
        ]
    if command.exclusive:
        flags = {p.name: p.flag for p in command.inputs}
        entry["burgee_exclusive"] = [
            {"args": [flags[name] for name in group.names], "required": group.required}
            for group in command.exclusive
        ]
    entry["usage_examples"] = list(command.examples)
    entry["input_schema"] = {"$schema": DIALECT, **input_schema(command, program)}
    return entry


#: clispec's type of a tool-wide flag's value, by its metavar.
#: What global_args says of a flag that does not apply to every command.
_SCOPES = {
    "root": " (the tool itself only)",
    "confirm": " (the commands with confirmation_bypass_arg)",
}


def global_args(program: Program) -> list[dict[str, Any]]:
    """The tool-wide flags (`burgee.runtime.core.flags.FLAGS`), as clispec `global_args`."""
    args: list[dict[str, Any]] = []
    for flag in FLAGS:
        if flag.config_only and not program.config:
            continue
        entry: dict[str, Any] = {"name": flag.name}
        short = flag.short or (program.version_short if flag.name == "--version" else "")
        if short:
            entry["short"] = short
        entry["type"] = flag.kind
        if flag.choices:
            entry["enum"] = list(flag.choices)
        entry["required"] = False
        entry["description"] = flag.help + _SCOPES.get(flag.scope, "")
        args.append(entry)
    return args


def config_paths(program: Program) -> list[str]:
    """Where the tool looks for its config file, first match wins."""
    name = program.name
    files = [p.format(name=name, config="$XDG_CONFIG_HOME") for p in _CONFIG_FILES]
    return [
        *(path if path.startswith("$") else f"./{path}" for path in files),
        f"[tool.{name}] in the nearest pyproject.toml",
    ]


def agents(program: Program) -> dict[str, Any]:
    """What the tool does to what an agent reads, and how an agent runs many calls."""
    limit = program.max_output if program.max_output is not None else _AGENT_LIMIT
    return {
        "max_output": limit,
        "truncation": (
            "An answer to an agent (MCP, --batch, or the command line, text or --json, when "
            f"the environment names an agent) longer than {limit} characters of data (a "
            "command's max_output, or "
            "--max-output N, 0 for none) is cut: long strings, lists and maps in the middle "
            "(a record keeps its keys); meta.truncated lists each cut and a ref, and "
            "`output REF` (the MCP tool `output`) pages back the full text."
        ),
        "sanitization": (
            "Model control tokens in what an agent reads (<|im_start|>, [INST], <<SYS>>, ...) "
            "are neutralised: their brackets become look-alike characters, so the text stays "
            "readable and is never a token."
        ),
        "untrusted": _UNTRUSTED_NOTE,
        "secrets": "A secret option's value never appears in any output: <secret:NAME>.",
        "batch": (
            "--batch [FILE] reads JSON Lines {id, command, input} and answers one envelope "
            "line each, with its id, in input order (--as-completed: as they finish); "
            "read_only calls run in parallel (--jobs N); a call that changes something runs "
            "alone, after the lines before it and before the lines after it (destructive ones "
            "only with --allow-destructive); exit "
            f"{program.builtin_errors()['batch_failed'][0]} when any failed."
        ),
    }


def document(program: Program) -> dict[str, Any]:
    """The whole clispec v0.3 document. Hidden commands are marked, and the tool leaves them
    out of the listing; `CMD --schema` still describes one."""
    errors = [
        {"kind": kind, "exit_code": code, "retryable": False, "description": text}
        for kind, (code, text) in program.builtin_errors().items()
    ] + [
        {
            "kind": e.kind,
            "exit_code": e.exit_code,
            "retryable": e.retryable,
            "description": e.description or e.kind,
        }
        for e in program.errors
    ]
    doc: dict[str, Any] = {
        "clispec": "0.3",
        "name": program.name,
        "version": program.version,
        "burgee_requires_python": f">=3.{program.python_minor}",
        "description": program.description or program.name,
        "output": {"tty": "text", "piped": "text"},
        "global_args": global_args(program),
        "explain": EXPLAIN,
    }
    doc["burgee_agents"] = agents(program)
    if program.env_prefix:
        doc["env_prefix"] = program.env_prefix
    if program.config:
        doc["config"] = {
            "files": config_paths(program),
            "order": "flag > env > config file > pyproject.toml > default",
        }
    commands = [command_entry(c, program) for c in program.commands]
    commands.append(
        {
            "name": "schema",
            "description": "Print this document; `schema CMD…` narrows it to one command.",
            "effects": "read_only",
            "cardinality": "single",
            "args": [{"name": "command", "type": "string[]", "required": False}],
            "stdout_schema": {"$ref": CLISPEC_SCHEMA},
            "example": {"args": ["schema"]},
        }
    )
    commands.append(builtins.clispec_entry(envelope_schema(builtins.OUTPUT_SCHEMA)))
    doc["commands"] = commands
    # NOTE: MCP's own shapes (`prompts/list`, ...), read on the command line with `prompt` and
    # `resource`.
    for key, entries in surfaces(program).items():
        doc["burgee_" + "".join("_" + c.lower() if c.isupper() else c for c in key)] = entries
    doc["errors"] = sorted(errors, key=lambda e: (e["exit_code"], e["kind"]))
    if program.outcomes:
        doc["outcomes"] = [
            {"code": o.exit_code, "name": o.name, "description": o.description or o.name}
            for o in sorted(program.outcomes, key=lambda o: o.exit_code)
        ]
    return doc
