"""`burgee gen` checks what agents will be taught: every example parses with its command's own
parser, and warnings (exit 0, errors with --strict) name what the clispec scorer or an agent
would stumble on."""

from __future__ import annotations

import ast
import gc
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from burgee import cli
from burgee.model.diagnostics import GenerationError
from burgee.render import tables
from burgee.write import examples
from burgee.write.generate import generate
from tests.helpers import burgee, burgee_in_process, run

KITCHEN = '''\
from typing import Annotated, Literal

from burgee import Argument, Option, command, group, program

program(name="kitchen")
store = group("store", help="The store.")


@command(effects="read_only", cardinality="bounded", examples=[{examples}])
def list_items(
    limit: int = 3,
    tag: Annotated[list[str], Option("-t")] = [],
    size: Literal["s", "m"] = "s",
) -> list[str]:
    """List items."""
    return ["a"] * limit


@store.command(effects="idempotent", examples=["kitchen store put pie 2"])
def put(
    name: Annotated[str, Argument()],
    count: Annotated[int, Argument()],
    price: float = 1.0,
) -> str:
    """Put an item."""
    return name
'''


def _diagnostics(examples: str) -> list[str]:
    source = KITCHEN.format(examples=examples)
    try:
        generate(source, "kitchen.py")
    except GenerationError as error:
        return [str(d) for d in error.diagnostics]
    return []


@pytest.mark.parametrize(
    "example",
    [
        "kitchen list-items",
        "kitchen list-items --limit 2 -t x -t y --size m --json",
        "kitchen --json list-items --limit=2",
        "kitchen list-items --json '{\"limit\": 2}'",
        "kitchen list-items | jq .data",
        "kitchen list-items -o json --timeout 3",
    ],
)
def test_examples_that_parse_generate(example: str) -> None:
    assert _diagnostics(repr(example)) == []


@pytest.mark.parametrize(
    ("example", "reason"),
    [
        ("kitchen list --json", "unknown command 'list'"),
        ("kitchen list-items --limit x", "--limit: expected an integer, got 'x'"),
        ("kitchen list-items --lmit 2", "unrecognized arguments: --lmit"),
        ("kitchen list-items --size xl", "--size: expected one of s, m, got 'xl'"),
        ("kitchen list-items extra", "unrecognized arguments: extra"),
        ("kitchen list-items --json '{\"limt\": 2}'", "unknown key 'limt'"),
        ("kitchen list-items --json '[1]'", "--json input must be a JSON object"),
        ("kitchen list-items --json=[1]", "--json input must be a JSON object"),
        ("kitchen list-items --timeout soon", "--timeout: expected a positive number"),
        ("kitchen store", "'store' is a group, not a command"),
        ("kitchen store put pie 2", "it runs 'store put', not 'list-items'"),
        ("kitchn list-items", "it must start with the program's name, 'kitchen'"),
        ("kitchen 'list-items", "it is not a command line (No closing quotation)"),
        ("kitchen list-items --help", "it asks for help; an example runs the command"),
        ("kitchen list-items -h --limit 2", "it asks for help; an example runs the command"),
    ],
)
def test_an_example_that_does_not_parse_is_an_error_at_its_place(example: str, reason: str) -> None:
    found = _diagnostics(f'"kitchen list-items", {example!r}')
    line = KITCHEN.splitlines()[8]
    column = line.index("{examples}") + len('"kitchen list-items", ') + 1
    assert len(found) == 1, found
    assert found[0].startswith(
        f"kitchen.py:9:{column}: error: example '{example}' does not parse: {reason}"
    ), found


def test_a_missing_required_value_is_reported_unless_it_may_come_from_the_environment() -> None:
    source = textwrap.dedent(
        """\
        from burgee import command, program

        program(name="kitchen"{prefix})


        @command(effects="read_only", examples=["kitchen greet"])
        def greet(name: str) -> str:
            \"\"\"Greet.\"\"\"
            return name
        """
    )
    with pytest.raises(GenerationError) as raised:
        generate(source.format(prefix=""), "kitchen.py")
    assert [str(d) for d in raised.value.diagnostics] == [
        "kitchen.py:6:41: error: example 'kitchen greet' does not parse: --name is required"
    ]
    generate(source.format(prefix=', env_prefix="KITCHEN"'), "kitchen.py")


