"""What Typer, Click and Cyclopts users expect, black-box on the golden `clikit` tool.

Aliases, a root command, any flag name, confirmation of destructive commands (a real
pseudo-terminal for the question; a pipe for agents), async handlers cancelled by --timeout
and over MCP. Each through the command line, `--json` input and MCP.
"""

from __future__ import annotations

import importlib
import json
import os
import pty
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import (
    GOLDEN,
    InProcessTool,
    burgee_in_process,
    generate,
    in_process,
    invoked,
    run,
)
from tests.mcp_wire import INIT, Server

CASE = GOLDEN / "clikit"
#: What marks a run as an agent's or CI's: a test of the terminal must not inherit them.
_NOT_A_PERSON = ("CI", "AI_AGENT", "CLAUDECODE", "CURSOR_AGENT", "CODEX_THREAD_ID", "GEMINI_CLI")


@pytest.fixture(scope="module")
def tool(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("clikit")
    shutil.copy(CASE / "clikit.py", work / "clikit.py")
    return work / "clikit.py"


@pytest.fixture(scope="module")
def asked(tool: Path) -> InProcessTool:
    """The clikit tool asked in this process, for the tests where the process does not matter."""
    return in_process(tool)


def _person() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in _NOT_A_PERSON and "_DEBUG" not in k}


def _mcp_call(tool: Path, name: str, arguments: dict[str, Any]) -> Any:
    server = Server(tool, cwd=tool.parent)
    try:
        server.send(INIT)
        server.read()
        server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        call = {"name": name, "arguments": arguments}
        server.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call})
        return server.read()["result"]
    finally:
        server.close()


def _mcp_tools(tool: Path) -> list[dict[str, Any]]:
    server = Server(tool, cwd=tool.parent)
    try:
        server.send(INIT)
        server.read()
        server.send({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}})
        tools: list[dict[str, Any]] = server.read()["result"]["tools"]
        return tools
    finally:
        server.close()


# ---- aliases ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["list-items", "ls", "l"])
def test_an_alias_runs_its_command(asked: InProcessTool, name: str) -> None:
    result = asked.run(name, "--from", "1", "--json")
    assert result.code == 0, result
    assert result.json()["data"] == [1, 2]


def test_aliases_are_in_help_and_schema_but_not_extra_tools(
    tool: Path, asked: InProcessTool
) -> None:
    assert "list-items (ls, l)" in asked.run("--help").out
    assert "aliases: ls, l" in asked.run("ls", "--help").out
    document = asked.run("schema").json()
    entry = next(c for c in document["commands"] if c["name"] == "list-items")
    assert entry["burgee_aliases"] == ["ls", "l"]
    listed = [t["name"] for t in asked.run("--llms").json()["tools"]]
    assert "ls" not in listed and "list-items" in listed
    served = [t["name"] for t in _mcp_tools(tool)]
    assert "ls" not in served and "list-items" in served


@pytest.mark.parametrize("name", ["ls", "l"])
def test_schema_of_an_alias_is_its_commands(asked: InProcessTool, name: str) -> None:
    wanted = asked.run("schema", "list-items").json()
    assert asked.run("schema", name).json() == wanted
    assert asked.run(name, "--schema").json() == wanted


def _bash(script: Path, line: str) -> list[str]:
    words = line.split(" ")
    quoted = " ".join("'" + w + "'" for w in words)
    program = (
        f"source '{script}'\nCOMP_WORDS=({quoted})\nCOMP_CWORD={len(words) - 1}\n"
        f"COMP_LINE='{line}'\nCOMP_POINT=${{#COMP_LINE}}\n"
        '_clikit_completion clikit "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"\n'
        "printf '%s\\n' \"${COMPREPLY[@]}\"\n"
    )
    proc = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", program],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return [w for w in proc.stdout.splitlines() if w]


