"""The command-line gaps real CLIs hit (issue 45 items 1-7, 10): `-h` taken over by a
command's option, a second long flag, several values after one flag (`nargs`), a default
command when argv is empty, flags spelled with `_`, list env vars split as Click splits them,
and the smaller ones. Each tool here is generated once and asked in-process (`invoke()`).
The default command is also compared with pre-commit's own parser, line by line."""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path
from typing import Any

import pre_commit.clientlib as pre_commit_clientlib
import pre_commit.constants as pre_commit_constants
import pre_commit.main as pre_commit_main
import pytest

from burgee.model.diagnostics import GenerationError
from burgee.read.program import read_program
from tests.helpers import load_tool
from tests.test_ported import Answer, _parse_only, _Parsed, _plain, _quiet

SERVE = '''\
"""A server tool whose serve command takes -h for its host, as Click allows."""
from typing import Annotated, Any

from burgee import Option, command, program

program(name="srv", version="1.0.0")


@command(effects="read_only")
def serve(
    host: Annotated[str, Option("-h", "--host", help="Address to bind")] = "127.0.0.1",
    port: Annotated[int, Option("-p")] = 8000,
) -> dict[str, Any]:
    """Serve."""
    return {"host": host, "port": port}


@command(effects="read_only")
def status(verbose: bool = False) -> bool:
    """Show the status."""
    return verbose
'''


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return load_tool(tmp_path_factory.mktemp("srv"), SERVE, "argv_srv")


def _data(tool: Any, *argv: str) -> Any:
    done = tool.invoke([*argv, "--json"])
    assert done.exit_code == 0, done.stderr
    return done.envelope["data"]


def test_h_taken_over_by_a_commands_option(srv: Any) -> None:
    assert _data(srv, "serve", "-h", "0.0.0.0") == {"host": "0.0.0.0", "port": 8000}
    assert _data(srv, "serve", "-h0.0.0.0", "-p", "1") == {"host": "0.0.0.0", "port": 1}
    # NOTE: argparse's reading too (the quick path gives a value starting with - to argparse).
    assert _data(srv, "serve", "-p", "-1", "-h", "::") == {"host": "::", "port": -1}
    missing = srv.invoke(["serve", "-h"])
    assert missing.exit_code == 2 and "-h" in missing.stderr and "usage" not in missing.stdout


def test_help_stays_help_where_h_is_taken(srv: Any) -> None:
    shown = srv.invoke(["serve", "--help"])
    assert shown.exit_code == 0
    assert "-h HOST, --host HOST" in shown.stdout
    assert "-h, --help" not in shown.stdout and "--help" in shown.stdout
    # NOTE: every other command keeps -h as help.
    other = srv.invoke(["status", "-h"])
    assert other.exit_code == 0 and "-h, --help" in other.stdout
    assert srv.invoke(["-h"]).exit_code == 0


def _refused(tmp_path: Path, options: str) -> list[str]:
    source = SERVE.replace('Option("-h", "--host", help="Address to bind")', options)
    path = tmp_path / "handlers.py"
    path.write_text(source)
    with pytest.raises(GenerationError) as raised:
        read_program(source, str(path))
    return [d.message for d in raised.value.diagnostics]


def test_a_short_flag_that_clashes_says_change_the_short_flag(tmp_path: Path) -> None:
    (message,) = _refused(tmp_path, 'Option("-o", "--host")')
    assert "-o of 'serve' clashes with the tool's reserved flag -o" in message
    assert "give it another short flag (or none)" in message
    assert "rename the parameter" not in message


REFS = '''\
"""A diff tool whose options have a second long flag, as Click's often do."""
from typing import Annotated, Any

from burgee import Option, command, program

program(name="refs", version="1.0.0")


@command(effects="read_only")
def diff(
    from_ref: Annotated[str, Option("-f", "--from-ref", "--source", help="Where from")] = "HEAD",
    if_not_exists: Annotated[bool, Option("--if-not-exists", "--ignore")] = False,
) -> dict[str, Any]:
    """Compare."""
    return {"from_ref": from_ref, "if_not_exists": if_not_exists}
'''


