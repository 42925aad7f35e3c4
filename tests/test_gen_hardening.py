"""`burgee gen` never crashes, never half-writes, and every handlers file it accepts makes a
tool that runs (issue 13). Snapshot cases for the diagnostics live in `tests/errors/`
(misplaced_command, option_checks, shadowing, errors_dup, recursive); the files here are
the ones a snapshot cannot hold (NUL bytes, other encodings, huge or deeply nested code)."""

from __future__ import annotations

import re
import sys
import textwrap
import time
from pathlib import Path

import pytest

from burgee.model.diagnostics import GenerationError
from tests.helpers import burgee, generate, in_process, run

GREET = textwrap.dedent(
    '''\
    from burgee import command


    @command(effects="read_only")
    def greet(name: str = "world") -> str:
        """Say hello."""
        return f"Hello, {name}!"
    '''
)


def _gen_bytes(tmp_path: Path, data: bytes, *extra: str) -> tuple[int, str, Path]:
    handlers = tmp_path / "handlers.py"
    handlers.write_bytes(data)
    out = tmp_path / "tool.py"
    result = burgee("gen", "handlers.py", "-o", "tool.py", *extra, cwd=tmp_path)
    return result.returncode, result.stderr, out


def _refused(tmp_path: Path, source: str | bytes) -> list[str]:
    """Generate; assert a clean refusal (exit 2, located errors, no traceback, no output)."""
    data = source.encode("utf-8") if isinstance(source, str) else source
    code, stderr, out = _gen_bytes(tmp_path, data)
    assert code == 2, stderr[-2000:]
    assert "Traceback" not in stderr, stderr[-2000:]
    assert not out.exists()
    *lines, summary = stderr.splitlines()
    assert re.fullmatch(r"burgee: \d+ errors?; nothing written", summary), summary
    for line in lines:
        assert re.match(r"^handlers\.py:\d+:\d+: error: \S", line), line
    return lines


# -- 11: things that generated a tool that could not run -------------------------------------


def test_a_handler_that_yields_is_refused_at_its_first_yield(tmp_path: Path) -> None:
    """A generator would run as a result, and fail every time; a function inside one may."""
    source = """
from burgee import command, prompt


@command(effects="read_only", cardinality="bounded")
def tail(n: int = 2) -> list[str]:
    \"\"\"Lines.\"\"\"
    def helper():
        yield 1
    if n:
        yield from range(n)
    yield "x"


@command(effects="read_only")
async def follow(n: int = 2) -> int:
    \"\"\"Follow.\"\"\"
    yield n


@prompt()
def ask(topic: str) -> str:
    \"\"\"Ask.\"\"\"
    yield topic


@command(effects="read_only")
def fine() -> list[int]:
    \"\"\"Not a generator: its helpers are.\"\"\"
    numbers = (lambda: (yield 1))()
    return [len(list(x for x in range(3)))]
"""
    lines = _refused(tmp_path, source)
    assert [line.split(" error: ")[0] for line in lines] == [
        "handlers.py:11:9:",
        "handlers.py:18:5:",
        "handlers.py:24:5:",
    ]
    assert all("yields: a handler returns its whole answer" in line for line in lines)


def test_a_tuple_result_is_refused_and_the_message_offers_no_tuple(tmp_path: Path) -> None:
    """A cut answer loses the middle of a long list, which a tuple's schema would not allow."""
    source = """
from burgee import command


@command(effects="read_only")
def origin(offset: tuple[int, int] = (0, 0)) -> tuple[int, int]:
    \"\"\"A tuple parameter is fine; a tuple result is not.\"\"\"
    return offset
"""
    [line] = _refused(tmp_path, source)
    assert line.startswith("handlers.py:6:49: error: return type of origin: unsupported type")
    assert "list[T]" in line and "tuple" not in line.split("supported:")[1]


