# burgee: joins tail 60
# burgee: section confirm: _confirmation _question
"""One call's input, from flags or a JSON object, converted and checked parameter by parameter.

`_Call` (one call's raw input → converted values, every problem collected into one usage error;
`prompt=` asks through `context._asked`, at a terminal or of an MCP client; `confirm` runs once
every value is known; `layered`: the values an env var or config file gave), `_apart` (a
command's groups of options given apart, joined only into tools that have some: two given in the
call, named as typed (`typed`), is a problem, one given leaves the others' env vars and config
files `unread`; with none given, two from env vars or config files are a problem, and none of a
`one_of` group; for flags, `--json` input and MCP alike), `_apart_text` (a group as help, the
skill and `--llms` word it); `_confirmation`: a command that asks first asks its question
(`_question`: the values filled in) the same way, or stops with `action_required` and the line
with `--yes` and the structured converters (`_choice`, `_member`, `_items`,
`_within`, `_tuple`, `_pairs` (`KEY=VALUE`), `_matching` (pattern, lengths), …); `_keep_secret`:
a secret option's value registered as given and as the tool writes it.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, cast

from burgee.runtime.answers.output import _jsonable
from burgee.runtime.answers.sanitize import _redact_text
from burgee.runtime.core.context import (
    _SECRETS,
    _UNANSWERED,
    _asked,
    _jsonable_text,
    _secret,
)
from burgee.runtime.core.errors import UsageError, _ActionRequired, _Explained, _Invalid
from burgee.runtime.core.flags import _either
from burgee.runtime.core.jsonread import _load_json, _same
from burgee.runtime.core.wording import (
    _JSON_EXPECTED,
    _badly_sized,
    _choice_text,
    _expected,
    _mismatched,
    _one_of,
    _out_of_bounds,
    _show,
    _unquoted,
    _wrong_count,
)

if TYPE_CHECKING:
    import enum
    from collections.abc import Callable
    from typing import TypeVar

    from burgee.runtime.core.context import Context

    _T = TypeVar("_T")
    _E = TypeVar("_E", bound=enum.Enum)

#: A parameter with no value (and no default): distinct from every value, None included.
_REQUIRED: Any = object()
#: The places an option's value may come from when the call does not give it.
_LAYERS = ("env", "config", "pyproject")


class _Call:
    """The raw input of one command call, converted parameter by parameter."""

    #: `--spill-dir`: where the `output` command reads a cut answer back from (None: the
    #: default place). A class attribute: most calls never set it.
    spill_dir: str | None = None
    #: The most an agent reads of one answer (an agent's limit, `--max-output`; 0: no bound):
    #: a page of `output` keeps within it.
    bound = 0
    #: The hint of the usage error `check` raises (the keys of a JSON input with unknown ones).
    hint: str | None = None
    #: The options whose env var and config file are not read: another of their group was
    #: given (`_apart`).
    unread: frozenset[str] | set[str] = frozenset()
    #: On the command line, the flag each option was first typed as, in the order typed
    #: (`quickargs._typed`): what a message about a group names.
    typed: dict[str, str] | None = None
    #: The command takes a secret (`_Command.secret`): a positional argument's word on the
    #: command line may be the secret typed without its flag, and no problem quotes it.
    unshown = False

    def __init__(self, raw: dict[str, Any], source: str, context: Context, sources: Any) -> None:
        self.raw = raw
        #: "flag" (the command line), "json" (`--json` input, an MCP call) or "uri" (the
        #: placeholders of a resource's URI: text, read as flags are, named by their names).
        self.source = source
        self.context = context
        self.problems: list[str] = []
        #: The `sources._Sources` of the call (typed Any: that module imports this one).
        self.sources = sources
        #: Where each value came from, when `sources.full` (for --explain and meta.provenance).
        self.provenance: dict[str, dict[str, Any]] = {}
        self.explaining = False
        #: Keys already refused by the input schema: their problems are known.
        self.refused: set[str] = set()
        #: Asks before the handler runs, once every value is known (a command that asks first,
        #: on the command line, without `--yes`); raises to stop it.
        self.confirm: Callable[[_Call], None] | None = None
        #: The value each parameter ended up with, from wherever it came (its default, an env
        #: var, ...): what the question of `confirm` shows. Kept only when it asks.
        self.settled: dict[str, Any] = {}
        #: The options whose value came from an env var or a config file, and from where.
        self.layered: dict[str, str] = {}

    def _settled(self, key: str, value: _T, secret: bool) -> _T:
        """`value`, as the call's sources settle it (`sources._Sources.settle`)."""
        settled: _T = self.sources.settle(self, key, value, secret)
        return settled

    def _label(self, key: str, flag: str | None) -> str:
        return flag if flag and self.source == "flag" else key

    def value(
        self,
        key: str,
        convert: Callable[[Any], _T],
        default: Any = _REQUIRED,
        *,
        flag: str | None = None,
        nullable: bool = False,
        env: str | tuple[str, ...] | None = None,
        secret: bool = False,
        prompt: str | None = None,
    ) -> _T:
        """The converted value of one parameter: from the call; for an option, else from its
        env var, the config file or pyproject.toml; else (`prompt=`, at a terminal) what a
        person answers; else its default."""
        # NOTE: the typed locals below stand where `cast` stood: an MCP server reads thousands
        # of values a second, and `cast` is a call at run time.
        fallback: _T = default
        if key in self.refused:
            return fallback
        source, label, raw = self.sources.pick(self, key, flag, env, default, secret)
        if prompt is not None and source in ("default", "") and not self.explaining:
            shown = None if secret or source == "" else raw
            answer: object = self.context._given(key)
            if answer is None:
                answer = _asked(self.context, key, prompt, shown, secret, None, False)
            if isinstance(answer, str):
                source, label, raw = "prompt", "prompt", answer
                if key in self.provenance:
                    self.provenance[key].update({"source": "prompt", "from": "prompt"})
        if secret and source != "default":
            _keep_secret(raw, key)
        # NOTE: a default, or a nullable parameter's None, is a value of its type already.
        kept: _T = raw
        if source == "default":
            return self._settled(key, kept, secret)
        if source in _LAYERS:
            self.layered[key] = label
        # NOTE: a config file's null is a value, and not one of this type: refused below as
        # `--json` input's null is, never taken for "unset" with the config named as its source.
        from_file = source in ("config", "pyproject")
        if raw is _REQUIRED or (raw is None and not nullable and not from_file):
            if default is _REQUIRED:
                also = f" (or set {env})" if env and self.source == "flag" else ""
                self.problems.append(f"{self._label(key, flag)} is required{also}")
            return fallback
        if raw is None and nullable:
            return self._settled(key, kept, secret)
        if source in ("flag", "json", "uri", "prompt"):
            label = self._label(key, flag)
        try:
            converted = convert(raw)
        except ValueError as error:
            reason: object = "not a valid value (secret, not shown)" if secret else error
            if self.unshown and not secret and flag is None and source == "flag":
                reason = _unquoted(str(error), raw if isinstance(raw, list) else [raw])
            placed = getattr(error, "placed", False)
            self.problems.append(str(error) if placed else f"{label}: {reason}")
            return fallback
        if secret:
            _keep_secret(converted, key)
        return self._settled(key, converted, secret)

    def values(
        self,
        key: str,
        convert: Callable[[Any], _T],
        default: Any = _REQUIRED,
        *,
        flag: str | None = None,
        nullable: bool = False,
        env: str | tuple[str, ...] | None = None,
        secret: bool = False,
        prompt: str | None = None,
        paths: bool = False,
    ) -> list[_T]:
        """The converted items of a list parameter, or its default (`paths`: a list of paths,
        whose env var is split at `os.pathsep`)."""
        raw = self.raw.get(key, _REQUIRED)
        if key in self.refused:
            return cast("list[_T]", default)
        if raw is not None and raw is not _REQUIRED and not isinstance(raw, list):
            reason = (
                "not a valid value (secret, not shown)"
                if secret
                else _expected(_JSON_EXPECTED["array"], raw)
            )
            self.problems.append(f"{self._label(key, flag)}: {reason}")
            return cast("list[_T]", default)

        def convert_all(items: object) -> list[_T]:
            found = _as_list(items, paths)
            if not found and default is _REQUIRED:
                # NOTE: a required list needs a value, in JSON as on the command line.
                raise _Invalid("needs at least one value")
            try:
                return [convert(item) for item in found]
            except _Invalid as error:
                # NOTE: a record an item holds: each problem named at its item.
                named = flag if self.source == "flag" else None
                raise error.within(key, found, convert, named) from None

        return self.value(
            key,
            convert_all,
            default,
            flag=flag,
            nullable=nullable,
            env=env,
            secret=secret,
            prompt=prompt,
        )

    def check(self) -> None:
        """Raise one usage error that lists every problem found."""
        if self.explaining:
            raise _Explained
        if self.problems:
            raise UsageError("; ".join(self.problems), hint=self.hint)
        if self.confirm is not None:
            self.confirm(self)