@pytest.fixture(scope="module")
def refs(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return load_tool(tmp_path_factory.mktemp("refs"), REFS, "argv_refs")


def test_every_long_flag_spells_the_one_option(refs: Any) -> None:
    for words in (["--from-ref", "x"], ["--source", "x"], ["--source=x"], ["-f", "x"]):
        assert _data(refs, "diff", *words)["from_ref"] == "x", words
    assert _data(refs, "diff", "--ignore")["if_not_exists"] is True
    assert _data(refs, "diff", "--ignore", "--no-if-not-exists")["if_not_exists"] is False
    done = refs.invoke(["diff", "--json", '{"from_ref": "y", "if_not_exists": true}'])
    assert done.envelope["data"] == {"from_ref": "y", "if_not_exists": True}


def test_help_and_schema_show_every_long_flag(refs: Any) -> None:
    shown = refs.invoke(["diff", "--help"]).stdout
    assert "--from-ref FROM_REF, --source FROM_REF" in shown
    assert "--if-not-exists, --ignore" in shown
    schema = refs.invoke(["schema"]).stdout
    assert '"burgee_aliases": ["--source"]' in schema


LINT = '''\
"""A linter whose options take several values after one flag, as argparse's nargs does."""
from typing import Annotated, Any

from burgee import Argument, Option, command, program

program(name="lint", version="1.0.0")


@command(effects="read_only")
def run_(
    target: Annotated[str, Argument()],
    files: Annotated[list[str], Option("-f", nargs="+", help="Files to check")] = [],
    skip: Annotated[list[str], Option(nargs="*")] = [],
    point: Annotated[list[int], Option(nargs=2)] = [],
) -> dict[str, Any]:
    """Check files."""
    return {"target": target, "files": files, "skip": skip, "point": point}
'''


@pytest.fixture(scope="module")
def lint(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return load_tool(tmp_path_factory.mktemp("lint"), LINT, "argv_lint")


def test_an_option_takes_several_words(lint: Any) -> None:
    got = _data(lint, "run", "t", "--files", "a.py", "b.py")
    assert got == {"target": "t", "files": ["a.py", "b.py"], "skip": [], "point": []}
    got = _data(lint, "run", "-f", "a.py", "b.py", "--skip", "--point", "1", "2", "t")
    assert got == {"target": "t", "files": ["a.py", "b.py"], "skip": [], "point": [1, 2]}
    # NOTE: repeated, the lists join.
    got = _data(
        lint, "run", "t", "-f", "a", "-f", "b", "c", "--point", "1", "2", "--point", "3", "4"
    )
    assert got["files"] == ["a", "b", "c"] and got["point"] == [1, 2, 3, 4]
    assert lint.invoke(["run", "t", "--files"]).exit_code == 2
    assert lint.invoke(["run", "t", "--point", "1"]).exit_code == 2
    # NOTE: the option takes the word the positional would have had: argparse's reading.
    assert lint.invoke(["run", "--files", "a.py", "t"]).exit_code == 2


def test_json_and_help_of_a_several_word_option(lint: Any) -> None:
    done = lint.invoke(["run", "--json", '{"target": "t", "files": ["a", "b"]}'])
    assert done.envelope["data"]["files"] == ["a", "b"]
    shown = lint.invoke(["run", "--help"]).stdout
    assert "-f FILES [FILES ...], --files FILES [FILES ...]" in shown
    assert "--point POINT POINT" in shown


@pytest.mark.parametrize("points", [[1], [1, 2, 3]])
def test_json_input_gives_whole_groups_of_an_n_word_option(lint: Any, points: list[int]) -> None:
    """`--point` takes 2 words each time: JSON input (and MCP) cannot give what no command
    line can, so a list of 1 or 3 is the usage error `--point 1` is, not a 1-point call."""
    given = json.dumps({"target": "t", "point": points})
    done = lint.invoke(["run", "--json", given])
    assert done.exit_code == 2
    assert done.envelope["error"]["message"] == (
        f"point: {len(points)} value(s), not whole groups of 2 (each --point takes 2)"
    )
    whole = lint.invoke(["run", "--json", json.dumps({"target": "t", "point": [1, 2, 3, 4]})])
    assert whole.envelope["data"]["point"] == [1, 2, 3, 4]


HOOKS = '''\
"""A hooks tool that runs its hooks when given no command, as pre-commit does."""
from typing import Annotated

from burgee import Option, command, program

program(name="hooks", version="1.0.0", default="run")


@command(effects="read_only")
def run_(all_files: Annotated[bool, Option(off=False)] = False) -> str:
    """Run the hooks."""
    return f"ran all={all_files}"


@command(effects="non_idempotent")
def install() -> str:
    """Install the hooks."""
    return "installed"
'''


@pytest.fixture(scope="module")
def hooks(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return load_tool(tmp_path_factory.mktemp("hooks"), HOOKS, "argv_hooks")


def test_the_default_command_runs_when_argv_is_empty(hooks: Any) -> None:
    assert hooks.invoke([]).stdout.strip() == "ran all=False"
    assert _data(hooks) == "ran all=False"
    assert _data(hooks, "run", "--all-files") == "ran all=True"
    assert _data(hooks, "install") == "installed"
    shown = hooks.invoke(["--help"])
    assert shown.exit_code == 0 and "(the default command)" in shown.stdout


def test_a_typo_is_no_default_command(hooks: Any) -> None:
    typo = hooks.invoke(["isntall", "--json"])
    assert typo.exit_code == 2 and "unknown command 'isntall'" in typo.stderr
    assert "did you mean 'install'?" in typo.stderr
    # NOTE: the default command's options need its name: argv is not empty.
    assert hooks.invoke(["--all-files"]).exit_code == 2


def test_a_default_names_a_command(tmp_path: Path) -> None:
    (message,) = _refused_program(tmp_path, HOOKS.replace('default="run"', 'default="rnu"'))
    assert "default='rnu'" in message and "names no command" in message


def _refused_program(tmp_path: Path, source: str) -> list[str]:
    path = tmp_path / "handlers.py"
    path.write_text(source)
    with pytest.raises(GenerationError) as raised:
        read_program(source, str(path))
    return [d.message for d in raised.value.diagnostics]


def test_a_flag_spelled_with_underscores_is_taken_as_written(tmp_path: Path) -> None:
    source = SERVE.replace('Option("-p")', 'Option("-p", "--port_number", "--listen_port")')
    tool = load_tool(tmp_path, source, "argv_underscores")
    assert _data(tool, "serve", "--port_number", "9")["port"] == 9
    assert _data(tool, "serve", "--listen_port=7")["port"] == 7
    assert "-p PORT_NUMBER, --port_number PORT_NUMBER" in tool.invoke(["serve", "--help"]).stdout
    # NOTE: as written only: Click and argparse do not read `--port-number` for it either.
    assert tool.invoke(["serve", "--port-number", "9"]).exit_code == 2


STATS = '''\
"""A stats tool whose list options and same-named options read env vars as Click's do."""
import os
from pathlib import Path
from typing import Annotated, Any

from burgee import Option, command, program

program(name="gitstats", version="1.0.0", env_prefix="GITSTATS")


@command(effects="read_only")
def log(
    author: list[str] = [],
    paths: list[Path] = [],
    limit: Annotated[int, Option(max=1000)] = 50,
    size: tuple[int, int] = (1, 1),
) -> dict[str, Any]:
    """Show the log."""
    return {"author": author, "paths": [str(p) for p in paths], "limit": limit, "size": size}


@command(effects="read_only")
def authors_top(limit: Annotated[int, Option(max=100)] = 10, size: tuple[int, int] = (1, 1)) -> int:
    """Show the top authors."""
    return limit
'''


@pytest.fixture(scope="module")
def stats(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return load_tool(tmp_path_factory.mktemp("stats"), STATS, "argv_stats")


def test_a_list_env_var_splits_as_clicks_does(stats: Any) -> None:
    env = {
        "GITSTATS_AUTHOR": " ada  bob\tcy ",
        "GITSTATS_PATHS": os.pathsep.join(["a b", "c"]),
        "GITSTATS_SIZE": "2 3",
    }
    done = stats.invoke(["log", "--json"], env=env)
    assert done.exit_code == 0, done.stderr
    data = done.envelope["data"]
    assert data["author"] == ["ada", "bob", "cy"]
    assert data["paths"] == ["a b", "c"]
    assert data["size"] == [2, 3]


def test_same_named_options_that_differ_read_env_vars_per_command(stats: Any) -> None:
    env = {"GITSTATS_LOG_LIMIT": "500", "GITSTATS_AUTHORS_TOP_LIMIT": "7"}
    assert stats.invoke(["log", "--json"], env=env).envelope["data"]["limit"] == 500
    assert stats.invoke(["authors-top", "--json"], env=env).envelope["data"] == 7
    # NOTE: the shared name is no longer read for either: it meant one of them.
    assert (
        stats.invoke(["log", "--json"], env={"GITSTATS_LIMIT": "500"}).envelope["data"]["limit"]
        == 50
    )
    # NOTE: `author` differs from nothing: its name stays PREFIX_OPT.
    assert "GITSTATS_AUTHOR" in stats.invoke(["log", "--help"]).stdout


DOCS = '''\
"""A docs tool whose root command takes -o/--open, beside other commands."""
from typing import Annotated

from burgee import Argument, Option, command, program

program(name="docs", version="1.0.0")


@command(effects="read_only", root=True)
def show(
    topic: Annotated[str, Argument()] = "index",
    open_: Annotated[bool, Option("-o", "--open", off=False, shadows=True)] = False,
) -> str:
    """Show a topic."""
    return f"{topic} open={open_}"


@command(effects="read_only")
def build(strict: bool = False) -> str:
    """Build the docs."""
    return f"built strict={strict}"
'''


@pytest.fixture(scope="module")
def docs(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return load_tool(tmp_path_factory.mktemp("docs"), DOCS, "argv_docs")


def test_a_root_command_beside_others_takes_over_a_tool_wide_flag(docs: Any) -> None:
    assert docs.invoke(["-o"]).stdout.strip() == "index open=True"
    assert docs.invoke(["intro", "--open"]).stdout.strip() == "intro open=True"
    assert docs.invoke(["--open", "intro"]).stdout.strip() == "intro open=True"
    assert docs.invoke(["show", "-o", "intro"]).stdout.strip() == "intro open=True"
    # NOTE: a line that names another command keeps the tool-wide meaning.
    built = docs.invoke(["build", "-o", "json"])
    assert built.exit_code == 0 and '"data": "built strict=False"' in built.stdout
    assert docs.invoke(["-o", "json", "build"]).exit_code == 0


def test_usage_shows_a_flag_only_option_by_its_short_flag(srv: Any, tmp_path: Path) -> None:
    source = SERVE.replace(
        "verbose: bool = False", 'verbose: Annotated[bool, Option("-v", off=False)] = False'
    )
    tool = load_tool(tmp_path, source, "argv_usage")
    usage = tool.invoke(["status", "--help"]).stdout.splitlines()[0]
    assert usage == "usage: srv status [-h] [-v]", usage
    # NOTE: a flag with an off form still shows both (a choice between them).
    assert "[--verbose | --no-verbose]" in srv.invoke(["status", "--help"]).stdout


COPY = '''\
"""A copy tool whose sources come before the target, as cp's."""
from typing import Annotated, Any

from burgee import Argument, command, program

program(name="cp3", version="1.0.0")


@command(effects="non_idempotent")
def copy(
    sources: Annotated[list[str], Argument(metavar="SRC")],
    target: Annotated[str, Argument(metavar="DST")],
) -> dict[str, Any]:
    """Copy files."""
    return {"sources": sources, "target": target}


@command(effects="read_only")
def other() -> str:
    """Something else."""
    return "x"
'''


def test_a_variadic_argument_before_another(tmp_path: Path) -> None:
    tool = load_tool(tmp_path, COPY, "argv_copy")
    assert _data(tool, "copy", "a", "b", "c", "d") == {"sources": ["a", "b", "c"], "target": "d"}
    after = tool.invoke(["copy", "a", "--json", "--", "-d"]).envelope["data"]
    assert after == {"sources": ["a"], "target": "-d"}
    assert tool.invoke(["copy", "d"]).exit_code == 2
    done = tool.invoke(["copy", "--json", '{"sources": ["a"], "target": "t"}'])
    assert done.envelope["data"] == {"sources": ["a"], "target": "t"}
    assert "usage: cp3 copy [-h] SRC [SRC ...] DST" in tool.invoke(["copy", "--help"]).stdout


PAIRS = '''\
"""A settings tool whose options take a key and a value, as Click's nargs=2 and argparse's
metavar=("KEY", "VALUE") show them."""
from typing import Annotated, Any

from burgee import Option, command, program

program(name="pairs", version="1.0.0")


@command(effects="idempotent")
def put(
    entry: Annotated[list[str], Option(nargs=2, metavar="KEY VALUE", help="One setting")],
    size: Annotated[tuple[int, int], Option(metavar="W H", help="The size")] = (1, 1),
    extra: Annotated[list[tuple[str, str]], Option("-x", metavar="NAME TEXT")] = [],
    words: Annotated[list[str], Option(nargs="+", metavar="WORD")] = [],
) -> dict[str, Any]:
    """Put a setting."""
    return {"entry": entry, "size": size, "extra": extra, "words": words}


@command(effects="read_only")
def other() -> str:
    """Something else."""
    return "x"
'''


def test_a_metavar_of_several_words_names_each_value(tmp_path: Path) -> None:
    """Issue 45 item 10: `Option(nargs=2, metavar="KEY VALUE")` (a tuple's too) is shown as
    Click and argparse show it, `--entry KEY VALUE`, in help, usage, the skill and schema."""
    tool = load_tool(tmp_path, PAIRS, "argv_pairs")
    got = _data(tool, "put", "--entry", "a", "1", "--size", "2", "3", "-x", "n", "t")
    assert got == {"entry": ["a", "1"], "size": [2, 3], "extra": [["n", "t"]], "words": []}
    shown = tool.invoke(["put", "--help"]).stdout
    usage = " ".join(shown.partition("\n\n")[0].split())
    assert "--entry KEY VALUE" in usage and "[--size W H]" in usage, usage
    assert "--entry KEY VALUE" in shown and "--size W H" in shown
    assert "-x NAME TEXT, --extra NAME TEXT" in shown
    assert "--words WORD [WORD ...]" in shown
    skill = tool.invoke(["--skill"]).stdout
    assert " put --entry KEY VALUE" in skill
    schema = _schema(tool)
    options = {a["name"]: a for a in schema["commands"][0]["args"]}
    assert options["--entry"]["burgee_metavar"] == "KEY VALUE"
    assert options["--size"]["burgee_metavar"] == "W H"


def _schema(tool: Any) -> Any:
    done = tool.invoke(["schema"])
    assert done.exit_code == 0, done.stderr
    return json.loads(done.stdout)


PASS = '''\
"""A runner whose options take several words before the app whose words it passes on."""
from typing import Annotated, Any

from burgee import Argument, Option, command, program

program(name="px", version="1.0.0")


@command(effects="read_only")
def run_(
    app: Annotated[str, Argument()],
    args: Annotated[list[str], Argument(passthrough=True)] = [],
    files: Annotated[list[str], Option("-f", nargs="+")] = [],
    skip: Annotated[list[str], Option(nargs="*")] = [],
    point: Annotated[list[str], Option(nargs=2)] = [],
) -> dict[str, Any]:
    """Run APP with its own words."""
    return {"app": app, "args": args, "files": files, "skip": skip, "point": point}


@command(effects="read_only")
def other() -> str:
    """Something else."""
    return "x"
'''


def test_an_option_of_several_words_before_a_pass_through(tmp_path: Path) -> None:
    """`_pass_start`: an `nargs="+"`/`"*"` option takes every word up to the next flag, as
    argparse's reading does, so the app's words (and the tool's flags, `--help`) begin where
    argparse begins them (it counted the option's first word only)."""
    tool = load_tool(tmp_path, PASS, "argv_pass")
    recorder = tool._recorded(tool._command(tool.PROGRAM, "run"))
    for words, start in (
        (["-f", "a", "b", "app", "x"], 5),
        (["--skip", "app", "x"], 3),
        (["--skip", "--point", "1", "2", "app", "x"], 5),
        (["-f", "a", "b", "--point", "1", "2", "app", "x", "y"], 7),
        (["app", "-f", "a", "b"], 1),
    ):
        assert tool._pass_start(recorder, words) == start, words
    line = ["--json", "run", "-f", "a", "b", "--point", "1", "2", "app", "--json", "x"]
    got = tool.invoke(line).envelope["data"]
    assert got == {
        "app": "app",
        "args": ["--json", "x"],
        "files": ["a", "b"],
        "skip": [],
        "point": ["1", "2"],
    }
    # NOTE: argparse's -f takes `app` too, so `--help` is the command's, not the app's.
    shown = tool.invoke(["run", "-f", "a", "b", "app", "--help"])
    assert shown.exit_code == 0 and shown.stdout.startswith("usage: px run"), shown.stderr


PKG = '''\
"""A package tool whose version has the short flag -V, as pip's and uv's."""
from typing import Annotated

from burgee import Argument, command, program

program(name="pkg", version="2.1.0", version_short="-V")


@command(effects="read_only")
def show(name: Annotated[str, Argument()]) -> str:
    """Show a package."""
    return name


@command(effects="read_only")
def other() -> str:
    """Something else."""
    return "x"
'''


def test_a_program_level_short_version_flag_beside_commands(tmp_path: Path) -> None:
    """Issue 45 item 10: `program(version_short="-V")`: `pkg -V` is `pkg --version` in a
    program of several commands; help, schema and completion show it; a command's option
    may not take it."""
    tool = load_tool(tmp_path, PKG, "argv_pkg")
    assert tool.invoke(["-V"]).stdout == "pkg 2.1.0\n"
    assert tool.invoke(["-V", "--json"]).envelope["data"]["version"] == "2.1.0"
    assert tool.invoke(["show", "x"]).stdout == "x\n"
    refused = tool.invoke(["show", "x", "-V"])
    assert refused.exit_code == 2 and "--version is a flag of the tool" in refused.stderr
    assert "-V/--version" in tool.invoke(["--help"]).stdout
    schema = _schema(tool)
    version = next(a for a in schema["global_args"] if a["name"] == "--version")
    assert version["short"] == "-V"
    assert "'-V'" in tool.invoke(["completion", "bash"]).stdout
    source = PKG.replace(
        "def other() -> str:", 'def other(v: Annotated[bool, Option("-V")] = False) -> str:'
    )
    source = source.replace("import Argument,", "import Argument, Option,")
    path = tmp_path / "clash.py"
    path.write_text(source)
    with pytest.raises(GenerationError) as raised:
        read_program(source, str(path))
    (message,) = [d.message for d in raised.value.diagnostics]
    assert "-V of 'other' clashes with the tool's reserved flag -V" in message


# --- the default command beside pre-commit's own parser ----------------------------------------

#: pre-commit's `run` and `install`, ported: the options pre-commit's own `main.py` gives them
#: (its `run` takes more, for git hooks; `--color` is left out: pre-commit's type turns it into
#: whether stderr is a terminal). Each handler returns its command's name and what it was given.
PRE_COMMIT = f'''\
"""pre-commit's run (its default command) and install."""
from typing import Annotated, Any, Literal

from burgee import Argument, Option, command, program

program(
    name="pre-commit", version="{pre_commit_constants.VERSION}", version_short="-V", default="run"
)


@command(effects="read_only")
def run_(
    hook: Annotated[str | None, Argument(help="A single hook-id to run")] = None,
    verbose: Annotated[bool, Option("-v", off=False)] = False,
    all_files: Annotated[bool, Option("-a", off=False)] = False,
    files: Annotated[list[str], Option(nargs="*")] = [],
    show_diff_on_failure: Annotated[bool, Option(off=False)] = False,
    fail_fast: Annotated[bool, Option(off=False)] = False,
    from_ref: Annotated[str | None, Option("-s", "--from-ref", "--source")] = None,
    to_ref: Annotated[str | None, Option("-o", "--to-ref", "--origin", shadows=True)] = None,
    config: Annotated[str, Option("-c")] = ".pre-commit-config.yaml",
) -> dict[str, Any]:
    """Run hooks."""
    return {{"command": "run", **locals()}}


@command(effects="non_idempotent")
def install(
    config: Annotated[str, Option("-c")] = ".pre-commit-config.yaml",
    overwrite: Annotated[bool, Option("-f", off=False)] = False,
    install_hooks: Annotated[bool, Option(off=False)] = False,
    hook_types: Annotated[
        list[Literal{list(pre_commit_clientlib.HOOK_TYPES)!r}], Option("-t", "--hook-type")
    ] = [],
    allow_missing_config: Annotated[bool, Option(off=False)] = False,
) -> dict[str, Any]:
    """Install the pre-commit script."""
    return {{"command": "install", **locals()}}
'''

#: Command lines as pre-commit's docs and `--help` write them: no words (its `argv or ['run']`),
#: a typo of a command, `run`'s options without `run`, help and the version.
PRE_COMMIT_LINES = (
    "",
    "run",
    "run -a",
    "run --all-files -v --show-diff-on-failure --fail-fast",
    "run flake8 --files a.py b.py",
    "run --files",
    "run --from-ref main --to-ref HEAD",
    "run --source main --origin HEAD",
    "run -s main -o HEAD -c other.yaml",
    "install",
    "install -t pre-push -t commit-msg -f --install-hooks --allow-missing-config",
    "install -t nope",
    "isntall",
    "rnu",
    "--all-files",
    "-a",
    "flake8",
    "run a b",
    "--help",
    "-h",
    "run --help",
    "--version",
    "-V",
)


def _pre_commit(argv: list[str]) -> Answer:
    """pre-commit's own reading of a line: its `main` builds its parser and defaults an empty
    argv to `run`; its `parse_args` answers (`_parse_only`) before anything runs."""
    with _quiet(), _parse_only():
        try:
            pre_commit_main.main(argv)
        except _Parsed as parsed:
            values = vars(parsed.namespace)
        except SystemExit as stop:
            return Answer("info" if stop.code in (0, None) else "refused")
    # NOTE: argparse's `append` starts at None; a list option's default is [].
    values["hook_types"] = values.get("hook_types") or []
    return Answer("ok", values)


@pytest.fixture(scope="module")
def pre_commit_port(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return load_tool(tmp_path_factory.mktemp("pre_commit"), PRE_COMMIT, "argv_pre_commit")


@pytest.mark.parametrize("line", PRE_COMMIT_LINES)
def test_a_default_command_means_what_pre_commits_does(pre_commit_port: Any, line: str) -> None:
    """An empty line runs `run`; anything else is read as written: a typo is an unknown
    command, `run`'s options need `run`. The port's values are compared with pre-commit's for
    the options it declares."""
    argv = shlex.split(line)
    want = _pre_commit(argv)
    got = pre_commit_port.invoke([*argv, "--json"], env={"PRE_COMMIT_COLOR": "auto"})
    if want.kind == "ok":
        assert got.exit_code == 0, got.stderr
        data = got.envelope["data"]
        assert data == {key: _plain(want.values[key]) for key in data}
    elif want.kind == "refused":
        assert got.exit_code == 2, got.stdout
    else:
        assert got.exit_code == 0, got.stderr
