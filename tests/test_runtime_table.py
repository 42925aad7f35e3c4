"""The command table, in-process: a row of data made into a `_Command` on first use, its parser
builder (what argparse and the quick reading get) and its reader (each value through `_Call`,
then the handler called the way its signature takes it)."""

from __future__ import annotations

import argparse
import asyncio
import enum
from typing import Any

import pytest

from burgee.runtime.core.context import Context
from burgee.runtime.core.errors import UsageError, _Explained
from burgee.runtime.core.kinds import _Bool, _Int, _Str
from burgee.runtime.execution import table
from burgee.runtime.execution.execute import _await
from burgee.runtime.execution.quickargs import _BOOL_ACTION, _quick_parse, _recorded
from burgee.runtime.execution.sources import _Sources
from burgee.runtime.execution.table import _OUTPUT, _command, _converter, _from_row
from burgee.runtime.execution.values import _Call, _choice, _items, _member, _pairs, _tuple, _within
from burgee.runtime.program import Program
from tests.runtime_program import program

SEEN: list[tuple[tuple[Any, ...], dict[str, Any]]] = []


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


def _handler(*args: Any, **kwargs: Any) -> object:
    SEEN.append((args, kwargs))
    return "done"


#: name, flags, converter, default (... = required), options (add_argument's and the reader's)
PICK = (
    ("shelf", (), "_Str", ..., (("help", "The shelf"),)),
    ("count", ("-c", "--count"), ("_within", "_Int", 1, 5), 1, (("help", "How many"),)),
    ("tag", ("--tag",), "_Str", list, (("action", "append"), ("many", True), ("fresh", True))),
    ("loud", ("--loud",), "_Bool", False, (("action", _BOOL_ACTION),)),
    ("token", ("--token",), "_Str", None, (("nullable", True), ("env", "TOOL_TOKEN"))),
)
#: The names converters are found by (in a tool: its own globals).
NAMES: dict[str, Any] = {
    "_Str": _Str,
    "_Int": _Int,
    "_Bool": _Bool,
    "_within": _within,
    "_choice": _choice,
    "_member": _member,
    "_tuple": _tuple,
    "_items": _items,
    "_pairs": _pairs,
    "Color": Color,
    "_to_point": tuple,  # NOTE: a record's converter is a plain function
}


def _tool() -> Program:
    """The program of the commands `pick` and `bare`, none of them made yet."""
    return program(
        commands={
            "pick": (_handler, "Pick.", _Str, PICK, (("effects", "idempotent"),)),
            "bare": (_handler, "Bare.", _Str, (), ()),
        }
    )


TOOL = _tool()


def _call(raw: dict[str, Any], source: str = "flag") -> _Call:
    return _Call(raw, source, Context("pick", source == "json", TOOL), _Sources("pick", TOOL))


@pytest.fixture(autouse=True)
def _names(monkeypatch: pytest.MonkeyPatch) -> None:
    SEEN.clear()
    monkeypatch.delenv("TOOL_TOKEN", raising=False)
    for name, value in NAMES.items():
        monkeypatch.setattr(table, name, value, raising=False)


def test_a_command_is_made_from_its_row_once_and_only_when_asked_for() -> None:
    tool = _tool()
    assert [path for made, path in table._MADE if made is tool] == []
    command = _command(tool, "pick")
    assert command is not None
    assert _command(tool, "pick") is command
    assert [path for made, path in table._MADE if made is tool] == ["pick"]
    assert (command.summary, command.description, command.effects) == (
        "Pick.",
        "Pick.",
        "idempotent",
    )
    assert command.keys == ("shelf", "count", "tag", "loud", "token")
    assert _command(TOOL, "nope") is None
    assert _command(TOOL, "output") is _OUTPUT


def test_the_builder_gives_argparse_the_flags_and_its_own_keywords_only() -> None:
    command = _from_row((_handler, "Pick.", _Str, PICK, ()), NAMES)
    parser = argparse.ArgumentParser(prog="tool pick")
    parser.register("action", _BOOL_ACTION, argparse.BooleanOptionalAction)
    command.build(parser)
    assert vars(parser.parse_args(["a", "-c", "2", "--tag", "x", "--tag", "y", "--no-loud"])) == {
        "shelf": "a",
        "count": "2",
        "tag": ["x", "y"],
        "loud": False,
        "token": None,
    }
    assert "How many" in parser.format_help()
    # NOTE: the quick reading reads the same rows, and agrees on a plain line.
    assert _quick_parse(_recorded(command), ["a", "--count", "3"]) == {"shelf": "a", "count": "3"}


def test_the_reader_converts_each_value_and_calls_the_handler_by_keyword() -> None:
    command = _from_row((_handler, "Pick.", _Str, PICK, ()), NAMES)
    assert command.run(_call({"shelf": "a", "count": "2", "tag": ["x"], "loud": True})) == "done"
    assert SEEN == [
        ((), {"shelf": "a", "count": 2, "tag": ["x"], "loud": True, "token": None}),
    ]


def test_defaults_and_env_vars_fill_what_the_call_leaves_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TOOL_TOKEN", "t0k")
    command = _from_row((_handler, "Pick.", _Str, PICK, ()), NAMES)
    command.run(_call({"shelf": "a"}))
    assert SEEN[0][1] == {"shelf": "a", "count": 1, "tag": [], "loud": False, "token": "t0k"}


