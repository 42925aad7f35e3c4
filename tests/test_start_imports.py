"""What a generated tool imports when it starts.

Imports only annotations use never run (`read/runtime_use.py`).

The tool is compiled as under `from __future__ import annotations`, so a handlers file written
as the docs show it (`from typing import Annotated, Literal`) must not make every run import
`typing`; where the code does use a typing name at run time, gen says so in a note.
"""

from __future__ import annotations

import ast
import importlib
import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

from burgee.read.runtime_use import at_definition, runtime_names, type_only_aliases
from burgee.write.generate import checked, generate, read
from tests.helpers import (
    GOLDEN,
    REPO,
    import_tool,
    in_process,
    load_tool,
)
from tests.helpers import (
    generate as generate_tool,
)
from tests.mcp_wire import INIT, line
from tests.test_dialects import _returning

#: Handlers written the way docs/handlers.md shows them.
DOCS_STYLE = textwrap.dedent(
    '''\
    """Greet: says hello."""
    from dataclasses import dataclass
    from datetime import date
    from typing import Annotated, Literal, Optional

    from burgee import Argument, Option, command


    @dataclass
    class Greeting:
        """What was said."""

        text: str
        when: Optional[date] = None


    @command(effects="read_only")
    def hello(
        name: Annotated[str, Argument(help="Who to greet")],
        style: Literal["plain", "loud"] = "plain",
        times: Annotated[int, Option("-n", min=1, max=5)] = 1,
        tags: Annotated[list[str], Option("-t")] = [],
    ) -> Greeting:
        """Greet someone."""
        words: list[str] = [name] * times
        return Greeting(" ".join(words).upper() if style == "loud" else " ".join(words))
    '''
)


def _uses(code: str) -> set[str]:
    return set(runtime_names(ast.parse(textwrap.dedent(code))))


def test_parameter_return_and_variable_annotations_never_run() -> None:
    uses = _uses(
        """
        x: Final = 1
        def f(a: A, *b: B, c: C = d, **e: E) -> R:
            local: L = a
            return local
        """
    )
    assert uses == {"x", "d", "local", "a"}


def test_names_only_defaults_call_are_not_needed_while_the_module_is_defined() -> None:
    """`Path(".")`, `dt.date(2026, 1, 1)`, also as a list's items: made later (a stand-in
    makes them until the first command); any other use while the module is defined (a
    module-level value, a class body, a decorated function's default or one a module-level
    statement calls, a call of a name) keeps the name needed then."""
    code = textwrap.dedent(
        """
        def f(a=Path("."), *, b=[dt.date(2026, 1, 1), dt.date(2026, 1, 2)], c=D("0.1")):
            return Q(a)
        def g(a=Used(1)): ...
        TOP = Used(2)
        @decorate
        def h(a=Wrapped("x")): ...
        def i(a=Called("x")): ...
        I = i()
        class C:
            def m(self, a=Method("x")): ...
        def j(a=Computed(x)): ...
        """
    )
    defining, makers = at_definition(ast.parse(code))
    assert makers == {"Path", "dt", "D"}
    assert not makers & set(defining)
    assert {"Used", "Wrapped", "Called", "Method", "Computed", "decorate"} <= set(defining)


def test_class_annotations_run_where_a_library_may_read_them() -> None:
    # NOTE: a plain class or a dataclass never evaluates its annotations, but dataclass looks
    # for ClassVar/InitVar/KW_ONLY by name; pydantic & co. read them while the class is made.
    dataclass = "@dataclass\nclass A:\n    x: Plain\n    y: ClassVar[int] = 0\n"
    assert _uses(dataclass) == {"dataclass", "x", "y", "ClassVar", "int"}
    model = "class A(BaseModel):\n    x: Optional[int]\n"
    assert _uses(model) == {"BaseModel", "x", "Optional", "int"}
    assert _uses("@attrs.define\nclass A:\n    x: Optional[int]\n") == {
        "attrs",
        "x",
        "Optional",
        "int",
    }


