"""The runtime's results, in-process: normalising, checking against the declared type,
and the one envelope for success and failure."""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import enum
import io
import pathlib
import sys
import uuid
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from burgee import CommandError as AuthoredError
from burgee.runtime.answers.output import (
    _conform,
    _jsonable,
    _Redacting,
    _Status,
    _text,
    _unjsonable_at,
)
from burgee.runtime.core.context import _SECRETS, Context, _Command
from burgee.runtime.core.errors import (
    BUILTIN_ERRORS,
    CommandError,
    UsageError,
    _ActionRequired,
    _failure,
    _Internal,
)
from burgee.runtime.core.kinds import _Any, _Decimal, _Float, _Int, _Null, _Str
from burgee.runtime.execution.execute import _as_error, _execute
from burgee.runtime.execution.sources import _Sources
from burgee.runtime.execution.values import _Call
from burgee.runtime.program import PROGRAM

#: The records a result may hold: none (a test of records gives its own).
RECORDS: dict[str, Any] = {}


class Unit(str, enum.Enum):
    GRAM = "g"
    PIECE = "pc"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Color(enum.Enum):
    RED = "red"


@dataclasses.dataclass
class Item:
    name: str
    unit: Unit
    level: Level
    color: Color
    tags: list[Unit]


def test_enum_members_become_their_values_at_any_depth() -> None:
    item = Item("flour", Unit.GRAM, Level.HIGH, Color.RED, [Unit.PIECE, Unit.GRAM])
    data = _jsonable({"items": [item], Unit.GRAM: Level.LOW, "one": (Color.RED,)})
    assert data == {
        "items": [{"name": "flour", "unit": "g", "level": 2, "color": "red", "tags": ["pc", "g"]}],
        "g": 1,
        "one": ["red"],
    }
    # NOTE: exact types, not subclasses: a str-mixin member must not survive as itself.
    assert type(data["items"][0]["unit"]) is str
    assert type(data["items"][0]["level"]) is int
    assert type(data["g"]) is int


def test_strenum_and_top_level_members() -> None:
    strenum = getattr(enum, "StrEnum", None)
    if strenum is not None:
        size = strenum("Size", {"BIG": "big"})
        assert type(_jsonable(size.BIG)) is str
        assert _jsonable(size.BIG) == "big"
    assert _jsonable(Unit.PIECE) == "pc"
    assert _jsonable(Level.LOW) == 1


def test_subclasses_of_str_and_int_become_plain() -> None:
    class Name(str):
        pass

    class Count(int):
        pass

    assert type(_jsonable(Name("x"))) is str
    assert type(_jsonable([Count(3)])[0]) is int


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (decimal.Decimal("1E+2"), "1E+2"),
        (decimal.Decimal("-0.50"), "-0.50"),
        (datetime.date(2026, 11, 30), "2026-11-30"),
        (datetime.datetime(2026, 11, 30, 10, 5), "2026-11-30T10:05:00"),
        (datetime.time(7, 30), "07:30:00"),
        (uuid.UUID(int=1), "00000000-0000-0000-0000-000000000001"),
        (pathlib.PurePosixPath("a/b"), "a/b"),
        ({3, 1, 2}, [1, 2, 3]),
    ],
)
def test_values_get_their_json_forms(value: object, expected: object) -> None:
    assert _jsonable(value) == expected


def test_an_unknown_type_is_refused() -> None:
    with pytest.raises(TypeError, match="object cannot be written as JSON"):
        _jsonable(object())


@pytest.mark.parametrize("number", [float("nan"), float("inf"), -float("inf")])
def test_nan_and_the_infinities_are_refused_never_null(number: float) -> None:
    """null in their place would pass an optional's check and hide what the handler gave."""
    with pytest.raises(TypeError, match="is not a JSON number"):
        _jsonable({"scores": [1.0, number]})
    assert _unjsonable_at({"scores": [1.0, number]}) == "result.scores[1]"


def test_decimal_text_passes_the_check_that_the_schema_uses() -> None:
    for text in ("1E+2", "100", "-0.5", ".5", "1.", "+3e-7"):
        assert _conform(_jsonable(decimal.Decimal(text)), _Decimal, RECORDS) is None, text
    for bad in ("NaN", "Infinity", "1 ", "", "1e", "e5", "--1"):
        assert _conform(bad, _Decimal, RECORDS) is not None, bad


