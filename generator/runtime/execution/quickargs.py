# burgee: joins tail 180
"""A quick reading of a plainly valid command line, so most runs never import argparse.

Importing argparse (and the `re`, `gettext` and `locale` it pulls in) costs more than the rest of
a run. Each command's builder (`command.build(parser)`, made from its row of the command table)
is the one description of its arguments: argparse reads it for help and for every error, and
`_quick_parse` reads the same calls, recorded by `_Recorder`, for the command lines that need
neither. Whatever it is not sure of (help, `--`,
an unknown or clustered flag, a value that starts with "-", a missing or doubled positional, a
choice not offered) it gives back as None, and argparse decides. tests/test_quickargs.py checks
on random command lines for every golden program that both agree whenever the quick one answers.

`_quick_parse`: a plainly valid command line read without argparse, from the command's recorded
arguments (`_recorded`) (which, with the `re`, `gettext` and `locale` it imports, costs more
than the rest of a run), from the same `add_argument` calls argparse gets from the command's
builder (recorded by `_Recorder`); anything unusual or wrong (help, `--`, unknown or clustered
flags, values starting with `-`, a count or a tuple) goes to argparse; it reads `dest=`
(`Option("--from")`) and a bool's `off=` (its flags that set False: `--deep`, none, or
`--no-input` alone). `_typed`: the flag each option was first typed as, for a message about
options given together; `_pass_start`: where a pass-through argument's words begin
(`nargs=_PASS`, argparse's REMAINDER in the row), found from the recorded arguments alike by
`_Invocation`, `_quick_parse`, argparse (`argv._new_parser`) and `cli.run` (the command's own
`--yes` and `--help` come before it). `tests/test_quickargs.py` checks both agree on random
lines for every golden command.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable

    from burgee.runtime.core.context import _Command

#: argparse's `SUPPRESS` ("leave it out"), spelled here so the build functions need no argparse.
_HIDDEN = "==SUPPRESS=="
#: The action name of a bool option's flags (`_new_parser` registers it): its names set True, and
#: its `off` names False (`--no-` and each long name, when it has no `off`).
_BOOL_ACTION = "boolean_optional"
#: The add_argument keywords the quick reading understands; any other sends the line to argparse.
_KNOWN = frozenset(("action", "nargs", "metavar", "help", "choices", "dest", "off"))
_NARGS = (None, "?", "*", "+")
#: argparse's `REMAINDER`, the `nargs` of a pass-through argument (`Argument(passthrough=True)`):
#: every word from its first one is its (`_pass_start`), flags of the tool's own included.
_PASS = "..."


class _Argument:
    """One `add_argument` call, as the quick reading needs it."""

    __slots__ = ("action", "choices", "dest", "names", "nargs", "off", "takes")

    def __init__(self, names: tuple[str, ...], options: dict[str, Any]) -> None:
        self.names = names
        self.action: str = options.get("action", "store")
        self.nargs: str | int | None = options.get("nargs")
        #: How many words an option takes after it (`--size W H`: 2; a switch: 0).
        nargs = self.nargs
        self.takes = (
            nargs if isinstance(nargs, int) else int(self.action in ("store", "append", "extend"))
        )
        choices = options.get("choices")
        self.choices: tuple[str, ...] | None = tuple(choices) if choices is not None else None
        self.off: tuple[str, ...] = ()
        if self.action == _BOOL_ACTION:
            self.off = options["off"] if "off" in options else _negatives(names)
        if options.get("dest"):
            self.dest = options["dest"]  # NOTE: `Option("--from")` of parameter `from_`
        elif names[0][:1] == "-":
            # NOTE: argparse's rule: the first long name, else the first name, minus dashes.
            longs = [name for name in names if name[:2] == "--"]
            self.dest = (longs or list(names))[0].lstrip("-").replace("-", "_")
        else:
            self.dest = names[0]


class _Recorder:
    """Stands in for the ArgumentParser a build function fills, and keeps its calls."""

    def __init__(self) -> None:
        self.options: dict[str, _Argument] = {}
        self.positionals: list[_Argument] = []
        #: The pass-through argument (`nargs=_PASS`), the last positional, not among them.
        self.passthrough: _Argument | None = None
        #: False once a call used something the quick reading does not model.
        self.plain = True

    def add_argument(self, *names: str, **options: Any) -> None:
        if not names or not _KNOWN.issuperset(options):
            self.plain = False
            return
        argument = _Argument(names, options)
        if names[0][:1] != "-":
            if argument.nargs == _PASS:
                self.passthrough = argument
                return
            if len(names) != 1 or argument.action != "store" or argument.nargs not in _NARGS:
                self.plain = False
            self.positionals.append(argument)
            return
        several = argument.action == "extend" and argument.nargs not in (None, "?", _PASS)
        if not several and (
            argument.nargs is not None or argument.action not in ("store", "append", _BOOL_ACTION)
        ):
            self.plain = False
        for name in names:
            if name[:2] != "--" and len(name) != 2:
                self.plain = False
            self.options[name] = argument
        if argument.action == _BOOL_ACTION:
            for name in argument.off:
                self.options[name] = argument


def _long(flags: tuple[str, ...]) -> str:
    """The flag that names an option (in help, messages, provenance, a config key): its first
    long one, of an input row's flags (`-f`, `--from-ref`, `--source`: `--from-ref`)."""
    return next(flag for flag in flags if flag[:2] == "--")


