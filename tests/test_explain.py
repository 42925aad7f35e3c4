"""Where values come from: flag > env > config file > pyproject.toml > default; --explain,
meta.provenance, secrets, bounds, ctx.interactive and action_required."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.helpers import GOLDEN, REPO, Run, invoked, run

CLEAN = {
    "SETTINGS_HOST": "",
    "SETTINGS_PORT": "",
    "SETTINGS_TOKEN": "",
    "RETRIES": "",
    "SETTINGS_MODE": "",
    "CI": "",
    "AI_AGENT": "",
    "CLAUDECODE": "",
    "CURSOR_AGENT": "",
    "CODEX_THREAD_ID": "",
    "GEMINI_CLI": "",
    "FORCE_TTY": "",
}


@pytest.fixture
def tool(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    work = tmp_path / "work"
    work.mkdir()
    target = work / "settings.py"
    shutil.copy(GOLDEN / "settings" / "settings.py", target)
    return target


def call(tool: Path, *args: str, **env: str) -> Run:
    home = str(tool.parent.parent / "home")
    return run(tool, *args, env={**CLEAN, "HOME": home, "XDG_CONFIG_HOME": home, **env})


def data(tool: Path, *args: str, **env: str) -> dict[str, object]:
    result = call(tool, *args, "--json", **env)
    assert result.code == 0, result
    return result.json()["data"]  # type: ignore[no-any-return]


def test_precedence(tool: Path) -> None:
    work = tool.parent
    assert data(tool, "connect")["host"] == "localhost"
    (work.parent / "pyproject.toml").write_text('[tool.settings]\nhost = "py"\n', "utf-8")
    assert data(tool, "connect")["host"] == "py"
    (work / "settings.json").write_text('{"host": "conf", "port": 9}', "utf-8")
    assert data(tool, "connect")["host"] == "conf"
    assert data(tool, "connect", SETTINGS_HOST="env")["host"] == "env"
    assert data(tool, "connect", "--host", "flag", SETTINGS_HOST="env")["host"] == "flag"
    assert data(tool, "connect", "--port", "10")["port"] == 10
    assert data(tool, "connect")["port"] == 9


def test_explain_names_the_winner_and_the_candidates(tool: Path) -> None:
    (tool.parent / "settings.json").write_text('{"mode": "fast"}', "utf-8")
    result = call(tool, "connect", "--explain", "mode", SETTINGS_MODE="safe")
    assert result.code == 0, result
    first, candidates = result.out.splitlines()
    assert first == 'mode = "safe"   from env SETTINGS_MODE'
    assert "flag --mode (unset)" in candidates
    assert 'config settings.json mode "fast"' in candidates
    assert 'default "safe"' in candidates
    explained = call(tool, "connect", "--explain", "--port", "--json").json()["data"]
    # NOTE: settings.json sets only mode, so port falls through every source to its default.
    assert explained["source"] == "default" and explained["from"] == "default"
    assert explained["value"] == 8080


def test_explain_does_not_run_the_handler(tool: Path, tmp_path: Path) -> None:
    result = call(tool, "connect", "--host", "refuse", "--explain", "host")
    assert result.code == 0, result
    assert result.out.startswith('host = "refuse"   from flag --host')
    unknown = call(tool, "connect", "--explain", "nope")
    assert unknown.code == 2 and "no option" in unknown.error_line()["error"]["message"]
    # NOTE: the options by their flags; `done`'s argument `id` has nothing to explain.
    todo = run(
        REPO / "examples" / "todo" / "todo.py", "done", "1", "--explain", "nope", cwd=tmp_path
    )
    assert todo.error_line()["error"]["hint"] == "options: --store"
    given = '{"title": "x"}'
    added = run(
        REPO / "examples" / "todo" / "todo.py",
        "add",
        "--json",
        given,
        "--explain",
        "x",
        cwd=tmp_path,
    )
    assert added.error_line()["error"]["hint"] == "options: --priority, --tag, --due, --store"


def test_provenance_rides_in_meta(tool: Path) -> None:
    result = call(tool, "connect", "--json", "-p", "22", SETTINGS_HOST="h")
    meta = result.json()["meta"]["provenance"]
    assert meta["host"]["source"] == "env" and meta["host"]["from"] == "env SETTINGS_HOST"
    assert meta["port"]["source"] == "flag" and meta["port"]["value"] == 22
    assert meta["mode"]["source"] == "default" and meta["mode"]["value"] == "safe"
    assert set(meta) == {"host", "port", "token", "mode", "retries", "verbose", "tag", "ratio"}


def test_bad_values_name_their_source(tool: Path) -> None:
    result = call(tool, "connect", SETTINGS_MODE="urgent")
    assert result.code == 2
    message = result.error_line()["error"]["message"]
    assert message == "env SETTINGS_MODE: expected one of fast, safe, got 'urgent'"
    (tool.parent / "settings.toml").write_text("[connect]\nport = 0\n", "utf-8")
    result = call(tool, "connect")
    assert result.code == 2
    assert "settings.toml" in result.error_line()["error"]["message"]
    assert "less than the minimum 1" in result.error_line()["error"]["message"]


def test_bounds(tool: Path) -> None:
    assert call(tool, "connect", "--port", "70000").code == 2
    assert call(tool, "connect", "--ratio", "1.5").code == 2
    assert call(tool, "connect", "--json", '{"ratio": 0.25}').json()["data"]["ratio"] == 0.25
    assert call(tool, "connect", RETRIES="-1").code == 2


def test_custom_env_and_opt_out(tool: Path) -> None:
    assert data(tool, "connect", RETRIES="7")["retries"] == 7
    assert data(tool, "connect", SETTINGS_RETRIES="7")["retries"] == 3
    assert data(tool, "connect", SETTINGS_VERBOSE="true")["verbose"] is False
    assert data(tool, "connect", SETTINGS_TAG=" a  b")["tags"] == ["a", "b"]


def test_config_sources(tool: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "custom.json"
    elsewhere.write_text('{"host": "custom"}', "utf-8")
    assert data(tool, "connect", "--config", str(elsewhere))["host"] == "custom"
    missing = call(tool, "connect", "--config", str(tmp_path / "nope.toml"))
    assert missing.code == 2 and "no such file" in missing.error_line()["error"]["message"]
    user = tmp_path / "home" / "settings"
    user.mkdir()
    (user / "config.json").write_text('{"remote": {"show": {"name": "upstream"}}}', "utf-8")
    assert data(tool, "remote", "show") == "remote upstream"


def test_secret_never_printed(tool: Path) -> None:
    secret = "hunter2-sekrit"
    outputs = [
        call(tool, "connect", "--explain", "token", SETTINGS_TOKEN=secret),
        call(tool, "connect", "--json", SETTINGS_TOKEN=secret),
        call(tool, "connect", "--json", '{"token": 5}'),
        call(tool, "schema"),
    ]
    for result in outputs:
        assert secret not in result.out + result.err
    assert "<secret>" in outputs[0].out
    # NOTE: what is set is hidden; the default, None, hides nothing.
    assert "env SETTINGS_TOKEN (set)" in outputs[0].out and "default null" in outputs[0].out
    assert outputs[1].json()["data"]["authenticated"] is True
    assert outputs[2].code == 2 and "5" not in outputs[2].error_line()["error"]["message"]


def test_action_required(tool: Path) -> None:
    result = call(tool, "apply", "--json")
    assert result.code == 4
    envelope = result.json()
    assert envelope["ok"] is False and envelope["status"] == "action_required"
    assert envelope["error"]["kind"] == "action_required"
    assert envelope["next"] == [
        {
            "command": f"{invoked(tool, tool.parent)} apply --yes --json",
            "when": "once you have reviewed them",
        }
    ]
    text = call(tool, "apply")
    assert text.code == 4 and f"{invoked(tool, tool.parent)} apply --yes" in text.err
    assert "--json" not in text.error_line()["next"][0]["command"]


def test_interactive_and_agent(tool: Path) -> None:
    assert data(tool, "apply", "--yes", FORCE_TTY="1")["interactive"] is True
    answer = data(tool, "apply", "--yes", CLAUDECODE="1")
    assert answer["interactive"] is False and answer["agent"] == "claude-code"
    assert data(tool, "apply", "--yes", AI_AGENT="my-bot")["agent"] == "my-bot"
    assert data(tool, "apply", "--yes")["agent"] is None
    assert data(tool, "apply", FORCE_TTY="1")["changed"] is True
