"""Options given apart: `@command(exclusive=[...])` (at most one of a group, as argparse's
`add_mutually_exclusive_group()` and Click's mutually exclusive options) and `one_of=[...]`
(exactly one, `required=True`).

One check, in the one execution path (`values._apart`, run by each command's reader): flags
(both readings of a line: `_quick_parse` and argparse), `--json` input and MCP `tools/call`
refuse two options of a group alike, naming them as the caller gave them. A value from an env
var or a config file never clashes with one the call gives (the call wins); two of them, with
none given, are refused with where each came from. Help, the input schema (one `not` at its
root), clispec (`burgee_exclusive`), `--llms` and the skill say the groups. The golden clikit's
`export` has both kinds of group, so tests/test_quickargs.py and tests/test_one_path.py cover
them too; tests/errors/exclusive_groups.py holds what `burgee gen` refuses.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

from tests.helpers import ERRORS, load_tool
from tests.mcp_wire import INIT, Server

EXPORTER = '''\
"""Exports."""
from pathlib import Path
from typing import Annotated, Any

from burgee import Option, command, program

program(name="exporter", version="1.0.0", env_prefix="EXPORTER", config=True)


@command(
    effects="read_only",
    exclusive=[("json_out", "csv_out", "html_out")],
    one_of=[("name", "ref")],
)
def export(
    json_out: Annotated[Path | None, Option("-j", help="Write JSON here")] = None,
    csv_out: Annotated[Path | None, Option("-c")] = None,
    html_out: Path | None = None,
    name: str | None = None,
    ref: int | None = None,
    compact: bool = False,
    tag: list[str] = [],
) -> dict[str, Any]:
    """Export one item as JSON, CSV or HTML."""
    return {
        "json_out": json_out, "csv_out": csv_out, "html_out": html_out, "name": name, "ref": ref
    }
'''


@pytest.fixture(scope="module")
def tool(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return load_tool(tmp_path_factory.mktemp("exclusive"), EXPORTER, "exclusive")


def _error(tool: Any, *argv: str, env: dict[str, str] | None = None) -> str:
    result = tool.invoke(["--json", *argv], env=env)
    assert result.exit_code == 2, result
    assert result.envelope["error"]["kind"] == "usage"
    return str(result.envelope["error"]["message"])


def _data(tool: Any, *argv: str, env: dict[str, str] | None = None) -> Any:
    result = tool.invoke(["--json", *argv], env=env)
    assert result.exit_code == 0, result
    return result.envelope["data"]


#: A trailing `--` sends a line to argparse (the quick reading leaves it alone): each line is
#: read both ways.
READINGS = [[], ["--"]]


@pytest.mark.parametrize("tail", READINGS)
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--name", "a", "-j", "x", "--csv-out", "y"], "-j cannot be given with --csv-out"),
        (
            ["--csv-out", "y", "--name", "a", "--json-out", "x"],
            "--csv-out cannot be given with --json-out",
        ),
        (["-c", "y", "-jx", "--name", "a"], "-c cannot be given with -j"),
        (
            ["--html-out=h", "-c", "y", "-j", "x", "--ref", "1"],
            "--html-out cannot be given with -c and -j",
        ),
        (["--name", "a", "--ref", "1"], "--name cannot be given with --ref"),
        ([], "--name or --ref is required"),
        (["-j", "x"], "--name or --ref is required"),
        (
            ["-j", "x", "-c", "y", "--ref", "2", "--name", "b"],
            "-j cannot be given with -c; --ref cannot be given with --name",
        ),
    ],
)
def test_two_of_a_group_given_are_a_usage_error_naming_them_as_typed(
    tool: Any, argv: list[str], message: str, tail: list[str]
) -> None:
    assert _error(tool, "export", *argv, *tail) == message


@pytest.mark.parametrize("tail", READINGS)
def test_one_of_each_group_runs(tool: Any, tail: list[str]) -> None:
    data = _data(tool, "export", "-j", "out.json", "--ref", "3", *tail)
    assert data == {
        "json_out": "out.json",
        "csv_out": None,
        "html_out": None,
        "name": None,
        "ref": 3,
    }


def test_json_input_is_refused_alike_keys_named(tool: Any) -> None:
    given = {"name": "a", "json_out": "x", "csv_out": "y"}
    assert _error(tool, "export", "--json", json.dumps(given)) == (
        "json_out cannot be given with csv_out"
    )
    assert _error(tool, "export", "--json", "{}") == "name or ref is required"
    # NOTE: a key given null is given, as the schema's `required` pairs count keys.
    given = {"name": "a", "json_out": "x", "csv_out": None}
    assert _error(tool, "export", "--json", json.dumps(given)) == (
        "json_out cannot be given with csv_out"
    )


def test_mcp_tools_call_gets_the_same_error(tool: Any) -> None:
    server = Server(Path(tool.__file__), cwd=Path(tool.__file__).parent)
    try:
        server.send(INIT)
        server.read()
        server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        arguments = {"ref": 1, "name": "a", "html_out": "h"}
        call = {"name": "export", "arguments": arguments}
        server.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call})
        result = server.read()["result"]
    finally:
        server.close()
    assert result["isError"] is True
    envelope = json.loads(result["content"][0]["text"])
    assert envelope["error"]["kind"] == "usage"
    assert envelope["error"]["message"] == "ref cannot be given with name"


def test_an_env_var_never_clashes_with_a_flag_the_flag_wins(tool: Any) -> None:
    env = {"EXPORTER_CSV_OUT": "env.csv", "EXPORTER_NAME": "from-env"}
    data = _data(tool, "export", "-j", "x", "--ref", "2", env=env)
    assert (data["json_out"], data["csv_out"], data["name"], data["ref"]) == ("x", None, None, 2)
    # NOTE: nothing given: the env var gives its option, and satisfies `one_of`.
    data = _data(tool, "export", env=env)
    assert (data["csv_out"], data["name"]) == ("env.csv", "from-env")


def test_two_env_vars_of_a_group_are_refused_with_where_they_came_from(tool: Any) -> None:
    env = {"EXPORTER_CSV_OUT": "env.csv", "EXPORTER_HTML_OUT": "env.html"}
    assert _error(tool, "export", "--ref", "1", env=env) == (
        "--csv-out (env EXPORTER_CSV_OUT) cannot be given with --html-out (env EXPORTER_HTML_OUT)"
    )
    assert _data(tool, "export", "--ref", "1", "-c", "flag.csv", env=env)["csv_out"] == "flag.csv"


def test_a_config_file_value_gives_way_to_a_flag(tool: Any, tmp_path: Path) -> None:
    config = tmp_path / "exporter.toml"
    config.write_text('[export]\nhtml_out = "conf.html"\nref = 7\n', encoding="utf-8")
    data = _data(tool, "--config", str(config), "export", "-j", "x")
    assert (data["json_out"], data["html_out"], data["ref"]) == ("x", None, 7)
    data = _data(tool, "--config", str(config), "export", "--name", "n")
    assert (data["html_out"], data["name"], data["ref"]) == ("conf.html", "n", None)
    env = {"EXPORTER_JSON_OUT": "env.json"}
    message = _error(tool, "--config", str(config), "export", env=env)
    assert message == (
        f"--json-out (env EXPORTER_JSON_OUT) cannot be given with --html-out (config {config} "
        "export.html_out)"
    )


@pytest.mark.parametrize("given", [[], ["-j", "x", "-c", "y"]])
def test_help_shows_the_groups(tool: Any, given: list[str]) -> None:
    """In the usage line as argparse shows a group, and in words after the options; asked
    for, help is help, whatever else the line gives."""
    result = tool.invoke(["export", *given, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    usage = result.stdout.splitlines()[0]
    assert "[-j PATH | -c PATH | --html-out PATH] (--name NAME | --ref REF)" in usage
    assert "at most one of: --json-out, --csv-out, --html-out\n" in result.stdout
    assert "exactly one of: --name, --ref\n" in result.stdout


HIDDEN = '''\
"""Hidden."""
from typing import Annotated

from burgee import Option, command, program

program(name="hider", version="1.0.0")


@command(effects="read_only", exclusive=[("fast", "slow", "legacy")])
def go(
    fast: bool = False,
    slow: bool = False,
    legacy: Annotated[bool, Option(hidden=True)] = False,
) -> str:
    """Go."""
    return "gone"
'''


def test_a_hidden_option_of_a_group_stays_out_of_help(tmp_path: Path) -> None:
    hider = load_tool(tmp_path, HIDDEN, "exclusive_hidden")
    result = hider.invoke(["go", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result
    assert "[--fast | --no-fast | --slow | --no-slow]" in result.stdout.splitlines()[0]
    assert "at most one of: --fast, --slow\n" in result.stdout
    assert "legacy" not in result.stdout
    message = hider.invoke(["--json", "go", "--slow", "--legacy"]).envelope["error"]["message"]
    assert message == "--slow cannot be given with --legacy"


def test_examples_are_checked_against_the_groups() -> None:
    """`burgee gen` parses each example as the tool will: tests/errors/exclusive_examples.py."""
    expected = (ERRORS / "exclusive_examples.stderr").read_text(encoding="utf-8")
    assert "does not parse: --json-out cannot be given with --csv-out" in expected
    assert "does not parse: --name or --ref is required" in expected


def _document(tool: Any) -> Any:
    return json.loads(tool.invoke(["schema"]).stdout)


def test_clispec_and_the_input_schema_say_the_groups(tool: Any) -> None:
    (entry,) = [c for c in _document(tool)["commands"] if c["name"] == "export"]
    assert entry["burgee_exclusive"] == [
        {"args": ["--json-out", "--csv-out", "--html-out"], "required": False},
        {"args": ["--name", "--ref"], "required": True},
    ]
    refused = entry["input_schema"]["not"]
    assert refused == {
        "anyOf": [
            {"required": ["json_out", "csv_out"]},
            {"required": ["json_out", "html_out"]},
            {"required": ["csv_out", "html_out"]},
            {"required": ["name", "ref"]},
            {"properties": {"name": False, "ref": False}},
        ]
    }


def test_llms_says_the_groups_in_words(tool: Any) -> None:
    manifest = json.loads(tool.invoke(["--llms"]).stdout)
    (export,) = [t for t in manifest["tools"] if t["name"] == "export"]
    assert export["description"].endswith(
        "At most one of: json_out, csv_out, html_out; Exactly one of: name, ref"
    )
    assert "not" in export["inputSchema"]


def _input_schema(tool: Any) -> Any:
    (entry,) = [c for c in _document(tool)["commands"] if c["name"] == "export"]
    return entry["input_schema"]


#: What a path may be: the schema says only `format: path` (tests/test_one_path.py draws alike).
PATHS = {"path": st.text(min_size=1, max_size=12).filter(lambda s: "\x00" not in s)}


@pytest.mark.slow  # NOTE: a property test of drawn inputs, each a run (docs/contributing.md)
def test_every_input_the_schema_allows_runs(tool: Any) -> None:
    """Every input the schema allows runs (hypothesis-jsonschema draws them, as MCP clients
    and tests/test_one_path.py do)."""
    schema = _input_schema(tool)

    @settings(
        max_examples=40, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
    )
    @given(from_schema(schema, custom_formats=PATHS))
    def runs(values: dict[str, Any]) -> None:
        result = tool.invoke(["export", "--json", json.dumps(values)])
        assert result.exit_code == 0, (values, result)

    runs()


def test_the_inputs_the_schema_refuses_for_a_group_are_refused(tool: Any) -> None:
    validator = jsonschema.Draft202012Validator(_input_schema(tool))
    for refused in ({"name": "a", "ref": 1}, {"ref": 1, "csv_out": "a", "json_out": "b"}, {}):
        assert not validator.is_valid(refused)
        assert tool.invoke(["export", "--json", json.dumps(refused)]).exit_code == 2
