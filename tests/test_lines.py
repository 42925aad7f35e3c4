"""A line the tool prints for someone to run (`next[]`, a hint, a batch call's line) means the
same wherever it is pasted: it acts on the folder it was printed in, with the call's config
file, and holds no secret in clear (a secret's place is a shell variable the line names).
Lines are run as an agent runs them: one string, handed to a shell, in another folder."""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

from mcp import Client, StdioServerParameters
from mcp.types import TextContent

from tests.helpers import generate, in_process, run

PRUNER = '''
from pathlib import Path
from typing import Annotated

from burgee import Context, Option, command, program

program(name="pruner", version="1.0.0", env_prefix="PRUNER", config=True)


@command(effects="destructive")
def prune(name: str, folder: Path = Path(".")) -> str:
    """Delete NAME in FOLDER."""
    (folder / name).unlink()
    return f"deleted {folder / name}"


@command(effects="destructive")
def wipe(target: str, token: Annotated[str, Option(secret=True)] = "") -> str:
    """Wipe TARGET (with a token)."""
    Path(target).write_text("wiped " + token[:2])
    return "wiped " + target


@command(effects="destructive")
def shred(target: str, keys: Annotated[list[str], Option(nargs="+", secret=True)] = []) -> str:
    """Shred TARGET with several keys (nargs)."""
    Path(target).write_text(" ".join(keys))
    return "shredded " + target


@command(effects="read_only")
def pin(code: Annotated[str, Option(secret=True)]) -> int:
    """The PIN as a number."""
    return int(code)


@command(effects="read_only")
def amount(value: Annotated[str, Option(secret=True)]) -> float:
    """The amount as a number."""
    return float(value)


@command(effects="idempotent")
def login(ctx: Context = None) -> str:
    """Ask a region, then a password."""
    region = ctx.ask("Region?", name="region")
    password = ctx.ask("Password?", name="passw", secret=True)
    return f"{region} {len(password)}"


@command(effects="idempotent")
def deploy(token: Annotated[str, Option(secret=True)], ctx: Context = None) -> str:
    """Stop with a line of the handler's own that holds the token."""
    ctx.action_required(reason="confirm", message="sure?", next=[f"deploy --token {token} --yes"])
    return "never"


@command(effects="idempotent")
def mark(label: str, ctx: Context = None) -> str:
    """Write LABEL and a word asked for in ./mark."""
    word = ctx.ask("Which word?", name="word")
    Path("mark").write_text(f"{label} {word}")
    return "marked"
'''


def _environ(**extra: str) -> dict[str, str]:
    environ = {k: v for k, v in os.environ.items() if not k.endswith("_DEBUG")}
    environ = {k: v for k, v in environ.items() if not k.startswith("PRUNER_")}
    return {**environ, "PATH": "/usr/bin:/bin", **extra}


