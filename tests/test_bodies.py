"""Bodies written for Click or Typer run unchanged in a generated tool: what they print answers
agents (`meta.printed` under `--json`, text content after the envelope over MCP), the calls
they make into click or typer (`echo`, `secho`, `style`, `confirm`, `prompt`, the exceptions,
`get_current_context()`, `get_app_dir`) work through the tool's stdlib stand-in when that is
all they use, and through the real package (declared in the PEP 723 block) when they use more.
Their exceptions are the envelope's kinds; `confirm`/`prompt` are burgee's own questions."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import burgee_in_process, generate, import_tool, in_process, run

CLICKY = '''\
"""Bodies written for Click."""
import click
from click import echo

from burgee import Context, command, program

program(name="clicky", version="1.0.0")


@command(effects="read_only")
def hello(name: str = "Ada") -> None:
    """Say hello."""
    click.echo(f"Hello {name}")
    click.secho("in red", fg="red", bold=True)
    echo(click.style("plain", fg="green"), nl=False)


@command(effects="read_only")
def count(n: int = 2) -> int:
    """Count, saying so."""
    print(f"counting to {n}")
    return n


@command(effects="read_only")
def fail(how: str = "click") -> None:
    """Fail as a Click body fails."""
    if how == "click":
        raise click.ClickException("the thing broke")
    if how == "custom":
        error = click.ClickException("code three")
        error.exit_code = 3
        raise error
    if how == "usage":
        raise click.UsageError("needs more")
    if how == "param":
        raise click.BadParameter("not a colour", param_hint="'--colour'")
    if how == "abort":
        raise click.Abort()
    if how == "exit":
        raise click.exceptions.Exit(5)
    if how == "exit0":
        click.echo("done early")
        raise click.exceptions.Exit(0)
    if how == "ctxexit":
        click.get_current_context().exit(6)
    if how == "ctxfail":
        click.get_current_context().fail("bad context")


@command(effects="non_idempotent")
def wipe(name: str = "db") -> str:
    """Wipe after asking."""
    if not click.confirm(f"Wipe {name}?"):
        return "kept"
    colour = click.prompt("Colour", default="blue")
    return f"wiped {name} {colour}"


@command(effects="read_only")
def where() -> str:
    """Where the app's files go."""
    ctx = click.get_current_context()
    ctx.ensure_object(dict)["seen"] = True
    return click.get_app_dir("Clicky") + " " + str(ctx.obj["seen"])


@command(effects="read_only")
def passed(how: str = "obj", ctx: Context = None) -> str:
    """Use the context as a Click body given `pass_context` does."""
    ctx.obj = {"user": "ada"}
    if how == "exit":
        ctx.exit(7)
    if how == "exit0":
        ctx.exit()
    if how == "fail":
        ctx.fail("no such user")
    if how == "abort":
        ctx.abort()
    return click.get_current_context().obj["user"] + " " + ctx.find_object(dict)["user"]
'''

TYPERY = '''\
"""Bodies written for Typer."""
import typer

from burgee import command, program

program(name="typery", version="1.0.0")


@command(effects="read_only")
def hello(name: str = "Ada", code: int = 0) -> None:
    """Say hello."""
    typer.echo(f"Hello {name}")
    typer.secho("loud", fg=typer.colors.RED)
    if code:
        raise typer.Exit(code=code)


@command(effects="read_only")
def ask() -> str:
    """Ask for a name."""
    return typer.prompt("Name")


@command(effects="read_only")
def bad() -> None:
    """Refuse."""
    raise typer.BadParameter("nope")
'''

#: A body that uses more of Click than the stand-in has: the tool needs the real package.
BEYOND = '''\
"""Bodies that need the real Click."""
import click

from burgee import command, program

program(name="beyond", version="1.0.0", dependencies=["click>=8"])


@command(effects="read_only")
def hello() -> None:
    """Say hello."""
    click.echo("Hello")


@command(effects="read_only")
def bar() -> None:
    """Show a bar."""
    with click.progressbar(range(3)) as items:
        for _ in items:
            pass
    raise click.UsageError("after the bar")


@command(effects="read_only")
def ask() -> str:
    """Ask, as Click asks."""
    if click.confirm("Go on?"):
        return click.prompt("Name")
    return "stopped"
