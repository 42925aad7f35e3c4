"""The quick argv reading agrees with argparse on every command line it answers, and finds where
a pass-through argument's words begin where argparse does.

A property-based differential test over every command of every golden program: hypothesis
draws command lines from the command's own flags, their values, choices and words that trip
parsers up ("--", "-h", "-5", "--x=", clusters); whenever `_quick_parse` gives an answer,
argparse (the command's real parser) must give the same one and no error. A deterministic test
checks that the quick reading does answer the plain, valid lines it exists for.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import subprocess
import sys
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import GOLDEN
from tests.regen import golden_output

PROGRAMS = ["minimal", "kitchen", "settings", "diffy", "clikit", "repokit"]


def _load(program: str) -> ModuleType:
    path = golden_output(GOLDEN / program)
    spec = importlib.util.spec_from_file_location(f"quickargs_{program}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # NOTE: dataclasses look their module up while defined
    spec.loader.exec_module(module)
    return module


MODULES = {program: _load(program) for program in PROGRAMS}


def _recorder(program: str, path: str) -> Any:
    module = MODULES[program]
    return module._recorded(module._command(module.PROGRAM, path))


CASES = [
    (program, path)
    for program, module in MODULES.items()
    for path in module.COMMANDS
    if path != "schema"
]


def _argparse(module: ModuleType, path: str, words: list[str]) -> dict[str, Any] | None:
    """What the command's real parser makes of `words`; None for an error or help."""
    command = module._command(module.PROGRAM, path)
    parser = module._new_parser(
        module.PROGRAM, f"{module.PROGRAM.name} {path}", command.description
    )
    command.build(parser)
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            return dict(vars(parser.parse_args(words)))
    except module.UsageError:
        return None
    except SystemExit:
        return None


def _words(module: ModuleType, path: str) -> st.SearchStrategy[list[str]]:
    recorder = module._recorded(module._command(module.PROGRAM, path))
    names = sorted(recorder.options)
    values = ["x", "", "-", "-5", "1", "a b", "-x y", "--", "-h", "--help", "=", "true"]
    for argument in [*recorder.options.values(), *recorder.positionals]:
        values += list(argument.choices or ())
    glued = [f"{name}={value}" for name in names for value in ("v", "", "-1")]
    shorts = [name + "v" for name in names if len(name) == 2]
    word = st.sampled_from(sorted({*names, *values, *glued, *shorts, "--nope", "-zz"})) | st.text(
        max_size=6
    )
    return st.lists(word, max_size=8)


@pytest.mark.slow  # NOTE: 150 drawn lines for each of the golden programs' commands
@pytest.mark.parametrize(("program", "path"), CASES)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_quick_reading_agrees_with_argparse(program: str, path: str, data: st.DataObject) -> None:
    module = MODULES[program]
    words = data.draw(_words(module, path))
    recorder = module._recorded(module._command(module.PROGRAM, path))
    quick = module._quick_parse(recorder, list(words))
    parsed = _argparse(module, path, list(words))
    if quick is not None:
        assert parsed == quick, words
    if recorder.passthrough is not None:
        _begins_as_argparse_begins(module, path, list(words))


def _begins_as_argparse_begins(module: ModuleType, path: str, words: list[str]) -> None:
    """Where the pass-through's words begin, as `_Invocation`, help and the tool's parser find
    it (`_pass_start`), is where argparse's own REMAINDER begins them."""
    passed = _remainder(module, path, words)
    if passed is not None:
        start = module._pass_start(module._recorded(module._command(module.PROGRAM, path)), words)
        assert words[start:] == passed, words


PASSING = [(program, path) for program, path in CASES if _recorder(program, path).passthrough]


@pytest.mark.slow  # NOTE: 150 drawn lines for each pass-through command of the goldens
@pytest.mark.parametrize(("program", "path"), PASSING)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_pass_through_begins_where_argparse_begins_it(
    program: str, path: str, data: st.DataObject
) -> None:
    """Lines of options, each with 0 to 3 plain words after it, then plain words: an option of
    several words (`nargs="+"`) takes them all, so the app's words begin after the next flag's
    (`--with a b -p 3 app x`: `x`), on the quick path and argparse alike."""
    module = MODULES[program]
    recorder = module._recorded(module._command(module.PROGRAM, path))
    plain = st.lists(st.sampled_from(["x", "app", "7"]), max_size=3)
    option = st.tuples(st.sampled_from(sorted(recorder.options)), plain)
    segments = data.draw(st.lists(option, max_size=4))
    words = [word for flag, after in segments for word in (flag, *after)]
    words += data.draw(plain)
    _begins_as_argparse_begins(module, path, words)
    quick = module._quick_parse(recorder, list(words))
    if quick is not None:
        assert _argparse(module, path, list(words)) == quick, words


