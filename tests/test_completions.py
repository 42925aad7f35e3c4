"""Completion scripts, driven by the real shells: what TAB offers at several cursor positions.

bash runs the registered function with COMP_WORDS/COMP_CWORD as readline would set them
(with bash-completion loaded, and without it); zsh runs the generated function with
`words`/`CURRENT`/`PREFIX` set and `compadd` captured; fish answers `complete -C LINE`.
No terminal, no timing: each case is one shell process that prints the candidates.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import GOLDEN, REGEN, REPO, burgee, generate, run

#: Slow: real bash, zsh and fish (`pytest -m "not slow"` leaves it out).
pytestmark = pytest.mark.slow

TOOL = GOLDEN / "kitchen" / "kitchen.py"
SCRIPTS = GOLDEN / "kitchen" / "completions"
BASH_COMPLETION = Path("/usr/share/bash-completion/bash_completion")
COMMANDS = ["types", "draw", "fail", "store", "output", "completion"]


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """PATH with a `kitchen` that runs the golden tool and logs every run; a dir with files."""
    root = tmp_path_factory.mktemp("shells")
    bin_dir = root / "bin"
    bin_dir.mkdir()
    log = root / "runs.log"
    wrapper = bin_dir / "kitchen"
    wrapper.write_text(
        f'#!/bin/sh\necho "$*" >> "{log}"\nexec "{sys.executable}" "{TOOL}" "$@"\n',
        encoding="utf-8",
    )
    wrapper.chmod(0o755)
    work = root / "work"
    (work / "beta-dir").mkdir(parents=True)
    (work / "alpha.txt").write_text("a", encoding="utf-8")
    environ = {k: v for k, v in os.environ.items() if not k.endswith("_DEBUG")}
    environ.update(
        PATH=f"{bin_dir}{os.pathsep}{environ['PATH']}",
        HOME=str(root),
        LOG=str(log),
        WORK=str(work),
        XDG_CONFIG_HOME=str(root / "config"),
        XDG_DATA_HOME=str(root / "data"),
    )
    return environ


def _runs(env: dict[str, str]) -> list[str]:
    log = Path(env["LOG"])
    return log.read_text(encoding="utf-8").splitlines() if log.exists() else []


def _words(line: str) -> list[str]:
    """The words readline makes of `line`: split at blanks, and at `=` (COMP_WORDBREAKS)."""
    words: list[str] = []
    for token in line.split(" "):
        parts = re.split(r"(=)", token)
        words.extend(p for p in parts if p != "") if "=" in token else words.append(token)
    return words


def bash(
    env: dict[str, str],
    line: str,
    *,
    with_bash_completion: bool = True,
    script: Path = SCRIPTS / "kitchen",
) -> list[str]:
    """What bash offers for `line` in $WORK, from a tool's script (the file named as the tool)."""
    if shutil.which("bash") is None:
        pytest.skip("bash is not installed")
    words = _words(line)
    load = f"source {BASH_COMPLETION}\n" if with_bash_completion else ""
    if with_bash_completion and not BASH_COMPLETION.exists():
        pytest.skip("bash-completion is not installed")
    quoted = " ".join("'" + w.replace("'", "'\\''") + "'" for w in words)
    name = script.name
    program = (
        f"{load}source '{script}'\n"
        f'cd "$WORK"\nCOMP_WORDS=({quoted})\nCOMP_CWORD={len(words) - 1}\n'
        f"COMP_LINE='{line}'\nCOMP_POINT=${{#COMP_LINE}}\n"
        f'_{name}_completion {name} "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD-1]}}"\n'
        "printf '%s\\n' \"${COMPREPLY[@]}\"\n"
    )
    proc = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", program],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "", f"the shell printed to stderr: {proc.stderr}"
    return [w for w in proc.stdout.splitlines() if w]


ZSH_HARNESS = r"""
compdef() { : }
_files() { print -r -- '<files>' }
compset() { [[ $1 == -P ]] && PREFIX=${PREFIX#*=}; return 0 }
compadd() {
    while (( $# )); do
        case $1 in
            (-d) shift 2 ;;
            (--) shift; break ;;
            (*) shift ;;
        esac
    done
    local c
    for c in "$@"; do [[ $c == ${PREFIX}* ]] && print -r -- $c; done
}
"""