def test_an_option_may_not_read_the_tools_debug_variable(tmp_path: Path) -> None:
    """`env_prefix` "T3" and an option `debug`: T3_DEBUG would also show every traceback."""
    source = """
from typing import Annotated

from burgee import Option, command, program

program(name="t3", env_prefix="T3")


@command(effects="read_only")
def show(debug: Annotated[str, Option("--dbg")] = "low", level: int = 1) -> str:
    \"\"\"Show.\"\"\"
    return debug
"""
    [line] = _refused(tmp_path, source)
    assert line.startswith("handlers.py:10:10: error: --dbg reads the env var T3_DEBUG")
    fixed = source.replace('Option("--dbg")', 'Option("--dbg", env="T3_LEVEL_NAME")')
    (tmp_path / "handlers.py").write_text(fixed)
    assert burgee("gen", "handlers.py", "-o", "tool.py", cwd=tmp_path).returncode == 0


def test_an_option_may_read_several_env_vars_in_order(tmp_path: Path) -> None:
    """`Option(env=("A", "B"))`: each name in turn, the first set and not empty wins (what a
    Click option's `envvar=` list reads); help and schema name them all, a bad one is refused."""
    source = """
from typing import Annotated

from burgee import Option, command


@command(effects="read_only")
def show(level: Annotated[int, Option(env=("LEVEL", "OLD_LEVEL"))] = 1) -> int:
    \"\"\"Show.\"\"\"
    return level
"""
    tool = in_process(generate(tmp_path, source))
    assert tool.run("show", "--json", env={"OLD_LEVEL": "2"}).json()["data"] == 2
    assert tool.run("show", "--json", env={"LEVEL": "3", "OLD_LEVEL": "2"}).json()["data"] == 3
    assert tool.run("show", "--json", env={"LEVEL": "", "OLD_LEVEL": "2"}).json()["data"] == 2
    assert "(env: LEVEL, OLD_LEVEL)" in tool.run("show", "--help").out
    assert '"env": ["LEVEL", "OLD_LEVEL"]' in tool.run("schema").out
    (tmp_path / "bad").mkdir()
    [line] = _refused(tmp_path / "bad", source.replace('"OLD_LEVEL"', '"OLD LEVEL"'))
    assert "must be a variable name" in line, line


def test_positional_only_parameters_are_passed_positionally(tmp_path: Path) -> None:
    # NOTE: the decision: a `/` in a handler's signature changes nothing for the tool's
    # users (flags and arguments stay as they are); the generated call passes those
    # parameters by position, which is the only way Python accepts them.
    tool = generate(
        tmp_path,
        '''
        from typing import Annotated

        from burgee import Argument, Context, command


        @command(effects="read_only")
        def greet(
            name: Annotated[str, Argument()], ctx: Context = None, /, times: int = 1
        ) -> str:
            """Say hello."""
            return f"Hello, {name}! " * times
        ''',
    )
    result = run(tool, "greet", "Ada", "--times", "2")
    assert (result.code, result.out) == (0, "Hello, Ada! Hello, Ada! \n"), result


def test_stripped_decorators_leave_no_burgee_names_behind(tmp_path: Path) -> None:
    lines = _refused(
        tmp_path, (Path(__file__).parent / "errors" / "misplaced_command.py").read_text()
    )
    assert [line.split(": error: ")[0] for line in lines] == [
        "handlers.py:7:5",
        "handlers.py:14:5",
        "handlers.py:23:1",
    ]


# -- 12: tracebacks -------------------------------------------------------------------------


def test_nul_in_a_string_literal(tmp_path: Path) -> None:
    lines = _refused(tmp_path, GREET.replace('"world"', '"wo\0rld"'))
    assert lines == ["handlers.py:5:26: error: the file contains a NUL byte, which Python refuses"]


@pytest.mark.parametrize(
    ("source", "where"),
    [
        (GREET.replace('name: str = "world"', "n: int = " + "9" * 5000), "5:20"),
        (
            GREET
            + "\n\nclass Big(CommandError):\n    kind = 'big'\n    exit_code = "
            + "9" * 4301
            + "\n",
            "12:17",
        ),
    ],
    ids=["default", "exit_code"],
)
def test_integer_literals_beyond_pythons_digit_limit(
    tmp_path: Path, source: str, where: str
) -> None:
    source = source.replace(
        "from burgee import command", "from burgee import CommandError, command"
    )
    lines = _refused(tmp_path, source)
    assert len(lines) == 1
    assert lines[0].startswith(f"handlers.py:{where}: error: integer literal with ")


