"""Shell completion (`completion SHELL`, the `__complete` protocol) and the Agent Skill."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

from burgee.runtime.deliver import _OUTPUT, _OUTPUT_INPUTS, _output_help
from burgee.runtime.embedded import _document
from burgee.runtime.errors import UsageError
from burgee.runtime.flags import HELP_FLAGS, _flag, flags_at
from burgee.runtime.program import (
    _CONFIG,
    ALIASES,
    COMMANDS,
    GROUPS,
    PROGRAM,
    ROOT,
    ROOT_MODE,
    _complete_values,
    _completion_slots,
)

if TYPE_CHECKING:
    import argparse

#: Words answered before argv is parsed at all.
_BUILTINS = ("completion", "__complete")
_SHELLS = ("bash", "zsh", "fish", "pwsh")


def _builtin(args: list[str]) -> int:
    """`completion SHELL` and `__complete WORD...` (answered without parsing argv), and
    `--skill` (wherever it is, once argv is read)."""
    if args[0] == "__complete":
        return _complete(args[1:])
    if args[0] == "--skill":
        if len(args) > 1:
            raise UsageError(f"--skill takes nothing more, not {args[1]!r}")
        sys.stdout.write(_document("skill"))
        return 0
    rest = args[1:]
    if not rest or rest[0] in HELP_FLAGS:
        if not rest:
            raise UsageError("missing shell", hint=f"shells: {', '.join(_SHELLS)}")
        sys.stdout.write(_completion_usage(PROGRAM))
        return 0
    if rest[0] not in _SHELLS or len(rest) > 1:
        raise UsageError(f"unknown shell {rest[-1]!r}", hint=f"shells: {', '.join(_SHELLS)}")
    import json

    table = json.loads(_document("completion"))
    sys.stdout.write(_completion_script(rest[0], PROGRAM, table, _CONFIG))
    return 0


def _completion_usage(name: str) -> str:
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


#: The built-in commands every tool has, after its own: name -> summary (root help, completion).
_BUILTIN_COMMANDS = {
    "output": _OUTPUT.summary,
    "completion": "print a shell completion script (bash, zsh, fish, pwsh)",
}


def _root_extras(children: argparse._SubParsersAction[Any]) -> None:
    """The root help's built-in commands: output and completion."""
    for name, summary in _BUILTIN_COMMANDS.items():
        children.add_parser(name, help=summary)


def _complete(words: list[str]) -> int:
    """Print the values a `complete=` function offers for the last word; never fail."""
    try:
        found = _complete_values(words)
    except Exception:  # noqa: BLE001
        # NOTE: a completer that raises offers nothing; TAB must never print an error.
        found = []
    sys.stdout.write("".join(f"{line}\n" for line in found))
    return 0


