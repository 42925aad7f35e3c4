"""The joiner: a program carries the runtime it reaches, nothing else, and it still runs."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from burgee.model.reserved import RUNTIME_NAMES
from burgee.render.join import MODULE_MARK, join
from burgee.runtime.catalog import (
    BOOT,
    HEAD,
    TAIL,
    bare,
    generated_names,
    names_used,
    parse,
    runtime_names,
)
from burgee.runtime.start import boot

ROOT = Path(__file__).resolve().parent.parent


def _defined(source: str) -> set[str]:
    tree = ast.parse(source)
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def test_only_what_the_roots_reach_is_kept() -> None:
    plain = join({"main"})
    defined = _defined(plain.head) | _defined(plain.tail)
    assert {"main", "CommandError", "Context", "_execute", "_McpServer"} <= defined
    # NOTE: a tool with no date parameter carries no date converter and imports no datetime.
    assert "_Date" not in defined
    assert "TYPES" not in defined
    assert not any("datetime" in line for line in plain.imports)
    dated = join({"main", "_Date"})
    assert "_Date" in _defined(dated.tail)
    # NOTE: the date converters import datetime when they first convert (kinds.py).
    assert "import datetime as _datetime" in dated.checking
    assert "import datetime as _datetime" in dated.tail


def test_typing_is_never_imported_at_run_time() -> None:
    joined = join({"main", "_Date", "_member", "_within", "_fields"})
    assert not [line for line in joined.imports if "typing" in line]
    assert any(line.startswith("from typing import") for line in joined.checking)


def test_imports_between_runtime_modules_disappear() -> None:
    joined = join({"main"})
    code = joined.head + "\n" + joined.tail
    # NOTE: only the lines that say which module the code below them comes from name one.
    named = [line for line in code.splitlines() if "burgee.runtime" in line]
    assert named and all(line.startswith(MODULE_MARK) for line in named)
    assert "from burgee" not in code
    assert "from __future__" not in joined.head + joined.tail


def test_every_runtime_name_is_bound_once() -> None:
    seen: dict[str, str] = {}
    for module in (BOOT, *HEAD, *TAIL):
        for chunk in parse(module)[0]:
            if chunk.text.startswith("\t"):
                continue
            for name in chunk.binds:
                assert name not in seen, f"{name} is bound in {seen[name]} and {module}"
                seen[name] = module
    assert set(seen) <= runtime_names()
    assert {"PROGRAM", "Program"} <= runtime_names()
    assert {"PROGRAM", "COMMANDS", "_DATA"} <= RUNTIME_NAMES


def test_the_joined_runtime_is_ascii() -> None:
    """A tool's code is one raw string that Python's tokenizer reads on every script run and
    `_boot` reads on a cache miss: all ASCII, it is a copy; one other character and the
    whole runtime is decoded. Write `\\u2026`."""
    for module in (*HEAD, *TAIL):
        for chunk in parse(module)[0]:
            bad = sorted({c for c in chunk.text if ord(c) > 127})
            assert not bad, f"{module}: {bad} in {chunk.text[:60]!r}"


def test_each_stand_in_names_a_function_of_its_own_section() -> None:
    """`lazy` and the marked sections agree: a name with a stand-in is defined in its section
    and nowhere in the code that always runs (else that code would replace the stand-in)."""
    joined = join({"main", "invoke", "_Command", "Any", "_Date", "_await", "_candidates"})
    pieces = boot._pieces("\n" + joined.head + "\n\n\n" + joined.tail + "\n")
    # NOTE: the start-up code's section runs by no stand-in (`boot._missed`).
    assert set(joined.lazy) == set(pieces) - {"", boot._START}
    hot = _defined(pieces[""])
    for section, names in joined.lazy.items():
        assert names, section
        assert set(names) <= _defined(pieces[section]), section
        assert not set(names) & hot, section


def test_a_section_run_after_another_keeps_what_it_needs_of_that_one_there() -> None:
    """The HTTP server's classes build on the MCP server's (`catalog.AFTER`): `_McpServer`
    stays in the mcp section, which `_boot` runs before the http one, not in the code that
    always runs; a function with its own entry in `SECTIONS` leaves its module's section."""
    joined = join({"main", "invoke", "asgi"})
    code = "\n" + joined.head + "\n\n\n" + joined.tail + "\n"
    pieces = boot._pieces(code)
    assert boot._order(code) == {"clients": "mcp", "elicit": "mcp", "http": "mcp"}
    assert "\nclass _McpServer(" in pieces["mcp"] and "class _McpServer(" not in pieces[""]
    assert "\ndef _serve_http(" in pieces["http"] and "\nasync def asgi(" in pieces[""]
    assert "\nclass _McpOptions" in pieces["mcp"] and "\ndef _print_config(" in pieces["clients"]
    assert "_serve_http" in joined.lazy["http"] and "_print_config" in joined.lazy["clients"]


