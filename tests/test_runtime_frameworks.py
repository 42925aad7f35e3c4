"""The stand-in for click and typer (`runtime/execution/frameworks.py`), in-process: what it
writes matches what the real packages write, and the real packages' exceptions (typer vendors
click) and the stand-in's are the same envelope kinds."""

from __future__ import annotations

import io
from typing import Any

import click
import pytest
import typer

from burgee.read.frameworks import SURFACE
from burgee.runtime.core.context import Context
from burgee.runtime.core.errors import CommandError, UsageError, _Exited
from burgee.runtime.execution import frameworks
from burgee.runtime.program import PROGRAM


@pytest.mark.parametrize(
    "styles",
    [
        {"fg": "red"},
        {"fg": "bright_blue", "bg": "white", "bold": True},
        {"underline": True, "italic": True, "reset": False},
        {"fg": 208},
        {"fg": (10, 20, 30), "dim": True, "strikethrough": True},
        {"bold": False, "reverse": True, "blink": True, "overline": True},
        {"dim": False, "underline": False, "overline": False, "italic": False, "blink": False},
    ],
)
def test_style_is_clicks(styles: dict[str, Any]) -> None:
    assert frameworks._style("text", **styles) == click.style("text", **styles)
    assert frameworks._unstyled(click.style("a", **styles) + "b") == click.unstyle(
        click.style("a", **styles) + "b"
    )


def test_echo_takes_styling_out_where_no_terminal_shows_it() -> None:
    ours, theirs = io.StringIO(), io.StringIO()
    for stream, echo, secho in (
        (ours, frameworks._echo, frameworks._secho),
        (theirs, click.echo, click.secho),
    ):
        echo("plain", file=stream)
        secho("red", fg="red", file=stream, nl=False)
        echo(file=stream)
        echo(7, file=stream)
    assert ours.getvalue() == theirs.getvalue()


@pytest.mark.parametrize("force_posix", [False, True])
def test_app_dir_is_clicks(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any, force_posix: bool
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    for name in ("Tool", "My Tool"):
        ours = frameworks._get_app_dir(name, force_posix=force_posix)
        assert ours == click.get_app_dir(name, force_posix=force_posix)


@pytest.mark.parametrize(
    ("error", "kind", "code", "message"),
    [
        (click.ClickException("broke"), "failed", 1, "broke"),
        (click.UsageError("needs more"), "usage", 2, "needs more"),
        (click.BadParameter("no", param_hint="'--x'"), "usage", 2, "Invalid value for '--x': no"),
        (click.Abort(), "aborted", 1, "Aborted!"),
        (click.exceptions.Exit(4), "exit", 4, "the command exited with code 4"),
        (typer.Exit(code=3), "exit", 3, "the command exited with code 3"),
        (typer.BadParameter("nope"), "usage", 2, "Invalid value: nope"),
        (typer.Abort(), "aborted", 1, "Aborted!"),
        (frameworks._ClickError("ours"), "failed", 1, "ours"),
        (
            frameworks._BadParameter("no", param_hint="'--x'"),
            "usage",
            2,
            "Invalid value for '--x': no",
        ),
        (frameworks._Exit(9), "exit", 9, "the command exited with code 9"),
        (frameworks._Abort(), "aborted", 1, "Aborted!"),
    ],
)
def test_framework_exceptions_are_envelope_kinds(
    error: BaseException, kind: str, code: int, message: str
) -> None:
    mapped = frameworks._framework_error(error)
    assert isinstance(mapped, CommandError)
    assert (mapped.kind, mapped.exit_code, mapped.message) == (kind, code, message)
    assert isinstance(mapped, UsageError) == (kind == "usage")


def test_an_exit_at_zero_is_an_exit_at_zero_and_other_errors_go_on() -> None:
    for error in (typer.Exit(), click.exceptions.Exit(0), frameworks._Exit()):
        mapped = frameworks._framework_error(error)
        assert isinstance(mapped, _Exited) and mapped.exit_code == 0
    assert frameworks._framework_error(ValueError("x")) is None


def test_the_current_context_is_the_running_commands() -> None:
    with pytest.raises(RuntimeError, match="no active click context"):
        frameworks._current()
    assert frameworks._current(silent=True) is None
    seen: list[Any] = []

    def handler(name: str) -> str:
        seen.append(frameworks._current())
        # NOTE: the real package's own context is there too, when it is imported.
        seen.append(click.get_current_context().params)
        return name

    context = Context("db show", json=True, program=PROGRAM)
    assert frameworks._framework_call(context, handler, [], {"name": "x"}) == "x"
    assert seen == [context, {"name": "x"}]
    assert frameworks._current(silent=True) is None


def test_the_surface_gen_reads_is_the_stand_ins() -> None:
    assert {"echo", "secho", "style", "confirm", "prompt", "get_current_context"} <= set(
        SURFACE["click"]
    )
    assert SURFACE["click"]["exceptions"] >= {"Exit", "Abort", "UsageError"}
    assert {"Exit", "Abort", "BadParameter", "colors", "echo"} <= set(SURFACE["typer"])
    for name in SURFACE["typer"]:
        assert hasattr(typer, name), name
    for name in SURFACE["click"]:
        assert hasattr(click, name), name
