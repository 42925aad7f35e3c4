"""A secret never leaves, however it is spelled: a value given to a secret option is redacted
as given and as the tool writes it, in data that stays valid JSON, and no usage error shows
it. (The surfaces a secret is redacted on: `tests/test_agent_safety.py`.)"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import InProcessTool, generate, in_process, run
from tests.mcp_wire import INIT, exchange, line

HANDLERS = '''
"""Secrets of every type a secret may have."""

from __future__ import annotations

import uuid
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Literal, Optional

from burgee import Context, Option, command, program

program(name="vault", version="1.0.0", config=True)


@command(effects="read_only")
def unlock(
    token: Annotated[str, Option("--token", "-t", secret=True, env="VAULT_TOKEN")] = "",
    key: Annotated[Optional[uuid.UUID], Option(secret=True)] = None,
    amount: Annotated[Optional[Decimal], Option(secret=True)] = None,
    paths: Annotated[list[Path], Option(secret=True)] = [],
    headers: Annotated[dict[str, str], Option(secret=True)] = {},
    pair: Annotated[tuple[str, str], Option(secret=True)] = ("", ""),
    level: Annotated[Literal["public", "classified"], Option(secret=True)] = "public",
    number: bool = False,
) -> dict:
    """Unlock, and say what it was given."""
    said = {
        "token": token,
        "key": str(key or ""),
        "amount": str(amount or ""),
        "paths": [str(path) for path in paths],
        "headers": headers,
        "pair": list(pair),
        "level": level,
    }
    if number:
        said["number"] = int(token)
        said["ratio"] = float(token)
    return said


@command(effects="read_only")
def seal(
    keys: Annotated[list[str], Option(nargs="+", secret=True)] = [],
    more: Annotated[list[str], Option(nargs="*", secret=True)] = [],
    ctx: Context = None,
) -> str:
    """Seal with several keys after one flag (nargs), and say them."""
    ctx.log("warning", "sealing with " + " ".join(keys + more))
    return " ".join(keys + more)


@command(effects="read_only")
def account(ctx: Context = None) -> dict:
    """Read an account number, a secret the handler names itself."""
    ctx.secret(12345678, "account")
    return {"number": 12345678, "text": "account 12345678"}
'''

KEY = "A1B2C3D4-0000-4000-8000-00000000ABCD"


@pytest.fixture(scope="module")
def tool(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate(tmp_path_factory.mktemp("vault"), HANDLERS)


@pytest.fixture(scope="module")
def asked(tool: Path) -> InProcessTool:
    """The tool asked in this process, for the tests where the process does not matter."""
    return in_process(tool)


def _mcp(tool: Path, arguments: dict[str, Any]) -> bytes:
    call = {"name": "unlock", "arguments": arguments}
    request = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": call}
    _, raw, _, _ = exchange(tool, line(INIT) + line(request))
    return raw


#: A value given in one spelling, and the spelling the tool writes it in; neither may appear.
SPELLINGS = [
    (["--key", KEY], {"key": KEY}, [KEY, KEY.lower()]),
    (["--key", "{" + KEY.replace("-", "") + "}"], {"key": KEY.replace("-", "")}, [KEY.lower()]),
    (["--amount", "00123456789"], {"amount": "00123456789"}, ["00123456789", "123456789"]),
    (["--amount", "1234.5670"], {"amount": 1234.567}, ["1234.567"]),
    (["--paths", "./S3CR3T-dir/"], {"paths": ["./S3CR3T-dir/"]}, ["S3CR3T-dir"]),
    (
        ["--headers", "Authorization=Bearer-S3CR3T"],
        {"headers": {"Authorization": "Bearer-S3CR3T"}},
        ["Bearer-S3CR3T"],
    ),
    (["--pair", "S3CR3T-one", "S3CR3T-two"], {"pair": ["S3CR3T-one", "S3CR3T-two"]}, ["S3CR3T"]),
    (["--level", "classified"], {"level": "classified"}, ["classified"]),
]


@pytest.mark.parametrize(("argv", "arguments", "hidden"), SPELLINGS)
def test_a_secret_is_redacted_as_given_and_as_written(
    tool: Path, argv: list[str], arguments: dict[str, Any], hidden: list[str]
) -> None:
    answers = [
        run(tool, "unlock", *argv, "--json"),
        run(tool, "unlock", *argv),
        run(tool, "unlock", "--json", json.dumps(arguments)),
        run(tool, "--batch", stdin=json.dumps({"command": "unlock", "input": arguments}) + "\n"),
    ]
    for answer in answers:
        assert answer.code == 0, answer
        for text in hidden:
            assert text not in answer.out + answer.err, (text, answer)
    assert json.loads(answers[0].out)["ok"] is True
    (tool.parent / "vault.json").write_text(json.dumps({"unlock": arguments}))
    try:
        configured = run(tool, "unlock", "--json")
    finally:
        (tool.parent / "vault.json").unlink()
    raw = _mcp(tool, arguments).decode()
    for text in hidden:
        assert text not in configured.out + configured.err, (text, configured)
        assert text not in raw, (text, raw)


@pytest.mark.parametrize("how", ["flag", "env", "json"])
def test_a_secret_of_digits_keeps_the_answer_json(
    tool: Path, asked: InProcessTool, how: str
) -> None:
    """A text secret the handler turns into a number: the number is redacted as its text
    would be (it becomes the string), and `--json` stays one JSON document."""
    given = {
        "flag": (["unlock", "--token", "20261231", "--number", "--json"], None),
        "env": (["unlock", "--number", "--json"], {"VAULT_TOKEN": "20261231"}),
        "json": (["unlock", "--json", '{"token": "20261231", "number": true}'], None),
    }
    argv, env = given[how]
    answer = asked.run(*argv, env=env)
    assert "20261231" not in answer.out + answer.err
    data = json.loads(answer.out)["data"]
    assert data["number"] == "<secret:token>"
    assert data["ratio"] == "<secret:token>"  # NOTE: 20261231.0, a number its digits became
    raw = _mcp(tool, {"token": "20261231", "number": True})
    assert b"20261231" not in raw
    for message in raw.splitlines():
        json.loads(message)


SECRET = "hunter2-S3CR3T"


def test_a_commands_options_do_not_hide_its_schema(asked: InProcessTool) -> None:
    """`--schema` after a command's options is that command's schema, as `--help` is its
    help (the options' values were once read as more words of the command's name)."""
    for argv in (["--token", SECRET, "extra"], [f"--token={SECRET}"], ["-t", SECRET]):
        answer = asked.run("unlock", *argv, "--schema")
        assert answer.code == 0, answer
        assert [c["name"] for c in answer.json()["commands"]] == ["unlock"]
        assert SECRET not in answer.out + answer.err
    unknown = asked.run("unlock", "extra", "--token", SECRET, "--schema")
    assert unknown.error_line()["error"]["message"] == "unknown command 'unlock extra'"


@pytest.mark.parametrize(
    "argv",
    [
        [f"--token={SECRET}", "unlock"],
        ["--token", SECRET, "unlock"],
        ["-t", SECRET, "unlock"],
        [f"-t{SECRET}", "unlock"],
        ["unlock", "--json", "[1]", f"--token={SECRET}"],
        ["unlock", "--json=[1]", f"--token={SECRET}"],
        ["unlock", "--json=5", "--token", SECRET],
        ["unlock", "--json", "{}", f"-t{SECRET}"],
        ["unlock", "--json", f'"{SECRET}"'],
        ["unlock", "--json", f'["{SECRET}"]'],
        ["unlock", "--json", f'{{"token": "{SECRET}"', "--bogus"],
        ["unlock", f"--token={SECRET}", "--bogus", "x"],
        ["unlock", f"--token={SECRET}", f"--token={SECRET}", "extra"],
        ["unlock", f"--token={SECRET}", "--level", "secret"],
        ["unlock", "--headers", f"no-equals-{SECRET}"],
        ["unlock", "--pair", SECRET],
        # NOTE: every value of an option of several (nargs), not only its first, wherever
        # the line goes (another command, one that refuses the line).
        ["account", "--keys", "first-key", SECRET],
        ["account", "--keys", "first-key", "second-key", SECRET, "--more", SECRET],
        ["seal", "--keys", "first-key", SECRET, "--bogus"],
        ["seal", "--more", "first-key", SECRET, "--bogus"],
        ["--more", "first-key", SECRET, "seal", "--bogus"],
    ],
)
def test_no_usage_error_shows_a_secret(asked: InProcessTool, argv: list[str]) -> None:
    for json_mode in ([], ["--json"]):
        answer = asked.run(*argv, *json_mode)
        assert answer.code == 2, answer
        assert SECRET not in answer.out + answer.err, answer
        assert answer.error_line()["error"]["kind"] == "usage"


def test_every_value_of_an_option_of_several_is_redacted(asked: InProcessTool) -> None:
    """`--keys K1 K2` of a secret (nargs): each value is kept out of the answer and the log."""
    for mode in ([], ["--json"]):
        answer = asked.run("seal", "--keys", "first-key", SECRET, "--more", "third-key", *mode)
        assert answer.code == 0, answer
        for key in ("first-key", SECRET, "third-key"):
            assert key not in answer.out + answer.err, answer
        assert "sealing with <secret:keys> <secret:keys> <secret:more>" in answer.err, answer


def test_a_tool_wide_flag_is_never_taken_for_a_secret(tool: Path, asked: InProcessTool) -> None:
    """`--token --field x`: the tool takes `--field` out before the command's parser sees it,
    so it is no value of `--token`, and its own error names it."""
    answer = asked.run("unlock", "--token", "--field", "x")
    assert answer.error_line()["error"]["message"] == "--field goes with schema, --schema or --llms"


def test_a_number_a_handler_calls_secret_is_redacted(asked: InProcessTool) -> None:
    """`ctx.secret(12345678)`: a number is kept as its text (it was once ignored, silently)."""
    answer = asked.run("account", "--json")
    assert "12345678" not in answer.out + answer.err
    assert answer.json()["data"] == {
        "number": "<secret:account>",
        "text": "account <secret:account>",
    }