def _candidates(words: list[str]) -> list[str]:
    """What the `complete=` function of the value being typed offers (a tool whose options
    have such functions answers `__complete` with this; see `program._complete_values`)."""
    if not words:
        return []
    partial, before = words[-1], words[:-1]
    node, index = "", 0
    # NOTE: the command path as argv finds it (`argv._find`): an alias is the command it names,
    # and words that name no command are the root command's, if the program has one.
    while index < len(before) and node in GROUPS and ROOT_MODE != "alone":
        token = before[index]
        name, has_value, _ = token.partition("=")
        tool_flag = _flag(name)
        if tool_flag is not None:
            taking = tool_flag.metavar and tool_flag.name != "--json" and not has_value
            index += 2 if taking else 1
            continue
        child = f"{node} {token}".lstrip()
        child = ALIASES.get(child, child)
        if token.startswith("-") or (child not in COMMANDS and child not in GROUPS):
            break
        node = child
        index += 1
    if index > len(before):
        return []  # NOTE: the value of a tool-wide flag (`--timeout <TAB>`)
    if node not in COMMANDS and not node and ROOT:
        node = ROOT
    slots = _completion_slots(node) if node in COMMANDS else ()
    if not slots:
        return []
    by_flag = {flag: slot for slot in slots for flag in slot[1]}
    arguments = [slot for slot in slots if slot[2] in ("arg", "args")]
    options: dict[str, Any] = {}
    raw: dict[str, Any] = {}
    positionals: list[Any] = []
    want: Any = None
    rest = skip = False
    for token in before[index:]:
        if skip:
            skip = False
        elif want is not None:
            _remember(want, token, options, raw)
            want = None
        elif rest or not token.startswith("-") or token == "-":
            slot = arguments[min(len(positionals), len(arguments) - 1)] if arguments else None
            positionals.append(_coerce(slot, token) if slot else token)
            if slot is not None:
                _remember(slot, token, options, raw, into=False)
        elif token == "--":
            rest = True
        else:
            flag, has_value, value = token.partition("=")
            slot = by_flag.get(flag)
            if slot is None and flag.startswith("--no-"):
                slot = by_flag.get("--" + flag[5:])
                if slot is not None and slot[2] == "flag":
                    options[slot[0]] = False
                continue
            if slot is None:
                # NOTE: the value of a tool-wide flag (`--timeout 5`) is not an argument's.
                tool_flag = _flag(flag)
                skip = (
                    tool_flag is not None
                    and tool_flag.metavar != ""
                    and tool_flag.name != "--json"
                    and not has_value
                )
                continue
            if slot[2] == "flag":
                options[slot[0]] = True
            elif has_value:
                _remember(slot, value, options, raw)
            else:
                want = slot
    if skip:
        return []
    if want is None and not rest and partial.startswith("-") and "=" in partial:
        flag, _, partial = partial.partition("=")
        want = by_flag.get(flag)
    elif want is None and not (partial.startswith("-") and not rest) and arguments:
        want = arguments[min(len(positionals), len(arguments) - 1)]
        if want[2] == "arg" and len(positionals) >= len(arguments):
            want = None
    if want is None or want[4] is None:
        return []
    context = {"path": node, "options": options, "positionals": positionals, "raw": raw}
    stdout = sys.stdout
    # NOTE: a completer's prints must not reach the shell.
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115
    try:
        offered = want[4](partial) if want[5] == 1 else want[4](partial, context)
        found = []
        for item in offered or ():
            value, description = (item if isinstance(item, tuple) else (item, ""))[:2]
            value = str(value)
            if value.startswith(partial) and "\n" not in value:
                text = " ".join(str(description).split())
                found.append(value + (f"\t{text}" if text else ""))
    finally:
        sys.stdout.close()
        sys.stdout = stdout
    return found


def _coerce(slot: tuple[Any, ...], text: str) -> Any:
    try:
        return slot[3](text)
    except (ValueError, TypeError):
        return text


def _remember(
    slot: tuple[Any, ...],
    text: str,
    options: dict[str, Any],
    raw: dict[str, Any],
    into: bool = True,
) -> None:
    """Record one typed value: coerced like a run coerces it, or as typed where that fails."""
    name, mode = slot[0], slot[2]
    if mode in ("append", "args"):
        raw.setdefault(name, []).append(text)
        if into:
            options.setdefault(name, []).append(_coerce(slot, text))
    else:
        raw[name] = text
        if into:
            options[name] = _coerce(slot, text)


# ---- The completion scripts: rendered from the completion table in `_DATA` ----
# NOTE: one renderer for `completion SHELL` and for `burgee gen --completions` (which calls
# `_completion_script` in-process), so a tool stores one small table instead of four scripts.

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    #: How a value completes: None (the option takes none), "none", "file", "dynamic", or
    #: its choices.
    _Values = str | list[str] | None
    #: One option of a node: its spellings, its key, how its value completes, its help line.
    _Opt = tuple[tuple[str, ...], str, _Values, str]
    #: One positional: its index, how it completes, whether it is the last, variadic one.
    _Pos = tuple[int, _Values, bool]
    #: The program, a group or a command: path, children (name, help), options, positionals.
    _Node = tuple[str, list[tuple[str, str]], list[_Opt], list[_Pos]]


def _help_line(text: str, limit: int = 80) -> str:
    """The first paragraph of a help text on one line, cut at `limit` characters."""
    first = " ".join(text.strip().split("\n\n")[0].split())
    return first if len(first) <= limit else first[: limit - 1].rstrip() + "\u2026"


