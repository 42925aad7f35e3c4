"""Pydantic models as a command's input and output (issue 48), the way fireargs users write
them: a model parameter's leaf fields are options of their own (`--ship-to.city`), JSON input
and MCP take the nested object (aliases as pydantic reads them), pydantic builds and checks
the model when the command runs, and a result model answers as pydantic writes it. The golden
`shop` is the handlers file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import GOLDEN, in_process

TOOL = GOLDEN / "shop" / "shop.py"
ORDER = {
    "item": "pen",
    "ship_to": {"city": "Oslo", "zip": "12345", "geo": {"lat": 59.9, "lon": 10.7}},
}


def _data(*words: str) -> object:
    done = in_process(TOOL).run(*words)
    assert done.code == 0, done.err
    return json.loads(done.out)["data"]


def test_flags_and_json_input_give_the_same_model() -> None:
    """Each leaf field of a model parameter is an option named under it; JSON input takes the
    nested object under the field's alias, as pydantic reads it; both build the same model,
    which answers as pydantic writes it (`model_dump(mode="json")`, by alias)."""
    by_flags = _data(
        "place",
        "--item",
        "pen",
        "--ship-to.city",
        "Oslo",
        "--ship-to.zip-code",
        "12345",
        "--ship-to.geo.lat",
        "59.9",
        "--ship-to.geo.lon",
        "10.7",
        "--json",
    )
    by_json = _data("place", "--json", json.dumps(ORDER))
    assert by_flags == by_json
    assert by_json == {
        "item": "pen",
        "ship_to": {"city": "Oslo", "zip": "12345", "geo": {"lat": 59.9, "lon": 10.7}},
        "lines": [],
        "when": None,
    }


def test_a_models_defaults_are_pydantics() -> None:
    """A field not given keeps the model's own default (an Optional model: None)."""
    data = _data("place", "--item", "pen", "--ship-to.city", "Oslo", "--json")
    assert data["ship_to"] == {"city": "Oslo", "zip": "00000", "geo": None}  # type: ignore[index]


def test_help_lists_each_leaf_with_what_its_field_says() -> None:
    done = in_process(TOOL).run("place", "--help")
    assert done.code == 0
    text = " ".join(done.out.split())
    assert "--ship-to.city CITY The city (required) (at least 1 character)" in text
    assert "--ship-to.zip-code ZIP_CODE (default: 00000) (matching ^[0-9]{5}$)" in text
    assert "--ship-to.geo.lat LAT Latitude (at least -90 and at most 90)" in text
    # NOTE: a list of models is given as JSON only, which help says.
    assert "--lines JSON The order's lines. (a JSON object each) (repeatable)" in text


def test_every_field_pydantic_refuses_is_named_by_its_flag_and_json_path() -> None:
    """pydantic's ValidationError is one usage error (exit 2) naming every failing field;
    burgee's own checks (the pattern) run first, with the message they always give (then
    the model is not made, as JSON input whose object the input schema refuses)."""
    done = in_process(TOOL).run("place", "--item", "pen", "--ship-to.geo.lon", "5")
    assert done.code == 2
    assert done.err.splitlines()[0] == (
        "shop: error: --ship-to.city (ship_to.city): Field required; "
        "--ship-to.geo.lat (ship_to.geo.lat): Field required"
    )
    assert "Traceback" not in done.err
    done = in_process(TOOL).run("place", "--item", "pen", "--ship-to.zip-code", "1234")
    assert (
        done.err.splitlines()[0]
        == "shop: error: --ship-to.zip-code: '1234' does not match ^[0-9]{5}$"
    )


def test_json_input_breaking_a_field_constraint_is_a_usage_error_naming_it() -> None:
    bad = {"item": "pen", "ship_to": {"city": "Oslo"}, "lines": [{"sku": "a", "qty": 0}]}
    done = in_process(TOOL).run("place", "--json", json.dumps(bad))
    assert done.code == 2
    error = json.loads(done.out)["error"]
    assert error["kind"] == "usage"
    assert error["message"] == "lines[0].qty: Input should be greater than 0"
    done = in_process(TOOL).run(
        "place", "--item", "pen", "--ship-to.city", "Oslo", "--lines", '{"sku": "a", "qty": 0}'
    )
    assert done.err.splitlines()[0] == (
        "shop: error: --lines (lines[0].qty): Input should be greater than 0"
    )


