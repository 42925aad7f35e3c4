"""JSON Schemas (draft 2020-12) for each command's input and output, made by pydantic.

The IR's `TypeRef`s are turned back into real Python types (dynamic Enums, TypedDicts and
dataclasses stand in for the handlers file's own classes) so pydantic can describe them.
Nested definitions are inlined, so a strict client that does not follow `$ref` still reads
every schema; only a recursive type keeps its `$defs`.

The JSON Schemas (draft 2020-12) of each command's input and output, made by pydantic from the
IR: each type's once, each command's once (shared by clispec, `--llms` and the MCP list); a
command's groups of options given apart as one `not` at the input schema's root
(`_refused_together`: no two keys of a group, not none of a `one_of` group; MCP clients refuse
`anyOf`/`oneOf`/`allOf` there), and in words in its description; a tool's description says when
its command reads standard input (empty over MCP and in `--batch`).
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Annotated, Any, Literal, Optional, Union

import pydantic
from pydantic.json_schema import GenerateJsonSchema
from typing_extensions import NotRequired, TypedDict

from burgee.model.ir import FIELD_KEYWORDS, Command, Param, Program, Record, TypeRef
from burgee.model.kinds import FILES, MEDIA, python_type
from burgee.runtime.answers.deliver import _QUARANTINED
from burgee.runtime.answers.sanitize import _UNTRUSTED_NOTE
from burgee.runtime.core.kinds import TYPES, _Decimal
from burgee.runtime.execution.values import _apart_text, _question_lines

DIALECT = "https://json-schema.org/draft/2020-12/schema"


#: A decimal number as text, the way the tool reads it (`Decimal(text)`) and writes it (`str`).
DECIMAL_PATTERN = _Decimal.pattern


class _SchemaGenerator(GenerateJsonSchema):
    """pydantic's generator, without the titles it invents from Python names, and with the
    schemas of decimals fixed here: pydantic's own changed between 2.13 and 2.14, and the
    generated module must not depend on which pydantic made it."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False

    def decimal_schema(self, schema: Any) -> dict[str, Any]:
        text = {"type": "string", "pattern": DECIMAL_PATTERN}
        if self.mode == "serialization":
            return text
        return {"anyOf": [{"type": "number"}, text]}


