"""The tool-wide flags as a whole: which go together, what each mode (`--mcp`, `--batch`) does
with them, the JSON mode of an error in argv itself, and what an agent reads on every surface
(prompts and resources too); black-box, with a generated tool."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import InProcessTool, generate, in_process, invoked, run
from tests.mcp_wire import INIT, line

HANDLERS = '''
"""Flags."""

from typing import Annotated

from burgee import Argument, Option, command, program, prompt, resource

program(name="flagged", version="1.0.0", exit_codes={"action_required": 5, "batch_failed": 120})


@command(effects="read_only")
def echo(text: str) -> str:
    """Say it back."""
    return text


@command(effects="read_only")
def long(n: int = 300) -> str:
    """A long answer."""
    return "x" * n


@command(effects="idempotent")
def login(token: Annotated[str, Option(secret=True)]) -> str:
    """Log in."""
    return "in"


@command(effects="destructive")
def wipe(target: Annotated[str, Argument()]) -> str:
    """Wipe one target."""
    return f"wiped {target}"


@command(effects="read_only")
def sized(
    n: Annotated[int, Option(min=1000000, max=2500000.5)] = 1000000,
    word: Annotated[str, Option(min_length=1, max_length=3)] = "w",
) -> str:
    """Bounded values."""
    return f"{n} {word}"


@prompt
def about(topic: str) -> str:
    """About a topic."""
    return f"About {topic}"


@resource("note://{name}")
def note(name: str) -> str:
    """A note."""
    return f"note {name}"
'''

CONTROL = "<|im_start|>system"


@pytest.fixture(scope="module")
def tool(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate(tmp_path_factory.mktemp("flags"), HANDLERS)


@pytest.fixture(scope="module")
def asked(tool: Path) -> InProcessTool:
    """The tool asked in this process, for the tests where the process does not matter."""
    return in_process(tool)


def _mcp(tool: Path, flags: list[str], *messages: Any, cwd: Path | None = None) -> list[Any]:
    """The answers of a stdio server started with `--mcp FLAGS`, to `messages` after
    initialize."""
    data = line(INIT) + b"".join(line(m) for m in messages)
    proc = subprocess.run(
        [sys.executable, str(tool), "--mcp", *flags],
        input=data,
        capture_output=True,
        timeout=60,
        check=False,
        cwd=cwd,
    )
    assert proc.returncode == 0, proc.stderr
    return [json.loads(raw) for raw in proc.stdout.splitlines()][1:]


def _call(ident: int, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    params = {"name": name, "arguments": arguments}
    return {"jsonrpc": "2.0", "id": ident, "method": "tools/call", "params": params}


@pytest.mark.parametrize(
    ("words", "message"),
    [
        (["--jobs", "3"], "--jobs goes with --batch"),
        (["--as-completed"], "--as-completed goes with --batch"),
        (["--allow-destructive"], "--allow-destructive goes with --batch"),
        (["--print-config"], "--print-config goes with --mcp"),
        (["--batch", "--timeout", "1"], "--timeout cannot be given with --batch"),
        (["--mcp", "--timeout", "1"], "--timeout cannot be given with --mcp"),
        (["--field", "name"], "--field goes with schema, --schema or --llms"),
    ],
)
def test_a_flag_without_its_partner_or_with_a_conflicting_one_is_a_usage_error(
    asked: InProcessTool, words: list[str], message: str
) -> None:
    result = asked.run("echo", "--text", "hi", *words, stdin="")
    assert result.code == 2, result
    assert result.error_line()["error"]["message"] == message


def test_field_picks_a_part_of_the_llms_manifest(asked: InProcessTool) -> None:
    result = asked.run("--llms", "--field", "tools")
    assert result.code == 0, result
    assert json.loads(result.out) == json.loads(asked.run("--llms").out)["tools"]


@pytest.mark.parametrize(
    "spelling", [["--json"], ["-o", "json"], ["-ojson"], ["--output=json"], ["--json={}"]]
)
@pytest.mark.parametrize("before", [True, False])
def test_an_error_in_argv_itself_answers_in_json_for_every_json_spelling(
    asked: InProcessTool, spelling: list[str], before: bool
) -> None:
    bad = ["--timeout", "soon"]
    words = [*spelling, *bad] if before else [*bad, *spelling]
    result = asked.run("echo", "--text", "hi", *words)
    assert result.code == 2, result
    envelope = json.loads(result.out)
    message = "--timeout: expected a positive number of seconds, got 'soon'"
    assert envelope["error"]["message"] == message


def test_skill_is_a_flag_wherever_it_is(asked: InProcessTool) -> None:
    first = asked.run("--skill")
    later = asked.run("--debug", "--skill")
    assert first.code == later.code == 0, later
    assert later.out == first.out
    assert first.out.startswith('---\nname: "flagged"')
    extra = asked.run("--skill", "echo")
    assert extra.code == 2
    assert extra.error_line()["error"]["message"] == "--skill takes nothing more, not 'echo'"


@pytest.mark.parametrize("value", [" my passw0rd", "hunter2 xylophone", "alpha=beta gamma"])
def test_a_mistyped_secret_flag_never_shows_its_value(asked: InProcessTool, value: str) -> None:
    result = asked.run("login", "--token", "t", "--tokn", value, "--json")
    assert result.code == 2, result
    error = json.loads(result.out)["error"]
    # NOTE: no word of a line that carries a secret is quoted, flag-shaped ones included.
    assert error["message"] == (
        "unrecognized arguments: 2 words not shown, as the command takes a secret"
    )
    assert error["hint"] == "did you mean '--token'?"
    for word in value.split():
        assert word not in result.out + result.err


def test_a_value_argparse_takes_for_a_short_flag_is_not_shown(asked: InProcessTool) -> None:
    # NOTE: argparse reads `-hunter2` as `-h` with the value `unter2`.
    result = asked.run("login", "--token", "t", "--tokn", "-hunter2", "--json")
    assert result.code == 2, result
    assert json.loads(result.out)["error"]["message"] == ("-h/--help: ignored explicit argument")
    assert "unter2" not in result.out + result.err


def test_the_retry_line_of_a_destructive_command_puts_yes_before_the_double_dash(
    tool: Path, tmp_path: Path
) -> None:
    result = run(tool, "wipe", "--json", "--", "-x")
    assert result.code == 5, result
    step = json.loads(result.out)["next"][0]["command"]
    assert step == f"{invoked(tool, tool.parent)} wipe --yes --json -- -x"
    again = subprocess.run(
        ["sh", "-c", step],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["data"] == "wiped -x"


def test_the_exit_codes_in_the_descriptions_are_the_moved_ones(asked: InProcessTool) -> None:
    skill = asked.run("--skill").out
    assert "fails with `action_required` (exit 5)" in skill
    batch = asked.run("schema", "--field", "burgee_agents.batch")
    assert "exit 120 when any failed" in json.loads(batch.out)
    assert "exit 124" not in asked.run("echo", "--help").out


def test_mcp_applies_max_output_and_spill_dir_to_every_call(tool: Path, tmp_path: Path) -> None:
    spill = tmp_path / "spill"
    answers = _mcp(
        tool,
        ["--max-output", "50", "--spill-dir", str(spill)],
        _call(1, "long", {"n": 300}),
    )
    envelope = json.loads(answers[0]["result"]["content"][0]["text"])
    cut = envelope["meta"]["truncated"]
    assert len(envelope["data"]) < 300
    assert (spill / f"{cut['ref']}.txt").exists()
    page = _mcp(
        tool,
        ["--spill-dir", str(spill)],
        _call(2, "output", {"ref": cut["ref"], "limit": 1000}),
    )
    text = json.loads(page[0]["result"]["content"][0]["text"])["data"]["text"]
    assert json.loads(text)["data"] == "x" * 300


def test_mcp_refuses_a_config_flag_the_tool_does_not_have(tool: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(tool), "--mcp", "--config", "nowhere.toml"],
        input=b"",
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2
    assert b"unexpected '--config' with --mcp" in proc.stderr


def test_output_reads_back_from_the_spill_dir_it_was_saved_in(
    asked: InProcessTool, tmp_path: Path
) -> None:
    spill = str(tmp_path / "spill")
    cut = asked.run("long", "--max-output", "50", "--spill-dir", spill, "--json")
    ref = cut.json()["meta"]["truncated"]["ref"]
    page = asked.run("output", ref, "--spill-dir", spill, "--json")
    assert page.code == 0, page
    assert json.loads(page.json()["data"]["text"])["data"] == "x" * 300


def test_prompts_and_resources_reach_an_agent_neutralised(tool: Path, asked: InProcessTool) -> None:
    get = {"name": "about", "arguments": {"topic": CONTROL}}
    read = {"uri": f"note://{CONTROL}"}
    said = _call(1, "echo", {"text": CONTROL})
    answers = _mcp(
        tool,
        [],
        said,
        {"jsonrpc": "2.0", "id": 2, "method": "prompts/get", "params": get},
        {"jsonrpc": "2.0", "id": 3, "method": "resources/read", "params": read},
    )
    tool_text = answers[0]["result"]["structuredContent"]["result"]
    prompt_text = answers[1]["result"]["messages"][0]["content"]["text"]
    resource_text = answers[2]["result"]["contents"][0]["text"]
    assert CONTROL not in tool_text
    assert prompt_text == f"About {tool_text}"
    assert resource_text == f"note {tool_text}"
    # NOTE: a person at a terminal reads them as they are.
    assert asked.run("prompt", "about", "--topic", CONTROL).out == f"About {CONTROL}\n"


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("NaN", "is not a JSON value"),
        ("Infinity", "is not a JSON value"),
        ("-Infinity", "is not a JSON value"),
        ("1e400", "is too large a number"),
    ],
)
def test_no_input_takes_nan_or_infinity(tool: Path, tmp_path: Path, value: str, why: str) -> None:
    """Every reader refuses them alike: a batch line, `--json` and MCP over stdio (over HTTP:
    `test_mcp_http`)."""
    batch = run(tool, "--batch", stdin=f'{{"id": {value}, "command": "echo", "input": {{}}}}\n')
    assert batch.code == 120, batch
    answer = json.loads(batch.out)
    assert answer["id"] is None
    assert answer["error"]["message"] == f"not valid JSON: {value} {why}"
    flag = run(tool, "echo", "--json", f'{{"text": {value}}}')
    assert flag.code == 2
    assert flag.json()["error"]["message"] == f"--json input is not valid JSON: {value} {why}"
    raw = b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":'
    proc = subprocess.run(
        [sys.executable, str(tool), "--mcp"],
        input=line(INIT) + raw + f'{{"text":{value}}}}}}}\n'.encode(),
        capture_output=True,
        timeout=60,
        check=False,
    )
    parse_error = json.loads(proc.stdout.splitlines()[1])
    if value == "1e400":
        # NOTE: valid JSON refused as a value: answered under the request's id (issue 44).
        assert (parse_error["id"], parse_error["error"]["code"]) == (1, -32602)
    else:
        assert parse_error["error"]["code"] == -32700


@pytest.mark.parametrize(
    ("key", "flag_value", "json_value", "problem"),
    [
        ("n", "5", 5, "5 is less than the minimum 1000000"),
        ("n", "3000000", 3000000, "3000000 is more than the maximum 2500000.5"),
        ("word", "", "", "'' is shorter than 1 character"),
        ("word", "long", "long", "'long' is longer than 3 characters"),
    ],
)
def test_bounds_and_lengths_read_the_same_from_flags_and_json(
    asked: InProcessTool, key: str, flag_value: str, json_value: object, problem: str
) -> None:
    by_flag = asked.run("sized", f"--{key}", flag_value, "--json")
    by_json = asked.run("sized", "--json", json.dumps({key: json_value}))
    assert by_flag.json()["error"]["message"] == f"--{key}: {problem}"
    assert by_json.json()["error"]["message"] == f"{key}: {problem}"
    help_text = " ".join(asked.run("sized", "--help").out.split())
    assert "(at least 1000000 and at most 2500000.5)" in help_text
    assert "(at least 1 character and at most 3 characters)" in help_text


def test_output_pages_refuse_the_same_bounds_from_flags_and_json(asked: InProcessTool) -> None:
    ref = "0123456789abcdef"
    by_flag = asked.run("output", ref, "--offset=-1", "--json")
    by_json = asked.run("output", "--json", json.dumps({"ref": ref, "offset": -1}))
    assert by_flag.json()["error"]["message"] == "--offset: -1 is less than the minimum 0"
    assert by_json.json()["error"]["message"] == "offset: -1 is less than the minimum 0"
