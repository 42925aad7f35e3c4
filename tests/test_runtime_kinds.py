"""Every row of the type table, in-process: its converter reads text and JSON input, refuses
what it must, and what the tool then writes passes the type's own result check."""

from __future__ import annotations

import datetime
import decimal
import enum
import json
import pathlib
import uuid
from typing import Any, get_args

import pytest

from burgee.model.ir import TypeKind
from burgee.runtime.answers.output import _jsonable
from burgee.runtime.core import jsonread, kinds, wording
from burgee.runtime.core.errors import _Invalid
from burgee.runtime.core.kinds import TYPES, _Count, _Float, _Int, _Str, _Type
from burgee.runtime.execution.inputs import _problem
from burgee.runtime.execution.values import _choice, _matching, _member, _pairs, _tuple, _within

#: kind -> (inputs that convert, with the value each gives; inputs that must be refused).
CASES: dict[str, tuple[list[tuple[Any, Any]], list[Any]]] = {
    "str": ([("a b", "a b"), ("", "")], [1, None, ["x"]]),
    "int": (
        [("42", 42), ("-7", -7), (3, 3), ("+5", 5)],
        ["4.2", "x", True, 1.5, None, "0x10", "1_000", "\uff15", "\u0665", " -7 ", "80\n"],
    ),
    "float": (
        [("1.5", 1.5), (2, 2.0), ("1e3", 1000.0)],
        ["x", False, None, "1_0.5", "\uff15", "nan", "inf", "1e400", " 1.5"],
    ),
    "bool": ([("yes", True), ("OFF", False), (True, True), ("1", True)], ["maybe", 1, None]),
    "path": ([("a/b.txt", pathlib.Path("a/b.txt"))], ["", 3, None]),
    # NOTE: the path, opened when the handler runs (`execution/files.py`, tests/test_files.py).
    "textfile": ([("a/b.txt", "a/b.txt"), ("-", "-")], ["", 3, None, ["a"]]),
    "binaryfile": ([("a.bin", "a.bin")], ["", 3, None]),
    # NOTE: what 3.11's fromisoformat reads and 3.9's does not is refused on every Python.
    "date": (
        [("2026-11-30", datetime.date(2026, 11, 30))],
        ["30/11/2026", "", 5, "20261130", "2026-W48-1", "2026-11-30T10:00", "\uff12026-11-30"],
    ),
    "datetime": (
        [
            ("2026-11-30T10:05:00", datetime.datetime(2026, 11, 30, 10, 5)),
            ("2026-11-30T10:05:00Z", datetime.datetime(2026, 11, 30, 10, 5, tzinfo=datetime.UTC)),
            ("2026-11-30 10:05", datetime.datetime(2026, 11, 30, 10, 5)),
            ("2026-11-30", datetime.datetime(2026, 11, 30)),
            (
                "2026-11-30T10:05:00.250+01:00",
                datetime.datetime(
                    2026, 11, 30, 10, 5, 0, 250000, datetime.timezone(datetime.timedelta(hours=1))
                ),
            ),
            ("2026-11-30T10:05:00.2", datetime.datetime(2026, 11, 30, 10, 5, 0, 200000)),
        ],
        ["tomorrow", 5, None, "20261130T1005", "2026-11-30T10", "2026-11-30T10:05:00."],
    ),
    "time": (
        [
            ("07:30", datetime.time(7, 30)),
            ("07:30:15Z", datetime.time(7, 30, 15, tzinfo=datetime.UTC)),
            ("07:30:15.1", datetime.time(7, 30, 15, 100000)),
            ("07:30:15.123456789", datetime.time(7, 30, 15, 123456)),
        ],
        ["25:00", 7, "0730", "07", "T07:30", "07:30:15.", "07:30:15.1234567890", "07:30.5"],
    ),
    "uuid": ([(str(uuid.UUID(int=5)), uuid.UUID(int=5))], ["nope", 5]),
    "decimal": (
        [
            ("1.50", decimal.Decimal("1.50")),
            (2, decimal.Decimal(2)),
            ("1E+2", decimal.Decimal(100)),
        ],
        ["NaN", "Infinity", "x", True, None, "1_000", " 5", "\uff15"],
    ),
    "count": ([(3, 3), ("0", 0), (2.0, 2)], [-1, "-2", "x", True, None]),
    "any": ([({"a": [1]}, {"a": [1]}), (None, None)], []),
    "none": ([(None, None)], []),
    # NOTE: a result only (`tests/test_media.py`): never read from input.
    "image": ([], ["x", None, {"type": "image"}]),
    "audio": ([], ["x", None]),
    "resource": ([], ["x", None, {"type": "resource", "uri": "a:b", "text": "t"}]),
}


def test_every_type_has_cases() -> None:
    assert set(CASES) == set(TYPES)


def test_the_generator_knows_every_leaf_type_by_the_runtime_name() -> None:
    """The IR's `TypeKind` names the runtime's leaf types and the kinds built from them."""
    built = {"choice", "enum", "list", "record", "dict", "tuple", "content"}
    assert set(get_args(TypeKind)) == set(TYPES) | built
    assert not built & set(TYPES)


