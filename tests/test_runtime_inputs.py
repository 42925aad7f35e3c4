"""JSON input checked against the command's input schema (`inputs.py`), in-process."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from burgee.describe import documents
from burgee.runtime.execution import inputs
from tests.runtime_program import program

SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "description": "who"},
        "count": {"type": "integer", "default": 1},
        "ratio": {"type": "number"},
        "loud": {"type": "boolean", "default": False},
        "when": {"type": "string", "format": "date"},
        "small": {"type": "integer", "minimum": 1, "maximum": 9},
        "maybe": {"type": ["string", "null"]},
        "token": {"type": "string"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "level": {"type": "integer", "enum": [1, 2]},
        "limit": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}]},
        "strict": {"type": "boolean", "const": True},
        "grade": {"anyOf": [{"type": "integer", "enum": [1, 2]}, {"type": "null"}]},
        "amount": {"anyOf": [{"type": "number"}, {"type": "string", "pattern": "^[0-9.]+$"}]},
    },
    "required": ["name"],
    "additionalProperties": False,
}


#: The program of the command `greet`, its input schema in the `inputs` document as gen writes it.
TOOL = program(
    documents={
        "inputs": documents.inputs(
            {
                "commands": [
                    {
                        "name": "greet",
                        "args": [{"name": "--token", "secret": True}],
                        "input_schema": SCHEMA,
                    }
                ]
            }
        )
    }
)


@pytest.fixture(autouse=True)
def _schema(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(inputs, "_PLAIN_PROPERTIES", {})


def test_plain_properties_are_known_by_type_alone() -> None:
    plain = inputs._plain_properties("greet", SCHEMA["properties"])
    assert plain == {
        "name": (str,),
        "count": (int,),
        "ratio": (int, float),
        "loud": (bool,),
        "when": (str,),
        "token": (str,),
    }


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ({"name": "x", "count": 3, "ratio": 1.5, "loud": True}, {}),
        ({"name": "x", "count": 3.0}, {}),
        ({"name": "x", "count": True}, {"count": "count: expected an integer, got true"}),
        ({"name": "x", "count": 3.5}, {"count": "count: expected an integer, got 3.5"}),
        ({"name": "x", "loud": 1}, {"loud": "loud: expected true or false, got 1"}),
        ({"name": 7}, {"name": "name: expected a string, got 7"}),
        ({"name": "x", "small": 0}, {"small": "small: 0 is less than the minimum 1"}),
        ({"name": "x", "maybe": None}, {}),
        ({"name": "x", "token": 5}, {"token": "token: not a valid value (secret, not shown)"}),
        # NOTE: the choices say more than the type, and are what a flag given "x" is told.
        ({"name": "x", "level": "x"}, {"level": "level: expected one of 1, 2, got 'x'"}),
        ({"name": "x", "strict": False}, {"strict": "strict: expected one of true, got false"}),
        # NOTE: `Literal[1, 2] | None` given a word: its choices, as a flag is told.
        ({"name": "x", "grade": "x"}, {"grade": "grade: expected one of 1, 2, got 'x'"}),
        # NOTE: a decimal's text that is no number: the converter says so (as for a flag).
        ({"name": "x", "amount": "abc"}, {}),
        (
            {"name": "x", "amount": True},
            {"amount": "amount: expected a number or a string, got true"},
        ),
        # NOTE: `int | None` given something else: told about the int, never "or null".
        ({"name": "x", "limit": "x"}, {"limit": "limit: expected an integer, got 'x'"}),
        ({"name": "x", "limit": 0}, {"limit": "limit: 0 is less than the minimum 1"}),
        ({"name": "x", "limit": None}, {}),
        # NOTE: a required key left out is for `_Call.value` to report: an env var or config
        # file may supply it.
        ({}, {}),
    ],
)
def test_problems(raw: dict[str, Any], expected: dict[str, str]) -> None:
    assert inputs._input_problems("greet", raw, TOOL) == expected


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=5,
)


@pytest.mark.slow  # NOTE: hundreds of drawn inputs (docs/contributing.md)
@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(sorted(SCHEMA["properties"])), JSON))
def test_the_shortcut_agrees_with_the_schema_walk(raw: dict[str, Any]) -> None:
    with_shortcut = inputs._input_problems("greet", raw, TOOL)
    # NOTE: the same check with no property known by type alone: every value walks the schema.
    inputs._PLAIN_PROPERTIES["greet"] = {}
    try:
        walked = inputs._input_problems("greet", raw, TOOL)
    finally:
        del inputs._PLAIN_PROPERTIES["greet"]
    assert with_shortcut == walked
