"""`mytool --mcp --print-config [--client NAME] [--env NAME=VALUE] [--cwd DIR] [--http ...]`:
each client's documented shape, and errors for anything it does not understand."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import tomllib

from tests.helpers import GOLDEN, cached_start, generate, in_process, run
from tests.mcp_wire import INIT, line

PANTRY = GOLDEN / "pantry" / "pantry.py"
#: How the printed configuration starts the golden tool, run as a script: as `python -m` runs
#: a module (from its cached bytecode), its folder first on the path, never the current one.
COMMAND = [sys.executable, *cached_start(PANTRY)]


def config(*args: str) -> str:
    result = run(PANTRY, "--mcp", "--print-config", *args)
    assert result.code == 0, result.err
    return result.out


def test_default_is_the_common_mcp_servers_shape(tmp_path: Path) -> None:
    shown = json.loads(config("--env", "PANTRY_HOME=/srv/p", "--cwd", str(tmp_path)))
    assert shown == {
        "mcpServers": {
            "pantry": {
                "command": sys.executable,
                "args": [*COMMAND[1:], "--mcp", "--cwd", str(tmp_path)],
                "env": {"PANTRY_HOME": "/srv/p"},
            }
        }
    }


@pytest.mark.parametrize("client", ["claude-desktop", "cursor", "windsurf"])
def test_mcp_servers_clients(client: str) -> None:
    shown = json.loads(config("--client", client))
    assert shown == {
        "mcpServers": {"pantry": {"command": COMMAND[0], "args": [*COMMAND[1:], "--mcp"]}}
    }


def test_claude_code_and_vscode_name_the_transport() -> None:
    code = json.loads(config("--client", "claude-code", "--env", "A=1"))
    assert code == {
        "mcpServers": {
            "pantry": {
                "type": "stdio",
                "command": COMMAND[0],
                "args": [*COMMAND[1:], "--mcp"],
                "env": {"A": "1"},
            }
        }
    }
    vscode = json.loads(config("--client", "vscode"))
    assert vscode == {
        "servers": {
            "pantry": {"type": "stdio", "command": COMMAND[0], "args": [*COMMAND[1:], "--mcp"]}
        }
    }


def test_codex_reads_toml() -> None:
    text = config("--client", "codex", "--env", "TOKEN=x y", "--env", "B=2")
    assert tomllib.loads(text) == {
        "mcp_servers": {
            "pantry": {
                "command": COMMAND[0],
                "args": [*COMMAND[1:], "--mcp"],
                "env": {"TOKEN": "x y", "B": "2"},
            }
        }
    }


def test_http_url_forms() -> None:
    assert json.loads(config("--http", "8123")) == {
        "mcpServers": {"pantry": {"url": "http://127.0.0.1:8123/mcp"}}
    }
    assert json.loads(config("--client", "vscode", "--http", "[::1]:9", "--token-env", "T")) == {
        "servers": {
            "pantry": {
                "type": "http",
                "url": "http://[::1]:9/mcp",
                "headers": {"Authorization": "Bearer ${env:T}"},
            }
        }
    }
    assert json.loads(config("--client", "claude-code", "--http", "8123", "--token-env", "T")) == {
        "mcpServers": {
            "pantry": {
                "type": "http",
                "url": "http://127.0.0.1:8123/mcp",
                "headers": {"Authorization": "Bearer ${T}"},
            }
        }
    }
    assert json.loads(config("--client", "windsurf", "--http", "8123")) == {
        "mcpServers": {"pantry": {"serverUrl": "http://127.0.0.1:8123/mcp"}}
    }
    assert tomllib.loads(config("--client", "codex", "--http", "8123", "--token-env", "T")) == {
        "mcp_servers": {"pantry": {"url": "http://127.0.0.1:8123/mcp", "bearer_token_env_var": "T"}}
    }


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--client", "emacs"], "unknown client 'emacs'"),
        (["--client"], "--client needs a value"),
        (["--env", "NOEQUALS"], "--env 'NOEQUALS': write NAME=VALUE"),
        # NOTE: a name no shell and no TOML bare key takes.
        (["--env", "ÜBER=2"], "--env 'ÜBER=2': 'ÜBER' is not a variable name"),
        (["--env", "A.B=2"], "--env 'A.B=2': 'A.B' is not a variable name"),
        (["--cwd", "/no/such/dir/15"], "--cwd '/no/such/dir/15': not a directory"),
        (["--verbose"], "unexpected '--verbose' with --mcp"),
        (["extra"], "unexpected 'extra' with --mcp"),
        (["--client", "claude-desktop", "--http", "80"], "claude-desktop reads only stdio servers"),
        (["--http", "host:port"], "--http 'host:port': write PORT or HOST:PORT"),
    ],
)
def test_errors_for_what_it_does_not_understand(args: list[str], message: str) -> None:
    result = run(PANTRY, "--mcp", "--print-config", *args)
    assert result.code == 2
    assert result.out == ""
    assert result.error_line()["error"]["message"].startswith(message)


def test_a_config_file_that_is_not_there_is_refused_before_it_is_registered(
    tmp_path: Path,
) -> None:
    tool = generate(tmp_path, COUNT)
    asked = in_process(tool)
    result = asked.run("--mcp", "--config", "missing.toml", "--print-config")
    assert result.code == 2 and result.out == ""
    assert result.error_line()["error"]["message"] == "--config missing.toml: no such file"


def test_client_and_env_need_print_config() -> None:
    result = run(PANTRY, "--mcp", "--client", "cursor")
    assert result.code == 2
    error = result.error_line()["error"]
    assert error["message"] == "--client and --env go with --print-config"
    assert "--print-config --client cursor --env" in error["hint"]  # NOTE: the client given


WHERE = """
import os

