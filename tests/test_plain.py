"""`burgee gen --plain`: the tool as ordinary code (no string, no cache), answering exactly as
the default form does.

Each golden program and example is built both ways and asked the same things (help, every
command with --json input and bad input, the documents, errors, an MCP session over stdio);
every answer must be the same, byte for byte, as must the answers to `--json` input drawn
from each command's input schema (and broken), as in tests/test_one_path.py. The questions
are asked in this process through each form's `invoke()` (`helpers.InProcess`), but the MCP
session, a process of its own; the tests after them run both forms as processes.
tests/test_golden.py lints and type-checks the plain builds.
"""

from __future__ import annotations

import ast
import json
import os
import py_compile
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from burgee.render.join import _unquoted
from burgee.render.sections import HEADING
from burgee.runtime.catalog import Chunk
from burgee.runtime.start.boot import _CODE_OPEN, SECTION_BEGIN
from tests.helpers import GOLDEN, REPO, InProcess, burgee_in_process, run
from tests.mcp_wire import INIT, line
from tests.regen import golden_output
from tests.test_one_path import PROGRAMS, _environment, _inputs

CASES = sorted(p.parent for p in GOLDEN.glob("*/handlers.py")) + sorted(
    p.parent for p in (REPO / "examples").glob("*/handlers.py")
)
#: The input a command gets instead of `{}`: it would wait for ten seconds.
INPUTS = {"wait": {"seconds": 0}}


def _id(case: Path) -> str:
    return str(case.relative_to(REPO))


def _home_environment(home: Path) -> dict[str, str]:
    keep = ("PATH", "SYSTEMROOT", "PYTHONPATH", "BURGEE_CACHE_DIR")
    return {k: v for k, v in os.environ.items() if k in keep} | {
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "PYTHONIOENCODING": "utf-8",
    }


def _answers(module: Path, work: Path) -> list[tuple[list[str], int, str, str]]:
    """Everything the tool answers to a fixed set of questions, asked in a fresh `work`: in
    this process through its `invoke()` (as a fresh process in `work` with only `env` would
    be), but the MCP session, which reads the process's own stdin."""
    shutil.rmtree(work, ignore_errors=True)
    (work / "home").mkdir(parents=True)
    tool = work / module.name
    shutil.copy(module, tool)
    env = _home_environment(work / "home")
    inside = InProcess(tool, f"answers_{work.name}_{len(sys.modules)}", work, env)

    def ask(*args: str) -> tuple[list[str], int, str, str]:
        done = inside.ask(*args)
        return list(args), done.exit_code, done.stdout, done.stderr

    answers = [
        ask(*args)
        for args in (
            ["--help"],
            ["--version"],
            ["schema"],
            ["--llms"],
            ["--skill"],
            ["completion", "bash"],
            ["no-such-command"],
            ["--json", "no-such-command"],
        )
    ]
    document = json.loads(answers[2][2])
    commands = [c["name"] for c in document["commands"] if c["name"] not in ("schema", "output")]
    for name in commands:
        path = name.split()
        given = INPUTS.get(name, {})
        answers += [
            ask(*path, "--help"),
            ask(*path, "--json", json.dumps(given)),
            ask(*path, "--json", '{"no_such_input": 1}'),
            *([] if given else [ask(*path)]),
        ]
    answers.append(_session(tool, work, env))
    return answers


