"""Options shared by many commands, given before the command or after it (`repokit -q clone
src`, `repokit remote -r up add URL`): a Click group's options, a Typer callback's, argparse's
`parents=`. Declared once (an `Annotated` alias, listed in `options=` of the program or a
group), read by the golden `repokit` (tests/golden/repokit/handlers.py) in-process.

Before the command, the words are read as if they came right after its name: given both
places, an option is given twice (the later value wins, a count adds up, a list takes both).
"""

from __future__ import annotations

import importlib.util
import json
import sys
import textwrap
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from burgee.model.diagnostics import GenerationError
from burgee.read.program import read_program
from tests.helpers import GOLDEN, run
from tests.regen import golden_output


def _load() -> ModuleType:
    path = golden_output(GOLDEN / "repokit")
    spec = importlib.util.spec_from_file_location("shared_repokit", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


TOOL = _load()


def _data(*argv: str) -> Any:
    result = TOOL.invoke(["--json", *argv])
    assert result.exit_code == 0, result.stderr
    return result.envelope["data"]


def _error(*argv: str) -> dict[str, Any]:
    result = TOOL.invoke(["--json", *argv])
    assert result.exit_code == 2, result.stdout
    return result.envelope["error"]  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("argv", "quiet", "home"),
    [
        (["clone", "s"], False, "~/repos"),  # absent
        (["-q", "clone", "s"], True, "~/repos"),  # before
        (["clone", "s", "-q"], True, "~/repos"),  # after
        (["--quiet", "clone", "--no-quiet", "s"], False, "~/repos"),  # both: the later wins
        (["--repo-home", "/a", "clone", "s"], False, "/a"),
        (["-H/a", "clone", "s"], False, "/a"),
        (["--repo-home=/a", "clone", "s", "-H", "/b"], False, "/b"),  # both: the later wins
        (["-H", "/a", "-q", "clone", "s", "d"], True, "/a"),
    ],
)
def test_a_program_option_before_or_after_the_command(
    argv: list[str], quiet: bool, home: str
) -> None:
    data = _data(*argv)
    assert (data["quiet"], data["repo_home"]) == (quiet, home)
    assert data["src"] == "s"


def test_a_group_option_comes_after_the_group_s_name() -> None:
    data = _data("-q", "remote", "-r", "up", "-vv", "--dry-run", "add", "https://x", "-v")
    assert data == {
        "url": "https://x",
        "remote": "up",
        "dry_run": True,
        "verbose": 3,  # NOTE: given both places, a count adds up
        "quiet": True,
        "repo_home": "~/repos",
        "mode": "both",
    }
    # NOTE: the program's options come after the group's name too.
    assert _data("remote", "-H", "/h", "prune")["repo_home"] == "/h"
    assert _data("remote", "--no-dry-run", "prune", "--dry-run")["dry_run"] is True


def test_a_group_option_is_not_the_program_s() -> None:
    """`-r` is the remote group's: before `remote` it is no option of the tool's."""
    error = _error("-r", "up", "remote", "add", "u")
    assert error["message"] == "unknown option '-r'"


def test_tool_flags_and_their_values_mix_with_shared_options() -> None:
    result = TOOL.invoke(["-o", "json", "-q", "--timeout", "5", "clone", "s"])
    assert result.exit_code == 0, result.stderr
    assert result.envelope["data"]["quiet"] is True


def test_no_command_named() -> None:
    """A group and no command: the shared options mean nothing, as Click reads it."""
    assert _error("-q")["message"] == "missing command"
    assert _error("-q", "remote", "-v")["message"] == "missing command"
    shown = TOOL.invoke(["-q", "remote", "--help"])
    assert shown.exit_code == 0
    assert shown.stdout.startswith("usage: repokit remote")


def test_after_double_dash_a_word_is_a_value() -> None:
    assert _data("status", "--", "-q")["paths"] == ["-q"]
    assert _data("-q", "status", "--", "-q") == {
        "paths": ["-q"],
        "quiet": True,
        "repo_home": "~/repos",
    }


