# burgee: joins tail 240
# burgee: section describe
"""The shell completion scripts: rendered from the completion table in `_DATA` (`completion
SHELL`, and `burgee gen --completions` in-process), one renderer per shell.

The completion scripts, rendered from the completion table in `_DATA` (`_completion_script`;
`gen --completions` calls the same function): `_completion_nodes` (the program, groups, commands
and aliases, plus the tool-wide flags from `FLAGS` but the spellings a command's own options
take over; the root command's options on the program's node, `table["root"]`, from
`Program.root()`; the options a group shares on its node and below, `table["shared"]`), one
renderer of parts per shell, each value key once (`_with_values`); `_SHELLS`,
`_BUILTIN_COMMANDS`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from burgee.runtime.answers.deliver import _OUTPUT_WORD
from burgee.runtime.commandline.completion_scripts import (
    _BASH_SCRIPT,
    _FISH_SCRIPT,
    _PWSH_SCRIPT,
    _ZSH_SCRIPT,
)
from burgee.runtime.core.flags import HELP_FLAGS, flags_at
from burgee.runtime.execution.table import _OUTPUT, _OUTPUT_INPUTS, _output_help
from burgee.runtime.rows import _CompletionOption, _CompletionRow, _SharedRow

#: The shells a tool writes completion scripts for.
_SHELLS = ("bash", "zsh", "fish", "pwsh")

#: The built-in commands every tool has, after its own: name -> summary (root help, completion).
_BUILTIN_COMMANDS = {
    _OUTPUT_WORD: _OUTPUT.summary,
    "completion": f"Print a shell completion script ({', '.join(_SHELLS)}).",
}

#: Every top-level word the tool takes for itself, which no command or group may be named:
#: the commands above, `schema`, the completion scripts' `__complete`, and `help`, kept free
#: for what people type when they want help.
_TOOL_WORDS = frozenset({*_BUILTIN_COMMANDS, "schema", "__complete", "help"})


# NOTE: one renderer for `completion SHELL` and for `burgee gen --completions` (which calls
# `_completion_script` in-process), so a tool stores one small table instead of four scripts.

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    #: How a value completes: None (the option takes none), "none", "file", "dynamic", or
    #: its choices.
    _Values = str | list[str] | None
    #: One option of a node: its spellings, its key, how its value completes, its help line,
    #: and how many words it takes (`_takes`: "" one, "N", "+" every word up to a flag).
    _Opt = tuple[tuple[str, ...], str, _Values, str, str]
    #: One positional: its index, how it completes, whether it is the last, variadic one.
    _Pos = tuple[int, _Values, bool]
    #: The program, a group or a command: path, children (name, help), options, positionals.
    _Node = tuple[str, list[tuple[str, str]], list[_Opt], list[_Pos]]


def _help_line(text: str, limit: int = 80) -> str:
    """The first paragraph of a help text on one line, cut at `limit` characters."""
    first = " ".join(text.strip().split("\n\n")[0].split())
    return first if len(first) <= limit else first[: limit - 1].rstrip() + "\u2026"


def _tool_options(
    path: str, root: bool, config: bool, confirm: bool, version_short: str = ""
) -> list[_Opt]:
    """The tool-wide flags that apply at `path` (the root has them all, a command that asks
    first has `--yes`), from `FLAGS`, then the help flags; `version_short`: the program's
    short spelling of `--version` (`program(version_short="-V")`)."""
    found: list[_Opt] = []
    for flag in flags_at(root, config, confirm):
        values: _Values
        if not flag.metavar or flag.optional == "object":
            values = None
        elif flag.choices:
            values = list(flag.choices)
        else:
            values = "file" if flag.kind == "path" else "none"
        short = flag.short or (version_short if flag.name == "--version" else "")
        names = (short, flag.name) if short else (flag.name,)
        found.append((names, f"{path}|{flag.name}", values, _help_line(flag.help), ""))
    found.append((HELP_FLAGS, f"{path}|--help", None, "show help and exit", ""))
    return found


def _takes(takes: int | str) -> str:
    """How many words an option of a completion table's row takes, as the scripts read it
    (N, or "+" for every word up to the next flag): "" for one."""
    return str(takes) if takes != 1 else ""


def _option(path: str, option: _CompletionOption) -> _Opt:
    """An option of the command at `path` as its node offers it. Its key is the command's path
    and its last long spelling (`--no-X` comes after it, but a flag's value completes to
    nothing, so it has no key)."""
    flags = option.spellings
    return (tuple(flags), f"{path}|{flags[-1]}", option.values, option.help, _takes(option.takes))


def _not_taken(own: list[_Opt], tool: list[_Opt]) -> list[_Opt]:
    """The tool-wide flags beside a node's own options: a spelling its own option takes over
    (`shadows=True`) is the option's there."""
    taken = {name for flags, *_ in own for name in flags}
    return [
        (tuple(name for name in names if name not in taken), key, values, text, takes)
        for names, key, values, text, takes in tool
        if set(names) - taken
    ]