@pytest.mark.parametrize("kind", sorted(TYPES))
def test_a_type_reads_its_input_and_its_output_passes_its_check(kind: str) -> None:
    spec: type[_Type] = TYPES[kind]
    good, bad = CASES[kind]
    for raw, expected in good:
        value = spec.convert(raw)
        assert value == expected, (kind, raw)
        assert spec.check(_jsonable(value)), (kind, value)
    for raw in bad:
        with pytest.raises(_Invalid):
            spec.convert(raw)


@pytest.mark.parametrize("kind", sorted(TYPES))
def test_a_type_describes_itself(kind: str) -> None:
    spec = TYPES[kind]
    assert spec.name == kind
    assert spec.expected
    assert spec.clispec
    # NOTE: a count is an int an option counts (`Option(count=True)`), named by no annotation.
    assert spec.spellings or spec.base, kind
    if spec.module:
        assert spec.module in ("datetime", "decimal", "pathlib", "uuid")


def test_checks_refuse_the_other_json_types() -> None:
    samples = {"text": "x", "int": 1, "float": 1.5, "bool": True, "null": None, "list": [1]}
    accepts = {
        kind: {name for name, value in samples.items() if TYPES[kind].check(value)}
        for kind in TYPES
    }
    assert accepts["int"] == {"int"}
    assert accepts["float"] == {"int", "float"}
    assert accepts["bool"] == {"bool"}
    assert accepts["str"] == {"text"}
    assert accepts["none"] == {"null"}
    assert accepts["any"] == set(samples)
    assert accepts["decimal"] == set()
    assert accepts["count"] == {"int"}


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (["a=1", "b=x=y"], {"a": "1", "b": "x=y"}),
        ({"a": "1"}, {"a": "1"}),
        ('{"a": "1"}', {"a": "1"}),
        ("a=1, b=2", {"a": "1", "b": "2"}),
        (['{"a": "1"}', "b=2"], {"a": "1", "b": "2"}),
        # NOTE: the empty key, as a word and as JSON: the command line takes what JSON takes.
        (["=1"], {"": "1"}),
        ({"": "1"}, {"": "1"}),
    ],
)
def test_pairs_read_key_value_words_and_json_objects(raw: Any, expected: Any) -> None:
    assert _pairs(_Str.convert)(raw) == expected


@pytest.mark.parametrize("raw", [["novalue"], [""], 3, '{"a": 1}'])
def test_pairs_refuse(raw: Any) -> None:
    with pytest.raises(_Invalid):
        _pairs(_Str.convert)(raw)


def test_a_tuple_takes_exactly_its_values() -> None:
    convert = _tuple(_Int.convert, _Str.convert)
    assert convert(["1", "a"]) == (1, "a")
    assert convert('[2, "b"]') == (2, "b")
    for raw in (["1"], ["1", "a", "b"], ["x", "a"]):
        with pytest.raises(_Invalid):
            convert(raw)


def test_matching_checks_pattern_and_lengths() -> None:
    convert = _matching(_Str.convert, r"^[a-z]+$", 2, 4)
    assert convert("abc") == "abc"
    messages = []
    for raw in ("a", "abcde", "ab1"):
        with pytest.raises(_Invalid) as raised:
            convert(raw)
        messages.append(str(raised.value))
    assert messages == [
        "'a' is shorter than 2 characters",
        "'abcde' is longer than 4 characters",
        "'ab1' does not match ^[a-z]+$",
    ]


def test_a_decimal_too_large_for_a_float_says_to_send_text() -> None:
    with pytest.raises(_Invalid, match='give it as text, such as "1e400"'):
        TYPES["decimal"].convert(float("inf"))
    assert TYPES["decimal"].convert("1e400") == decimal.Decimal("1e400")


@pytest.mark.parametrize(
    ("convert", "value", "schema"),
    [
        (_Count.convert, -1, {"type": "integer", "minimum": 0}),
        (_within(_Int.convert, 1, 5), 9, {"type": "integer", "minimum": 1, "maximum": 5}),
        (_within(_Float.convert, 0.5, None), 0.25, {"type": "number", "minimum": 0.5}),
        (_matching(_Str.convert, None, 2, None), "a", {"type": "string", "minLength": 2}),
        (_matching(_Str.convert, None, None, 1), "ab", {"type": "string", "maxLength": 1}),
        (_matching(_Str.convert, "^b", None, None), "a", {"type": "string", "pattern": "^b"}),
        (_tuple(_Int.convert, _Int.convert), [1], {"type": "array", "minItems": 2, "maxItems": 2}),
        (
            _tuple(_Int.convert, _Int.convert),
            [1, 2, 3],
            {"type": "array", "minItems": 2, "maxItems": 2},
        ),
    ],
)
def test_a_converter_and_the_input_schema_check_word_a_problem_alike(
    convert: Any, value: Any, schema: dict[str, Any]
) -> None:
    """A value from the command line or an env var meets the converter; the same value as JSON
    meets the input schema's check first: both must say the same."""
    with pytest.raises(_Invalid) as refused:
        convert(value)
    assert _problem(value, schema, "key", schema) == f"key: {refused.value}"