def test_what_only_type_checkers_read_never_runs() -> None:
    both = "if TYPE_CHECKING:\n    a = A\nelse:\n    b = B\n"
    assert _uses(both) == {"TYPE_CHECKING", "b", "B"}
    assert _uses("if typing.TYPE_CHECKING:\n    a = A\n") == {"typing"}


def _aliases(code: str) -> list[str]:
    tree = ast.parse(textwrap.dedent(code))
    return [ast.unparse(s).split()[0].rstrip(":") for s in type_only_aliases(tree)]


def test_type_aliases_only_annotations_use_are_found() -> None:
    code = """
        Store = Path | None
        Count: TypeAlias = int
        Inner = int | str
        Outer = list[Inner]
        Used = int | None
        Twice = int
        Twice = str
        Unused = int
        Shared = int | None; Other = 1
        def f(a: Store, b: Count, c: Outer, d: Twice, e: Shared) -> Used:
            return isinstance(a, Used)
        """
    # NOTE: `Used` runs (isinstance), `Twice` is assigned twice, nothing uses `Unused`, and
    # `Shared` shares its line with another statement.
    assert _aliases(code) == ["Store", "Count", "Inner", "Outer"]
    # NOTE: an alias an alias that runs uses runs too.
    assert _aliases("A = int | None\nB = list[A]\nprint(B)\ndef f(x: A): ...\n") == []


def test_a_type_alias_only_annotations_use_never_runs(tmp_path: Path) -> None:
    """`Path | None` cannot run on Python 3.9: an alias written so for an option's type, which
    only annotations use, goes under `if TYPE_CHECKING:` with the import only it used."""
    tool = load_tool(
        tmp_path,
        '''\
        from pathlib import Path
        from typing import Annotated

        from burgee import Option, command

        Store = Annotated[Path | None, Option("-s", help="Where")]
        Count = Annotated[int, Option("-n", min=1)]


        @command(effects="read_only")
        def where(store: Store = None, n: Count = 1) -> str:
            """Say where."""
            return f"{store} {n}"
        ''',
        "aliases",
    )
    source = Path(tool.__file__).read_text(encoding="utf-8")
    assert "if TYPE_CHECKING:  # only annotations use these\n    Store = Path | None\n" in source
    assert not hasattr(tool, "Store") and not hasattr(tool, "Count") and not hasattr(tool, "Path")
    done = tool.invoke(["where", "-s", "x", "-n", "2"])
    assert (done.exit_code, done.stdout) == (0, "x 2\n"), done


def test_a_docs_style_tool_never_imports_typing_when_it_runs(tmp_path: Path) -> None:
    handlers = tmp_path / "handlers.py"
    handlers.write_text(DOCS_STYLE, encoding="utf-8")
    program, source = generate(DOCS_STYLE, str(handlers), output=tmp_path / "greet.py")
    assert program.user_imports == "from dataclasses import dataclass\n"
    assert "from typing import Annotated, Literal, Optional" not in source
    tool = tmp_path / "greet.py"
    tool.write_text(source, encoding="utf-8")
    # NOTE: -S: no site-packages, whose .pth files may import typing themselves.
    result = subprocess.run(
        [sys.executable, "-S", "-X", "importtime", str(tool), "hello", "Ada", "-n", "2", "--json"],
        capture_output=True,
        text=True,
        check=False,
        env={"BURGEE_CACHE_DIR": str(tmp_path / "cache"), "PATH": ""},
    )
    assert result.returncode == 0, result.stderr
    assert '"text": "Ada Ada"' in result.stdout or '"text":"Ada Ada"' in result.stdout
    imported = {line.rsplit("|", 1)[-1].strip() for line in result.stderr.splitlines()}
    assert "typing" not in imported
    assert "dataclasses" in imported  # NOTE: the check sees imports: the tool does need this one