def _remainder(module: ModuleType, path: str, words: list[str]) -> list[str] | None:
    """The words argparse's own `REMAINDER` reading (not intermixed, no `_pass_start`) gives
    the command's pass-through argument; None for an error, or a line it reads otherwise than
    the tool on purpose (`--`, intermixed positionals)."""
    if "--" in words:
        return None
    command = module._command(module.PROGRAM, path)
    recorder = module._recorded(command)
    parser = module._new_parser(
        module.PROGRAM, f"{module.PROGRAM.name} {path}", command.description
    )
    command.build(parser)
    for action in parser._actions:
        if action.dest == recorder.passthrough.dest:
            action.nargs = argparse.REMAINDER
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            parsed, extras = argparse.ArgumentParser.parse_known_args(parser, words)
    except (module.UsageError, SystemExit):
        return None
    return None if extras else list(getattr(parsed, recorder.passthrough.dest, None) or [])


def _plain_line(module: ModuleType, path: str) -> list[str]:
    """A valid line: a word for each positional (a choice where there are choices), then
    every option with its value(s) (or the switch on)."""
    recorder = module._recorded(module._command(module.PROGRAM, path))
    words: list[str] = []
    for argument in recorder.positionals:
        words.append(argument.choices[0] if argument.choices else "word")
    seen = set()
    for name, argument in recorder.options.items():
        if id(argument) in seen or not name.startswith("--") or name.startswith("--no-"):
            continue
        seen.add(id(argument))
        if argument.action == module._BOOL_ACTION:
            words.append(name)
        else:
            # NOTE: as many words as it takes (`--size W H`, `Option(nargs=2)`).
            words += [name, *[argument.choices[-1] if argument.choices else "7"] * argument.takes]
    return words


@pytest.mark.parametrize(("program", "path"), CASES)
def test_plain_lines_are_read_quickly(program: str, path: str) -> None:
    module = MODULES[program]
    recorder = module._recorded(module._command(module.PROGRAM, path))
    if not recorder.plain:
        pytest.skip(f"{path} uses an argparse feature the quick reading leaves to argparse")
    words = _plain_line(module, path)
    quick = module._quick_parse(
        module._recorded(module._command(module.PROGRAM, path)), list(words)
    )
    assert quick is not None, words
    assert quick == _argparse(module, path, list(words))


def test_most_golden_commands_take_the_quick_path() -> None:
    plain = [
        path
        for program, path in CASES
        if MODULES[program]
        ._recorded(MODULES[program]._command(MODULES[program].PROGRAM, path))
        .plain
    ]
    assert len(plain) >= len(CASES) * 3 // 4, sorted(set(p for _, p in CASES) - set(plain))


def test_a_plain_run_imports_neither_argparse_nor_enum(tmp_path: Any) -> None:
    """The point of it all: a plain, valid line runs without argparse (nor re, nor enum).
    (`-S`: what site-packages import at start-up is not the tool's doing.)"""
    module = MODULES["minimal"]
    path = next(
        p for p in module.COMMANDS if module._recorded(module._command(module.PROGRAM, p)).plain
    )
    words = [*path.split(), *_plain_line(module, path)]
    tool = golden_output(GOLDEN / "minimal")
    proc = subprocess.run(
        [sys.executable, "-S", "-X", "importtime", str(tool), *words],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    imported = {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines()}
    assert "os" in imported  # the report is there at all
    assert not imported & {"argparse", "re", "enum", "json", "threading"}, sorted(imported)


SHADOWING = [(program, path) for program, module in MODULES.items() for path in module.SHADOWS]


@pytest.mark.slow  # NOTE: hundreds of drawn inputs (docs/contributing.md)
@pytest.mark.parametrize(("program", "path"), SHADOWING)
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_shadowing_command_reads_its_own_flags(
    program: str, path: str, data: st.DataObject
) -> None:
    """On a command whose options take over tool-wide spellings (`Option(shadows=True)`), the
    tool leaves those to the command, still reads its other flags, and the quick reading and
    argparse agree on what the command gets."""
    module = MODULES[program]
    shadowed = module.SHADOWS[path]
    spellings = [*shadowed, *(f"{name}=v" for name in shadowed if name.startswith("--"))]
    word = st.sampled_from(
        sorted({*spellings, "-ojson", "-otext", "--json", "--debug", "json", "upper", "2", "--"})
    )
    words = data.draw(st.lists(word, max_size=8))
    command = path.split()
    try:
        invocation = module._Invocation([*command, *words], module.PROGRAM)
    except module.UsageError:
        return
    before = words[: words.index("--")] if "--" in words else words
    assert invocation.rest[: len(command)] == command
    rest = invocation.rest[len(command) :]
    for spelling in before:
        name = spelling.partition("=")[0]
        if name in shadowed or (spelling[:2] == "-o" and "-o" in shadowed):
            assert spelling in rest, (words, rest)
    assert invocation.json == ("--json" in before), words
    assert invocation.version is False
    quick = module._quick_parse(module._recorded(module._command(module.PROGRAM, path)), list(rest))
    if quick is not None:
        assert _argparse(module, path, list(rest)) == quick, rest
