# burgee: joins tail 370
# burgee: section argparse
# NOTE: help (`--help`, `help flags`) is argparse's or reads as its does.
"""Help as the command line shows it: the program's and a group's (`_group_help`), a
command's (argparse's, with `_command_epilog` and the tool-wide flags, `_tool_flags`), and
`help flags` (`_flags_help`).

Help as the command line shows it: it leads with the commands (a group's, `_group_help`, then
the options its commands share, `_shared_help`) or the options (a command's, argparse's; its
groups of options given apart in the usage line, `[--a A | --b B]`, and after the options, `at
most one of: --a, --b`, `_command_epilog`), then the tool-wide flags that apply, compactly by
group (`_compact_flags`; not those the command shadows, `_tool_flags`), and the program's exit
codes with the outcomes; `help flags` (each tool-wide flag explained, `_flags_help`). What reads
argv for a command's help goes to the `argparse` section.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from burgee.runtime.commandline.argv_parser import _new_parser, _terminal_width
from burgee.runtime.commandline.describe import _for_agents
from burgee.runtime.commandline.shells import _BUILTIN_COMMANDS
from burgee.runtime.core.errors import _builtin_errors
from burgee.runtime.core.flags import Flag, flags_at, grouped
from burgee.runtime.execution.quickargs import _BOOL_ACTION, _HIDDEN, _long
from burgee.runtime.execution.values import _apart_text, _question_lines

if TYPE_CHECKING:
    import argparse

    from burgee.runtime.core.context import _Command
    from burgee.runtime.program import Program


def _exit_codes(program: Program) -> str:
    """The root help's table of exit codes, from `program`'s error kinds and outcomes."""
    rows = sorted(
        {**_builtin_errors(program), **program.errors, **program.outcomes}.items(),
        key=lambda item: item[1][0],
    )
    return "exit codes:\n  0    success\n" + "".join(
        f"  {code:<4} {kind}{' (an outcome, not a failure)' if kind in program.outcomes else ''}\n"
        for kind, (code, _) in rows
    )


def _group_help(group: str, program: Program) -> str:
    """Help for `program` or one of its groups: what it does and what it contains, then its
    flags, compactly (as Click and Typer lead with the commands)."""
    prog = f"{program.name} {group}".strip()
    description = program.group_help.get(group, "") if group else program.description
    rows = []
    for name, summary in program.groups[group]:
        path = f"{group} {name}".lstrip()
        aliases = [a.rpartition(" ")[2] for a, p in program.aliases.items() if p == path]
        label = f"{name} ({', '.join(aliases)})" if aliases else name
        rows.append((label, summary + (" (the default command)" if path == program.root else "")))
    if not group:
        rows += _BUILTIN_COMMANDS.items()
        rows += [(word, summary) for word, (summary, _) in program.extra_commands.items()]
    shared = _shared_help(group, program) if program.shared else ""
    parts = [f"usage: {prog} [-h] [FLAGS]{' [OPTIONS]' if shared else ''} COMMAND ...\n"]
    if description.strip():
        parts.append(description.strip("\n") + "\n")
    parts.append("commands:\n" + _rows(rows))
    if shared:
        parts.append(shared)
    parts.append(_compact_flags(flags_at(not group, program.config, False), program))
    if not group:
        parts.append(_exit_codes(program))
        agents = _wrap(_for_agents(program.name), _terminal_width(), "  ")
        parts.append("\n".join(agents) + "\n")
    return "\n".join(parts)


def _shared_help(group: str, program: Program) -> str:
    """The options the commands under `group` of `program` share (`SHARED`: the program's and its
    groups' `options=`), as the first of those commands' help shows them: given before the command
    (here) or after it."""
    scopes = [scope for scope in program.shared if f"{group} ".startswith(f"{scope} ".lstrip())]
    spellings = {spelling for scope in scopes for spelling in program.shared[scope]}
    under = [
        row[3]
        for path, row in program.commands.items()
        if f"{path} ".startswith(f"{group} ".lstrip())
        and any(spellings.intersection(flags) for _, flags, _, _, _ in row[3])
    ]
    if not under:
        return ""
    rows = []
    for _, flags, _, _, options in under[0]:
        settings = dict(options)
        if not spellings.intersection(flags) or settings.get("help") == _HIDDEN:
            continue
        words = settings.get("metavar", _long(flags)[2:].upper().replace("-", "_"))
        if settings.get("action") in (_BOOL_ACTION, "count"):
            words = ""
        shown = " ".join(words) if isinstance(words, tuple) else words
        label = ", ".join(f"{flag} {shown}".rstrip() for flag in flags)
        text = str(settings.get("help", "")).replace("%%", "%")
        rows.append((label, text.partition(" (shared: ")[0]))
    if not rows:
        return ""
    return "options (given here, before the command, or after it):\n" + _rows(rows)


def _wrap(text: str, width: int, indent: str = "") -> list[str]:
    """The words of `text` in lines of at most `width` characters, each after the first
    starting with `indent`; a longer word has a line of its own, never cut (nor at its
    hyphens: a flag or a path stays whole). textwrap's wrap, without the `re` (and `enum`)
    it imports, which would cost `--help` a third of its start-up."""
    lines: list[str] = []
    words: list[str] = []
    used = 0
    for word in text.split():
        lead = len(indent) if lines else 0
        if words and lead + used + 1 + len(word) > width:
            lines.append((indent if lines else "") + " ".join(words))
            words, used = [], 0
        used += len(word) + (1 if words else 0)
        words.append(word)
    if words:
        lines.append((indent if lines else "") + " ".join(words))
    return lines


def _rows(rows: list[tuple[str, str]]) -> str:
    """Names and what each is, as argparse lays out options: the text from one column on,
    on the next line after a name too long for the first."""
    column = min(max(len(label) for label, _ in rows), 20) + 4
    width = max(_terminal_width() - column, 20)
    lines = []
    for label, text in rows:
        wrapped = _wrap(text, width) or [""]
        if len(label) + 4 > column:
            lines.append(f"  {label}\n")
        else:
            lines.append(f"  {label:<{column - 2}}{wrapped.pop(0)}\n")
        lines += [f"{'':<{column}}{line}\n" for line in wrapped]
    return "".join(lines)


def _compact_flags(flags: list[Flag], program: Program, shadowed: tuple[str, ...] = ()) -> str:
    """The tool-wide flags (of `program`) as help lists them after the commands or options:
    their spellings only, a line or two for each group (`help flags` explains each); none of
    `shadowed`."""
    width = _terminal_width()
    lines = [f"tool-wide flags ('{program.name} help flags' explains each):\n"]
    for group, members in grouped(flags):
        pieces = []
        for flag in members:
            names = "/".join(
                n for n in (_short(flag, program), flag.name) if n and n not in shadowed
            )
            if names:
                value = f"[{flag.metavar}]" if flag.optional else flag.metavar
                pieces.append(f"{names} {value}".rstrip())
        prefix = f"  {group + ':':<10}"
        rows: list[list[str]] = [[]]
        used = len(prefix)
        for index, spelled in enumerate(pieces):
            piece = spelled + ("," if index + 1 < len(pieces) else "")
            if rows[-1] and used + 1 + len(piece) > width:
                rows.append([])
                used = len(prefix)
            used += len(piece) + bool(rows[-1])
            rows[-1].append(piece)
        for index, row in enumerate(rows):
            if row:
                lines.append((prefix if index == 0 else " " * len(prefix)) + " ".join(row) + "\n")
    return "".join(lines)


def _short(flag: Flag, program: Program) -> str:
    """A tool-wide flag's short spelling: its own, or the program's for `--version`
    (`program(version_short="-V")`)."""
    return flag.short or (program.version_short if flag.name == "--version" else "")


def _flags_help(program: Program) -> str:
    """`PROG help flags`: every tool-wide flag explained, in its group."""
    parser = _new_parser(program, f"{program.name} help flags")
    formatter = parser._get_formatter()
    import textwrap

    about = (
        f"The flags {program.name} answers itself, before or after the command; a command's own"
        " option of the same spelling takes it over on that command. -h or --help shows the"
        " help of the tool, a group or a command."
    )
    formatter.add_text(textwrap.fill(about, _terminal_width()))
    for group, members in grouped(flags_at(True, program.config, True)):
        section = parser.add_argument_group(group)
        for flag in members:
            short = _short(flag, program)
            _add_flag(section, flag, (short, flag.name) if short else (flag.name,))
        formatter.start_section(group)
        formatter.add_arguments(section._group_actions)
        formatter.end_section()
    return formatter.format_help()


def _command_epilog(path: str, command: _Command, program: Program) -> str:
    """What a command's help shows after its options: its aliases, its examples, and the
    tool-wide flags that apply to it."""
    parts = []
    aliases = [a.rpartition(" ")[2] for a, p in program.aliases.items() if p == path]
    if aliases:
        parts.append(f"aliases: {', '.join(aliases)}\n")
    if command.exclusive:
        # NOTE: a hidden option stays out of help here too.
        longs = {
            name: _long(flags)
            for name, flags, _, _, options in program.commands[path][3]
            if flags and ("help", _HIDDEN) not in options
        }
        parts.append(
            "".join(
                _apart_text(tuple(longs[key] for key in keys if key in longs), required) + "\n"
                for keys, required in command.exclusive
            )
        )
    if command.questions:
        lines = _question_lines(command.questions)
        parts.append("questions it may ask:\n" + "".join(f"  {line}\n" for line in lines))
    if command.examples:
        parts.append("examples:\n" + "".join(f"  {line}\n" for line in command.examples))
    return "\n".join(parts)


def _tool_flags(
    parser: argparse.ArgumentParser, command: _Command, path: str, program: Program
) -> None:
    """A command's help lists the tool-wide flags that apply to it too (`FLAGS`), compactly
    after its own options, but those its own options take over (`SHADOWS`)."""
    shadowed = program.shadows.get(path, ())
    row = program.commands.get(path)
    required = (
        {name for name, flags, _, default, _ in row[3] if flags and default is ...} if row else ()
    )
    for action in parser._actions:
        if action.dest in required:
            # NOTE: shown as required (no brackets) in help only: the parser that reads
            # values must let an env var, a config file or a prompt give it.
            action.required = True
    # NOTE: the usage line shows each group of options given apart as argparse does
    # (`[-j PATH | --csv-out PATH]`, a required one in parentheses); the groups are taken off
    # before it parses: `values._apart` checks them, for every surface alike.
    actions = {action.dest: action for action in parser._actions if action.help != _HIDDEN}
    shown = []
    for keys, needed in command.exclusive:
        group = parser.add_mutually_exclusive_group(required=needed)
        # NOTE: never a hidden option (argparse's usage line trips over one in a group).
        group._group_actions.extend(actions[key] for key in keys if key in actions)
        shown.append(group)
    # NOTE: argparse's intermixed reading sets the usage line to the one it formats, and
    # %-formats it again: a choice `%` is written `%%` first.
    usage = parser.format_usage().partition("usage: ")[2].rstrip("\n")
    parser.usage = usage.replace("%", "%%")
    for group in shown:
        parser._mutually_exclusive_groups.remove(group)
    flags = _compact_flags(flags_at(False, program.config, command.yes), program, shadowed)
    parser.epilog = f"{parser.epilog}\n{flags}" if parser.epilog else flags


def _add_flag(parser: Any, flag: Flag, names: tuple[str, ...]) -> None:
    """One tool-wide flag in a help text (a parser's, or a group's of one)."""
    if not flag.metavar:
        parser.add_argument(*names, action="store_true", help=flag.help)
    elif flag.optional:
        parser.add_argument(*names, nargs="?", metavar=flag.metavar, help=flag.help)
    else:
        parser.add_argument(*names, metavar=flag.metavar, help=flag.help)
