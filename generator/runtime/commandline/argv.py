# burgee: joins tail 200
# burgee: section argparse
# burgee: always: _arguments_at _find _hoisted _named _passing _read_json_input _take_yes
# burgee: always: _tool_flag _unrelated _version_answers
"""The command line: the tool-wide flags taken out of argv, and the command found in the rest.

`_Invocation` (of this program, or another given, as `burgee gen` gives the examples check's;
first `_hoisted`: the shared options given before the command (`SHARED`) moved to right after
its name, where it reads them as its own; the tool-wide flags taken out of argv, by `FLAGS`, but
those the named command's options take over, `SHADOWS` (under `""` those of a root command that
is the program's only one), and none from where the named command's pass-through argument begins
(`_passing`, `_arguments_at`, the command's recorded arguments); `--config` only where
`Program.config` says the program reads a config file; the whole of argv is read before its
first problem is raised, so the error answers in JSON whichever JSON spelling came later;
`_unrelated`: a flag without the one it goes with; `config()`), `_find` (the command path, in
this program or one given: aliases (`ALIASES`), the root command (`ROOT`, `ROOT_MODE`), "did you
mean"), `_take_yes`, `--json` input; `_keep_argv_secrets`: before a usage error is written, the
values argv gives any command's secret options are secrets.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from burgee.runtime.commandline.argv_parser import _new_parser
from burgee.runtime.commandline.shells import _TOOL_WORDS
from burgee.runtime.core.context import _secret
from burgee.runtime.core.errors import UsageError
from burgee.runtime.core.flags import (
    BATCH_JOBS,
    FORMATS,
    HELP_FLAGS,
    _either,
    _flag,
    confirm_flags,
)
from burgee.runtime.core.jsonread import _load_json
from burgee.runtime.core.wording import _expected, _one_of
from burgee.runtime.execution.quickargs import _flag_like, _pass_start, _recorded, _Recorder
from burgee.runtime.execution.table import _command
from burgee.runtime.rows import _CommandRow

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from burgee.runtime.core.flags import Flag
    from burgee.runtime.program import Program


class _Invocation:
    """The tool-wide flags (`FLAGS`), taken out of argv wherever they appear before `--`, but
    those that the command named first takes over with its own options (`SHADOWS`; under ""
    those of a program whose only command is its root, which no word names)."""

    def __init__(
        self,
        argv: Sequence[str],
        program: Program,
        *,
        strict: bool = True,
        arguments: Callable[[str], _Recorder | None] | None = None,
    ) -> None:
        """Read `argv`; its first problem is raised, or (`strict=False`) kept in `problem`
        once the whole of argv is read, so the error itself answers in JSON when any of the
        JSON spellings came after the bad flag (`--timeout x -o json`)."""
        #: The program the run is of (`burgee gen` parses examples with the one it writes).
        self.program = program
        table = program.shadows
        reads_config = program.config
        #: The arguments of the command at a path as typed (`_arguments_at`, or another
        #: program's): where a pass-through argument begins, the tool's flags end.
        lookup = arguments or (lambda named: _arguments_at(named, program))
        self.json = False
        self.json_input: str | None = None
        self.debug = False
        self.version = False
        #: `--version` given before any word of a command (`tool --version build`): the
        #: version is the answer, whatever follows, as Click's group and argparse read it.
        self.version_first = False
        self.mcp = False
        self.print_config = False
        self.timeout: float | None = None
        #: `--batch`: None when not batching, "" for stdin, else a file name.
        self.batch: str | None = None
        self.jobs = BATCH_JOBS
        #: `--max-output`: None when not given (the command's or the default applies).
        self.max_output: int | None = None
        self.spill_dir: str | None = None
        self.as_completed = self.allow_destructive = False
        #: `--answer NAME=VALUE`: the answers to the questions a command asks, by name.
        self.answers: dict[str, str] = {}
        self.rest: list[str] = []
        #: `--schema`, `--llms`, `--field`, `--explain`, `--config`, `--skill` and their values.
        self.asked: dict[str, str] = {}
        #: The first problem with argv (`strict=False`).
        self.problem: UsageError | None = None
        given: list[Flag] = []
        spread = program.shared
        if spread:
            tokens = _hoisted(
                list(argv), reads_config, spread, lambda path: _named(path, program), program.root
            )
        else:
            tokens = list(argv)
        index = 0
        #: The spellings the command named so far takes over (`SHADOWS`): a root command's
        #: beside other commands when the line reaches it (`_reaches_root`).
        shadowed: tuple[str, ...] = table.get("", ())
        beside = program.root_mode in ("words", "flags") and program.root in table
        if beside and _reaches_root(tokens, program):
            shadowed = table[program.root]
        #: The arguments of the command named, once it has a pass-through argument, and
        #: where its words begin in `rest` (`Argument(passthrough=True)`).
        alone = program.root_mode == "alone"
        passing, begins = _passing(lookup, program.root, 0, program) if alone else (None, 0)
        while index < len(tokens):
            token = tokens[index]
            index += 1
            if passing is not None:
                words = self.rest[begins:]
                if _pass_start(passing, [*words, token]) <= len(words):
                    self.rest.extend(tokens[index - 1 :])
                    break
            if token == "--":
                named = " ".join(word for word in self.rest if word[:1] != "-")
                if _names_command(named, tokens[index : index + 1], program):
                    # NOTE: `--` ends a group's own options, and the word after it still names
                    # the command, whose words follow (its options, the tool's flags): Click's
                    # group and argparse read it so.
                    continue
                self.rest.extend(tokens[index - 1 :])
                break
            name, has_value, value = token.partition("=")
            if token[:2] == "-o" and token[2:] in FORMATS:
                name, has_value, value = "-o", "=", token[2:]
            worded = any(word[:1] != "-" for word in self.rest)
            flag = _tool_flag(name, program)
            if name in shadowed and not (beside and not worded and flag and flag.dest == "version"):
                # NOTE: a root command beside others takes a tool flag over once the line
                # reaches it, but --version before any word is the tool's, as -h is help there
                flag = None
            if flag is None:
                self.rest.append(token)
                if token[:1] != "-" and (not shadowed or passing is None):
                    named = " ".join(word for word in self.rest if word[:1] != "-")
                    shadowed = shadowed or table.get(named, ())
                    if passing is None and not alone:
                        passing, begins = _passing(lookup, named, len(self.rest), program)
                continue
            given.append(flag)
            if flag.name == "--batch":
                # NOTE: the file is optional (stdin otherwise); no command may follow.
                # NOTE: `-` is stdin, as for `--json -`.
                if not has_value and index < len(tokens) and flag.takes(tokens[index]):
                    has_value, value = "=", tokens[index]
                    index += 1
                self.batch = value if has_value and value != "-" else ""
                continue
            if flag.name == "--json":
                # NOTE: the input is optional; a next word counts only when it looks like one.
                if not has_value and index < len(tokens) and flag.takes(tokens[index]):
                    has_value, value = "=", tokens[index]
                    index += 1
                self.json = True
                if has_value:
                    if self.json_input is not None:
                        self.problem = self.problem or UsageError("--json takes one input")
                    self.json_input = value
                continue
            try:
                if flag.metavar and not has_value:
                    # NOTE: another of the tool's flags is not a value (`--field --json`).
                    ended = index >= len(tokens)
                    if ended or _flag(tokens[index].partition("=")[0], reads_config) is not None:
                        raise UsageError(f"{name} needs a value")
                    value = tokens[index]
                    index += 1
                elif has_value and not flag.metavar:
                    raise UsageError(f"{name} takes no value")
                self._take(flag, value)
                self.version_first = self.version_first or (flag.dest == "version" and not worded)
            except UsageError as error:
                self.problem = self.problem or error
        self.problem = self.problem or _unrelated(given, self.rest)
        if strict and self.problem is not None:
            raise self.problem

    def config(self) -> str | None:
        """`--config PATH`, when given (a tool-wide flag only where the program reads a config
        file: elsewhere it is no flag of the tool's, and a command may take it)."""
        return self.asked.get("--config")

    def _take(self, flag: Flag, value: str) -> None:
        if flag.choices and value not in flag.choices:
            raise UsageError(f"{flag.name}: {_expected(_one_of(flag.choices), value)}")
        if flag.name == "--answer":
            key, equals, text = value.partition("=")
            if not (key and equals):
                raise UsageError(f"--answer: {_expected('NAME=VALUE', value)}")
            self.answers[key] = text
            return
        try:
            read = flag.read(value)
        except ValueError as error:
            raise UsageError(f"{flag.name}: {_expected(str(error), value)}") from None
        if flag.name == "--output":
            read = read == "json"
        if flag.dest:
            setattr(self, flag.dest, read)
        else:
            self.asked[flag.name] = value


def _version_answers(rest: list[str], program: Program) -> bool:
    """Whether the tool's `--version` in a line that names a command (or reaches the root one)
    is the answer, as Click reads an eager `--version` once the words before it parse. A
    group's, given before any word (`--version_first`), is read before its command is looked
    up (`tool --version build x`, `tool --version nope`); an unknown option before the first
    word is the group's error, but where a root command beside the others takes it
    (click-default-group's group ignores unknown options). A program's only command's, in any
    place, once every option of the line is one of its own, with its value (`yamlfix a.yaml
    --version`; `--version --bogus` is a usage error)."""
    if program.root_mode != "alone":
        first = rest[0] if rest else ""
        return program.root_mode in ("words", "flags") or first[:1] != "-" or first == "-"
    path = program.root
    command = _command(program, path)
    if command is None:
        return False
    parser = _new_parser(program, program.name)
    command.build(parser)
    actions = parser._option_string_actions
    index = 0
    while index < len(rest):
        word = rest[index]
        index += 1
        if word == "--":
            return True
        if word[:1] != "-" or word == "-":
            continue
        name, has_value, _ = word.partition("=")
        found = actions.get(name)
        if found is None and name[:2] != "--" and len(name) > 2:
            found, has_value = actions.get(name[:2]), "="  # NOTE: `-Xvalue`, `-fsv`
        if found is None:
            return False
        takes = found.nargs if isinstance(found.nargs, int) else int(found.nargs in (None, "+"))
        if takes and not has_value:
            index += takes
    return index <= len(rest)


def _reaches_root(tokens: list[str], program: Program) -> bool:
    """Whether a line reaches the root command of a program that has others: read with the
    tool-wide flags' meaning, its first word names no command (`tool -o json build` runs
    `build`, so `-o` is the tool's there; `tool -o`, `tool -o intro` reach the root, which
    takes `-o` over: `Option(..., shadows=True)`)."""
    index = 0
    while index < len(tokens):
        word = tokens[index]
        index += 1
        if word == "--":
            return not _names_command("", tokens[index : index + 1], program)
        if word[:1] != "-":
            named = any(
                word in names for names in (program.commands, program.groups, program.aliases)
            )
            return not (named or word in program.extra_commands or word in _TOOL_WORDS)
        name, has_value, _ = word.partition("=")
        flag = _tool_flag(name, program)
        valued = flag is not None and flag.metavar != "" and not has_value
        if flag is not None and valued and index < len(tokens) and flag.takes(tokens[index]):
            index += 1
    return True


def _tool_flag(name: str, program: Program) -> Flag | None:
    """The tool-wide flag `name` spells in `program`: its short `--version` too
    (`program(version_short="-V")`), `--config` where it reads a config file."""
    if name and name == program.version_short:
        name = "--version"
    return _flag(name, program.config)


def _named(path: str, program: Program) -> str:
    """What the words `path` name in `program`: "command" (an alias's too), "group", or ""."""
    path = program.aliases.get(path, path)
    return "command" if path in program.commands else "group" if path in program.groups else ""


def _hoisted(
    tokens: list[str],
    reads_config: bool,
    shared: dict[str, dict[str, int]],
    named: Callable[[str], str],
    root: str,
    *,
    keep: bool = False,
) -> list[str]:
    """argv with the shared options given before the command (`tool -v clone src`, `SHARED`:
    the program's and each group's `options=`) moved to right after the command's name, where
    the command reads them as its own: given there too, it is as if given twice (the later
    value wins, a count adds up, a list takes both). When no command is named, they are left
    out after a group's name (they mean nothing there), or kept where they are (`keep`, or the
    `root` command's: the name of the program's, "" for none, from the program being read,
    which is gen's when gen checks an example)."""
    node = ""
    spellings = shared.get("", {})
    kept: list[str] = []
    moved: list[str] = []
    index = 0
    while index < len(tokens):
        word = tokens[index]
        index += 1
        name, has_value, _ = word.partition("=")
        takes = spellings.get(name)
        if takes is None and name[:1] == "-" and name[1:2] != "-" and len(name) > 2:
            # NOTE: `-vvv` (each a shared flag), `-Hvalue` (a short one given its value).
            short = spellings.get(name[:2])
            if short or all(spellings.get(f"-{c}") == 0 for c in name[1:]):
                takes, has_value = 0, "="
        if takes is not None:
            count = 0 if has_value else takes
            moved += tokens[index - 1 : index + count]
            index += count
            continue
        if word in HELP_FLAGS:
            index -= 1
            break
        if word == "--":
            return tokens
        if word[:1] == "-":
            kept.append(word)
            flag = _flag(name, reads_config)
            # NOTE: a tool-wide flag's value is no command's name (`-o json`, `--json '{}'`).
            valued = flag is not None and flag.metavar != "" and not has_value
            if flag is not None and valued and index < len(tokens) and flag.takes(tokens[index]):
                kept.append(tokens[index])
                index += 1
            continue
        child = f"{node} {word}".lstrip()
        what = named(child)
        if what == "command":
            return [*kept, word, *moved, *tokens[index:]]
        if what != "group":
            return tokens  # NOTE: the root command's words, or an unknown command
        kept.append(word)
        node = child
        spellings = {**spellings, **shared.get(child, {})}
    if keep or (not node and root):
        return tokens  # NOTE: the root command's options
    # NOTE: a group named and no command (its help, or a missing command): the shared
    # options mean nothing there, and are dropped, as Click reads `tool -v remote --help`.
    return [*kept, *tokens[index:]]


def _arguments_at(named: str, program: Program) -> _Recorder | None:
    """The arguments of the command (or alias) of `program` at the path `named`, as typed."""
    path = program.aliases.get(named, named)
    command = _command(program, path) if path in program.commands else None
    return _recorded(command) if command is not None else None


def _passing(
    lookup: Callable[[str], _Recorder | None], named: str, end: int, program: Program
) -> tuple[_Recorder | None, int]:
    """The arguments of the command the words `named` name, when it has a pass-through argument,
    and where its own words begin in argv's rest (`end`, past the command's words): the root
    command's, from the start, when the first word names no command."""
    found = lookup(named)
    # NOTE: a first word that names nothing is the root command's (`_find`); the tool's own
    # words (`schema`, `output`, `prompt`, ...) come first (`cli.run`).
    unnamed = not any(
        named in names
        for names in (program.commands, program.groups, program.aliases, program.extra_commands)
    )
    unnamed = unnamed and named not in _TOOL_WORDS
    if found is None and program.root_mode not in ("", "empty") and " " not in named and unnamed:
        found, end = lookup(program.root), 0
    if found is None or found.passthrough is None:
        return None, 0
    return found, end


def _unrelated(given: list[Flag], rest: list[str]) -> UsageError | None:
    """A flag given without one it goes with (a flag, or the command `rest` names), or with
    one it cannot be given with."""
    names = {flag.name for flag in given}
    if rest:
        names.add(rest[0])
    for flag in given:
        if flag.goes_with and names.isdisjoint(flag.goes_with):
            return UsageError(f"{flag.name} goes with {_either(flag.goes_with)}")
        for other in flag.not_with:
            if other in names:
                return UsageError(f"{flag.name} cannot be given with {other}")
    return None


def _keep_argv_secrets(argv: Sequence[str], program: Program) -> None:
    """Before a usage error is written: every value argv gives an option that is secret in
    any command is a secret (`_SECRETS`), so no message shows it, whichever words it quotes
    (an option given before its command, the words after a command `--schema` does not know,
    a word `--json` input leaves over). Only on an error: a run that succeeds reads each
    secret as it converts it (`values._keep_secret`)."""
    #: Each secret option's flags: its name, and how many words it takes (-1: every word up to
    #: the next flag, as `nargs="+"` and `"*"` take them).
    takes: dict[str, tuple[str, int]] = {}
    for row in program.commands.values():
        for each in _CommandRow(row).inputs:
            settings = dict(each.options)
            if settings.get("secret"):
                nargs = settings.get("nargs", 1)
                for flag in each.flags:
                    takes[flag] = (each.name, nargs if isinstance(nargs, int) else -1)
    if not takes:
        return
    index = 0
    while index < len(argv) and argv[index] != "--":
        word = argv[index]
        index += 1
        flag, has_value, value = word.partition("=")
        if flag not in takes and word[:2] in takes and word[:2] != "--":
            flag, has_value, value = word[:2], "=", word[2:].removeprefix("=")
        if flag not in takes:
            continue
        name, count = takes[flag]
        # NOTE: a tool-wide flag is never an option's value (`--token --json`): the tool
        # takes it out first.
        if count < 0:
            count = next(
                (n for n, w in enumerate(argv[index:]) if _flag_like(w)), len(argv) - index
            )
        values = [value] if has_value else argv[index : index + count]
        for text in values:
            if text and _flag(text.partition("=")[0]) is None:
                _secret(text, name)


def _find(tokens: list[str], program: Program) -> tuple[str, list[str]]:
    """The longest command or group path at the start of `tokens` (an alias read as the
    command it names), and what follows it; the root command when argv names none. In
    `program` (`burgee gen` finds the commands of examples with the one it writes).
    """
    if program.root_mode == "alone":
        # NOTE: the program's only command is its root: there is no subcommand level.
        return program.root, tokens
    node = ""
    index = 0
    while index < len(tokens) and node in program.groups:
        token = tokens[index]
        if token.startswith("-"):
            following = tokens[index + 1] if index + 1 < len(tokens) else ""
            if token != "--" or not following or (not node and program.root):
                break
            # NOTE: a group's `--` before a word that names none of its commands (`_Invocation`
            # drops one before a command): that word is still where its command goes.
            index += 1
            token = following
        child = f"{node} {token}".lstrip()
        child = program.aliases.get(child, child)
        if child not in program.commands and child not in program.groups:
            if not node and program.root_mode == "words":
                return program.root, tokens  # NOTE: not a command: the root command's argument
            names = [name for name, _ in program.groups[node]]
            names += [a.rpartition(" ")[2] for a in program.aliases if a.rpartition(" ")[0] == node]
            raise UsageError(f"unknown command {token!r}", hint=_did_you_mean(token, names))
        node = child
        index += 1
    # NOTE: a default command (`program(default=)`) runs only when argv is empty.
    reaches = program.root_mode != "empty" or not tokens
    if not node and program.root and reaches and not (tokens and tokens[0] in HELP_FLAGS):
        return program.root, tokens
    return node, tokens[index:]


def _names_command(node: str, word: list[str], program: Program) -> bool:
    """Whether `word` (one word, or none) names a command or a group under the group `node`
    (`tool -- build`, `tool remote -- add`)."""
    if not word or not word[0] or node not in program.groups:
        return False
    child = f"{node} {word[0]}".lstrip()
    child = program.aliases.get(child, child)
    return child in program.commands or child in program.groups


def _did_you_mean(word: str, names: list[str], otherwise: str | None = None) -> str:
    """`did you mean 'list'?` for the closest of `names`, else `otherwise` (by default the list
    of them)."""
    import difflib

    close = difflib.get_close_matches(word, names, n=1)
    if close:
        return f"did you mean '{close[0]}'?"
    return otherwise if otherwise is not None else f"commands: {', '.join(names)}"


def _take_yes(rest: list[str]) -> tuple[bool, list[str]]:
    """The confirmation flag (`--yes`/`-y`) of a command that asks first, taken out of its
    words (before `--`)."""
    spellings = confirm_flags()
    kept: list[str] = []
    yes = False
    for index, word in enumerate(rest):
        if word == "--":
            kept += rest[index:]
            break
        if word in spellings:
            yes = True
        else:
            kept.append(word)
    return yes, kept


def _read_json_input(text: str) -> dict[str, Any]:
    """The `--json` input: a JSON object keyed by parameter name (`-` reads it from stdin)."""
    if text == "-":
        text = sys.stdin.read()
    try:
        data = _load_json(text)
    except ValueError as error:
        raise UsageError(f"--json input is not valid JSON: {error}") from None
    except RecursionError:
        raise UsageError("--json input is nested too deeply") from None
    if not isinstance(data, dict):
        many = 'one call takes one object; --batch runs many: a line {"command": ..., "input": {}}'
        many += " each"
        raise UsageError(
            "--json input must be a JSON object whose keys are parameter names",
            hint=many if isinstance(data, list) else None,
        )
    return data
