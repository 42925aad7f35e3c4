# burgee: joins tail 140
# burgee: section validate: _input_problems _problem _object_problem _input_schema
"""JSON input (`--json '<object>'`, MCP `arguments`) checked against the command's published
`inputSchema`, exactly: what the schema allows runs, what it refuses is a usage error. Two
exceptions, both for what an option's env var or config file may supply: a top-level key the
schema requires may be left out (`_Call.value` reports it when nothing does), and the root's
`not` (`@command(exclusive=, one_of=)`: never two keys of a group, nor none of a `one_of`
group) is `values._apart`'s check, which counts what the env vars and config files give too.

Only the keywords burgee's schemas use are read (type, enum, const, anyOf, items, prefixItems,
minItems, maxItems, properties, required, additionalProperties, minimum, maximum, pattern,
minLength, maxLength, $ref into $defs);
`format` is an annotation, as JSON Schema 2020-12 says, and the converters check it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from burgee.runtime.core.embedded import _command_input
from burgee.runtime.core.jsonread import _load_json, _same
from burgee.runtime.core.wording import (
    _JSON_EXPECTED,
    _badly_sized,
    _expected,
    _mismatched,
    _one_of,
    _out_of_bounds,
    _wrong_count,
)

if TYPE_CHECKING:
    from burgee.runtime.program import Program

#: Each command's input schema and its secret keys, by program and command, once read
#: (`_command_input`).
_INPUT_SCHEMAS: dict[tuple[Program, str], tuple[Any, frozenset[str]]] = {}


def _input_schema(command: str, program: Program) -> tuple[Any, frozenset[str]]:
    known = _INPUT_SCHEMAS.get((program, command))
    if known is None:
        # NOTE: this command's entry alone: parsing the whole clispec document was most of a
        # wide tool's first `tools/call` and of its `--json` input.
        text = _command_input(command, program)
        schema, secrets = (None, ()) if text is None else _load_json(text)
        known = _INPUT_SCHEMAS[program, command] = (schema, frozenset(secrets))
    return known


#: The Python types that are always valid for a plain `{"type": ...}` schema.
_PLAIN_VALID: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
}
#: The keys of a property schema that only its type constrains (the others annotate).
_PLAIN_KEYS = frozenset(("type", "description", "default", "format"))
#: Each command's plainly typed properties: key -> the exact types always valid for it.
_PLAIN_PROPERTIES: dict[str, dict[str, tuple[type, ...]]] = {}


def _plain_properties(command: str, properties: dict[str, Any]) -> dict[str, tuple[type, ...]]:
    """The properties a value passes by its exact type alone; anything else (and a value of
    another type, an integer given as 1.0) gets the full check."""
    plain = _PLAIN_PROPERTIES.get(command)
    if plain is None:
        # NOTE: a float is no integer here: 1.0 takes the full check, which accepts it.
        plain = _PLAIN_PROPERTIES[command] = {
            key: _PLAIN_VALID[schema["type"]]
            for key, schema in properties.items()
            if isinstance(schema, dict)
            and schema.keys() <= _PLAIN_KEYS
            and isinstance(schema.get("type"), str)
            and schema["type"] in _PLAIN_VALID
        }
    return plain


def _is_type(value: object, name: str) -> bool:
    if name == "string":
        return isinstance(value, str)
    if name == "integer":
        if isinstance(value, float):
            return value.is_integer()
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if name == "boolean":
        return isinstance(value, bool)
    if name == "null":
        return value is None
    if name == "array":
        return isinstance(value, list)
    return isinstance(value, dict)


def _problem(value: object, schema: Any, path: str, root: Any) -> str | None:
    """What is wrong with `value` for `schema` (the first thing), or None."""
    if not isinstance(schema, dict):
        return None
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return _problem(value, root.get("$defs", {}).get(ref[8:]), path, root)
    if "anyOf" in schema:
        branches = schema["anyOf"]
        if value is not None:
            # NOTE: `int | None` given a word: what is wrong is said of the int, as a flag is
            # told (null is no answer to a bad word).
            branches = [
                b for b in branches if not (isinstance(b, dict) and b.get("type") == "null")
            ] or branches
        found = [_problem(value, branch, path, root) for branch in branches]
        if None in found:
            return None
        if len(found) == 1:
            return found[0]  # NOTE: `Optional[Literal[1, 2]]` given "x": one of 1, 2
        kinds = [b.get("type") for b in branches if isinstance(b, dict)]
        names = [kind for kind in kinds if isinstance(kind, str)]
        if len(names) == len(kinds):
            if not any(_is_type(value, kind) for kind in names):
                wanted = " or ".join(_JSON_EXPECTED.get(kind, kind) for kind in names)
                return f"{path}: {_expected(wanted, value)}"
            # NOTE: of one branch's JSON type, and refused by it (a decimal's text that is no
            # number): the converter says what it wanted, as it does for a flag.
            return None
        return next(problem for problem in found if problem)
    # NOTE: the choices before the type: `expected one of 1, 2` says more than `an integer`,
    # and is what a flag given the same text is told.
    if "const" in schema and not _same(value, schema["const"]):
        return f"{path}: {_expected(_one_of([schema['const']]), value)}"
    if "enum" in schema and not any(_same(value, choice) for choice in schema["enum"]):
        return f"{path}: {_expected(_one_of(schema['enum']), value)}"
    kind = schema.get("type")
    if isinstance(kind, str) and not _is_type(value, kind):
        return f"{path}: {_expected(_JSON_EXPECTED.get(kind, kind), value)}"
    problem = None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        problem = _out_of_bounds(value, schema.get("minimum"), schema.get("maximum"))
    elif isinstance(value, str):
        problem = _badly_sized(value, schema.get("minLength"), schema.get("maxLength"))
        if problem is None and "pattern" in schema:
            problem = _mismatched(value, schema["pattern"])
    elif isinstance(value, list):
        problem = _wrong_count(len(value), schema.get("minItems"), schema.get("maxItems"))
    if problem:
        return f"{path}: {problem}"
    if isinstance(value, list):
        first = schema.get("prefixItems", [])
        for index, item in enumerate(value):
            inner = first[index] if index < len(first) else schema.get("items")
            problem = _problem(item, inner, f"{path}[{index}]", root)
            if problem:
                return problem
    if isinstance(value, dict):
        return _object_problem(value, schema, path, root)
    return None


def _object_problem(value: dict[str, Any], schema: Any, path: str, root: Any) -> str | None:
    properties = schema.get("properties", {})
    for key in schema.get("required", ()):
        if key not in value:
            return f"{path}: missing field {key!r}"
    for key, item in value.items():
        where = f"{path}.{key}" if path else key
        if key in properties:
            problem = _problem(item, properties[key], where, root)
        elif schema.get("additionalProperties") is False:
            problem = f"{where}: not a field (fields: {', '.join(properties)})"
        else:
            problem = _problem(item, schema.get("additionalProperties"), where, root)
        if problem:
            return problem
    return None


def _input_problems(command: str, raw: dict[str, Any], program: Program) -> dict[str, str]:
    """Each top-level key that the input schema of `program`'s command refuses, and why."""
    # NOTE: the caches are read here first: an MCP server checks thousands of calls a second.
    known = _INPUT_SCHEMAS.get((program, command))
    schema, secrets = known if known is not None else _input_schema(command, program)
    if not isinstance(schema, dict):
        return {}
    problems: dict[str, str] = {}
    properties = schema.get("properties", {})
    # NOTE: a required key left out is not refused here: an option's env var or config file
    # may supply it, as on the command line; `_Call.value` reports it when nothing does.
    plain = _PLAIN_PROPERTIES.get(command)
    if plain is None:
        plain = _plain_properties(command, properties)
    for key, value in raw.items():
        if type(value) in plain.get(key, ()):
            continue
        problem = _problem(value, properties.get(key), key, schema)
        if problem:
            # NOTE: a secret's value never appears in a message, not even a wrong one.
            secret = f"{key}: not a valid value (secret, not shown)"
            problems[key] = secret if key in secrets else problem
    return problems