class _Types:
    """Python stand-ins for one program's enums and records, built once each."""

    def __init__(self, program: Program) -> None:
        self.program = program
        self.records = {r.name: r for r in program.records}
        self.enums = {e.name: e for e in program.enums}
        self.built: dict[str, Any] = {}

    def python(self, ref: TypeRef) -> Any:
        """A Python type that pydantic describes the way the generated tool behaves."""
        base: Any
        if ref.kind in TYPES and TYPES[ref.kind].media:
            # NOTE: an Image's or Audio's JSON form, as the runtime's type table describes it.
            base = Annotated[dict[str, Any], pydantic.WithJsonSchema(TYPES[ref.kind].schema)]
        elif ref.kind in FILES:
            base = str  # NOTE: the file's path; the handler takes it open
        elif ref.kind in TYPES:
            base = python_type(ref.kind)
        elif ref.kind == "content":
            base = Union[tuple(self.python(item) for item in ref.items)]  # noqa: UP007
        elif ref.kind == "choice":
            base = Literal[ref.choices]
        elif ref.kind == "enum":
            base = self._enum(ref.name or "")
        elif ref.kind == "record":
            base = self._record(ref.name or "")
        elif ref.kind == "list":
            assert ref.item is not None
            base = list[self.python(ref.item)]  # type: ignore[misc]
        elif ref.kind == "tuple":
            base = tuple[tuple(self.python(item) for item in ref.items)]  # type: ignore[misc]
        else:  # dict
            value = self.python(ref.value) if ref.value is not None else Any
            base = dict[str, value]  # type: ignore[valid-type]
        return Optional[base] if ref.nullable else base  # noqa: UP045 (a runtime type object)

    def _enum(self, name: str) -> Any:
        if name not in self.built:
            decl = self.enums[name]
            built = enum.Enum(name, [(m, v) for m, v in decl.members])  # type: ignore[misc]
            built.__doc__ = decl.doc or None
            self.built[name] = built
        return self.built[name]

    def _record(self, name: str) -> Any:
        if name not in self.built:
            record = self.records[name]
            made = {"typeddict": self._typeddict, "model": self._model}.get(
                record.style, self._dataclass
            )
            self.built[name] = made(record)
        return self.built[name]

    def _model(self, record: Record) -> Any:
        """A pydantic model of the same fields, `Field(...)`s and defaults: its schemas are
        the handlers' model's own (a default written as no literal: none shown, as a
        factory's)."""
        # NOTE: registered first, as a forward reference, so a model may hold itself.
        self.built[record.name] = record.name
        fields: dict[str, Any] = {}
        for field in record.fields:
            said = {
                key: value
                for key in FIELD_KEYWORDS
                if (value := getattr(field, FIELD_KEYWORDS[key])) is not None
            }
            if field.help:
                said["description"] = field.help
            if field.has_default:
                said["default"] = field.default
            elif not field.required:
                said["default_factory"] = _unknown
            fields[field.name] = (self.python(field.type), pydantic.Field(**said))
        built = pydantic.create_model(record.name, __doc__=record.doc or None, **fields)
        built.model_rebuild(_types_namespace=dict(self.built))
        return built

    def _typeddict(self, record: Record) -> Any:
        fields = {}
        for field in record.fields:
            kind = self.python(field.type)
            fields[field.name] = kind if field.required else NotRequired[kind]
        built = TypedDict(record.name, fields)  # type: ignore[misc]
        built.__doc__ = record.doc or None
        # NOTE: the tool refuses a field the record does not have (`unknown field`), in input
        # and in a result: the schema says so, `additionalProperties: false`.
        built.__pydantic_config__ = _CLOSED  # type: ignore[attr-defined]
        return built

    def _dataclass(self, record: Record) -> Any:
        fields: list[Any] = []
        for field in record.fields:
            kind = self.python(field.type)
            if field.required:
                fields.append((field.name, kind))
            else:
                # NOTE: a factory, not a default: pydantic then claims no default value,
                # which is right, since the real one lives in the handlers file.
                fields.append((field.name, kind, dataclasses.field(default_factory=_unknown)))
        built = dataclasses.make_dataclass(record.name, fields)
        built.__doc__ = record.doc or None
        built.__pydantic_config__ = _CLOSED  # type: ignore[attr-defined]
        return built


#: A record's fields are all it may have.
_CLOSED = pydantic.ConfigDict(extra="forbid")


def _unknown() -> None:
    return None


