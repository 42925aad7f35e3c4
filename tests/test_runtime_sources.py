"""Where an option's value comes from, in-process: flag > env > config file > pyproject.toml >
default, and what is recorded about it (`--explain`, `meta.provenance`)."""

from __future__ import annotations

import itertools
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from burgee.runtime.core import kinds
from burgee.runtime.core.context import Context
from burgee.runtime.core.errors import UsageError
from burgee.runtime.core.kinds import _Int, _Str
from burgee.runtime.execution import sources, table, values
from burgee.runtime.execution.sources import _meta, _Sources
from burgee.runtime.execution.values import _REQUIRED, _Call
from burgee.runtime.program import Program
from tests.runtime_program import program


@pytest.fixture
def project(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """An empty project folder as the working directory, with no user config dir and no
    config file read yet."""
    folder = tmp_path / "project"
    folder.mkdir()
    # NOTE: a pyproject.toml of its own, so none above tmp_path is found.
    (folder / "pyproject.toml").write_text('[project]\nname = "x"\n')
    monkeypatch.chdir(folder)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("TOOL_LEVEL", raising=False)
    monkeypatch.delenv("TOOL_TOKEN", raising=False)
    monkeypatch.setattr(sources, "_FILES", {})
    return Path(os.getcwd())


#: The program the calls are of: it reads a config file (`tool.toml`).
TOOL = program(name="tool", config=True)


def _call(
    raw: dict[str, Any], source: str = "flag", config: str | None = None, tool: Program = TOOL
) -> _Call:
    context = Context("add", source == "json", tool)
    return _Call(raw, source, context, _Sources("add", tool, config))


def _level(call: _Call) -> int:
    value = call.value("level", _Int.convert, 1, flag="--level", env="TOOL_LEVEL")
    call.check()
    return value


def _fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forget the config files read so far (a new process)."""
    monkeypatch.setattr(sources, "_FILES", {})


def test_flag_beats_env_beats_config_beats_pyproject_beats_default(
    monkeypatch: pytest.MonkeyPatch, project: Path
) -> None:
    (project / "pyproject.toml").write_text("[tool.tool]\nlevel = 2\n")
    (project / "tool.toml").write_text("level = 3\n")
    monkeypatch.setenv("TOOL_LEVEL", "4")
    assert _level(_call({"level": "5"})) == 5
    _fresh(monkeypatch)
    assert _level(_call({})) == 4
    monkeypatch.delenv("TOOL_LEVEL")
    _fresh(monkeypatch)
    assert _level(_call({})) == 3
    (project / "tool.toml").unlink()
    _fresh(monkeypatch)
    assert _level(_call({})) == 2
    (project / "pyproject.toml").write_text("[tool.other]\nlevel = 9\n")
    _fresh(monkeypatch)
    assert _level(_call({})) == 1


def test_json_input_beats_env(monkeypatch: pytest.MonkeyPatch, project: Path) -> None:
    monkeypatch.setenv("TOOL_LEVEL", "4")
    assert _level(_call({"level": 6}, "json")) == 6
    assert _level(_call({}, "json")) == 4


def test_an_empty_env_var_is_unset(monkeypatch: pytest.MonkeyPatch, project: Path) -> None:
    (project / "tool.toml").write_text("level = 3\n")
    monkeypatch.setenv("TOOL_LEVEL", "")
    assert _level(_call({})) == 3


def test_config_files_are_read_once_per_process(
    monkeypatch: pytest.MonkeyPatch, project: Path
) -> None:
    (project / "tool.toml").write_text("level = 3\n")
    assert _level(_call({})) == 3
    (project / "tool.toml").write_text("level = 8\n")
    assert _level(_call({})) == 3
    _fresh(monkeypatch)
    assert _level(_call({})) == 8


def test_without_config_only_env_is_read(monkeypatch: pytest.MonkeyPatch, project: Path) -> None:
    tool = program(name="tool", config=False)
    (project / "tool.toml").write_text("level = 3\n")
    (project / "pyproject.toml").write_text("[tool.tool]\nlevel = 2\n")
    assert _level(_call({}, config=str(project / "missing.toml"), tool=tool)) == 1
    monkeypatch.setenv("TOOL_LEVEL", "4")
    assert _level(_call({}, tool=tool)) == 4


def test_an_argument_reads_no_other_place(monkeypatch: pytest.MonkeyPatch, project: Path) -> None:
    (project / "tool.toml").write_text('name = "from config"\n')
    call = _call({})
    call.sources.full = True
    assert call.value("name", _Str.convert, "dflt") == "dflt"
    assert call.provenance == {}


def test_the_commands_own_table_beats_the_top_level(project: Path) -> None:
    (project / "tool.toml").write_text("level = 3\n[add]\nlevel = 7\n[other]\nlevel = 9\n")
    assert _level(_call({})) == 7


def test_a_nested_command_table(monkeypatch: pytest.MonkeyPatch, project: Path) -> None:
    (project / "tool.toml").write_text("level = 3\n[tasks]\nlevel = 5\n[tasks.purge]\nlevel = 6\n")
    call = _Call({}, "flag", Context("tasks purge", False, TOOL), _Sources("tasks purge", TOOL))
    assert _level(call) == 6
    (project / "tool.toml").write_text("level = 3\n[tasks]\nlevel = 5\n")
    _fresh(monkeypatch)
    call = _Call({}, "flag", Context("tasks purge", False, TOOL), _Sources("tasks purge", TOOL))
    assert _level(call) == 5


def test_a_config_key_may_be_spelled_like_the_flag(project: Path) -> None:
    (project / "tool.toml").write_text("max-items = 4\n")
    call = _call({})
    assert call.value("max_items", _Int.convert, 1, flag="--max-items") == 4


def test_config_given_with_dash_dash_config_is_missing(project: Path) -> None:
    missing = str(project / "nowhere.toml")
    call = _call({}, config=missing)
    with pytest.raises(UsageError) as raised:
        _level(call)
    assert raised.value.message == f"--config {missing}: no such file"


def test_a_json_config(project: Path) -> None:
    path = project / "settings.json"
    path.write_text(json.dumps({"level": 2, "add": {"level": 9}}))
    assert _level(_call({}, config=str(path))) == 9


def test_a_json_config_found_in_the_working_directory(project: Path) -> None:
    (project / "tool.json").write_text('{"level": 12}')
    assert _level(_call({})) == 12


def test_a_toml_config_given_with_dash_dash_config(project: Path) -> None:
    path = project / "settings.toml"
    path.write_text("[add]\nlevel = 11\n")
    assert _level(_call({}, config=str(path))) == 11


def test_the_user_config_dir(project: Path) -> None:
    folder = Path(os.environ["XDG_CONFIG_HOME"]) / "tool"
    folder.mkdir(parents=True)
    (folder / "config.toml").write_text("level = 13\n")
    assert _level(_call({})) == 13


def test_a_null_in_a_config_file_is_refused_as_json_input_null_is(project: Path) -> None:
    """Not taken for "unset" (the default used, the config named as its source)."""
    (project / "tool.json").write_text('{"level": null}')
    with pytest.raises(UsageError) as raised:
        _level(_call({}))
    assert raised.value.message == "config tool.json level: expected an integer, got null"


def test_a_relative_xdg_config_home_is_ignored(
    monkeypatch: pytest.MonkeyPatch, project: Path
) -> None:
    """The XDG spec: a relative $XDG_CONFIG_HOME is invalid and is to be ignored (it would
    name a folder of whatever the working directory is)."""
    (project / "rel" / "tool").mkdir(parents=True)
    (project / "rel" / "tool" / "config.json").write_text('{"level": 42}')
    monkeypatch.setenv("XDG_CONFIG_HOME", "rel")
    monkeypatch.setenv("HOME", str(project / "home"))
    assert _level(_call({})) != 42
    (project / "home" / ".config" / "tool").mkdir(parents=True)
    (project / "home" / ".config" / "tool" / "config.json").write_text('{"level": 7}')
    sources._FILES.clear()
    assert _level(_call({})) == 7


def test_a_config_file_that_is_not_a_table(project: Path) -> None:
    (project / "tool.json").write_text("[1, 2]")
    with pytest.raises(UsageError) as raised:
        _level(_call({}))
    # NOTE: often the tool's own data file, named as the config file is: the message says so.
    assert raised.value.message == (
        "tool.json: expected a table of option values (it is read as tool's config file)"
    )
    assert raised.value.hint == (
        "keep data in a file of another name, or name the config file with --config PATH; "
        "tool looks for tool.toml, tool.json, ~/.config/tool/config.toml, "
        "~/.config/tool/config.json"
    )


def test_a_config_file_that_does_not_parse(project: Path) -> None:
    (project / "tool.toml").write_text("level = = 3\n")
    with pytest.raises(UsageError, match=r"^tool\.toml: "):
        _level(_call({}))


def test_a_bad_config_value_names_where_it_came_from(project: Path) -> None:
    (project / "tool.toml").write_text('level = "high"\n')
    with pytest.raises(UsageError) as raised:
        _level(_call({}))
    assert raised.value.message == "config tool.toml level: expected an integer, got 'high'"


def test_a_list_option_from_env_and_from_config(
    monkeypatch: pytest.MonkeyPatch, project: Path
) -> None:
    (project / "tool.toml").write_text("tags = [1, 2]\n")
    call = _call({})
    assert call.values("tags", _Int.convert, [], flag="--tag", env="TOOL_TAGS") == [1, 2]
    monkeypatch.setenv("TOOL_TAGS", "3 4")  # NOTE: split as Click splits it
    call = _call({})
    assert call.values("tags", _Int.convert, [], flag="--tag", env="TOOL_TAGS") == [3, 4]
    call = _call({"tags": ["5"]})
    assert call.values("tags", _Int.convert, [], flag="--tag", env="TOOL_TAGS") == [5]
    assert call.problems == []


def test_nothing_is_recorded_unless_asked(monkeypatch: pytest.MonkeyPatch, project: Path) -> None:
    monkeypatch.setenv("TOOL_LEVEL", "4")
    call = _call({})
    assert _level(call) == 4
    assert call.provenance == {}
    assert _meta(call) == {}


def test_provenance_names_the_source_what_it_overrides_and_the_value(
    monkeypatch: pytest.MonkeyPatch, project: Path
) -> None:
    (project / "pyproject.toml").write_text("[tool.tool]\nlevel = 2\n")
    (project / "tool.toml").write_text("level = 3\n")
    monkeypatch.setenv("TOOL_LEVEL", "4")
    # NOTE: a place that holds a value is named with the key that holds it.
    pyproject = f"pyproject {project / 'pyproject.toml'} [tool.tool] level"
    call = _call({})
    call.sources.full = True
    assert _level(call) == 4
    entry = {
        "source": "env",
        "from": "env TOOL_LEVEL",
        "overrides": ["config tool.toml level", pyproject],
        "value": 4,
    }
    assert call.provenance == {"level": entry}
    assert _meta(call) == {"provenance": {"level": entry}}
    call = _call({"level": "5"})
    call.sources.full = True
    assert _level(call) == 5
    assert call.provenance["level"] == {
        "source": "flag",
        "from": "flag --level",
        "overrides": ["env TOOL_LEVEL", "config tool.toml level", pyproject],
        "value": 5,
    }


def test_provenance_of_a_default(project: Path) -> None:
    call = _call({})
    call.sources.full = True
    assert _level(call) == 1
    assert call.provenance == {"level": {"source": "default", "from": "default", "value": 1}}


def test_provenance_of_json_input(project: Path) -> None:
    call = _call({"level": 6}, "json")
    call.sources.full = True
    assert _level(call) == 6
    assert call.provenance == {"level": {"source": "json", "from": "json level", "value": 6}}


def test_explaining_lists_every_candidate(monkeypatch: pytest.MonkeyPatch, project: Path) -> None:
    (project / "tool.toml").write_text("level = 3\n")
    monkeypatch.setenv("TOOL_LEVEL", "4")
    pyproject = f"pyproject {project / 'pyproject.toml'} [tool.tool]"
    call = _call({})
    call.sources.full = True
    call.explaining = True
    call.value("level", _Int.convert, 1, flag="--level", env="TOOL_LEVEL")
    assert call.provenance["level"] == {
        "source": "env",
        "from": "env TOOL_LEVEL",
        "candidates": [
            {"source": "flag", "from": "flag --level"},
            {"source": "env", "from": "env TOOL_LEVEL", "value": "4"},
            {"source": "config", "from": "config tool.toml level", "value": 3},
            {"source": "pyproject", "from": pyproject},
            {"source": "default", "from": "default", "value": 1},
        ],
        "value": 4,
    }


def test_where_no_config_file_is_found(project: Path) -> None:
    call = _call({})
    call.sources.full = True
    call.explaining = True
    call.value("level", _Int.convert, flag="--level")
    assert call.provenance["level"] == {
        "source": "missing",
        "from": "nowhere",
        "candidates": [
            {"source": "flag", "from": "flag --level"},
            {"source": "config", "from": "config (no file found)"},
            {"source": "pyproject", "from": f"pyproject {project / 'pyproject.toml'} [tool.tool]"},
        ],
    }
    assert call.problems == ["--level is required"]


def test_a_secret_is_never_recorded(monkeypatch: pytest.MonkeyPatch, project: Path) -> None:
    (project / "tool.toml").write_text('token = "config-secret"\n')
    monkeypatch.setenv("TOOL_TOKEN", "env-secret")

    def token(call: _Call) -> str:
        return call.value("token", _Str.convert, flag="--token", env="TOOL_TOKEN", secret=True)

    call = _call({})
    call.sources.full = True
    assert token(call) == "env-secret"
    assert call.provenance == {
        "token": {
            "source": "env",
            "from": "env TOOL_TOKEN",
            "overrides": ["config tool.toml token"],
            "secret": True,
        }
    }
    call = _call({})
    call.sources.full = True
    call.explaining = True
    assert token(call) == "env-secret"
    assert call.provenance["token"]["candidates"] == [
        {"source": "flag", "from": "flag --token"},
        {"source": "env", "from": "env TOOL_TOKEN", "set": True},
        {"source": "config", "from": "config tool.toml token", "set": True},
        {"source": "pyproject", "from": f"pyproject {project / 'pyproject.toml'} [tool.tool]"},
    ]
    assert "value" not in call.provenance["token"]
    recorded = json.dumps(call.provenance)
    assert "env-secret" not in recorded
    assert "config-secret" not in recorded


def test_a_bad_secret_is_not_shown_in_the_message(
    monkeypatch: pytest.MonkeyPatch, project: Path
) -> None:
    monkeypatch.setenv("TOOL_PIN", "hunter2")
    call = _call({})
    call.value("pin", _Int.convert, flag="--pin", env="TOOL_PIN", secret=True)
    assert call.problems == ["env TOOL_PIN: not a valid value (secret, not shown)"]


_ABSENT = object()
#: Every shape of one `pick`: the call's source, the value given (or none), the default (or
#: none), the flag, secret, full.
_PICKS = list(
    itertools.product(
        ("flag", "json"),
        (_ABSENT, None, "5"),
        (_ABSENT, None, 1),
        (None, "--level"),
        (False, True),
        (False, True),
    )
)


@pytest.mark.parametrize("shape", _PICKS)
def test_the_quick_pick_agrees_with_the_full_one(
    monkeypatch: pytest.MonkeyPatch, project: Path, shape: tuple[Any, ...]
) -> None:
    """With no env var and no config file, `pick` skips the candidate list; with config files
    on (and none found) it builds it: both must choose, and record, the same."""
    source, given, default, flag, secret, full = shape
    answers = []
    for config in (False, True):
        tool = program(name="tool", config=config)
        call = _call({} if given is _ABSENT else {"level": given}, source, tool=tool)
        call.sources.full = full
        fallback = _REQUIRED if default is _ABSENT else default
        picked = call.sources.pick(call, "level", flag, None, fallback, secret)
        answers.append((picked, call.provenance))
    assert answers[0] == answers[1]
    if full and flag is not None:
        entry = answers[0][1]["level"]
        assert entry["source"] == (answers[0][0][0] or "missing")
        assert ("secret" in entry) is secret


@pytest.mark.parametrize(("secret", "shown"), [(False, "'12x34'"), (True, None)])
def test_a_bad_answer_to_a_prompt_names_the_option(
    monkeypatch: pytest.MonkeyPatch, project: Path, secret: bool, shown: str | None
) -> None:
    """With two prompted options, the error must say which answer was wrong."""
    # NOTE: every question goes through `_asked` (a terminal, or an MCP client's user).
    monkeypatch.setattr(values, "_asked", lambda *question: "12x34")
    call = _call({})
    call.value("pin", _Int.convert, flag="--pin", prompt="PIN", secret=secret)
    hidden = "not a valid value (secret, not shown)"
    reason = f"expected an integer, got {shown}" if shown else hidden
    assert call.problems == [f"--pin: {reason}"]


def test_config_given_with_dash_dash_config_is_a_directory(project: Path) -> None:
    call = _call({}, config=str(project))
    with pytest.raises(UsageError) as raised:
        _level(call)
    assert raised.value.message == f"--config {project}: a directory, not a file"


#: Rows of `COMMANDS` as `burgee gen` writes them (only the inputs matter here).
_ROWS: dict[str, tuple[Any, ...]] = {
    "add": (
        None,
        "",
        "",
        (("title", (), "_Str", ..., ()), ("level", ("-l", "--level"), "_Int", 1, ())),
    ),
    "tasks purge": (None, "", "", (("done_only", ("--done-only",), "_Bool", True, ()),)),
    "tasks list": (None, "", "", (("max_items", ("--max-items",), "_Int", 9, ()),)),
}


def test_config_keys_no_command_reads_are_warned_about_once(
    monkeypatch: pytest.MonkeyPatch, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tool = program(name="tool", config=True, commands=_ROWS)
    (project / "tool.toml").write_text(
        "levle = 3\nlevel = 2\ndone-only = false\ntitle = 'x'\n"
        "[add]\nlevel = 7\nmax_items = 1\n[tasks]\nmax-items = 2\nlevel = 1\n"
        "[tasks.purge]\ndone_only = true\n[tasks.nosuch]\nx = 1\n[add.deeper]\ny = 2\n"
    )
    assert _level(_call({}, tool=tool)) == 7
    assert _level(_call({}, tool=tool)) == 7
    # NOTE: a positional (title) never reads config; a table under a command is no command.
    assert capsys.readouterr().err.splitlines() == [
        f"tool: warning: config tool.toml: no command reads {key}"
        for key in (
            "'add.deeper'",
            "'add.max_items'",
            "'levle' (did you mean 'level'?)",
            "'tasks.level'",
            "'tasks.nosuch'",
            "'title'",
        )
    ]


def test_a_misspelled_table_gets_a_suggestion_as_a_misspelled_key_does(
    monkeypatch: pytest.MonkeyPatch, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tool = program(name="tool", config=True, commands=_ROWS)
    (project / "tool.toml").write_text("[ad]\nlevel = 7\n[tasks.purg]\ndone_only = true\n")
    assert _level(_call({}, tool=tool)) == 1
    assert capsys.readouterr().err.splitlines() == [
        "tool: warning: config tool.toml: no command reads 'ad' (did you mean 'add'?)",
        "tool: warning: config tool.toml: no command reads 'tasks.purg' (did you mean 'purge'?)",
    ]


def test_a_pyproject_table_is_checked_too(
    monkeypatch: pytest.MonkeyPatch, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tool = program(name="tool", config=True, commands=_ROWS)
    (project / "pyproject.toml").write_text("[tool.tool]\nlevel = 2\nlvl = 1\n")
    assert _level(_call({}, tool=tool)) == 2
    where = f"pyproject {project / 'pyproject.toml'} [tool.tool]"
    assert capsys.readouterr().err == (
        f"tool: warning: {where}: no command reads 'lvl' (did you mean 'level'?)\n"
    )


def test_a_pyproject_that_does_not_parse_is_a_warning(
    monkeypatch: pytest.MonkeyPatch, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Someone else's pyproject.toml, mid-edit perhaps: the tool still works in that folder."""
    tool = program(name="tool", config=True, commands=_ROWS)
    (project / "pyproject.toml").write_text("[tool.tool\nlevel = 2\n")
    assert _level(_call({}, tool=tool)) == 1
    path = project / "pyproject.toml"
    err = capsys.readouterr().err
    assert err.startswith(f"tool: warning: {path}: Expected ']' at the end of a table")
    assert err.endswith("; [tool.tool] not read\n")


@pytest.mark.parametrize(
    "text", ["[tool.tool]\nlevel = 2\n", "[tool.tool.add]\nlevel = 2\n", "tool.tool.level = 2\n"]
)
def test_without_a_toml_reader_a_pyproject_table_is_said_to_be_unread(
    monkeypatch: pytest.MonkeyPatch,
    project: Path,
    capsys: pytest.CaptureFixture[str],
    text: str,
) -> None:
    """Python 3.9 and 3.10 have no tomllib: `[tool.tool]` is not read, and the tool says so
    (a warning, and `--explain` names the file as not read), never a silent default."""
    monkeypatch.setitem(sys.modules, "tomllib", None)  # NOTE: `import tomllib` then fails
    (project / "pyproject.toml").write_text(text)
    call = _call({})
    call.sources.full = True
    call.explaining = True
    assert call.value("level", _Int.convert, 1, flag="--level", env="TOOL_LEVEL") == 1
    where = f"{project / 'pyproject.toml'} [tool.tool]"
    assert capsys.readouterr().err == (
        f"tool: warning: {where} not read: reading TOML needs Python 3.11 or later\n"
    )
    pyproject = call.provenance["level"]["candidates"][-2]
    assert pyproject["from"] == f"pyproject {where} (not read: TOML needs Python 3.11 or later)"


def test_stray_keys_know_prompts_and_quote_what_toml_quotes(
    monkeypatch: pytest.MonkeyPatch, project: Path
) -> None:
    recipe = table._from_row(
        (str, "A recipe.", kinds._Any, (("dish", ("--dish",), "_Str", ..., ()),), ()),
        {"_Str": kinds._Str},
    )
    tool = program(commands=_ROWS, prompts={"recipe": recipe})
    # NOTE: a prompt's options are read from the top level and from `[prompt.recipe]`.
    assert sources._stray_keys({"dish": "soup", "prompt": {"recipe": {"dish": "x"}}}, tool) == []
    assert sources._stray_keys({"prompt": {"recipe": {"dsh": "x"}}}, tool) == [
        "'prompt.recipe.dsh' (did you mean 'dish'?)"
    ]
    # NOTE: `_lookup` never reads a key that holds a space: no command's table is named so.
    assert sources._stray_keys({"tasks purge": {"done_only": True}, "add title": "x"}, tool) == [
        "'\"add title\"'",
        "'\"tasks purge\"' (did you mean 'tasks.purge'?)",
    ]


def test_several_env_vars_are_read_in_order(monkeypatch: pytest.MonkeyPatch, project: Path) -> None:
    """An option's several env vars (a Click option's `envvar=` list, then its
    `auto_envvar_prefix` name): the first set and not empty wins, as Click reads them."""
    names = ("TOOL_A", "TOOL_B", "TOOL_C")
    for name in names:
        monkeypatch.delenv(name, raising=False)

    def level(call: _Call) -> int:
        return call.value("level", _Int.convert, 1, flag="--level", env=names)

    assert level(_call({})) == 1
    monkeypatch.setenv("TOOL_C", "3")
    assert level(_call({})) == 3
    monkeypatch.setenv("TOOL_A", "")
    monkeypatch.setenv("TOOL_B", "2")
    call = _call({})
    call.sources.full = True
    call.explaining = True
    assert level(call) == 2
    assert call.provenance["level"]["from"] == "env TOOL_B"
    assert [each["from"] for each in call.provenance["level"]["candidates"]][1:4] == [
        "env TOOL_A", "env TOOL_B", "env TOOL_C",
    ]  # fmt: skip
    assert level(_call({"level": 9})) == 9