def _tool_options(path: str, root: bool, config: bool, confirm: bool) -> list[_Opt]:
    """The tool-wide flags that apply at `path` (the root has them all, a command that asks
    first has `--yes`), from `FLAGS`, then the help flags."""
    found: list[_Opt] = []
    for flag in flags_at(root, config, confirm):
        values: _Values
        if not flag.metavar or flag.name == "--json":
            values = None
        elif flag.choices:
            values = list(flag.choices)
        else:
            values = "file" if flag.kind == "path" else "none"
        names = (flag.short, flag.name) if flag.short else (flag.name,)
        found.append((names, f"{path}|{flag.name}", values, _help_line(flag.help)))
    found.append((HELP_FLAGS, f"{path}|--help", None, "show help and exit"))
    return found


def _completion_nodes(table: dict[str, Any], config: bool) -> list[_Node]:
    """The nodes of a completion table: the program, its groups, each visible command then its
    aliases, and the built-in `completion`.

    `table["groups"]` holds `[path, [[name, help], ...]]`, the program ("") first;
    `table["root"]` is the root command's path and mode (`ROOT`, `ROOT_MODE`);
    `table["commands"]` holds `[path, [alias path, ...], asks first, options, positionals]`,
    an option being `[spellings, how its value completes, help]` and a positional
    `[how it completes, variadic]` (`burgee.render.completions.table` writes it).
    """
    found: list[_Node] = []
    commands = {row[0]: row for row in table["commands"]}
    root, mode = table.get("root", ("", ""))
    for path, children in table["groups"]:
        named = [(name, text) for name, text in children]
        own: list[_Opt] = []
        places: list[_Pos] = []
        if not path:
            named += [(name, _help_line(text)) for name, text in _BUILTIN_COMMANDS.items()]
            if root in commands:
                # NOTE: the root command's options are the program's own (`tool --mode fast`);
                # its positionals too when it is the only command (no command words then).
                _, _, _, options, positionals = commands[root]
                own = [(tuple(f), f"{root}|{f[-1]}", v, text) for f, v, text in options]
                if mode == "alone":
                    places = [(i, v, variadic) for i, (v, variadic) in enumerate(positionals)]
        taken = {name for flags, _, _, _ in own for name in flags}
        tool = [
            (tuple(name for name in names if name not in taken), key, values, text)
            for names, key, values, text in _tool_options(path, not path, config, False)
            if set(names) - taken
        ]
        found.append((path, named, own + tool, places))
    for path, aliases, confirm, options, positionals in commands.values():
        # NOTE: an option's key is its command's path and its last long spelling (`--no-X`
        # comes after it, but a flag's value completes to nothing, so it has no key).
        own = [
            (tuple(flags), f"{path}|{flags[-1]}", values, text) for flags, values, text in options
        ]
        places = [(i, values, variadic) for i, (values, variadic) in enumerate(positionals)]
        # NOTE: a tool-wide spelling the command's own option takes over (`shadows=True`) is
        # the option's on this command.
        taken = {name for flags, _, _, _ in own for name in flags}
        tool = [
            (tuple(name for name in names if name not in taken), key, values, text)
            for names, key, values, text in _tool_options(path, False, config, bool(confirm))
            if set(names) - taken
        ]
        every = own + tool
        found.append((path, [], every, places))
        # NOTE: an alias completes like its command (and is offered beside it).
        found.extend((alias, [], every, places) for alias in aliases)
    completion: _Opt = (HELP_FLAGS, "completion|--help", None, "show help")
    found.append(("completion", [], [completion], [(0, list(_SHELLS), False)]))
    # NOTE: `output REF`: a reference completes to nothing, its options to their names.
    paging: list[_Opt] = [
        ((flag,), f"output|{flag}", "none", _help_line(_output_help(flag, default, text)))
        for _, flag, _, _, default, text in _OUTPUT_INPUTS
        if flag is not None
    ]
    tool = _tool_options("output", False, config, False)
    found.append(("output", [], paging + tool, [(0, "none", False)]))
    return found


def _completion_script(shell: str, prog: str, table: dict[str, Any], config: bool) -> str:
    """The completion script of one shell (bash, zsh, fish or pwsh) for the program `prog`."""
    import re

    ident = re.sub(r"\W", "_", prog)
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
            "|".join(q(f"{path}|{flag}") for flag in opt[0]) + f") REPLY={q(opt[1])} ;;"
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
            + f") REPLY={q(opt[1])} ;;"
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
        return ['            __fish_complete_path "$cur"']
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
                f"            echo {q(opt[1])}",
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