def test_a_fresh_default_is_made_anew_for_every_call() -> None:
    command = _from_row((_handler, "Pick.", _Str, PICK, ()), NAMES)
    command.run(_call({"shelf": "a"}))
    command.run(_call({"shelf": "b"}))
    first, second = SEEN[0][1]["tag"], SEEN[1][1]["tag"]
    assert first == second == []
    assert first is not second


def test_every_problem_is_reported_together_and_the_handler_never_runs() -> None:
    command = _from_row((_handler, "Pick.", _Str, PICK, ()), NAMES)
    with pytest.raises(UsageError) as raised:
        command.run(_call({"count": "9"}))
    assert raised.value.message == "shelf is required; --count: 9 is more than the maximum 5"
    assert SEEN == []


def test_positional_only_inputs_and_the_context_go_where_the_signature_takes_them() -> None:
    inputs = (
        ("a", (), "_Str", ..., (("positional", True),)),
        ("b", ("--b",), "_Int", 0, ()),
    )
    by_position = _from_row((_handler, "s", _Str, inputs, (("context", 1),)), NAMES)
    call = _call({"a": "x", "b": "2"})
    by_position.run(call)
    by_keyword = _from_row((_handler, "s", _Str, inputs, (("context", "ctx"),)), NAMES)
    by_keyword.run(call)
    assert SEEN == [
        (("x", call.context), {"b": 2}),
        (("x",), {"b": 2, "ctx": call.context}),
    ]


def test_a_handler_that_returns_none_by_its_type_returns_none() -> None:
    command = _from_row((_handler, "s", _Str, (), (("discard", True),)))
    assert command.run(_call({})) is None
    assert SEEN == [((), {})]


def test_an_async_handler_runs_through_await_with() -> None:
    async def later(n: int) -> int:
        await asyncio.sleep(0)
        return n * 2

    inputs = (("n", ("--n",), "_Int", ..., ()),)
    command = _from_row((later, "s", _Int, inputs, (("await_with", _await),)), NAMES)
    assert command.run(_call({"n": "21"})) == 42


def test_a_command_without_inputs_or_question_runs_even_when_explaining() -> None:
    # NOTE: as before the table: only a command with inputs (or a question) checks its call.
    bare = _command(TOOL, "bare")
    assert bare is not None
    call = _call({})
    call.explaining = True
    assert bare.run(call) == "done"
    pick = _command(TOOL, "pick")
    assert pick is not None
    with pytest.raises(_Explained):
        pick.run(_explaining({"shelf": "a"}))


def _explaining(raw: dict[str, Any]) -> _Call:
    call = _call(raw)
    call.explaining = True
    return call


def test_a_command_that_asks_first_asks_even_without_inputs() -> None:
    command = _from_row((_handler, "s", _Str, (), (("confirm", "Sure?"),)))
    assert command.confirm == "Sure?"
    asked: list[_Call] = []
    call = _call({})
    call.confirm = asked.append
    command.run(call)
    assert asked == [call]
    assert SEEN == [((), {})]


@pytest.mark.parametrize(
    ("spec", "given", "value"),
    [
        ("_Int", "7", 7),
        (("_within", "_Int", 1, 5), "5", 5),
        (("_choice", "fast", "slow"), "slow", "slow"),
        (("_member", "Color"), "blue", Color.BLUE),
        (("_tuple", "_Int", "_Str"), "1 a", (1, "a")),
        (("_items", "_Int"), ["1", "2"], [1, 2]),
        (("_pairs", "_Int"), ["a=1"], {"a": 1}),
        ("_to_point", [1, 2], (1, 2)),
    ],
)
def test_a_converter_named_as_data_is_the_one_its_code_would_be(
    spec: Any, given: object, value: object
) -> None:
    assert _converter(spec, NAMES)(given) == value


def test_a_converter_named_as_data_refuses_what_its_code_refuses() -> None:
    with pytest.raises(ValueError, match="more than the maximum 5"):
        _converter(("_within", "_Int", 1, 5), NAMES)("6")
    with pytest.raises(ValueError, match="expected one of fast, slow"):
        _converter(("_choice", "fast", "slow"), NAMES)("medium")


def test_the_handlers_waiting_imports_run_once_whichever_thread_asks_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """MCP over HTTP runs calls on threads: the first calls that arrive together all wait for
    `_import_handlers`, which runs once; a failed one runs again on the next call."""
    import threading  # noqa: PLC0415
    import time  # noqa: PLC0415

    runs: list[int] = []
    fails = iter([True, False])

    def imports() -> None:
        runs.append(1)
        time.sleep(0.05)  # NOTE: long enough for every thread to arrive meanwhile
        if next(fails):
            raise ImportError("the first try fails")

    tool = program(import_handlers=imports)
    monkeypatch.setattr(table, "_IMPORTED", [])
    with pytest.raises(ImportError):
        table._import_once(tool)
    assert table._IMPORTED == []
    threads = [threading.Thread(target=table._import_once, args=(tool,)) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(runs) == 2 and table._IMPORTED == [True]