def zsh(env: dict[str, str], line: str, *, script: Path = SCRIPTS / "_kitchen") -> list[str]:
    """What zsh offers for `line` in $WORK, from a tool's script (named as its function)."""
    if shutil.which("zsh") is None:
        pytest.skip("zsh is not installed")
    words = line.split(" ")
    quoted = " ".join("'" + w.replace("'", "'\\''") + "'" for w in words)
    program = (
        f"{ZSH_HARNESS}\nsource '{script}'\ncd \"$WORK\"\n"
        f"words=({quoted}); CURRENT={len(words)}; PREFIX=${{words[CURRENT]}}\n{script.name}\n"
    )
    proc = subprocess.run(
        ["zsh", "-f", "-c", program],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "", f"the shell printed to stderr: {proc.stderr}"
    return [w for w in proc.stdout.splitlines() if w]


def fish(env: dict[str, str], line: str, *, script: Path = SCRIPTS / "kitchen.fish") -> list[str]:
    """What fish offers for `line` in $WORK, from a tool's script."""
    if shutil.which("fish") is None:
        pytest.skip("fish is not installed")
    program = f"source '{script}'; cd $WORK; complete -C '{line}'"
    proc = subprocess.run(
        ["fish", "--no-config", "-c", program],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "", f"the shell printed to stderr: {proc.stderr}"
    return [w.split("\t")[0] for w in proc.stdout.splitlines() if w]


SHELLS = {"bash": bash, "zsh": zsh, "fish": fish}

STATIC = [
    ("kitchen ", COMMANDS),
    ("kitchen st", ["store"]),
    ("kitchen store ", ["shelf", "wipe", "pick", "restock"]),
    # NOTE: a bool's declared off forms only: `--deep` of `--shallow`, `--no-color` alone, no
    # `--no-force` (`off=False`), `--no-cache` on its own (no `--no-no-cache`).
    ("kitchen store restock a --dee", ["--deep"]),
    ("kitchen store restock a --no-", ["--no-color", "--no-cache"]),
    ("kitchen store restock a --fo", ["--force"]),
    ("kitchen store shelf ", ["count", "nap"]),
    ("kitchen --json store shelf n", ["nap"]),
    ("kitchen types hello 3 --mode ", ["fast", "slow"]),
    ("kitchen types hello 3 --color ", ["red", "green", "blue"]),
    ("kitchen types hello 3 --level ", ["1", "2"]),
    ("kitchen fail ", ["missing", "busy", "crash", "print"]),
    ("kitchen -o ", ["json", "text"]),
    ("kitchen completion ", ["bash", "zsh", "fish", "pwsh"]),
    ("kitchen store shelf count ", []),
    ("kitchen store shelf count a b ", []),
    ("kitchen store shelf count -- ", []),
    ("kitchen store shelf count -- -", []),
    ("kitchen types hello 3 --ratio ", []),
    # NOTE: the built-in `output REF`: nothing for the reference, its own options by name;
    # `--field` takes a dotted path, not a file.
    ("kitchen output ", []),
    ("kitchen output 0123456789abcdef --li", ["--limit"]),
    ("kitchen --schema --field ", []),
]


@pytest.mark.parametrize("shell", sorted(SHELLS))
@pytest.mark.parametrize(("line", "expected"), STATIC)
def test_static_values_never_run_the_tool(
    shell: str, line: str, expected: list[str], env: dict[str, str]
) -> None:
    before = len(_runs(env))
    assert SHELLS[shell](env, line) == expected
    assert len(_runs(env)) == before, "TAB ran the tool for a static value"


@pytest.mark.parametrize("shell", sorted(SHELLS))
def test_options_of_a_command(shell: str, env: dict[str, str]) -> None:
    offered = SHELLS[shell](env, "kitchen store wipe --")
    assert {"--force", "--no-force", "--yes", "--json", "--output", "--help"} <= set(offered)
    assert "--version" not in offered
    root = SHELLS[shell](env, "kitchen --")
    assert {"--version", "--skill", "--json"} <= set(root)


@pytest.mark.parametrize("shell", ["bash", "fish"])
def test_option_equals_value(shell: str, env: dict[str, str]) -> None:
    offered = SHELLS[shell](env, "kitchen types hello 3 --mode=")
    assert [o.removeprefix("--mode=") for o in offered] == ["fast", "slow"]


def test_zsh_option_equals_value(env: dict[str, str]) -> None:
    assert zsh(env, "kitchen types hello 3 --mode=f") == ["fast"]


def test_file_names(env: dict[str, str]) -> None:
    assert set(bash(env, "kitchen types hello 3 --path ")) == {"alpha.txt", "beta-dir"}
    assert set(bash(env, "kitchen --batch ")) == {"alpha.txt", "beta-dir"}
    assert set(bash(env, "kitchen --spill-dir ")) == {"alpha.txt", "beta-dir"}
    assert bash(env, "kitchen types hello 3 --path al") == ["alpha.txt"]
    assert set(fish(env, "kitchen types hello 3 --path ")) == {"alpha.txt", "beta-dir/"}
    assert zsh(env, "kitchen store pick x --into ") == ["<files>"]


@pytest.mark.parametrize("shell", sorted(SHELLS))
def test_dynamic_values_run_the_tool(shell: str, env: dict[str, str]) -> None:
    before = len(_runs(env))
    assert SHELLS[shell](env, "kitchen store pick ap") == ["apples", "apricots"]
    assert _runs(env)[before:] == ["__complete store pick ap"]
    # the completer sees the options already typed, coerced
    assert SHELLS[shell](env, "kitchen store pick -s back ") == ["boxes", "brooms"]
    assert SHELLS[shell](env, "kitchen store pick x --size ") == ["small", "medium", "large"]
    assert SHELLS[shell](env, "kitchen store pick boom") == []


def test_bash_without_bash_completion(env: dict[str, str]) -> None:
    assert bash(env, "kitchen store ", with_bash_completion=False) == [
        "shelf",
        "wipe",
        "pick",
        "restock",
    ]
    assert bash(env, "kitchen types hello 3 --mode ", with_bash_completion=False) == [
        "fast",
        "slow",
    ]
    offered = bash(env, "kitchen types hello 3 --mode=", with_bash_completion=False)
    assert offered == ["fast", "slow"]
    assert bash(env, "kitchen store pick -s back ", with_bash_completion=False) == [
        "boxes",
        "brooms",
    ]


def test_zsh_descriptions_and_registration() -> None:
    text = (SCRIPTS / "_kitchen").read_text(encoding="utf-8")
    assert text.startswith("#compdef kitchen\n")
    assert "'Count letters in each name.'" in text


# ---- The __complete protocol (what every script, pwsh included, relies on) ----


def test_complete_protocol() -> None:
    assert run(TOOL, "__complete", "store", "pick", "").out == (
        "apples\ta shelf of main\napricots\ta shelf of main\nbread\ta shelf of main\n"
    )
    # coerced options; the flag spelled with = ; the completer's print never reaches stdout
    assert run(TOOL, "__complete", "store", "pick", "--store=back", "b").out.split("\n")[0] == (
        "boxes\ta shelf of back"
    )
    assert run(TOOL, "__complete", "store", "pick", "x", "--size=m").out == "medium\n"
    # static values, unknown commands, nothing typed, a completer that raises: nothing
    for words in (["types", "a", "1", "--mode", ""], ["nope", ""], [], ["store", "pick", "boom"]):
        result = run(TOOL, "__complete", *words)
        assert (result.code, result.out) == (0, ""), words
    # after --, the positional is still the completer's to answer
    assert run(TOOL, "__complete", "store", "pick", "--", "br").out == "bread\ta shelf of main\n"


def test_complete_context(tmp_path: Path) -> None:
    tool = generate(
        tmp_path,
        '''
        from typing import Annotated, Any
        from burgee import Argument, Option, command

        def show(partial: str, context: dict[str, Any]) -> list[str]:
            import json
            return [json.dumps(context, sort_keys=True, default=str)]

        @command(effects="read_only")
        def go(
            first: Annotated[int, Argument(complete=show)],
            rest: Annotated[list[str], Argument(complete=show)],
            n: int = 0,
            tag: list[int] = [],
            loud: bool = False,
        ) -> None:
            """Go."""
    ''',
    )
    out = run(
        tool, "__complete", "go", "7", "a", "--n", "x", "--tag", "1", "--tag=2", "--loud", ""
    ).out
    assert out.strip() == (
        '{"options": {"loud": true, "n": "x", "tag": [1, 2]}, "path": "go", "positionals": '
        '[7, "a"], "raw": {"first": "7", "n": "x", "rest": ["a"], "tag": ["1", "2"]}}'
    )


def test_complete_is_fast() -> None:
    times = []
    for _ in range(5):
        start = time.perf_counter()
        run(TOOL, "__complete", "store", "pick", "a")
        times.append(time.perf_counter() - start)
    assert min(times) < 1.0


def test_undefined_completer_is_a_diagnostic(tmp_path: Path) -> None:
    handlers = tmp_path / "handlers.py"
    handlers.write_text(
        "from typing import Annotated\nfrom burgee import Option, command\n\n"
        "@command(effects='read_only')\n"
        "def go(x: Annotated[str, Option(complete=nowhere)] = '') -> None:\n"
        "    '''Go.'''\n",
        encoding="utf-8",
    )
    result = burgee("gen", str(handlers), "-o", str(tmp_path / "out.py"))
    assert result.returncode == 2
    assert "complete=nowhere of 'x' must name a function defined at the top level" in result.stderr


# ---- The scripts themselves ----


@pytest.mark.parametrize(
    ("shell", "name"),
    [("bash", "kitchen"), ("zsh", "_kitchen"), ("fish", "kitchen.fish"), ("pwsh", "kitchen.ps1")],
)
def test_golden_scripts(shell: str, name: str) -> None:
    printed = run(TOOL, "completion", shell)
    assert printed.code == 0
    assert printed.out == (SCRIPTS / name).read_text(encoding="utf-8"), f"stale; run {REGEN}"


def test_pwsh_script_uses_the_protocol() -> None:
    text = (SCRIPTS / "kitchen.ps1").read_text(encoding="utf-8")
    assert "Register-ArgumentCompleter -Native -CommandName 'kitchen'" in text
    assert "__complete @before $wordToComplete" in text
    assert "'store pick#0' = @('dynamic')" in text
    assert "'types|--mode' = @('choice', 'fast', 'slow')" in text


@pytest.mark.parametrize(
    ("shell", "name"), [("bash", "kitchen"), ("zsh", "_kitchen"), ("fish", "kitchen.fish")]
)
def test_scripts_parse_in_their_shells(shell: str, name: str) -> None:
    # NOTE: a missing shell is a visible skip, not a silent pass.
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed")
    flag = "--no-execute" if shell == "fish" else "-n"
    proc = subprocess.run(
        [shell, flag, str(SCRIPTS / name)], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, (shell, proc.stderr)
    assert proc.stderr == "", (shell, proc.stderr)


def test_completion_help_and_errors() -> None:
    help_text = run(TOOL, "completion", "--help")
    assert help_text.code == 0
    for line in (
        "~/.local/share/bash-completion/completions/kitchen",
        '"${fpath[1]}/_kitchen"',
        "~/.config/fish/completions/kitchen.fish",
        ">> $PROFILE",
    ):
        assert line in help_text.out
    bad = run(TOOL, "completion", "tcsh")
    assert bad.code == 2
    assert bad.error_line()["error"]["kind"] == "usage"
    assert run(TOOL, "completion").code == 2
    assert "completion" in run(TOOL, "--help").out


@pytest.mark.parametrize("case", sorted(p.parent.name for p in GOLDEN.glob("*/completions")))
def test_the_tool_prints_the_scripts_gen_writes(case: str) -> None:
    # NOTE: one renderer: `completion SHELL` renders the table in the tool's _DATA at run
    # time; gen --completions called the same function in-process for the sidecar files.
    tool = GOLDEN / case / f"{case}.py"
    names = {"bash": case, "zsh": f"_{case}", "fish": f"{case}.fish", "pwsh": f"{case}.ps1"}
    for shell, name in names.items():
        printed = run(tool, "completion", shell)
        assert printed.code == 0, printed.err
        sidecar = GOLDEN / case / "completions" / name
        assert printed.out == sidecar.read_text(encoding="utf-8"), (case, shell)


def test_gen_writes_and_checks_completions(tmp_path: Path) -> None:
    out = tmp_path / "kitchen.py"
    handlers = str(GOLDEN / "kitchen" / "handlers.py")
    result = burgee("gen", handlers, "-o", str(out), "--completions", str(tmp_path / "c"))
    assert result.returncode == 0, result.stderr
    for name in ("kitchen", "_kitchen", "kitchen.fish", "kitchen.ps1"):
        assert (tmp_path / "c" / name).read_text(encoding="utf-8") == (SCRIPTS / name).read_text(
            encoding="utf-8"
        )
    check = ("gen", handlers, "-o", str(out), "--completions", str(tmp_path / "c"), "--check")
    assert burgee(*check).returncode == 0
    (tmp_path / "c" / "kitchen.fish").write_text("# old\n", encoding="utf-8")
    stale = burgee(*check)
    assert stale.returncode == 1
    assert "kitchen.fish is stale" in stale.stderr
    (tmp_path / "c" / "kitchen").write_text("mine\n", encoding="utf-8")
    refused = burgee("gen", handlers, "-o", str(out), "--completions", str(tmp_path / "c"))
    assert refused.returncode == 2
    assert "was not generated by burgee" in refused.stderr


def test_fish_completes_every_word_of_a_variadic_positional(tmp_path: Path) -> None:
    # NOTE: an unquoted `*` in a fish `case` is a file glob: fish printed "No matches for
    # wildcard" on every TAB after the first word of a variadic positional.
    if shutil.which("fish") is None:
        pytest.skip("fish is not installed")
    tool = REPO / "examples" / "textkit" / "textkit.py"
    script = tmp_path / "textkit.fish"
    script.write_text(run(tool, "completion", "fish").out, encoding="utf-8")
    work = tmp_path / "work"
    work.mkdir()
    for name in ("alpha.txt", "beta.txt"):
        (work / name).write_text("x", encoding="utf-8")
    for line, expected in [
        ("textkit tidy lines ", "alpha.txt\nbeta.txt\n"),
        ("textkit tidy lines alpha.txt b", "beta.txt\n"),
    ]:
        proc = subprocess.run(
            ["fish", "--no-config", "-c", f"source '{script}'; complete -C '{line}'"],
            cwd=work,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert (proc.returncode, proc.stderr, proc.stdout) == (0, "", expected)


QUOTED = '''
"""Values a shell must quote."""

from typing import Annotated, Literal

from burgee import Argument, command, program

program(name="odd", version="1.0.0")


def places(partial: str) -> list[str]:
    return ["with space", "semi;colon", "$HOME", "a:b", "plain"]


@command(effects="read_only")
def go(
    place: Annotated[str, Argument(complete=places)],
    mode: Literal["x y", "it's", "$HOME", "a:b"] = "a:b",
) -> str:
    """Go."""
    return place


@command(effects="read_only")
def stay() -> str:
    """Stay."""
    return "here"
'''


def _bash_with(script: Path, name: str, line: str, path: Path | None = None) -> list[str]:
    """What bash (with bash-completion) offers for `line` from a completion script."""
    if shutil.which("bash") is None or not BASH_COMPLETION.exists():
        pytest.skip("bash or bash-completion is not installed")
    words = line.split(" ")
    quoted = " ".join("'" + w.replace("'", "'\\''") + "'" for w in words)
    program = (
        f"source {BASH_COMPLETION}\nsource '{script}'\n"
        f"COMP_WORDS=({quoted})\nCOMP_CWORD={len(words) - 1}\n"
        f"COMP_LINE={shlex.quote(line)}\nCOMP_POINT=${{#COMP_LINE}}\n"
        f'_{name}_completion {name} "${{COMP_WORDS[COMP_CWORD]}}" '
        '"${COMP_WORDS[COMP_CWORD-1]}"\n'
        "printf '%s\\n' \"${COMPREPLY[@]}\"\n"
    )
    environ = dict(os.environ)
    if path is not None:
        environ["PATH"] = f"{path}{os.pathsep}{environ['PATH']}"
    proc = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", program],
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (proc.returncode, proc.stderr) == (0, "")
    return [word for word in proc.stdout.splitlines() if word]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("odd go --mode ", ["x\\ y", "it\\'s", "\\$HOME", "a:b"]),
        ("odd go --mode 'x", ["x y"]),
        ('odd go --mode "it', ["it's"]),
        ("odd go ", ["with\\ space", "semi\\;colon", "\\$HOME", "a:b", "plain"]),
        ("odd go 'w", ["with space"]),
    ],
)
def test_bash_quotes_the_values_it_inserts(tmp_path: Path, line: str, expected: list[str]) -> None:
    """What bash inserts is read back by the shell as the value itself: `x\\ y`, `\\$HOME`; after
    an opening quote, the value as it is (the quote holds it)."""
    tool = generate(tmp_path, QUOTED)
    script = tmp_path / "odd.bash"
    script.write_text(run(tool, "completion", "bash").out, encoding="utf-8")
    (tmp_path / "odd").write_text(f'#!/bin/sh\nexec "{sys.executable}" "{tool}" "$@"\n')
    (tmp_path / "odd").chmod(0o755)
    assert sorted(_bash_with(script, "odd", line, tmp_path)) == sorted(expected)


@pytest.mark.parametrize(
    ("line", "expected"),
    [("clikit --sh", ["--shout"]), ("clikit --shout --n", ["--no-shout"])],
)
def test_the_root_commands_options_complete_without_a_command_word(
    line: str, expected: list[str]
) -> None:
    """`clikit greet` is the root command: `clikit --shout Ada` runs it, so its options complete
    where a command word could stand."""
    assert _bash_with(GOLDEN / "clikit" / "completions" / "clikit", "clikit", line) == expected


def test_fish_completes_after_an_opening_quote(tmp_path: Path) -> None:
    if shutil.which("fish") is None:
        pytest.skip("fish is not installed")
    tool = generate(tmp_path, QUOTED)
    script = tmp_path / "odd.fish"
    script.write_text(run(tool, "completion", "fish").out, encoding="utf-8")
    (tmp_path / "odd").write_text(f'#!/bin/sh\nexec "{sys.executable}" "{tool}" "$@"\n')
    (tmp_path / "odd").chmod(0o755)
    environ = {**os.environ, "PATH": f"{tmp_path}{os.pathsep}{os.environ['PATH']}"}
    found = {}
    for line in ("odd go 'w", 'odd go "se', "odd go --mode 'x"):
        program = f"source {shlex.quote(str(script))}; complete -C {shlex.quote(line)}"
        proc = subprocess.run(
            ["fish", "--no-config", "-c", program],
            env=environ,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert (proc.returncode, proc.stderr) == (0, "")
        found[line] = [w.split("\t")[0] for w in proc.stdout.splitlines()]
    assert found == {
        "odd go 'w": ["with space"],
        'odd go "se': ["semi;colon"],
        "odd go --mode 'x": ["x y"],
    }


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("pantry pr", ["prompt"]),
        ("pantry prompt ", ["shopping-list", "recipe"]),
        ("pantry prompt recipe --di", ["--dish"]),
        ("pantry prompt shopping-list --b", ["--budget"]),
        ("pantry resource ", ["pantry://inventory", "pantry://notes"]),
    ],
)
def test_prompt_names_and_resource_uris_complete(line: str, expected: list[str]) -> None:
    """`prompt` and `resource`, as root help lists them, and what they take: a prompt's name,
    a resource's URI (a template has no fixed words to offer)."""
    script = GOLDEN / "pantry" / "completions" / "pantry"
    assert _bash_with(script, "pantry", line) == expected


def test_fish_completes_file_names_after_an_option_and_equals(tmp_path: Path) -> None:
    if shutil.which("fish") is None:
        pytest.skip("fish is not installed")
    (tmp_path / "foo.json").write_text("[]", encoding="utf-8")
    (tmp_path / "fab.txt").write_text("", encoding="utf-8")
    script = tmp_path / "todo.fish"
    script.write_text(run(REPO / "examples" / "todo" / "todo.py", "completion", "fish").out)
    proc = subprocess.run(
        ["fish", "--no-config", "-c", f"source {script}; complete -C 'todo list --store=f'"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert (proc.returncode, proc.stderr) == (0, "")
    assert sorted(proc.stdout.split()) == ["--store=fab.txt", "--store=foo.json"]


ROOTED = '''
"""Ft: files."""

from pathlib import Path
from typing import Annotated

from burgee import Argument, command, program

program(name="ft", version="1.0.0")


@command(effects="read_only", root=True)
def stat(paths: Annotated[list[Path], Argument()], lines: bool = False) -> list[str]:
    """Stat files (the root command)."""
    return [str(p) for p in paths]


@command(effects="read_only")
def other() -> str:
    """Another command."""
    return "x"
'''


def test_the_root_commands_argument_completes_beside_the_commands(tmp_path: Path) -> None:
    """`ft FILE` runs the root command: the first word completes to files and commands, a
    later one to files only (a command's name there would be read as a file)."""
    for needed in ("bash", "zsh", "fish"):
        if shutil.which(needed) is None:
            pytest.skip(f"{needed} is not installed")
    tool = generate(tmp_path, ROOTED)
    work = tmp_path / "work"
    work.mkdir()
    (work / "alpha.txt").write_text("x", encoding="utf-8")
    scripts = {"bash": tmp_path / "ft", "zsh": tmp_path / "_ft", "fish": tmp_path / "ft.fish"}
    for shell, script in scripts.items():
        script.write_text(run(tool, "completion", shell).out, encoding="utf-8")
    env = {**os.environ, "WORK": str(work)}

    def offered(shell: str, line: str) -> set[str]:
        return set(SHELLS[shell](env, line, script=scripts[shell]))

    files = {"bash": "alpha.txt", "zsh": "<files>", "fish": "alpha.txt"}
    for shell in scripts:
        first = offered(shell, "ft ")
        assert {files[shell], "stat", "other", "output", "completion"} <= first, (shell, first)
        assert offered(shell, "ft o") >= {"other", "output"}, shell
        later = offered(shell, "ft alpha.txt ")
        assert files[shell] in later and not {"stat", "other"} & later, (shell, later)


SEVERAL = '''
"""Options of several values after one flag (nargs, tuples)."""

from typing import Annotated, Literal

from burgee import Argument, Option, command, program

program(name="picker", version="1.0.0")

Colour = Literal["red", "green", "blue"]


def keys(partial: str) -> list[str]:
    return ["key-a", "key-b"]


@command(effects="read_only")
def go(
    where: Annotated[Literal["one", "two"], Argument()],
    pick: Annotated[list[Colour], Option(nargs="+")] = [],
    two: Annotated[list[Colour], Option(nargs=2)] = [],
    pair: Annotated[tuple[Literal["x", "y"], Colour], Option()] = ("x", "red"),
    key: Annotated[list[str], Option(nargs="*", complete=keys)] = [],
) -> str:
    """Go."""
    return where


@command(effects="read_only")
def stay() -> str:
    """Stay."""
    return "here"
'''

COLOURS = ["red", "green", "blue"]


@pytest.fixture(scope="module")
def picker(tmp_path_factory: pytest.TempPathFactory, env: dict[str, str]) -> dict[str, Any]:
    """The picker tool's scripts, and an environment with `picker` on PATH."""
    folder = tmp_path_factory.mktemp("picker")
    tool = generate(folder, SEVERAL)
    bin_dir = folder / "bin"
    bin_dir.mkdir()
    (bin_dir / "picker").write_text(f'#!/bin/sh\nexec "{sys.executable}" "{tool}" "$@"\n')
    (bin_dir / "picker").chmod(0o755)
    scripts = {"bash": folder / "picker", "zsh": folder / "_picker", "fish": folder / "picker.fish"}
    for shell, path in scripts.items():
        path.write_text(run(tool, "completion", shell).out, encoding="utf-8")
    return {"scripts": scripts, "env": {**env, "PATH": f"{bin_dir}{os.pathsep}{env['PATH']}"}}


@pytest.mark.parametrize("shell", sorted(SHELLS))
@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # NOTE: every value of an option of several is completed, not its first only.
        ("picker go --pick ", COLOURS),
        ("picker go --pick red ", COLOURS),
        ("picker go --pick red green ", COLOURS),
        ("picker go --pick red --tw", ["--two"]),
        ("picker go --two red ", COLOURS),
        ("picker go --two red blue ", ["one", "two"]),
        # NOTE: a tuple's words are counted (its items complete to nothing yet).
        ("picker go --pair ", []),
        ("picker go --pair x ", []),
        ("picker go --pair x red ", ["one", "two"]),
        ("picker go --key key-a ", ["key-a", "key-b"]),
        ("picker go --key key-a --pick blue ", COLOURS),
    ],
)
def test_each_value_of_an_option_of_several_completes(
    shell: str, line: str, expected: list[str], picker: dict[str, Any]
) -> None:
    script = picker["scripts"][shell]
    offered = SHELLS[shell](picker["env"], line, script=script)
    assert sorted(offered) == sorted(expected), offered