def test_a_typing_name_used_when_the_module_is_defined_stays_and_gen_notes_it(
    tmp_path: Path,
) -> None:
    source = DOCS_STYLE.replace(
        "\n\n@command",
        "\n\nDEFAULT_TAGS = cast(list[str], [])\n\n\n@command",
    ).replace("Literal, Optional", "Literal, Optional, cast")
    path = str(tmp_path / "handlers.py")
    program, _ = generate(source, path)
    assert program.user_imports.splitlines()[-1] == "from typing import cast"
    # NOTE: `Annotated` goes: burgee's markers were all its uses.
    assert (
        program.user_checking == "from datetime import date\nfrom typing import Literal, Optional\n"
    )
    notes: list[str] = []
    checked(read(source, path), path, warn=lambda d: notes.append(str(d)), strict=True)
    line = source.splitlines().index("DEFAULT_TAGS = cast(list[str], [])") + 1
    assert notes == [
        f"{path}:{line}:16: note: the tool imports typing on every run, which costs about as "
        "much as the rest of a command's start-up: cast is used here outside annotations; names "
        "used only in annotations are never imported when the tool runs"
    ]


def test_a_typing_name_only_functions_use_waits_for_the_first_command(tmp_path: Path) -> None:
    source = DOCS_STYLE.replace(
        "    return Greeting(",
        "    words = cast(list[str], words)\n    return Greeting(",
    ).replace("Literal, Optional", "Literal, Optional, cast")
    path = str(tmp_path / "handlers.py")
    program, code = generate(source, path)
    assert program.user_imports == "from dataclasses import dataclass\n"
    assert program.user_deferred == "from typing import cast\n"
    assert "    global cast\n    from typing import cast\n" in code
    notes: list[str] = []
    checked(read(source, path), path, warn=lambda d: notes.append(str(d)), strict=True)
    assert notes == []


def test_the_examples_do_not_import_typing_when_they_run() -> None:
    for tool in sorted((REPO / "examples").glob("*/*.py")):
        if tool.name == "handlers.py":
            continue
        imports = [line for line in tool.read_text(encoding="utf-8").splitlines()]
        assert not [line for line in imports if line.startswith(("from typing ", "import typing"))]


def test_an_mcp_session_lists_its_tools_without_importing_json(tmp_path: Path) -> None:
    # NOTE: the golden with prompts and resources, so their lists are read the same way.
    tool = GOLDEN / "pantry" / "pantry.py"
    calls = [
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        *({"jsonrpc": "2.0", "id": n, "method": m} for n, m in enumerate(LISTS, 1)),
    ]
    result = subprocess.run(
        [sys.executable, "-S", "-X", "importtime", str(tool), "--mcp"],
        input=b"".join(line(message) for message in [INIT, *calls]),
        capture_output=True,
        check=False,
        env={"BURGEE_CACHE_DIR": str(tmp_path / "cache"), "PATH": ""},
    )
    answers = [json.loads(text) for text in result.stdout.splitlines()]
    assert [a["id"] for a in answers] == list(range(len(LISTS) + 1))
    assert [sorted(a["result"]) for a in answers[1:]] == [[key] for key in LISTS.values()]
    assert all(a["result"][LISTS[m]] for a, m in zip(answers[1:], LISTS, strict=True))
    imported = {row.rsplit("|", 1)[-1].strip() for row in result.stderr.decode().splitlines()}
    assert "json" not in imported
    # NOTE: the ASGI app's thread pool (concurrent.futures, with logging and traceback) is
    # made when an ASGI server first serves a request, never when `--mcp` loads its section.
    assert not imported & {"concurrent.futures", "logging"}
    # NOTE: short lists are plain text (`_MCP_LISTS`): `_DATA` is never decoded.
    assert not imported & {"zlib", "binascii"}
    assert "_json" in imported  # NOTE: the check sees the imports: the requests were read


#: The lists a session starts with, and the key of each answer.
LISTS = {
    "tools/list": "tools",
    "prompts/list": "prompts",
    "resources/list": "resources",
    "resources/templates/list": "resourceTemplates",
}


