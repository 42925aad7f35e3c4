"""Output that fits: a success envelope whose data is too long, shrunk so that it still
matches the command's output schema (`_truncate`). Long strings lose their middle (a marker
says how much, and where the full output is: `spill`), long arrays and maps (a `dict[str, X]`
result) their middle items; a record (a dataclass, a TypedDict) keeps every key, numbers,
booleans and nulls stay. What was cut is listed in `meta.truncated`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from burgee.runtime.output import _dumps
from burgee.runtime.program import RECORDS

if TYPE_CHECKING:
    from array import array
    from collections.abc import Callable

#: Strings this short are never cut: every marker is longer than what it would save.
_TRUNCATE_SHORT = 40
#: Arrays and maps keep at least this many items (the first and the last).
_TRUNCATE_FEWEST = 2
#: Containers whose JSON is shorter are walked on each try; longer ones are indexed once.
_TRUNCATE_INDEXED = 2048
#: Containers with at most this many children are measured without building lists.
_TRUNCATE_FEW = 16
#: The types of JSON numbers, booleans and null.
_TRUNCATE_NUMBERS = frozenset((int, float, bool, type(None)))
#: How far (in characters) a cut point moves to reach a line boundary, at most.
_TRUNCATE_NEAR = 1000
#: Strings are cut down to this many characters (or limit // 16, if more) before any array
#: loses items; below it, arrays go first.
_TRUNCATE_TEXT_FLOOR = 256


def _truncate_marker(omitted: int, ref: str | None) -> str:
    """What stands in for the middle of a cut string."""
    where = f"full output: {ref}" if ref is not None else "the full output could not be saved"
    return f"[\u2026 {omitted:,} characters omitted \u2014 {where} \u2026]"


def _truncate_scalar(value: object) -> int:
    """The JSON length of a number, a boolean or null."""
    if value is None or value is True:
        return 4
    if value is False:
        return 5
    if type(value) is int:
        return len(int.__repr__(value))
    if type(value) is float and value - value == 0:
        return len(float.__repr__(value))
    import json

    return len(json.dumps(value, ensure_ascii=False))


def _truncate_split(count: int) -> tuple[int, int]:
    """How many of `count` kept items or characters come from the head and from the tail."""
    tail = count * 3 // 10
    return count - tail, tail


class _TruncateIndex:
    """What one large container holds, measured once: its JSON length, the longest string and
    the longest array inside it, and the same per child, with the children sorted by both, so a
    try visits only the children that the caps reach."""

    __slots__ = (
        "by_items",
        "by_text",
        "deep_items",
        "deep_text",
        "entries",
        "items",
        "items_steps",
        "keys",
        "size",
        "sizes",
        "text_steps",
        "texts",
    )

    def __init__(
        self,
        size: int,
        keys: list[str] | None,
        sizes: list[int],
        texts: list[int],
        items: list[int],
        deep: tuple[int, int],
        keyed: list[int] | None = None,
    ) -> None:
        from array import array
        from itertools import accumulate

        self.size = size
        self.deep_text, self.deep_items = deep
        #: The dict's keys in order (positions index them), or None for a list.
        self.keys = keys
        #: sizes[i + 1] - sizes[i]: the JSON length of child i (of its value, in a dict).
        self.sizes = array("q", accumulate(sizes, initial=0))
        #: For a map (a dict that may lose entries): entries[i + 1] - entries[i] is the JSON
        #: length of entry i's `"key": ` and `, `.
        self.entries = array("q", accumulate(keyed, initial=0)) if keyed is not None else None
        self.texts = array("q", texts)
        self.items = array("q", items)
        self.by_text, self.text_steps = _truncate_order(texts, _TRUNCATE_SHORT, deep[0])
        self.by_items, self.items_steps = _truncate_order(items, _TRUNCATE_FEWEST, deep[1])


def _truncate_order(values: list[int], least: int, most: int) -> tuple[array[int], array[int]]:
    """The positions of `values` over `least`, from the smallest value up, and those values."""
    from array import array

    if most <= least:
        return array("q"), array("q")
    order = sorted((i for i, n in enumerate(values) if n > least), key=values.__getitem__)
    return array("q", order), array("q", map(values.__getitem__, order))


class _Truncation:
    """One truncation: the index of the data's large containers, and the cuts of the result.
    `maps`: the ids of the dicts that may lose entries as arrays lose items (`_truncate_maps`)."""

    def __init__(self, ref: str | None, maps: frozenset[int] = frozenset()) -> None:
        from json.encoder import encode_basestring

        self.ref = ref
        self.maps = maps
        #: JSON text of a string (quotes and escapes included), as `json.dumps` writes it.
        self.quote: Callable[[str], str] = encode_basestring
        self.index: dict[int, _TruncateIndex] = {}
        #: The JSON length of `"key": ` for each key seen (records repeat their keys).
        self.keyed: dict[str, int] = {}
        self.cuts: list[dict[str, Any]] = []

    def survey(self, node: Any) -> tuple[int, int, int]:
        """`node`'s JSON length, its longest string and its longest array (at any depth);
        long containers with something to cut inside get a `_TruncateIndex`."""
        kind = type(node)
        if kind is str:
            return len(self.quote(node)), len(node), 0
        if kind is not list and kind is not dict:
            return _truncate_scalar(node), 0, 0
        known = self.index.get(id(node))
        if known is not None:
            return known.size, known.deep_text, known.deep_items
        if len(node) <= _TRUNCATE_FEW:
            found = self.survey_few(node)
            if found[0] < _TRUNCATE_INDEXED or (
                found[1] <= _TRUNCATE_SHORT and found[2] <= _TRUNCATE_FEWEST
            ):
                return found
        keys: list[str] | None = None
        keyed: list[int] | None = None
        values: list[Any] = node
        size = 2 * len(node)
        if kind is dict:
            keys = list(node)
            values = list(node.values())
            keyed = [len(self.quote(key)) + 4 for key in keys]
            size = sum(keyed)
        kinds = set(map(type, values))
        texts: list[int]
        items: list[int]
        if kinds == {int}:
            sizes = list(map(len, map(int.__repr__, values)))
            texts = items = [0] * len(values)
        elif kinds <= _TRUNCATE_NUMBERS:
            sizes = list(map(_truncate_scalar, values))
            texts = items = [0] * len(values)
        elif kinds == {str}:
            sizes = list(map(len, map(self.quote, values)))
            texts = list(map(len, values))
            items = [0] * len(values)
        else:
            sizes, texts, items = [], [], []
            few = self.survey_few
            for value in values:
                form = type(value)
                if (form is dict or form is list) and len(value) <= _TRUNCATE_FEW:
                    found = few(value)  # NOTE: most children of a long list are records
                    if found[0] >= _TRUNCATE_INDEXED:
                        found = self.survey(value)
                else:
                    found = self.survey(value)
                sizes.append(found[0])
                texts.append(found[1])
                items.append(found[2])
        # NOTE: `{"a": 1, "b": 2}`: 2 brackets, and per item `"key": ` and `, ` (bar the last).
        size += sum(sizes) + (0 if values else 2)
        deep_text = max(texts, default=0)
        cappable = keys is None or id(node) in self.maps
        deep_items = max(max(items, default=0), len(values) if cappable else 0)
        if size >= _TRUNCATE_INDEXED and (
            deep_text > _TRUNCATE_SHORT or deep_items > _TRUNCATE_FEWEST
        ):
            self.index[id(node)] = _TruncateIndex(
                size,
                keys,
                sizes,
                texts,
                items,
                (deep_text, deep_items),
                keyed if keys is not None and cappable else None,
            )
        return size, deep_text, deep_items

    def survey_few(self, node: Any) -> tuple[int, int, int]:
        """`survey` for a container of at most `_TRUNCATE_FEW` children (most are: records,
        pairs), without building lists or indexing it."""
        quote = self.quote
        keyed = self.keyed
        size = deep_text = deep_items = 0
        pairs: Any
        if type(node) is dict:
            pairs = node.items()
            if id(node) in self.maps:
                deep_items = len(node)
        else:
            size = 2 * len(node)
            deep_items = len(node)
            pairs = [(None, value) for value in node]
        for key, value in pairs:
            if key is not None:
                known = keyed.get(key)
                if known is None:
                    known = keyed[key] = len(quote(key)) + 4
                size += known
            form = type(value)
            if form is str:
                size += len(quote(value))
                deep_text = max(deep_text, len(value))
            elif form is int:
                size += len(int.__repr__(value))
            elif value is None or value is True:
                size += 4
            elif value is False:
                size += 5
            elif form is list or form is dict:
                length, text, items = self.survey(value)
                size += length
                deep_text = max(deep_text, text)
                deep_items = max(deep_items, items)
            else:
                size += _truncate_scalar(value)
        return size if node else 2, deep_text, deep_items

    def shrink(
        self, node: Any, text_cap: int, item_cap: int, path: str | None
    ) -> tuple[Any, int, int]:
        """`node` with strings cut to `text_cap` characters and arrays to `item_cap` items:
        (the new value, its JSON length, the JSON length of the markers in it). With `path`
        None it only measures (the value is then `node`); otherwise it records the cuts."""
        kind = type(node)
        if kind is str:
            return self.cut(node, text_cap, path)
        if kind is list or kind is dict:
            index = self.index.get(id(node))
            if index is not None:
                return self.shrink_indexed(node, index, text_cap, item_cap, path)
            return self.shrink_small(node, text_cap, item_cap, path)
        return node, _truncate_scalar(node), 0

    def cut(self, text: str, cap: int, path: str | None) -> tuple[str, int, int]:
        """`text` cut in the middle to about `cap` characters, the cut points moved to line
        boundaries when one is near; unchanged when the marker would not be shorter."""
        quote = self.quote
        length = len(text)
        if length <= cap + _TRUNCATE_SHORT:
            return text, len(quote(text)), 0
        head, tail = _truncate_split(cap)
        start, end = head, length - tail
        near = min(_TRUNCATE_NEAR, head // 4)
        if near:
            found = text.rfind("\n", start - near, start)
            if found >= 0:
                start = found + 1
        near = min(_TRUNCATE_NEAR, tail // 4)
        if near:
            found = text.find("\n", end - 1, end - 1 + near)
            if found >= 0:
                end = found + 1
        omitted = end - start
        marker = _truncate_marker(omitted, self.ref)
        if end < length and text[end - 1] == "\n":
            marker += "\n"  # the tail starts a line: the marker is a line of its own
        if omitted <= len(marker):
            return text, len(quote(text)), 0
        kept_head, kept_tail = text[:start], text[end:]
        marked = len(quote(marker)) - 2
        size = len(quote(kept_head)) + len(quote(kept_tail)) - 2 + marked
        if path is None:
            return text, size, marked
        self.cuts.append({"path": path, "omitted": omitted})
        return kept_head + marker + kept_tail, size, marked

    def shrink_small(
        self, node: Any, text_cap: int, item_cap: int, path: str | None
    ) -> tuple[Any, int, int]:
        """A container without an index (short JSON): every child is measured again."""
        quote = self.quote
        size = 2
        marked = 0
        if type(node) is dict:
            built: dict[str, Any] = {}
            entries: Any = node.items()
            if id(node) in self.maps and len(node) > item_cap:
                head, tail = _truncate_split_items(item_cap)
                listed = list(entries)
                entries = listed[:head] + listed[len(listed) - tail :]
                if path is not None:
                    self.cuts.append({"path": path, "omitted": len(listed) - head - tail})
            for key, value in entries:
                child = None if path is None else _truncate_path(path, key, quote)
                new, length, more = self.shrink(value, text_cap, item_cap, child)
                size += len(quote(key)) + 4 + length
                marked += more
                built[key] = new
            return (node if path is None else built), size - (2 if entries else 0), marked
        count = len(node)
        positions: Any = range(count)
        if count > item_cap:
            head, tail = _truncate_split_items(item_cap)
            positions = [*range(head), *range(count - tail, count)]
            if path is not None:
                self.cuts.append({"path": path, "omitted": count - head - tail})
        kept: list[Any] = []
        for position in positions:
            child = None if path is None else f"{path}[{position}]"
            new, length, more = self.shrink(node[position], text_cap, item_cap, child)
            size += length + 2
            marked += more
            kept.append(new)
        return (node if path is None else kept), size - (2 if kept else 0), marked

    def shrink_indexed(
        self, node: Any, index: _TruncateIndex, text_cap: int, item_cap: int, path: str | None
    ) -> tuple[Any, int, int]:
        """A container with an index: only the children the caps reach are visited."""
        from bisect import bisect_right

        count = len(node)
        sizes = index.sizes
        head, tail = count, 0
        size = index.size
        entries = index.entries
        capped = (index.keys is None or entries is not None) and count > item_cap
        if capped:
            head, tail = _truncate_split_items(item_cap)
            size = sizes[head] + sizes[count] - sizes[count - tail]
            if entries is None:
                size += 2 * head + 2 * tail
            else:
                size += entries[head] + entries[count] - entries[count - tail]
        # NOTE: a string at most _TRUNCATE_SHORT over the cap is never cut (see `cut`).
        reach = text_cap + _TRUNCATE_SHORT
        by_text = bisect_right(index.text_steps, reach)
        by_items = bisect_right(index.items_steps, item_cap)
        reached = len(index.by_text) - by_text + len(index.by_items) - by_items
        if capped and reached > head + tail:
            texts, items = index.texts, index.items
            positions = [
                i
                for i in (*range(head), *range(count - tail, count))
                if texts[i] > reach or items[i] > item_cap
            ]
        else:
            found = {*index.by_text[by_text:], *index.by_items[by_items:]}
            if capped:
                found = {i for i in found if i < head or i >= count - tail}
            positions = sorted(found)
        built: Any = node
        if path is not None:
            if capped:
                self.cuts.append({"path": path, "omitted": count - head - tail})
                if index.keys is None:
                    built = node[:head] + node[count - tail :]
                else:
                    kept = (*index.keys[:head], *index.keys[count - tail :])
                    built = {key: node[key] for key in kept}
            elif positions:
                built = list(node) if index.keys is None else dict(node)
        marked = 0
        for position in positions:
            key: Any = position if index.keys is None else index.keys[position]
            child = None
            if path is not None:
                child = _truncate_path(path, key, self.quote)
            new, length, more = self.shrink(node[key], text_cap, item_cap, child)
            size += length - (sizes[position + 1] - sizes[position])
            marked += more
            if path is not None:
                if capped and position >= head and index.keys is None:
                    key = head + position - (count - tail)
                built[key] = new
        return built, size, marked


def _truncate_split_items(cap: int) -> tuple[int, int]:
    """How many of `cap` kept items come from the head and from the tail (at least one each)."""
    tail = max(1, cap * 3 // 10)
    return cap - tail, tail


def _truncate_path(path: str, key: str | int, quote: Callable[[str], str]) -> str:
    """`$.data[3]`, `$.data.name`, or `$.data["odd key"]`."""
    if type(key) is int:
        return f"{path}[{key}]"
    text = str(key)
    return f"{path}.{text}" if text.isidentifier() else f"{path}[{quote(text)}]"


def _truncate_has_map(shape: Any, seen: frozenset[str] = frozenset()) -> bool:
    """Whether a return type holds a map anywhere (most hold none: their data is not walked)."""
    if not isinstance(shape, tuple):
        return False
    form, inner = shape[0], shape[1]
    if form == "map":
        return True
    if form in ("null", "list"):
        return _truncate_has_map(inner, seen)
    if form == "record" and inner not in seen:
        fields = RECORDS[inner][0].values()
        return any(_truncate_has_map(field, seen | {inner}) for field in fields)
    return False


def _truncate_maps(data: Any, shape: Any, found: set[int]) -> None:
    """Add to `found` the ids of the dicts in `data` that `shape` (a command's return type, as
    `output._conform` reads it) says are maps, `dict[str, X]`: they may lose entries as arrays
    lose items and still match the schema; a record may not."""
    if not isinstance(shape, tuple):
        return
    form, inner = shape[0], shape[1]
    kind = type(data)
    if form == "null":
        _truncate_maps(data, inner, found)
    elif form == "list" and kind is list and isinstance(inner, tuple):
        for item in data:
            _truncate_maps(item, inner, found)
    elif form == "map" and kind is dict:
        found.add(id(data))
        if isinstance(inner, tuple):
            for item in data.values():
                _truncate_maps(item, inner, found)
    elif form == "record" and kind is dict:
        fields = RECORDS[inner][0]
        for key, item in data.items():
            _truncate_maps(item, fields.get(key), found)


def _truncate_dicts(data: Any, found: set[int]) -> None:
    """Add to `found` the ids of every dict in `data`."""
    kind = type(data)
    if kind is dict:
        found.add(id(data))
        for item in data.values():
            _truncate_dicts(item, found)
    elif kind is list:
        for item in data:
            _truncate_dicts(item, found)


def _truncate(
    envelope: dict[str, Any], limit: int, ref: str | None, shape: Any = None
) -> dict[str, Any]:
    """`envelope` (`{"ok": true, "data": ..., "meta"?: ...}`) with its data shrunk to `limit`
    characters of `json.dumps(data, ensure_ascii=False)`; 0 (or less) means no limit.

    The envelope's `meta.provenance` (the inputs, echoed) is shrunk the same way to a quarter of
    `limit`, its cuts listed under `$.meta.provenance`. When both fit, `envelope` itself comes
    back. Otherwise a new envelope: long strings keep a head (70%) and a tail (30%), cut where
    a line ends if one is within a quarter of either piece (and 1,000 characters), with
    `_truncate_marker` in between (followed by a newline when the tail starts a line); long
    arrays keep their first (70%) and last items, at least one of each, with nothing put in
    their place. With the command's return type `shape`, a map (`dict[str, X]`, which the
    schema lets have any keys) is cut as an array is: its first (70%) and last entries stay, in
    order. Every other object (a record: a dataclass, a TypedDict, or data of no known type)
    keeps every key, and numbers, booleans and nulls are never changed, so the data still
    matches its schema. A string is cut only when the marker is shorter than what it replaces,
    and strings of at most `_TRUNCATE_SHORT` characters never are. `meta.truncated` is
    `{"ref": ref, "cuts": [{"path": "$.data[3].text", "omitted": N}, ...]}` (N in characters
    for a string, in items for an array, in entries for a map; indexes are those of the
    original data), added to the envelope's own meta; parts with nothing cut are shared with
    `envelope`, not copied.

    The bound: with M the total length of the markers in the result as they appear in its JSON
    (each newline after a marker counts 2, as `\\n`), `len(json.dumps(result["data"],
    ensure_ascii=False)) <= limit + M`. Where it can, it does better: the whole result within
    `limit`, markers included. Where even the smallest result it makes is over the bound (a
    record with 10,000 keys, a number longer than the limit, ...), that smallest one comes back:
    every string at its shortest cut, every array at its first and last item (the same data as
    for `limit=1`), still valid, with its cuts listed.

    How: strings are capped at S characters and arrays at A items; (S, A) goes from "nothing
    cut" to (0, 2), first lowering S to max(256, limit // 16), then A, then S; a binary search
    finds the first point that fits. Containers longer than `_TRUNCATE_INDEXED` are indexed once
    (their children's sizes as prefix sums, sorted by their longest string and array), so each
    try only visits what the caps reach; about 50 tries at most, and the one full walk of the
    data costs about 3-4 times `json.dumps` of it. Measured (CPU seconds, CPython 3.11, a busy
    2-core machine; limit 100,000): a string of 200,000 lines (8.7 MB) 0.14; 1,000,000
    integers 0.75; 1,000,000 strings of 100 characters 1.9; 1,000,000 records of three fields
    3.2-4.1 (`json.dumps` alone: 0.8-1.2); objects nested 100 levels deep 0.01. Like
    `json.dumps`, it walks nesting by recursion: data nested ~900 levels deep is refused by
    `json.dumps` first (RecursionError).
    """
    if limit <= 0:
        return envelope
    meta = envelope.get("meta")
    notes = meta.get("provenance") if isinstance(meta, dict) else None
    maps: set[int] = set()
    if _truncate_has_map(shape):
        _truncate_maps(envelope.get("data"), shape, maps)
    data = _shrunk(envelope.get("data"), limit, ref, "$.data", frozenset(maps))
    # NOTE: provenance echoes the inputs, which may be as long as any answer: it gets a
    # quarter of the limit, so the whole answer stays bounded (cut only for an agent, and the
    # full answer is saved first, as for data).
    shown = None
    if isinstance(notes, dict):
        # NOTE: the echo has no schema (`meta` is any object): the table of options and every
        # object inside a value (a map given as input) may lose entries; each option's own
        # entry (source, from, value) keeps its keys.
        dicts = {id(notes)}
        for entry in notes.values():
            if isinstance(entry, dict):
                _truncate_dicts(entry.get("value"), dicts)
        shown = _shrunk(notes, limit // 4, ref, "$.meta.provenance", frozenset(dicts))
    if data is None and shown is None:
        return envelope
    merged = dict(meta) if isinstance(meta, dict) else {}
    cuts: list[dict[str, Any]] = []
    for part in (data, shown):
        if part is not None:
            cuts += part[1]
    if shown is not None:
        merged["provenance"] = shown[0]
    merged["truncated"] = {"ref": ref, "cuts": cuts}
    return {**envelope, "data": envelope.get("data") if data is None else data[0], "meta": merged}


def _over(envelope: dict[str, Any], limit: int) -> bool:
    """Whether `_truncate` would cut `envelope`'s data, or its provenance (the inputs echoed)."""
    if limit <= 0:
        return False
    meta = envelope.get("meta")
    notes = meta.get("provenance") if isinstance(meta, dict) else None
    return len(_dumps(envelope.get("data"))) > limit or (
        notes is not None and len(_dumps(notes)) > limit // 4
    )


def _shrunk(
    data: Any, limit: int, ref: str | None, path: str, maps: frozenset[int] = frozenset()
) -> tuple[Any, list[dict[str, Any]]] | None:
    """`data` shrunk to `limit` characters of JSON (as `_truncate` does), with its cuts (their
    paths under `path`); None when it fits as it is."""
    import json

    if len(json.dumps(data, ensure_ascii=False)) <= limit:
        return None
    plan = _Truncation(ref, maps)
    _, longest_text, longest_items = plan.survey(data)
    floor = min(longest_text, max(_TRUNCATE_TEXT_FLOOR, limit // 16))
    first = longest_text - floor
    second = first + max(0, longest_items - _TRUNCATE_FEWEST)
    last = second + floor

    def caps(step: int) -> tuple[int, int]:
        if step <= first:
            return longest_text - step, max(longest_items, _TRUNCATE_FEWEST)
        if step <= second:
            return floor, longest_items - (step - first)
        return floor - (step - second), _TRUNCATE_FEWEST

    def fits(step: int, whole: bool) -> bool:
        _, size, marked = plan.shrink(data, *caps(step), None)
        return size <= limit if whole else size - marked <= limit

    chosen = last
    for whole in (True, False):
        if fits(last, whole):
            # NOTE: step 0 cuts nothing, and the data did not fit.
            low, high = 0, last
            while high - low > 1:
                middle = (low + high) // 2
                if fits(middle, whole):
                    high = middle
                else:
                    low = middle
            chosen = high
            break
    shrunk, _, _ = plan.shrink(data, *caps(chosen), path)
    return shrunk, plan.cuts