_BASH_SCRIPT = r"""# Generated by burgee: bash completion for @PROG@, from the same model@+
 as the tool.
# Install: @PROG@ completion bash > ~/.local/share/bash-completion/completions/@PROG@
# TAB never runs @PROG@, except for values its author completes (@PROG@ __complete).

__@ID@_add() {
    local c
    for c in "$@"; do
        [[ $c == "${cur#[\'\"]}"* ]] && __@ID@_reply "$c"
    done
}

__@ID@_reply() {
    # NOTE: a value as the shell must read it (with\ space, semi\;colon, \$HOME); after an
    # opening quote, as it is (the quote holds it).
    if [[ $cur == [\'\"]* ]]; then
        COMPREPLY+=("$1")
    else
        local q
        printf -v q %q "$1"
        COMPREPLY+=("$q")
    fi
}

__@ID@_child() {
    case "$1|$2" in
@CHILD@
        *) REPLY="" ;;
    esac
}

__@ID@_option() {
    case "$1|$2" in
@OPTION@
        *) REPLY="" ;;
    esac
}

__@ID@_values() {
    case $1 in
@VALUES@
        *) return 1 ;;
    esac
}

__@ID@_children() {
    case $1 in
@CHILDREN@
        *) return 1 ;;
    esac
}

__@ID@_flags() {
    case $1 in
@FLAGS@
    esac
}

__@ID@_files() {
    local IFS=$'\n'
    compopt -o filenames 2>/dev/null
    COMPREPLY+=($(compgen -f -- "$cur"))
}

__@ID@_dynamic() {
    local line
    while IFS= read -r line; do
        [[ -n $line ]] && __@ID@_reply "${line%%$'\t'*}"
    done < <("${words[0]}" __complete "${words[@]:1:cword-1}" "${word#[\'\"]}" 2>/dev/null)
}

_@ID@_completion() {
    local cur word words cword REPLY node="" pos=0 rest="" want="" i w
    COMPREPLY=()
    if declare -F _get_comp_words_by_ref >/dev/null 2>&1; then
        _get_comp_words_by_ref -n =: cur words cword
    else
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
        cur=${COMP_WORDS[COMP_CWORD]}
    fi
    [[ $cur == "=" ]] && cur=""
    word=$cur
    for ((i = 1; i < cword; i++)); do
        w=${words[i]}
        if [[ -n $want ]]; then
            [[ $w == "=" ]] || want=""
            continue
        fi
        if [[ -n $rest ]]; then
            pos=$((pos + 1))
            continue
        fi
        case $w in
            --) rest=1 ;;
            -*=*) ;;
            -*) __@ID@_option "$node" "$w"; want=$REPLY ;;
            *)
                __@ID@_child "$node" "$w"
                if [[ -n $REPLY ]]; then node=$REPLY; else pos=$((pos + 1)); fi
                ;;
        esac
    done
    if [[ -n $want ]]; then
        __@ID@_values "$want"
    elif [[ -z $rest && $cur == -*=* ]]; then
        __@ID@_option "$node" "${cur%%=*}"
        cur=${cur#*=}
        [[ -n $REPLY ]] && __@ID@_values "$REPLY"
    elif [[ -z $rest && $cur == -* ]]; then
        __@ID@_flags "$node"
    elif ! __@ID@_values "$node#$pos" && ! __@ID@_values "$node#*" && [[ -z $rest ]]; then
        __@ID@_children "$node" || __@ID@_flags "$node"
    fi
    if declare -F __ltrim_colon_completions >/dev/null 2>&1; then
        __ltrim_colon_completions "$word"
    fi
    return 0
}

complete -F _@ID@_completion @PROG@
"""