def _generated_regions(path: Path) -> str:
    """The code gen writes per program in a generated module: the converters of JSON-object
    inputs (when there are some) and the tables (the commands' rows among them)."""
    text = path.read_text(encoding="utf-8")
    code = text[: text.index('\nif __name__ == "__main__":')]
    start = code.find("# ---- The inputs that are JSON objects")
    converters = code[start : code.index("# ---- The tables: defined here")] if start >= 0 else ""
    # NOTE: the tables are a section of the runtime's string at the end of the module.
    tables = text[text.index("# ---- Tables: commands") :]
    return converters + "\n" + tables[: tables.index("# ---- burgee: end of tables")]


GENERATED = sorted((ROOT / "tests" / "golden").glob("*/*.py")) + sorted(
    (ROOT / "examples").glob("*/*.py")
)


@pytest.mark.parametrize("path", [p for p in GENERATED if p.stem == p.parent.name], ids=str)
def test_generated_names_agree_with_ast_on_what_join_reads(path: Path) -> None:
    # NOTE: gen reads the names its own per-command code uses with a regular expression
    # (`generated_names`); for every name the runtime binds it must agree with `ast`.
    code = _generated_regions(path)
    bound = set(RUNTIME_NAMES)
    for module in (BOOT, *HEAD, *TAIL):
        bound |= {found.binds for found in parse(module)[1]}
    by_ast = names_used(ast.parse(code)) & bound
    assert len(by_ast) > 10
    assert generated_names(code) & bound == by_ast


def test_generated_names_skips_strings_attributes_keywords_and_parameters() -> None:
    code = (
        "def _run_x(call: _Call, *rest: str) -> object:\n"
        '    value = call.value("name", _Str.convert, flag="--name")  # _Date\n'
        '    return handler(value, size=0x1F, text=\'_Json\', doc="""_Path\n_Uuid""")\n'
    )
    assert generated_names(code) == {
        "_Call",
        "rest",
        "str",
        "object",
        "value",
        "call",
        "_Str",
        "handler",
    }


def test_generated_names_keeps_dict_keys_slices_and_the_name_after_an_ellipsis() -> None:
    # NOTE: a name it missed could leave a runtime definition out of the tool; one too many
    # only keeps a definition in.
    assert {"y", "b", "foo"} <= generated_names(
        'd = {"a": x, y: z}\nx[a, b:c]\nf = ...\nfoo(bar)\n'
    )


def test_the_string_carries_the_code_without_its_documentation() -> None:
    """`catalog.bare`: docstrings and `#:` comments go, each with its lines (a body that is
    only a docstring keeps it: every line stays a line of the source); the `# NOTE:`
    comments, and a string that is code, stay."""
    code = '''\
#: What it is.
LIMIT = 3


class Empty(Exception):
    """Only a docstring."""


def f(x: int) -> str:
    """What f does,
    on two lines."""
    # NOTE: why it is so.
    text = """not a docstring"""
    return text  #: a trailing one stays
'''
    assert (
        bare(code)
        == '''\
LIMIT = 3


class Empty(Exception):
    """Only a docstring."""


def f(x: int) -> str:
    # NOTE: why it is so.
    text = """not a docstring"""
    return text  #: a trailing one stays
'''
    )