def test_json_input_gives_it_as_an_ordinary_key() -> None:
    data = _data("clone", "--json", json.dumps({"src": "s", "quiet": True, "repo_home": "/j"}))
    assert (data["quiet"], data["repo_home"]) == (True, "/j")


def test_an_env_var_gives_it_as_for_any_option() -> None:
    env = {"REPOKIT_REPO_HOME": "/env"}
    result = TOOL.invoke(["--json", "remote", "add", "u"], env=env)
    assert result.envelope["data"]["repo_home"] == "/env", result.stderr
    result = TOOL.invoke(["--json", "-H", "/flag", "remote", "add", "u"], env=env)
    assert result.envelope["data"]["repo_home"] == "/flag"


# ---- the two parsers agree, before the command as after it ----------------------------------

_SHARED_WORDS = ["-q", "--quiet", "--no-quiet", "-H", "--repo-home", "-H/x", "--repo-home=/y", "/z"]
_GROUP_WORDS = ["-r", "--remote", "up", "--dry-run", "--no-dry-run", "-rx", "-v", "-vv", "-vq"]


@pytest.mark.slow  # NOTE: hundreds of drawn inputs (docs/contributing.md)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    before=st.lists(st.sampled_from(_SHARED_WORDS), max_size=5),
    group=st.lists(st.sampled_from(_SHARED_WORDS + _GROUP_WORDS), max_size=5),
    after=st.lists(st.sampled_from([*_SHARED_WORDS, *_GROUP_WORDS, "u", "-x"]), max_size=4),
)
def test_before_the_command_means_right_after_its_name(
    before: list[str], group: list[str], after: list[str]
) -> None:
    """`repokit BEFORE remote GROUP add AFTER` answers as `repokit remote add BEFORE GROUP
    AFTER`, whichever parser reads it (the quick path, or argparse for what it leaves)."""
    moved = TOOL.invoke(["--json", *before, "remote", *group, "add", "url", *after])
    placed = TOOL.invoke(["--json", "remote", "add", *before, *group, "url", *after])
    if _whole(before) and _whole(group):
        assert moved.stdout.replace("remote add --help", "") == placed.stdout.replace(
            "remote add --help", ""
        ), (before, group, after)
        assert moved.exit_code == placed.exit_code


def _whole(words: list[str]) -> bool:
    """Every option's value is there before the command (else the command's name would be it)."""
    takes = {"-H", "--repo-home", "-r", "--remote"}
    index = 0
    while index < len(words):
        if words[index] in takes:
            if index + 1 >= len(words) or words[index + 1].startswith("-"):
                return False
            index += 1
        elif not words[index].startswith("-"):
            return False  # NOTE: a stray value names no group or command
        index += 1
    return True


def test_the_tool_keeps_the_alias_as_its_type() -> None:
    """The tool has no `Option`: the alias reads as the type (`Verbose = int`), for type
    checkers alone (only annotations use it), and the handlers' annotations (`verbose: Verbose
    = 0`) still name it."""
    code = golden_output(GOLDEN / "repokit").read_text(encoding="utf-8")
    assert "\nif TYPE_CHECKING:  # only annotations use these\n    Quiet = bool\n" in code
    assert "\n    Verbose = int\n    RepoHome = str\n" in code
    assert "    verbose: Verbose = 0,\n" in code
    assert "Option(" not in code.partition("\n    Quiet = bool\n")[2].partition("\ndef clone(")[0]


# ---- generation: misuse reported at its place ------------------------------------------------

_HEAD = """\
from typing import Annotated
from burgee import Argument, Option, command, group, program

Verbose = Annotated[int, Option("-v", count=True)]
"""


def _diagnostics(body: str) -> list[str]:
    source = _HEAD + textwrap.dedent(body)
    try:
        read_program(source, "h.py")
    except GenerationError as error:
        return [str(d) for d in error.diagnostics]
    return []


def test_every_command_of_the_scope_takes_the_shared_option() -> None:
    assert _diagnostics("""\
        program(name="t", options=[Verbose])

        @command(effects="read_only")
        def a(verbose: Verbose = 0) -> int:
            return verbose

        @command(effects="read_only")
        def b() -> int:
            return 0
        """) == [
        "h.py:11:1: error: 'b' is a command of program, whose options= shares Verbose: "
        "give b the parameter verbose: Verbose"
    ]


