"""Shell completion scripts (bash, zsh, fish, pwsh) and the `__complete` slot tables.

Every script is rendered at build time from one model of the program (`nodes()`), then
embedded in the generated module as a string constant, so printing it builds nothing. A
script walks the words before the cursor to find the command and what is being completed;
it runs the tool (`PROG __complete WORD...`) only for a value whose parameter declares
`complete=fn`.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, replace

from burgee.describe import skill
from burgee.model.ir import Command, Param, Program, TypeRef
from burgee.model.literals import py
from burgee.render.converters import converter
from burgee.render.environment import ENVIRONMENT
from burgee.runtime.flags import FLAGS, HELP_FLAGS

SHELLS: tuple[str, ...] = ("bash", "zsh", "fish", "pwsh")


@dataclass(frozen=True)
class Values:
    """How to complete one value: no way, fixed choices, file names, or the author's function."""

    kind: str  # "none" | "choice" | "file" | "dynamic"
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class Opt:
    """One option (all its spellings) of one node."""

    flags: tuple[str, ...]
    key: str
    values: Values | None
    help: str


@dataclass(frozen=True)
class Positional:
    """One positional argument of a command."""

    index: int
    values: Values
    variadic: bool


@dataclass(frozen=True)
class Node:
    """The program, a group, or a command: what can follow it on the command line."""

    path: str
    children: tuple[tuple[str, str], ...]
    options: tuple[Opt, ...]
    positionals: tuple[Positional, ...]

    def positional_key(self, positional: Positional) -> str:
        """The key of a positional: `path#index`, or `path#*` for the last, variadic one."""
        return f"{self.path}#{'*' if positional.variadic else positional.index}"


def _line(text: str, limit: int = 80) -> str:
    first = " ".join(text.strip().split("\n\n")[0].split())
    return first if len(first) <= limit else first[: limit - 1].rstrip() + "…"


def _choices(ref: TypeRef) -> tuple[str, ...]:
    return tuple(str(c).lower() if isinstance(c, bool) else str(c) for c in ref.choices)


def _values(param: Param) -> Values:
    assert param.type is not None
    if param.complete:
        return Values("dynamic")
    ref = param.type.item if param.type.kind == "list" and param.type.item else param.type
    if ref.kind in ("choice", "enum"):
        return Values("choice", _choices(ref))
    if ref.kind == "path":
        return Values("file")
    return Values("none")


def _globals(path: str, root: bool, config: bool, confirm: bool = False) -> list[Opt]:
    """The tool-wide flags that apply at `path` (the root has them all, a command that asks
    first has `--yes`), from `FLAGS`."""
    found = []
    for flag in FLAGS:
        if (flag.scope == "root" and not root) or (flag.config_only and not config):
            continue
        if flag.scope == "confirm" and not confirm:
            continue
        values: Values | None
        if not flag.metavar or flag.name == "--json":
            values = None
        elif flag.choices:
            values = Values("choice", flag.choices)
        else:
            values = Values("file" if flag.metavar == "PATH" else "none")
        names = (flag.short, flag.name) if flag.short else (flag.name,)
        found.append(Opt(names, f"{path}|{flag.name}", values, _line(flag.help)))
    found.append(Opt(HELP_FLAGS, f"{path}|--help", None, "show help and exit"))
    return found


def _command_node(command: Command, config: bool) -> Node:
    path = command.name
    options: list[Opt] = []
    positionals: list[Positional] = []
    for param in command.inputs:
        assert param.type is not None
        if param.role == "argument":
            positionals.append(
                Positional(len(positionals), _values(param), param.type.kind == "list")
            )
            continue
        if param.hidden:
            continue
        flags = (param.short,) if param.short else ()
        key, text = f"{path}|{param.flag}", _line(param.help)
        if param.type.kind == "bool":
            options.append(Opt((*flags, param.flag, "--no-" + param.flag[2:]), key, None, text))
        elif param.type.kind == "count":
            options.append(Opt((*flags, param.flag), key, None, text))
        else:
            options.append(Opt((*flags, param.flag), key, _values(param), text))
    found = _globals(path, False, config, command.confirm is not None)
    # NOTE: a tool-wide spelling the command's own option takes over (`shadows=True`) is the
    # option's on this command.
    own = {name for option in options for name in option.flags}
    found = [
        replace(o, flags=tuple(n for n in o.flags if n not in own))
        for o in found
        if set(o.flags) - own
    ]
    return Node(path, (), (*options, *found), tuple(positionals))