'''


@pytest.fixture(scope="module")
def clicky(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate(tmp_path_factory.mktemp("clicky"), CLICKY)


@pytest.fixture(scope="module")
def typery(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate(tmp_path_factory.mktemp("typery"), TYPERY)


def test_what_a_body_prints_is_carried_in_the_json_envelope(clicky: Path) -> None:
    tool = in_process(clicky)
    done = tool.run("hello", "--json")
    assert done.code == 0, done
    envelope = done.json()
    assert envelope["data"] is None
    assert envelope["meta"]["printed"] == "Hello Ada\nin red\nplain"
    assert "Hello Ada" not in done.err
    # NOTE: a command that returns a value keeps its typed data; what it printed is beside it.
    counted = tool.run("count", "--json").json()
    assert counted["data"] == 2
    assert counted["meta"]["printed"] == "counting to 2\n"
    # NOTE: nothing printed, no key.
    assert "printed" not in tool.run("where", "--json").json().get("meta", {})


def test_in_text_mode_a_body_prints_to_stdout(clicky: Path) -> None:
    done = in_process(clicky).run("hello")
    assert done.code == 0, done
    assert done.out == "Hello Ada\nin red\nplain"


def test_a_tool_whose_bodies_use_only_the_stand_in_needs_no_click(clicky: Path) -> None:
    source = clicky.read_text(encoding="utf-8")
    assert "# dependencies" not in source
    assert "    click = _Click  # type: ignore" in source
    assert "echo = _Click.echo  # type: ignore" in source
    # NOTE: run where click cannot be imported at all.
    blocker = clicky.parent / "noclick"
    blocker.mkdir(exist_ok=True)
    (blocker / "click.py").write_text("raise ImportError('no click here')\n", encoding="utf-8")
    done = run(clicky, "hello", "--json", env={"PYTHONPATH": str(blocker)})
    assert done.code == 0, done
    assert done.json()["meta"]["printed"] == "Hello Ada\nin red\nplain"


@pytest.mark.parametrize(
    ("how", "code", "kind", "message"),
    [
        ("click", 1, "failed", "the thing broke"),
        ("custom", 3, "failed", "code three"),
        ("usage", 2, "usage", "needs more"),
        ("param", 2, "usage", "Invalid value for '--colour': not a colour"),
        ("abort", 1, "aborted", "Aborted!"),
        ("exit", 5, "exit", "the command exited with code 5"),
        ("ctxexit", 6, "exit", "the command exited with code 6"),
        ("ctxfail", 2, "usage", "bad context"),
    ],
)
def test_click_exceptions_are_the_envelopes_kinds(
    clicky: Path, how: str, code: int, kind: str, message: str
) -> None:
    done = in_process(clicky).run("fail", "--how", how, "--json")
    assert done.code == code, done
    error = done.json()["error"]
    assert (error["kind"], error["message"]) == (kind, message)


def test_an_exit_at_code_zero_is_a_success(clicky: Path) -> None:
    done = in_process(clicky).run("fail", "--how", "exit0", "--json")
    assert done.code == 0, done
    assert done.json()["data"] is None
    assert done.json()["meta"]["printed"] == "done early\n"


def test_confirm_and_prompt_are_burgees_questions(clicky: Path) -> None:
    tool = in_process(clicky)
    stopped = tool.run("wipe", "--json")
    assert stopped.code == 4, stopped
    envelope = stopped.json()
    assert envelope["reason"] == "answer"
    lines = [step["command"] for step in envelope["next"]]
    assert any("--answer wipe-db=yes" in line for line in lines), lines
    asked = tool.run("wipe", "--answer", "wipe-db=yes", "--json").json()
    assert asked["reason"] == "answer"
    done = tool.run("wipe", "--answer", "wipe-db=yes", "--answer", "colour=red", "--json")
    assert done.json()["data"] == "wiped db red", done
    kept = tool.run("wipe", "--answer", "wipe-db=no", "--json")
    assert kept.json()["data"] == "kept", kept


def test_the_current_context_and_the_app_dir(clicky: Path, tmp_path: Path) -> None:
    done = in_process(clicky).run("where", "--json", env={"XDG_CONFIG_HOME": str(tmp_path)})
    assert done.code == 0, done
    assert done.json()["data"] == f"{tmp_path}/clicky True"


@pytest.mark.parametrize(
    ("how", "code", "answer"),
    [
        ("obj", 0, {"ok": True, "data": "ada ada"}),
        ("exit0", 0, {"ok": True, "data": None}),
        ("exit", 7, {"kind": "exit", "message": "the command exited with code 7"}),
        ("fail", 2, {"kind": "usage", "message": "no such user"}),
        ("abort", 1, {"kind": "aborted", "message": "Aborted!"}),
    ],
)
def test_the_injected_context_does_what_clicks_does(
    clicky: Path, how: str, code: int, answer: dict[str, Any]
) -> None:
    done = in_process(clicky).run("passed", "--how", how, "--json")
    assert done.code == code, done
    envelope = done.json()
    envelope.pop("meta", None)
    assert envelope == answer if code == 0 else envelope["error"] == answer


def test_typer_bodies_run_through_the_stand_in(typery: Path) -> None:
    source = typery.read_text(encoding="utf-8")
    assert "# dependencies" not in source
    tool = in_process(typery)
    said = tool.run("hello", "--json").json()
    assert (said["data"], said["meta"]["printed"]) == (None, "Hello Ada\nloud\n")
    exited = tool.run("hello", "--code", "3", "--json")
    assert exited.code == 3 and exited.json()["error"]["kind"] == "exit", exited
    asked = tool.run("ask", "--json").json()
    assert asked["reason"] == "answer"
    assert tool.run("ask", "--answer", "name=Bo", "--json").json()["data"] == "Bo"
    bad = tool.run("bad", "--json")
    assert (bad.code, bad.json()["error"]["message"]) == (2, "Invalid value: nope")


def test_a_body_that_uses_more_needs_the_real_package(tmp_path: Path) -> None:
    handlers = tmp_path / "handlers.py"
    handlers.write_text(BEYOND, encoding="utf-8")
    out = tmp_path / "tool.py"
    made = burgee_in_process("gen", str(handlers), "-o", str(out))
    assert made.returncode == 0, made.stderr
    assert (
        f"{handlers}:18:10: note: click.progressbar is more than burgee's stand-in for click"
        in made.stderr
    ), made.stderr
    source = out.read_text(encoding="utf-8")
    assert '#     "click>=8",' in source
    tool = in_process(out)
    said = tool.run("hello", "--json").json()
    assert said["meta"]["printed"] == "Hello\n"
    # NOTE: the real package's exceptions are the envelope's kinds too.
    done = tool.run("bar", "--json")
    assert (done.code, done.json()["error"]["kind"]) == (2, "usage"), done
    assert done.json()["error"]["message"] == "after the bar"
    # NOTE: the real package's questions are burgee's too.
    asked = tool.run("ask", "--json").json()
    assert asked["reason"] == "answer", asked
    assert tool.run("ask", "--answer", "go-on=no", "--json").json()["data"] == "stopped"
    named = tool.run("ask", "--answer", "go-on=yes", "--answer", "name=Bo", "--json").json()
    assert named["data"] == "Bo", named


def test_mcp_gives_what_a_body_printed_after_the_envelope(clicky: Path) -> None:
    messages = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "hello", "arguments": {}},
        },
    ]
    stdin = "".join(json.dumps(m) + "\n" for m in messages)
    done = run(clicky, "--mcp", stdin=stdin)
    answers: list[Any] = [json.loads(line) for line in done.out.splitlines()]
    assert all("jsonrpc" in a for a in answers), done.out
    content = answers[-1]["result"]["content"]
    assert json.loads(content[0]["text"])["data"] is None
    assert content[1] == {"type": "text", "text": "Hello Ada\nin red\nplain"}


#: Bodies that need the real Typer, Click and Rich: the tool still starts without them.
HEAVY = '''\
"""Bodies that need the real packages."""
import click
import typer