def _session(tool: Path, work: Path, env: dict[str, str]) -> tuple[list[str], int, str, str]:
    """An MCP session over the process's stdin: initialize, the tools it lists, then the
    prompts, an unknown method and a call of each tool listed (one process: the calls are
    written once the list is read)."""
    opening = [
        INIT,
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
    ]
    process = subprocess.Popen(
        [sys.executable, str(tool), "--mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=work,
        env=env,
    )
    assert process.stdin is not None and process.stdout is not None
    timer = threading.Timer(60, process.kill)
    timer.start()
    try:
        process.stdin.write(b"".join(line(message) for message in opening))
        process.stdin.flush()
        read: list[bytes] = []
        while not read or json.loads(read[-1]).get("id") != 1:
            text = process.stdout.readline()
            assert text, "the session ended before it listed its tools"
            read.append(text)
        listed = json.loads(read[-1])["result"]["tools"]
        rest: list[Any] = [
            {"jsonrpc": "2.0", "id": 2, "method": "prompts/list"},
            {"jsonrpc": "2.0", "id": 3, "method": "no/such-method"},
        ]
        for number, tool_entry in enumerate(listed, 10):
            name = tool_entry["name"]
            arguments = INPUTS.get(name.replace("_", " "), {})
            params = {"name": name, "arguments": arguments}
            rest.append({"jsonrpc": "2.0", "id": number, "method": "tools/call", "params": params})
        out, err = process.communicate(b"".join(line(message) for message in rest))
    finally:
        timer.cancel()
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 0, err
    # NOTE: answers to different requests may come in either order.
    text = (b"".join(read) + out).decode("utf-8")
    return ["--mcp"], process.returncode, "\n".join(sorted(text.splitlines())), err.decode("utf-8")


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_the_plain_form_answers_as_the_default_form(
    case: Path, plain_tool: Callable[[Path], Path], tmp_path: Path
) -> None:
    plain = plain_tool(case)
    default = _answers(golden_output(case), tmp_path / "run")
    assert _answers(plain, tmp_path / "run") == default
    assert "Traceback" not in "".join(err for _, _, _, err in default)


class _Pair:
    """One golden program, built both ways, in one scratch folder, each asked in this process
    through its `invoke()`."""

    def __init__(self, program: str, plain: Path, work: Path) -> None:
        self.default = work / golden_output(GOLDEN / program).name
        shutil.copy(golden_output(GOLDEN / program), self.default)
        self.plain = work / "plain.py"
        shutil.copy(plain, self.plain)
        self.work = work
        self.env = _environment()
        self.tools = {
            tool: InProcess(tool, f"pair_{program}_{tool.stem}", work, self.env)
            for tool in (self.default, self.plain)
        }
        document = json.loads(self.ask(self.default, "schema").stdout)
        self.commands = {c["name"]: c for c in document["commands"] if c["name"] != "schema"}

    def ask(self, tool: Path, *args: str) -> subprocess.CompletedProcess[str]:
        """Ask one of the two files; the command lines it prints (`next[]`, hints) name its own
        path, the one difference allowed between them, so it reads TOOL in the answer."""
        done = self.tools[tool].ask(*args)
        return subprocess.CompletedProcess(
            args,
            done.exit_code,
            done.stdout.replace(str(tool), "TOOL"),
            done.stderr.replace(str(tool), "TOOL"),
        )


@pytest.fixture(scope="module", params=PROGRAMS)
def pair(
    request: pytest.FixtureRequest,
    plain_tool: Callable[[Path], Path],
    tmp_path_factory: pytest.TempPathFactory,
) -> _Pair:
    program = request.param
    return _Pair(program, plain_tool(GOLDEN / program), tmp_path_factory.mktemp(program))


@pytest.mark.slow
@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_drawn_json_input_gets_the_same_answer_from_both_forms(
    pair: _Pair, data: st.DataObject
) -> None:
    command, values, _ = data.draw(_inputs(pair))
    bypass = pair.commands[command].get("confirmation_bypass_arg")
    args = [*command.split(), *([bypass] if bypass else []), "--json", json.dumps(values)]
    default, plain = pair.ask(pair.default, *args), pair.ask(pair.plain, *args)
    assert (plain.returncode, plain.stdout, plain.stderr) == (
        default.returncode,
        default.stdout,
        default.stderr,
    )
    assert "Traceback" not in default.stderr


def _handler_names(handlers: Path) -> set[str]:
    """The handlers file's top-level functions that burgee's decorators mark."""
    tree = ast.parse(handlers.read_text(encoding="utf-8"))
    return {
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.decorator_list
    }


@pytest.mark.parametrize("case", ["kitchen", "pantry"])
def test_a_plain_tool_is_ordinary_code(case: str, plain_tool: Callable[[Path], Path]) -> None:
    """No code in a string, no code cache, no stand-ins: every handler and `main` is a
    function of the module, as `ast` (and coverage, linters, debuggers) see it."""
    source = plain_tool(GOLDEN / case).read_text(encoding="utf-8")
    # NOTE: `_CODE_OPEN`'s text may be a constant (`--debug` looks for packed code to show
    # its lines: there is none); never a line that opens a string of code. The private cache
    # is there in either form (`BURGEE_CACHE_DIR`): the documents a session reads are kept in
    # it decompressed (`core/embedded._kept`), and cut answers are saved under it.
    for absent in ("\n" + _CODE_OPEN.partition("\n")[0], SECTION_BEGIN):
        assert absent not in source
    tree = ast.parse(source)
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    assert not names & {"_boot", "_LAZY", "_load_code", "_compiled", "_stand_ins"}
    functions = {
        node.name for node in tree.body if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    }
    handlers = _handler_names(GOLDEN / case / "handlers.py")
    assert handlers
    assert handlers | {"main", "invoke"} <= functions
    strings = [
        node
        for node in tree.body[1:]
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    ]
    assert strings == []  # NOTE: the docstring aside: no code kept as text


def test_a_plain_tool_reads_and_writes_no_code_cache(
    plain_tool: Callable[[Path], Path], tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    env = {"BURGEE_CACHE_DIR": str(cache), "HOME": str(tmp_path)}
    default = tmp_path / "default" / "kitchen.py"
    default.parent.mkdir()
    shutil.copy(golden_output(GOLDEN / "kitchen"), default)
    plain = plain_tool(GOLDEN / "kitchen")
    for tool in (plain, default):
        assert run(tool, "--help", env=env).code == 0
        assert run(tool, "types", "a", "1", "--json", env=env).json()["ok"]
        assert run(tool, "--mcp", stdin=line(INIT).decode(), env=env).code == 0
        if tool == plain:
            assert list(cache.iterdir()) == []
    # NOTE: the default form, run the same way, does keep its code there.
    assert list(cache.iterdir()) != []


def test_a_plain_tool_runs_from_its_pyc_alone(
    plain_tool: Callable[[Path], Path], tmp_path: Path
) -> None:
    """A sourceless install (only the .pyc) runs, as any module does; the default form
    refuses, since its code is in the source it reads."""
    compiled = tmp_path / "kitchen.pyc"
    py_compile.compile(str(plain_tool(GOLDEN / "kitchen")), cfile=str(compiled), doraise=True)
    done = run(compiled, "types", "a", "1", "--json")
    assert done.code == 0, done
    assert done.json()["data"]["number"] == 1


def test_a_plain_tool_puts_the_usual_ctrl_c_back_once_imported(
    plain_tool: Callable[[Path], Path],
) -> None:
    """The Ctrl-C held while the code is defined (for `main` to answer) is released at the
    module's end: importing the tool leaves Python's own handler in place."""
    tool = str(plain_tool(GOLDEN / "minimal"))
    script = (
        "import importlib.util, signal, sys\n"
        f"spec = importlib.util.spec_from_file_location('tool', {tool!r})\n"
        "module = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(module)\n"
        "assert module._release_interrupts is not None\n"
        "print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout == "True\n"


def test_the_start_up_code_loses_its_quotes_in_the_plain_form() -> None:
    """runtime/start/boot.py quotes what Python 3.9 cannot evaluate without `from __future__ import
    annotations`; under it (the plain form) the quotes are what ruff calls unneeded (UP037).
    Each is replaced by its text, at ast's places (UTF-8 byte columns), and what the text
    names is then used (an import of `Callable` for type checkers)."""
    text = 'def f(a: "é | None", b: int) -> "Callable[[], object]":\n    x: "list[int]" = []\n'
    chunk = Chunk("boot", frozenset({"f"}), frozenset({"int"}), text, True)
    plain = _unquoted(chunk)
    assert plain.text == (
        "def f(a: é | None, b: int) -> Callable[[], object]:\n    x: list[int] = []\n"
    )
    assert {"Callable", "int", "list", "object"} <= plain.uses


# ---- gen: choosing the form ----


def _handlers(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(GOLDEN / "minimal" / "handlers.py", folder / "handlers.py")
    return folder / "handlers.py"


def _is_plain(tool: Path) -> bool:
    return "\n" + HEADING not in tool.read_text(encoding="utf-8")


def test_gen_keeps_the_form_of_the_file_on_disk(tmp_path: Path) -> None:
    """Without --plain/--no-plain, gen and gen --check go by the file already there: a plain
    tool stays plain, and is up to date as such."""
    _handlers(tmp_path)
    gen = ("gen", "handlers.py", "-o", "tool.py")
    assert burgee_in_process(*gen, "--plain", cwd=tmp_path).returncode == 0
    tool = tmp_path / "tool.py"
    assert _is_plain(tool)
    assert "#     burgee gen handlers.py -o tool.py --plain\n" in tool.read_text(encoding="utf-8")
    checked = burgee_in_process(*gen, "--check", cwd=tmp_path)
    assert checked.returncode == 0, checked.stderr
    again = burgee_in_process(*gen, cwd=tmp_path)
    assert again.returncode == 0 and "unchanged" in again.stderr
    assert _is_plain(tool)
    # NOTE: asked for the other form, --check says so, and --no-plain writes it.
    stale = burgee_in_process(*gen, "--check", "--no-plain", cwd=tmp_path)
    assert stale.returncode == 1 and "is stale" in stale.stderr
    assert burgee_in_process(*gen, "--no-plain", cwd=tmp_path).returncode == 0
    assert not _is_plain(tool)
    assert burgee_in_process(*gen, "--check", cwd=tmp_path).returncode == 0
    assert burgee_in_process(*gen, "--check", "--plain", cwd=tmp_path).returncode == 1


def test_pyproject_asks_for_the_plain_form(tmp_path: Path) -> None:
    _handlers(tmp_path)
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(
        '[tool.burgee]\nhandlers = "handlers.py"\noutput = "tool.py"\nplain = true\n',
        encoding="utf-8",
    )
    assert burgee_in_process("gen", cwd=tmp_path).returncode == 0
    assert _is_plain(tmp_path / "tool.py")
    assert burgee_in_process("gen", "--check", cwd=tmp_path).returncode == 0
    # NOTE: the command line wins over pyproject.toml.
    assert burgee_in_process("gen", "--no-plain", cwd=tmp_path).returncode == 0
    assert not _is_plain(tmp_path / "tool.py")
    assert burgee_in_process("check", cwd=tmp_path).returncode == 0
    pyproject.write_text(
        '[tool.burgee]\nhandlers = "handlers.py"\nplain = "yes"\n', encoding="utf-8"
    )
    refused = burgee_in_process("gen", cwd=tmp_path)
    assert refused.returncode == 2
    assert "[tool.burgee] plain must be true or false" in refused.stderr