def _fish(script: Path, line: str) -> list[str]:
    proc = subprocess.run(
        ["fish", "--no-config", "-c", f"source '{script}'; complete -C '{line}'"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return [w.split("\t")[0] for w in proc.stdout.splitlines() if w]


@pytest.mark.parametrize("shell", ["bash", "fish"])
def test_completion_takes_an_alias_like_its_command(shell: str) -> None:
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed")
    complete = _bash if shell == "bash" else _fish
    script = CASE / "completions" / ("clikit" if shell == "bash" else "clikit.fish")
    assert complete(script, "clikit ls --fr") == ["--from"]
    assert complete(script, "clikit list-items --fr") == ["--from"]
    assert "--yes" in complete(script, "clikit delete --")
    assert "--yes" not in complete(script, "clikit reset --")
    assert set(complete(script, "clikit l")) == {"list-items", "ls", "l", "label", "login"}


# ---- the root command --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "out"),
    [
        ([], "Hello, world!\n"),
        (["Ada"], "Hello, Ada!\n"),
        (["--shout"], "HELLO, WORLD!\n"),
        (["Ada", "--shout"], "HELLO, ADA!\n"),
        (["greet", "Bob"], "Hello, Bob!\n"),
        (["hi", "Bob"], "Hello, Bob!\n"),
    ],
)
def test_the_root_command_runs_when_no_command_is_named(
    asked: InProcessTool, argv: list[str], out: str
) -> None:
    result = asked.run(*argv)
    assert (result.code, result.out) == (0, out), result


def test_command_names_win_over_the_root_command(asked: InProcessTool) -> None:
    assert asked.run("reset").out == "kept: 0\n"
    assert "COMMAND" in asked.run("--help").out


def test_the_root_command_with_json_input(asked: InProcessTool) -> None:
    result = asked.run("--json", '{"name": "Ada"}')
    assert result.json()["data"] == "Hello, Ada!"


ALONE = '''
"""Hello: one command, the root."""
from typing import Annotated
from burgee import Argument, command, program

program(name="hello", version="1.0.0")


@command(effects="read_only", root=True)
def greet(name: Annotated[str, Argument(help="Who")] = "world", times: int = 1) -> str:
    """Greet someone."""
    return " ".join([f"Hello, {name}!"] * times)
'''


def test_a_program_whose_only_command_is_root_has_no_subcommand_level(tmp_path: Path) -> None:
    tool = generate(tmp_path, ALONE)
    assert run(tool, "Ada", "--times", "2").out == "Hello, Ada! Hello, Ada!\n"
    # NOTE: no subcommand level: the command's own name is a value like any other.
    assert run(tool, "greet").out == "Hello, greet!\n"
    usage = run(tool, "--help").out
    assert usage.startswith("usage: hello [-h]") and "COMMAND" not in usage
    assert next(t["name"] for t in _mcp_tools(tool)) == "hello"
    # NOTE: --llms names the tool by its command, and says to call `PROG NAME --json '{...}'`.
    assert [t["name"] for t in run(tool, "--llms").json()["tools"]][1] == "greet"
    called = run(tool, "greet", "--json", '{"name": "Ada"}').json()
    assert called["data"] == "Hello, Ada!"
    answer = _mcp_call(tool, "hello", {"name": "Ada"})
    assert answer["structuredContent"] == {"result": "Hello, Ada!"}
    # NOTE: the name --llms gives it works over MCP too (it is not listed twice).
    assert [t["name"] for t in _mcp_tools(tool)] == ["hello", "output"]
    answer = _mcp_call(tool, "greet", {"name": "Ada"})
    assert answer["structuredContent"] == {"result": "Hello, Ada!"}


def test_two_root_commands_are_refused(tmp_path: Path) -> None:
    handlers = tmp_path / "handlers.py"
    handlers.write_text(
        ALONE + '\n\n@command(effects="read_only", root=True)\ndef other() -> str:\n'
        '    """Other."""\n    return ""\n',
        encoding="utf-8",
    )
    result = burgee_in_process("gen", str(handlers), "-o", str(tmp_path / "out.py"))
    assert result.returncode == 2
    assert "'other' and 'greet' are both root=True" in result.stderr
    assert "Traceback" not in result.stderr


# ---- flag names --------------------------------------------------------------------------


def test_a_flag_named_by_option(asked: InProcessTool) -> None:
    assert asked.run("ls", "--from", "2").out == "- 2\n"
    assert asked.run("ls", "-f", "1", "--to", "2").out == "- 1\n"
    assert "  -f FROM, --from FROM" in asked.run("ls", "--help").out


def test_the_json_key_and_the_mcp_property_stay_the_parameter_name(
    tool: Path, asked: InProcessTool
) -> None:
    result = asked.run("ls", "--json", '{"from_": 1}')
    assert result.json()["data"] == [1, 2]
    refused = asked.run("ls", "--json", '{"from": 1}')
    assert refused.code == 2 and "unknown key 'from'" in refused.json()["error"]["message"]
    tool_entry = next(t for t in _mcp_tools(tool) if t["name"] == "list-items")
    assert set(tool_entry["inputSchema"]["properties"]) == {"from_", "to"}
    assert _mcp_call(tool, "list-items", {"from_": 2})["structuredContent"] == {"result": [2]}
    arg = next(
        a
        for c in asked.run("schema").json()["commands"]
        if c["name"] == "list-items"
        for a in c["args"]
        if a["name"] == "--from"
    )
    assert (arg["short"], arg["burgee_key"]) == ("-f", "from_")


def test_a_bad_value_names_the_flag(asked: InProcessTool) -> None:
    result = asked.run("ls", "--from", "-3", "--json")
    assert result.json()["error"]["message"] == "--from: -3 is less than the minimum 0"


def test_a_reserved_flag_name_is_refused(tmp_path: Path) -> None:
    handlers = tmp_path / "handlers.py"
    handlers.write_text(
        "from typing import Annotated\nfrom burgee import Option, command\n\n"
        '@command(effects="read_only")\n'
        'def go(out: Annotated[str, Option("--json")] = "") -> str:\n'
        '    """Go."""\n    return out\n',
        encoding="utf-8",
    )
    result = burgee_in_process("gen", str(handlers), "-o", str(tmp_path / "out.py"))
    assert result.returncode == 2
    assert "--json of 'go' clashes with the tool's reserved flag --json" in result.stderr


# ---- confirmation ------------------------------------------------------------------------


def test_a_destructive_command_stops_in_a_pipe(tool: Path) -> None:
    result = run(tool, "delete", "report", "--json")
    assert result.code == 4
    answer = result.json()
    assert (answer["status"], answer["reason"]) == ("action_required", "confirm")
    assert (
        answer["next"][0]["command"] == f"{invoked(tool, tool.parent)} delete report --yes --json"
    )
    assert result.error_line() == answer


@pytest.mark.parametrize("flag", ["--yes", "-y"])
def test_yes_runs_it(asked: InProcessTool, flag: str) -> None:
    result = asked.run("delete", flag, "report")
    assert (result.code, result.out) == (0, "deleted: report\n")


def test_json_input_needs_yes_too(tool: Path) -> None:
    stopped = run(tool, "delete", "--json", '{"name": "report"}')
    assert stopped.code == 4
    line = stopped.json()["next"][0]["command"]
    assert line == f"""{invoked(tool, tool.parent)} delete --json '{{"name": "report"}}' --yes"""
    ran = run(tool, "delete", "--json", '{"name": "report"}', "--yes")
    assert ran.json() == {"ok": True, "data": {"deleted": "report"}}


def test_over_mcp_the_client_confirms(tool: Path) -> None:
    tool_entry = next(t for t in _mcp_tools(tool) if t["name"] == "delete")
    assert tool_entry["annotations"]["destructiveHint"] is True
    assert "yes" not in tool_entry["inputSchema"]["properties"]
    answer = _mcp_call(tool, "delete", {"name": "report"})
    assert answer["structuredContent"] == {"deleted": "report"}


def test_confirm_false_never_asks(asked: InProcessTool) -> None:
    assert asked.run("reset", "--keep", "2").out == "kept: 2\n"
    assert asked.run("reset", "--yes").code == 2  # NOTE: it has no --yes to take


def test_the_schema_declares_the_bypass(asked: InProcessTool) -> None:
    commands = {c["name"]: c for c in asked.run("schema").json()["commands"]}
    assert commands["delete"]["confirmation_bypass_arg"] == "--yes"
    assert "confirmation_bypass_arg" not in commands["reset"]
    assert "-y/--yes" in asked.run("delete", "--help").out


def _at_a_terminal(
    tool: Path,
    argv: list[str],
    answers: list[tuple[bytes, bytes]],
    env: dict[str, str] | None = None,
) -> tuple[int, str]:
    """Run the tool in a pseudo-terminal of its own (its controlling terminal, as in a shell);
    each time it shows a question, type the answer."""
    pid, controller = pty.fork()
    if pid == 0:  # pragma: no cover (the child)
        os.chdir(tool.parent)
        os.execve(sys.executable, [sys.executable, str(tool), *argv], {**_person(), **(env or {})})
    seen = b""
    pending = list(answers)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        ready, _, _ = select.select([controller], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(controller, 4096)
            except OSError:
                break  # NOTE: the child closed the terminal: it has ended
            if not chunk:
                break
            seen += chunk
        if pending and pending[0][0] in seen.rpartition(b"\n")[2] + seen[-200:]:
            os.write(controller, pending.pop(0)[1])
    _, status = os.waitpid(pid, 0)
    os.close(controller)
    return os.waitstatus_to_exitcode(status), seen.decode("utf-8", "replace").replace("\r\n", "\n")


def test_at_a_terminal_it_asks_and_yes_runs_it() -> None:
    tool = CASE / "clikit.py"
    code, seen = _at_a_terminal(tool, ["delete", "report"], [(b"[y/N]", b"y\n")])
    assert "Delete report for good? [y/N] " in seen
    assert (code, seen.rstrip().endswith("deleted: report")) == (0, True), seen


def test_at_a_terminal_no_runs_nothing() -> None:
    tool = CASE / "clikit.py"
    code, seen = _at_a_terminal(tool, ["delete", "report"], [(b"[y/N]", b"n\n")])
    assert code == 4, seen
    assert "not confirmed: the person declined; nothing ran" in seen and "deleted" not in seen


ROLLBACK = """
from enum import Enum
from typing import Annotated

from burgee import Argument, Option, command, program

program(name="ops", env_prefix="OPS")


class Env(str, Enum):
    STAGING = "staging"
    PROD = "prod"


@command(effects="destructive", confirm="Roll back {service} by {steps} in {env} as {token}?")
def rollback(
    service: Annotated[str, Argument()],
    steps: Annotated[int, Argument()] = 1,
    env: Env = Env.STAGING,
    token: Annotated[str, Option(secret=True)] = "dev-default-token",
) -> str:
    \"\"\"Roll a service back.\"\"\"
    return f"{service} {env.value}"
"""


def test_the_question_shows_the_values_from_defaults_env_and_config(tmp_path: Path) -> None:
    """What the command will act on, wherever the value came from; a secret as its name."""
    tool = generate(tmp_path, ROLLBACK)
    env = {"OPS_ENV": "prod", "OPS_TOKEN": "hunter2-token"}
    code, seen = _at_a_terminal(tool, ["rollback", "api"], [(b"[y/N]", b"n\n")], env)
    assert "Roll back api by 1 in prod as <secret:token>? [y/N] " in seen, seen
    assert code == 4 and "hunter2" not in seen
    # NOTE: a secret's default is no more shown than one from the environment.
    code, seen = _at_a_terminal(tool, ["rollback", "api"], [(b"[y/N]", b"n\n")])
    assert "Roll back api by 1 in staging as <secret:token>? [y/N] " in seen, seen
    assert "dev-default" not in seen


# ---- async handlers ----------------------------------------------------------------------


def test_an_async_command_runs(tool: Path, asked: InProcessTool) -> None:
    assert asked.run("fetch", "--delay", "0.01", "--json").json()["data"] == {"waited": 0.01}
    answer = _mcp_call(tool, "fetch", {"delay": 0.01})
    assert answer["structuredContent"] == {"waited": 0.01}


def test_timeout_cancels_an_async_command(tool: Path, tmp_path: Path) -> None:
    mark = tmp_path / "mark"
    start = time.monotonic()
    result = run(tool, "fetch", "--delay", "5", "--mark", str(mark), "--timeout", "0.3")
    assert result.code == 124, result
    assert time.monotonic() - start < 4
    assert mark.read_text() == "cancelled\non_exit\n"


def test_mcp_cancellation_cancels_an_async_command(tool: Path, tmp_path: Path) -> None:
    mark = tmp_path / "mark"
    server = Server(tool, cwd=tool.parent)
    server.send(INIT)
    server.read()
    server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    call = {"name": "fetch", "arguments": {"delay": 5, "mark": str(mark)}}
    server.send({"jsonrpc": "2.0", "id": "slow", "method": "tools/call", "params": call})
    time.sleep(0.5)  # NOTE: the handler is awaiting its sleep by now
    params = {"requestId": "slow"}
    server.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": params})
    started = time.monotonic()
    while time.monotonic() - started < 4 and "on_exit" not in (
        mark.read_text() if mark.exists() else ""
    ):
        time.sleep(0.05)
    server.send({"jsonrpc": "2.0", "id": 2, "method": "ping"})
    assert server.read()["id"] == 2  # NOTE: never an answer to the cancelled call
    out, _, code = server.close()
    assert code == 0
    assert b'"id":"slow"' not in out
    assert mark.read_text() == "cancelled\non_exit\n"


# ---- types: count, tuple, dict, string rules, default_factory ---------------------------


def test_the_types_on_the_command_line(asked: InProcessTool) -> None:
    result = asked.run("label", "-vvv", "--size", "2", "3", "-l", "a=b", "--tag", "c=d=e", "--json")
    data = result.json()["data"]
    assert data == {
        "name": "main",
        "verbose": 3,
        "size": [2, 3],
        "tags": {"a": "b", "c": "d=e"},
        "owner": "nobody",
    }


def test_the_types_as_json_input_and_over_mcp(tool: Path, asked: InProcessTool) -> None:
    values = {"verbose": 2, "size": [4, 5], "tag": {"x": "y"}, "name": "ok-1"}
    by_json = asked.run("label", "--json", json.dumps(values)).json()
    by_mcp = _mcp_call(tool, "label", values)
    expected = {"name": "ok-1", "verbose": 2, "size": [4, 5], "tags": {"x": "y"}}
    assert by_json["data"] == {**expected, "owner": "nobody"}
    assert by_mcp["structuredContent"] == by_json["data"]


def test_default_factory_runs_on_every_call(asked: InProcessTool) -> None:
    assert (
        asked.run("label", "--json", env={"CLIKIT_OWNER": "ada"}).json()["data"]["owner"] == "ada"
    )
    assert (
        asked.run("label", "--json", env={"CLIKIT_OWNER": "bob"}).json()["data"]["owner"] == "bob"
    )
    assert asked.run("label", "--owner", "cy", "--json").json()["data"]["owner"] == "cy"
    shown = asked.run("label", "-h", env={"COLUMNS": "200"}).out
    assert "Who owns it. (default: computed when it runs, by default_owner())" in shown


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--name", "Bad"], "--name: 'Bad' does not match ^[a-z][a-z0-9-]*$"),
        (["--name", "a" * 21], "--name: 'aaaaaaaaaaaaaaaaaaaaa' is longer than 20 characters"),
        (["-l", "novalue"], "--tag: expected KEY=VALUE, got 'novalue'"),
        (["--size", "1", "x"], "--size: expected an integer, got 'x'"),
        (["--owner", ""], "--owner: '' is shorter than 1 character"),
    ],
)
def test_the_types_refuse_bad_values(asked: InProcessTool, argv: list[str], message: str) -> None:
    result = asked.run("label", *argv, "--json")
    assert (result.code, result.json()["error"]["message"]) == (2, message)


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"name": "Bad"}, "name: 'Bad' does not match ^[a-z][a-z0-9-]*$"),
        ({"size": [1, 2, 3]}, "size: takes at most 2 item(s)"),
        ({"size": [1, "x"]}, "size[1]: expected an integer, got 'x'"),
        ({"verbose": -1}, "verbose: -1 is less than the minimum 0"),
        ({"tag": {"a": 1}}, "tag.a: expected a string, got 1"),
    ],
)
def test_json_input_is_checked_by_the_published_schema(
    asked: InProcessTool, values: dict[str, Any], message: str
) -> None:
    result = asked.run("label", "--json", json.dumps(values))
    assert (result.code, result.json()["error"]["message"]) == (2, message)