def _apart(
    call: _Call,
    groups: tuple[tuple[tuple[str, ...], bool], ...],
    longs: dict[str, str],
    read: bool,
) -> None:
    """`@command(exclusive=, one_of=)` (its row names this function only then). Before any
    value is read: two options of a group given in the call is a problem; one given leaves
    the others' env vars and config files unread (what the call says wins: they keep their
    defaults). Once every value is `read`: of a group the call gave none of, an env var or a
    config file may give one option at most (each named with where it came from), and a
    `one_of` group needs one."""
    typed = call.typed or {}

    def named(key: str) -> str:
        # NOTE: as typed, else its long flag; its key in JSON.
        return typed.get(key) or call._label(key, longs.get(key))

    def together(names: list[str]) -> None:
        call.problems.append(f"{names[0]} cannot be given with {' and '.join(names[1:])}")

    unread: set[str] = set()
    for keys, required in groups:
        given = [key for key in keys if key in call.raw]
        if not read:
            if len(given) > 1:
                order = list(typed or call.raw)
                given.sort(key=lambda key: order.index(key) if key in order else len(order))
                together([named(key) for key in given])
            if given:
                unread.update(key for key in keys if key not in given)
            continue
        if given:
            continue
        layered = [key for key in keys if key in call.layered]
        if len(layered) > 1:
            together([f"{named(key)} ({call.layered[key]})" for key in layered])
        elif required and not layered:
            call.problems.append(f"{_either(tuple(named(key) for key in keys))} is required")
    if not read:
        call.unread = unread