def _negatives(names: tuple[str, ...]) -> tuple[str, ...]:
    """The usual off form of a bool option's flags: `--no-` and each long name."""
    return tuple("--no-" + name[2:] for name in names if name[:2] == "--")


#: Each command's recorded arguments, read on first use.
_RECORDED: dict[Callable[[argparse.ArgumentParser], None], _Recorder] = {}


def _recorded(command: _Command) -> _Recorder:
    recorder = _RECORDED.get(command.build)
    if recorder is None:
        recorder = _RECORDED[command.build] = _Recorder()
        command.build(cast("argparse.ArgumentParser", recorder))
    return recorder


def _quick_parse(recorder: _Recorder, words: list[str]) -> dict[str, Any] | None:
    """What `vars(parser.parse_args(words))` gives for the command whose arguments `recorder`
    recorded (`_recorded`), when the line is plainly valid; None when argparse must read it
    (help, any error, anything unusual)."""
    if not recorder.plain:
        return None
    start = _pass_start(recorder, words)
    words, passed = words[:start], words[start:]
    found: dict[str, Any] = {}
    if passed:
        assert recorder.passthrough is not None
        found[recorder.passthrough.dest] = passed
    #: The positional words, wherever they stand among the options (argparse reads the line
    #: intermixed: `_new_parser`).
    loose: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        if word[:1] != "-" or word == "-":
            loose.append(word)
            continue
        name, has_value, value = word.partition("=")
        argument = recorder.options.get(name)
        if argument is None or (has_value and name[:2] != "--"):
            return None
        if argument.action == _BOOL_ACTION:
            if has_value:
                return None
            found[argument.dest] = name not in argument.off
            continue
        if argument.action == "extend":
            taken = _several(argument, words, index)
            if taken is None or has_value:
                return None
            index += len(taken)
            found.setdefault(argument.dest, []).extend(taken)
            continue
        if not has_value:
            if index >= len(words):
                return None
            value = words[index]
            index += 1
            if value[:1] == "-" and value != "-":
                return None
        if argument.choices is not None and value not in argument.choices:
            return None
        if argument.action == "append":
            found.setdefault(argument.dest, []).append(value)
        else:
            found[argument.dest] = value
    return found if _place(recorder.positionals, loose, found) else None


def _several(argument: _Argument, words: list[str], index: int) -> list[str] | None:
    """The words an option of several (`nargs`) takes from `words[index:]`: every word that is
    no flag (`+`: one at least), or exactly N; None when argparse must decide (a word that
    starts with `-`, too few)."""
    taken: list[str] = []
    for word in words[index:]:
        if word[:1] == "-":
            if word == "-" or not (word[1:2] == "-" or word[1:2].isalpha()):
                return None  # NOTE: `-` and `-5` are values to argparse, `-x` is not
            break
        if argument.nargs == len(taken):
            break
        taken.append(word)
    wanted = argument.nargs
    if (wanted == "+" and not taken) or (isinstance(wanted, int) and len(taken) != wanted):
        return None
    return taken