def test_the_schemas_carry_the_types(tool: Path, asked: InProcessTool) -> None:
    entry = next(c for c in asked.run("schema").json()["commands"] if c["name"] == "label")
    properties = entry["input_schema"]["properties"]
    assert properties["name"]["pattern"] == "^[a-z][a-z0-9-]*$"
    assert properties["name"]["maxLength"] == 20
    assert properties["owner"]["minLength"] == 1 and "default" not in properties["owner"]
    assert properties["verbose"] == {
        "type": "integer",
        "minimum": 0,
        "description": "Say more; repeat for more",
        "default": 0,
    }
    assert properties["size"]["prefixItems"] == [{"type": "integer"}, {"type": "integer"}]
    assert properties["tag"]["additionalProperties"] == {"type": "string"}
    args = {a["name"]: a for a in entry["args"]}
    assert args["--verbose"]["type"] == "count"
    assert args["--owner"]["burgee_default_factory"] == "default_owner"
    served = next(t for t in _mcp_tools(tool) if t["name"] == "label")
    assert served["inputSchema"]["properties"] == properties


def test_a_count_completes_as_a_switch() -> None:
    if shutil.which("bash") is None:
        pytest.skip("bash is not installed")
    script = CASE / "completions" / "clikit"
    assert _bash(script, "clikit label --verb") == ["--verbose"]
    # NOTE: after a switch, the next word is an option again, not its value.
    assert "--size" in _bash(script, "clikit label --verbose --s")