@pytest.mark.parametrize("settings", [", config=True", ', env_prefix="KITCHEN"'])
def test_an_argument_left_out_of_json_input_is_required_as_the_tool_requires_it(
    settings: str,
) -> None:
    """A config file or env vars give options their values, never arguments: the example
    check asks the tool's own rule (`sources._layered`), and the tool refuses this line too."""
    source = textwrap.dedent(
        """\
        from typing import Annotated

        from burgee import Argument, command, program

        program(name="kitchen"{settings})


        @command(effects="read_only", examples=["kitchen greet --json '{{}}'"])
        def greet(name: Annotated[str, Argument()]) -> str:
            \"\"\"Greet.\"\"\"
            return name
        """
    )
    with pytest.raises(GenerationError) as raised:
        generate(source.format(settings=settings), "kitchen.py")
    [diagnostic] = raised.value.diagnostics
    assert "example 'kitchen greet --json '{}'' does not parse:" in str(diagnostic)
    assert str(diagnostic).endswith(" is required")


def test_a_help_flag_before_a_root_commands_words_asks_for_help() -> None:
    """The tool's lookup names no command there (it shows the program's help): the check says
    the example asks for help, not that it names no command."""
    source = textwrap.dedent(
        """\
        from burgee import command, program

        program(name="kitchen")


        @command(effects="read_only", root=True, examples=["kitchen --help", "kitchen x"])
        def greet(name: str = "x") -> str:
            \"\"\"Greet.\"\"\"
            return name
        """
    )
    with pytest.raises(GenerationError) as raised:
        generate(source, "kitchen.py")
    assert [str(d) for d in raised.value.diagnostics] == [
        "kitchen.py:6:52: error: example 'kitchen --help' does not parse: it asks for help; an"
        " example runs the command",
        "kitchen.py:6:70: error: example 'kitchen x' does not parse: unrecognized arguments: x",
    ]


@pytest.mark.parametrize(
    ("example", "reason"),
    [
        ("kitchen pick --limit 9", "--limit: "),
        ("kitchen pick --code ab1", "--code: "),
        ("kitchen pick --limit 2 --code ab", ""),
        ("kitchen pick --pair 1 x", "--pair: "),
        ("kitchen pick --pair 1 2 -l a=1 -l b=2 --tag 1 --tag 2", ""),
    ],
)
def test_an_example_value_is_converted_as_the_tool_converts_it(example: str, reason: str) -> None:
    """The example's values go through the converter the command's row names, bounds and text
    rules included (`table._converter`), as the tool's would."""
    source = textwrap.dedent(
        """\
        from typing import Annotated

        from burgee import Option, command, program

        program(name="kitchen")


        @command(effects="read_only", examples=["{example}"])
        def pick(
            limit: Annotated[int, Option(min=1, max=5)] = 1,
            code: Annotated[str, Option(pattern="^[a-z]+$")] = "a",
            pair: tuple[int, int] = (0, 0),
            label: Annotated[dict[str, int], Option("-l")] = {{}},
            tag: list[int] = [],
        ) -> str:
            \"\"\"Pick.\"\"\"
            return code
        """
    )
    if not reason:
        generate(source.format(example=example), "kitchen.py")
        return
    with pytest.raises(GenerationError) as raised:
        generate(source.format(example=example), "kitchen.py")
    [diagnostic] = raised.value.diagnostics
    assert f"example '{example}' does not parse: {reason}" in str(diagnostic)


LIST_WITHOUT_CARDINALITY = '''\
from burgee import command


@command(effects="read_only", examples=["tool names"])
def names() -> list[str]:
    """Names."""
    return []
'''