def test_optional_nested_500_deep(tmp_path: Path) -> None:
    annotation = "Optional[" * 500 + "str" + "]" * 500
    source = "from typing import Optional\n" + GREET.replace("name: str", f"name: {annotation}")
    lines = _refused(tmp_path, source)
    assert len(lines) == 1 and "nested more than 100 deep" in lines[0], lines


def test_bytes_default(tmp_path: Path) -> None:
    lines = _refused(tmp_path, GREET.replace('"world"', 'b"world"'))
    assert lines == [
        "handlers.py:5:23: error: the default of 'name' cannot be bytes; "
        "use a string, number, boolean, None or list"
    ]


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="this syntax is valid on 3.12")
@pytest.mark.parametrize(
    "code",
    ["type Alias = int\n", "def first[T](xs: list[T]) -> T:\n    return xs[0]\n", 'Y = f"{"x"}"\n'],
    ids=["type", "pep695", "pep701"],
)
def test_newer_syntax_than_this_python(tmp_path: Path, code: str) -> None:
    lines = _refused(tmp_path, GREET + "\n\n" + code)
    assert len(lines) == 1 and lines[0].startswith("handlers.py:10:"), lines
    assert "syntax error" in lines[0]


# -- 13: deep nesting and long expressions -----------------------------------------------------


@pytest.mark.parametrize(
    ("default", "annotation", "column"),
    [
        ("(" * 250 + '"x"' + ")" * 250, "str", 122),
        ("(" * 1000 + '"x"' + ")" * 1000, "str", 122),
        ("(" * 3000 + '"x"' + ")" * 3000, "str", 122),
        ("[" * 2000 + "]" * 2000, "list[str]", 128),
    ],
    ids=["parens250", "parens1000", "parens3000", "brackets2000"],
)
def test_deep_nesting_is_refused_with_a_diagnostic(
    tmp_path: Path, default: str, annotation: str, column: int
) -> None:
    # NOTE: `greet(` opens the first bracket; the 101st is the default's 100th.
    source = GREET.replace('name: str = "world"', f"name: {annotation} = {default}")
    lines = _refused(tmp_path, source)
    assert lines == [
        f"handlers.py:5:{column}: error: brackets nested more than 100 deep; "
        "burgee reads no deeper (move the data into a file or build it in code)"
    ]


@pytest.mark.parametrize(
    ("hiding", "where"),
    [
        ('"' + ")" * 300 + '", ', "10:409"),
        ("'''" + ")]}" * 100 + "''', ", "10:413"),
        ("  # " + ")" * 300 + "\n", "11:100"),
    ],
    ids=["string", "triple-quoted", "comment"],
)
def test_closing_brackets_in_strings_and_comments_do_not_hide_deep_nesting(
    tmp_path: Path, hiding: str, where: str
) -> None:
    # NOTE: the exact check (the tokenizer) runs only when a quick look at the text finds
    # deep brackets possible; that look skips strings and comments as the tokenizer does.
    deep = "(" * 100 + "1" + ")" * 100
    lines = _refused(tmp_path, GREET + "\n\nX = (" + hiding + deep + ")\n")
    assert lines == [
        f"handlers.py:{where}: error: brackets nested more than 100 deep; burgee reads no "
        "deeper (move the data into a file or build it in code)"
    ]


@pytest.mark.parametrize(
    ("text", "suspect"),
    [
        ("x = " + "([{" * 34 + "}])" * 34 + "\n", True),
        (")]}" * 200 + "\nx = " + "(" * 101 + ")" * 101 + "\n", True),
        ("x = " + "[(" * 60 + "\ny = 1\n", True),
        ("x = " + "(" * 40 + ")" * 40 + "\n" * 3 + "y = " + "[" * 40 + "]" * 40 + "\n", False),
        ('x = ")))" + ' + "(" * 45 + "1" + ")" * 45 + "  # ((((\n", False),
    ],
    ids=["mixed", "after-stray-closes", "never-closed", "shallow", "shallow-with-strings"],
)
def test_the_quick_look_finds_every_file_the_exact_check_may_refuse(
    text: str, suspect: bool
) -> None:
    """The quick look (`source._suspect`) bounds from above how deep brackets nest, so a file
    the tokenizer would refuse is always looked at exactly; a file of shallow brackets, with
    brackets in its strings and comments, is not."""
    from burgee.read import source  # noqa: PLC0415

    assert source._suspect(text) is suspect