def _shell(line: str, cwd: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["sh", "-c", line],
        cwd=cwd,
        env=_environ(**extra),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def _folders(tmp_path: Path) -> tuple[Path, Path, Path]:
    """The tool in a folder of its own, and two repositories, each with a file `f`."""
    (tmp_path / "tool").mkdir()
    tool = generate(tmp_path / "tool", PRUNER)
    first, second = tmp_path / "a", tmp_path / "b"
    for folder in (first, second):
        folder.mkdir()
        (folder / "f").write_text("keep")
    return tool, first, second


def _next_line(tool: Path, cwd: Path, *args: str, **extra: str) -> str:
    stopped = subprocess.run(
        [sys.executable, str(tool), *args, "--json"],
        cwd=cwd,
        env=_environ(**extra),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert stopped.returncode == 4, (stopped.stdout, stopped.stderr)
    return str(json.loads(stopped.stdout)["next"][0]["command"])


def test_a_defaulted_folder_line_acts_where_it_was_printed(tmp_path: Path) -> None:
    tool, first, second = _folders(tmp_path)
    line = _next_line(tool, first, "prune", "--name", "f")
    ran = _shell(line, second)
    assert ran.returncode == 0, (line, ran.stderr)
    assert not (first / "f").exists() and (second / "f").exists(), line


def test_a_typed_relative_folder_line_acts_where_it_was_printed(tmp_path: Path) -> None:
    tool, first, second = _folders(tmp_path)
    (first / "sub").mkdir()
    (first / "sub" / "f").write_text("x")
    line = _next_line(tool, first, "prune", "--name", "f", "--folder", "sub")
    (second / "sub").mkdir()
    (second / "sub" / "f").write_text("x")
    ran = _shell(line, second)
    assert ran.returncode == 0, (line, ran.stderr)
    assert not (first / "sub" / "f").exists() and (second / "sub" / "f").exists(), line


def test_a_line_keeps_the_calls_config_file(tmp_path: Path) -> None:
    """`--config cfg.toml` chose the target: the line wipes that target, from any folder, not
    the one the folder's own configuration (or none) would give."""
    tool, first, second = _folders(tmp_path)
    (first / "cfg.json").write_text(json.dumps({"wipe": {"target": "chosen"}}))
    (first / "pruner.json").write_text(json.dumps({"wipe": {"target": "default"}}))
    (second / "pruner.json").write_text(json.dumps({"wipe": {"target": "other"}}))
    line = _next_line(tool, first, "--config", "cfg.json", "wipe")
    ran = _shell(line, second)
    assert ran.returncode == 0, (line, ran.stderr)
    assert (first / "chosen").exists(), line
    assert not (first / "default").exists() and not (second / "other").exists(), line


def test_an_env_only_value_is_said_in_words(tmp_path: Path) -> None:
    tool, first, _ = _folders(tmp_path)
    stopped = run(tool, "wipe", "--json", cwd=first, env={"PRUNER_TARGET": "t"})
    assert stopped.code == 4, stopped
    step = stopped.json()["next"][0]
    assert "PRUNER_TARGET" in step["when"], step


def test_a_secret_is_a_variable_the_line_names(tmp_path: Path) -> None:
    tool, first, second = _folders(tmp_path)
    secret = "SEKRIT-4f9a"
    stopped = run(tool, "wipe", "--target", "t", "--token", secret, "--json", cwd=first)
    assert stopped.code == 4, stopped
    step = stopped.json()["next"][0]
    line = step["command"]
    assert secret not in stopped.out + stopped.err
    # NOTE: `wipe`'s token differs from `deploy`'s (a default): each reads its own variable.
    assert "<secret:" not in line and '"$PRUNER_WIPE_TOKEN"' in line, line
    assert "PRUNER_WIPE_TOKEN" in step["when"], step
    ran = _shell(line, second, PRUNER_WIPE_TOKEN=secret)
    assert ran.returncode == 0, (line, ran.stderr)
    assert (first / "t").read_text() == "wiped SE"


def test_each_value_of_a_secret_of_several_is_a_variable_of_its_own(tmp_path: Path) -> None:
    """`--keys K1 K2` (nargs) of a secret: each value has its variable in the line (one
    variable for both made the line run with the first key twice)."""
    tool, first, second = _folders(tmp_path)
    keys = ["KEY-one-1a2b", "KEY-two-3c4d", "KEY-one-1a2b"]
    stopped = run(tool, "shred", "--target", "t", "--keys", *keys, "--json", cwd=first)
    assert stopped.code == 4, stopped
    assert not any(key in stopped.out + stopped.err for key in keys), stopped.out
    step = stopped.json()["next"][0]
    line = step["command"]
    one, two = '"$PRUNER_KEYS"', '"$PRUNER_KEYS_2"'
    assert f"--keys {one} {two} {one}" in line, line
    assert "PRUNER_KEYS set to" in step["when"], step
    assert "PRUNER_KEYS_2 set to" in step["when"], step
    ran = _shell(line, second, PRUNER_KEYS=keys[0], PRUNER_KEYS_2=keys[1])
    assert ran.returncode == 0, (line, ran.stderr)
    assert (first / "t").read_text() == " ".join(keys)


def test_a_batch_line_holds_no_secret(tmp_path: Path) -> None:
    """A destructive call in a batch is refused before it runs; its line runs it alone, and
    the secret of its input is a variable there as anywhere (it was written in clear)."""
    tool, first, second = _folders(tmp_path)
    secret = "SEKRIT-8b1c"
    call = {"id": 1, "command": "wipe", "input": {"target": "t", "token": secret}}
    stopped = run(tool, "--batch", stdin=json.dumps(call) + "\n", cwd=first)
    assert stopped.code == 125, stopped
    assert secret not in stopped.out + stopped.err, stopped.out
    answer = json.loads(stopped.out)
    line = answer["next"][0]["command"]
    assert '"$PRUNER_WIPE_TOKEN"' in line and "<secret:" not in line, line
    assert "$PRUNER_WIPE_TOKEN" in answer["error"]["hint"], answer
    ran = _shell(line, second, PRUNER_WIPE_TOKEN=secret)
    assert ran.returncode == 0, (line, ran.stderr)
    assert (first / "t").read_text() == "wiped SE"


def test_an_unused_answer_is_not_copied_in_clear(tmp_path: Path) -> None:
    tool, first, _ = _folders(tmp_path)
    stopped = run(tool, "login", "--answer", "passw=hunter2-xyz", "--json", cwd=first)
    assert stopped.code == 4, stopped
    assert "hunter2-xyz" not in stopped.out + stopped.err, stopped.out
    step = stopped.json()["next"][0]
    assert "<secret:" not in step["command"] and "passw" in step["when"], step


def test_a_secret_turned_into_a_number_is_redacted(tmp_path: Path) -> None:
    tool = generate(tmp_path, PRUNER)
    tool_run = in_process(tool)
    shown = tool_run.run("pin", "--code", "0048151623", "--json")
    assert shown.code == 0, shown
    assert "48151623" not in shown.out + shown.err, shown.out
    shown = tool_run.run("pin", "--code", "0048151623")
    assert "48151623" not in shown.out + shown.err, shown.out
    shown = tool_run.run("amount", "--value", "7314159.2700", "--json")
    assert shown.code == 0, shown
    assert "7314159" not in shown.out + shown.err, shown.out


def test_an_mcp_line_keeps_the_servers_folder_and_config(tmp_path: Path) -> None:
    """A server started elsewhere with `--cwd A --config cfg.json`: the line that answers its
    call's question acts in A with that config, wherever it is run."""
    tool, first, second = _folders(tmp_path)
    (first / "cfg.json").write_text(json.dumps({"mark": {"label": "cfg"}}))
    (second / "pruner.json").write_text(json.dumps({"mark": {"label": "other"}}))
    served = ["--mcp", "--cwd", str(first), "--config", "cfg.json"]

    async def go() -> str:
        params = StdioServerParameters(
            command=sys.executable, args=[str(tool), *served], cwd=str(second), env=_environ()
        )
        async with Client(params) as client:  # type: ignore[arg-type]
            result = await client.call_tool("mark", {})
        return next(block.text for block in result.content if isinstance(block, TextContent))

    answer = json.loads(asyncio.run(go()))
    assert answer["reason"] == "answer", answer
    line = answer["next"][0]["command"].replace("word=VALUE", "word=hi")
    ran = _shell(line, second)
    assert ran.returncode == 0, (line, ran.stderr)
    assert (first / "mark").read_text() == "cfg hi", line
    assert not (second / "mark").exists(), line


def test_completion_follows_how_the_tool_was_run(tmp_path: Path) -> None:
    """`python tool.py completion --help` tells no one to run a `pruner` command that does not
    exist: its instructions run the tool as it was run, and say what the scripts complete."""
    tool, _, _ = _folders(tmp_path)
    started = f"{shlex.quote(sys.executable)} {shlex.quote(str(tool))}"
    usage = run(tool, "completion", "--help")
    assert usage.code == 0, usage
    assert f"  bash  {started} completion bash > " in usage.out, usage.out
    assert "pruner completion" not in usage.out, usage.out
    assert "complete the command 'pruner', which this shell has not" in usage.out, usage.out
    installed = tmp_path / "bin" / "pruner"
    installed.parent.mkdir()
    installed.write_text(f"#!{sys.executable}\n" + tool.read_text().split("\n", 1)[1])
    installed.chmod(0o755)
    by_name = _shell("pruner completion --help", tmp_path, PATH=f"{installed.parent}:/usr/bin:/bin")
    assert "  bash  pruner completion bash > " in by_name.stdout, by_name
    assert "which this shell has not" not in by_name.stdout, by_name


def test_a_handlers_own_line_holds_no_secret(tmp_path: Path) -> None:
    tool = generate(tmp_path, PRUNER)
    stopped = in_process(tool).run("deploy", "--token", "SEKRIT-77aa", "--json")
    assert stopped.code == 4, stopped
    line = stopped.json()["next"][0]["command"]
    assert "SEKRIT" not in stopped.out and "<secret:" not in line, line
    assert line.endswith('deploy --token "$PRUNER_DEPLOY_TOKEN" --yes --json'), line