def test_a_list_without_cardinality_warns_and_strict_refuses(tmp_path: Path) -> None:
    handlers = tmp_path / "handlers.py"
    handlers.write_text(LIST_WITHOUT_CARDINALITY, encoding="utf-8")
    warned = burgee_in_process(
        "gen", "handlers.py", "--name", "tool", "-o", "tool.py", cwd=tmp_path
    )
    assert warned.returncode == 0, warned.stderr
    warning = (
        "handlers.py:4:1: warning: command 'names' returns a list but does not say how long: "
        "add cardinality='bounded' (a few items) or 'unbounded' (it can grow without limit); "
        "until then its schema says 'bounded' (burgee_guessed)"
    )
    assert warned.stderr.splitlines() == [warning, "burgee: wrote tool.py"]
    (tmp_path / "tool.py").unlink()
    strict = burgee_in_process(
        "gen", "handlers.py", "--name", "tool", "-o", "tool.py", "--strict", cwd=tmp_path
    )
    assert strict.returncode == 2
    assert strict.stderr.splitlines() == [
        warning.replace(": warning: ", ": error: "),
        "burgee: 1 error; nothing written",
    ]
    assert not (tmp_path / "tool.py").exists()


def test_a_command_without_a_return_annotation_warns_and_returns_anything(
    tmp_path: Path,
) -> None:
    handlers = tmp_path / "handlers.py"
    handlers.write_text(
        'from burgee import command\n\n\n@command(effects="read_only")\n'
        'def hello(name: str = "world"):\n    """Greet."""\n    return f"Hello, {name}!"\n',
        encoding="utf-8",
    )
    warned = burgee_in_process(
        "gen", "handlers.py", "--name", "tool", "-o", "tool.py", cwd=tmp_path
    )
    assert warned.stderr.splitlines() == [
        "handlers.py:4:1: warning: command 'hello' has no return annotation: its result is "
        "neither described nor checked; annotate it (-> str, -> None, ...)",
        "burgee: wrote tool.py",
    ]
    # NOTE: as its output schema says (any value): before, the runtime expected null.
    result = run(tmp_path / "tool.py", "hello", "--json")
    assert (result.code, result.json()["data"]) == (0, "Hello, world!")
    tools = run(tmp_path / "tool.py", "--llms").json()["tools"]
    schema = next(tool for tool in tools if tool["name"] == "hello")["outputSchema"]
    assert schema["properties"]["result"] == {}


def test_a_command_without_a_docstring_warns(tmp_path: Path) -> None:
    handlers = tmp_path / "handlers.py"
    handlers.write_text(
        'from burgee import command, prompt, resource\n\n\n@command(effects="read_only")\n'
        "def hello() -> str:\n    return 'hi'\n\n\n"
        '@command(effects="read_only", hidden=True)\ndef quiet() -> str:\n    return ""\n\n\n'
        "@prompt\ndef ask() -> str:\n    return 'q'\n\n\n"
        '@resource("t://x")\ndef x() -> str:\n    return "x"\n',
        encoding="utf-8",
    )
    warned = burgee_in_process(
        "gen", "handlers.py", "--name", "tool", "-o", "tool.py", cwd=tmp_path
    )
    assert warned.stderr.splitlines() == [
        "handlers.py:4:1: warning: command 'hello' has no docstring: its help, its MCP tool "
        "description and its line in the skill are empty",
        "handlers.py:14:1: warning: prompt 'ask' has no docstring: its MCP description is empty",
        "handlers.py:19:1: warning: resource 't://x' has no docstring: its MCP description is "
        "empty",
        "burgee: wrote tool.py",
    ]


def test_the_issue_example_is_refused_by_the_cli(tmp_path: Path) -> None:
    handlers = tmp_path / "kitchen.py"
    handlers.write_text(KITCHEN.format(examples='"kitchen list --json"'), encoding="utf-8")
    result = burgee("gen", "kitchen.py", "-o", "kitchen_tool.py", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"kitchen.py:9:{KITCHEN.splitlines()[8].index('{examples}') + 1}: error: "
        "example 'kitchen list --json' does not parse: "
        "unknown command 'list'",
        "burgee: 1 error; nothing written",
    ]
    assert not (tmp_path / "kitchen_tool.py").exists()