def nodes(program: Program) -> list[Node]:
    """The program, its groups and its visible commands, with the built-in `completion`."""
    members = sorted(
        [(g.span.line, g.path, g.help) for g in program.groups]
        + [(c.span.line, c.path, c.summary) for c in program.commands if not c.hidden]
        + [
            (c.span.line, (*c.path[:-1], alias), c.summary)
            for c in program.commands
            if not c.hidden
            for alias in c.aliases
        ]
    )
    found: list[Node] = []
    for path in [(), *(g.path for g in program.groups)]:
        children = [(p[-1], _line(text)) for _, p, text in members if p[:-1] == path]
        if not path:
            children.append(("completion", "print a shell completion script"))
        name = " ".join(path)
        found.append(
            Node(name, tuple(children), tuple(_globals(name, not path, program.config)), ())
        )
    for command in program.commands:
        if command.hidden:
            continue
        node = _command_node(command, program.config)
        found.append(node)
        # NOTE: an alias completes like its command (and is offered beside it).
        found += [
            Node(" ".join((*command.path[:-1], alias)), (), node.options, node.positionals)
            for alias in command.aliases
        ]
    found.append(
        Node(
            "completion",
            (),
            (Opt(("-h", "--help"), "completion|--help", None, "show help"),),
            (Positional(0, Values("choice", SHELLS), False),),
        )
    )
    return found


def identifier(name: str) -> str:
    """A shell-function-safe spelling of the program name."""
    return re.sub(r"\W", "_", name)


def _single(text: str) -> str:
    """A POSIX-shell single-quoted word (bash, zsh)."""
    return "'" + text.replace("'", "'\\''") + "'"


def _fish(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _pwsh(text: str) -> str:
    return (
        "'"
        + text.replace("'", "''")
        .replace("\u2018", "\u2018\u2018")
        .replace("\u2019", "\u2019\u2019")
        + "'"
    )


def script(program: Program, shell: str) -> str:
    """The completion script for one shell."""
    template = ENVIRONMENT.get_template(f"completions/{shell}.jinja")
    quote = {"bash": _single, "zsh": _single, "fish": _fish, "pwsh": _pwsh}[shell]
    return template.render(
        prog=program.name,
        id=identifier(program.name),
        nodes=nodes(program),
        q=quote,
    )


def scripts(program: Program) -> dict[str, str]:
    """Every shell's script, by shell name."""
    return {shell: script(program, shell) for shell in SHELLS}


def file_names(name: str) -> dict[str, str]:
    """The file each shell's script is installed as, by shell name."""
    return {"bash": name, "zsh": f"_{name}", "fish": f"{name}.fish", "pwsh": f"{name}.ps1"}


def completion_help(name: str) -> str:
    """`PROG completion --help`: what the scripts do and how to install each one."""
    return (
        f"usage: {name} completion {{bash,zsh,fish,pwsh}}\n\n"
        f"Print the shell completion script of {name}. It completes commands, groups, options,\n"
        f"choices and file names; pressing TAB never runs {name}, except for values its author\n"
        f"completes with a function (through '{name} __complete').\n\n"
        "install:\n"
        f"  bash  {name} completion bash > ~/.local/share/bash-completion/completions/{name}\n"
        f'        (with the bash-completion package; or add  eval "$({name} completion bash)"'
        "  to ~/.bashrc)\n"
        f'  zsh   {name} completion zsh > "${{fpath[1]}}/_{name}"\n'
        "        (any directory on $fpath, with compinit in ~/.zshrc; then start a new zsh)\n"
        f"  fish  {name} completion fish > ~/.config/fish/completions/{name}.fish\n"
        f"  pwsh  {name} completion pwsh >> $PROFILE   (PowerShell 7.3 or later)\n"
    )


def template_values(program: Program) -> dict[str, object]:
    """The completion scripts, the skill and the completion help (embedded in `_DATA`), and
    the slot tables of `complete=` options."""
    return {
        "documents": {
            **scripts(program),
            "skill": skill.skill(program, program.source_name),
            "completion_help": completion_help(program.name),
        },
        "slot_tables": slot_tables(program),
        "py": py,
    }


# ---- The __complete side: which function completes which value, and how to read the line ----


def arities(user_code: str) -> dict[str, int]:
    """How many positional parameters each top-level function of the user code takes (≤ 2)."""
    try:
        tree = ast.parse(user_code)
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
    """Per command with a `complete=` parameter: its path and the Python source of its slots.

    A slot is `(name, flags, mode, convert, complete, arity)`; `mode` is `arg`, `args`,
    `flag`, `value` or `append`.
    """
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
            item = ref.item if ref.kind == "list" and ref.item else ref
            if param.role == "argument":
                flags: tuple[str, ...] = ()
                mode = "args" if ref.kind == "list" else "arg"
            else:
                flags = ((param.short,) if param.short else ()) + (param.flag,)
                mode = "flag" if ref.kind == "bool" else "append" if ref.kind == "list" else "value"
            fn = param.complete or "None"
            arity = counts.get(param.complete, 2) if param.complete else 0
            code = converter(item)
            rows.append(f"({py(param.name)}, {py(flags)}, {py(mode)}, {code}, {fn}, {arity})")
        tables.append((command.name, rows))
    return tables
