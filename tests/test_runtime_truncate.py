"""The runtime's truncation, in-process: data shrunk to a limit without breaking its schema,
and the full output saved to spill files to page back."""

from __future__ import annotations

import json
import os
import re
import stat
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from burgee.runtime.answers import spill
from burgee.runtime.answers.deliver import _deliver
from burgee.runtime.answers.spill import _SPILL_KEEP, _read_spill, _spill
from burgee.runtime.answers.truncate import (
    _over,
    _truncate,
    _truncate_marker,
    _Truncation,
)
from burgee.runtime.core.errors import UsageError
from burgee.runtime.core.kinds import _Any, _Int, _Str
from burgee.runtime.start import boot
from tests.runtime_program import program

#: The tool whose outputs are saved (the folder they go in, in a cache directory).
NAME = "mytool"

REF = "0123456789abcdef"


def _size(data: object) -> int:
    return len(json.dumps(data, ensure_ascii=False))


def _envelope(data: object, **meta: Any) -> dict[str, Any]:
    envelope: dict[str, Any] = {"ok": True, "data": data}
    if meta:
        envelope["meta"] = meta
    return envelope


_STEP = re.compile(r'\[(\d+)\]|\.([^.\[]+)|\[("(?:[^"\\]|\\.)*")\]')


def _resolve(data: object, path: str) -> Any:
    """The value at a cut's path (`$.data[3].text`, `$.data["odd key"]`) in `data`."""
    assert path.startswith("$.data"), path
    rest = path[len("$.data") :]
    node: Any = data
    while rest:
        step = _STEP.match(rest)
        assert step is not None, path
        index, name, quoted = step.groups()
        node = node[int(index)] if index is not None else node[name or json.loads(quoted)]
        rest = rest[step.end() :]
    return node


def _markers(original: object, result: dict[str, Any], ref: str | None) -> int:
    """M: the JSON length of every marker the result holds (a newline after one counts 2)."""
    total = 0
    for cut in result["meta"]["truncated"]["cuts"]:
        before = _resolve(original, cut["path"])
        if isinstance(before, str):
            after = _resolve_kept(original, result["data"], cut["path"])
            marker = _truncate_marker(cut["omitted"], ref)
            inserted = len(after) - len(before) + cut["omitted"]
            assert inserted in (len(marker), len(marker) + 1)
            total += len(marker) + 2 * (inserted - len(marker))
    return total


def _resolve_kept(original: object, shrunk: object, path: str) -> Any:
    """The value at `path` (original indexes) in the shrunk data, whose arrays lost items."""
    rest = path[len("$.data") :]
    before: Any = original
    after: Any = shrunk
    while rest:
        step = _STEP.match(rest)
        assert step is not None
        index, name, quoted = step.groups()
        if index is None:
            key = name or json.loads(quoted)
            before, after = before[key], after[key]
        else:
            position = int(index)
            if position >= len(after) or len(after) < len(before):
                head, tail = _split(len(after))
                if len(after) < len(before):
                    assert position < head or position >= len(before) - tail, path
                    if position >= head:
                        position = head + position - (len(before) - tail)
            before, after = before[int(index)], after[position]
        rest = rest[step.end() :]
    return after