from burgee import command, program

program(name="heavy", version="1.0.0", dependencies=["click>=8", "typer>=0.12", "rich>=13"])


@command(effects="read_only")
def show(name: str = "Ada") -> None:
    """Show a name."""
    from rich.console import Console

    Console().print(name)
    with click.progressbar([1]) as items:
        for _ in items:
            pass
    typer.launch("https://example.org", wait=False) if name == "web" else None
'''


def test_describing_a_tool_never_imports_the_frameworks(tmp_path: Path) -> None:
    """`--help`, `schema`, `--llms`, completion and the MCP lists of a tool whose bodies need
    click, typer and rich import none of them: only a command that runs does."""
    tool = generate(tmp_path, HEAVY)
    assert '#     "typer>=0.12",' in tool.read_text(encoding="utf-8")
    init = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
    }
    listing = [init, {"jsonrpc": "2.0", "method": "notifications/initialized"}]
    listing += [{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}]
    mcp = "".join(json.dumps(m) + "\n" for m in listing)
    runs = [
        (["--help"], None),
        (["show", "--help"], None),
        (["schema"], None),
        (["--llms"], None),
        (["completion", "bash"], None),
        (["__complete", "bash", "2", "heavy", "sh"], None),
        (["--mcp"], mcp),
        (["show", "--json"], None),
    ]
    for args, stdin in runs:
        done = subprocess.run(
            [sys.executable, "-X", "importtime", str(tool), *args],
            input=stdin,
            capture_output=True,
            text=True,
            check=False,
            env={**os.environ, "BURGEE_CACHE_DIR": str(tmp_path / "cache")},
        )
        imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()}
        heavy = {"click", "typer", "rich"} & imported
        if args == ["show", "--json"]:
            # NOTE: the check sees imports: the command that runs does import them.
            assert heavy == {"click", "typer", "rich"}, done.stderr[-2000:]
        else:
            assert done.returncode == 0, (args, done.stderr[-2000:])
            assert not heavy, (args, heavy)


def test_what_a_body_prints_is_cut_for_an_agent_as_an_answer_is(tmp_path: Path) -> None:
    tool = generate(
        tmp_path,
        '''\
        """Loud."""
        from burgee import command


        @command(effects="read_only")
        def loud() -> None:
            """Print a lot."""
            print("x" * 5_000)
        ''',
    )
    done = in_process(tool).run("loud", "--json", "--max-output", "1000")
    printed = done.json()["meta"]["printed"]
    assert len(printed) < 1000
    ref = printed.split("full output: ")[1].split(" ")[0]
    back = in_process(tool).run("output", ref, "--json", "--max-output", "0").json()
    # NOTE: what is saved is the printed text's own envelope, as for a `--json` answer.
    assert json.loads(back["data"]["text"])["data"] == "x" * 5_000 + "\n", back


INVOKING = '''\
"""A Click app whose commands run each other (sqlite-utils' `search` runs `query`)."""
import click