_ZSH_SCRIPT = r"""#compdef @PROG@
# Generated by burgee: zsh completion for @PROG@, from the same model as the tool.
# Install: @PROG@ completion zsh > "${fpath[1]}/_@PROG@"  (then start a new zsh)
# TAB never runs @PROG@, except for values its author completes (@PROG@ __complete).

__@ID@_describe() {
    local -a values descs
    while (( $# )); do
        values+=("$1")
        if [[ -n $2 ]]; then descs+=("$1 -- $2"); else descs+=("$1"); fi
        shift 2
    done
    (( ${#values} )) && compadd -l -d descs -- "${values[@]}"
}

__@ID@_child() {
    case "$1|$2" in
@CHILD@
        (*) REPLY="" ;;
    esac
}

__@ID@_option() {
    case "$1|$2" in
@OPTION@
        (*) REPLY="" ;;
    esac
}

__@ID@_values() {
    case $1 in
@VALUES@
        (*) return 1 ;;
    esac
}

__@ID@_children() {
    case $1 in
@CHILDREN@
        (*) return 1 ;;
    esac
}

__@ID@_flags() {
    case $1 in
@FLAGS@
    esac
}

__@ID@_dynamic() {
    local line
    local -a values descs
    for line in "${(@f)$("${(Q)words[1]}" __complete "${(@Q)words[2,CURRENT-1]}" "$word"@+
 2>/dev/null)}"; do
        [[ -z $line ]] && continue
        values+=("${line%%$'\t'*}")
        if [[ $line == *$'\t'* ]]; then descs+=("${line%%$'\t'*} -- ${line#*$'\t'}");@+
 else descs+=("$line"); fi
    done
    (( ${#values} )) && compadd -l -d descs -- "${values[@]}"
}

_@ID@() {
    local cur=$PREFIX word=$PREFIX node="" pos=0 rest="" want="" w REPLY
    local -i i
    for (( i = 2; i < CURRENT; i++ )); do
        w=${(Q)words[i]}
        if [[ -n $want ]]; then
            want=""
            continue
        fi
        if [[ -n $rest ]]; then
            (( pos++ ))
            continue
        fi
        case $w in
            (--) rest=1 ;;
            (-*=*) ;;
            (-*) __@ID@_option "$node" "$w"; want=$REPLY ;;
            (*)
                __@ID@_child "$node" "$w"
                if [[ -n $REPLY ]]; then node=$REPLY; else (( pos++ )); fi
                ;;
        esac
    done
    if [[ -n $want ]]; then
        __@ID@_values "$want"
    elif [[ -z $rest && $cur == -*=* ]]; then
        __@ID@_option "$node" "${cur%%=*}"
        if [[ -n $REPLY ]]; then
            compset -P '*='
            __@ID@_values "$REPLY"
        fi
    elif [[ -z $rest && $cur == -* ]]; then
        __@ID@_flags "$node"
    elif ! __@ID@_values "$node#$pos" && ! __@ID@_values "$node#*" && [[ -z $rest ]]; then
        __@ID@_children "$node" || __@ID@_flags "$node"
    fi
    return 0
}

if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then
    _@ID@ "$@"
else
    compdef _@ID@ @PROG@
fi
"""


_FISH_SCRIPT = r"""# Generated by burgee: fish completion for @PROG@, from the same model@+
 as the tool.
# Install: @PROG@ completion fish > ~/.config/fish/completions/@PROG@.fish
# TAB never runs @PROG@, except for values its author completes (@PROG@ __complete).

function __@ID@_add --argument-names prefix
    set -e argv[1]
    for c in $argv
        printf "%s%s\n" "$prefix" $c
    end
end

function __@ID@_child --argument-names key
    switch $key
@CHILD@
    end
end

function __@ID@_option --argument-names key
    switch $key
@OPTION@
    end
end

function __@ID@_values --argument-names key cur prefix
    switch $key
@VALUES@
        case '*'
            return 1
    end
end

function __@ID@_children --argument-names node
    switch $node
@CHILDREN@
        case '*'
            return 1
    end
end

function __@ID@_flags --argument-names node
    switch $node
@FLAGS@
    end
end

function __@ID@_dynamic --argument-names prefix
    set -l tokens (commandline -opc)
    # NOTE: after an opening quote, the value typed so far is what follows it.
    set -l cur (string replace -r -- '^[\'"]' '' (commandline -ct))
    set -l program $tokens[1]
    set -e tokens[1]
    for line in ($program __complete $tokens "$cur" 2>/dev/null)
        test -n "$line"; and printf "%s%s\n" "$prefix" "$line"
    end
end

function __@ID@_complete
    set -l tokens (commandline -opc)
    set -l cur (string replace -r -- '^[\'"]' '' (commandline -ct))
    set -l node ''
    set -l pos 0
    set -l rest ''
    set -l want ''
    set -e tokens[1]
    for w in $tokens
        if test -n "$want"
            set want ''
            continue
        end
        if test -n "$rest"
            set pos (math $pos + 1)
            continue
        end
        switch $w
            case '--'
                set rest 1
            case '-*=*'
            case '-*'
                set want (__@ID@_option "$node|$w")
            case '*'
                set -l child (__@ID@_child "$node|$w")
                if test -n "$child"
                    set node $child
                else
                    set pos (math $pos + 1)
                end
        end
    end
    if test -n "$want"
        __@ID@_values $want "$cur" ''
    else if test -z "$rest"; and string match -q -- '-*=*' "$cur"
        set -l parts (string split -m 1 -- '=' "$cur")
        set -l key (__@ID@_option "$node|$parts[1]")
        test -n "$key"; and __@ID@_values $key "$parts[2]" "$parts[1]="
    else if test -z "$rest"; and string match -q -- '-*' "$cur"
        __@ID@_flags $node
    else if not __@ID@_values "$node#$pos" "$cur" ''; and not __@ID@_values "$node#+"@+
 "$cur" ''; and test -z "$rest"
        __@ID@_children $node; or __@ID@_flags $node
    end
end

complete -c @PROG@ -f -k -a '(__@ID@_complete)'
"""