# ---- prompts -----------------------------------------------------------------------------


def test_at_a_terminal_missing_values_are_asked_for_the_secret_hidden() -> None:
    tool = CASE / "clikit.py"
    code, seen = _at_a_terminal(
        tool,
        ["login", "--json"],
        [(b"Your name: ", b"ada\n"), (b"Your API token: ", b"s3cret-token\n")],
    )
    assert code == 0, seen
    assert "Your name: ada" in seen  # NOTE: typed text echoes, except a secret's
    assert "s3cret-token" not in seen
    answer = json.loads(seen[seen.index('{"ok"') :])
    assert answer["data"] == {"user": "ada", "token_length": 12}
    assert answer["meta"]["provenance"]["user"]["source"] == "prompt"


def test_a_value_given_is_not_asked_for() -> None:
    tool = CASE / "clikit.py"
    code, seen = _at_a_terminal(tool, ["login", "-u", "bob"], [(b"Your API token: ", b"t\n")])
    assert code == 0, seen
    assert "Your name" not in seen and "token_length: 1" in seen


def test_anywhere_else_a_missing_value_is_a_usage_error(asked: InProcessTool) -> None:
    result = asked.run("login", "--json")
    assert result.code == 2
    assert result.json()["error"]["message"] == (
        "--user is required; --token is required (or set CLIKIT_TOKEN)"
    )
    given = asked.run("login", "-u", "ada", env={"CLIKIT_TOKEN": "abc"})
    assert given.out == "user:         ada\ntoken_length: 3\n"