def _completion_nodes(table: dict[str, Any], config: bool) -> list[_Node]:
    """The nodes of a completion table: the program, its groups, each visible command then its
    aliases, and the built-in `completion`.

    `table["groups"]` holds `[path, [[name, help], ...]]`, the program ("") first;
    `table["root"]` is the root command's path and mode (`ROOT`, `ROOT_MODE`);
    `table["commands"]` holds `[path, [alias path, ...], asks first, options, positionals]`,
    an option being `[spellings, how its value completes, help]` (and how many words it
    takes, when not one) and a positional
    `[how it completes, variadic]` (`burgee.render.completions.table` writes it);
    `table["shared"]`, when there are any, `[group path, a command's path, options]`: the
    options a group's (the program's: "") `options=` shares, offered on its node and below.
    """
    found: list[_Node] = []
    commands = {row.path: row for row in map(_CompletionRow, table["commands"])}
    root, mode = table.get("root", ("", ""))
    if mode == "empty":
        root = ""  # NOTE: a default command (`program(default=)`) takes no word without its name
    for path, children in table["groups"]:
        named = [(name, text) for name, text in children]
        own: list[_Opt] = []
        places: list[_Pos] = []
        if not path:
            named += [(name, _help_line(text)) for name, text in _BUILTIN_COMMANDS.items()]
            if root in commands:
                # NOTE: the root command's options and positionals are the program's own
                # (`tool --mode fast`, `tool FILE`); the scripts offer the commands beside its
                # first positional.
                row = commands[root]
                own = [_option(root, option) for option in row.options]
                places = [(i, p.values, p.variadic) for i, p in enumerate(row.positionals)]
        # NOTE: the options the program's and this group's commands share (`options=`)
        # come before the command too.
        for shared in map(_SharedRow, table.get("shared", ())):
            if f"{path} ".startswith(f"{shared.scope} ".lstrip()):
                known = {name for flags, *_ in own for name in flags}
                own += [
                    _option(shared.command, option)
                    for option in shared.options
                    if known.isdisjoint(option.spellings)
                ]
        tool = _tool_options(path, not path, config, False, table.get("version_short", ""))
        found.append((path, named, own + _not_taken(own, tool), places))
    for row in commands.values():
        path, aliases, confirm = row.path, row.aliases, row.confirm
        own = [_option(path, option) for option in row.options]
        places = [(i, p.values, p.variadic) for i, p in enumerate(row.positionals)]
        every = own + _not_taken(own, _tool_options(path, False, config, bool(confirm)))
        found.append((path, [], every, places))
        # NOTE: an alias completes like its command (and is offered beside it).
        found.extend((alias, [], every, places) for alias in aliases)
    completion: _Opt = (HELP_FLAGS, "completion|--help", None, "show help", "")
    found.append(("completion", [], [completion], [(0, list(_SHELLS), False)]))
    # NOTE: `output REF`: a reference completes to nothing, its options to their names.
    paging: list[_Opt] = [
        (
            (flag,),
            f"{_OUTPUT_WORD}|{flag}",
            "none",
            _help_line(_output_help(flag, default, text)),
            "",
        )
        for _, flag, _, _, default, text in _OUTPUT_INPUTS
        if flag is not None
    ]
    tool = _tool_options(_OUTPUT_WORD, False, config, False)
    found.append((_OUTPUT_WORD, [], paging + tool, [(0, "none", False)]))
    return found


def _completion_script(shell: str, prog: str, table: dict[str, Any], config: bool) -> str:
    """The completion script of one shell (bash, zsh, fish or pwsh) for the program `prog`."""
    # NOTE: what `re.sub(r"\W", "_", prog)` makes, without `re` (two thirds of a start-up).
    ident = "".join(c if c.isalnum() or c == "_" else "_" for c in prog)
    nodes = _completion_nodes(table, config)
    template, parts = {
        "bash": (_BASH_SCRIPT, _bash_parts),
        "zsh": (_ZSH_SCRIPT, _zsh_parts),
        "fish": (_FISH_SCRIPT, _fish_parts),
        "pwsh": (_PWSH_SCRIPT, _pwsh_parts),
    }[shell]
    filled = parts(nodes, ident)
    # NOTE: a line of a script that ends in `@+` goes on on the next (here within 100 columns).
    text = template.replace("@+\n", "").replace("@PROG@", prog)
    text = text.replace("@QPROG@", _quote_pwsh(prog))
    lines = []
    for line in text.replace("@ID@", ident).split("\n"):
        # NOTE: a line `@NAME@` stands for the lines of that part (none: the line goes).
        name = line[1:-1] if len(line) > 2 and line[0] == line[-1] == "@" else ""
        lines.extend(filled.get(name, [line]))
    return "\n".join(lines)


