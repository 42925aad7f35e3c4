"""Bad input to a generated tool gets a clear answer (issue: hardening): never a traceback,
never a secret in a message, stdout under --json exactly one valid UTF-8 JSON document."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from burgee.runtime.execution.sources import _CONFIG_BYTES
from tests.helpers import InProcessTool, generate, in_process, run
from tests.mcp_wire import INIT, exchange, line

HANDLERS = '''
"""Hardened: 100% of the edge cases, as %(prog)s says."""

from __future__ import annotations

import datetime
import os
import sys
import time
from typing import Annotated, Any, Literal

from burgee import Context, Option, command, group, program

program(name="hard", version="1.0.0", config=True)


@command(effects="read_only")
def summary(
    text: str = "", times: int = 1, ratio: float = 1.0, loud: bool = False
) -> dict[str, Any]:
    """Summarise 100% of it."""
    return {"text": text, "times": times, "ratio": ratio, "loud": loud}


tools = group("tools", help="Tools at 50% off.")


@tools.command(effects="read_only")
def shell() -> str:
    """Run a child process that prints."""
    os.system("echo from-child")
    os.write(1, b"from-fd1\\n")
    return "done"


@command(effects="read_only")
def login(
    keys: Annotated[list[str], Option(secret=True)] = [],
    token: Annotated[str, Option(secret=True)] = "hunter2",
    level: Annotated[Literal["low", "high"], Option(secret=True)] = "low",
) -> str:
    """Log in."""
    return "ok"


@command(effects="read_only")
def stubborn(ctx: Context = None) -> str:
    """Ignore a cancellation; print on exit, to stdout."""
    ctx.on_exit(lambda: print("on_exit ran"))
    time.sleep(30)
    return "woke"


@command(effects="read_only")
def wait(seconds: float = 30.0, ctx: Context = None) -> str:
    """Wait, and say so on exit."""
    ctx.on_exit(lambda: print("on_exit ran", file=sys.stderr, flush=True))
    print("waiting", file=sys.stderr, flush=True)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        time.sleep(0.01)
    return "woke"


@command(effects="read_only")
def unit(unit: Literal["%", "px"] = "px") -> str:
    """Echo a unit, 100% of %(prog)s's."""
    return unit


@command(effects="read_only")
def when(day: datetime.date = datetime.date(2026, 1, 1)) -> str:
    """Echo a day."""
    return day.isoformat()