# ---- the version -------------------------------------------------------------------------


def test_no_literal_version_takes_the_nearest_pyproject(tool: Path) -> None:
    assert run(tool, "--version").out == "clikit 1.4.0\n"
    document = run(tool, "schema").json()
    assert document["version"] == "1.4.0"


def test_an_installed_tool_prefers_its_distribution_metadata(tool: Path, tmp_path: Path) -> None:
    info = tmp_path / "site" / "clikit-9.9.9.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: clikit\nVersion: 9.9.9\n")
    env = {"PYTHONPATH": str(tmp_path / "site")}
    assert run(tool, "--version", env=env).out == "clikit 9.9.9\n"
    assert run(tool, "--version", "--json", env=env).json()["data"]["version"] == "9.9.9"


def test_the_metadata_is_never_read_on_the_way_to_a_command(tool: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", str(tool), "ls"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "importlib.metadata" not in proc.stderr
    assert (
        "importlib.metadata"
        in subprocess.run(
            [sys.executable, "-X", "importtime", str(tool), "--version"],
            capture_output=True,
            text=True,
            check=True,
        ).stderr
    )


def test_a_literal_version_wins_over_pyproject(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "hello"\nversion = "3.2.1"\n\n[tool.burgee]\n'
    )
    from_project = generate(tmp_path, ALONE.replace('version="1.0.0"', "version=None"))
    assert run(from_project, "--version").out == "hello 3.2.1\n"
    literal = generate(tmp_path, ALONE)
    assert run(literal, "--version").out == "hello 1.0.0\n"
    assert 'DISTRIBUTION = ""' in literal.read_text()


# ---- the in-process test helper ----------------------------------------------------------


@pytest.fixture(scope="module")
def module(tool: Path) -> Any:
    sys.path.insert(0, str(tool.parent))
    try:
        return importlib.import_module("clikit")
    finally:
        sys.path.remove(str(tool.parent))


def test_invoke_runs_an_argv_in_process(module: Any) -> None:
    result = module.invoke(["ls", "--from", "1", "--json"])
    assert (result.exit_code, result.envelope["data"]) == (0, [1, 2])
    assert result.stdout.startswith('{"ok": true') and result.stderr == ""


def test_invoke_captures_text_errors_and_help(module: Any) -> None:
    text = module.invoke(["hi", "Ada"])
    assert (text.exit_code, text.stdout, text.envelope) == (0, "Hello, Ada!\n", None)
    stopped = module.invoke(["delete", "report"])
    assert stopped.exit_code == 4 and stopped.envelope["reason"] == "confirm"
    assert stopped.stderr.startswith("clikit: error: delete is destructive")
    shown = module.invoke(["--help"])
    assert shown.exit_code == 0 and "list-items (ls, l)" in shown.stdout


def test_invoke_takes_stdin_and_environment(module: Any) -> None:
    before = dict(os.environ)
    result = module.invoke(["login", "--json", "-"], input='{"user": "a", "token": "xyz"}')
    assert result.envelope["data"] == {"user": "a", "token_length": 3}
    with_env = module.invoke(["label", "--json"], env={"CLIKIT_OWNER": "zoe"})
    assert with_env.envelope["data"]["owner"] == "zoe"
    assert dict(os.environ) == before


def test_ctrl_c_cancels_an_async_command(tool: Path, tmp_path: Path) -> None:
    mark = tmp_path / "mark"
    proc = subprocess.Popen(
        [sys.executable, str(tool), "fetch", "--delay", "5", "--mark", str(mark)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(1.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert out == "" and "Traceback" not in err
    assert mark.read_text() == "cancelled\non_exit\n"


def test_a_batch_line_may_name_a_command_by_its_alias(tool: Path) -> None:
    # NOTE: a subprocess: `invoke(["--batch"])` writes its answers to the process's stdout.
    lines = [
        {"id": 1, "command": "ls", "input": {"from_": 1}},
        {"id": 2, "command": "list-items", "input": {"from_": 1}},
    ]
    result = run(tool, "--batch", stdin="".join(json.dumps(line) + "\n" for line in lines))
    assert result.code == 0, result
    answers = [json.loads(line) for line in result.out.splitlines()]
    assert [a["id"] for a in answers] == [1, 2]
    assert answers[0]["data"] == answers[1]["data"] == [1, 2]


@pytest.mark.parametrize("spelled", ["--from", "from", "from_"])
def test_explain_finds_an_option_by_its_flag_or_its_parameter(
    asked: InProcessTool, spelled: str
) -> None:
    result = asked.run("ls", "--from", "2", "--explain", spelled, "--json")
    assert result.code == 0, result
    explained = result.json()["data"]
    assert (explained["option"], explained["from"], explained["value"]) == (
        "from_",
        "flag --from",
        2,
    )
