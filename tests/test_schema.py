"""`schema`, `--schema`, `--llms` and the root help's line for agents, on every golden tool."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sysconfig
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from burgee.render.sections import expand
from tests.helpers import GOLDEN, REGEN, REPO, burgee, burgee_in_process, in_process
from tests.regen import golden_output

SPEC = Path(__file__).parent / "specs" / "clispec-v0.3.json"  # vendored; sha256 ca0a051f…
TOOLS = [
    golden_output(case) for case in sorted(GOLDEN.iterdir()) if (case / "handlers.py").exists()
]
TOOLS.append(REPO / "examples" / "todo" / "todo.py")
IDS = [tool.stem for tool in TOOLS]
#: The clispec scorer (a binary in a wheel, no Python module): this interpreter's scripts
#: directory first, so an inactive venv's own install is the one used.
CLISPEC = shutil.which(
    "clispec", path=os.pathsep.join([sysconfig.get_path("scripts"), os.environ.get("PATH", "")])
)

#: Every key clispec v0.3 defines, per level, for the near-miss lint.
CLISPEC_KEYS = {
    "top": {
        "clispec",
        "name",
        "version",
        "description",
        "output",
        "global_args",
        "commands",
        "errors",
        "outcomes",
        "extensions",
        "command_layout",
    },
    "command": {
        "name",
        "description",
        "effects",
        "mutating",
        "idempotency_key_arg",
        "output_kind",
        "media_type",
        "stream_format",
        "cardinality",
        "pagination",
        "fields_arg",
        "confirmation_bypass_arg",
        "requires_tty",
        "stability",
        "args",
        "output_fields",
        "stdout_schema",
        "errors",
        "outcomes",
        "example",
        "extensions",
        "subcommands",
    },
    "arg": {"name", "type", "short", "required", "default", "enum", "description"},
    "error": {"kind", "exit_code", "retryable", "description"},
}


def clispec_schema() -> dict[str, Any]:
    if SPEC.exists():
        return json.loads(SPEC.read_text(encoding="utf-8"))  # type: ignore[no-any-return]
    pytest.skip("the vendored clispec v0.3 schema is not available")


def one_edit(a: str, b: str) -> bool:
    """True when `a` and `b` differ by exactly one insertion, deletion or substitution."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    short, long = sorted((a, b), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def near_misses(keys: set[str], level: str) -> list[str]:
    known = CLISPEC_KEYS[level]
    return [key for key in keys - known if any(one_edit(key, k) for k in known)]


def schemas_in(document: dict[str, Any]) -> list[dict[str, Any]]:
    found = []
    for command in document["commands"]:
        for key in ("stdout_schema", "input_schema"):
            if key in command:
                found.append(command[key])
    return found


