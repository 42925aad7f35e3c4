"""A Click program's own decorators that only add options (sqlite-utils' `@load_extension_option`,
`@output_options`, `@insert_upsert_options(require_pk=True)`, sqlfluff's `@common_options`):
read as the options they add, in the order Click gives them, and left out of the tool (which
then needs no click). Each line means the same to Click's own parser and to the tool."""

from __future__ import annotations

import json
import shlex
from typing import Any

import click
import pytest

from tests.helpers import burgee_in_process, import_tool
from tests.test_ported import _click

APP = '''\
"""Db tool."""
import click


def load_extension_option(fn):
    return click.option("--load-extension", multiple=True, help="Extension to load")(fn)


def output_options(fn):
    for decorator in reversed(
        (
            click.option("--nl", is_flag=True, help="NL JSON"),
            click.option("--csv", is_flag=True, help="CSV"),
            load_extension_option,
        )
    ):
        fn = decorator(fn)
    return fn


_shared = (click.option("--alter", is_flag=True), click.option("--batch-size", type=int, default=9))


def shared_options(fn):
    """Options several commands take."""
    for decorator in _shared:
        fn = decorator(fn)
    return fn


def upsert_options(*, require_pk=False):
    def inner(fn):
        for decorator in reversed(
            (click.argument("table"), click.option("--pk", required=require_pk)) + _shared
        ):
            fn = decorator(fn)
        return fn

    return inner


def common(f):
    f = click.option("-v", "--verbose", count=True)(f)
    f = click.option("--no-color", is_flag=True)(f)
    return f


@click.group()
def cli():
    """Db tool."""


@cli.command()
@click.argument("path")
@output_options
@common
def tables(path, nl, csv, load_extension, verbose, no_color):
    """List tables."""
    return locals()


@cli.command()
@upsert_options(require_pk=True)
def upsert(table, pk, alter, batch_size):
    """Upsert."""
    return locals()


@cli.command()
@upsert_options()
def insert(table, pk, alter, batch_size):
    """Insert."""
    return locals()


@cli.command()
@click.argument("table")
@shared_options
def alter(table, alter, batch_size):
    """Alter."""
    return locals()
'''

LINES = (
    "tables db", "tables db --nl --load-extension a --load-extension b", "tables db -vv --csv",
    "tables db --no-color -v", "tables", "tables db --bogus", "upsert t --pk id",
    "upsert t", "upsert t --pk id --alter --batch-size 3", "upsert t --pk id --batch-size x",
    "insert t", "insert t --pk id --alter", "insert", "insert t --batch-size 4",
    "alter t --alter", "alter t --batch-size 2", "alter",
)  # fmt: skip


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[click.Group, Any, str]:
    folder = tmp_path_factory.mktemp("click_decorators")
    app = folder / "db_app.py"
    app.write_text(APP, encoding="utf-8")
    done = burgee_in_process("gen", str(app), "-o", str(folder / "db_tool.py"))
    assert done.returncode == 0, done.stderr
    module = import_tool(app, "click_decorators_app")
    tool = import_tool(folder / "db_tool.py", "click_decorators_tool")
    return module.cli, tool, (folder / "db_tool.py").read_text(encoding="utf-8")


@pytest.mark.parametrize("line", LINES)
def test_the_options_mean_what_click_reads(made: tuple[click.Group, Any, str], line: str) -> None:
    cli, tool, _ = made
    want = _click(cli, "db", shlex.split(line))
    done = tool.invoke([*shlex.split(line), "--json"])
    if want.kind == "refused":
        assert done.exit_code == 2, (line, done.stdout)
    else:
        assert done.exit_code == 0, (line, done.stdout)
        assert json.loads(done.stdout)["data"] == want.values, line


def test_the_lines_hold_both_answers(made: tuple[click.Group, Any, str]) -> None:
    kinds = [_click(made[0], "db", shlex.split(line)).kind for line in LINES]
    assert "refused" in kinds and "ok" in kinds


def test_help_lists_them_in_click_s_order(made: tuple[click.Group, Any, str]) -> None:
    cli, tool, _ = made
    usage = tool.invoke(["tables", "--help"]).stdout
    words = ("--nl", "--csv", "--load-extension", "--no-color", "--verbose")
    ours = [usage.index(word, usage.index("options:")) for word in words]
    assert ours == sorted(ours)
    theirs = [p.opts[-1] for p in cli.commands["tables"].params if isinstance(p, click.Option)]
    assert theirs == list(words)


def test_the_helpers_are_left_out(made: tuple[click.Group, Any, str]) -> None:
    text = made[2]
    helpers = ("load_extension_option", "output_options", "_shared", "upsert_options", "common")
    for name in (*helpers, "shared_options"):
        assert f"def {name}(" not in text and f"{name} = " not in text
    assert "import click" not in text