def test_the_examples_check_reads_the_program_once_not_once_per_example(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each example is read against the program's commands and the flags they take over; made
    per example, that walked every command for each, and `gen` grew with the square of them."""
    walks: list[object] = []

    def counted(program: object) -> object:
        walks.append(program)
        return tables.lookup(program)  # type: ignore[arg-type]

    monkeypatch.setattr(examples, "lookup", counted)
    command = textwrap.dedent(
        '''
        @command(effects="read_only", examples=["many c{n} --name Ada"])
        def c{n}(name: str) -> str:
            """Greet."""
            return name
        '''
    )
    source = "from burgee import command, program\n\nprogram(name='many')\n" + "".join(
        command.format(n=n) for n in range(20)
    )
    generate(source, "many.py")
    assert len(walks) == 1


def _many(examples_of: dict[int, str]) -> str:
    """A program of 20 commands, `c{n}`, each with the example `many c{n} --name Ada` or the one
    `examples_of` gives it."""
    command = textwrap.dedent(
        '''
        @command(effects="read_only", examples=[{example!r}])
        def c{n}(name: str) -> str:
            """Greet."""
            return name
        '''
    )
    return "from burgee import command, program\n\nprogram(name='many')\n" + "".join(
        command.format(n=n, example=examples_of.get(n, f"many c{n} --name Ada")) for n in range(20)
    )


def test_an_example_is_read_as_the_tool_reads_its_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """A plainly valid example by the quick reading, from its command's arguments recorded once
    (`_Invocation` asks for them more than once an example); argparse, whose parser cost more
    than the rest of the check, only reads the others (`--` here)."""
    builds: list[str] = []
    parsers: list[str] = []
    build, new_parser = examples._build, examples._new_parser
    monkeypatch.setattr(
        examples,
        "_build",
        lambda program, command: builds.append(command.name) or build(program, command),
    )
    monkeypatch.setattr(
        examples, "_new_parser", lambda made, prog: parsers.append(prog) or new_parser(made, prog)
    )
    generate(_many({1: "many c1 --name Ada --"}), "many.py")
    assert sorted(builds) == sorted([f"c{n}" for n in range(20)] + ["c1"])
    assert parsers == ["many c1"]


def test_gen_parses_the_handlers_code_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The handlers' code as the tool keeps it is read for its names, what runs when, and the
    arities of its functions: one parse for all (`catalog.code_tree`)."""
    parsed: list[str] = []
    parse = ast.parse

    def counted(source: str, *args: Any, **options: Any) -> ast.AST:
        parsed.append(source)
        return parse(source, *args, **options)

    monkeypatch.setattr(ast, "parse", counted)
    program, _ = generate(_many({}).replace("Greet.", "Greet, again."), "many.py")
    assert parsed.count(program.user_code) == 1


def test_gen_parses_the_handlers_file_once_and_walks_none_of_it_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every step reads the one tree of the handlers file (`source.tree`); which dialect the
    file is in, and what it uses of click and typer, are read from its imports alone. For a
    1,000-command file, each parse or walk of the whole of it cost a tenth of a second."""
    source = _many({}).replace("Greet.", "Greet, parsed once.")
    trees: list[ast.AST] = []
    walked: list[ast.AST] = []
    parse, walk = ast.parse, ast.walk

    def parsed(text: str, *args: Any, **options: Any) -> ast.AST:
        found = parse(text, *args, **options)
        if text == source:
            trees.append(found)
        return found

    def walking(node: ast.AST) -> Any:
        if any(node is tree for tree in trees):
            walked.append(node)
        return walk(node)

    monkeypatch.setattr(ast, "parse", parsed)
    monkeypatch.setattr(ast, "walk", walking)
    generate(source, "many.py")
    assert len(trees) == 1
    assert walked == []


def test_gen_runs_without_the_cyclic_collector_and_leaves_it_as_it_was(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The pipeline's objects live until it ends; the collector walking them again and again
    as they grew was a third of a large program's `gen`."""
    seen: list[bool] = []
    check = examples.check

    def checked(program: Any) -> Any:
        seen.append(gc.isenabled())
        return check(program)

    monkeypatch.setattr(examples, "check", checked)
    assert gc.isenabled()
    generate(_many({}), "many.py")
    assert seen == [False]
    assert gc.isenabled()


def test_the_checks_run_while_ruff_formats_the_module(monkeypatch: pytest.MonkeyPatch) -> None:
    """ruff formats the module in its own process (a tenth of a second for 1,000 commands)
    while gen checks the examples; a failed check still ends gen, ruff reaped."""
    from burgee.render import format as formatting  # noqa: PLC0415

    events: list[str] = []
    popen = formatting.subprocess.Popen
    check = examples.check

    def started(*args: Any, **kwargs: Any) -> Any:
        events.append("ruff started")
        return popen(*args, **kwargs)

    def checked(program: Any) -> Any:
        events.append("checked")
        return check(program)

    monkeypatch.setattr(formatting.subprocess, "Popen", started)
    monkeypatch.setattr(examples, "check", checked)
    generate(_many({}), "many.py")
    # NOTE: the module's formatting is the last ruff started (the runtime's stubs come first).
    assert events[-2:] == ["ruff started", "checked"]
    with pytest.raises(GenerationError, match="does not parse"):
        generate(_many({3: "nope c3"}), "many.py")


def _keep_programs(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The programs gen reads from now on, each kept (as the examples check gets it)."""
    programs: list[Any] = []
    check = examples.check

    def kept(program: Any) -> Any:
        programs.append(program)
        return check(program)

    monkeypatch.setattr(examples, "check", kept)
    return programs


def test_what_a_burgee_command_leaves_is_in_the_oldest_generation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the pipeline leaves alive (the IR, the cached trees) goes to the collector's
    oldest generation as a whole when the command ends: left in the youngest, the first
    collection after walked it all (a tenth of a 1,000-command gen)."""
    handlers = tmp_path / "many.py"
    handlers.write_text(_many({}), encoding="utf-8")
    programs = _keep_programs(monkeypatch)
    assert cli.main(["gen", str(handlers), "-o", str(tmp_path / "tool.py")]) == 0
    assert gc.isenabled()
    assert any(found is programs[-1] for found in gc.get_objects(generation=2))


def _command_run(
    tmp_path: Path, before: str = "", after: str = ""
) -> subprocess.CompletedProcess[str]:
    """A process that runs `before`, then `cli.command()` (a `burgee gen` of a missing file)
    and, if that returned, prints so and runs `after`."""
    script = (
        "import atexit, sys, threading\n"
        "from burgee import cli\n"
        "atexit.register(lambda: print('exit handler ran', flush=True))\n"
        f"sys.argv = ['burgee', 'gen', {str(tmp_path / 'missing.py')!r}]\n"
        f"{before}\n"
        "code = cli.command()\n"
        "print('returned', code, flush=True)\n"
        f"{after}\n"
    )
    return subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )


def test_the_burgee_command_ends_its_process_after_its_exit_handlers(tmp_path: Path) -> None:
    """`cli.command` (the console script, `python -m burgee`) ends the process itself, with
    the command's exit code and its output flushed, after the exit handlers ran: what gen left
    is not torn down one object at a time."""
    done = _command_run(tmp_path)
    assert done.returncode == 2
    assert done.stdout == "exit handler ran\n"
    assert "cannot read the handlers file" in done.stderr


def test_the_burgee_command_leaves_the_end_to_python_while_a_thread_runs(tmp_path: Path) -> None:
    done = _command_run(
        tmp_path, "go = threading.Event(); threading.Thread(target=go.wait).start()", "go.set()"
    )
    assert done.returncode == 0
    assert done.stdout == "returned 2\nexit handler ran\n"


def test_the_burgee_command_leaves_its_objects_out_of_the_collection_at_exit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Python collects once more at exit, walking every object gen left: as long as the rest
    of a 1,000-command `gen`. The command (argv from the process) freezes them; a caller that
    passes argv (tests, in-process) keeps its collector as it was."""
    handlers = tmp_path / "many.py"
    handlers.write_text(_many({}), encoding="utf-8")
    words = ["gen", str(handlers), "-o", str(tmp_path / "tool.py")]
    programs = _keep_programs(monkeypatch)
    monkeypatch.setattr(sys, "argv", ["burgee", *words])
    seen: list[bool] = []
    try:
        for argv in (None, words):
            assert cli.main(argv) == 0
            # NOTE: the collector's generations hold what it may walk; frozen objects: none.
            seen.append(any(found is programs[-1] for found in gc.get_objects()))
            gc.unfreeze()
    finally:
        gc.unfreeze()
    assert seen == [False, True]


def test_a_default_that_is_the_tools_config_file_is_a_warning(tmp_path: Path) -> None:
    """A config=True tool reads ./NAME.json as its configuration: a command whose default
    path is that file would, once it wrote it, break every command."""
    (tmp_path / "handlers.py").write_text(
        textwrap.dedent(
            '''\
            from pathlib import Path

            from burgee import command, program

            program(name="notebook", config=True)


            @command(effects="non_idempotent")
            def add(
                title: str, store: Path = Path("notebook.json"), log: str = "./notebook.toml"
            ) -> str:
                """Add a note."""
                return title
            '''
        ),
        encoding="utf-8",
    )
    result = burgee_in_process("gen", "handlers.py", "-o", "notebook.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    said = "is the file this tool reads its configuration from (config=True)"
    warned = [line for line in result.stderr.splitlines() if said in line]
    assert [line.split(": warning: the default of ")[1].split(",")[0] for line in warned] == [
        "'store'",
        "'log'",
    ]
    assert warned[0].startswith("handlers.py:10:")


ENV_AND_STDIN = '''\
from typing import Annotated

from burgee import Option, command, program

program(name="kitchen", env_prefix="KITCHEN")


@command(effects="read_only", cardinality="bounded", examples=[{example!r}])
def list_items(
    limit: int = 3,
    tag: list[int] = [],
    data: Annotated[str, Option(help="The data; - reads stdin.")] = "",
) -> list[str]:
    """List items."""
    return ["a"] * limit
'''


@pytest.mark.parametrize(
    ("example", "reason"),
    [
        ("KITCHEN_LIMIT=5 kitchen list-items", ""),
        ("KITCHEN_LIMIT= KITCHEN_TAG='1 2' kitchen list-items --data x | jq .", ""),
        ("echo hi | kitchen list-items --data -", ""),
        ("cat < notes.txt | kitchen list-items --data - | jq .data > out.json", ""),
        (
            "KITCHEN_LIMT=5 kitchen list-items",
            "KITCHEN_LIMT is not an env var 'list-items' reads (it reads KITCHEN_DATA, "
            "KITCHEN_LIMIT, KITCHEN_TAG)",
        ),
        ("KITCHEN_LIMIT=x kitchen list-items", "KITCHEN_LIMIT: expected an integer, got 'x'"),
        ("KITCHEN_TAG='1 x' kitchen list-items", "KITCHEN_TAG: expected an integer, got 'x'"),
        ("echo hi | jq .", "it must start with the program's name, 'kitchen'"),
        ("echo hi | kitchen list-items --lmit 2", "unrecognized arguments: --lmit"),
    ],
)
def test_an_example_may_set_env_vars_and_read_a_pipeline(example: str, reason: str) -> None:
    """`TOOL_LIMIT=5 tool list` and `echo hi | tool post --data -` are how people run a
    command: the env vars must be ones the command reads, their values read as it reads them."""
    source = ENV_AND_STDIN.format(example=example)
    if not reason:
        generate(source, "kitchen.py")
        return
    with pytest.raises(GenerationError) as raised:
        generate(source, "kitchen.py")
    [diagnostic] = raised.value.diagnostics
    assert f"example '{example}' does not parse: {reason}" in str(diagnostic)


def test_an_example_with_env_vars_and_a_pipeline_is_shown_as_written(tmp_path: Path) -> None:
    example = "echo 2 | KITCHEN_LIMIT=5 kitchen list-items --data - | jq .data"
    handlers = tmp_path / "kitchen.py"
    handlers.write_text(ENV_AND_STDIN.format(example=example), encoding="utf-8")
    done = burgee_in_process("gen", "kitchen.py", "-o", "tool.py", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    tool = tmp_path / "tool.py"
    assert f"  {example}\n" in run(tool, "list-items", "--help").out
    [entry] = [c for c in run(tool, "schema").json()["commands"] if c["name"] == "list-items"]
    assert entry["usage_examples"] == [example]
    assert entry["example"] == {"args": ["list-items", "--data", "-"]}
    skill = run(tool, "--skill").out
    # NOTE: the program typed as the skill says to run it, where the example types it.
    assert (
        "  Example: `echo 2 | KITCHEN_LIMIT=5 python tool.py list-items --data - | jq .data`"
        in skill
    )