from burgee import command


@command(effects="read_only")
def where() -> str:
    \"\"\"The directory the tool runs in.\"\"\"
    return os.getcwd()
"""


def _call_printed(server: dict[str, Any], tool: str) -> Any:
    """Start the server as a printed configuration says, from `/` (as a client does, from a
    folder of its own), call `tool` once and return its structuredContent."""
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool}}
    proc = subprocess.run(
        [server["command"], *server["args"]],
        input=line(INIT) + line(call),
        capture_output=True,
        timeout=60,
        check=False,
        cwd="/",
    )
    return json.loads(proc.stdout.splitlines()[1])["result"]["structuredContent"]


def test_the_printed_cwd_is_where_the_server_runs(tmp_path: Path) -> None:
    tool = generate(tmp_path, WHERE)
    asked = in_process(tool)
    home = tmp_path / "home"
    home.mkdir()
    printed = asked.run("--mcp", "--print-config", "--cwd", str(home))
    (server,) = json.loads(printed.out)["mcpServers"].values()
    assert _call_printed(server, "where") == {"result": str(home)}


COUNT = """
from burgee import command, program

program(name="counted", config=True)


@command(effects="read_only")
def show(count: int = 1) -> str:
    \"\"\"The count.\"\"\"
    return "x" * count
"""


def test_the_printed_server_is_the_one_just_tried(tmp_path: Path) -> None:
    """The tool-wide flags given with `--mcp` (`--config`, `--max-output`, `--debug`) apply to
    every call, so the printed configuration carries them, a path made absolute: the client
    starts the server elsewhere."""
    tool = generate(tmp_path, COUNT)
    (tmp_path / "team.toml").write_text("count = 300\n")
    printed = run(
        tool, "--mcp", "--config", "team.toml", "--max-output", "100", "--debug", "--print-config"
    )
    server = json.loads(printed.out)["mcpServers"]["counted"]
    assert server["args"][server["args"].index("--mcp") :] == [
        "--mcp",
        "--config",
        str(tmp_path / "team.toml"),
        "--max-output",
        "100",
        "--debug",
    ]
    answer = _call_printed(server, "show")
    # NOTE: 300 characters from the config file, cut to the limit given with --mcp.
    text = answer["result"]
    assert text.startswith("x" * 20) and "characters omitted" in text and len(text) < 300


def test_a_tool_inside_a_zipapp_configures_the_archive(tmp_path: Path) -> None:
    """In a zipapp the tool's file cannot be run; the archive can, and that is what is named."""
    folder = tmp_path / "app"
    folder.mkdir()
    (folder / "pantry.py").write_bytes(PANTRY.read_bytes())
    (folder / "__main__.py").write_text("import pantry\n\npantry.main()\n", encoding="utf-8")
    archive = tmp_path / "app.pyz"
    subprocess.run([sys.executable, "-m", "zipapp", str(folder), "-o", str(archive)], check=True)
    printed = subprocess.run(
        [sys.executable, str(archive), "--mcp", "--print-config"],
        capture_output=True,
        text=True,
        check=True,
    )
    server = json.loads(printed.stdout)["mcpServers"]["pantry"]
    assert server["args"] == [str(archive), "--mcp"]
    answered = subprocess.run(
        [server["command"], *server["args"]],
        input=line(INIT).decode(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert json.loads(answered.stdout)["result"]["serverInfo"]["name"] == "pantry"