def test_help_imports_neither_re_nor_textwrap(tmp_path: Path) -> None:
    """Help wraps its own lines (`cli_help._wrap`): textwrap imports `re` and `enum`, a third
    of a `--help`'s start-up."""
    result = subprocess.run(
        [
            sys.executable,
            "-S",
            "-X",
            "importtime",
            str(GOLDEN / "minimal" / "minimal.py"),
            "--help",
        ],
        capture_output=True,
        check=False,
        env={"BURGEE_CACHE_DIR": str(tmp_path / "cache"), "PATH": ""},
    )
    assert result.returncode == 0
    assert b"usage: minimal" in result.stdout
    imported = {row.rsplit("|", 1)[-1].strip() for row in result.stderr.decode().splitlines()}
    assert not imported & {"re", "textwrap", "enum"}


def test_schema_and_llms_never_import_json(tmp_path: Path) -> None:
    """`schema` and `--llms` read their embedded documents and print them (for a program,
    stdout not a terminal) with `_json`, what `json` runs on: json imports `re` and `enum`,
    a third of a `schema`'s start-up. (A golden whose handlers import nothing at start-up.)"""
    tool = GOLDEN / "repokit" / "repokit.py"
    for words in (["schema"], ["schema", "remote", "add"], ["--llms", "--field", "tools.0"]):
        result = subprocess.run(
            [sys.executable, "-S", "-X", "importtime", str(tool), *words],
            capture_output=True,
            check=False,
            env={"BURGEE_CACHE_DIR": str(tmp_path / "cache"), "PATH": ""},
        )
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout)
        imported = {row.rsplit("|", 1)[-1].strip() for row in result.stderr.decode().splitlines()}
        assert not imported & {"json", "re", "enum"}, words
        assert "zlib" in imported  # NOTE: the check sees the imports: the documents were decoded


def test_a_date_in_a_result_imports_no_datetime_for_help(tmp_path: Path) -> None:
    """The date, time and date-time converters import `datetime` when they first convert: a
    tool whose only date is in a result (the shop golden's `Order.when`) does not pay for it
    on `--help` (a seventh of a run's start-up, measured against `python -c pass`)."""
    result = subprocess.run(
        [sys.executable, "-S", "-X", "importtime", str(GOLDEN / "shop" / "shop.py"), "--help"],
        capture_output=True,
        check=False,
        env={"BURGEE_CACHE_DIR": str(tmp_path / "cache"), "PATH": ""},
    )
    assert result.returncode == 0, result.stderr
    imported = {row.rsplit("|", 1)[-1].strip() for row in result.stderr.decode().splitlines()}
    assert "datetime" not in imported
    assert "_thread" in imported or "os" in imported  # NOTE: the check sees the imports


def _imported(tool: Path, tmp_path: Path, words: list[str], stdin: str | None = None) -> set[str]:
    """The modules a run of `tool` imports (without site-packages, whose .pth files may import
    more), after checking that it succeeded."""
    result = subprocess.run(
        [sys.executable, "-S", "-X", "importtime", str(tool), *words],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        env={"BURGEE_CACHE_DIR": str(tmp_path / "cache"), "PATH": ""},
    )
    assert result.returncode == 0, (words, result.stderr[-2000:])
    assert result.stdout.strip(), words
    return {row.rsplit("|", 1)[-1].strip() for row in result.stderr.splitlines()}


def _describing(command: str, *complete: str) -> list[tuple[list[str], str | None]]:
    """The runs that only describe a tool: help, a command's help, schema, --llms, completion
    (the script; `complete`: a TAB press's words, a `complete=` function's) and an MCP
    session's tools/list."""
    mcp = [INIT, {"jsonrpc": "2.0", "method": "notifications/initialized"}]
    mcp += [{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}]
    return [
        (["--help"], None),
        ([command, "--help"], None),
        (["schema"], None),
        (["--llms"], None),
        (["completion", "bash"], None),
        *([(["__complete", *complete], None)] if complete else []),
        (["--mcp"], b"".join(line(m) for m in mcp).decode()),
    ]