_PWSH_SCRIPT = r"""# Generated by burgee: PowerShell completion for @PROG@, from the same@+
 model as the tool.
# Install: @PROG@ completion pwsh >> $PROFILE  (PowerShell 7.3 or later)
# TAB never runs @PROG@, except for values its author completes (@PROG@ __complete).

Register-ArgumentCompleter -Native -CommandName @QPROG@ -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)
    $children = @{
@CHILD@
    }
    $options = @{
@OPTION@
    }
    $values = @{
@VALUES@
    }
    $listing = @{
@CHILDREN@
    }
    $flags = @{
@FLAGS@
    }
    $words = @($commandAst.CommandElements | Where-Object { $_.Extent.EndOffset -lt@+
 $cursorPosition } | ForEach-Object { $_.ToString() })
    $node = ''; $pos = 0; $rest = $false; $want = ''
    foreach ($w in ($words | Select-Object -Skip 1)) {
        if ($want) { $want = ''; continue }
        if ($rest) { $pos++; continue }
        if ($w -eq '--') { $rest = $true }
        elseif ($w -like '-*=*') { }
        elseif ($w -like '-*') { $want = [string]$options["$node|$w"] }
        elseif ($children.ContainsKey("$node|$w")) { $node = $children["$node|$w"] }
        else { $pos++ }
    }
    $cur = $wordToComplete; $prefix = ''; $key = $null; $offer = @()
    if ($want) { $key = $want }
    elseif (-not $rest -and $cur -like '-*=*') {
        $flag, $cur = $cur -split '=', 2
        $prefix = "$flag="; $key = $options["$node|$flag"]
    }
    elseif (-not $rest -and $cur -like '-*') { $offer = $flags[$node] }
    elseif ($values.ContainsKey("$node#$pos")) { $key = "$node#$pos" }
    elseif ($values.ContainsKey("$node#*")) { $key = "$node#*" }
    elseif (-not $rest -and $listing.ContainsKey($node)) { $offer = $listing[$node] }
    elseif (-not $rest) { $offer = $flags[$node] }
    if ($key -and $values.ContainsKey($key)) {
        $spec = $values[$key]
        switch ($spec[0]) {
            'choice' { $offer = @($spec | Select-Object -Skip 1 | ForEach-Object { ,@($_, $_) }) }
            'file' {
                [System.Management.Automation.CompletionCompleters]::CompleteFilename($cur)
                return
            }
            'dynamic' {
                $program = $words[0]
                $before = @($words | Select-Object -Skip 1)
                $offer = @(& $program __complete @before $wordToComplete 2>$null |@+
 Where-Object { $_ } | ForEach-Object {
                    $parts = $_ -split "`t", 2
                    ,@($parts[0], $(if ($parts.Count -gt 1) { $parts[1] } else { $parts[0] }))
                })
            }
        }
    }
    foreach ($item in $offer) {
        if ($item[0].StartsWith($cur)) {
            $text = $prefix + $item[0]
            $tip = if ($item[1]) { $item[1] } else { $item[0] }
            [System.Management.Automation.CompletionResult]::new($text, $item[0],@+
 'ParameterValue', $tip)
        }
    }
}
"""