def test_conform_names_the_path_and_what_was_expected() -> None:
    records = {"Item": ({"name": _Str, "unit": ("in", ("g", "pc", "l"))}, ("name", "unit"))}
    shape = ("list", ("record", "Item"))
    assert _conform([{"name": "a", "unit": "g"}], shape, records) is None
    assert (
        _conform([{"name": "a", "unit": "g"}, {"name": "b", "unit": "kg"}], shape, records)
        == "result[1].unit: expected one of g, pc, l, got 'kg'"
    )
    assert _conform([{"name": "a"}], shape, records) == "result[0]: missing field 'unit'"
    assert (
        _conform([{"name": 1, "unit": "g"}], shape, records)
        == "result[0].name: expected a string, got 1"
    )
    assert _conform({"x": 1}, ("map", _Int), records) is None
    assert _conform({"x": "1"}, ("map", _Int), records) == "result.x: expected an integer, got '1'"
    assert _conform(None, ("null", _Int), records) is None
    assert _conform(True, _Int, records) == "result: expected an integer, got true"
    assert _conform(None, _Null, records) is None
    assert _conform([1, "x", None], _Any, records) is None
    assert _conform(None, _Float, records) == "result: expected a number, got null"


def test_text_shows_enum_values_not_member_names() -> None:
    item = Item("flour", Unit.GRAM, Level.HIGH, Color.RED, [])
    text = _text(_jsonable(item))
    assert "unit:  g" in text
    assert "Unit." not in text
    assert "Level." not in text


def test_action_required_envelope_keeps_status_reason_and_next() -> None:
    error = _ActionRequired(
        "confirm", "really?", [{"command": "purge --yes", "when": "sure"}], True, "kitchen"
    )
    assert _failure(error) == {
        "ok": False,
        "status": "action_required",
        "reason": "confirm",
        "error": {"kind": "action_required", "message": "really?", "hint": error.hint},
        "next": [{"command": "kitchen purge --yes --json", "when": "sure"}],
    }
    assert error.exit_code == 4


def test_failure_of_a_plain_error_and_an_internal_one() -> None:
    class Busy(CommandError):
        kind = "busy"
        exit_code = 5
        retryable = True

    assert _failure(Busy("later", hint="wait")) == {
        "ok": False,
        "error": {"kind": "busy", "message": "later", "hint": "wait", "retryable": True},
    }
    internal = _as_error(ZeroDivisionError("division by zero"), debug=False, program=PROGRAM)
    assert isinstance(internal, _Internal)
    assert _failure(internal)["error"]["message"] == "ZeroDivisionError: division by zero"
    assert internal.exit_code == 1


def test_a_bare_command_error_is_internal_in_the_runtime_and_in_burgee_itself() -> None:
    """The authoring class `burgee.CommandError` (what a handler's own tests import) and the
    runtime's say the same: a kind every table documents."""
    bare = _as_error(
        CommandError("disk full", hint="free some space"), debug=False, program=PROGRAM
    )
    assert _failure(bare)["error"] == {
        "kind": "internal",
        "message": "disk full",
        "hint": "free some space",
    }
    assert bare.exit_code == BUILTIN_ERRORS["internal"][0]
    assert (AuthoredError.kind, AuthoredError.exit_code) == ("internal", bare.exit_code)


def _command(run: Any, returns: Any, keys: tuple[str, ...] = ()) -> _Command:
    return _Command("s", keys, lambda parser: None, run, returns, description="d")


def test_execute_builds_one_envelope_from_flags_and_from_json() -> None:
    def run(call: _Call) -> object:
        count = call.value("count", _Int.convert, flag="--count")
        call.check()
        return [Unit.GRAM] * count

    command = _command(run, ("list", ("in", ("g", "pc"))), ("count",))
    envelopes = []
    for source, raw in (("flag", {"count": "2"}), ("json", {"count": 2})):
        call = _Call(raw, source, Context("add", True, PROGRAM), _Sources("add", PROGRAM))
        envelopes.append(_execute(command, call))
    assert envelopes[0] == envelopes[1] == {"ok": True, "data": ["g", "g"]}


def test_execute_rejects_a_result_that_does_not_match() -> None:
    command = _command(lambda call: {"unit": "kg"}, ("map", ("in", ("g", "pc"))))
    call = _Call({}, "json", Context("add", True, PROGRAM), _Sources("add", PROGRAM))
    with pytest.raises(_Internal, match=r"result\.unit: expected one of g, pc, got 'kg'"):
        _execute(command, call)


def test_execute_says_a_result_is_nested_too_deeply() -> None:
    """Past Python's recursion limit, a clear internal error instead of a RecursionError's."""
    value: object = "x"
    for _ in range(sys.getrecursionlimit() + 10):
        value = [value]
    command = _command(lambda call: value, ("list", ("list", _Str)))
    call = _Call({}, "json", Context("add", True, PROGRAM), _Sources("add", PROGRAM))
    with pytest.raises(_Internal, match="result: nested too deeply to write as JSON") as raised:
        _execute(command, call)
    assert raised.value.hint is not None and "flatter" in raised.value.hint