def _apart_text(named: tuple[str, ...], required: bool) -> str:
    """A group of options given apart, as help, the skill and `--llms` say it."""
    return f"{'exactly' if required else 'at most'} one of: {', '.join(named)}"


def _question_lines(questions: tuple[tuple[str, str, tuple[str, ...]], ...]) -> list[str]:
    """The questions a command's handler may ask ((kind, text, `--answer` names) each), one
    line each as its help, `--llms` and the skill say them: with the `--answer` that answers
    it ahead."""
    made = {"confirm": "a yes/no question", "ask": "a question", "form": "a form"}
    lines = []
    for kind, text, names in questions:
        shown = f'"{text}"' if text else f"{made.get(kind, kind)} made as it runs"
        if kind == "form":
            answer = f"--answer FIELD=VALUE for each of {', '.join(names)}"
        elif names:
            answer = f"--answer {names[0]}={'yes|no' if kind == 'confirm' else 'VALUE'}"
        else:
            answer = "--answer NAME=VALUE, NAME made of the question's first words"
        lines.append(f"{shown}: {answer}" + (" (or --yes)" if kind == "confirm" else ""))
    return lines


def _confirmation(
    question: str, path: str, effects: str, rerun: Callable[[list[str]], str]
) -> Callable[[_Call], None]:
    """What a command that asks first (destructive, or `confirm=` given) does before it runs
    without `--yes`: ask, as every question is asked (`context._asked`: at a terminal, or of an
    MCP client's user); where nobody can answer (agents, CI, pipes), stop with
    `action_required` and the line to run (`rerun` with `--yes`); a person's no stops it with
    no such line."""

    def confirm(call: _Call) -> None:
        shown = _question(question, call.settled)
        asked = _asked(call.context, "yes", shown, None, False, None, True)
        if asked is True:
            return
        if asked is _UNANSWERED:
            what = "is destructive" if effects == "destructive" else "asks first"
            message = f"{path} {what}: it runs only when confirmed"
            steps = [{"command": rerun(["--yes"]), "when": "to run it without being asked"}]
            context = call.context
            raise _ActionRequired(
                "confirm", message, steps, context.json, context._program.name, context._environ
            )
        # NOTE: the person said no: final, so no line runs it past them (`--yes`).
        message = "not confirmed: the person declined; nothing ran"
        context = call.context
        name = context._program.name
        raise _ActionRequired("declined", message, [], context.json, name, context._environ)

    return confirm