def test_long_flat_expression_in_helper_code_generates(tmp_path: Path) -> None:
    terms = "+".join(["1"] * 500)
    source = GREET.replace('f"Hello, {name}!"', 'f"Hello, {name}! {TOTAL} {total()}"')
    source += f"\n\n# the sum\nTOTAL = {terms}  # five hundred\n\n\ndef total() -> int:\n"
    source += f"    return {terms}\n"
    started = time.monotonic()
    tool = generate(tmp_path, source)
    assert time.monotonic() - started < 30
    # NOTE: the helper code is copied as written (comments too), then ruff formats it.
    text = tool.read_text(encoding="utf-8")
    assert "# the sum\nTOTAL = (\n    1\n    + 1\n" in text and "# five hundred" in text
    assert run(tool, "greet").out == "Hello, world! 500 500\n"


@pytest.mark.parametrize("count", [4000, 20000])
def test_flat_expressions_python_cannot_compile_are_refused_quickly(
    tmp_path: Path, count: int
) -> None:
    source = GREET + "\n\nX = " + "+".join(["1"] * count) + "\n"
    started = time.monotonic()
    lines = _refused(tmp_path, source)
    assert time.monotonic() - started < 30
    assert len(lines) == 1 and lines[0].startswith("handlers.py:10:1: error: "), lines


# -- 14: nothing is written unless everything can be ----------------------------------------


def test_sidecars_are_not_written_when_the_tool_is_refused(tmp_path: Path) -> None:
    (tmp_path / "handlers.py").write_text(GREET, encoding="utf-8")
    (tmp_path / "tool.py").write_text("precious = True\n", encoding="utf-8")
    result = burgee(
        "gen",
        "handlers.py",
        "-o",
        "tool.py",
        "--completions",
        "completions",
        "--skill-dir",
        "skill",
        cwd=tmp_path,
    )
    assert result.returncode == 2
    assert "was not generated by burgee" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["handlers.py", "tool.py"]
    assert (tmp_path / "tool.py").read_text(encoding="utf-8") == "precious = True\n"


def test_a_refused_sidecar_writes_nothing_at_all(tmp_path: Path) -> None:
    (tmp_path / "handlers.py").write_text(GREET, encoding="utf-8")
    (tmp_path / "skill").mkdir()
    (tmp_path / "skill" / "AGENTS.md").write_text("mine\n", encoding="utf-8")
    result = burgee(
        "gen",
        "handlers.py",
        "-o",
        "tool.py",
        "--completions",
        "completions",
        "--skill-dir",
        "skill",
        cwd=tmp_path,
    )
    assert result.returncode == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["handlers.py", "skill"]
    assert [p.name for p in (tmp_path / "skill").iterdir()] == ["AGENTS.md"]


# -- 15: encodings ---------------------------------------------------------------------------


def test_pep_263_coding_cookie_is_honoured(tmp_path: Path) -> None:
    source = "# coding: latin-1\n" + GREET.replace('"world"', '"Zoë"')
    code, stderr, out = _gen_bytes(tmp_path, source.encode("latin-1"))
    assert code == 0, stderr
    assert run(out, "greet").out == "Hello, Zoë!\n"
    assert "coding: latin-1" not in out.read_text(encoding="utf-8")


def test_undecodable_bytes_are_reported_at_their_place(tmp_path: Path) -> None:
    data = GREET.replace('"world"', '"w\xe9rld"').encode("latin-1")
    lines = _refused(tmp_path, data)
    assert lines == [
        "handlers.py:5:25: error: cannot decode byte 0xe9 as utf-8; save the file as UTF-8 "
        "or declare its encoding (# coding: ...)"
    ]


def test_utf16_file(tmp_path: Path) -> None:
    lines = _refused(tmp_path, GREET.encode("utf-16"))
    assert lines == [
        "handlers.py:1:1: error: the file is UTF-16; "
        "save it as UTF-8 (Python reads no UTF-16 source)"
    ]