def test_the_shared_option_has_one_name() -> None:
    assert _diagnostics("""\
        tools = group("tools", options=[Verbose])

        @tools.command(effects="read_only")
        def a(verbose: Verbose = 0) -> int:
            return verbose

        @tools.command(effects="read_only")
        def b(loud: Verbose = 0) -> int:
            return loud
        """) == [
        "h.py:12:7: error: 'loud' takes Verbose, which group 'tools' shares as 'verbose': "
        "every command names it alike (its JSON key)"
    ]


def test_options_lists_option_aliases_only() -> None:
    found = _diagnostics("""\
        Name = Annotated[str, Argument()]
        program(name="t", options=[Verbose, Name, int])

        @command(effects="read_only")
        def a(name: Name, verbose: Verbose = 0) -> int:
            return verbose
        """)
    assert found == [
        "h.py:6:37: error: Name is an Argument: only options can be given before the command",
        "h.py:6:43: error: program(options=...) lists options declared once at the top of the "
        'file, such as Verbose = Annotated[int, Option("-v", count=True)]; int is not one',
    ]


def test_options_is_a_list_and_a_shared_option_keeps_its_own_spelling() -> None:
    found = _diagnostics("""\
        program(name="t", options=Verbose)
        Out = Annotated[str, Option("-o", shadows=True)]
        tools = group("tools", options=[Out])

        @tools.command(effects="read_only")
        def a(out: Out = "") -> str:
            return out
        """)
    assert found == [
        "h.py:5:27: error: program(options=...) must be a list of option aliases",
        "h.py:10:7: error: Out is shared (group 'tools'), so it cannot take a tool-wide flag's "
        "spelling (shadows=True): before the command, that flag is the tool's",
    ]


def test_an_option_is_shared_once() -> None:
    found = _diagnostics("""\
        program(name="t", options=[Verbose])
        tools = group("tools", options=[Verbose])

        @tools.command(effects="read_only")
        def a(verbose: Verbose = 0) -> int:
            return verbose
        """)
    assert found == ["h.py:6:33: error: Verbose is already shared by program"]


def test_a_problem_in_an_alias_is_reported_once_at_the_alias() -> None:
    found = _diagnostics("""\
        Bad = Annotated[int, Option("-v", metavar=3)]

        @command(effects="read_only")
        def a(bad: Bad = 0) -> int:
            return bad

        @command(effects="read_only")
        def b(bad: Bad = 0) -> int:
            return bad
        """)
    assert len(found) == 1 and found[0].startswith("h.py:5:"), found


# ---- shown once: help, schema, MCP, the skill, completion --------------------------------------


def test_the_program_s_help_lists_its_shared_options() -> None:
    shown = TOOL.invoke(["--help"]).stdout
    assert shown.startswith("usage: repokit [-h] [FLAGS] [OPTIONS] COMMAND ...\n")
    listing = shown.partition("options (given here, before the command, or after it):\n")[2]
    assert " ".join(listing.partition("\n\n")[0].split()) == (
        "-q, --quiet Say nothing but the answer. (default: off) (env: REPOKIT_QUIET) "
        "-H REPO_HOME, --repo-home REPO_HOME Where repositories live. (default: ~/repos) "
        "(env: REPOKIT_REPO_HOME)"
    )


def test_a_group_s_help_lists_its_own_and_the_program_s() -> None:
    shown = TOOL.invoke(["remote", "--help"]).stdout
    listing = shown.partition("options (given here, before the command, or after it):\n")[2]
    labels = [line.split("  ")[1] for line in listing.partition("\n\n")[0].split("\n")]
    assert [label for label in labels if label] == [
        "-r REMOTE, --remote REMOTE",
        "--dry-run",
        "-v, --verbose",
        "-q, --quiet",
        "-H REPO_HOME, --repo-home REPO_HOME",
    ]


def test_a_command_s_help_says_where_else_it_may_be_given() -> None:
    shown = " ".join(TOOL.invoke(["remote", "add", "--help"]).stdout.split())
    assert "(shared: also before the command, after 'repokit remote')" in shown
    assert "(shared: also before the command, after 'repokit')" in shown
    assert "--mode {fetch,push,both} (default: both)\n" not in shown  # NOTE: not shared
    assert shown.count("(shared:") == 5


