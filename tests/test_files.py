"""Files a handler takes open (`TextIO`, `BinaryIO`): Click's `click.File`, Typer's `FileText`
family, and burgee's own annotation. The tool reads the path as text (checked, explained,
recorded as what was typed), opens it in the parameter's mode just before the handler runs and
closes it after; `-` is the standard stream. A Click program's lines give the same contents
through Click's own parser and through the tool."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
import pytest

from tests.helpers import burgee_in_process, generate, import_tool

OWN = '''\
"""Files."""
import sys
from typing import Annotated, BinaryIO, TextIO

from burgee import Argument, Option, command

SEEN: list[object] = []


@command(effects="non_idempotent")
def upper(
    source: Annotated[TextIO, Argument()] = sys.stdin,
    into: Annotated[TextIO, Option("-w", mode="w")] = sys.stdout,
) -> None:
    """Write a file in capitals.

    Args:
        source: The file to read.
        into: Where to write.
    """
    SEEN.extend((source, into))
    into.write(source.read().upper())


@command(effects="read_only")
def size(blobs: Annotated[list[BinaryIO], Argument()]) -> int:
    """Count bytes.

    Args:
        blobs: The files.
    """
    SEEN.extend(blobs)
    return sum(len(blob.read()) for blob in blobs)


@command(effects="read_only")
async def later(source: TextIO) -> str:
    """Read it later.

    Args:
        source: The file.
    """
    SEEN.append(source)
    return source.read()
'''


@pytest.fixture
def own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.txt").write_text("hello\n", encoding="utf-8")
    return import_tool(generate(tmp_path, OWN), "files_own")


def test_a_file_is_read_open_and_closed_after(own: Any) -> None:
    done = own.invoke(["upper", "a.txt"])
    assert (done.exit_code, done.stdout) == (0, "HELLO\n")
    source = own.SEEN[0]
    assert source.name == "a.txt" and source.closed
    assert own.SEEN[1] is not None and not own.SEEN[1].closed  # NOTE: stdout stays open


def test_a_file_is_written(own: Any, tmp_path: Path) -> None:
    done = own.invoke(["upper", "a.txt", "-w", "out.txt"])
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (tmp_path / "out.txt").read_text(encoding="utf-8") == "HELLO\n"
    assert own.SEEN[1].closed


def test_dash_is_standard_input(own: Any) -> None:
    done = own.invoke(["upper", "-"], input="abc\n")
    assert (done.exit_code, done.stdout) == (0, "ABC\n")
    done = own.invoke(["upper"], input="def\n")  # NOTE: the default, sys.stdin: `-`
    assert (done.exit_code, done.stdout) == (0, "DEF\n")


def test_json_output_carries_what_was_written_to_standard_output(own: Any) -> None:
    done = own.invoke(["upper", "a.txt", "--json"])
    answer = json.loads(done.stdout)
    assert answer["ok"] is True and answer["data"] is None
    assert answer["meta"]["printed"] == "HELLO\n"


def test_json_input_names_the_path(own: Any, tmp_path: Path) -> None:
    done = own.invoke(["upper", "--json", '{"source": "a.txt", "into": "b.txt"}'])
    assert done.exit_code == 0, done.stdout
    assert (tmp_path / "b.txt").read_text(encoding="utf-8") == "HELLO\n"


def test_a_list_of_binary_files(own: Any, tmp_path: Path) -> None:
    (tmp_path / "b.bin").write_bytes(b"\x00\x01\x02")
    done = own.invoke(["size", "a.txt", "b.bin", "--json"])
    assert json.loads(done.stdout)["data"] == 9
    assert len(own.SEEN) == 2 and all(blob.closed for blob in own.SEEN)
    assert all("b" in blob.mode for blob in own.SEEN)


def test_an_async_handler_s_file_closes_after_it(own: Any) -> None:
    done = own.invoke(["later", "--source", "a.txt", "--json"])
    assert json.loads(done.stdout)["data"] == "hello\n"
    assert own.SEEN[0].closed


def test_a_file_that_cannot_be_opened_is_a_usage_error(own: Any, tmp_path: Path) -> None:
    done = own.invoke(["size", "a.txt", "missing.bin", "--json"])
    assert done.exit_code == 2
    error = json.loads(done.stdout)["error"]
    assert error["kind"] == "usage"
    assert error["message"] == "blobs: 'missing.bin': No such file or directory"
    assert all(blob.closed for blob in own.SEEN)  # NOTE: the one opened first is closed again


def test_a_refused_call_never_truncates_its_output(own: Any, tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("kept", encoding="utf-8")
    done = own.invoke(["upper", "missing.txt", "-w", "keep.txt"])
    assert done.exit_code == 2
    assert (tmp_path / "keep.txt").read_text(encoding="utf-8") == "kept"


def test_help_and_schema_show_a_file(own: Any) -> None:
    assert "-w FILE, --into FILE" in own.invoke(["upper", "--help"]).stdout
    schema = json.loads(own.invoke(["schema"]).stdout)
    upper = next(c for c in schema["commands"] if c["name"] == "upper")
    into = next(arg for arg in upper["args"] if arg["name"] == "--into")
    assert (into["type"], into["short"], into["default"]) == ("path", "-w", "-")
    assert upper["input_schema"]["properties"]["into"]["type"] == "string"


@pytest.mark.parametrize(
    ("signature", "message"),
    [
        ("into: Annotated[str, Option(mode='w')] = ''", "mode= of 'into' needs the type TextIO"),
        ("into: Annotated[TextIO, Option(mode='r+')]", "mode= of 'into' is 'r', 'w', 'a' or 'x'"),
        ("into: TextIO = 'out.txt'", "the default of 'into' is sys.stdin or sys.stdout"),
        ("into: TextIO, /", "'into': a file parameter is taken by name"),
        ("into: tuple[TextIO, int]", "'into': a file (TextIO, BinaryIO) is a parameter of"),
    ],
)
def test_what_gen_refuses(tmp_path: Path, signature: str, message: str) -> None:
    source = (
        "from typing import Annotated, TextIO\n\nfrom burgee import Option, command\n\n\n"
        f'@command(effects="read_only")\ndef put({signature}) -> None:\n    """Put."""\n'
    )
    (tmp_path / "handlers.py").write_text(source, encoding="utf-8")
    done = burgee_in_process("gen", str(tmp_path / "handlers.py"), "-o", str(tmp_path / "t.py"))
    assert done.returncode == 2, done.stderr
    assert message in done.stderr
    assert not (tmp_path / "t.py").exists()


def test_a_result_is_never_a_file(tmp_path: Path) -> None:
    source = (
        "from typing import TextIO\n\nfrom burgee import command\n\n\n"
        '@command(effects="read_only")\ndef put() -> TextIO:\n    """Put."""\n'
        "    return open('x')\n"
    )
    (tmp_path / "handlers.py").write_text(source, encoding="utf-8")
    done = burgee_in_process("gen", str(tmp_path / "handlers.py"), "-o", str(tmp_path / "t.py"))
    assert done.returncode == 2
    assert "TextIO is only a parameter's type" in done.stderr


CLICK_APP = '''\
"""Cat with Click."""
import click


@click.command()
@click.argument("inputs", type=click.File("r"), nargs=-1)
@click.option("-O", "--out", type=click.File("w"), default="-")
@click.option("--raw", type=click.File("rb"))
def cat(inputs, out, raw):
    """Join files."""
    out.write("written\\n")
    return {
        "inputs": [each.read() for each in inputs],
        "raw": raw.read().decode() if raw is not None else None,
    }
'''

#: Click's own parser opens the files; the tool opens them for the body: the same contents.
LINES = (
    "a.txt", "a.txt b.txt", "--raw b.txt", "a.txt --raw b.txt", "missing.txt",
    "a.txt --raw missing.txt", "-O out.txt a.txt", "", "--raw",
)  # fmt: skip


@pytest.fixture
def cat(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[click.Command, Any]:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.txt").write_text("one\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("two\n", encoding="utf-8")
    app = tmp_path / "cat_app.py"
    app.write_text(CLICK_APP, encoding="utf-8")
    made = burgee_in_process("gen", str(app), "-o", str(tmp_path / "cat_tool.py"))
    assert made.returncode == 0, made.stderr
    assert "click.File" not in made.stderr  # NOTE: read as it is, no warning left
    module = import_tool(app, "files_cat_app")
    return module.cat, import_tool(tmp_path / "cat_tool.py", "files_cat_tool")


@pytest.mark.parametrize("line", LINES)
def test_a_click_file_reads_as_click_reads_it(cat: tuple[click.Command, Any], line: str) -> None:
    command, tool = cat
    try:
        want = command.main(line.split(), standalone_mode=False)
    except click.UsageError:
        want = None
    done = tool.invoke([*line.split(), "--json"])
    if want is None:
        assert done.exit_code == 2, done.stdout
    else:
        assert done.exit_code == 0, done.stdout + done.stderr
        answer = json.loads(done.stdout)
        assert answer["data"] == want
        # NOTE: `-O out.txt` wrote the file (Click's run wrote it first: the tool's again)
        printed = answer.get("meta", {}).get("printed", "")
        assert ("written" in printed) is ("-O" not in line), printed


TYPER_APP = '''\
"""Typer files."""
import typer

app = typer.Typer()


@app.command()
def main(
    config: typer.FileText = typer.Option(...),
    log: typer.FileTextWrite = typer.Option("-"),
    blob: typer.FileBinaryRead = typer.Option(None),
) -> None:
    """Copy config to log."""
    log.write(config.read())
    if blob is not None:
        typer.echo(len(blob.read()))
'''


def test_typer_s_file_types(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "c.txt").write_text("key = 1\n", encoding="utf-8")
    app = tmp_path / "typer_files.py"
    app.write_text(TYPER_APP, encoding="utf-8")
    made = burgee_in_process("gen", str(app), "-o", str(tmp_path / "t.py"))
    assert made.returncode == 0, made.stderr
    tool = import_tool(tmp_path / "t.py", "files_typer")
    done = tool.invoke(["--config", "c.txt", "--blob", "c.txt"])
    assert (done.exit_code, done.stdout) == (0, "key = 1\n8\n")
    done = tool.invoke(["--config", "c.txt", "--log", "l.txt"])
    assert done.exit_code == 0
    assert (tmp_path / "l.txt").read_text(encoding="utf-8") == "key = 1\n"