def _inline(schema: dict[str, Any]) -> dict[str, Any]:
    """Replace every `$ref` into `$defs` by its definition, except on a cycle."""
    defs: dict[str, Any] = schema.pop("$defs", {})
    kept: dict[str, Any] = {}

    def walk(node: Any, trail: tuple[str, ...]) -> Any:
        if isinstance(node, list):
            return [walk(item, trail) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            name = ref.removeprefix("#/$defs/")
            if name in trail:
                kept[name] = defs[name]
                return node
            rest = {k: v for k, v in node.items() if k != "$ref"}
            return {**walk(defs[name], (*trail, name)), **walk(rest, trail)}
        return {key: walk(value, trail) for key, value in node.items()}

    result = walk(schema, ())
    if kept:
        result["$defs"] = {name: walk(body, (name,)) for name, body in sorted(kept.items())}
    return result  # type: ignore[no-any-return]


class _Schemas:
    """The JSON Schema of each type of one program, each made by pydantic once.

    The clispec document, the --llms manifest and the MCP tool list all describe the same
    parameters; without this, a large program pays for pydantic's schema generation three
    times per parameter.
    """

    def __init__(self, program: Program) -> None:
        self.types = _Types(program)
        self.made: dict[tuple[TypeRef, str], dict[str, Any]] = {}
        #: Each command with its input and output schema (by identity; the documents share them).
        self.commands: dict[int, tuple[Command, dict[str, Any], dict[str, Any]]] = {}

    def of(self, ref: TypeRef, mode: Literal["validation", "serialization"]) -> dict[str, Any]:
        """A fresh copy of the schema of `ref`, so callers may change it."""
        key = (ref, mode)
        if key not in self.made:
            adapter = pydantic.TypeAdapter(self.types.python(ref))
            made = _inline(adapter.json_schema(mode=mode, schema_generator=_SchemaGenerator))
            leaf = TYPES.get(ref.kind)
            extra = leaf.schema if leaf is not None and not leaf.media else {}
            for branch in made.get("anyOf", [made]):
                if extra and branch.get("type") != "null":
                    branch.update(extra)
            self.made[key] = made
        copied: dict[str, Any] = _copied(self.made[key])
        return copied


def _copied(value: Any) -> Any:
    """A copy of a schema, every dict and list (and tuple) in it new: what `copy.deepcopy`
    makes of JSON, at a fifth of its cost (a parameter's schema is copied for each use)."""
    if type(value) is dict:
        return {key: _copied(item) for key, item in value.items()}
    if type(value) is list:
        return [_copied(item) for item in value]
    if type(value) is tuple:
        return tuple(_copied(item) for item in value)
    return value


_LATEST: list[tuple[Program, _Schemas]] = []


def _schemas(program: Program) -> _Schemas:
    # NOTE: keyed by identity: hashing a whole Program would cost more than it saves.
    if not _LATEST or _LATEST[0][0] is not program:
        _LATEST[:] = [(program, _Schemas(program))]
    return _LATEST[0][1]


def _command_schemas(command: Command, program: Program) -> tuple[dict[str, Any], dict[str, Any]]:
    # NOTE: clispec, --llms and the MCP tool list describe each command; made once, shared
    # (never changed after: the documents copy what they add to).
    schemas = _schemas(program)
    made = schemas.commands.get(id(command))
    # NOTE: the command is kept with its schemas, so a reused id cannot answer for another.
    if made is None or made[0] is not command:
        made = schemas.commands[id(command)] = (
            command,
            _input_schema(command, schemas),
            _output_schema(command, schemas),
        )
    return made[1], made[2]


def input_schema(command: Command, program: Program) -> dict[str, Any]:
    """The JSON object a caller gives to `--json`: one property per parameter (shared: do
    not change it)."""
    return _command_schemas(command, program)[0]


def _input_schema(command: Command, schemas: _Schemas) -> dict[str, Any]:
    whole = next((p for p in command.inputs if p.whole_input and p.part_of is None), None)
    if whole is not None and whole.type is not None:
        # NOTE: fireargs' input model: the command's JSON input is the model's object. Its
        # unknown keys are refused as any command's are (`execute._unknown_keys`), where
        # pydantic would ignore them: the schema says so, as for every other command.
        return {
            "type": "object",
            **schemas.of(whole.type, "validation"),
            "additionalProperties": False,
        }
    properties: dict[str, Any] = {}
    required: list[str] = []
    for param in command.inputs:
        assert param.type is not None
        if param.part_of is not None:
            continue  # NOTE: a model's leaf option: JSON input gives the model's object
        prop = schemas.of(param.type, "validation")
        if param.help:
            prop["description"] = param.help
        _bound(prop, param)
        _text_rules(prop, param)
        if param.path is not None and param.path.note:
            prop["description"] = f"{prop.get('description', '')} {param.path.note}".lstrip()
        if param.default_factory:
            prop["description"] = (
                f"{prop.get('description', '')} (default: computed when it runs)".lstrip()
            )
        elif not param.required and not param.secret:
            default = param.default
            prop["default"] = list(default) if isinstance(default, tuple) else default
        if param.deprecated is not None:
            prop["deprecated"] = True  # NOTE: JSON Schema's own annotation (2019-09 and later)
        if param.required:
            required.append(param.name)
            if prop.get("type") == "array":
                # NOTE: a required list needs a value, as on the command line (`nargs="+"`).
                prop["minItems"] = 1
        properties[param.name] = prop
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    refused = _refused_together(command)
    if refused is not None:
        schema["not"] = refused
    schema["additionalProperties"] = False
    return schema


def _refused_together(command: Command) -> dict[str, Any] | None:
    """`@command(exclusive=, one_of=)` as one `not` at the root (MCP clients refuse `anyOf`,
    `oneOf` and `allOf` there): never two keys of a group, nor none of a `one_of` group.
    `inputs.py` leaves it to `values._apart`, which knows env vars and config files
    too, as it leaves a required key."""
    refused: list[dict[str, Any]] = []
    for group in command.exclusive:
        names = group.names
        refused += [
            {"required": [first, second]}
            for index, first in enumerate(names)
            for second in names[index + 1 :]
        ]
        if group.required:
            refused.append({"properties": dict.fromkeys(names, False)})
    if not refused:
        return None
    return refused[0] if len(refused) == 1 else {"anyOf": refused}


def _bound(prop: dict[str, Any], param: Param) -> None:
    """Add `Option(min=, max=)` to a number's schema (to its items, for a list)."""
    if param.minimum is None and param.maximum is None:
        return
    target = prop.get("items", prop) if prop.get("type") == "array" else prop
    for branch in target.get("anyOf", [target]):
        if branch.get("type") in ("integer", "number"):
            if param.minimum is not None:
                branch["minimum"] = param.minimum
            if param.maximum is not None:
                branch["maximum"] = param.maximum


def _text_rules(prop: dict[str, Any], param: Param) -> None:
    """Add `Option(pattern=, min_length=, max_length=)` to a string's schema (its items')."""
    rules = {
        key: value
        for key, value in (
            ("pattern", param.pattern),
            ("minLength", param.min_length),
            ("maxLength", param.max_length),
        )
        if value is not None
    }
    if not rules:
        return
    target = prop.get("items", prop) if prop.get("type") == "array" else prop
    for branch in target.get("anyOf", [target]):
        if branch.get("type") == "string":
            branch.update(rules)


def wraps_result(command: Command) -> bool:
    """True when the command's data is not a JSON object, so agents get `{"result": data}`."""
    returns = command.returns
    objects = ("record", "dict", *MEDIA)
    return returns is None or returns.nullable or returns.kind not in objects


def output_schema(command: Command, program: Program) -> dict[str, Any]:
    """The schema of the command's `data`, always an object (see `wraps_result`; shared: do
    not change it)."""
    return _command_schemas(command, program)[1]


def _output_schema(command: Command, schemas: _Schemas) -> dict[str, Any]:
    returns = command.returns
    schema = {} if returns is None else schemas.of(returns, "serialization")
    if command.trust in _QUARANTINED:
        schema = _wrapped_strings(schema)
    if not wraps_result(command):
        return schema
    return {"type": "object", "properties": {"result": schema}, "required": ["result"]}


#: What a string's schema may say of its value: none of it holds once the string is wrapped.
_STRING_RULES = ("format", "pattern", "minLength", "maxLength")
#: The keywords whose value is a schema, a list of them, or a name -> schema table.
_ONE_SCHEMA = ("items", "additionalProperties", "not")
_SCHEMA_LIST = ("anyOf", "oneOf", "allOf", "prefixItems")
_SCHEMA_TABLE = ("properties", "$defs")


def _wrapped_strings(schema: Any) -> Any:
    """The schema of data whose every string an agent gets quarantined (`external` and
    `untrusted` commands: `<untrusted_tool_output>` tags around it): a string keeps its type,
    and loses what it says of its value (enum, const, format, pattern, lengths), which the
    wrapped text no longer meets. MCP clients check `structuredContent` against it."""
    if not isinstance(schema, dict):
        return schema
    node: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _ONE_SCHEMA:
            node[key] = _wrapped_strings(value)
        elif key in _SCHEMA_LIST:
            node[key] = [_wrapped_strings(item) for item in value]
        elif key in _SCHEMA_TABLE:
            node[key] = {name: _wrapped_strings(item) for name, item in value.items()}
        else:
            node[key] = value
    # NOTE: a Literal's or an enum's values share one type (`burgee gen` checks it).
    for rule in ("enum", "const"):
        value = node.get(rule)
        first = value[0] if isinstance(value, list) and value else value
        if isinstance(first, str):
            del node[rule]
            node["type"] = "string"
    kinds = node.get("type")
    if kinds == "string" or (isinstance(kinds, list) and "string" in kinds):
        for rule in _STRING_RULES:
            node.pop(rule, None)
    return node


#: What an agent reads of a command whose effects nobody declared (`effects="undeclared"`, every
#: command of a Typer or Click app until `[tool.burgee.commands]` says): the skill says it too.
UNDECLARED_NOTE = (
    "Its effects are undeclared: assume it changes things (it may write, delete or reach the"
    " network), and run it only when the task asks for what it does."
)


def tool_hints(command: Command) -> dict[str, bool] | None:
    """MCP tool annotations, from the command's declared effects; None for undeclared ones:
    a client then assumes the worst (MCP's defaults: not read-only, destructive)."""
    effects = command.effects
    if effects == "undeclared":
        return None
    hints = {
        "readOnlyHint": effects == "read_only",
        "destructiveHint": effects == "destructive",
        "idempotentHint": effects in ("read_only", "idempotent"),
    }
    open_world = command.open_world
    if open_world is None and command.trust == "external":
        # NOTE: the converse of `open_world=True` meaning `trust="external"`: data from outside
        # the machine is data the command reached for.
        open_world = True
    if open_world is not None:
        hints["openWorldHint"] = open_world
    return hints


#: What an agent needs to know of a command that reads standard input (`Command.reads_stdin`).
_STDIN_NOTE = (
    "Given no other input, it reads standard input, which is empty when called as a tool "
    "(MCP, --batch): give the input as arguments."
)


def asks(command: Command) -> str:
    """The questions a command's handler may ask, as `--llms` and the skill say them."""
    return "It may ask: " + "; ".join(_question_lines(command.asked)) + "."


def tool(command: Command, program: Program) -> dict[str, Any]:
    """One entry of an MCP `tools/list`-shaped manifest, named by the command path."""
    description = command.description or command.summary
    if command.reads_stdin:
        description += f"\n\n{_STDIN_NOTE}"
    if command.trust in _QUARANTINED:
        # NOTE: the agent reads this before it calls: what the tags will mean.
        description += f"\n\n{_UNTRUSTED_NOTE}"
    if command.exclusive:
        # NOTE: for a client that does not read the schema's `not`: its keys, as given.
        description += "\n\n" + "; ".join(
            _apart_text(group.names, group.required).capitalize() for group in command.exclusive
        )
    if command.questions:
        description += "\n\n" + asks(command)
    if command.deprecated is not None:
        description += "\n\nDeprecated" + (f": {command.deprecated}" if command.deprecated else ".")
    if command.effects == "undeclared":
        description += f"\n\n{UNDECLARED_NOTE}"
    entry = {
        "name": command.name,
        "description": description,
        "inputSchema": input_schema(command, program),
        "outputSchema": output_schema(command, program),
    }
    hints = tool_hints(command)
    if hints is not None:
        entry["annotations"] = hints
    return entry
