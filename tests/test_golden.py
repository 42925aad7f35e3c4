"""Golden files: the committed generated modules are exactly what burgee makes today,
and every one of them is clean, typed, Python 3.9 compatible and deterministic."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from burgee.render.embedded import DOCUMENTS, SHORT, decode, encode, normalized
from burgee.render.sections import HEADING, OPEN, expand, unwrap
from burgee.runtime.commandline.complete import _completion_script
from burgee.runtime.start.boot import PACKED
from tests.helpers import CASE_INPUTS, GOLDEN, REGEN, REPO, burgee_in_process, in_process
from tests.regen import example_gen_args, golden_gen_args, golden_output

CASES = sorted(p.parent for p in GOLDEN.glob("*/handlers.py")) + sorted(
    p.parent for p in (REPO / "examples").glob("*/handlers.py")
)
MODULES = [golden_output(case) for case in CASES]


@pytest.fixture(scope="module")
def plain(plain_tool: Callable[[Path], Path]) -> list[Path]:
    """Each module built with `burgee gen --plain`: the code its `_CODE` string holds, as
    ordinary code that linters and type checkers read, and a form users get
    (tests/test_plain.py: it answers as the default form does)."""
    return [plain_tool(case) for case in CASES]


@pytest.fixture(scope="module")
def packed(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Each module as `burgee gen` writes it: its code packed (the goldens keep it unpacked)."""
    found = []
    for case in CASES:
        work = tmp_path_factory.mktemp(case.name)
        _copy_inputs(case, work)
        out = work / golden_output(case).name
        result = burgee_in_process("gen", "handlers.py", "-o", out.name, cwd=work)
        assert result.returncode == 0, result.stderr
        assert "\n" + HEADING + PACKED in out.read_text(encoding="utf-8")
        found.append(out)
    return found


def _id(path: Path) -> str:
    return str(path.relative_to(REPO))


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_committed_output_is_current(case: Path, tmp_path: Path) -> None:
    expected = golden_output(case)
    # NOTE: same directory name, since a program without program(name=) is named after it.
    work = tmp_path / case.name
    work.mkdir()
    _copy_inputs(case, work)
    result = burgee_in_process("gen", "handlers.py", "-o", expected.name, cwd=work)
    assert result.returncode == 0, result.stderr
    generated = (work / expected.name).read_text(encoding="utf-8")
    # NOTE: `_DATA` is compared decoded: zlib builds may compress the same text differently.
    committed = expected.read_text(encoding="utf-8")
    assert normalized(generated) == normalized(committed), (
        f"{_id(expected)} is stale; run `{REGEN}` and review the diff"
    )


def _as_committed(path: Path) -> bytes:
    """The bytes `python tests/regen.py` keeps of a generated file: a module with the code of
    its string unpacked (`tests/regen.expanded`)."""
    if path.suffix != ".py":
        return path.read_bytes()
    return expand(path.read_text(encoding="utf-8")).encode("utf-8")


def _copy_inputs(case: Path, work: Path) -> None:
    for name in CASE_INPUTS:
        if (case / name).exists():
            shutil.copy(case / name, work / name)


#: Where regen writes a case's completion scripts and its skill (SKILL.md, AGENTS.md).
OUTPUT_DIRS = ("completions", "skill")


def _files(root: Path) -> set[str]:
    return {
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }


def _committed_outputs(case: Path) -> set[str]:
    """The committed files regen writes for `case`: in a golden case, everything but its
    handlers.py; in an example (which also holds data of its own), the module, whatever is
    under OUTPUT_DIRS and any SKILL.md or AGENTS.md."""
    files = _files(case) - set(CASE_INPUTS)
    if case.parent == GOLDEN:
        return files
    return {
        name
        for name in files
        if name == golden_output(case).name
        or name.split("/")[0] in OUTPUT_DIRS
        or name.rsplit("/", 1)[-1] in ("SKILL.md", "AGENTS.md")
    }


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_every_regenerated_file_is_committed_and_current(case: Path, tmp_path: Path) -> None:
    """What `python tests/regen.py` writes for a case (module, completion scripts, SKILL.md,
    AGENTS.md), regenerated the same way elsewhere, is exactly what is committed."""
    args = golden_gen_args if case.parent == GOLDEN else example_gen_args
    # NOTE: same directory name, since a program without program(name=) is named after it.
    work = tmp_path / case.name
    work.mkdir()
    _copy_inputs(case, work)
    result = burgee_in_process(*args(golden_output(case)), cwd=work)
    assert result.returncode == 0, result.stderr
    produced = _files(work) - set(CASE_INPUTS)
    committed = _committed_outputs(case) | {name for name in produced if (case / name).exists()}
    hint = f"run `{REGEN}` and review the diff"
    assert sorted(produced - committed) == [], f"generated but not committed; {hint}"
    assert sorted(committed - produced) == [], f"committed but no longer generated; {hint}"
    stale = [n for n in sorted(produced) if _as_committed(work / n) != (case / n).read_bytes()]
    assert stale == [], f"stale in {_id(case)}; {hint}"