def _quote_sh(text: str) -> str:
    """A POSIX-shell single-quoted word (bash, zsh)."""
    return "'" + text.replace("'", "'\\''") + "'"


def _quote_fish(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _quote_pwsh(text: str) -> str:
    return (
        "'"
        + text.replace("'", "''")
        .replace("\u2018", "\u2018\u2018")
        .replace("\u2019", "\u2019\u2019")
        + "'"
    )


def _where(position: _Pos, variadic: str = "*") -> str:
    """A positional's place after `path#`: its index, or `*` (`+` in fish) when variadic."""
    return variadic if position[2] else str(position[0])


def _kind(values: _Values) -> str:
    return "choice" if isinstance(values, list) else str(values)


def _children(nodes: list[_Node], line: str, quote: Callable[[str], str]) -> list[str]:
    """`line` for each child of each node, with `{key}` (`path|name`) and `{path}` quoted."""
    return [
        line.format(key=quote(f"{path}|{name}"), path=quote(f"{path} {name}".strip()))
        for path, children, _, _ in nodes
        for name, _ in children
    ]


def _valued(nodes: list[_Node]) -> list[tuple[str, _Opt]]:
    """Each node's options that take a value, with the node's path."""
    return [(node[0], opt) for node in nodes for opt in node[2] if opt[2] is not None]


def _more(opt: _Opt) -> str:
    """`MORE=...` after an option's key in bash's and zsh's `_option` case: how many words it
    takes when not one (`_takes`)."""
    return f" MORE={_quote_sh(opt[4])}" if opt[4] else ""


def _sh_values(values: _Values, ident: str, bash: bool) -> str:
    """What bash (or zsh) runs to complete a value: the words after its `case` pattern."""
    if isinstance(values, list):
        words = "".join(f" {_quote_sh(c)}" for c in values)
        return f" __{ident}_add{words}" if bash else f" compadd --{words}"
    if values == "file":
        return f" __{ident}_files" if bash else " _files"
    return f" __{ident}_dynamic" if values == "dynamic" else ""


def _with_values(nodes: list[_Node]) -> Iterator[tuple[_Node, list[_Opt]]]:
    """Each node with its options that take a value, each value key once: the root command's
    options sit on the program's node too, under the command's keys."""
    seen: set[str] = set()
    for node in nodes:
        fresh = [opt for opt in node[2] if opt[2] is not None and opt[1] not in seen]
        seen.update(opt[1] for opt in fresh)
        yield node, fresh


def _sh_cases(nodes: list[_Node], ident: str, bash: bool) -> list[str]:
    """The cases of `__ID_values`, bash's (`'key') ...`) or zsh's (`('key') ...`)."""
    q = _quote_sh
    left, right = ("", ")") if bash else ("(", ")")
    found = []
    for node, options in _with_values(nodes):
        for opt in options:
            found.append(f"        {left}{q(opt[1])}{right}{_sh_values(opt[2], ident, bash)} ;;")
        for pos in node[3]:
            where = q(node[0] + "#") + _where(pos)
            found.append(f"        {left}{where}{right}{_sh_values(pos[1], ident, bash)} ;;")
    return found


def _bash_parts(nodes: list[_Node], ident: str) -> dict[str, list[str]]:
    q = _quote_sh
    return {
        "CHILD": _children(nodes, "        {key}) REPLY={path} ;;", q),
        # NOTE: no indent: the template these lines were first rendered by stripped it.
        "OPTION": [
            "|".join(q(f"{path}|{flag}") for flag in opt[0]) + f") REPLY={q(opt[1])}{_more(opt)} ;;"
            for path, opt in _valued(nodes)
        ],
        "VALUES": _sh_cases(nodes, ident, bash=True),
        "CHILDREN": [
            f"        {q(path)}) __{ident}_add" + "".join(f" {q(n)}" for n, _ in children) + " ;;"
            for path, children, _, _ in nodes
            if children
        ],
        "FLAGS": [
            f"        {q(path)}) __{ident}_add"
            + "".join(f" {q(flag)}" for opt in options for flag in opt[0])
            + " ;;"
            for path, _, options, _ in nodes
        ],
    }


def _zsh_parts(nodes: list[_Node], ident: str) -> dict[str, list[str]]:
    q = _quote_sh
    return {
        "CHILD": _children(nodes, "        ({key}) REPLY={path} ;;", q),
        "OPTION": [
            "        ("
            + "|".join(q(f"{path}|{flag}") for flag in opt[0])
            + f") REPLY={q(opt[1])}{_more(opt)} ;;"
            for path, opt in _valued(nodes)
        ],
        "VALUES": _sh_cases(nodes, ident, bash=False),
        "CHILDREN": [
            f"        ({q(path)}) __{ident}_describe"
            + "".join(f" {q(name)} {q(text)}" for name, text in children)
            + " ;;"
            for path, children, _, _ in nodes
            if children
        ],
        "FLAGS": [
            f"        ({q(path)}) __{ident}_describe"
            + "".join(f" {q(flag)} {q(opt[3])}" for opt in options for flag in opt[0])
            + " ;;"
            for path, _, options, _ in nodes
        ],
    }


def _fish_values(values: _Values, ident: str, prefix: str) -> list[str]:
    if isinstance(values, list):
        return [
            f"            __{ident}_add {prefix}" + "".join(f" {_quote_fish(c)}" for c in values)
        ]
    if values == "file":
        # NOTE: after `--path=`, each file name goes after that prefix, as a choice does.
        return [f'            __{ident}_add {prefix} (__fish_complete_path "$cur")']
    return [f"            __{ident}_dynamic {prefix}"] if values == "dynamic" else []


def _fish_parts(nodes: list[_Node], ident: str) -> dict[str, list[str]]:
    q = _quote_fish
    values: list[str] = []
    for node, options in _with_values(nodes):
        for opt in options:
            values += [f"        case {q(opt[1])}", *_fish_values(opt[2], ident, '"$prefix"')]
        for pos in node[3]:
            where = q(f"{node[0]}#{_where(pos, '+')}")
            values += [f"        case {where}", *_fish_values(pos[1], ident, "''")]
    printf = '            printf "%s\\t%s\\n" '
    return {
        "CHILD": [
            line
            for pair in _children(nodes, "        case {key}\n            echo {path}", q)
            for line in pair.split("\n")
        ],
        "OPTION": [
            line
            for path, opt in _valued(nodes)
            for line in (
                "        case" + "".join(f" {q(f'{path}|{flag}')}" for flag in opt[0]),
                # NOTE: how many words it takes on a line of its own (`_takes`), if not one.
                f"            echo {q(opt[1])}"
                + (f"\n            echo {q(opt[4])}" if opt[4] else ""),
            )
        ],
        "VALUES": values,
        "CHILDREN": [
            line
            for path, children, _, _ in nodes
            if children
            for line in (
                f"        case {q(path)}",
                *(f"{printf}{q(name)} {q(text)}" for name, text in children),
            )
        ],
        "FLAGS": [
            line
            for path, _, options, _ in nodes
            for line in (
                f"        case {q(path)}",
                *(f"{printf}{q(flag)} {q(opt[3])}" for opt in options for flag in opt[0]),
            )
        ],
    }


def _pwsh_parts(nodes: list[_Node], ident: str) -> dict[str, list[str]]:
    q = _quote_pwsh

    def spec(key: str, values: _Values) -> str:
        choices = "".join(f", {q(c)}" for c in values) if isinstance(values, list) else ""
        return f"        {q(key)} = @({q(_kind(values))}{choices})"

    return {
        "CHILD": _children(nodes, "        {key} = {path}", q),
        "OPTION": [
            f"        {q(f'{path}|{flag}')} = {q(opt[1])}"
            for path, opt in _valued(nodes)
            for flag in opt[0]
        ],
        "VALUES": [
            line
            for node, options in _with_values(nodes)
            for line in (
                *(spec(opt[1], opt[2]) for opt in options),
                *(spec(f"{node[0]}#{_where(pos)}", pos[1]) for pos in node[3]),
            )
        ],
        "CHILDREN": [
            f"        {q(path)} = @("
            + ", ".join(f"@({q(name)}, {q(text)})" for name, text in children)
            + ")"
            for path, children, _, _ in nodes
            if children
        ],
        "FLAGS": [
            f"        {q(path)} = @("
            + ", ".join(f"@({q(flag)}, {q(opt[3])})" for opt in options for flag in opt[0])
            + ")"
            for path, _, options, _ in nodes
        ],
    }