@pytest.fixture(params=TOOLS, ids=IDS)
def tool(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    target = tmp_path / request.param.name
    shutil.copy(request.param, target)
    return target


def test_document_is_valid_clispec(tool: Path, tmp_path: Path) -> None:
    asked = in_process(tool)
    empty = tmp_path / "home"
    empty.mkdir()
    result = asked.run("schema", env={"HOME": str(empty), "XDG_CONFIG_HOME": str(empty)})
    assert result.code == 0, result
    document = result.json()
    jsonschema.Draft202012Validator(clispec_schema()).validate(document)
    for schema in schemas_in(document):
        jsonschema.Draft202012Validator.check_schema(schema)
    assert document["clispec"] == "0.3"
    assert "--explain" in document["explain"]
    kinds = {e["kind"] for e in document["errors"]}
    assert {"usage", "internal", "action_required"} <= kinds
    assert len(kinds) == len(document["errors"])
    names = [c["name"] for c in document["commands"]]
    assert len(names) == len(set(names))
    assert near_misses(set(document), "top") == []
    for command in document["commands"]:
        assert near_misses(set(command), "command") == []
        assert set(command.get("errors", ())) <= kinds
        for arg in command.get("args", ()):
            assert near_misses(set(arg), "arg") == []
        if "example" in command:
            assert (
                command["example"]["args"][: len(command["name"].split())]
                == command["name"].split()
            )


def test_flag_and_subcommand_agree(tool: Path) -> None:
    asked = in_process(tool)
    whole = asked.run("schema").json()
    assert asked.run("--schema").json() == whole
    first = next(c["name"] for c in whole["commands"] if c["name"] != "schema")
    one = asked.run("schema", *first.split()).json()
    assert [c["name"] for c in one["commands"]] == [first]
    assert asked.run(*first.split(), "--schema").json() == one
    assert one["version"] == whole["version"] and one["errors"] == whole["errors"]


def test_llms_manifest(tool: Path) -> None:
    asked = in_process(tool)
    manifest = asked.run("--llms").json()
    document = asked.run("schema").json()
    tools = manifest["tools"]
    assert tools[0]["name"] == "help"
    assert tools[0]["inputSchema"] == {"type": "object", "properties": {}}
    # NOTE: no project installs these tools under a name: `--llms` says to run the file.
    assert f"python {tool.name} <name> --json '<value>'" in tools[0]["description"]
    listed = {
        c["name"] for c in document["commands"] if not c.get("withheld") and c["name"] != "schema"
    }
    assert {t["name"] for t in tools[1:]} == listed
    effects = {c["name"]: c.get("burgee_effects", c.get("effects")) for c in document["commands"]}
    for entry in tools[1:]:
        # NOTE: a command whose effects nobody declared (a Typer or Click app's) has no hints:
        # clients then assume the worst.
        undeclared = effects[entry["name"]] == "undeclared"
        keys = {"name", "description", "inputSchema", "outputSchema", "annotations"}
        assert set(entry) == keys - ({"annotations"} if undeclared else set())
        for key in ("inputSchema", "outputSchema"):
            assert entry[key]["type"] == "object"
            jsonschema.Draft202012Validator.check_schema(entry[key])
        for prop in entry["inputSchema"]["properties"].values():
            assert not {"env", "short", "flag"} & set(prop)
        if not undeclared:
            hints = {"readOnlyHint", "idempotentHint", "destructiveHint"}
            assert set(entry["annotations"]) >= hints


def test_root_help_names_the_agent_surfaces(tool: Path) -> None:
    asked = in_process(tool)
    result = asked.run("--help")
    assert result.code == 0
    line = result.out[result.out.index("For agents:") :]
    for word in ("schema", "--json", "--llms", "--mcp", "--explain"):
        assert word in line


def test_schema_reads_no_config(tmp_path: Path) -> None:
    tool = tmp_path / "settings.py"
    shutil.copy(GOLDEN / "settings" / "settings.py", tool)
    asked = in_process(tool)
    (tmp_path / "settings.toml").write_text("this is [not toml", encoding="utf-8")
    assert asked.run("schema").code == 0
    assert asked.run("--llms").code == 0
    assert asked.run("connect").code == 2


def test_field_and_one_command(tmp_path: Path) -> None:
    tool = tmp_path / "settings.py"
    shutil.copy(GOLDEN / "settings" / "settings.py", tool)
    asked = in_process(tool)
    port = asked.run("schema", "connect", "--field", "args.port").json()
    assert port == {
        "name": "--port",
        "type": "integer",
        "short": "-p",
        "required": False,
        "default": 8080,
        "description": "The TCP port",
        "env": "SETTINGS_PORT",
        "minimum": 1,
        "maximum": 65535,
    }
    assert asked.run("connect", "--schema", "--field", "args.port").json() == port
    assert asked.run("--schema", "--field", "version").json() == "0.3.0"
    bad = asked.run("schema", "--field", "nope")
    assert bad.code == 2 and bad.error_line()["error"]["kind"] == "usage"
    token = asked.run("schema", "connect", "--field", "args.token").json()
    assert token["secret"] is True and "default" not in token
    document = asked.run("schema").json()
    forget = next(c for c in document["commands"] if c["name"] == "remote forget")
    assert forget["withheld"] is True and forget["effects"] == "non_idempotent"
    llms = asked.run("--llms").json()
    connect = next(t for t in llms["tools"] if t["name"] == "connect")
    port_schema = connect["inputSchema"]["properties"]["port"]
    assert port_schema["minimum"] == 1 and port_schema["maximum"] == 65535
    assert "default" not in connect["inputSchema"]["properties"]["token"]
    apply = next(t for t in llms["tools"] if t["name"] == "apply")
    assert apply["annotations"]["idempotentHint"] is True


@pytest.mark.skipif(CLISPEC is None, reason="clispec scorer not installed")
@pytest.mark.slow
@pytest.mark.parametrize(
    "source",
    [
        REPO / "examples" / "todo" / "todo.py",
        GOLDEN / "kitchen" / "kitchen.py",
        GOLDEN / "settings" / "settings.py",
        GOLDEN / "pantry" / "pantry.py",
        GOLDEN / "diffy" / "diffy.py",
    ],
    ids=lambda p: p.stem,
)
def test_clispec_score_is_perfect(source: Path, tmp_path: Path) -> None:
    tool = tmp_path / source.name
    shutil.copy(source, tool)
    tool.chmod(0o755)
    proc = subprocess.run(
        [str(CLISPEC), "score", str(tool), "-o", "json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    report = json.loads(proc.stdout)
    failed = [c for p in report["principles"] for c in p["checks"] if not c["passed"]]
    assert (report["score"], report["max"]) == (24, 24), failed


@pytest.mark.parametrize("case", ["kitchen", "minimal", "settings"])
def test_golden_is_current_and_deterministic(case: str, tmp_path: Path) -> None:
    committed = golden_output(GOLDEN / case)
    tmp_path = tmp_path / case
    tmp_path.mkdir()
    for name in ("handlers.py", "pyproject.toml"):  # NOTE: the version may come from the latter
        if (GOLDEN / case / name).exists():
            shutil.copy(GOLDEN / case / name, tmp_path / name)
    # NOTE: once in a process of its own, once in this one after whatever it generated before:
    # neither a fresh process nor what an earlier generation left behind changes a byte.
    for ask in (burgee, burgee_in_process):
        result = ask("gen", "handlers.py", "-o", committed.name, "--force", cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        fresh = expand((tmp_path / committed.name).read_text(encoding="utf-8"))
        assert fresh == committed.read_text(encoding="utf-8"), f"run {REGEN}"


def _records(node: Any) -> list[dict[str, Any]]:
    """Every record (a dataclass's or TypedDict's object: it has a title) inside a schema."""
    found = []
    if isinstance(node, dict):
        if "properties" in node and "title" in node:
            found.append(node)
        for value in node.values():
            found += _records(value)
    elif isinstance(node, list):
        for value in node:
            found += _records(value)
    return found


def test_a_record_admits_only_its_fields() -> None:
    """The tool refuses a field a record does not have, in input and in a result, so every
    record's schema says `additionalProperties: false`: a client that checks against the
    published schema is not misled."""
    records = []
    for name in ("kitchen", "pantry", "clikit"):
        asked = in_process(golden_output(GOLDEN / name))
        for entry in asked.run("--llms").json()["tools"]:
            records += _records([entry["inputSchema"], entry["outputSchema"]])
        records += _records(schemas_in(asked.run("schema").json()))
    assert len(records) >= 3
    assert all(record.get("additionalProperties") is False for record in records), records