#: A handler whose defaults are constructed values of a standard type, as docs/handlers.md
#: allows them (`Path(".")`, also as the items of a list).
PATH_DEFAULTS = '''\
from pathlib import Path
from typing import Annotated

from burgee import Option, command


def names(partial: str) -> list[str]:
    return ["ada", "bob"]


@command(effects="read_only")
def where(
    folder: Path = Path("."),
    roots: list[Path] = [Path("a"), Path("b")],
    name: Annotated[str, Option(complete=names)] = "ada",
) -> str:
    """Say where."""
    return " ".join(type(p).__name__ + ":" + str(p) for p in [folder, *roots])
'''


def test_a_path_default_imports_no_pathlib_until_a_command_runs(tmp_path: Path) -> None:
    """A handler's `Path(".")` default is made when the module is defined: the tool describes
    itself without importing `pathlib` (with `re`, `fnmatch` and `urllib.parse`, as much as
    Python's own start-up), and a command, or a person calling the function, gets a real Path."""
    tool = generate_tool(tmp_path, PATH_DEFAULTS, "handlers.py", "--name", "pathy")
    for words, stdin in _describing("where", "where", "--name", ""):
        assert "pathlib" not in _imported(tool, tmp_path, words, stdin), words
    made = type(Path("."))
    expected = f"{made.__name__}:. {made.__name__}:a {made.__name__}:b"
    assert "pathlib" in _imported(tool, tmp_path, ["where"])  # NOTE: the check sees it
    done = in_process(tool).run("where")
    assert (done.code, done.out) == (0, expected + "\n"), done.err
    module = import_tool(tool, "tool_path_defaults")
    assert module.where() == expected
    assert module.where(Path("x")) == f"{made.__name__}:x {made.__name__}:a {made.__name__}:b"


def test_the_tool_made_from_cruft_describes_itself_without_pathlib(tmp_path: Path) -> None:
    """cruft's Typer app (`project_dir: Path = typer.Option(Path("."), ...)`), read where it
    is installed: its tool's help, schema, --llms, completion and MCP list import no pathlib
    (issue 47: ≤ 1.5x `python -c pass`), and a command still gets a real Path."""
    installed = Path(importlib.import_module("cruft").__file__ or "").parent
    copy = tmp_path / "cruft"
    shutil.copytree(installed, copy, ignore=shutil.ignore_patterns("__pycache__"))
    # NOTE: each command's body returns its parameters (as tests/test_dialects.py reads it).
    source = _returning((copy / "_cli.py").read_text(encoding="utf-8"))
    tool = generate_tool(copy, source, "_cli.py", "--name", "cruft")
    for words, stdin in _describing("check"):
        assert "pathlib" not in _imported(tool, tmp_path, words, stdin), words
    module = import_tool(tool, "tool_cruft_start")
    given = module.check()
    assert isinstance(given["project_dir"], Path) and given["project_dir"] == Path(".")
    done = in_process(tool).run("diff", "--json")
    assert done.code == 0 and done.json()["data"]["project_dir"] == ".", done.err


def test_kitchens_help_imports_none_of_its_parameters_types(tmp_path: Path) -> None:
    """The kitchen golden takes a path, a date, a decimal and a UUID, with defaults made of
    each (`Path(".")`, `dt.date(2026, 1, 1)`, `Decimal("0.10")`): its converters import their
    module when they first convert, its defaults are made when the first command runs, so
    `--help` imports none of them (`uuid` alone costs about as much as Python's own start)."""
    tool = GOLDEN / "kitchen" / "kitchen.py"
    imported = _imported(tool, tmp_path, ["--help"])
    assert not imported & {"pathlib", "datetime", "decimal", "uuid"}
    assert "dataclasses" in imported  # NOTE: the check sees imports: the handlers need it


def test_a_completion_script_imports_no_re(tmp_path: Path) -> None:
    """`completion SHELL` writes its script with str methods: `re` (with `enum` and
    `functools`) costs two thirds of Python's own start-up."""
    for shell in ("bash", "zsh", "fish", "pwsh"):
        imported = _imported(GOLDEN / "minimal" / "minimal.py", tmp_path, ["completion", shell])
        assert not imported & {"re", "enum"}, shell
        assert "zlib" in imported  # NOTE: the check sees the imports: the documents were read