def test_a_choice_is_matched_with_json_equality_as_its_schema_is() -> None:
    """What the input schema's `enum` accepts, the converter takes: 1.0 is the choice 1 (and
    the handler gets the choice itself); true is not 1; the command line's text "1" is."""
    convert = _choice(1, 2, 3)
    assert (convert(1.0), type(convert(1.0))) == (1, int)
    assert convert("2") == 2
    with pytest.raises(_Invalid):
        convert(True)
    schema = {"enum": [1, 2, 3]}
    assert _problem(1.0, schema, "n", schema) is None
    assert _problem(True, schema, "n", schema) is not None
    members = _member(enum.Enum("Size", [("S", 1), ("M", 2)]))
    assert members(2.0).name == "M"
    assert members("2").name == "M"  # NOTE: as an env var or a config string gives it
    with pytest.raises(_Invalid):
        members(True)
    # NOTE: a member's name is no value of it, from any source (argparse and the schemas agree).
    with pytest.raises(_Invalid, match="expected one of 1, 2, got 'M'"):
        members("M")


def test_an_integer_longer_than_python_reads_says_so() -> None:
    with pytest.raises(_Invalid, match="has too many digits for an integer"):
        _Int.convert("9" * 5000)


def test_json_input_refuses_what_json_cannot_give_back() -> None:
    from burgee.runtime.core.jsonread import _load_json  # noqa: PLC0415

    assert _load_json('{"a": 1.5, "b": 1e300, "c": -2e-300}') == {
        "a": 1.5,
        "b": 1e300,
        "c": -2e-300,
    }
    # NOTE: Python's json reads these as NaN and infinities; no answer could echo them back.
    for text in ('{"id": 1e400}', "[-1e999]", '{"x": NaN}', "Infinity"):
        with pytest.raises(ValueError, match=r"too large a number|is not a JSON value"):
            _load_json(text)


@pytest.mark.parametrize("text", ["12345678901234567890.123456789", "1.50", "1e3", "0.1"])
def test_a_json_number_reads_as_written_where_a_decimal_or_an_answer_takes_it(text: str) -> None:
    """A JSON number is a float (equal to `float(text)`) that, where the float may not give
    its text back, keeps it: a Decimal input reads it digit for digit; a number answer (an MCP
    client's, read as JSON) is a plain float."""
    from burgee.runtime.core.fields import _checked  # noqa: PLC0415
    from burgee.runtime.core.jsonread import _load_json  # noqa: PLC0415
    from burgee.runtime.rows import _FieldRow  # noqa: PLC0415

    for read in (
        _load_json(f"[{text}]")[0],
        json.loads(f"[{text}]", parse_float=jsonread._finite_float)[0],
    ):
        assert read == float(text) and isinstance(read, float)
        assert TYPES["decimal"].convert(read) == decimal.Decimal(text)
        assert str(TYPES["decimal"].convert(read)) == str(decimal.Decimal(text))
        field = _FieldRow(("n", "n", "", "number", False, (), (), True, None))
        answer = _checked(read, field)
        assert (type(answer), answer) == (float, float(text))


def test_json_input_reads_as_json_does_and_says_where_it_is_wrong() -> None:
    """`_load_json` reads valid text by `_json`'s scanner (no `import json`), and leaves what
    is wrong to json, whose message says where."""
    from burgee.runtime.core.jsonread import _load_json  # noqa: PLC0415

    valid = ('{"a": [1, -2.5e-3, "é\\u2028\\ud800", null, true, {}]}', " \r\n[] \t", '"x"', "0")
    for text in valid:
        assert _load_json(text) == json.loads(text)
    assert _load_json(b'{"a": 1}') == {"a": 1}
    with pytest.raises(ValueError, match=r"^Expecting value: line 1 column 7 \(char 6\)$"):
        _load_json('{"a": }')
    with pytest.raises(ValueError, match=r"^Extra data: line 1 column 4"):
        _load_json("{} x")
    with pytest.raises(ValueError, match=r"^Unexpected UTF-8 BOM"):
        _load_json("\ufeff{}")


def test_a_toml_date_is_a_midnight_and_is_shown_as_toml_writes_it() -> None:
    """A TOML config file gives dates and times as objects: a date alone for a datetime
    option is its midnight (as the text is), and a refused one reads as TOML writes it."""
    assert kinds._DateTime.convert(datetime.date(2026, 1, 2)) == datetime.datetime(2026, 1, 2)
    with pytest.raises(ValueError) as raised:
        kinds._Date.convert(datetime.datetime(2026, 1, 2, 10, 0))
    assert str(raised.value) == "expected a date (YYYY-MM-DD), got 2026-01-02T10:00:00"
    assert wording._show(datetime.time(10, 0)) == "10:00:00"