def test_call_collects_every_problem() -> None:
    call = _Call({"a": "x", "b": "y"}, "json", Context("c", True, PROGRAM), _Sources("c", PROGRAM))
    call.value("a", _Int.convert)
    call.value("b", _Decimal.convert)
    call.value("c", _Str.convert)
    with pytest.raises(UsageError) as raised:
        call.check()
    assert raised.value.message == (
        "a: expected an integer, got 'x'; b: expected a decimal number as text, got 'y';"
        " c is required"
    )


_ITEMS = st.lists(
    st.one_of(st.text(max_size=3), st.integers(), st.booleans(), st.none()), max_size=8
)


@given(_ITEMS)
def test_a_plain_list_names_its_first_bad_item(items: list[Any]) -> None:
    """The quick check of a list (or map) of a plain type answers as the walk item by item:
    nothing when every item passes, else the first that does not, by its path."""
    bad = [index for index, item in enumerate(items) if not isinstance(item, str)]
    problem = _conform(items, ("list", _Str), RECORDS)
    if not bad:
        assert problem is None
    else:
        assert problem is not None
        assert problem.startswith(f"result[{bad[0]}]: expected a string")
    as_map = {f"k{index}": item for index, item in enumerate(items)}
    problem = _conform(as_map, ("map", _Str), RECORDS)
    if not bad:
        assert problem is None
    else:
        assert problem is not None
        assert problem.startswith(f"result.k{bad[0]}: expected a string")


def test_what_a_handler_writes_to_stdout_in_any_way_is_redacted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(_SECRETS, "hunter2-xyz", "token")
    written = io.StringIO()
    stream = _Redacting(written, _Status(io.StringIO()))
    stream.write("a hunter2-xyz\n")
    stream.writelines(["b hunter2-xyz\n", "c hunter2-xyz\n"])
    assert written.getvalue() == "a <secret:token>\nb <secret:token>\nc <secret:token>\n"


def test_text_keeps_a_value_of_several_lines_together() -> None:
    # NOTE: a further line of a value never reads as a key, an item or a table row.
    assert _text({"name": "a", "notes": "one\ntwo"}) == "name:  a\nnotes: one\n       two"
    assert _text(["a\nb", "c"]) == "- a\n  b\n- c"
    assert _text(["a", "b"]) == "a\nb"
    assert _text([{"x": "a\tb\nc", "y": 1}, {"x": "dd", "y": 2}]) == (
        "x      y\na b c  1\ndd     2"
    )


def test_table_columns_line_up_on_a_terminal_with_wide_and_combining_characters() -> None:
    rows = [{"name": "日本語", "n": 1}, {"name": "ascii", "n": 22}, {"name": "e\u0301te", "n": 3}]
    assert _text(rows) == "name    n\n日本語  1\nascii   22\ne\u0301te     3"
    assert _text({"名前": "x", "name": "y"}) == "名前: x\nname: y"


def _no_agent(monkeypatch: pytest.MonkeyPatch) -> None:
    from burgee.runtime.core.context import _AGENTS  # noqa: PLC0415

    for variable in ("AI_AGENT", *(name for name, _ in _AGENTS)):
        monkeypatch.delenv(variable, raising=False)


def test_an_agent_is_named_by_a_variable_switched_on(monkeypatch: pytest.MonkeyPatch) -> None:
    from burgee.runtime.core.context import _agent  # noqa: PLC0415

    _no_agent(monkeypatch)
    assert _agent() is None
    for off in ("", "0", "false", "No", " off "):
        monkeypatch.setenv("CLAUDECODE", off)
        assert _agent() is None, off
    monkeypatch.setenv("CLAUDECODE", "1")
    assert _agent() == "claude-code"
    monkeypatch.setenv("AI_AGENT", "0")
    assert _agent() == "claude-code"
    monkeypatch.setenv("AI_AGENT", " my-agent ")
    assert _agent() == "my-agent"


def test_ci_and_force_tty_are_switches_read_as_every_other(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from burgee.runtime.core.context import _interactive  # noqa: PLC0415

    _no_agent(monkeypatch)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: False, raising=False)
    for on in ("1", "true", "yes"):
        monkeypatch.setenv("FORCE_TTY", on)
        assert _interactive(), on
    monkeypatch.setenv("FORCE_TTY", "0")
    assert not _interactive()
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    for off in ("", "0", "false"):
        monkeypatch.setenv("CI", off)
        assert _interactive(), off
    monkeypatch.setenv("CI", "true")
    assert not _interactive()
