"""Boolean flags spelled as in Click and argparse: a pair with a custom off form
(`--shallow/--deep`), an off form alone (`--no-input`, `input=False`), a flag with none
(`--force` alone), and an on-flag that is itself named `--no-...` (`no_cache`).

Each keeps its parameter's name as the JSON key; the command line, help, the schema and
completion all say the same flags (tests/test_quickargs.py checks the quick reading against
argparse on the golden kitchen's `store restock`, which has them all).
"""

from __future__ import annotations

import importlib.util
import json
import sys
from types import ModuleType
from typing import Any

import pytest

from tests.helpers import generate

CLONE = '''\
"""A clone tool whose flags came from Click."""
from typing import Annotated, Any

from burgee import Argument, Option, command, program

program(name="vcs", version="1.0.0")


def remotes(partial: str, context: dict[str, Any]) -> list[str]:
    """Offers what the flags typed so far say, for the test to read."""
    options = context["options"]
    return [f"{key}={options[key]}" for key in sorted(options)]


@command(effects="non_idempotent")
def clone(
    source: Annotated[str, Argument(complete=remotes)],
    shallow: Annotated[bool, Option("-s", "--shallow", off="--deep", help="Copy the tip")] = False,
    input: Annotated[bool, Option("--no-input", help="Never ask")] = True,
    force: Annotated[bool, Option(off=False, help="Overwrite")] = False,
    no_cache: bool = False,
    depth: int = 0,
    quiet: bool = False,
) -> dict[str, Any]:
    """Copy a repository."""
    return {"shallow": shallow, "input": input, "force": force, "no_cache": no_cache}


@command(effects="read_only")
def mirror(sparse: Annotated[bool, Option("--sparse", off="--full")]) -> bool:
    """A required flag pair: one of its two forms must be given."""
    return sparse
'''


@pytest.fixture(scope="module")
def vcs(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path = generate(tmp_path_factory.mktemp("boolflags"), CLONE)
    spec = importlib.util.spec_from_file_location("boolflags_vcs", path)
    assert spec is not None and spec.loader is not None
    module: ModuleType = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


DEFAULTS = {"shallow": False, "input": True, "force": False, "no_cache": False}


@pytest.mark.parametrize(
    ("argv", "changed"),
    [
        ([], {}),
        (["--shallow"], {"shallow": True}),
        (["-s"], {"shallow": True}),
        (["--shallow", "--deep"], {}),
        (["--no-input"], {"input": False}),
        (["--force"], {"force": True}),
        (["--no-cache"], {"no_cache": True}),
        (
            ["-s", "--no-input", "--force", "--no-cache"],
            {**DEFAULTS, "input": False} | {"shallow": True, "force": True, "no_cache": True},
        ),
    ],
)
@pytest.mark.parametrize("reader", ["quick", "argparse"])
def test_each_spelling_sets_its_parameter(
    vcs: Any, argv: list[str], changed: dict[str, bool], reader: str
) -> None:
    # NOTE: a value that starts with "-" sends the line to argparse, which must agree.
    extra = ["--depth=-1"] if reader == "argparse" else []
    result = vcs.invoke(["clone", "src", *argv, *extra, "--json"])
    assert result.exit_code == 0, result.stderr
    assert result.envelope["data"] == {**DEFAULTS, **changed}


@pytest.mark.parametrize("word", ["--no-shallow", "--input", "--no-force", "--no-no-cache"])
def test_a_form_that_was_not_declared_is_refused(vcs: Any, word: str) -> None:
    result = vcs.invoke(["clone", "src", word, "--json"])
    assert result.exit_code == 2
    assert result.envelope["error"]["kind"] == "usage"
    assert word in result.envelope["error"]["message"]


@pytest.mark.parametrize(
    ("argv", "key", "said"),
    [
        (["--deep"], "shallow", "flag --deep"),
        (["--shallow"], "shallow", "flag --shallow"),
        (["--no-input"], "input", "flag --no-input"),
        (["--no-quiet"], "quiet", "flag --no-quiet"),
        (["--quiet"], "quiet", "flag --quiet"),
    ],
)
@pytest.mark.parametrize("reader", ["quick", "argparse"])
def test_where_a_value_came_from_names_the_form_given(
    vcs: Any, argv: list[str], key: str, said: str, reader: str
) -> None:
    """`meta.provenance` and `--explain` name the flag that was typed: `--deep`, not the
    `--shallow` it turns off."""
    extra = ["--depth=-1"] if reader == "argparse" else []
    result = vcs.invoke(["clone", "src", *argv, *extra, "--json"])
    assert result.envelope["meta"]["provenance"][key]["from"] == said
    explained = vcs.invoke(["clone", "src", *argv, *extra, "--explain", key]).stdout
    assert f"from {said}\n" in explained


def test_json_input_keys_stay_the_parameter_names(vcs: Any) -> None:
    given = json.dumps({"source": "src", "shallow": True, "input": False, "no_cache": True})
    result = vcs.invoke(["clone", "--json", given])
    assert result.exit_code == 0, result.stderr
    assert result.envelope["data"] == {
        **DEFAULTS,
        "shallow": True,
        "input": False,
        "no_cache": True,
    }


def test_a_required_pair_takes_either_form(vcs: Any) -> None:
    assert vcs.invoke(["mirror", "--full", "--json"]).envelope["data"] is False
    assert vcs.invoke(["mirror", "--sparse", "--json"]).envelope["data"] is True
    assert vcs.invoke(["mirror", "--json"]).exit_code == 2


def test_help_shows_the_declared_forms(vcs: Any) -> None:
    text = vcs.invoke(["clone", "--help"]).stdout
    assert "-s, --shallow, --deep" in text
    assert "--no-input" in text and "--input" not in text.replace("--no-input", "")
    assert "--no-force" not in text and "--no-no-cache" not in text
    # NOTE: "(default: on)" beside a flag that turns it off would read as the flag's default.
    line = next(line for line in text.splitlines() if "--no-input" in line and "Never" in line)
    assert "default" not in line
    usage = vcs.invoke(["mirror", "--help"]).stdout
    assert "--sparse | --full" in usage


def test_the_schema_names_the_off_forms(vcs: Any) -> None:
    schema = vcs.invoke(["schema"]).envelope
    schema = schema.get("data", schema)
    command = next(c for c in schema["commands"] if c["name"] == "clone")
    args = {arg["name"]: arg for arg in command["args"]}
    assert args["--shallow"]["burgee_off"] == ["--deep"]
    assert args["--no-input"]["burgee_off"] == ["--no-input"]
    assert args["--no-input"]["burgee_key"] == "input"
    assert args["--force"]["burgee_off"] == []
    assert args["--no-cache"]["burgee_off"] == []
    assert args["--no-cache"].get("burgee_key") is None


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish", "pwsh"])
def test_completion_offers_the_declared_forms(vcs: Any, shell: str) -> None:
    script = vcs.invoke(["completion", shell]).stdout
    for word in ("--shallow", "--deep", "--no-input", "--force", "--no-cache"):
        assert word in script, word
    for word in ("--no-shallow", "--no-deep", "--no-force", "--no-no-cache"):
        assert word not in script, word


def test_dynamic_completion_reads_the_off_forms(vcs: Any) -> None:
    result = vcs.invoke(["__complete", "clone", "-s", "--deep", "--no-input", "--no-cache", ""])
    assert result.stdout.split() == ["input=False", "no_cache=True", "shallow=False"]
