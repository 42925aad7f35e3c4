"""Prompts, resources and the `--mcp` options, in-process: URI templates, prompt messages,
`--http` addresses and Host headers, the options after `--mcp`."""

from __future__ import annotations

from typing import Any

import pytest

from burgee.runtime.agents.surfaces import _contents, _match, _messages
from burgee.runtime.core.errors import UsageError, _Internal
from burgee.runtime.mcpserver.mcp_asgi import _asgi_settings
from burgee.runtime.mcpserver.mcp_endpoint import _Endpoint, _hostname
from burgee.runtime.mcpserver.mcp_io import _http_address, _McpOptions
from burgee.runtime.program import PROGRAM
from tests.runtime_program import program

TEMPLATES: dict[str, Any] = {
    "kitchen://menu": (None, None),
    "kitchen://items/{name}": (None, None),
    "kitchen://items/{name}/price.{unit}": (None, None),
    "kitchen://{a}-{b}": (None, None),
}


@pytest.mark.parametrize(
    ("uri", "found"),
    [
        ("kitchen://menu", ("kitchen://menu", {})),
        ("kitchen://items/soup", ("kitchen://items/{name}", {"name": "soup"})),
        (
            "kitchen://items/soup/price.eur",
            ("kitchen://items/{name}/price.{unit}", {"name": "soup", "unit": "eur"}),
        ),
        ("kitchen://x-y-z", ("kitchen://{a}-{b}", {"a": "x", "b": "y-z"})),
        ("kitchen://items/", None),
        ("kitchen://items/a/b", None),
        ("kitchen://items/soup/price.", None),
        ("kitchen://menus", None),
        ("other://menu", None),
    ],
)
def test_match(uri: str, found: object) -> None:
    assert _match(uri, program(resources=TEMPLATES)) == found


def test_messages() -> None:
    assert _messages("hi") == [{"role": "user", "content": {"type": "text", "text": "hi"}}]
    image = {"type": "image", "data": "AA==", "mimeType": "image/png"}
    assert _messages([{"role": "assistant", "content": image}]) == [
        {"role": "assistant", "content": image}
    ]
    for wrong in (
        3,
        [{"role": "system", "content": "x"}],
        [{"role": "user"}],
        [{"role": "user", "content": 1}],
    ):
        with pytest.raises(_Internal):
            _messages(wrong)


def test_contents() -> None:
    assert _contents("u", None, b"\x00\xff") == {
        "uri": "u",
        "mimeType": "application/octet-stream",
        "blob": "AP8=",
    }
    assert _contents("u", "text/markdown", "# x") == {
        "uri": "u",
        "mimeType": "text/markdown",
        "text": "# x",
    }
    assert _contents("u", None, {"a": [1]}) == {
        "uri": "u",
        "mimeType": "application/json",
        "text": '{"a": [1]}',
    }


def test_http_address_and_host_header() -> None:
    assert _http_address("8000") == ("127.0.0.1", 8000)
    assert _http_address("0.0.0.0:80") == ("0.0.0.0", 80)
    assert _http_address("[::1]:9") == ("::1", 9)
    for wrong in ("x", ":80", "host:", "1:99999", "\u00b2", "host:\u00b9\u00b2"):
        with pytest.raises(UsageError):
            _http_address(wrong)
    assert _hostname("LocalHost:8000") == "localhost"
    assert _hostname("[::1]:8000") == "::1"
    assert _hostname("127.0.0.1") == "127.0.0.1"
    # NOTE: not a host: the request gets 400, never taken for the host it looks like.
    for wrong in ("[::1", "[::1]x", "[::1]:", "::1", "127.0.0.1:8o", "a:\u00b2", "a:1:2"):
        assert _hostname(wrong) is None, wrong


def test_mcp_options(tmp_path: Any) -> None:
    options = _McpOptions(
        ["--client=vscode", "--env", "A=1", "--env", "B==2", "--cwd", str(tmp_path)], True, "tool"
    )
    assert (options.client, options.env, options.cwd) == (
        "vscode",
        {"A": "1", "B": "=2"},
        str(tmp_path),
    )
    with pytest.raises(UsageError, match="--token-env goes with --http"):
        _McpOptions(["--token-env", "T"], False, "tool")
    with pytest.raises(UsageError, match="--allow-host goes with --http"):
        _McpOptions(["--allow-host", "a.example"], False, "tool")
    options = _McpOptions(
        ["--http", "0.0.0.0:80", "--allow-host", "A.example", "--allow-host=b"], False, "tool"
    )
    assert options.allow_hosts == ["a.example", "b"]
    with pytest.raises(UsageError, match="go with --print-config"):
        _McpOptions(["--env", "A=1"], False, "tool")


def test_asgi_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    for name in ("TOKEN", "TOKEN_FILE", "ALLOW_HOST", "ALLOW_ORIGIN", "PATH"):
        monkeypatch.delenv(f"TOOL_MCP_{name}", raising=False)
    settings = _asgi_settings(PROGRAM)
    assert (settings.path, settings.token, settings.origins) == ("/mcp", None, set())
    assert settings.hosts == {"localhost", "127.0.0.1", "::1"}
    (tmp_path / "token").write_text("  t0ken\n")
    monkeypatch.setenv("TOOL_MCP_TOKEN_FILE", str(tmp_path / "token"))
    monkeypatch.setenv("TOOL_MCP_ALLOW_HOST", " A.example, *,")
    monkeypatch.setenv("TOOL_MCP_ALLOW_ORIGIN", "https://App.example/")
    monkeypatch.setenv("TOOL_MCP_PATH", "/api/mcp")
    settings = _asgi_settings(PROGRAM)
    assert (settings.path, settings.token) == ("/api/mcp", "t0ken")
    assert settings.hosts == {"localhost", "127.0.0.1", "::1", "a.example", "*"}
    assert settings.origins == {"https://app.example"}
    # NOTE: `*`: any Host passes, and the token is still asked for.
    endpoint = _Endpoint(settings, False, lambda *args: None, None, PROGRAM)
    headers = {"host": ["anything.example:8443"], "authorization": ["Bearer t0ken"]}
    exchange = endpoint.exchange("POST", "/api/mcp", headers)
    assert exchange.screen() is None
    del headers["authorization"]
    refused = endpoint.exchange("POST", "/api/mcp", headers)
    answer = refused.screen()
    assert answer is not None and answer[0] == 401
    monkeypatch.setenv("TOOL_MCP_TOKEN", "x")
    with pytest.raises(UsageError, match="set one of them"):
        _asgi_settings(PROGRAM)
    monkeypatch.delenv("TOOL_MCP_TOKEN")
    monkeypatch.setenv("TOOL_MCP_PATH", "mcp")
    with pytest.raises(UsageError, match="TOOL_MCP_PATH 'mcp'"):
        _asgi_settings(PROGRAM)