@pytest.mark.parametrize("case", CASES[:1], ids=_id)
def test_output_does_not_depend_on_hash_seed(case: Path, tmp_path: Path) -> None:
    outputs = []
    for seed in ("0", "1", "12345"):
        out = tmp_path / seed / "out.py"
        env = {**os.environ, "PYTHONHASHSEED": seed}
        subprocess.run(
            [sys.executable, "-m", "burgee", "gen", str(case / "handlers.py"), "-o", str(out)],
            env=env,
            check=True,
            capture_output=True,
        )
        outputs.append(out.read_text(encoding="utf-8"))
    assert outputs[0] == outputs[1] == outputs[2]


@pytest.mark.parametrize("module", MODULES, ids=_id)
def test_generated_module_compiles_and_stands_alone(module: Path) -> None:
    source = module.read_text(encoding="utf-8")
    compile(source, str(module), "exec")
    assert OPEN in source  # NOTE: the code is compiled once, then cached
    compile(unwrap(source), str(module), "exec")
    assert "burgee" not in "".join(
        line for line in source.splitlines(keepends=True) if line.startswith(("import ", "from "))
    )
    assert source.startswith("#!/usr/bin/env python3\n# Generated by burgee ")


@pytest.mark.slow
def test_ruff_is_clean(plain: list[Path], packed: list[Path]) -> None:
    ruff = [sys.executable, "-m", "ruff", "check", "--isolated", "--no-cache"]
    result = subprocess.run(
        [*ruff, *map(str, [*MODULES, *plain, *packed])], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_clean(plain: list[Path], packed: list[Path]) -> None:
    # NOTE: gen formats every module with ruff at burgee's line length; nothing to reformat
    # (the packed code's lines neither: `# ` and 98 characters).
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", "--isolated", "--line-length", "100"]
        + [str(module) for module in [*MODULES, *plain, *packed]],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
@pytest.mark.parametrize("as_written", [True, False], ids=["as-written", "plain"])
@pytest.mark.parametrize("index", range(len(MODULES)), ids=[_id(m) for m in MODULES])
def test_mypy_strict_is_clean(
    index: int, as_written: bool, plain: list[Path], tmp_path: Path
) -> None:
    module = MODULES[index] if as_written else plain[index]
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "--cache-dir",
            str(tmp_path),
            str(module),
        ],
        capture_output=True,
        text=True,
        check=False,
        cwd=module.parent,
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_runs_on_python_3_9(plain: list[Path]) -> None:
    # NOTE: annotations are strings under `from __future__ import annotations`, so vermin
    # judges the code that runs, which is what must work on 3.9.
    # NOTE: vermin's console script, run by this interpreter (the package has no __main__),
    # so it is this environment's vermin even when its scripts directory is not on PATH.
    vermin = [sys.executable, "-c", "import sys; from vermin import main; sys.exit(main())"]
    result = subprocess.run(
        [*vermin, "--no-tips", "--violations", "-t=3.9-", *map(str, [*MODULES, *plain])],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("module", MODULES, ids=_id)
def test_embedded_documents_decode_to_what_the_tool_prints(module: Path, tmp_path: Path) -> None:
    documents = decode(module.read_text(encoding="utf-8"))
    tool = in_process(module, cwd=tmp_path)
    fish = tool.run("completion", "fish")
    assert fish.code == 0, fish
    shown = fish.out
    # NOTE: the script is rendered at run time from the table; here the same renderer,
    # in-process, from the decoded table, must give the same text.
    source = module.read_text(encoding="utf-8")
    table = json.loads(documents["completion"])
    expected = _completion_script("fish", module.stem, table, "\n_CONFIG = True\n" in source)
    assert shown == expected
    assert shown.startswith("# Generated by burgee: fish completion")
    skill = tool.run("--skill")
    assert skill.code == 0, skill
    assert skill.out == documents["skill"]


def test_short_mcp_lists_are_plain_text_and_long_ones_stay_packed() -> None:
    """A session lists short MCP lists without decoding `_DATA` (runtime/core/embedded.py):
    they are written out of it, as plain text; a long one stays packed with the rest."""
    documents = {name: json.dumps({"name": name}) for name in DOCUMENTS}
    short = encode(documents)
    assert decode(short) == documents
    assert "mcp_tools" in short.partition("_MCP_LISTS")[2]
    # NOTE: `_DATA` alone: the tool list is not in it a second time.
    assert set(decode(short.replace("_MCP_LISTS", "_OTHER"))) == set(DOCUMENTS) - {"mcp_tools"}
    documents["mcp_tools"] = json.dumps({"tools": ["x" * SHORT]})
    long = encode(documents)
    assert "_MCP_LISTS: dict[str, str] = {}\n" in long
    assert decode(long) == documents
