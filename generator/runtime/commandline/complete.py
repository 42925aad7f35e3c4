# burgee: joins tail 250
# burgee: section describe
"""Shell completion (`completion SHELL`, the `__complete` protocol) and the Agent Skill.

`completion SHELL` and `completion --help` (`_builtin`), the `__complete` protocol (dynamic
`complete=` values, after an alias and for the root command's words too, found as argv finds the
command, shared options before it too), `--skill`; `_offered`, the one place a `complete=`
function is called (after the handlers' waiting imports, `table._import_once`, unless gen found
that it uses none of them: `_FREE_COMPLETERS`) and its failure contained (for the shell and for
MCP's `completion/complete`).
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

from burgee.runtime.commandline.argv import _hoisted, _named
from burgee.runtime.commandline.shells import _SHELLS, _completion_script
from burgee.runtime.core.embedded import _document
from burgee.runtime.core.errors import UsageError, _from_ctrl_c, _invoked_as
from burgee.runtime.core.flags import HELP_FLAGS, _flag
from burgee.runtime.core.jsonread import _load_json
from burgee.runtime.execution.quickargs import _flag_like
from burgee.runtime.execution.table import _IMPORTED, _import_once
from burgee.runtime.rows import _SlotRow

if TYPE_CHECKING:
    from collections.abc import Callable

    from burgee.runtime.program import Program

#: Words answered before argv is parsed at all.
_BUILTINS = ("completion", "__complete")


def _builtin(args: list[str], program: Program) -> int:
    """`completion SHELL` and `__complete WORD...` (answered without parsing argv), and
    `--skill` (wherever it is, once argv is read), of `program`."""
    if args[0] == "__complete":
        return _complete(args[1:], program)
    if args[0] == "--skill":
        if len(args) > 1:
            raise UsageError(f"--skill takes nothing more, not {args[1]!r}")
        sys.stdout.write(_document("skill", program))
        return 0
    rest = args[1:]
    if not rest or rest[0] in HELP_FLAGS:
        if not rest:
            raise UsageError("missing shell", hint=f"shells: {', '.join(_SHELLS)}")
        sys.stdout.write(_completion_usage(*_completed(program.name)))
        return 0
    if rest[0] not in _SHELLS or len(rest) > 1:
        raise UsageError(f"unknown shell {rest[-1]!r}", hint=f"shells: {', '.join(_SHELLS)}")
    table = _load_json(_document("completion", program))
    # NOTE: the scripts complete the program's name, as `gen --completions` writes them:
    # printed by `python tool.py` too, they are installed with the tool under that name.
    sys.stdout.write(_completion_script(rest[0], program.name, table, program.config))
    return 0


def _completed(name: str) -> tuple[str, str]:
    """The command name the completion scripts complete (the tool's `name`), and the words that
    run the tool as it was just run (`_invoked_as`; the name when installed under it, or
    imported)."""
    import shlex

    words = _invoked_as()
    return name, shlex.join(words) if words else name


def _completion_usage(name: str, run: str | None = None) -> str:
    """`PROG completion --help`: what the scripts do and how to install each one; `run`: the
    words that run the tool (`_completed`), when not its `name`."""
    run = run or name
    note = ""
    if run != name:
        note = (
            f"The scripts complete the command {name!r}, which this shell has not: install the\n"
            f"tool under that name (a package's script, or a link named {name} on PATH); TAB\n"
            f"after {run} completes nothing.\n\n"
        )
    return (
        f"usage: {run} completion {{{','.join(_SHELLS)}}}\n\n"
        f"Print the shell completion script of {name}. It completes commands, groups, options,\n"
        f"choices and file names; pressing TAB never runs {name}, except for values its author\n"
        f"completes with a function (through '{name} __complete').\n\n{note}"
        "install:\n"
        f"  bash  {run} completion bash > ~/.local/share/bash-completion/completions/{name}\n"
        f'        (with the bash-completion package; or add  eval "$({run} completion bash)"'
        "  to ~/.bashrc)\n"
        f'  zsh   {run} completion zsh > "${{fpath[1]}}/_{name}"\n'
        "        (any directory on $fpath, with compinit in ~/.zshrc; then start a new zsh)\n"
        f"  fish  {run} completion fish > ~/.config/fish/completions/{name}.fish\n"
        f"  pwsh  {run} completion pwsh >> $PROFILE   (PowerShell 7.3 or later)\n"
    )


def _complete(words: list[str], program: Program) -> int:
    """Print the values a `complete=` function offers for the last word; never fail."""
    try:
        found = program.complete_values(words, program)
    except Exception:  # noqa: BLE001
        # NOTE: TAB must never print an error, for words it cannot read either.
        found = []
    sys.stdout.write("".join(f"{line}\n" for line in found))
    return 0


def _candidates(words: list[str], program: Program) -> list[str]:
    """What the `complete=` function of the value being typed offers (a tool whose options
    have such functions answers `__complete` with this; see `program._complete_values`)."""
    if not words:
        return []
    partial, before = words[-1], words[:-1]
    if program.shared:

        def named(path: str) -> str:
            return _named(path, program)

        # NOTE: the shared options given before the command are its own (`argv._hoisted`).
        before = _hoisted(before, program.config, program.shared, named, program.root, keep=True)
    node, index = "", 0
    # NOTE: the command path as argv finds it (`argv._find`): an alias is the command it names,
    # and words that name no command are the root command's, if the program has one.
    while index < len(before) and node in program.groups and program.root_mode != "alone":
        token = before[index]
        name, has_value, _ = token.partition("=")
        tool_flag = _flag(name, program.config)
        if tool_flag is not None:
            following = before[index + 1] if index + 1 < len(before) else partial
            index += 2 if not has_value and tool_flag.takes(following) else 1
            continue
        if token == "--" and index + 1 < len(before):
            # NOTE: a group's `--` ends its own options; the word after it still names the
            # command, as argv reads it (`argv._Invocation`)
            after = f"{node} {before[index + 1]}".lstrip()
            if program.aliases.get(after, after) in (*program.commands, *program.groups):
                index += 1
                continue
        child = f"{node} {token}".lstrip()
        child = program.aliases.get(child, child)
        if token.startswith("-") or (child not in program.commands and child not in program.groups):
            break
        node = child
        index += 1
    if index > len(before):
        return []  # NOTE: the value of a tool-wide flag (`--timeout <TAB>`)
    if node not in program.commands and not node and program.root_mode not in ("", "empty"):
        node = program.root
    #: A group named and no command: only the options its commands share complete (the
    #: values of any command under it, which all take them).
    sharing = node not in program.commands and bool(program.shared)
    if sharing:
        group = ""
        for word in before:
            group = (
                f"{group} {word}".lstrip()
                if f"{group} {word}".lstrip() in program.groups
                else group
            )
        node = next(
            (path for path in program.commands if path.startswith(f"{group} ".lstrip())), ""
        )
    slotted = program.completion_slots
    slots = slotted(node) if slotted is not None and node in program.commands else ()
    if not slots:
        return []
    slot_rows = tuple(map(_SlotRow, slots))
    by_flag = {flag: slot for slot in slot_rows for flag in slot.flags}
    arguments = [slot for slot in slot_rows if slot.mode in ("arg", "args") and not sharing]
    options: dict[str, Any] = {}
    raw: dict[str, Any] = {}
    positionals: list[Any] = []
    want: Any = None
    #: How many more words `want` takes (-1: every word up to a flag, `nargs="+"`).
    left = 0
    rest = False
    #: A tool-wide flag just seen, whose value the next word may be.
    pending: Any = None
    for token in before[index:]:
        if pending is not None:
            taken, pending = pending.takes(token), None
            if taken:
                continue
        if want is not None and left < 0 and _flag_like(token):
            want = None  # NOTE: the words of an option of several end at a flag
        if want is not None:
            _remember(want, token, options, raw)
            left -= 1
            want = want if left else None
        elif rest or not token.startswith("-") or token == "-":
            slot = arguments[min(len(positionals), len(arguments) - 1)] if arguments else None
            positionals.append(_coerce(slot.convert, token) if slot else token)
            if slot is not None:
                _remember(slot, token, options, raw, into=False)
        elif token == "--":
            rest = True
        else:
            flag, has_value, value = token.partition("=")
            slot = by_flag.get(flag)
            if slot is None:
                # NOTE: the value of a tool-wide flag (`--timeout 5`) is not an argument's.
                pending = _flag(flag, program.config) if not has_value else None
                continue
            if slot.mode in ("flag", "off"):
                options[slot.name] = slot.mode == "flag"
            elif has_value:
                _remember(slot, value, options, raw)
            else:
                want, left = slot, slot.words
    if want is not None and left < 0 and _flag_like(partial):
        want = None
    if pending is not None and pending.takes(partial):
        return []  # NOTE: the value of a tool-wide flag
    if want is None and not rest and partial.startswith("-") and "=" in partial:
        flag, _, partial = partial.partition("=")
        want = by_flag.get(flag)
    elif want is None and not (partial.startswith("-") and not rest) and arguments:
        want = arguments[min(len(positionals), len(arguments) - 1)]
        if want.mode == "arg" and len(positionals) >= len(arguments):
            want = None
    if want is None or want.complete is None:
        return []
    context = {"path": node, "options": options, "positionals": positionals, "raw": raw}
    stdout = sys.stdout
    # NOTE: a completer's prints must not reach the shell.
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115
    try:
        offered = _offered(want.complete, want.arity, partial, context, program)
    finally:
        sys.stdout.close()
        sys.stdout = stdout
    return [value + (f"\t{text}" if text else "") for value, text in offered]


def _offered(
    complete: Callable[..., Any],
    arity: int,
    partial: str,
    context: dict[str, Any],
    program: Program,
) -> list[tuple[str, str]]:
    """What a `complete=` function offers for `partial`, as (value, description) pairs: the
    values that start with `partial`, on one line each; nothing when the function fails
    (TAB in a shell and `completion/complete` over MCP both call it here)."""
    found = []
    try:
        # NOTE: a completer that uses none of the handlers' waiting imports runs without
        # them: TAB stays as quick as the tool's start (gen's `_FREE_COMPLETERS`).
        free = getattr(complete, "__name__", "") in program.free_completers
        if program.import_handlers is not None and not _IMPORTED and not free:
            _import_once(program)
        offered = complete(partial) if arity == 1 else complete(partial, context)
        for item in offered or ():
            value, description = (item if isinstance(item, tuple) else (item, ""))[:2]
            value = str(value)
            if value.startswith(partial) and "\n" not in value:
                found.append((value, " ".join(str(description).split())))
    except KeyboardInterrupt as error:
        # NOTE: the completer's own KeyboardInterrupt, as any failure; a real Ctrl-C (recorded
        # in `_SIGINTS`) still stops the MCP server.
        if _from_ctrl_c(error):
            raise
        return []
    except Exception:  # noqa: BLE001
        # NOTE: a completer that raises offers nothing: TAB never prints an error, and an MCP
        # client gets an empty list, as it would from a completer with nothing to offer.
        return []
    return found


def _coerce(convert: Callable[[str], Any] | None, text: str) -> Any:
    """A typed value converted as a run converts it, or as typed where that fails (or where
    nothing converts it: a bool's off form)."""
    if convert is None:
        return text
    try:
        return convert(text)
    except (ValueError, TypeError):
        return text


def _remember(
    slot: _SlotRow,
    text: str,
    options: dict[str, Any],
    raw: dict[str, Any],
    into: bool = True,
) -> None:
    """Record one typed value: coerced like a run coerces it, or as typed where that fails."""
    name = slot.name
    if slot.mode in ("append", "args"):
        raw.setdefault(name, []).append(text)
        if into:
            options.setdefault(name, []).append(_coerce(slot.convert, text))
    else:
        raw[name] = text
        if into:
            options[name] = _coerce(slot.convert, text)