def _question(question: str, settled: dict[str, Any]) -> str:
    """`confirm="Delete {name}?"` with the values the call will run with filled in, defaults,
    env vars and config included (unknown names kept; a secret shown as its placeholder)."""

    class Values(dict):  # type: ignore[type-arg]
        def __missing__(self, key: str) -> str:
            return "{" + key + "}"

    shown = Values({key: _jsonable_text(_jsonable(value)) for key, value in settled.items()})
    try:
        return _redact_text(question.format_map(shown), _SECRETS)
    except (ValueError, IndexError, AttributeError):
        return question


def _keep_secret(value: object, name: str) -> None:
    """Every text in a secret option's value (an item of a list or a tuple, a dict's value) is
    a secret, as given, as the tool writes it (`_jsonable`: a UUID in lower case, a Decimal
    without leading zeros, a path without `./`) and as `str()` writes it (a datetime with a
    space for its `T`): any spelling of it is redacted."""
    if isinstance(value, (list, tuple)):
        for item in value:
            _keep_secret(item, name)
    elif isinstance(value, dict):
        for item in value.values():
            _keep_secret(item, name)
    elif value is not None and value is not _REQUIRED:
        text = _jsonable(value)
        if isinstance(text, str) and text:
            _secret(text, name)
        if hasattr(value, "isoformat"):
            _secret(str(value), name)  # NOTE: a datetime's `str()` has a space for its `T`


def _as_list(value: object, paths: bool = False) -> list[Any]:
    """A list from a list, or from text (an env var's): a JSON array, or the items split as
    Click splits an env var, at whitespace, or (`paths`, a list of paths) at `os.pathsep`."""
    if isinstance(value, list):
        return value
    if isinstance(value, str):
        if value.lstrip().startswith("["):
            try:
                items = _load_json(value)
            except (ValueError, RecursionError):
                raise _Invalid(_expected("a JSON array", value)) from None
            return _as_list(items) if isinstance(items, list) else [items]
        if paths:
            return [item for item in value.split(os.pathsep) if item]
        return value.split()
    raise _Invalid(_expected(_JSON_EXPECTED["array"], value))


def _within(
    convert: Callable[[Any], _T], minimum: float | None, maximum: float | None
) -> Callable[[object], _T]:
    """A converter that also checks a number's `min=`/`max=` bounds."""

    def check(value: object) -> _T:
        number: Any = convert(value)
        problem = _out_of_bounds(number, minimum, maximum)
        if problem:
            raise _Invalid(problem)
        return cast("_T", number)

    return check


def _choice(*choices: Any) -> Callable[[object], Any]:
    """A converter that accepts one of `choices` (as itself, or as text on the command line)."""

    def convert(value: object) -> Any:
        for choice in choices:
            text = _choice_text(choice)
            if _same(value, choice) or value == text:
                return choice
        raise _Invalid(_expected(_one_of(choices), value))

    return convert


def _any_case(convert: Callable[[Any], _T], *texts: str) -> Callable[[object], _T]:
    """`case_sensitive=False`: a word naming one of the choices (`texts`, as the command line
    writes them) in another case is that choice, as Click's `Choice(case_sensitive=False)`
    reads it; `convert` (`_choice`'s, `_member`'s) then takes it as written."""
    folded = {text.casefold(): text for text in texts}

    def convert_any_case(value: object) -> _T:
        if isinstance(value, str):
            value = folded.get(value.casefold(), value)
        return convert(value)

    return convert_any_case


def _member(enum: type[_E]) -> Callable[[object], _E]:
    """A converter that accepts an enum member's value (as text too: a flag, an env var), as
    the schemas and argparse's choices do; never its name."""

    def convert(value: object) -> _E:
        for member in enum:
            if _same(value, member.value) or value == str(member.value):
                return member
        raise _Invalid(_expected(_one_of([member.value for member in enum]), value))

    return convert


def _items(convert: Callable[[Any], _T]) -> Callable[[object], list[_T]]:
    """A converter of a JSON array whose items `convert` converts."""

    def convert_all(value: object) -> list[_T]:
        if not isinstance(value, list):
            raise _Invalid(_expected(_JSON_EXPECTED["array"], value))
        return [convert(item) for item in value]

    return convert_all


