# burgee: joins tail 190
# burgee: section argparse
"""argparse as a tool uses it (`_new_parser`): its errors are usage errors (an unknown flag
with a "did you mean", a value that may be a secret counted, not shown), help as wide as the
terminal, and the words after `--` kept as words.

`_new_parser`, argparse parsers (a bool option's flags: `Switch`, its names True and its `off`
names False) whose errors are usage errors (with the closest flag as the hint, `_closest_flag`:
of the command's own and the tool-wide ones that apply to it (`flags_at`; `confirm`: `--yes`),
case aside, a flag's `aliases` too, a one-letter short flag nobody has naming the long ones of
its letter; also the hint of an unknown option at a group; a word after an unknown flag, or
holding a JSON string, counted, not shown, `_unrecognized`; of a command that takes a secret,
`secret` (`_Command.secret`), no word left over and no positional's value not among its choices
shown; a converter's problem with such a value: `values._Call.unshown`, `wording._unquoted`) and
that read a line intermixed (options among positionals; a pass-through argument's words cut off
first and given to it as they are; the words after `--` masked while argparse reads them,
`_unmasked`; a `*` positional, a pass-through one too, given the parser's default so that
argparse does not name it among the missing required ones); help as wide as the terminal
(`_terminal_width`). All of it in the `argparse` section.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

from burgee.runtime.core.errors import UsageError, _run_hint
from burgee.runtime.core.flags import NO_CONFIRM, _either, confirm_flags, flags_at
from burgee.runtime.core.wording import _SECRET_SAYS, _expected, _one_of
from burgee.runtime.execution.quickargs import (
    _BOOL_ACTION,
    _HIDDEN,
    _PASS,
    _negatives,
    _pass_start,
    _Recorder,
)

if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence
    from typing import NoReturn

    from burgee.runtime.program import Program


def _terminal_width() -> int:
    try:
        size = os.get_terminal_size(sys.stdout.fileno()).columns
    except (OSError, ValueError, AttributeError):
        # NOTE: AttributeError: stdout replaced by one without a file descriptor (the MCP
        # server's, while a handler runs).
        size = 0
    if size > 20:
        return size - 2
    # NOTE: not a terminal, or one that knows no size (a pty nobody sized says 0).
    columns = os.environ.get("COLUMNS", "")
    # NOTE: isdecimal, not isdigit (a superscript two is a digit int() refuses); short, so
    # int() can read it.
    usable = columns.isdecimal() and len(columns) < 6 and int(columns) > 20
    return int(columns) - 2 if usable else 78


def _as_written(text: str) -> str:
    """Text argparse shows as it is: it %-formats a description or epilog holding `%(prog)`,
    which a docstring means literally, as every other surface shows it."""
    return text.replace("%", "%%") if "%(prog)" in text else text


#: What a word after `--` starts with while argparse reads it (`_new_parser`): no flag does.
_MASK = "\x00--"


def _unmasked(value: Any) -> Any:
    """A parsed value with the mask of the words after `--` taken off."""
    if isinstance(value, str):
        return value[len(_MASK) :] if value[: len(_MASK)] == _MASK else value
    if isinstance(value, list):
        return [_unmasked(item) for item in value]
    return value


def _new_parser(
    program: Program,
    prog: str,
    description: str = "",
    epilog: str = "",
    *,
    secret: bool = False,
    confirm: bool = False,
) -> argparse.ArgumentParser:
    """An ArgumentParser (of a command of `program`, or its tool-wide flags: `prog`) whose
    errors become usage errors instead of exiting; `secret`: the
    command takes a secret (`_Command.secret`), so no word of its line is quoted but a flag's
    value it was given for (a word typed without its flag may be the secret); `confirm`: it
    asks first, so `--yes` is one of the flags an unknown one may have meant."""
    import argparse

    class Parser(argparse.ArgumentParser):
        #: The command's arguments as `_quick_parse` reads them: where a pass-through
        #: argument begins (`_pass_start`) is found the same way on both paths.
        recorded: _Recorder

        def __init__(self, *args: Any, **options: Any) -> None:
            self.recorded = _Recorder()
            super().__init__(*args, **options)

        def add_argument(self, *names: Any, **options: Any) -> argparse.Action:
            self.recorded.add_argument(*names, **options)
            if "-h" in names and "-h" in self._option_string_actions:
                # NOTE: a command's own `-h` (`Option("-h", "--host")`): `--help` stays help.
                helper = self._option_string_actions.pop("-h")
                helper.option_strings = [name for name in helper.option_strings if name != "-h"]
            if options.get("nargs") == _PASS:
                # NOTE: its words are cut off before argparse reads the line (`parse_args`),
                # which reads the rest intermixed, as it cannot with a REMAINDER.
                options["nargs"] = "*"
            if options.get("nargs") == "*" and names and names[0][:1] != "-":
                # NOTE: argparse counts a `*` positional given no default among the required
                # ones it names when another is missing ("required: script, args"); it may
                # be left out (the parser's default, given here, is SUPPRESS all the same).
                options.setdefault("default", self.argument_default)
            return super().add_argument(*names, **options)

        def parse_args(  # type: ignore[override]
            self, args: Sequence[str] | None = None, namespace: None = None
        ) -> argparse.Namespace:
            given = list(args or ())
            start = _pass_start(self.recorded, given)
            # NOTE: argparse's own, but the unknown words as argv has them: its message joins
            # them with spaces, and a value holding one would no longer be told from a flag.
            parsed, extras = self._intermixed(given[:start])
            if start < len(given):
                assert self.recorded.passthrough is not None
                setattr(parsed, self.recorded.passthrough.dest, given[start:])
            if extras:
                # NOTE: never a hidden option's flag (`help=SUPPRESS`): help does not show it.
                shown = [
                    flag
                    for flag, action in self._option_string_actions.items()
                    if action.help != _HIDDEN
                ]
                given = given[:start]
                # NOTE: the words left after `--` are values: no flag is suggested for them.
                after = given[given.index("--") + 1 :] if "--" in given else []
                ending = 0
                while ending < min(len(extras), len(after)) and (
                    extras[-1 - ending] == after[-1 - ending]
                ):
                    ending += 1
                hint = _closest_flag(
                    extras[: len(extras) - ending], shown, program, confirm=confirm
                )
                if not hint and ending:
                    hint = "every word after '--' is an argument, not a flag"
                raise UsageError(_unrecognized(extras, secret), hint=hint or self._for_usage())
            return parsed

        def _intermixed(self, args: list[str]) -> tuple[argparse.Namespace, list[str]]:
            """Read as Click, Typer and git read a line: options may come between positionals
            (`commit a.txt -m x b.txt`), up to `--`. argparse's intermixed reading (before
            Python 3.13) takes the words after `--` for options, so each is masked until read."""
            cut = args.index("--") if "--" in args else len(args)
            masked = [*args[:cut], *(_MASK + word for word in args[cut + 1 :])]
            parsed, extras = self.parse_known_intermixed_args(masked)
            for name, value in vars(parsed).items():
                setattr(parsed, name, _unmasked(value))
            return parsed, _unmasked(extras)

        def _check_value(self, action: argparse.Action, value: Any) -> None:
            value = _unmasked(value)
            # NOTE: a choice that is not one says so as a converter does (`_expected`, the
            # long flag or the key named), not in argparse's words.
            if action.choices is not None and value not in action.choices:
                label = action.option_strings[-1] if action.option_strings else action.dest
                wanted = _one_of(list(action.choices))
                problem = _expected(wanted, value)
                if secret and not action.option_strings:
                    problem = f"expected {wanted} (the word given is not shown, {_SECRET_SAYS})"
                raise UsageError(f"{label}: {problem}", hint=self._for_usage())

        def error(self, message: str) -> NoReturn:
            # NOTE: argparse quotes the value a flag was given where it takes none (`-hX`); the
            # word may be a mistyped secret.
            message = message.partition(" explicit argument '")[0]
            # NOTE: `--count: ...`, as a converter's problem names the flag (argparse's own
            # messages start `argument --count: `).
            message = message.removeprefix("argument ")
            if message.endswith(": ignored"):
                message += " explicit argument"
            raise UsageError(message, hint=self._for_usage())

        def _for_usage(self) -> str:
            words = self.prog.removeprefix(program.name).strip()
            return f"{_run_hint(f'{words} --help'.lstrip(), program.name)} for usage"

    width = _terminal_width()

    def formatter(prog: str) -> argparse.HelpFormatter:
        return argparse.RawDescriptionHelpFormatter(prog, width=width)

    parser = Parser(
        prog=prog,
        description=_as_written(description) or None,
        epilog=_as_written(epilog) or None,
        formatter_class=formatter,
        argument_default=argparse.SUPPRESS,
        allow_abbrev=False,
    )

    class Switch(argparse.Action):
        """A bool option's flags: its names set True, its `off` names False (`--no-X` of each
        long name, as `argparse.BooleanOptionalAction`, unless the table names them)."""

        def __init__(
            self,
            option_strings: Sequence[str],
            dest: str,
            off: Sequence[str] | None = None,
            **options: Any,
        ) -> None:
            self.off = tuple(_negatives(tuple(option_strings)) if off is None else off)
            names = [*option_strings, *(name for name in self.off if name not in option_strings)]
            super().__init__(names, dest, nargs=0, **options)

        def __call__(
            self,
            parser: argparse.ArgumentParser,
            namespace: argparse.Namespace,
            values: object,
            option_string: str | None = None,
        ) -> None:
            setattr(namespace, self.dest, option_string not in self.off)

        def format_usage(self) -> str:
            # NOTE: `[-v]` for a flag with no off form, as argparse shows `store_true`;
            # `[-v | --verbose]` would read like a choice between two.
            if not self.off:
                return self.option_strings[0]
            return " | ".join(self.option_strings)

    parser.register("action", _BOOL_ACTION, Switch)
    import re

    # NOTE: `-1e3` is a number, as `-5` and `-.5` are to argparse (not an unknown flag).
    parser._negative_number_matcher = re.compile(r"^-(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")
    return parser


def _closest_flag(
    words: list[str], own: list[str], program: Program, *, root: bool = False, confirm: bool = False
) -> str:
    """`did you mean '--region'?` for the first unknown flag of the words argparse left: the
    closest of the command's own flags (`own`) and the tool-wide ones that apply where it was
    typed (`root`, `confirm`: `flags_at`), case aside; a flag's `aliases` (`--format`) suggest
    it, and a short flag no one has (`-j`) the long ones of its letter. Names flags only, never
    a typed word (it may be a secret)."""
    import difflib

    known: dict[str, str] = {}
    for flag in flags_at(root, program.config, confirm):
        for name in (*flag.aliases, flag.name, flag.short):
            if name:
                known[_flag_key(name)] = flag.short if name == flag.short else flag.name
    for name in own:
        known[_flag_key(name)] = name
    for word in words:
        typed = _flag_key(word.partition("=")[0])
        if not (word[:1] == "-" and _looks_like_flag(word.partition("=")[0])):
            continue
        if not confirm and typed in {_flag_key(name) for name in confirm_flags()}:
            return NO_CONFIRM
        if typed in known:
            return f"did you mean '{known[typed]}'?"
        if len(typed) == 1:
            names = dict.fromkeys(name for key, name in known.items() if key[:1] == typed)
            longs = tuple(f"'{name}'" for name in names if name[:2] == "--")
            if longs:
                return f"did you mean {_either(longs)}?"
            continue
        close = difflib.get_close_matches(typed, list(known), n=1)
        if close:
            return f"did you mean '{known[close[0]]}'?"
    return ""


def _flag_key(flag: str) -> str:
    """A flag as `_closest_flag` compares it: no leading dashes, lower case."""
    return flag.lstrip("-").lower()


def _unrecognized(words: list[str], secret: bool = False) -> str:
    """argparse's message for the words it left, but the word right after an unknown flag (and
    any `=value`) is counted, not shown: a mistyped `--tokn SECRET` must not print the secret.
    Only a word shaped like a flag is shown as one (a secret may start with a dash). Of a
    command that takes a secret (`secret`), none is shown: `login SECRET` forgot `--token`."""
    if secret:
        return f"unrecognized arguments: {_words(len(words))} not shown, {_SECRET_SAYS}"
    shown: list[str] = []
    hidden = 0
    after_flag = False
    for word in words:
        flag, has_value, _ = word.partition("=")
        if _looks_like_flag(flag):
            shown.append(flag)
            hidden += bool(has_value)
            after_flag = True
        elif after_flag or word.startswith("-") or '"' in word:
            # NOTE: a word holding a JSON string may be `--json` input that is no object
            # (`--json '"S3CR3T"'`, a scalar, which `--json` does not take): a secret is text.
            hidden += 1
            after_flag = False
        else:
            # NOTE: an empty word, or one with spaces, quoted: '' shows, not nothing.
            plain = word and not any(c.isspace() for c in word)
            shown.append(word if plain else repr(word))
    if not shown:
        return f"unrecognized arguments: {hidden} not shown"
    more = f" (and {hidden} more)" if hidden else ""
    return "unrecognized arguments: " + " ".join(shown) + more


def _words(count: int) -> str:
    return f"{count} word{'' if count == 1 else 's'}"


def _looks_like_flag(word: str) -> bool:
    """`-v`, `--dry-run`: a dash or two, then a letter, then letters, digits, `-` and `_`."""
    name = word[2:] if word[:2] == "--" else word[1:] if word[:1] == "-" else ""
    rest = name.replace("-", "").replace("_", "")
    return name[:1].isalpha() and name.isascii() and rest.isalnum()
