"""Random handlers files against `burgee gen` (issue 13): whatever comes in, gen either writes a
tool that runs (`--help` and `schema` exit 0, no traceback) or refuses with exit 2, a located
`handlers.py:LINE:COL: error: ...` diagnostic on every line but the summary, no traceback and
nothing written. A run that takes longer than `TIMEOUT` seconds is a failure.

Two sources of input: Python code generated from the grammar (hypothesmith), used as the whole
file or spliced into a small valid handlers file; and hostile mutations of the golden handlers
files (lines deleted, duplicated, swapped; tokens, NUL and non-UTF-8 bytes, deep brackets and
huge numbers inserted; the file cut short).

Bounded for CI (`BURGEE_FUZZ_EXAMPLES`, default 8 per test; raise it for a longer run).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import hypothesmith
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import GOLDEN

#: Slow: a fuzzer (`pytest -m "not slow"` leaves it out).
pytestmark = pytest.mark.slow

EXAMPLES = int(os.environ.get("BURGEE_FUZZ_EXAMPLES", "8"))
# NOTE: the grammar strategies are built on first draw (`st.deferred`): building them takes
# seconds, which every run of the suite, the inner loop too, paid while collecting.
TIMEOUT = 60
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)

GREET = textwrap.dedent(
    '''\
    from burgee import command


    @command(effects="read_only")
    def greet(name: str = "world") -> str:
        """Say hello."""
        return f"Hello, {name}!"
    '''
)
LOCATED = re.compile(r"^handlers\.py:\d+:\d+: error: \S")
SUMMARY = re.compile(r"^burgee: \d+ errors?; nothing written$")


def _run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(
            argv,
            cwd=cwd,
            capture_output=True,
            timeout=TIMEOUT,
            check=False,
            stdin=subprocess.DEVNULL,
            env={k: v for k, v in os.environ.items() if not k.endswith("_DEBUG")},
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{argv[1:]} took longer than {TIMEOUT} s")


def check_gen(work: Path, data: bytes) -> None:
    """Generate from `data` in a fresh directory and assert the contract."""
    for old in work.iterdir():
        old.unlink()
    (work / "handlers.py").write_bytes(data)
    tool = work / "tool.py"
    result = _run([sys.executable, "-m", "burgee", "gen", "handlers.py", "-o", "tool.py"], work)
    err = result.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err[-3000:]
    if result.returncode == 0:
        assert tool.exists(), err
        for args in (["--help"], ["schema"]):
            ran = _run([sys.executable, str(tool), *args], work)
            tool_err = ran.stderr.decode("utf-8", "replace")
            if ran.returncode != 0 and not _imports(work):
                return  # NOTE: the handlers file itself fails when run; so may its tool.
            assert ran.returncode == 0 and "Traceback" not in tool_err, (args, tool_err[-3000:])
        json.loads(ran.stdout)
        return
    assert result.returncode == 2, (result.returncode, err[-3000:])
    assert not tool.exists(), err[-3000:]
    *lines, summary = err.splitlines() or [""]
    assert SUMMARY.match(summary), err[-3000:]
    assert lines, err[-3000:]
    for line in lines:
        assert LOCATED.match(line), err[-3000:]


def _imports(work: Path) -> bool:
    """Whether the handlers file runs without an error when it is imported."""
    code = "import runpy; runpy.run_path('handlers.py', run_name='handlers')"
    return _run([sys.executable, "-c", code], work).returncode == 0


@pytest.fixture
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


# -- grammar-generated code -----------------------------------------------------------------


def _indent(code: str) -> str:
    return textwrap.indent(code, "    ", lambda line: True) if code.strip() else "    pass\n"


def _splice(code: str, where: str) -> str:
    """Put grammar-generated code into GREET where it is read but never run: the tool's
    `--help` and `schema` must not depend on what random code does when it runs."""
    # NOTE: `if False:` keeps module-level code from running when the tool is imported; in
    # the command's body, it runs only when the command does.
    block = "if False:\n" + _indent(code)
    if where == "after":
        return GREET + "\n\n" + block
    if where == "before":
        head, tail = GREET.split("\n\n\n", 1)
        return head + "\n\n" + block + "\n\n" + tail
    head, tail = GREET.split("    return", 1)
    return head + textwrap.indent(block, "    ") + "    return" + tail


@SETTINGS
@given(code=st.deferred(hypothesmith.from_grammar))
def test_grammar_generated_file(work: Path, code: str) -> None:
    check_gen(work, code.encode("utf-8", "surrogatepass"))


@SETTINGS
@given(
    code=st.deferred(hypothesmith.from_grammar),
    where=st.sampled_from(["after", "before", "body"]),
)
def test_grammar_generated_helper_code(work: Path, code: str, where: str) -> None:
    check_gen(work, _splice(code, where).encode("utf-8", "surrogatepass"))


#: Places in GREET for one expression: the default, the annotation, a decorator argument,
#: the docstring, a new decorator argument, the program's name.
SLOTS = [
    ('"world"', None),
    ("name: str", "name: {}"),
    ('effects="read_only"', "effects={}"),
    ('"""Say hello."""', None),
    ('effects="read_only"', 'effects="read_only", help={}'),
    ('effects="read_only"', 'effects="read_only", examples=[{}]'),
    (
        "from burgee import command\n",
        "import burgee\nfrom burgee import command\n\nburgee.program(name={})\n",
    ),
]


@SETTINGS
@given(
    expression=st.deferred(lambda: hypothesmith.from_grammar("eval_input")),
    slot=st.sampled_from(SLOTS),
)
def test_grammar_generated_expression(
    work: Path, expression: str, slot: tuple[str, str | None]
) -> None:
    old, new = slot
    value = "(" + expression.strip() + "\n)"
    check_gen(
        work, GREET.replace(old, (new or "{}").format(value), 1).encode("utf-8", "surrogatepass")
    )


# -- mutations of the golden handlers files -------------------------------------------------

TOKENS: list[bytes] = [
    b"\x00",
    b"\xff",
    b"\xe9",
    b"\xef\xbb\xbf",
    b"\r",
    b"\x0c",
    b"\t",
    b"\\",
    "\u2028".encode(),
    "é東".encode(),
    b"(" * 300,
    b"[" * 1000,
    b"{" * 120,
    b")",
    b"]",
    b"9" * 5000,
    b"1e999",
    b"-1e400",
    b"0x" + b"f" * 2000,
    b"1j",
    b"None",
    b"...",
    b"@command",
    b"@burgee.command(effects='read_only')",
    b"@group",
    b"def",
    b"async",
    b"await",
    b"lambda: 0",
    b"yield",
    b"class",
    b"return",
    b":",
    b";",
    b",",
    b"=",
    b"->",
    b"*",
    b"**",
    b"/",
    b"|",
    b'"',
    b"'",
    b'"""',
    b"#",
    b"# coding: latin-1\n",
    b"# coding: klingon\n",
    b"\n",
    b"\n    ",
    b"pass",
    b"del ",
    b"global x",
    b"from __future__ import braces\n",
    b"Annotated[",
    b"Option(",
    b"Argument()",
    b"Context",
    b"list[",
    b"dict[str, ",
    b"Literal[",
    b"str | None",
    b"Optional[" * 150,
    b"+".join([b"1"] * 3000),
    b"x" * 100_000,
    b"'" + b"a" * 100_000 + b"'",
]