def test_the_schema_marks_each_shared_option() -> None:
    document = json.loads(TOOL.invoke(["schema"]).stdout)
    commands = {c["name"]: c for c in document["commands"]}
    shared = {arg["name"]: arg.get("burgee_shared") for arg in commands["remote add"]["args"]}
    assert shared == {
        "url": None,
        "--remote": "repokit remote",
        "--dry-run": "repokit remote",
        "--verbose": "repokit remote",
        "--quiet": "repokit",
        "--repo-home": "repokit",
        "--mode": None,
    }
    # NOTE: clispec's example starts with the command: `repokit -q clone src dst` is read so.
    assert commands["clone"]["example"] == {"args": ["clone", "-q", "src", "dst"]}
    assert commands["clone"]["usage_examples"][0] == "repokit -q clone src dst"
    # NOTE: not a global arg: `schema` and `output` take no shared option.
    assert "--quiet" not in {arg["name"] for arg in document["global_args"]}


def test_each_mcp_tool_simply_has_the_property() -> None:
    lines = [
        {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "remote_add", "arguments": {"url": "u", "verbose": 2, "quiet": True}}},
    ]  # fmt: skip
    # NOTE: a process of its own: the server writes to the process's stdout.
    tool = golden_output(GOLDEN / "repokit")
    result = run(tool, "--mcp", stdin="".join(json.dumps(m) + "\n" for m in lines))
    answers = {a["id"]: a for a in map(json.loads, result.out.splitlines())}
    tools = {t["name"]: t for t in answers[1]["result"]["tools"]}
    assert set(tools["remote_add"]["inputSchema"]["properties"]) == {
        "url", "remote", "dry_run", "verbose", "quiet", "repo_home", "mode",
    }  # fmt: skip
    assert {"quiet", "repo_home"} <= set(tools["clone"]["inputSchema"]["properties"])
    called = answers[2]["result"]["structuredContent"]
    assert (called["verbose"], called["quiet"]) == (2, True)
    # NOTE: `--llms` lists the same tools: JSON input has no "before the command" either.
    listed = {t["name"]: t for t in json.loads(TOOL.invoke(["--llms"]).stdout)["tools"]}
    assert listed["remote add"]["inputSchema"] == tools["remote_add"]["inputSchema"]


def test_the_skill_lists_them_once() -> None:
    skill = (GOLDEN / "repokit" / "skill" / "repokit" / "SKILL.md").read_text(encoding="utf-8")
    assert (
        "Options many commands share, given before the command or after it:\n\n"
        "- `python repokit.py [--quiet] [--repo-home REPO_HOME] COMMAND ...` (every command)\n"
        "- `python repokit.py remote [--remote REMOTE] [--dry-run] [--verbose] COMMAND ...` "
        "(every `remote` command)\n"
    ) in skill
    assert skill.count("--repo-home") == 1


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("repokit --re", ["--repo-home"]),
        ("repokit -H /x ", ["remote", "clone", "status", "output", "completion"]),
        ("repokit -q remote --dr", ["--dry-run"]),
        ("repokit remote --q", ["--quiet"]),
        ("repokit -H /x remote -r up ", ["add", "prune"]),
        ("repokit --dr", []),  # NOTE: the remote group's, not the program's
        # NOTE: a `complete=` value, before the command and after it.
        ("repokit remote -r ", ["origin", "upstream"]),
        ("repokit -q remote add u -r up", ["upstream"]),
    ],
)
def test_completion_offers_them_before_the_command(
    tmp_path: Path, line: str, expected: list[str]
) -> None:
    from tests.test_completions import _bash_with  # noqa: PLC0415

    script = GOLDEN / "repokit" / "completions" / "repokit"
    tool = golden_output(GOLDEN / "repokit")
    runner = tmp_path / "repokit"
    runner.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{tool}" "$@"\n', encoding="utf-8")
    runner.chmod(0o755)
    assert _bash_with(script, "repokit", line, tmp_path) == expected