def _imported(words: list[str], cache: Path, given: str = "") -> set[str]:
    """The modules a run of the shop tool imports (`-X importtime`), its input `given`."""
    result = subprocess.run(
        [sys.executable, "-X", "importtime", str(TOOL), *words],
        capture_output=True,
        check=False,
        input=given.encode(),
        env={"BURGEE_CACHE_DIR": str(cache), "PATH": ""},
    )
    assert result.returncode == 0, result.stderr
    return {row.rsplit("|", 1)[-1].strip() for row in result.stderr.decode().splitlines()}


@pytest.mark.parametrize(
    "words",
    [
        ["--help"],
        ["place", "--help"],
        ["schema"],
        ["--llms"],
        ["completion", "bash"],
        ["__complete", "place", ""],
    ],
)
def test_describing_the_tool_never_imports_pydantic(words: list[str], tmp_path: Path) -> None:
    """help, schema, --llms and completion read the models statically: pydantic is imported
    (and the model classes made) only when a command runs."""
    imported = _imported(words, tmp_path / "cache")
    assert not {name for name in imported if name.startswith("pydantic")}


def test_mcps_lists_never_import_pydantic_and_a_call_does(tmp_path: Path) -> None:
    """An MCP session's `initialize` and lists are answered from what gen read statically;
    the first `tools/call` of a command that takes a model imports pydantic."""
    from tests.mcp_wire import INIT  # noqa: PLC0415

    asked = [INIT, {"jsonrpc": "2.0", "method": "notifications/initialized"}]
    asked += [
        {"jsonrpc": "2.0", "id": n, "method": f"{kind}/list", "params": {}}
        for n, kind in enumerate(("tools", "prompts", "resources"), 1)
    ]
    lines = "".join(json.dumps(message) + "\n" for message in asked)
    imported = _imported(["--mcp"], tmp_path / "cache", lines)
    assert not {name for name in imported if name.startswith("pydantic")}
    call = {"name": "find", "arguments": {"sku": "sku-1"}}
    lines += json.dumps({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": call})
    assert "pydantic" in _imported(["--mcp"], tmp_path / "cache", lines + "\n")


def _untitled(node: object) -> object:
    """A schema without its titles (pydantic invents them from Python names)."""
    if isinstance(node, dict):
        return {k: _untitled(v) for k, v in node.items() if k != "title"}
    if isinstance(node, list):
        return [_untitled(item) for item in node]
    return node


def test_the_schemas_are_pydantics_own_titles_aside() -> None:
    """`--llms` describes the models as pydantic's `model_json_schema()` of the handlers'
    own classes does (validation mode for input, serialization mode for output), nested
    definitions inlined."""
    import importlib.util  # noqa: PLC0415

    from burgee.describe.schemas import _inline  # noqa: PLC0415

    spec = importlib.util.spec_from_file_location("shop_handlers", GOLDEN / "shop" / "handlers.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["shop_handlers"] = module
    spec.loader.exec_module(module)
    namespace = vars(module)
    tools = json.loads(in_process(TOOL).run("--llms").out)["tools"]
    place = next(tool for tool in tools if tool["name"] == "place")
    order = namespace["Order"].model_json_schema(mode="serialization")  # type: ignore[attr-defined]
    assert _untitled(place["outputSchema"]) == _untitled(_inline(order))
    # NOTE: a model's leaf options are the command line's; JSON input takes the object.
    assert list(place["inputSchema"]["properties"]) == ["item", "ship_to", "lines", "rush"]
    address = namespace["Address"].model_json_schema(mode="validation")  # type: ignore[attr-defined]
    given = dict(place["inputSchema"]["properties"]["ship_to"])
    given["description"] = address.get("description")  # NOTE: the parameter's own help wins
    assert _untitled(given) == _untitled(_inline(address))


def test_mcp_takes_the_nested_object_and_its_structured_content_validates() -> None:
    """Over MCP (the official SDK's client, which checks `structuredContent` against the
    tool's `outputSchema`), the arguments are the nested object and the answer is the model
    as the CLI's `data` gives it."""
    import asyncio  # noqa: PLC0415

    from mcp import Client, StdioServerParameters  # noqa: PLC0415

    server = StdioServerParameters(command=sys.executable, args=[str(TOOL), "--mcp"])

    async def go() -> tuple[object, object]:
        async with Client(server, mode="legacy") as client:
            good = await client.call_tool("place", ORDER)
            bad = await client.call_tool("place", {"item": "pen", "ship_to": {"zip": "12345"}})
            return good, bad

    good, bad = asyncio.run(go())
    assert not good.is_error  # type: ignore[attr-defined]
    assert good.structured_content == _data("place", "--json", json.dumps(ORDER))  # type: ignore[attr-defined]
    assert bad.is_error  # type: ignore[attr-defined]
    error = json.loads(bad.content[0].text)["error"]  # type: ignore[attr-defined]
    assert error["kind"] == "usage"
    assert error["message"] == "ship_to: missing field 'city'"  # NOTE: burgee's check, first


def test_a_command_whose_only_parameter_is_a_model_takes_its_fields_unprefixed() -> None:
    """fireargs' input model: the fields are the command's options (`--item`, a nested
    model's `--ship-to.city`) and its JSON input is the model's object, as its input schema
    is the model's."""
    by_flags = _data("quote", "--item", "pen", "--qty", "3", "--ship-to.city", "Oslo", "--json")
    by_json = _data(
        "quote", "--json", json.dumps({"item": "pen", "qty": 3, "ship_to": {"city": "Oslo"}})
    )
    assert by_flags == by_json == {"sku": "pen", "qty": 3}
    tools = json.loads(in_process(TOOL).run("--llms").out)["tools"]
    schema = next(tool for tool in tools if tool["name"] == "quote")["inputSchema"]
    assert list(schema["properties"]) == ["item", "qty", "ship_to"]
    assert schema["required"] == ["item"]
    done = in_process(TOOL).run("quote", "--qty", "3")
    assert done.code == 2
    assert done.err.splitlines()[0] == "shop: error: --item (item): Field required"


def test_explain_names_a_leaf_option() -> None:
    done = in_process(TOOL).run(
        "place", "--item", "pen", "--ship-to.city", "Oslo", "--explain", "ship-to.city"
    )
    assert done.code == 0, done.err
    assert done.out.splitlines()[0] == 'ship_to.city = "Oslo"   from flag --ship-to.city'


def test_a_list_of_models_and_an_optional_model_answer_as_pydantic_writes_them() -> None:
    assert _data("lines", "--json") == [{"sku": "sku-0", "qty": 1}, {"sku": "sku-1", "qty": 2}]
    assert _data("find", "--sku", "sku-9", "--json") == {"sku": "sku-9", "qty": 1}
    assert _data("find", "--sku", "other", "--json") is None


def test_a_field_burgee_refuses_is_not_told_again_by_pydantic() -> None:
    """A leaf option (or a JSON key) burgee's own check refuses is one problem: the model
    is not made, so pydantic does not tell it again."""
    done = in_process(TOOL).run("place", "--item", "pen", "--ship-to.geo.lat", "north")
    assert done.err.splitlines()[0] == (
        "shop: error: --ship-to.geo.lat: expected a number, got 'north'"
    )
    done = in_process(TOOL).run("quote", "--json", '{"item": "", "qty": ""}')
    message = json.loads(done.out)["error"]["message"]
    assert message == "qty: expected an integer, got ''"


# Records: a dataclass or TypedDict parameter takes leaf options as a model does (the golden
# `kitchen`'s `draw`: a dataclass `Shape` holding an Optional dataclass `Anchor`, which holds a
# TypedDict `Point`; a list of points given as JSON, whole).

KITCHEN = GOLDEN / "kitchen" / "kitchen.py"
SHAPE = {
    "name": "tri",
    "anchor": {"at": {"x": 1, "y": 2}, "fixed": True},
    "color": "red",
    "origin": {"x": 0, "y": -3},
    "label": "big",
    "corners": [{"x": 1, "y": 1}],
}


def _drawn(*words: str) -> object:
    done = in_process(KITCHEN).run("draw", *words, "--json")
    assert done.code == 0, done.err
    return json.loads(done.out)["data"]


def test_a_records_leaf_fields_are_options_and_json_input_gives_the_same_record() -> None:
    by_flags = _drawn(
        "--shape.name",
        "tri",
        "--shape.anchor.at.x",
        "1",
        "--shape.anchor.at.y",
        "2",
        "--shape.anchor.fixed",
        "--shape.color",
        "red",
        "--shape.origin.x",
        "0",
        "--shape.origin.y",
        "-3",
        "--shape.label",
        "big",
        "--shape.corners",
        '{"x": 1, "y": 1}',
    )
    done = in_process(KITCHEN).run("draw", "--json", json.dumps({"shape": SHAPE}))
    assert done.code == 0, done.err
    assert by_flags == json.loads(done.out)["data"]
    assert by_flags == {
        **SHAPE,
        "corners": [{"x": 1.0, "y": 1.0}],
        "command": "draw",
    }


def test_a_records_defaults_are_its_own() -> None:
    """A field not given keeps the record's default (a factory's too); the whole object its
    own flag gives still works, leaves over it."""
    assert _drawn("--shape.name", "dot") == {
        "name": "dot",
        "anchor": None,
        "corners": [],
        "color": None,
        "origin": None,
        "label": "shape",
        "command": "draw",
    }
    data = _drawn("--shape", '{"name": "dot", "label": "a"}', "--shape.label", "b")
    assert data["label"] == "b"  # type: ignore[index]


def test_help_lists_a_records_leaves() -> None:
    done = in_process(KITCHEN).run("draw", "--help")
    assert done.code == 0
    text = " ".join(done.out.split())
    assert "--shape.name NAME What it is called. (required)" in text
    assert "--shape.label LABEL Printed beside it. (default: shape)" in text
    assert "--shape.anchor.at.x X" in text
    assert "--shape.color {red,green,blue}" in text
    # NOTE: a list of records is given as JSON only, which help says.
    assert "--shape.corners JSON Its corners. (a JSON object each) (repeatable)" in text
    assert "--shape JSON" not in text


def test_a_record_field_missing_is_named_by_its_flag() -> None:
    done = in_process(KITCHEN).run("draw", "--shape.label", "x")
    assert done.code == 2
    assert done.err.splitlines()[0] == "kitchen: error: --shape.name (shape.name): Field required"
    done = in_process(KITCHEN).run("draw", "--shape.name", "a", "--shape.anchor.at.x", "1")
    assert done.err.splitlines()[0] == (
        "kitchen: error: --shape.anchor.at.y (shape.anchor.at.y): Field required"
    )
    done = in_process(KITCHEN).run("draw", "--shape.name", "a", "--shape.origin.x", "one")
    assert done.err.splitlines()[0] == (
        "kitchen: error: --shape.origin.x: expected an integer, got 'one'"
    )


#: Golden programs without a record parameter (a record may still be a result).
_NO_RECORD_INPUT = ["minimal", "settings", "clikit", "diffy", "repokit", "media", "taskr", "pantry"]


@pytest.mark.parametrize("program", _NO_RECORD_INPUT)
def test_a_tool_without_record_parameters_carries_none_of_their_code(program: str) -> None:
    """The code that gathers a record's leaf options and builds records (`runtime/execution/
    records.py`) is joined only into a tool that takes a record: no other tool runs it."""
    from burgee.runtime.catalog import parse  # noqa: PLC0415

    text = (GOLDEN / program / f"{program}.py").read_text("utf-8")
    names = {name for chunk in parse("records")[0] for name in chunk.binds}
    assert names >= {"_Leaves", "_fields", "_model", "_merged", "_Named", "_placed"}
    defined = {name for name in names if f"def {name}(" in text or f"class {name}(" in text}
    assert defined | {n for n in names if f"class {n}:" in text} == set()


POST = """
    from dataclasses import dataclass

    from pydantic import BaseModel

    from burgee import command, program

    program(name="post", env_prefix="POST", config=True, dependencies=["pydantic>=2"])


    @dataclass
    class Box:
        width: int
        label: str = "box"


    class Address(BaseModel):
        city: str
        zip_code: str = "00000"


    @command(effects="read_only")
    def send(box: Box, to: Address) -> dict:
        return {"width": box.width, "label": box.label, "city": to.city, "zip": to.zip_code}
"""


def test_leaf_options_read_env_vars_and_config_files(tmp_path: Path) -> None:
    """A record's leaf option is an option like any other: its env var (the program's prefix
    and its dotted name, `POST_BOX_LABEL`) and its key in the config file (`box.width`, or
    `width` in a `[send.box]` table, as TOML nests it) give it a value; a flag wins."""
    from tests.helpers import generate  # noqa: PLC0415

    tool = generate(tmp_path, POST)
    (tmp_path / "post.toml").write_text('[send]\nbox.width = 3\n[send.to]\ncity = "Oslo"\n')
    env = {"POST_BOX_LABEL": "crate", "POST_TO_ZIP_CODE": "12345"}
    done = in_process(tool).run("send", "--config", "post.toml", "--json", env=env)
    assert done.code == 0, done.err
    assert "warning" not in done.err
    assert json.loads(done.out)["data"] == {
        "width": 3,
        "label": "crate",
        "city": "Oslo",
        "zip": "12345",
    }
    done = in_process(tool).run(
        "send", "--config", "post.toml", "--box.width", "4", "--json", env=env
    )
    assert json.loads(done.out)["data"]["width"] == 4
    done = in_process(tool).run("send", "--config", "post.toml", "--explain", "box.width")
    assert done.out.splitlines()[0].startswith("box.width = 3   from config ")
    (tmp_path / "post.toml").write_text("[send.box]\nwidht = 3\n")
    done = in_process(tool).run("send", "--config", "post.toml", "--box.width", "3")
    assert done.err.splitlines()[0].endswith("no command reads 'send.box.widht'")
    done = in_process(tool).run("send", "--help")
    assert "POST_BOX_WIDTH" in done.out


def test_the_models_are_written_once_where_type_checkers_read_them() -> None:
    """The tool makes the models from the lines type checkers read (under `if
    TYPE_CHECKING:`), when its first command needs them: each class is in the file once."""
    text = TOOL.read_text("utf-8")
    for model in ("Geo", "Address", "Line", "Order", "Quote"):
        assert text.count(f"class {model}(BaseModel):") == 1, model
    assert _data("quote", "--item", "pen", "--json") == {"sku": "pen", "qty": 1}


def test_a_models_code_failing_points_at_its_line_of_the_tool(tmp_path: Path) -> None:
    """The models run where they stand in the file: a traceback names their own line."""
    from tests.helpers import generate  # noqa: PLC0415

    tool = generate(
        tmp_path,
        """
        from pydantic import BaseModel

        from burgee import command, program

        program(name="oops", dependencies=["pydantic>=2"])


        class Item(BaseModel):
            name: str
            size: int = 1 // 0


        @command(effects="read_only")
        def show(item: Item) -> str:
            return item.name
        """,
    )
    done = in_process(tool).run("show", "--name", "a", "--debug")
    assert "ZeroDivisionError" in done.err
    lines = tool.read_text("utf-8").splitlines()
    number = next(n for n, line in enumerate(lines, 1) if "1 // 0" in line)
    assert f'File "{tool}", line {number}' in done.err