def _optional(convert: Callable[[Any], _T]) -> Callable[[object], _T | None]:
    """A converter that also accepts null."""

    def convert_or_none(value: object) -> _T | None:
        return None if value is None else convert(value)

    return convert_or_none


def _tuple(*converters: Callable[[Any], Any]) -> Callable[[object], tuple[Any, ...]]:
    """A converter of `tuple[T1, T2, ...]`: one value per converter, in order (a list, or text:
    a JSON array or values separated by whitespace)."""

    def convert(value: object) -> tuple[Any, ...]:
        items = _as_list(value)
        problem = _wrong_count(len(items), len(converters), len(converters))
        if problem:
            raise _Invalid(problem)
        return tuple(converters[index](item) for index, item in enumerate(items))

    return convert


def _pairs(convert: Callable[[Any], _T]) -> Callable[[object], dict[str, _T]]:
    """A converter of `dict[str, T]`: a JSON object, `KEY=VALUE` words (a repeated flag), or
    text (a JSON object, or comma-separated `KEY=VALUE`s)."""

    def convert_all(value: object) -> dict[str, _T]:
        if isinstance(value, str):
            if value.lstrip().startswith("{"):
                try:
                    value = _load_json(value)
                except (ValueError, RecursionError):
                    raise _Invalid(_expected("a JSON object", value)) from None
            else:
                value = [item.strip() for item in value.split(",") if item.strip()]
        if isinstance(value, list):
            pairs: dict[str, object] = {}
            for item in value:
                if isinstance(item, str) and item.lstrip().startswith("{"):
                    pairs.update(convert_all(item))  # NOTE: a JSON object, as one word
                    continue
                # NOTE: `=V` is the key "", as a JSON object may have it.
                key, equals, text = str(item).partition("=")
                if not equals:
                    raise _Invalid(_expected("KEY=VALUE", item))
                pairs[key] = text
            value = pairs
        if not isinstance(value, dict):
            raise _Invalid(_expected("an object of KEY=VALUE pairs", value))
        found = {}
        for key, item in value.items():
            try:
                found[str(key)] = convert(item)
            except ValueError as error:
                raise _Invalid(f"{key}: {error}") from None
        return found

    return convert_all


def _matching(
    convert: Callable[[Any], str],
    pattern: str | None,
    min_length: int | None,
    max_length: int | None,
) -> Callable[[object], str]:
    """A converter that also checks a string's `pattern=`, `min_length=` and `max_length=`."""

    def check(value: object) -> str:
        text = convert(value)
        problem = _badly_sized(text, min_length, max_length)
        if problem is None and pattern is not None:
            problem = _mismatched(text, pattern)
        if problem:
            raise _Invalid(problem)
        return text

    return check


def _checked_path(
    convert: Callable[[Any], Any],
    exists: bool,
    file_okay: bool,
    dir_okay: bool,
    readable: bool,
    writable: bool,
    executable: bool,
    resolve_path: bool,
    allow_dash: bool,
) -> Callable[[object], Any]:
    """A converter of a path that also makes `click.Path`'s checks, in its order and with its
    words (`Option(exists=True, dir_okay=False)`): a path that need not exist and does not
    skips the rest, `-` is let through as a standard stream when `allow_dash=True`."""
    import os
    import stat

    what = "file" if not dir_okay else "directory" if not file_okay else "path"

    def check(value: object) -> Any:
        path = convert(value)
        if file_okay and allow_dash and str(path) == "-":
            return path
        if resolve_path:
            path = type(path)(os.path.realpath(path))
        try:
            mode = os.stat(path).st_mode
        except OSError:
            if not exists:
                return path
            raise _Invalid(f"{what} {_show(value)} does not exist") from None
        problem = (
            "is a file"
            if not file_okay and stat.S_ISREG(mode)
            else "is a directory"
            if not dir_okay and stat.S_ISDIR(mode)
            else "is not readable"
            if readable and not os.access(path, os.R_OK)
            else "is not writable"
            if writable and not os.access(path, os.W_OK)
            else "is not executable"
            if executable and not os.access(path, os.X_OK)
            else None
        )
        if problem:
            raise _Invalid(f"{what} {_show(value)} {problem}")
        return path

    return check
