"""The command-line gaps real CLIs hit (issue 45 items 1-7, 10): `-h` taken over by a
command's option, a second long flag, several values after one flag (`nargs`), a default
command when argv is empty, flags spelled with `_`, list env vars split as Click splits them,
and the smaller ones. Each tool here is generated once and asked in-process (`invoke()`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from burgee.model.diagnostics import GenerationError
from burgee.read.program import read_program
from tests.helpers import load_tool

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