def test_undecodable_first_line(tmp_path: Path) -> None:
    lines = _refused(tmp_path, b"# caf\xe9\n" + GREET.encode())
    assert lines[0].startswith("handlers.py:1:6: error: cannot decode byte 0xe9 as utf-8"), lines


def test_unknown_coding_cookie(tmp_path: Path) -> None:
    lines = _refused(tmp_path, b"#!/usr/bin/env python\n# coding: klingon\n" + GREET.encode())
    assert lines == ["handlers.py:2:1: error: cannot read the file: unknown encoding: klingon"]


# -- general: an unexpected failure in reading is a diagnostic --------------------------------


def test_a_long_expression_in_a_commands_signature_is_read(tmp_path: Path) -> None:
    # NOTE: `ast` reads a flat expression without recursing once per operator (libcst did,
    # and a RecursionError refused the file): this one is refused for being no literal.
    terms = "+".join(["1"] * 1500)
    lines = _refused(tmp_path, GREET.replace('name: str = "world"', f"name: int = {terms}"))
    message = f"the default of 'name' must be a literal, not {terms}"
    assert lines == [f"handlers.py:5:23: error: {message}"]


def test_a_recursion_error_while_reading_is_a_diagnostic_at_the_longest_statement(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from burgee.read import program  # noqa: PLC0415

    def exhausted(*args: object, **kwargs: object) -> None:
        raise RecursionError

    monkeypatch.setattr(program, "_read", exhausted)
    source = GREET + "\n\nX = " + "+".join(["1"] * 300) + "\n"
    with pytest.raises(GenerationError) as raised:
        program.read_program(source, "handlers.py")
    assert [str(d) for d in raised.value.diagnostics] == [
        "handlers.py:10:1: error: an expression here is too long or too deeply nested for "
        "burgee to read (RecursionError); split it, or move it into a helper function"
    ]


def test_a_long_expression_in_a_commands_body_generates(tmp_path: Path) -> None:
    # NOTE: a function's body is copied as written, so a flat expression there is no problem.
    terms = "+".join(["1"] * 1500)
    tool = generate(tmp_path, GREET.replace('f"Hello, {name}!"', f"str({terms})"))
    assert run(tool, "greet", "--json").json()["data"] == "1500"


# -- general: an unexpected failure anywhere in the pipeline is a diagnostic -----------------


@pytest.mark.parametrize("error", [RecursionError, MemoryError])
def test_unexpected_exhaustion_becomes_a_diagnostic(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    error: type[Exception],
) -> None:
    from burgee import cli  # noqa: PLC0415
    from burgee.write import generate  # noqa: PLC0415

    def exhausted(*args: object, **kwargs: object) -> str:
        raise error("out")

    monkeypatch.setattr(generate, "render", exhausted)
    (tmp_path / "handlers.py").write_text(GREET, encoding="utf-8")
    code = cli.main(["gen", str(tmp_path / "handlers.py"), "-o", str(tmp_path / "tool.py")])
    err = capsys.readouterr().err
    assert code == 2
    assert err.splitlines() == [
        f"{tmp_path / 'handlers.py'}:1:1: error: burgee cannot read this file "
        f"({error.__name__}): some code in it is nested too deeply or is too large; "
        "split it into smaller pieces",
        "burgee: 1 error; nothing written",
    ]
    assert not (tmp_path / "tool.py").exists()


# -- found by the generator fuzzer (tests/test_fuzz_gen.py) ---------------------------------


def test_a_diagnostic_quoting_code_over_several_lines_stays_on_one_line(tmp_path: Path) -> None:
    # NOTE: found as a grammar-generated default: the quoted code broke the diagnostic in two.
    lines = _refused(tmp_path, GREET.replace('"world"', "(A\n+ B)"))
    assert lines == ["handlers.py:5:24: error: the default of 'name' must be a literal, not A + B"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("x: int\n    x: str\n", "9:5: error: field Out.x is declared twice"),
        (
            "x: int = 1\n    y: int = 2\n    x: int = 3\n",
            "10:5: error: field Out.x is declared twice",
        ),
    ],
)
def test_a_record_field_declared_twice(tmp_path: Path, body: str, message: str) -> None:
    # NOTE: found as a duplicated line in the kitchen's handlers file: a traceback from
    # dataclasses.make_dataclass while describing the output.
    source = (
        "from dataclasses import dataclass\n\nfrom burgee import command\n\n\n"
        f"@dataclass\nclass Out:\n    {body}\n\n"
        '@command(effects="read_only")\ndef out() -> Out:\n    """Out."""\n    return Out(1)\n'
    )
    assert _refused(tmp_path, source) == [f"handlers.py:{message}"]