@click.group()
def cli():
    """Tool."""


@cli.command()
@click.argument("path")
@click.option("--sql", default="select 1")
@click.option("--nl", is_flag=True)
def query(path, sql, nl):
    """Query."""
    click.echo(f"query {path} {sql} {nl}")


@cli.command()
@click.argument("path")
@click.pass_context
def rows(ctx, path):
    """Rows."""
    ctx.invoke(query, path=path, sql="select * from t")


@cli.command()
@click.pass_context
def both(ctx):
    """Both."""
    ctx.invoke(rows, path="x.db")
'''


@pytest.mark.parametrize("line", [["rows", "a.db"], ["both"]])
def test_ctx_invoke_runs_another_command_as_click_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: list[str]
) -> None:
    """`ctx.invoke(query, path=...)`: the other command's function with the values given, its
    own defaults for the rest, and the context where it takes one (Click's output, word for
    word)."""
    app = tmp_path / "invoking.py"
    app.write_text(INVOKING, encoding="utf-8")
    module = import_tool(app, "bodies_invoking")
    module.cli.main(line, standalone_mode=False)
    clicks = capsys.readouterr().out
    made = burgee_in_process("gen", str(app), "-o", str(tmp_path / "tool.py"))
    assert made.returncode == 0, made.stderr
    done = in_process(tmp_path / "tool.py").run(*line)
    assert (done.code, done.out) == (0, clicks)
    assert clicks.startswith("query ")