def _place(positionals: list[_Argument], loose: list[str], found: dict[str, Any]) -> bool:
    """Give each positional its word(s), as argparse would; False when unsure or wrong."""
    for position, argument in enumerate(positionals):
        last = position == len(positionals) - 1
        if argument.nargs is None:
            if not loose:
                return False
            taken = [loose.pop(0)]
        elif last and argument.nargs in ("+", "*") and loose:
            taken, loose[:] = list(loose), []
        elif argument.nargs == "+" and all(a.nargs is None for a in positionals[position + 1 :]):
            # NOTE: `copy SRC... DST`: the single arguments after it take the last words.
            count = len(loose) - (len(positionals) - position - 1)
            if count < 1:
                return False
            taken, loose[:] = loose[:count], loose[count:]
        elif last and argument.nargs == "?" and len(loose) == 1:
            taken = [loose.pop()]
        else:
            return False
        if argument.choices is not None and any(word not in argument.choices for word in taken):
            return False
        found[argument.dest] = taken if argument.nargs in ("+", "*") else taken[0]
    return not loose


def _pass_start(recorder: _Recorder, words: list[str]) -> int:
    """Where the pass-through argument's words begin (`len(words)`: nowhere): at the first
    positional word when it is the only positional, else right after the word of the one
    before it, whatever follows (`tool run APP --help` gives `--help` to APP), as argparse's
    `REMAINDER` reads a line. A `--` before it ends the options; from the start on, every
    word is passed as it is, a `--` too. `_Invocation` stops taking the tool-wide flags there."""
    if recorder.passthrough is None:
        return len(words)
    before = len(recorder.positionals)
    seen = 0
    ended = False
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        if not ended and word == "--":
            ended = True
            continue
        if not ended and not _positional(word, recorder):
            option = recorder.options.get(word)
            if option is not None and option.nargs in ("+", "*"):
                # NOTE: as argparse reads it: every word up to the next flag (or `--`) is
                # its, the word a positional would have had too.
                while index < len(words) and words[index] != "--":
                    if not _positional(words[index], recorder):
                        break
                    index += 1
            else:
                index += option.takes if option is not None else 0
            continue
        if seen == before:
            return index - 1
        seen += 1
        if seen == before:
            return index
    return len(words)


def _flag_like(word: str) -> bool:
    """Whether a word ends the words of an option of several (`nargs="+"`), as argparse reads
    a line: a flag, not `-` nor a negative number (its secrets, its completion)."""
    return word[:1] == "-" and word[1:2] not in ("", ".", *"0123456789")


def _positional(word: str, recorder: _Recorder) -> bool:
    """Whether argparse reads `word` as a positional's value: it does not start with `-`, or is
    `-`, a negative number (`-5`, `-.5`, `-1e3`: `argv_parser._new_parser`) or holds a space,
    and is no option's flag (`--size=3` names one)."""
    if word[:1] != "-" or word == "-":
        return True
    if word in recorder.options or word.partition("=")[0] in recorder.options:
        return False
    mantissa, exponent, power = word[1:].replace("E", "e").partition("e")
    whole, _, fraction = mantissa.partition(".")
    number = (whole.isdecimal() and (not fraction or fraction.isdecimal())) or (
        not whole and fraction.isdecimal()
    )
    if exponent:
        number = number and (power[1:] if power[:1] in ("+", "-") else power).isdecimal()
    return number or " " in word


def _asks_help(recorder: _Recorder, words: list[str]) -> bool:
    """Whether `words` (a command's, before `--` and a pass-through argument's) ask for its
    help: `--help`, or `-h` unless one of its options takes `-h` over (`Option("-h",
    "--host")`, as Click lets a command do)."""
    own = words[: _pass_start(recorder, words)]
    own = own[: own.index("--")] if "--" in own else own
    return "--help" in own or ("-h" in own and "-h" not in recorder.options)


def _typed(recorder: _Recorder, words: list[str]) -> dict[str, str]:
    """Each option given in `words` and the flag it was first typed as (`-j`, `--json-out`,
    `--no-color`), in the order typed, up to `--` or a pass-through argument's words: what a
    message about options given together names (`values._apart`)."""
    typed: dict[str, str] = {}
    for word in words[: _pass_start(recorder, words)]:
        if word == "--":
            break
        name = word.partition("=")[0]
        if name not in recorder.options and name[:2] != "--":
            name = word[:2]  # NOTE: a short flag with its value attached (`-jout.json`)
        argument = recorder.options.get(name)
        if argument is not None:
            typed.setdefault(argument.dest, name)
    return typed