def test_an_enum_member_defined_twice(tmp_path: Path) -> None:
    source = (
        "from enum import Enum\n\nfrom burgee import command\n\n\n"
        'class Color(Enum):\n    RED = "red"\n    RED = "r"\n\n\n'
        '@command(effects="read_only")\ndef paint(color: Color) -> str:\n'
        '    """Paint."""\n    return color.value\n'
    )
    assert _refused(tmp_path, source) == ["handlers.py:8:5: error: enum Color defines RED twice"]


def test_a_file_that_starts_indented(tmp_path: Path) -> None:
    # NOTE: found as a golden handlers file with a line swapped to the top: an
    # AssertionError in the statement scanner.
    lines = _refused(tmp_path, "    x: int = 1\n" + GREET)
    assert len(lines) == 1 and lines[0].startswith("handlers.py:1:"), lines
    assert lines[0].endswith(": error: syntax error: unexpected indent"), lines


BODIES = textwrap.dedent(
    '''\
    import functools

    from burgee import command


    def deco(f):
        return f


    @command(effects="read_only")
    def a(name: str) -> str:
        """Doc."""
        @deco
        @functools.cache
        def inner(x):
            return x  # comment
        # a comment at body level
        return inner(name)


    @command(effects="read_only")
    def b(name: str) -> str: return name


    @command(effects="read_only")
    def c(name: str) -> str:
        """Doc."""; x = 1
        return name + str(x)
    '''
)


def test_function_bodies_and_helper_code_are_copied_as_written() -> None:
    from burgee.write.generate import read  # noqa: PLC0415

    code = read(BODIES, "handlers.py").user_code
    # NOTE: everything but burgee's import and decorators, byte for byte (comments, a body
    # on the `def` line, a statement after the docstring's `;`).
    expected = BODIES.split("from burgee import command\n\n\n", 1)[1]
    assert code == expected.replace('@command(effects="read_only")\n', "")


# -- defaults ----------------------------------------------------------------------------------

CONSTRUCTED_ITEMS = '''\
import datetime as dt
from pathlib import Path

from burgee import command


@command(effects="read_only")
def scan(
    roots: list[Path] = [Path("."), Path("src")],
    days: list[dt.date] = (dt.date(2026, 1, 1),),
    pair: tuple[Path, int] = (Path("a"), 2),
) -> str:
    """Scan."""
    return f"{roots!r} {days!r} {pair!r}"
'''


def test_a_list_or_tuple_of_constructed_values_is_a_default(tmp_path: Path) -> None:
    """`[Path(".")]` as `Path(".")` alone is: each item the type's constructor with literal
    arguments, its JSON value computed as for one."""
    tool = generate(tmp_path, CONSTRUCTED_ITEMS)
    done = run(tool, "scan")
    assert done.out.strip() == (
        "[PosixPath('.'), PosixPath('src')] [datetime.date(2026, 1, 1)] (PosixPath('a'), 2)"
    ), done.err
    [scan] = [t for t in run(tool, "--llms").json()["tools"] if t["name"] == "scan"]
    properties = scan["inputSchema"]["properties"]
    assert properties["roots"]["default"] == [".", "src"]
    assert properties["days"]["default"] == ["2026-01-01"]
    assert properties["pair"]["default"] == ["a", 2]


def test_a_list_default_of_other_calls_is_refused_at_the_call(tmp_path: Path) -> None:
    source = CONSTRUCTED_ITEMS.replace('Path("src")', 'Path("src").resolve()')
    lines = _refused(tmp_path, source)
    assert lines == [
        "handlers.py:9:37: error: the default of 'roots' must be a literal or pathlib.Path(...)"
    ]