'''


@pytest.fixture(scope="module")
def tool(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate(tmp_path_factory.mktemp("hard"), HANDLERS)


@pytest.fixture(scope="module")
def asked(tool: Path) -> InProcessTool:
    """The tool asked in this process, for the tests where the process does not matter."""
    return in_process(tool)


def _one_json_document(out: str) -> object:
    assert out.count("\n") == 1, out
    return json.loads(out)


def test_percent_in_help_texts(tool: Path, asked: InProcessTool) -> None:
    for args in (("--help",), ("tools", "--help")):
        result = asked.run(*args)
        assert "Traceback" not in result.err
        assert result.code == 0, result
    # NOTE: no command named: the help, on stderr, before the usage error.
    bare = run(tool)
    assert bare.code == 2 and "Summarise 100% of it." in bare.err and "Traceback" not in bare.err
    assert "Summarise 100% of it." in asked.run("--help").out
    # NOTE: as written: argparse would %-format `%(prog)s` (and fail on the other `%`).
    assert "100% of the edge cases, as %(prog)s says." in asked.run("--help").out
    shown = asked.run("unit", "--help")
    assert shown.code == 0, shown
    assert "[--unit {%,px}]" in shown.out and "100% of %(prog)s's." in shown.out


def test_non_utf8_arguments_give_valid_json(tool: Path) -> None:
    raw = b"\xff\xfe"
    for env in ({}, {"PYTHONIOENCODING": "utf-8:strict"}):
        environ = {**os.environ, **env}
        proc = subprocess.run(
            [sys.executable, str(tool), "summary", "--text", raw, "--json"],
            capture_output=True,
            env=environ,
            check=False,
        )
        assert b"Traceback" not in proc.stderr
        envelope = json.loads(proc.stdout.decode("utf-8"))
        assert envelope["ok"] is True
        assert envelope["data"]["text"] == "\udcff\udcfe"
        bad = subprocess.run(
            [sys.executable, str(tool), "summary", "--json", raw],
            capture_output=True,
            env=environ,
            check=False,
        )
        assert b"Traceback" not in bad.stderr
        assert json.loads(bad.stdout.decode("utf-8"))["error"]["kind"] == "usage"
        assert bad.returncode == 2


def test_json_mode_keeps_stdout_to_the_envelope(tool: Path) -> None:
    # NOTE: a subprocess: a child process of the handler writes to the tool's descriptors.
    result = run(tool, "tools", "shell", "--json")
    assert result.code == 0
    assert _one_json_document(result.out) == {"ok": True, "data": "done"}
    assert "from-child" in result.err
    assert "from-fd1" in result.err
    text = run(tool, "tools", "shell")
    assert text.out.splitlines()[-1] == "done"


def test_a_huge_timeout_is_armed_without_a_traceback(asked: InProcessTool) -> None:
    result = asked.run("summary", "--timeout", "1e10", "--json")
    assert result.code == 0, result
    assert "Traceback" not in result.err
    assert "Error" not in result.err


@pytest.mark.parametrize(
    "args",
    [
        ("summary", "--json", "[" * 100000),
        ("summary", "--json", '{"text": ' + "[" * 100000 + "}"),
    ],
)
def test_deep_json_input_is_a_usage_error(asked: InProcessTool, args: tuple[str, ...]) -> None:
    result = asked.run(*args)
    assert result.code == 2, result
    assert result.json()["error"]["kind"] == "usage"


def test_deep_config_file_is_a_usage_error(tool: Path, asked: InProcessTool) -> None:
    config = tool.parent / "hard.json"
    config.write_text('{"summary": {"text": ' + "[" * 100000 + "}}", encoding="utf-8")
    try:
        result = asked.run("summary", "--json")
    finally:
        config.unlink()
    assert result.code == 2, result
    assert result.json()["error"]["kind"] == "usage"


@pytest.mark.parametrize("columns", ["²", "9" * 5000, "-5", ""])
def test_odd_columns_do_not_break_help(asked: InProcessTool, columns: str) -> None:
    result = asked.run("summary", "--help", env={"COLUMNS": columns})
    assert result.code == 0, result
    assert "--times" in result.out


@pytest.mark.parametrize("table", ["tool = 5", "tool = [1]", "[tool]\nhard = 3"])
def test_a_strange_pyproject_does_not_break_the_tool(
    tool: Path, asked: InProcessTool, table: str
) -> None:
    folder = tool.parent / "repo"
    folder.mkdir(exist_ok=True)
    (folder / "pyproject.toml").write_text(table + "\n", encoding="utf-8")
    result = asked.run("summary", "--times", "2", "--json", cwd=folder)
    assert result.code == 0, result
    assert result.json()["data"]["times"] == 2


SECRETS = [
    ("login", "--json", '{"keys": "S3CR3T"}'),
    ("login", "--level", "S3CR3T"),
    ("login", "--level", "S3CR3T", "--json"),
    ("login", "--tokn", "S3CR3T"),
    ("login", "--tokn", "S3CR3T", "--json"),
]


@pytest.mark.parametrize("args", SECRETS)
def test_a_secret_never_appears_in_a_message(asked: InProcessTool, args: tuple[str, ...]) -> None:
    result = asked.run(*args)
    assert result.code == 2, result
    assert "S3CR3T" not in result.out + result.err


def test_a_secret_default_is_not_in_help(asked: InProcessTool) -> None:
    result = asked.run("login", "--help")
    assert result.code == 0
    assert "hunter2" not in result.out


def test_an_unknown_flag_error_names_the_flag(asked: InProcessTool) -> None:
    result = asked.run("summary", "--tmes", "3", "--json")
    assert result.code == 2
    assert "--tmes" in result.json()["error"]["message"]


def _start(tool: Path, *args: str) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, str(tool), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tool.parent,
    )
    assert proc.stderr is not None
    assert proc.stderr.readline() == "waiting\n"
    return proc


@pytest.mark.parametrize("json_mode", [False, True])
def test_ctrl_c_ends_with_the_interrupted_error(tool: Path, json_mode: bool) -> None:
    proc = _start(tool, "wait", *(["--json"] if json_mode else []))
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert "on_exit ran" in err
    last = json.loads(err.strip().splitlines()[-1])
    assert last["error"]["kind"] == "interrupted"
    if json_mode:
        assert _one_json_document(out) == last
    else:
        assert out == ""


def test_sigterm_runs_on_exit_and_ends_with_a_json_error(tool: Path) -> None:
    proc = _start(tool, "wait", "--json")
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 143
    assert "on_exit ran" in err
    assert json.loads(out)["error"]["kind"] == "terminated"
    assert json.loads(err.strip().splitlines()[-1])["error"]["kind"] == "terminated"


def test_a_handler_that_ignores_its_timeout_still_leaves_one_json_document(tool: Path) -> None:
    """After the grace the tool ends the process itself; on_exit callbacks still run, and what
    they print goes to stderr, not before the envelope."""
    result = run(tool, "stubborn", "--timeout", "0.2", "--json")
    assert result.code == 124
    assert result.json()["error"]["kind"] == "timeout"
    assert "on_exit ran" in result.err


def test_ctrl_c_in_the_timeout_grace_is_interrupted(tool: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, str(tool), "wait", "--timeout", "0.2", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(0.6)
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert json.loads(out)["error"]["kind"] == "interrupted"


@pytest.mark.parametrize("value", ["0", "", "false", "no", "off"])
def test_debug_env_off_values(asked: InProcessTool, value: str) -> None:
    result = asked.run("summary", "--times", "x", env={"HARD_DEBUG": value})
    assert result.code == 2
    result = asked.run("summary", "--json", '{"times": 1}', env={"HARD_DEBUG": value})
    assert result.code == 0


def test_version_after_a_command_is_a_usage_error(asked: InProcessTool) -> None:
    result = asked.run("summary", "--version", "--json")
    assert result.code == 2
    assert "--version" in result.json()["error"]["message"]


def test_a_toml_date_is_a_date(tool: Path, asked: InProcessTool) -> None:
    if sys.version_info < (3, 11):
        pytest.skip("TOML needs Python 3.11")
    config = tool.parent / "hard.toml"
    config.write_text("[when]\nday = 2026-05-04\n", encoding="utf-8")
    try:
        result = asked.run("when", "--json")
    finally:
        config.unlink()
    assert result.code == 0, result
    assert result.json()["data"] == "2026-05-04"


@pytest.mark.parametrize(
    ("given", "ok"),
    [
        ({"times": 3.0}, True),
        ({"times": "3"}, False),
        ({"loud": "yes"}, False),
        ({"times": None}, False),
        ({"ratio": "NaN"}, False),
    ],
)
def test_json_input_follows_the_input_schema(
    asked: InProcessTool, given: dict[str, object], ok: bool
) -> None:
    result = asked.run("summary", "--json", json.dumps(given))
    assert result.json()["ok"] is ok, result
    assert result.code == (0 if ok else 2)


@pytest.mark.parametrize("text", ['{"ratio": NaN}', '{"ratio": Infinity}', '{"ratio": -Infinity}'])
def test_nan_is_not_json_input(asked: InProcessTool, text: str) -> None:
    result = asked.run("summary", "--json", text)
    assert result.code == 2, result
    assert result.json()["error"]["kind"] == "usage"


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "NaN"])
def test_nan_is_not_a_float_flag(asked: InProcessTool, value: str) -> None:
    result = asked.run("summary", "--ratio", value, "--json")
    assert result.code == 2, result


def _call(ident: object, name: str, arguments: dict[str, object]) -> dict[str, object]:
    params = {"name": name, "arguments": arguments}
    return {"jsonrpc": "2.0", "id": ident, "method": "tools/call", "params": params}


def test_mcp_invalid_request_keeps_a_usable_id(tool: Path) -> None:
    messages, _, _, _ = exchange(tool, line(INIT) + line({"jsonrpc": "2.0", "id": 7}))
    assert messages[1]["id"] == 7
    assert messages[1]["error"]["code"] == -32600


def test_mcp_duplicate_id_in_flight_gets_one_answer_with_that_id(tool: Path) -> None:
    data = line(INIT) + line(_call(5, "wait", {"seconds": 0.5})) + line(_call(5, "summary", {}))
    messages, _, _, _ = exchange(tool, data)
    with_id = [m for m in messages[1:] if m.get("id") == 5]
    assert len(with_id) == 1
    assert json.loads(with_id[0]["result"]["content"][0]["text"])["data"] == "woke"
    duplicate = [m for m in messages[1:] if m.get("id") is None]
    assert [m["error"]["code"] for m in duplicate] == [-32600]


def test_mcp_nan_in_params_is_a_parse_error(tool: Path) -> None:
    raw = b'{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": '
    raw += b'{"name": "summary", "arguments": {"ratio": NaN}}}\n'
    messages, _, _, _ = exchange(tool, line(INIT) + raw)
    assert messages[1]["error"]["code"] == -32700


def test_sys_exit_in_a_handler_is_its_failure_on_every_surface(tmp_path: Path) -> None:
    tool = generate(
        tmp_path,
        '''
        import sys

        from burgee import command


        @command(effects="read_only")
        def check(ok: bool = False) -> str:
            """Exit early, as scripts do."""
            if not ok:
                sys.exit("not ok")
            return "fine"


        @command(effects="read_only")
        def ping() -> str:
            """Pong."""
            return "pong"


        @command(effects="read_only")
        async def leave() -> str:
            """Exit from an async handler."""
            sys.exit("not ok")
        ''',
    )
    error = {
        "kind": "internal",
        "message": "the handler called sys.exit('not ok') instead of returning",
        "hint": "raise CommandError (or an error the command declares) to fail with a message",
    }
    answered = run(tool, "check", "--json")
    assert (answered.code, answered.json()) == (1, {"ok": False, "error": error})
    # NOTE: from an async handler too, and asyncio logs nothing of it (no traceback).
    left = run(tool, "leave", "--json")
    assert (left.code, left.json()) == (1, {"ok": False, "error": error})
    assert "Traceback" not in left.err and "never retrieved" not in left.err
    calls = [{"id": 1, "command": "check", "input": {}}, {"id": 2, "command": "ping", "input": {}}]
    batch = run(tool, "--batch", stdin="".join(json.dumps(c) + "\n" for c in calls))
    assert [json.loads(line) for line in batch.out.splitlines()] == [
        {"id": 1, "ok": False, "error": error},
        {"id": 2, "ok": True, "data": "pong"},
    ]
    call = {"name": "check", "arguments": {}}
    request = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call}
    messages, _, _, code = exchange(tool, line(INIT) + line(request))
    assert code == 0 and messages[-1]["id"] == 2
    result = messages[-1]["result"]
    assert result["isError"] and json.loads(result["content"][0]["text"])["error"] == error


def test_an_env_var_supplies_a_required_option_on_every_surface(tmp_path: Path) -> None:
    tool = generate(
        tmp_path,
        """
        from typing import Annotated

        from burgee import Option, command, program

        program(name="scaler", env_prefix="SC")


        @command(effects="idempotent")
        def scale(name: str, replicas: Annotated[int, Option(min=0)]) -> int:
            \"\"\"Scale a service.\"\"\"
            return replicas


        @command(effects="read_only")
        def ping() -> str:
            \"\"\"Pong.\"\"\"
            return "pong"
        """,
    )
    asked = in_process(tool)
    env = {"SC_REPLICAS": "3"}
    for args in (["--name", "api", "--json"], ["--json", '{"name": "api"}']):
        answered = asked.run("scale", *args, env=env).json()
        assert answered["data"] == 3
        assert answered["meta"]["provenance"]["replicas"]["from"] == "env SC_REPLICAS"
    missing = asked.run("scale", "--json", '{"name": "api"}')
    assert (missing.code, missing.error_line()["error"]["message"]) == (2, "replicas is required")
    call = {"name": "scale", "arguments": {"name": "api"}}
    request = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call}
    proc = subprocess.run(
        [sys.executable, str(tool), "--mcp"],
        input=line(INIT) + line(request),
        capture_output=True,
        timeout=60,
        env={**os.environ, **env},
        check=False,
    )
    result = json.loads(proc.stdout.splitlines()[-1])["result"]
    assert not result["isError"] and result["structuredContent"] == {"result": 3}


#: A config file one byte over the bound, in each place one is read: (file, its text around
#: the padding, the flags that name it).
_OVERSIZED = {
    "--config": ("big.json", '{"summary": {"text": "%s"}}', ("--config", "big.json")),
    "found here": ("hard.json", '{"summary": {"text": "%s"}}', ()),
    "config dir": ("xdg/hard/config.toml", '[summary]\ntext = "%s"\n', ()),
}


@pytest.mark.parametrize("where", sorted(_OVERSIZED))
def test_a_config_file_over_the_bound_is_a_usage_error(
    tmp_path: Path, asked: InProcessTool, where: str
) -> None:
    """Read whole, a 200 MB JSON config took 425 MB of memory and a TOML of 200,000 keys 19 s:
    over `_CONFIG_BYTES` it is refused, naming the file, before it is read."""
    if where == "config dir" and sys.version_info < (3, 11):
        pytest.skip("TOML needs Python 3.11")
    name, shape, flags = _OVERSIZED[where]
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    padding = _CONFIG_BYTES + 1 - len(shape % "")
    path.write_text(shape % ("a" * padding), encoding="utf-8")
    assert path.stat().st_size == _CONFIG_BYTES + 1
    env = {"XDG_CONFIG_HOME": str(tmp_path / "xdg")}
    result = asked.run("summary", "--json", *flags, env=env, cwd=tmp_path)
    assert result.code == 2, result
    error = result.json()["error"]
    assert error["kind"] == "usage"
    assert name.rpartition("/")[2] in error["message"]
    assert "1 MiB" in error["message"]
    # NOTE: at the bound it is read.
    path.write_text(shape % ("a" * (padding - 1)), encoding="utf-8")
    result = asked.run("summary", "--json", *flags, env=env, cwd=tmp_path)
    assert result.code == 0, result
    assert len(result.json()["data"]["text"]) == padding - 1


def test_a_pyproject_over_the_bound_is_not_read(
    tmp_path: Path, tool: Path, asked: InProcessTool
) -> None:
    """Someone else's pyproject.toml perhaps: over the bound, a warning naming it and no table,
    never a tool that stops working in that folder."""
    if sys.version_info < (3, 11):
        pytest.skip("TOML needs Python 3.11")
    shape = '[tool.hard.summary]\ntext = "x"\n[tool.other]\npad = "%s"\n'
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(shape % ("a" * (_CONFIG_BYTES + 1 - len(shape % ""))), "utf-8")
    result = asked.run("summary", "--json", cwd=tmp_path)
    assert result.code == 0, result
    assert result.json()["data"]["text"] == ""
    assert f"warning: {pyproject}: larger than 1 MiB" in result.err
