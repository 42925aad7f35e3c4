# burgee: joins tail 90
# burgee: section agent
"""Output that fits: a success envelope whose data is too long, shrunk so that it still
matches the command's output schema (`_truncate`). Long strings lose their middle (a marker
says how much, and where the full output is: `spill`), long arrays and maps (a `dict[str, X]`
result) their middle items; a record (a dataclass, a TypedDict) keeps every key, numbers,
booleans and nulls stay. What was cut is listed in `meta.truncated`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from burgee.runtime.core.kinds import _is_media

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

#: Strings this short are never cut: every marker is longer than what it would save.
_TRUNCATE_SHORT = 40
#: Arrays and maps keep at least this many items (the first and the last).
_TRUNCATE_FEWEST = 2
#: A cap that cuts nothing.
_TRUNCATE_NONE = 1 << 62
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


class _Truncation:
    """One truncation: the caps of the try under way (strings cut to `text_cap` characters,
    arrays and maps to `item_cap` items), and the cuts of the result. The dicts that may lose
    entries as arrays lose items (maps) are those whose ids are in `maps`, and those the data's
    type `shape` (a command's return type, as `output._conform` reads it) says are maps,
    `dict[str, X]`: a record may not (see `_truncate_form`)."""

    def __init__(
        self,
        ref: str | None,
        maps: frozenset[int] = frozenset(),
        shape: Any = None,
        records: dict[str, Any] | None = None,
    ) -> None:
        from json.encoder import encode_basestring

        self.ref = ref
        self.maps = maps
        #: The program's records, by name: the fields of a `("record", name)` shape.
        self.records = records or {}
        self.shape = shape if _truncate_has_map(shape, self.records) else None
        #: JSON text of a string (quotes and escapes included), as `json.dumps` writes it.
        self.quote: Callable[[str], str] = encode_basestring
        self.text_cap = self.item_cap = _TRUNCATE_NONE
        #: 1 when the markers' length is left out of what is measured (the bound), else 0.
        self.free = 0
        self.cuts: list[dict[str, Any]] = []

    def fits(self, node: Any, limit: int, text_cap: int, item_cap: int) -> bool:
        """Whether `node` at these caps is at most `limit` characters of JSON (less its
        markers' when `free`)."""
        self.text_cap, self.item_cap = text_cap, item_cap
        return self.measure(node, limit, self.shape) <= limit

    def measure(self, node: Any, budget: int, shape: Any = None) -> int:
        """`node`'s JSON length at the caps (less its markers' when `free`): exact when it is at
        most `budget`, else some length over `budget`, found without measuring the rest. So a
        try visits about `budget` characters' worth of the data, however long the data is."""
        kind = type(node)
        if kind is str:
            return self.measure_text(node, budget)
        if kind is list:
            return self.measure_list(node, budget, shape)
        if kind is dict:
            return self.measure_dict(node, budget, shape)
        return _truncate_scalar(node)

    def measure_text(self, text: str, budget: int) -> int:
        cap = self.text_cap
        length = len(text)
        if length <= cap + _TRUNCATE_SHORT:
            # NOTE: escapes only lengthen a string: one longer than the budget is not encoded.
            return length + 2 if length + 2 > budget else len(self.quote(text))
        if cap // 2 + 2 > budget:
            return cap // 2 + 2  # NOTE: a cut keeps at least half the cap (see `cut`)
        _, size, marked = self.cut(text, cap, None)
        return size - marked * self.free

    def measure_list(self, node: list[Any], budget: int, shape: Any = None) -> int:
        count = len(node)
        if not count:
            return 2
        shapes = _truncate_inner(shape, "list", self.records)
        if count <= self.item_cap:
            return self.measure_values(node, budget, shapes)
        from itertools import chain, islice

        head, tail = _truncate_split_items(self.item_cap)
        ending = map(node.__getitem__, range(count - tail, count))
        return self.measure_values(chain(islice(node, head), ending), budget, shapes)

    def measure_dict(self, node: dict[str, Any], budget: int, shape: Any = None) -> int:
        if not node:
            return 2
        if "mime_type" in node and _is_media(node):
            # NOTE: an image, audio or embedded resource is never cut: it counts as its
            # description (the bytes have their own limit, `media_items._MEDIA_MOST`), and a list
            # keeps it whole or drops it.
            return _truncate_media(node)
        keys: Iterable[str] = node
        count = len(node)
        if count > self.item_cap and self.is_map(node, shape):
            kept = _truncate_kept(node, *_truncate_split_items(self.item_cap))
            keys, count = kept, len(kept)
        # NOTE: `{"a": 1, "b": 2}`: per entry `"key": ` and the value, and `, ` or a bracket.
        size = sum(map(len, map(self.quote, keys))) + 2 * count
        if size > budget:
            return size
        values = map(node.__getitem__, keys)
        return size + self.measure_values(
            values, budget - size, _truncate_fields(shape, keys, self.records)
        )

    def is_map(self, node: dict[str, Any], shape: Any) -> bool:
        """Whether `node` may lose entries as an array loses items."""
        form = _truncate_form(shape)
        return id(node) in self.maps or (form is not None and form[0] == "map")

    def measure_values(
        self, values: Iterable[Any], budget: int, shapes: Iterator[Any] | None = None
    ) -> int:
        """The JSON length of `values` (their types: `shapes`, when one may hold a map), each
        with the `, ` after it (after the last: the brackets), until it is over `budget`."""
        quote = self.quote
        reach = self.text_cap + _TRUNCATE_SHORT
        size = 0
        shape = None
        for value in values:
            if shapes is not None:
                shape = next(shapes)
            form = type(value)
            # NOTE: most values are short strings and numbers: measured here, not by a call.
            if form is str and len(value) <= reach and len(value) < budget:
                size += len(quote(value)) + 2
            elif form is int:
                size += len(int.__repr__(value)) + 2
            elif value is None or value is True:
                size += 6
            elif value is False:
                size += 7
            elif form is dict:
                size += self.measure_dict(value, budget - size - 2, shape) + 2
            elif form is list:
                size += self.measure_list(value, budget - size - 2, shape) + 2
            elif form is str:
                size += self.measure_text(value, budget - size - 2) + 2
            else:
                size += _truncate_scalar(value) + 2
            if size > budget:
                break
        return size

    def cut(self, text: str, cap: int, path: str | None) -> tuple[str, int, int]:
        """`text` cut in the middle to about `cap` characters, the cut points moved to line
        boundaries when one is near; unchanged when the marker would not be shorter. Returns
        the new text, its JSON length and its marker's. With `path` None it only measures (the
        text is then `text`); otherwise it records the cut."""
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

    def build(self, node: Any, path: str, shape: Any = None) -> Any:
        """`node` (of the type `shape`) at the caps, its cuts recorded (paths under `path`); a
        part with nothing cut is `node`'s own, not a copy."""
        kind = type(node)
        if kind is str:
            return self.cut(node, self.text_cap, path)[0]
        if kind is list:
            count = len(node)
            positions: Iterable[int] = range(count)
            if count > self.item_cap:
                head, tail = _truncate_split_items(self.item_cap)
                positions = [*range(head), *range(count - tail, count)]
                self.cuts.append({"path": path, "omitted": count - head - tail})
            shapes = _truncate_inner(shape, "list", self.records)
            kept = [
                self.build(node[i], f"{path}[{i}]", None if shapes is None else next(shapes))
                for i in positions
            ]
            changed = len(kept) < count or any(kept[i] is not node[i] for i in positions)
            return kept if changed else node
        if kind is dict:
            if "mime_type" in node and _is_media(node):
                return node  # NOTE: never cut (see `measure_dict`)
            keys: Iterable[str] = node
            if len(node) > self.item_cap and self.is_map(node, shape):
                kept_keys = _truncate_kept(node, *_truncate_split_items(self.item_cap))
                self.cuts.append({"path": path, "omitted": len(node) - len(kept_keys)})
                keys = kept_keys
            quote = self.quote
            fields = _truncate_fields(shape, keys, self.records)
            built = {
                key: self.build(
                    node[key],
                    _truncate_path(path, key, quote),
                    None if fields is None else next(fields),
                )
                for key in keys
            }
            changed = len(built) < len(node) or any(built[key] is not node[key] for key in built)
            return built if changed else node
        return node


def _truncate_media(node: dict[str, Any]) -> int:
    """What an image, audio or embedded resource counts for (`measure_dict`): its JSON without
    the bytes (or text), as an MCP answer's text shows it."""
    import json

    held = "text" if "text" in node else "data"
    return len(json.dumps({**node, held: ""}, ensure_ascii=False)) + _TRUNCATE_SHORT


def _truncate_form(shape: Any) -> tuple[Any, ...] | None:
    """A return type (`output._conform`'s reading of it) as a container's: `("list", item)`,
    `("map", value)` or `("record", name)`; None for any other (a kind, Any), and None for
    None. `Optional[X]` is X's."""
    while isinstance(shape, tuple) and shape[0] == "null":
        shape = shape[1]
    return shape if isinstance(shape, tuple) else None


def _truncate_inner(shape: Any, form: str, records: dict[str, Any]) -> Iterator[Any] | None:
    """The types of the items of a list (`form` "list") or of the values of a map, when the
    container is of the type `shape` and they may hold a map; else None."""
    found = _truncate_form(shape)
    if found is None or found[0] != form or not _truncate_has_map(found[1], records):
        return None
    from itertools import repeat

    return repeat(found[1])


def _truncate_fields(
    shape: Any, keys: Iterable[str], records: dict[str, Any]
) -> Iterator[Any] | None:
    """The types of the values at `keys` of a dict of the type `shape` (a record's fields, a
    map's values), when one may hold a map; else None."""
    found = _truncate_form(shape)
    if found is None or found[0] != "record":
        return _truncate_inner(shape, "map", records)
    fields = records[found[1]][0]
    return map(fields.get, keys) if _truncate_has_map(found, records) else None


def _truncate_kept(node: dict[str, Any], head: int, tail: int) -> list[str]:
    """The keys a cut map keeps: its first `head` and its last `tail`, in order."""
    from itertools import islice

    ending = list(islice(reversed(node), tail))
    ending.reverse()
    return [*islice(node, head), *ending]


def _truncate_most(fits: Callable[[int], bool], low: int, high: int | None) -> int:
    """The largest cap from `low` (which fits) up to `high` (which does not; None: a cap large
    enough does not) that `fits`: steps that double, then halve."""
    if high is None:
        step = max(low, 1)
        while fits(low + step):
            low += step
            step *= 2
        high = low + step
    while high - low > 1:
        middle = (low + high) // 2
        if fits(middle):
            low = middle
        else:
            high = middle
    return low


def _truncate_caps(plan: _Truncation, data: Any, limit: int, floor: int) -> tuple[int, int]:
    """The caps of the least cut of `data` that fits `limit`, given that the most does:
    strings go down to `floor` characters first, then arrays to 2 items, then strings on."""
    none, fewest = _TRUNCATE_NONE, _TRUNCATE_FEWEST
    if plan.fits(data, limit, floor, none):
        return _truncate_most(lambda cap: plan.fits(data, limit, cap, none), floor, None), none
    if plan.fits(data, limit, floor, fewest):
        return floor, _truncate_most(lambda cap: plan.fits(data, limit, floor, cap), fewest, None)
    return _truncate_most(lambda cap: plan.fits(data, limit, cap, fewest), 0, floor), fewest


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


def _truncate_has_map(
    shape: Any, records: dict[str, Any], seen: frozenset[str] = frozenset()
) -> bool:
    """Whether a return type holds a map anywhere (most hold none: their data is not walked)."""
    if not isinstance(shape, tuple):
        return False
    form, inner = shape[0], shape[1]
    if form == "map":
        return True
    if form in ("null", "list"):
        return _truncate_has_map(inner, records, seen)
    if form == "record" and inner not in seen:
        fields = records[inner][0].values()
        return any(_truncate_has_map(field, records, seen | {inner}) for field in fields)
    return False


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
    envelope: dict[str, Any],
    limit: int,
    ref: str | None,
    shape: Any = None,
    records: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """`envelope` (`{"ok": true, "data": ..., "meta"?: ...}`) with its data shrunk to `limit`
    characters of `json.dumps(data, ensure_ascii=False)`; 0 (or less) means no limit.

    The envelope's `meta.provenance` (the inputs, echoed) is shrunk the same way to a quarter of
    `limit`, its cuts listed under `$.meta.provenance`. When both fit, `envelope` itself comes
    back. Otherwise a new envelope: long strings keep a head (70%) and a tail (30%), cut where
    a line ends if one is within a quarter of either piece (and 1,000 characters), with
    `_truncate_marker` in between (followed by a newline when the tail starts a line); long
    arrays keep their first (70%) and last items, at least one of each, with nothing put in
    their place. With the command's return type `shape` (its records' fields in
    `records`, the program's), a map (`dict[str, X]`, which the
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

    How: strings are capped at S characters and arrays (and maps) at A items; (S, A) goes from
    "nothing cut" to (0, 2), first lowering S to max(256, limit // 16), then A, then S, and the
    least cut that fits is found by steps that double, then halve. Each try measures the data
    at its caps and stops as soon as it is over the limit: it visits about `limit` characters'
    worth of the data, however long the data is (a list of 100,000 records cut to 40,000
    characters: about 20 tries of 300 records each), and a map is known by the type of the
    value that holds it as the try reaches it. Measured (CPU seconds, CPython 3.11, a busy
    2-core machine; limit 100,000): a string of 200,000 lines (8.7 MB) 0.004; 1,000,000
    integers 0.04; 1,000,000 strings of 100 characters 0.004; 1,000,000 records of three fields
    0.04 (`json.dumps` alone: 0.66); objects nested 100 levels deep 0.002. Like `json.dumps`, it
    walks nesting by recursion: data nested ~900 levels deep is refused by `json.dumps` first
    (RecursionError).
    """
    if limit <= 0:
        return envelope
    meta = envelope.get("meta")
    notes = meta.get("provenance") if isinstance(meta, dict) else None
    data = _shrunk(envelope.get("data"), limit, ref, "$.data", shape=shape, records=records)
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
    """Whether `_truncate` would cut `envelope`'s data, or its provenance (the inputs echoed);
    measured only up to the limit, however long the data is."""
    if limit <= 0:
        return False
    meta = envelope.get("meta")
    notes = meta.get("provenance") if isinstance(meta, dict) else None
    plan = _Truncation(None)
    none = _TRUNCATE_NONE
    return not plan.fits(envelope.get("data"), limit, none, none) or (
        notes is not None and not plan.fits(notes, limit // 4, none, none)
    )


def _shrunk(
    data: Any,
    limit: int,
    ref: str | None,
    path: str,
    maps: frozenset[int] = frozenset(),
    shape: Any = None,
    records: dict[str, Any] | None = None,
) -> tuple[Any, list[dict[str, Any]]] | None:
    """`data` (of the type `shape`) shrunk to `limit` characters of JSON (as `_truncate` does),
    with its cuts (their paths under `path`); None when it fits as it is."""
    plan = _Truncation(ref, maps, shape, records)
    if plan.fits(data, limit, _TRUNCATE_NONE, _TRUNCATE_NONE):
        return None
    floor = max(_TRUNCATE_TEXT_FLOOR, limit // 16)
    caps = (0, _TRUNCATE_FEWEST)
    for free in (0, 1):
        # NOTE: the whole result within the limit, markers included, if it can be; else the
        # bound (markers left out); else the smallest result, at the most cut.
        plan.free = free
        if plan.fits(data, limit, *caps):
            caps = _truncate_caps(plan, data, limit, floor)
            break
    plan.text_cap, plan.item_cap = caps
    return plan.build(data, path, plan.shape), plan.cuts
