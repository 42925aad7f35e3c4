"""A program whose only command is its root owns its short flags (issue 35, item 8): it may
take over a tool-wide spelling (`-o DIR`), declare `-V` for itself, and, reading no config
file, have a `--config` option of its own; every surface says the same."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.helpers import InProcessTool, burgee_in_process, generate, in_process

TPL = '''\
"""tpl: render a template."""
from typing import Annotated

from burgee import Argument, Option, command, program

program(name="tpl", version="1.0.0")


@command(effects="read_only", root=True)
def render(
    name: Annotated[str, Argument(help="The template")],
    out: Annotated[str, Option("-o", "--out", help="Where to write", shadows=True)] = ".",
    verbose: Annotated[bool, Option("-V", help="Say more")] = False,
    config: Annotated[str, Option("--config", help="The template's settings")] = "",
) -> str:
    """Render a template."""
    return f"{name} -> {out} verbose={verbose} config={config}"
'''


@pytest.fixture(scope="module")
def tool(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate(tmp_path_factory.mktemp("tpl"), TPL)


@pytest.fixture(scope="module")
def asked(tool: Path) -> InProcessTool:
    """The tool asked in this process, for the tests where the process does not matter."""
    return in_process(tool)


def test_the_root_command_answers_its_own_flags(tool: Path, asked: InProcessTool) -> None:
    own = asked.run("page", "-o", "/srv/out", "-V", "--config", "site.toml")
    assert (own.code, own.out) == (0, "page -> /srv/out verbose=True config=site.toml\n")
    # NOTE: the spellings it does not take over are the tool's, as they always were.
    answer = asked.run("page", "-o", "x", "--output", "json").json()
    assert answer["data"] == "page -> x verbose=False config="
    assert asked.run("--version").out == "tpl 1.0.0\n"


def test_help_schema_and_completion_describe_the_commands_options(
    tool: Path, asked: InProcessTool
) -> None:
    own, _, tool_wide = asked.run("--help").out.partition("tool-wide flags (")
    assert "-o OUT, --out OUT" in own and "-V, --verbose" in own and "--config CONFIG" in own
    spellings = set(re.findall(r"(?<![\w-])-[\w-]+", tool_wide))
    assert {"--json", "--output"} <= spellings and spellings.isdisjoint({"-o", "--config"})
    assert "--config" not in asked.run("help", "flags").out
    command = asked.run("schema").json()["commands"][0]
    options = {o["name"]: o for o in command["args"]}
    assert (options["--out"]["short"], options["--verbose"]["short"]) == ("-o", "-V")
    assert "--config" in options
    assert "--config" not in {a["name"] for a in asked.run("schema").json()["global_args"]}
    bash = asked.run("completion", "bash").out
    assert "--out" in bash and "-V" in bash


def test_a_root_command_beside_others_shadows_where_the_line_reaches_it(tmp_path: Path) -> None:
    """Issue 45 item 4 (once refused): the root takes `-o` over when the line, read with the
    tool-wide flags' meaning, names no command; a line that names one keeps `-o` the tool's."""
    source = TPL + '\n\n@command(effects="read_only")\ndef other() -> str:\n    """Other."""\n'
    source += '    return "x"\n'
    asked = in_process(generate(tmp_path, source))
    assert asked.run("page", "-o", "/srv").out == "page -> /srv verbose=False config=\n"
    assert asked.run("-o", "/srv", "page").out == "page -> /srv verbose=False config=\n"
    assert asked.run("other", "-o", "json").json()["data"] == "x"
    assert asked.run("-o", "json", "other").json()["data"] == "x"


def test_config_stays_the_tools_in_a_program_that_reads_one(tmp_path: Path) -> None:
    handlers = tmp_path / "handlers.py"
    handlers.write_text(
        TPL.replace('version="1.0.0"', 'version="1.0.0", config=True'), encoding="utf-8"
    )
    result = burgee_in_process("gen", str(handlers), "-o", str(tmp_path / "tpl.py"))
    assert result.returncode == 2
    assert "--config of 'render' clashes with the tool's reserved flag --config" in result.stderr
