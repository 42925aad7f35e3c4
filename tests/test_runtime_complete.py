"""Shell completion and the skill, in-process: `completion SHELL` (the scripts rendered from the
completion table), `--skill`, and the values a `complete=` function offers through
`__complete`."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from burgee.runtime.commandline.complete import _builtin, _candidates, _complete
from burgee.runtime.commandline.shells import _completion_nodes, _completion_script
from burgee.runtime.core.errors import UsageError
from burgee.runtime.core.kinds import _Int, _Str
from burgee.runtime.program import Program
from tests.runtime_program import program

#: A completion table as `burgee.render.completions.table` writes it: a group `store` with
#: `pick` (an alias `grab`, an argument completed by a function, a choice, a negatable
#: switch), and `load` (it asks first; a variadic file argument).
TABLE: dict[str, Any] = {
    "groups": [
        ["", [["store", "Stock operations."], ["load", 'Load files; it\'s "quoted".']]],
        ["store", [["pick", "Pick one."], ["grab", "Pick one."]]],
    ],
    "commands": [
        [
            "store pick",
            ["store grab"],
            0,
            [
                [["-s", "--size"], ["small", "big"], "How big"],
                [["--fresh", "--no-fresh"], None, "Fresh @ID@ @PROG@"],
                [["--note"], "none", ""],
            ],
            [["dynamic", False]],
        ],
        ["load", [], 1, [], [["file", True]]],
    ],
}

#: What the last completer call was given: (partial, context).
SEEN: list[tuple[str, Any]] = []


def sizes(partial: str) -> list[Any]:
    print("a completer's print")
    return ["small", "medium", ("large", "big  and\n wide"), "two\nlines", 10]


def shelves(partial: str, context: dict[str, Any]) -> list[str]:
    SEEN.append((partial, context))
    return ["A1", "A2", "B1"]


def broken(partial: str) -> list[str]:
    raise RuntimeError("the database is down")


def _slots(path: str) -> tuple[tuple[Any, ...], ...]:
    if path == "store pick":
        return (
            ("shelf", (), "arg", _Str.convert, shelves, 2),
            ("size", ("-s", "--size"), "value", _Str.convert, sizes, 1),
            ("count", ("--count",), "value", _Int.convert, None, 0),
            ("fresh", ("--fresh",), "flag", None, None, 0),
            # NOTE: a bool's off form is a slot of its own (`render/completions.slot_tables`).
            ("fresh", ("--no-fresh",), "off", None, None, 0),
            ("tag", ("--tag",), "append", _Int.convert, None, 0),
            ("color", ("--color",), "value", _Str.convert, broken, 1),
        )
    if path == "load":
        return (("files", (), "args", _Str.convert, shelves, 2),)
    return ()


def _tool(**facts: Any) -> Program:
    """The program the tests complete for: the command table above, with `facts` changed."""
    # NOTE: a row of the command table: (handler, summary, shape, inputs, details).
    command = (lambda: None, "s", None, (), (("description", "d"),))
    return program(
        documents={"completion": json.dumps(TABLE), "skill": "---\nname: tool\n---\n"},
        **{
            "groups": {"": (("store", ""), ("load", "")), "store": (("pick", ""),)},
            "commands": {"store pick": command, "load": command},
            "completion_slots": _slots,
            "complete_values": _candidates,
            **facts,
        },
    )


TOOL = _tool()


@pytest.fixture(autouse=True)
def _seen() -> None:
    SEEN.clear()


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish", "pwsh"])
def test_completion_prints_the_script_of_the_table(
    capsys: pytest.CaptureFixture[str], shell: str
) -> None:
    assert _builtin(["completion", shell], TOOL) == 0
    assert capsys.readouterr().out == _completion_script(shell, "tool", TABLE, config=False)


def test_the_nodes_of_a_table() -> None:
    nodes = {node[0]: node for node in _completion_nodes(TABLE, config=False)}
    assert list(nodes) == ["", "store", "store pick", "store grab", "load", "completion", "output"]
    root, pick, load = nodes[""], nodes["store pick"], nodes["load"]
    # NOTE: the program offers the built-in `output` and `completion` too, and the tool's own
    # flags; `output REF` completes its paging options, and nothing for the reference.
    assert root[1][-2:] == [
        ("output", "Read back the full text of an answer that was cut."),
        ("completion", "Print a shell completion script (bash, zsh, fish, pwsh)."),
    ]
    assert [o[0] for o in nodes["output"][2][:2]] == [("--offset",), ("--limit",)]
    assert nodes["output"][3] == [(0, "none", False)]
    assert [o[0] for o in root[2]][:2] == [("--json",), ("-o", "--output")]
    assert ("--version",) in [o[0] for o in root[2]]
    assert ("--version",) not in [o[0] for o in pick[2]]
    assert [(o[0], o[2], o[3]) for o in pick[2][:3]] == [
        (("-s", "--size"), ["small", "big"], "How big"),
        (("--fresh", "--no-fresh"), None, "Fresh @ID@ @PROG@"),
        (("--note",), "none", ""),
    ]
    assert [o[1] for o in pick[2][:3:2]] == ["store pick|--size", "store pick|--note"]
    assert pick[2][-1] == (("-h", "--help"), "store pick|--help", None, "show help and exit", "")
    # NOTE: an alias completes like its command, keys and all; only `load` asks first.
    assert nodes["store grab"][2:] == pick[2:]
    assert ("-y", "--yes") in [o[0] for o in load[2]]
    assert ("-y", "--yes") not in [o[0] for o in pick[2]]
    assert load[3] == [(0, "file", True)]
    assert nodes["completion"][3] == [(0, ["bash", "zsh", "fish", "pwsh"], False)]
    assert ("--config",) not in [o[0] for o in root[2]]
    with_config = _completion_nodes(TABLE, config=True)[0]
    assert ("--config",) in [o[0] for o in with_config[2]]


@pytest.mark.parametrize(
    ("shell", "lines"),
    [
        (
            "bash",
            [
                "__tool_x_child() {",
                "        'store|pick') REPLY='store pick' ;;",
                "'store pick|-s'|'store pick|--size') REPLY='store pick|--size' ;;",
                "        'store pick|--size') __tool_x_add 'small' 'big' ;;",
                "        'store pick|--note') ;;",
                "        'store pick#'0) __tool_x_dynamic ;;",
                "        'load#'*) __tool_x_files ;;",
                "        'completion#'0) __tool_x_add 'bash' 'zsh' 'fish' 'pwsh' ;;",
                "complete -F _tool_x_completion tool.x",
            ],
        ),
        (
            "zsh",
            [
                "#compdef tool.x",
                "        ('store|pick') REPLY='store pick' ;;",
                "        ('store pick|--size') compadd -- 'small' 'big' ;;",
                "        ('load#'*) _files ;;",
                "        ('') __tool_x_describe 'store' 'Stock operations.' 'load'"
                " 'Load files; it'\\''s \"quoted\".' 'output' 'Read back the full text of an"
                " answer that was cut.' 'completion' 'Print a shell completion script (bash, zsh,"
                " fish, pwsh).' ;;",
            ],
        ),
        (
            "fish",
            [
                "        case 'store|pick'",
                "            echo 'store pick'",
                "        case 'store pick|-s' 'store pick|--size'",
                "            __tool_x_add \"$prefix\" 'small' 'big'",
                "        case 'load#+'",
                "            __tool_x_add '' (__fish_complete_path \"$cur\")",
                "            printf \"%s\\t%s\\n\" 'load' 'Load files; it\\'s \"quoted\".'",
                "            printf \"%s\\t%s\\n\" '--fresh' 'Fresh @ID@ @PROG@'",
            ],
        ),
        (
            "pwsh",
            [
                "Register-ArgumentCompleter -Native -CommandName 'tool.x' -ScriptBlock {",
                "        'store|pick' = 'store pick'",
                "        'store pick|-s' = 'store pick|--size'",
                "        'store pick|--size' = @('choice', 'small', 'big')",
                "        'store pick|--note' = @('none')",
                "        'load#*' = @('file')",
                "        'store pick#0' = @('dynamic')",
            ],
        ),
    ],
)
def test_each_shell_renders_the_table(shell: str, lines: list[str]) -> None:
    script = _completion_script(shell, "tool.x", TABLE, config=False)
    found = script.split("\n")
    for line in lines:
        assert line in found, line
    # NOTE: every placeholder is filled; text in the table that looks like one stays as is.
    assert "@ID@" not in script.replace("Fresh @ID@ @PROG@", "")
    assert "@PROG@" not in script.replace("Fresh @ID@ @PROG@", "")
    assert script.endswith("\n")
    assert not script.endswith("\n\n")


def test_completion_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert _builtin(["completion", "--help"], TOOL) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: tool completion {bash,zsh,fish,pwsh}\n")
    assert "  fish  tool completion fish > ~/.config/fish/completions/tool.fish\n" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["completion"], "missing shell"),
        (["completion", "tcsh"], "unknown shell 'tcsh'"),
        (["completion", "bash", "zsh"], "unknown shell 'zsh'"),
    ],
)
def test_completion_refuses(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    with pytest.raises(UsageError) as raised:
        _builtin(args, TOOL)
    assert (raised.value.message, raised.value.hint) == (message, "shells: bash, zsh, fish, pwsh")
    assert capsys.readouterr().out == ""


def test_skill(capsys: pytest.CaptureFixture[str]) -> None:
    assert _builtin(["--skill"], TOOL) == 0
    assert capsys.readouterr().out == "---\nname: tool\n---\n"
    with pytest.raises(UsageError) as raised:
        _builtin(["--skill", "extra"], TOOL)
    assert raised.value.message == "--skill takes nothing more, not 'extra'"


def test_values_offered_by_a_completer(capsys: pytest.CaptureFixture[str]) -> None:
    assert _candidates(["store", "pick", "--size", ""], TOOL) == [
        "small",
        "medium",
        "large\tbig and wide",
        "10",
    ]
    assert _candidates(["store", "pick", "-s", ""], TOOL)[:2] == ["small", "medium"]


def test_values_start_with_what_was_typed() -> None:
    assert _candidates(["store", "pick", "--size", "m"], TOOL) == ["medium"]
    assert _candidates(["store", "pick", "--size", "l"], TOOL) == ["large\tbig and wide"]
    assert _candidates(["store", "pick", "--size", "x"], TOOL) == []


def test_a_double_dash_before_the_command_still_names_it() -> None:
    """`tool -- store pick --size <TAB>`: a group's `--` ends its own options, and the words
    after it still name the command (as argv reads them: `argv._Invocation`)."""
    assert _candidates(["--", "store", "pick", "--size", "m"], TOOL) == ["medium"]
    assert _candidates(["store", "--", "pick", "--size", "m"], TOOL) == ["medium"]
    assert _candidates(["--", "load", ""], TOOL) == _candidates(["load", ""], TOOL) != []


def test_a_flag_with_equals_completes_its_value() -> None:
    assert _candidates(["store", "pick", "--size=m"], TOOL) == ["medium"]
    assert _candidates(["store", "pick", "x", "--size=sm"], TOOL) == ["small"]


def test_a_completers_prints_do_not_reach_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    stdout = sys.stdout
    assert _candidates(["store", "pick", "--size", "s"], TOOL) == ["small"]
    assert sys.stdout is stdout
    assert capsys.readouterr().out == ""


def test_the_completer_sees_what_was_typed_before() -> None:
    words = ["--timeout", "5", "store", "pick", "--count", "3", "--fresh", "--tag", "1"]
    words += ["--tag=x", "--size=big", "--unknown", "A"]
    assert _candidates(words, TOOL) == ["A1", "A2"]
    assert SEEN == [
        (
            "A",
            {
                "path": "store pick",
                "options": {"count": 3, "fresh": True, "tag": [1, "x"], "size": "big"},
                "positionals": [],
                "raw": {"count": "3", "tag": ["1", "x"], "size": "big"},
            },
        )
    ]


def test_tool_flags_after_the_command_are_not_positionals() -> None:
    assert _candidates(["store", "pick", "--timeout", "5", ""], TOOL) == ["A1", "A2", "B1"]
    assert _candidates(["store", "pick", "-o", "json", "--field", "x", "A"], TOOL) == ["A1", "A2"]
    assert _candidates(["store", "pick", "--timeout=5", "--debug", "B"], TOOL) == ["B1"]
    assert [context["positionals"] for _, context in SEEN] == [[], [], []]
    # NOTE: the value of a tool-wide flag is not the argument's.
    assert _candidates(["store", "pick", "--timeout", ""], TOOL) == []
    assert _candidates(["store", "pick", "--explain", "s"], TOOL) == []
    assert len(SEEN) == 3


def test_json_input_before_or_after_the_command_is_read_as_argv_reads_it() -> None:
    """`--json '{...}'` takes its object, so the words after it are still the command path;
    a word that is no object is not its value."""
    assert _candidates(["--json", "{}", "store", "pick", ""], TOOL) == ["A1", "A2", "B1"]
    assert _candidates(["--json", "store", "pick", "A"], TOOL) == ["A1", "A2"]
    assert _candidates(["store", "pick", "--json", "{}", "B"], TOOL) == ["B1"]
    assert [context["positionals"] for _, context in SEEN] == [[], [], []]
    assert _candidates(["store", "pick", "--json", "{"], TOOL) == []  # NOTE: JSON text: nothing


def test_a_negated_switch_and_positionals_after_double_dash() -> None:
    assert _candidates(["load", "--no-fresh", "a", "--", "-b", ""], TOOL) == ["A1", "A2", "B1"]
    assert SEEN[-1][1] == {
        "path": "load",
        "options": {},
        "positionals": ["a", "-b"],
        "raw": {"files": ["a", "-b"]},
    }
    _candidates(["store", "pick", "--fresh", "--no-fresh", "--size", "s", ""], TOOL)
    assert SEEN[-1][1]["options"] == {"fresh": False, "size": "s"}


def test_nothing_to_offer() -> None:
    assert _candidates([], TOOL) == []
    # NOTE: the one argument is given already; a flag is being typed; an unknown command.
    assert _candidates(["store", "pick", "A1", ""], TOOL) == []
    assert _candidates(["store", "pick", "--si"], TOOL) == []
    assert _candidates(["nope", ""], TOOL) == []
    assert _candidates(["store", ""], TOOL) == []
    assert _candidates(["store", "pick", "--count", ""], TOOL) == []
    assert SEEN == []


def test_complete_prints_one_value_a_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert _builtin(["__complete", "store", "pick", "--size", "s"], TOOL) == 0
    assert capsys.readouterr().out == "small\n"
    assert _complete(["store", "pick", "--size", ""], TOOL) == 0
    assert capsys.readouterr().out == "small\nmedium\nlarge\tbig and wide\n10\n"


def test_a_completer_that_raises_offers_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    stdout = sys.stdout
    # NOTE: contained where the completer is called (`_offered`), for MCP's answers too.
    assert _candidates(["store", "pick", "--color", ""], TOOL) == []
    assert sys.stdout is stdout
    assert _complete(["store", "pick", "--color", ""], TOOL) == 0
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", "")


def test_an_alias_completes_as_the_command_it_names() -> None:
    made = _tool(aliases={"store p": "store pick", "ld": "load"})
    assert _candidates(["store", "p", "--size", "m"], made) == ["medium"]
    assert _candidates(["--debug", "ld", "B"], made) == ["B1"]
    assert SEEN[-1][1]["path"] == "load"


@pytest.mark.parametrize("mode", ["words", "alone"])
def test_the_root_commands_own_words_complete(mode: str) -> None:
    """Words that name no command are the root command's (ROOT_MODE "words"); a program whose
    only command is its root has no command words at all ("alone")."""
    made = _tool(root="load", root_mode=mode)
    assert _candidates(["A"], made) == ["A1", "A2"]
    assert _candidates(["--timeout", "5", "x", "B"], made) == ["B1"]
    assert SEEN[-1][1]["positionals"] == ["x"]
    assert _candidates(["--timeout", ""], made) == []
    if mode == "words":
        assert _candidates(["store", "pick", "--size", "m"], made) == ["medium"]
    else:
        assert _candidates(["load", "B"], made) == ["B1"]
        assert SEEN[-1][1]["positionals"] == ["load"]