def _split(kept: int) -> tuple[int, int]:
    """The documented split of a cut array's kept items: 70% from the head, at least one each."""
    tail = max(1, kept * 3 // 10)
    return kept - tail, tail


def _compare(
    before: Any,
    after: Any,
    path: str,
    cuts: dict[str, int],
    ref: str | None,
    *,
    maps: frozenset[int] = frozenset(),
) -> None:
    """`after` is `before` with at most the cuts listed: same keys (a map: its first and last),
    same types, same scalars."""
    assert type(after) is type(before), path
    if isinstance(before, dict):
        keys = list(before)
        if len(after) < len(before):
            assert id(before) in maps, f"{path}: a record lost keys"
            assert cuts.pop(path) == len(before) - len(after), path
            head, tail = _split(len(after))
            keys = keys[:head] + keys[len(keys) - tail :]
        else:
            assert path not in cuts, path
        assert list(after) == keys, path
        for key in keys:
            step = f".{key}" if key.isidentifier() else f"[{json.dumps(key, ensure_ascii=False)}]"
            _compare(before[key], after[key], path + step, cuts, ref, maps=maps)
    elif isinstance(before, list):
        if len(after) == len(before):
            assert path not in cuts
            pairs = list(enumerate(before))
        else:
            assert cuts.pop(path) == len(before) - len(after), path
            head, tail = _split(len(after))
            pairs = [*enumerate(before[:head]), *enumerate(before[len(before) - tail :])]
            pairs = [
                (i if n < head else len(before) - tail + i, item)
                for n, (i, item) in enumerate(pairs)
            ]
        for kept, (index, item) in zip(after, pairs):  # noqa: B905 (same length)
            _compare(item, kept, f"{path}[{index}]", cuts, ref, maps=maps)
    elif isinstance(before, str) and after != before:
        omitted = cuts.pop(path)
        marker = _truncate_marker(omitted, ref)
        at = after.index(marker)
        assert after[:at] == before[:at]
        rest = after[at + len(marker) :]
        tail = before[at + omitted :]
        # NOTE: a newline after the marker puts it on a line of its own.
        assert rest in (tail, "\n" + tail), path
    else:
        assert after == before, path
        assert path not in cuts


def _maps(data: Any, shape: Any, found: set[int], records: dict[str, Any]) -> None:
    """Add to `found` the ids of the dicts in `data` that `shape` (a command's return type, as
    `output._conform` reads it) says are maps, `dict[str, X]`: they may lose entries as arrays
    lose items and still match the schema; a record may not."""
    if not isinstance(shape, tuple):
        return
    form, inner = shape[0], shape[1]
    if form == "null":
        _maps(data, inner, found, records)
    elif form == "list" and isinstance(data, list):
        for item in data:
            _maps(item, inner, found, records)
    elif form == "map" and isinstance(data, dict):
        found.add(id(data))
        for item in data.values():
            _maps(item, inner, found, records)
    elif form == "record" and isinstance(data, dict):
        for key, item in data.items():
            _maps(item, records[inner][0].get(key), found, records)


def _check(
    data: object,
    limit: int,
    ref: str | None = REF,
    shape: Any = None,
    records: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Truncate `data` (of the return type `shape`, its records' fields in `records`) and check
    every promise `_truncate` makes; the result."""
    envelope = _envelope(data)
    text = json.dumps(envelope, ensure_ascii=False)
    result = _truncate(envelope, limit, ref, shape, records)
    assert json.dumps(envelope, ensure_ascii=False) == text  # the input is never changed
    if limit <= 0 or _size(data) <= limit:
        assert result is envelope
        return result
    json.dumps(result, ensure_ascii=False, allow_nan=False)
    assert result["ok"] is True
    truncated = result["meta"]["truncated"]
    assert truncated["ref"] == ref
    cuts: dict[str, int] = {}
    for cut in truncated["cuts"]:
        assert set(cut) == {"path", "omitted"}
        assert cut["path"] not in cuts
        assert cut["omitted"] > 0
        cuts[cut["path"]] = cut["omitted"]
    maps: set[int] = set()
    _maps(data, shape, maps, records or {})
    _compare(data, result["data"], "$.data", cuts, ref, maps=frozenset(maps))
    assert not cuts, f"cuts listed but not made: {cuts}"
    if _size(result["data"]) > limit + _markers(data, result, ref):
        # NOTE: the documented exception: nothing smaller can be made, so this is the smallest.
        assert result["data"] == _truncate(envelope, 1, ref, shape, records)["data"]
    return result


# Examples.


def test_the_marker_text() -> None:
    assert _truncate_marker(12345, REF) == (
        "[… 12,345 characters omitted — full output: 0123456789abcdef …]"
    )
    assert _truncate_marker(1234567, None) == (
        "[… 1,234,567 characters omitted — the full output could not be saved …]"
    )


def test_no_limit_and_data_that_fits_come_back_as_they_are() -> None:
    envelope = _envelope("x" * 10_000)
    assert _truncate(envelope, 0, REF) is envelope
    assert _truncate(envelope, -1, REF) is envelope
    assert _truncate(envelope, 10_002, REF) is envelope  # the quotes count
    assert _truncate(envelope, 10_001, REF) is not envelope


def test_provenance_echoing_a_long_input_gets_a_quarter_of_the_limit() -> None:
    """The inputs echoed in meta.provenance would make the answer as long as the input."""
    label = {"source": "json", "from": "json label", "value": "y" * 100_000}
    envelope = _envelope("ok", provenance={"label": label, "n": {"value": 3}})
    result = _truncate(envelope, 4_000, REF)
    shown = result["meta"]["provenance"]
    assert _size(shown) <= 1_000 + len(_truncate_marker(99_999, REF))
    assert shown["n"] == {"value": 3} and shown["label"]["from"] == "json label"
    assert result["data"] == "ok"
    [cut] = result["meta"]["truncated"]["cuts"]
    assert cut["path"] == "$.meta.provenance.label.value" and cut["omitted"] > 90_000
    assert envelope["meta"]["provenance"]["label"] is label  # the original is left alone
    short = _envelope("ok", provenance={"n": {"value": 3}})
    assert _truncate(short, 4_000, REF) is short


def test_a_string_keeps_its_head_and_tail_around_the_marker() -> None:
    text = "".join(chr(ord("a") + i % 26) for i in range(5000))
    result = _check(text, 300)
    data = result["data"]
    [cut] = result["meta"]["truncated"]["cuts"]
    assert cut["path"] == "$.data"
    marker = _truncate_marker(cut["omitted"], REF)
    head, tail = data.split(marker)
    assert text.startswith(head)
    assert text.endswith(tail)
    assert len(head) + cut["omitted"] + len(tail) == len(text)
    # NOTE: everything, markers included, fits when it can: 300 leaves room for text.
    assert _size(data) <= 300
    assert len(head) == pytest.approx(0.7 * (len(head) + len(tail)), abs=1)
    assert len(head) + len(tail) > 150


def test_without_a_reference_the_marker_says_so() -> None:
    result = _check("x" * 5000, 200, None)
    assert result["meta"]["truncated"]["ref"] is None
    assert "characters omitted — the full output could not be saved …]" in result["data"]


def test_a_text_of_lines_is_cut_at_line_boundaries() -> None:
    lines = [f"line {i}: " + "-" * (i % 50) for i in range(2000)]
    text = "\n".join(lines)
    result = _check(text, 2000)
    [cut] = result["meta"]["truncated"]["cuts"]
    marker = _truncate_marker(cut["omitted"], REF)
    head, tail = result["data"].split(marker + "\n")
    assert head.endswith("\n")
    kept = head.splitlines() + tail.splitlines()
    assert kept[0] == lines[0]
    assert kept[-1] == lines[-1]
    assert set(kept) <= set(lines)  # only whole lines
    assert _size(result["data"]) <= 2000


def test_a_long_list_keeps_its_first_and_last_items() -> None:
    result = _check(list(range(1000)), 100)
    data = result["data"]
    assert data[0] == 0
    assert data[-1] == 999
    assert all(type(item) is int for item in data)
    head, tail = _split(len(data))
    assert data == [*range(head), *range(1000 - tail, 1000)]
    assert result["meta"]["truncated"]["cuts"] == [{"path": "$.data", "omitted": 1000 - len(data)}]
    assert _size(data) <= 100


def test_nested_data_keeps_every_key_and_lists_cuts_by_path() -> None:
    data = {
        "total": 40,
        "items": [
            {"id": i, "text": f"item {i} " + "x" * 400, "tags": ["a", "b"]} for i in range(40)
        ],
        "odd key": "y" * 3000,
        "done": True,
        "none": None,
    }
    result = _check(data, 3000)
    shrunk = result["data"]
    assert list(shrunk) == list(data)
    assert shrunk["total"] == 40
    assert shrunk["done"] is True
    assert shrunk["none"] is None
    assert all(set(item) == {"id", "text", "tags"} for item in shrunk["items"])
    paths = [cut["path"] for cut in result["meta"]["truncated"]["cuts"]]
    assert '$.data["odd key"]' in paths
    assert _size(shrunk) <= 3000


def test_indexes_in_paths_are_those_of_the_original_data() -> None:
    data = [{"n": i, "text": "z" * 3000} for i in range(10)] * 10
    result = _check(data, 5000)
    paths = [cut["path"] for cut in result["meta"]["truncated"]["cuts"]]
    assert paths[0] == "$.data"
    assert any(path.startswith("$.data[99].") for path in paths)
    assert result["data"][-1]["n"] == 9


def test_meta_is_merged_and_the_envelope_not_changed() -> None:
    envelope = _envelope(["x" * 100] * 100, provenance={"limit": "default"})
    result = _truncate(envelope, 500, REF)
    assert result["meta"]["provenance"] == {"limit": "default"}
    assert set(result["meta"]) == {"provenance", "truncated"}
    assert envelope["meta"] == {"provenance": {"limit": "default"}}
    assert len(envelope["data"]) == 100
    assert list(result) == ["ok", "data", "meta"]


def test_short_strings_are_never_cut() -> None:
    data = {"a": "abc" * 10, "b": "abc" * 13}
    result = _check(data, 10)
    assert result["data"] == data
    assert result["meta"]["truncated"]["cuts"] == []


def test_too_many_keys_cannot_fit_and_the_smallest_result_comes_back() -> None:
    data = {f"key{i}": "v" * 200 for i in range(10_000)}
    result = _check(data, 1000)
    shrunk = result["data"]
    assert list(shrunk) == list(data)
    cuts = result["meta"]["truncated"]["cuts"]
    assert len(cuts) == 10_000
    # NOTE: the bound cannot hold here: the keys alone are longer than the limit.
    assert _size(shrunk) > 1000 + _markers(data, result, REF)
    assert _size(shrunk) < _size(data)
    assert result["meta"]["truncated"]["cuts"][0]["path"] == "$.data.key0"


def test_a_number_longer_than_the_limit_stays() -> None:
    result = _check(123456789, 3)
    assert result["data"] == 123456789
    assert result["meta"]["truncated"]["cuts"] == []


def test_escapes_count_as_json_writes_them() -> None:
    text = '"\\\n\x01é' * 2000
    for limit in (100, 1000, 5000):
        result = _check(text, limit)
        assert _size(result["data"]) <= limit


def test_huge_inputs_end_quickly() -> None:
    lines = "\n".join(f"line {i} " + "y" * 30 for i in range(200_000))
    deep: Any = "leaf " * 1000
    for level in range(100):
        deep = {"level": level, "child": deep, "items": list(range(5))}
    started = time.process_time()
    for data in (lines, list(range(1_000_000)), deep):
        limit = 100_000 if data is not deep else 5000
        assert _size(_truncate(_envelope(data), limit, REF)["data"]) <= limit
    assert time.process_time() - started < 8


# Properties.

_TEXT = st.text(max_size=20) | st.text(alphabet='ab \n"\\é\x01\u2028', min_size=30, max_size=900)
_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | _TEXT
)
_JSON = st.recursive(
    _SCALARS,
    lambda children: (
        st.lists(children, max_size=30) | st.dictionaries(st.text(max_size=8), children, max_size=8)
    ),
    max_leaves=40,
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_JSON, st.integers(1, 3000) | st.floats(0, 1.1), st.sampled_from([REF, None]))
def test_truncation_keeps_the_schema_and_the_bound(
    data: Any, limit: float, ref: str | None
) -> None:
    # NOTE: a limit in characters, or a share of the data's own length.
    _check(data, limit if isinstance(limit, int) else max(1, round(_size(data) * limit)), ref)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.text(alphabet="xy\n", min_size=0, max_size=80), max_size=200), st.integers(1, 4000)
)
def test_texts_of_lines_keep_the_bound(lines: list[str], limit: int) -> None:
    _check("\n".join(lines), limit)


_LONG = st.text(alphabet='ab \n"é', min_size=100, max_size=3000) | st.lists(
    st.text(alphabet="xy", max_size=60), max_size=80
).map("\n".join)
#: Data with much to cut: long strings and lines, long lists, few keys.
_SHRINKABLE = st.recursive(
    _LONG | st.integers(0, 9),
    lambda children: (
        st.lists(children, max_size=60)
        | st.dictionaries(st.sampled_from("abc"), children, max_size=3)
    ),
    max_leaves=40,
)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_SHRINKABLE, st.floats(0.01, 1.1), st.sampled_from([REF, None]))
def test_shrinkable_data_keeps_the_bound(data: Any, share: float, ref: str | None) -> None:
    _check(data, max(1, round(_size(data) * share)), ref)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    _SHRINKABLE | _JSON,
    st.integers(0, 3000),
    st.integers(0, 400) | st.just(1 << 62),
    st.integers(2, 40) | st.just(1 << 62),
    st.sampled_from([0, 1]),
)
def test_a_try_stops_over_its_budget_and_is_exact_within_it(
    data: Any, budget: int, text_cap: int, item_cap: int, free: int
) -> None:
    """A try measures only until it is over its budget: within it, the length is exact (that of
    the result those caps build, less its markers' when they are left out); over it, only
    said to be over."""
    plan = _Truncation(REF, frozenset())
    plan.text_cap, plan.item_cap, plan.free = text_cap, item_cap, free
    exact = plan.measure(data, 1 << 62)
    built = plan.build(data, "$.data")
    if not free:
        assert exact == _size(built)
    measured = plan.measure(data, budget)
    if exact <= budget:
        assert measured == exact
    else:
        assert measured > budget


def test_data_exactly_at_the_limit_is_not_cut_and_one_over_it_is() -> None:
    records = [{"id": i, "name": f"user {i}", "tags": ["a", "b"]} for i in range(1000)]
    size = _size(records)
    at = _envelope(records)
    assert _truncate(at, size, REF) is at
    assert not _over(at, size)
    assert _over(at, size - 1)
    result = _check(records, size - 1)
    assert _size(result["data"]) <= size - 1
    assert result["data"][0] == records[0] and result["data"][-1] == records[-1]
    # NOTE: the most that fits: one item more than kept (the split kept) would not.
    kept = len(result["data"])
    head, tail = _split(kept + 1)
    assert _size([*records[:head], *records[1000 - tail :]]) > size - 1


def test_a_long_list_of_records_keeps_as_many_as_fit() -> None:
    records = [
        {"id": i, "name": f"user {i}", "email": f"user{i}@example.com", "tags": ["a"]}
        for i in range(100_000)
    ]
    result = _check(records, 40_000)
    kept = len(result["data"])
    assert _size(result["data"]) <= 40_000
    head, tail = _split(kept + 1)
    assert _size([*records[:head], *records[len(records) - tail :]]) > 40_000
    [cut] = result["meta"]["truncated"]["cuts"]
    assert cut == {"path": "$.data", "omitted": 100_000 - kept}


# Maps: a `dict[str, X]` result loses entries as a list loses items; a record never a key.


def test_a_map_with_too_many_keys_loses_its_middle_entries() -> None:
    data = {f"key{i}": "v" * 200 for i in range(10_000)}
    result = _check(data, 1000, shape=("map", _Str))
    shrunk = result["data"]
    assert _size(shrunk) <= 1000
    keys = list(shrunk)
    assert keys[0] == "key0" and keys[-1] == "key9999"
    [cut] = result["meta"]["truncated"]["cuts"]
    assert cut == {"path": "$.data", "omitted": 10_000 - len(shrunk)}


def test_maps_inside_lists_and_records_are_cut_and_the_records_keep_their_keys() -> None:
    tally = ({"name": _Str, "counts": ("map", _Int), "extra": _Any}, ("name",))
    extra = {f"x{i}": i for i in range(500)}  # NOTE: `Any`: a dict of its own, never a map
    tallies = [
        {"name": f"t{n}", "counts": {f"w{i}": i for i in range(300)}, "extra": extra}
        for n in range(3)
    ]
    result = _check(tallies, 8000, shape=("list", ("record", "Tally")), records={"Tally": tally})
    cuts = {cut["path"] for cut in result["meta"]["truncated"]["cuts"]}
    assert any(path.endswith(".counts") for path in cuts)
    assert not any(path.endswith(".extra") for path in cuts)
    for tally in result["data"]:
        assert set(tally) == {"name", "counts", "extra"} and tally["extra"] == extra


def test_maps_are_known_by_their_type_in_a_long_list_of_records() -> None:
    """An `Optional[dict[str, int]]` field of each of 5,000 records: the maps the cut reaches
    lose entries, the records keep their keys, and `Any` data is never a map."""
    row = ({"id": _Int, "counts": ("null", ("map", _Int)), "extra": _Any}, ("id",))
    rows = [
        {"id": i, "counts": {f"w{j}": j for j in range(60)} if i % 2 else None, "extra": {}}
        for i in range(5000)
    ]
    rows[0]["extra"] = {f"x{j}": j for j in range(300)}
    shape = ("null", ("list", ("record", "Row")))
    result = _check(rows, 3000, shape=shape, records={"Row": row})
    cuts = {cut["path"]: cut["omitted"] for cut in result["meta"]["truncated"]["cuts"]}
    assert cuts.pop("$.data") > 4900
    assert cuts and all(re.fullmatch(r"\$\.data\[\d+\]\.counts", path) for path in cuts)
    assert result["data"][0]["extra"] == rows[0]["extra"]


_MAP_VALUES = st.recursive(
    st.integers() | _TEXT,
    lambda children: st.lists(children, max_size=20),
    max_leaves=20,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.dictionaries(st.text(max_size=12), _MAP_VALUES, max_size=120),
    st.floats(0.01, 1.1),
    st.sampled_from([REF, None]),
)
def test_maps_keep_the_schema_and_the_bound(
    data: dict[str, Any], share: float, ref: str | None
) -> None:
    _check(data, max(1, round(_size(data) * share)), ref, shape=("map", _Any))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.dictionaries(st.text(max_size=6), st.integers(), max_size=40), max_size=30),
    st.floats(0.01, 1.1),
)
def test_lists_of_maps_keep_the_bound(data: list[dict[str, int]], share: float) -> None:
    _check(data, max(1, round(_size(data) * share)), REF, shape=("list", ("map", _Int)))


# Spill files.


def test_spill_round_trip_in_pages(tmp_path: Path) -> None:
    text = '{"ok": true, "data": "é\\r\\n"}\r\n' * 50 + "\udcff end"
    ref = _spill(text, NAME, str(tmp_path))
    assert ref is not None
    assert re.fullmatch("[0-9a-f]{16}", ref)
    assert os.listdir(tmp_path) == [f"{ref}.txt"]
    pages = []
    offset: int | None = 0
    while offset is not None:
        page = _read_spill(ref, NAME, offset, 97, str(tmp_path))
        assert page["ref"] == ref
        assert page["offset"] == offset
        assert page["length"] == len(text)
        assert len(page["text"]) <= 97
        pages.append(page["text"])
        offset = page["next"]
    assert "".join(pages) == text
    whole = _read_spill(ref, NAME, directory=str(tmp_path))
    assert whole["text"] == text
    assert whole["next"] is None
    assert _read_spill(ref, NAME, len(text) + 5, 10, str(tmp_path))["text"] == ""


def test_saving_twice_is_idempotent(tmp_path: Path) -> None:
    first = _spill("same text", NAME, str(tmp_path))
    second = _spill("same text", NAME, str(tmp_path))
    assert first == second
    assert first is not None
    assert len(os.listdir(tmp_path)) == 1
    assert _spill("other text", NAME, str(tmp_path)) != first


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_the_default_directory_is_private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    ref = _spill("secret output", NAME)
    assert ref is not None
    folder = tmp_path / "cache" / "mytool" / "output"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE((folder / f"{ref}.txt").stat().st_mode) == 0o600
    assert _read_spill(ref, NAME)["text"] == "secret output"
    # NOTE: a relative XDG_CACHE_HOME is ignored, as the XDG spec says.
    monkeypatch.setenv("XDG_CACHE_HOME", "relative")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    first, _ = spill._spill_directories(NAME)[0]
    assert first == str(tmp_path / "home" / ".cache" / "mytool" / "output")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_a_home_that_cannot_be_written_saves_in_the_code_caches_fallback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the code cache goes too (`boot._cache_directory`): this user's private directory
    in the temporary directory; never one that others may write in."""
    home = tmp_path / "home"
    home.mkdir()
    (home / ".cache").write_text("a file, not a directory")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.delenv("BURGEE_CACHE_DIR", raising=False)
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    ref = _spill("the full output", NAME)
    assert ref is not None
    saved = Path(boot._temporary_cache()) / "mytool" / "output" / f"{ref}.txt"
    assert saved.read_text() == "the full output"
    assert _read_spill(ref, NAME)["text"] == "the full output"
    assert Path(boot._cache_directory() or "") == saved.parents[2]
    # NOTE: open to others: someone else could have planted the text an agent reads back.
    os.chmod(boot._temporary_cache(), 0o777)
    with pytest.raises(UsageError, match="no saved output"):
        _read_spill(ref, NAME)
    assert _spill("more output", NAME) is None


def test_old_and_surplus_spill_files_are_pruned(tmp_path: Path) -> None:
    now = time.time()
    names = []
    for i in range(_SPILL_KEEP + 10):
        name = f"{i:016x}.txt"
        (tmp_path / name).write_text("x")
        os.utime(tmp_path / name, (now - 1000 + i, now - 1000 + i))
        names.append(name)
    old = tmp_path / ("f" * 16 + ".txt")
    old.write_text("old")
    os.utime(old, (now - 8 * 86400, now - 8 * 86400))
    stale = tmp_path / ".interrupted.tmp"
    stale.write_text("half")
    os.utime(stale, (now - 7200, now - 7200))
    other = tmp_path / "notes.md"
    other.write_text("not ours")
    os.utime(other, (now - 30 * 86400, now - 30 * 86400))
    ref = _spill("new", NAME, str(tmp_path))
    left = set(os.listdir(tmp_path))
    assert f"{ref}.txt" in left
    assert "notes.md" in left
    assert old.name not in left
    assert stale.name not in left
    spilled = left - {"notes.md"}
    assert len(spilled) == _SPILL_KEEP
    # NOTE: the oldest went first.
    assert spilled == {f"{ref}.txt", *names[-(_SPILL_KEEP - 1) :]}


def test_an_unwritable_directory_gives_no_reference(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert _spill("text", NAME, str(blocker / "output")) is None
    assert _spill("text", NAME, str(blocker)) is None


@pytest.mark.parametrize(
    "ref",
    ["../../etc/passwd", "0123456789abcde/", "..", "a/b", "0123456789ABCDEF", "xyz", "", "0" * 17],
)
def test_malformed_references_are_refused(ref: str, tmp_path: Path) -> None:
    with pytest.raises(UsageError) as caught:
        _read_spill(ref, NAME, directory=str(tmp_path))
    assert "not a saved-output reference" in caught.value.message
    assert "hexadecimal" in (caught.value.hint or "")


def test_unknown_references_are_usage_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(UsageError, match="expired or was never saved") as elsewhere:
        _read_spill(REF, NAME, directory=str(tmp_path))
    assert "--spill-dir" not in str(elsewhere.value.hint)
    # NOTE: looked for in the default place: it may have been saved with --spill-dir.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    with pytest.raises(UsageError) as default:
        _read_spill(REF, NAME)
    assert str(default.value.hint).endswith("saved with --spill-dir? give it again")


@settings(max_examples=40, deadline=None)
@given(st.text(), st.integers(1, 40))
def test_pages_concatenate_to_the_saved_text(text: str, size: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        ref = _spill(text, NAME, folder)
        assert ref is not None
        assert _spill(text, NAME, folder) == ref
        pages = []
        offset: int | None = 0
        while offset is not None:
            page = _read_spill(ref, NAME, offset, size, folder)
            pages.append(page["text"])
            offset = page["next"]
        assert "".join(pages) == text


def test_a_map_given_as_input_is_cut_in_provenance_too() -> None:
    """The echo of a `dict[str, str]` input of 3,000 entries: cut as a map is (provenance has
    no schema), so the answer stays within its bound."""
    labels = {f"k{i}": "v" * 10 for i in range(3000)}
    echo = {"labels": {"source": "json", "from": "json labels", "value": labels}}
    result = _truncate(_envelope("ok", provenance=echo), 4_000, REF)
    shown = result["meta"]["provenance"]
    assert _size(shown) <= 1_000
    assert shown["labels"]["source"] == "json" and "k0" in shown["labels"]["value"]
    cuts = {cut["path"]: cut["omitted"] for cut in result["meta"]["truncated"]["cuts"]}
    assert cuts["$.meta.provenance.labels.value"] > 2900


def test_many_options_lose_middle_entries_of_provenance_and_each_entry_its_keys_never() -> None:
    echo = {f"opt{i}": {"source": "default", "from": "default", "value": i} for i in range(40)}
    result = _truncate(_envelope("x" * 5_000, provenance=echo), 2_000, REF)
    shown = result["meta"]["provenance"]
    assert 2 <= len(shown) < 40 and "opt0" in shown and "opt39" in shown
    assert all(set(entry) == {"source", "from", "value"} for entry in shown.values())
    cuts = {cut["path"]: cut["omitted"] for cut in result["meta"]["truncated"]["cuts"]}
    assert cuts["$.meta.provenance"] == 40 - len(shown)


@pytest.mark.parametrize("token", ["", "<|im_start|>"])
def test_an_agents_long_answer_is_neutralised_saved_whole_and_cut(
    token: str, tmp_path: Path
) -> None:
    """The answer's text, made once, is what is saved; the walk that neutralises control
    tokens is left out only when that text has none."""
    data = [{"id": i, "text": f"line {i} {token}"} for i in range(2000)]
    envelope = _envelope(data)
    delivered = _deliver(envelope, None, program(), agent=True, limit=2000, spill_dir=str(tmp_path))
    cut = delivered["meta"]["truncated"]
    assert 2 < len(delivered["data"]) < 2000 and _size(delivered["data"]) <= 2000
    assert "<|im_start|>" not in json.dumps(delivered, ensure_ascii=False)
    saved = _read_spill(cut["ref"], NAME, directory=str(tmp_path))["text"]
    assert "<|im_start|>" not in saved
    assert len(json.loads(saved)["data"]) == 2000
