"""`mytool --skill`, SKILL.md and AGENTS.md: valid for `agentskills validate`, even when hostile."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from burgee.describe.skill import skill_name
from tests.helpers import GOLDEN, REGEN, burgee, burgee_in_process, generate, in_process, run

TOOLS = sorted(p for case in GOLDEN.iterdir() for p in case.glob("*.py") if p.name != "handlers.py")


def _validator() -> list[str]:
    # NOTE: the module, not the `agentskills` script on PATH, which may be another install's.
    return [sys.executable, "-m", "skills_ref.cli"]


def validate(directory: Path) -> subprocess.CompletedProcess[str]:
    """Run skills-ref's validator as a module of this interpreter."""
    return subprocess.run(
        [*_validator(), "validate", str(directory)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def properties(directory: Path) -> dict[str, str]:
    proc = subprocess.run(
        [*_validator(), "read-properties", str(directory)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


def front_matter_name(text: str) -> str:
    line = next(line for line in text.splitlines() if line.startswith("name: "))
    return json.loads(line[len("name: ") :])  # type: ignore[no-any-return]


def skill_of(tool: Path, tmp_path: Path) -> Path:
    """`tool --skill` written where the validator wants it: DIR/<name>/SKILL.md."""
    result = run(tool, "--skill")
    assert result.code == 0, result.err
    folder = tmp_path / front_matter_name(result.out)
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(result.out, encoding="utf-8")
    return folder


@pytest.mark.parametrize("tool", TOOLS, ids=lambda p: p.parent.name)
def test_golden_skills_validate(tool: Path, tmp_path: Path) -> None:
    folder = skill_of(tool, tmp_path)
    result = validate(folder)
    assert result.returncode == 0, result.stderr
    committed = tool.parent / "skill" / folder.name / "SKILL.md"
    assert (folder / "SKILL.md").read_text(encoding="utf-8") == committed.read_text(
        encoding="utf-8"
    ), f"stale; run {REGEN}"
    assert validate(committed.parent).returncode == 0


def test_skill_contract_and_commands() -> None:
    text = run(GOLDEN / "kitchen" / "kitchen.py", "--skill").out
    for needle in (
        '{"ok": true, "data": ...}',
        "--explain",
        "python kitchen.py schema COMMAND",
        "| 75 | `busy` | Try again in a moment. |",
        "| 2 | `usage` |",
        "- `python kitchen.py store shelf count NAMES...`: Count letters in each name.",
        "  Example: `python kitchen.py store wipe --yes`",
    ):
        assert needle in text
    assert "secret-sauce" not in text and "secret_sauce" not in text
    # options are behind `schema`, never inlined
    assert "--maybe" not in text and "Repeat me" not in text
    assert len(text.splitlines()) < 500


def test_agents_md_is_the_body_without_front_matter() -> None:
    skill = (GOLDEN / "kitchen" / "skill" / "kitchen" / "SKILL.md").read_text(encoding="utf-8")
    agents = (GOLDEN / "kitchen" / "skill" / "AGENTS.md").read_text(encoding="utf-8")
    assert skill.endswith(agents)
    assert not agents.startswith("---")


HOSTILE = '''
    """Deploy: things # not a comment --- and "quotes", 'single', {flow: map}, [list], café 東京 🚢.

    More text that stays in the body.
    """
    from burgee import command, program

    program(name="{name}", version="1.0.0")

    @command(effects="read_only")
    def go() -> None:
        """Go: now # really."""
'''


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("deploy", "deploy"),
        ("My_Tool.v2", "my-tool-v2"),
        ("a--b__c", "a-b-c"),
        ("X" * 70, "x" * 64),
    ],
)
def test_hostile_skills_validate(name: str, expected: str, tmp_path: Path) -> None:
    tool = generate(tmp_path, HOSTILE.replace("{name}", name))
    folder = skill_of(tool, tmp_path / "skills")
    assert folder.name == expected
    result = validate(folder)
    assert result.returncode == 0, result.stderr
    read = properties(folder)
    assert read["name"] == expected
    assert read["description"].startswith(
        "Deploy: things # not a comment — and \"quotes\", 'single', {flow: map}, [list], "
        "café 東京 🚢."
    )
    assert "Use this skill when" in read["description"]
    # NOTE: a character beyond U+FFFF (YAML reads a JSON surrogate pair as two broken ones).
    prompt = subprocess.run(
        [*_validator(), "to-prompt", str(folder)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert prompt.returncode == 0, prompt.stderr
    assert "🚢" in prompt.stdout


def test_skill_name_normalization() -> None:
    assert skill_name("-_-ok-") == "ok"
    assert skill_name("Ünï") == "n"
    assert skill_name("...") == "tool"
    assert skill_name("a" * 63 + "-b") == "a" * 63


def test_very_long_description_is_shortened(tmp_path: Path) -> None:
    words = " ".join(f"word{i}:" for i in range(600))
    tool = generate(
        tmp_path,
        f'''
        """{words}"""
        from burgee import command

        @command(effects="read_only")
        def go() -> None:
            """Go."""
    ''',
        "long_tool.py",
    )
    folder = skill_of(tool, tmp_path / "skills")
    assert validate(folder).returncode == 0
    description = properties(folder)["description"]
    assert len(description) <= 1024
    assert "…" in description and description.endswith("read one JSON envelope.")


def test_gen_skill_dir_writes_checks_and_protects(tmp_path: Path) -> None:
    handlers = str(GOLDEN / "kitchen" / "handlers.py")
    out = tmp_path / "kitchen.py"
    args = ("gen", handlers, "-o", str(out), "--skill-dir", str(tmp_path))
    assert burgee_in_process(*args).returncode == 0
    assert validate(tmp_path / "kitchen").returncode == 0
    assert (tmp_path / "AGENTS.md").read_text(encoding="utf-8") == (
        GOLDEN / "kitchen" / "skill" / "AGENTS.md"
    ).read_text(encoding="utf-8")
    assert burgee_in_process(*args, "--check").returncode == 0
    skill_file = tmp_path / "kitchen" / "SKILL.md"
    skill_file.write_text(skill_file.read_text(encoding="utf-8") + "old\n", encoding="utf-8")
    stale = burgee_in_process(*args, "--check")
    assert stale.returncode == 1 and "SKILL.md is stale" in stale.stderr
    # an AGENTS.md that a person wrote is never replaced without --force
    (tmp_path / "AGENTS.md").write_text("# my notes\n", encoding="utf-8")
    refused = burgee_in_process(*args)
    assert refused.returncode == 2 and "AGENTS.md exists" in refused.stderr
    assert burgee_in_process(*args, "--force").returncode == 0


def test_root_help_names_agents_md(tmp_path: Path) -> None:
    tool = generate(
        tmp_path,
        '''
        from burgee import command, program

        program(name="tool")

        @command(effects="read_only")
        def go() -> None:
            """Go."""
    ''',
    )
    asked = in_process(tool)
    plain = asked.run("--help").out
    assert "`tool --skill` prints an Agent Skill." in plain
    assert "--skill" in plain and "AGENTS.md" not in plain
    (tmp_path / "AGENTS.md").write_text("notes\n", encoding="utf-8")
    assert "; read AGENTS.md." in asked.run("--help").out
    (tmp_path / "AGENTS.md").unlink()
    nested = tmp_path / "bin"
    nested.mkdir()
    moved = nested / "tool.py"
    tool.rename(moved)
    (tmp_path / "AGENTS.md").write_text("notes\n", encoding="utf-8")
    # one directory up, outside the working directory: named by its full path
    # NOTE: help wraps the paragraph at spaces, never inside the path.
    shown = " ".join(run(moved, "--help", cwd=nested).out.split())
    assert f"; read {tmp_path / 'AGENTS.md'}." in shown


def test_skill_flag_errors() -> None:
    result = run(GOLDEN / "kitchen" / "kitchen.py", "--skill", "extra")
    assert result.code == 2
    assert result.error_line()["error"]["kind"] == "usage"


WITHHELD = '''\
from burgee import command, group, program

program(name="vault", description="Keep things.")
admin = group("admin", help="Administration.")


@command(effects="read_only", examples=["vault peek"])
def peek() -> str:
    """Look inside."""
    return "x"


@admin.command(effects="withheld")
def incinerate_everything() -> None:
    """Burn it all."""
'''


def test_withheld_commands_are_never_mentioned_for_agents(tmp_path: Path) -> None:
    handlers = tmp_path / "handlers.py"
    handlers.write_text(WITHHELD, encoding="utf-8")
    result = burgee_in_process(
        "gen", "handlers.py", "-o", "vault.py", "--skill-dir", "skill", cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    texts = {
        "SKILL.md": (tmp_path / "skill" / "vault" / "SKILL.md").read_text(encoding="utf-8"),
        "AGENTS.md": (tmp_path / "skill" / "AGENTS.md").read_text(encoding="utf-8"),
        "--skill": run(tmp_path / "vault.py", "--skill").out,
    }
    for where, text in texts.items():
        assert "python vault.py peek" in text, where
        assert "incinerate" not in text and "Burn it all" not in text, where
    assert "(peek)" in texts["SKILL.md"]


ROOT_ONLY = '''
from typing import Annotated

from burgee import Argument, command, program

program(name="hello")


@command(effects="read_only", root=True)
def greet(name: Annotated[str, Argument()] = "world") -> str:
    """Greet someone."""
    return f"Hello, {name}!"
'''


def test_a_root_only_program_is_taught_without_a_command_word(tmp_path: Path) -> None:
    """The only command of a program, its root command, has no command word: the skill must
    say `hello [NAME]`, and what it says must run."""
    tool = generate(tmp_path, ROOT_ONLY)
    asked = in_process(tool)
    skill = asked.run("--skill").out
    assert "- `python tool.py [NAME]`: Greet someone." in skill
    assert "hello greet" not in skill and "COMMAND" not in skill
    assert asked.run("Ada", "--json").json()["data"] == "Hello, Ada!"
    assert asked.run("--json", '{"name": "Ada"}').json()["data"] == "Hello, Ada!"
    assert asked.run("schema").json()["name"] == "hello"  # the document, not a greeting


REQUIRED_OPTIONS = '''
from datetime import date
from typing import Annotated

from burgee import Option, command, program

program(name="bm", version="1.0.0")


@command(effects="idempotent")
def sync(
    *,
    limit: int = 10,
    token: Annotated[str, Option(secret=True)],
    since: date,
    from_: Annotated[str, Option("--from", "-f")],
    dry_run: bool = False,
) -> str:
    """Sync bookmarks."""
    return f"{token[:1]} {since} {from_} {limit} {dry_run}"


@command(effects="read_only")
def other() -> str:
    """Other."""
    return "x"
'''


def test_required_options_are_shown_as_typed_in_usage_and_skill(tmp_path: Path) -> None:
    """The usage line shows a required option without brackets; the skill's synopsis shows the
    command's real required options as an agent types them (the others stay behind `schema`),
    and it runs."""
    tool = generate(tmp_path, REQUIRED_OPTIONS)
    asked = in_process(tool)
    usage = " ".join(asked.run("sync", "--help").out.split("\n\n")[0].split())
    assert usage == (
        "usage: bm sync [-h] [--limit LIMIT] --token TOKEN --since YYYY-MM-DD -f FROM"
        " [--dry-run | --no-dry-run]"
    )
    synopsis = "python tool.py sync --token TOKEN --since YYYY-MM-DD --from FROM"
    assert f"- `{synopsis}`: Sync bookmarks." in asked.run("--skill").out
    typed = ["sync", "--token", "t0k", "--since", "2026-01-02", "--from", "web"]
    assert asked.run(*typed).out == "t 2026-01-02 web 10 False\n"


SHIPPED = '''
from burgee import command, program

program(name="bm", version="1.0.0")


@command(effects="read_only")
def sync() -> str:
    """Sync bookmarks."""
    return "synced"
'''


def test_documents_say_how_the_shipped_tool_is_run(tmp_path: Path) -> None:
    """The skill, AGENTS.md and `--llms` are read later, elsewhere: they name the command the
    project installs (`[project.scripts]`), else say to run the file with python."""
    (tmp_path / "alone").mkdir()
    alone = generate(tmp_path / "alone", SHIPPED)
    skill = run(alone, "--skill").out
    assert "- Run it as `python tool.py` from its folder" in skill
    assert "- `python tool.py sync`: Sync bookmarks." in skill
    llms = run(alone, "--llms").json()["tools"][0]["description"]
    assert "Invoke a tool as `python tool.py <name> --json" in llms
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text(
        '[project]\nname = "bookmarks"\nversion = "1.0.0"\n\n'
        '[project.scripts]\nbookmarks = "tool:main"\n',
        encoding="utf-8",
    )
    installed = run(generate(project, SHIPPED), "--skill").out
    assert "- `bookmarks sync`: Sync bookmarks." in installed
    assert "- Run it as `bookmarks`, the command its package installs." in installed
    assert "python tool.py" not in installed


def test_burgees_own_skill_names_its_installed_command() -> None:
    """burgee's `[project.scripts]` entry is named as the program (it runs another module that
    calls the generated one): the skill says `burgee`, not the file."""
    skill = burgee("--skill").stdout
    assert "- Run `burgee COMMAND ... --json`" in skill
    assert "_tool.py" not in skill