@st.composite
def _mutated(draw: st.DrawFn, original: bytes) -> bytes:
    lines = original.splitlines(keepends=True)
    for _ in range(draw(st.integers(1, 4))):
        if not lines:
            break
        op = draw(
            st.sampled_from(["delete", "duplicate", "swap", "insert", "bytes", "word", "truncate"])
        )
        at = draw(st.integers(0, len(lines) - 1))
        if op == "delete":
            del lines[at]
        elif op == "duplicate":
            lines.insert(at, lines[at])
        elif op == "swap":
            other = draw(st.integers(0, len(lines) - 1))
            lines[at], lines[other] = lines[other], lines[at]
        elif op in ("insert", "bytes", "word"):
            line = lines[at]
            col = draw(st.integers(0, len(line)))
            if op == "insert":
                token = draw(st.sampled_from(TOKENS))
            elif op == "bytes":
                token = draw(st.binary(min_size=1, max_size=8))
            else:
                words = re.findall(rb"[A-Za-z_][A-Za-z0-9_]*|\"[^\"\n]*\"|\d+", original)
                token = draw(st.sampled_from(words))
                end = re.match(rb"[A-Za-z0-9_]*", line[col:])
                line = line[:col] + line[col + (len(end.group()) if end else 0) :]
            lines[at] = line[:col] + token + line[col:]
        else:
            data = b"".join(lines)
            cut = draw(st.integers(0, len(data)))
            lines = data[:cut].splitlines(keepends=True)
    return b"".join(lines)


@pytest.mark.parametrize("case", ["kitchen", "settings"])
def test_mutated_golden_handlers(work: Path, case: str) -> None:
    original = (GOLDEN / case / "handlers.py").read_bytes()

    @SETTINGS
    @given(data=_mutated(original))
    def mutated(data: bytes) -> None:
        check_gen(work, data)

    mutated()
