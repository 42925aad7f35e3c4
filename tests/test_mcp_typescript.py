"""The official TypeScript SDK client (`@modelcontextprotocol/sdk`, pinned in tests/node)
lists and uses every tool, prompt and resource of the golden program `pantry`, over stdio and
over HTTP, with progress, logging and cancellation."""

from __future__ import annotations

import base64
import json
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import GOLDEN
from tests.node_clients import NODE_DIR, HttpServer, node

#: Slow: the TypeScript SDK client under Node (`pytest -m "not slow"` leaves it out).
pytestmark = pytest.mark.slow

PANTRY = GOLDEN / "pantry" / "pantry.py"
MEDIA = GOLDEN / "media" / "media.py"
PLAN = {
    "tools": {"stock": {"name": "salt"}, "restock": {"steps": 3}},
    "prompts": {"shopping-list": {"store": "Aldi"}, "recipe": {"dish": "pie"}},
    "resources": [
        "pantry://inventory",
        "pantry://notes",
        "pantry://items/flour",
        "pantry://labels/a.bin",
    ],
    "cancel": {"name": "wait", "arguments": {"seconds": 20}},
    "complete": [
        [{"type": "ref/prompt", "name": "shopping-list"}, {"name": "store", "value": "L"}],
        [{"type": "ref/prompt", "name": "recipe"}, {"name": "course", "value": "d"}],
        [{"type": "ref/resource", "uri": "pantry://items/{name}"}, {"name": "name", "value": "s"}],
    ],
}


def drive(tmp_path: Path, server: dict[str, Any], plan_of: dict[str, Any] = PLAN) -> Any:
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({**plan_of, **server}), encoding="utf-8")
    result = subprocess.run(
        [str(node()), str(NODE_DIR / "client.mjs"), str(plan)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_typescript_client_uses_everything(tmp_path: Path, transport: str) -> None:
    if transport == "stdio":
        seen = drive(tmp_path, {"command": [sys.executable, str(PANTRY), "--mcp"]})
    else:
        server = HttpServer(PANTRY)
        try:
            seen = drive(tmp_path, {"url": server.url})
        finally:
            server.stop(signal.SIGTERM)
    assert set(seen["capabilities"]) == {
        "tools",
        "prompts",
        "resources",
        "completions",
        "logging",
    }
    assert seen["tools"] == ["stock", "restock", "wait", "use", "output"]
    assert seen["calls"]["stock"]["structuredContent"] == {"name": "salt", "count": 1}
    assert json.loads(seen["calls"]["stock"]["text"]) == {
        "ok": True,
        "data": {"name": "salt", "count": 1},
    }
    assert seen["calls"]["restock"]["structuredContent"] == {"result": 3}
    assert seen["progress"] == {"stock": [], "restock": [1, 2, 3]}
    assert seen["logs"] == [
        {"level": "info", "logger": "restock", "data": f"round {n} of 3"} for n in (1, 2, 3)
    ] + [
        {
            "level": "warning",
            "logger": "restock",
            "data": {"message": "sugar is still low", "item": "sugar"},
        }
    ]
    assert seen["prompts"] == ["shopping-list", "recipe"]
    assert seen["got"]["shopping-list"] == [
        {
            "role": "user",
            "content": {
                "type": "text",
                "text": "Write a shopping list for Aldi (at most 20 euros): sugar, salt.",
            },
        }
    ]
    assert [m["role"] for m in seen["got"]["recipe"]] == ["user", "assistant"]
    assert seen["resources"] == ["pantry://inventory", "pantry://notes"]
    assert seen["templates"] == ["pantry://items/{name}", "pantry://labels/{name}.bin"]
    assert seen["completed"] == [["Lidl", "Leclerc"], ["dessert"], ["sugar", "salt"]]
    read = seen["read"]
    assert json.loads(read["pantry://inventory"]["text"]) == {"flour": 3, "sugar": 0, "salt": 1}
    assert read["pantry://notes"]["text"] == "Buy sugar before Friday.\n"
    assert json.loads(read["pantry://items/flour"]["text"]) == {"name": "flour", "count": 3}
    assert read["pantry://labels/a.bin"] == {
        "uri": "pantry://labels/a.bin",
        "mimeType": "application/octet-stream",
        "blob": "YQA=",
    }
    # NOTE: the 20-second wait was cancelled after 0.3 s, and the server answered the next call.
    assert seen["cancelled"] == "McpError: MCP error -32001: enough"
    assert seen["cancelledAfterMs"] < 5000
    assert seen["afterCancel"] is False


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_typescript_client_gets_images_and_audio(tmp_path: Path, transport: str) -> None:
    """The golden program `media`: an image, a sound, a list mixing text and images and an
    embedded resource arrive as content items with the handler's bytes, and structuredContent
    passes the SDK's check against the outputSchema."""
    plan = {
        "tools": {
            "pixel": {"color": "blue"},
            "tone": {"samples": 4},
            "sheet": {"colors": ["red", "blue"]},
            "palette": {},
        }
    }
    if transport == "stdio":
        seen = drive(tmp_path, {"command": [sys.executable, str(MEDIA), "--mcp"]}, plan)
    else:
        server = HttpServer(MEDIA)
        try:
            seen = drive(tmp_path, {"url": server.url}, plan)
        finally:
            server.stop(signal.SIGTERM)
    calls = seen["calls"]
    for name in ("pixel", "tone", "sheet", "palette"):
        assert calls[name]["isError"] is False, calls[name]
    pixel = calls["pixel"]
    blue = subprocess.run(
        [sys.executable, str(MEDIA), "pixel", "--color", "blue"], capture_output=True, check=True
    ).stdout
    assert pixel["content"] == [
        {"type": "text"},
        {"type": "image", "mimeType": "image/png", "data": base64.b64encode(blue).decode()},
    ]
    assert pixel["structuredContent"]["size"] == len(blue)
    tone = calls["tone"]["content"][1]
    assert tone["type"] == "audio" and tone["mimeType"] == "audio/wav"
    assert base64.b64decode(tone["data"]).endswith(b"data\x04\x00\x00\x00" + b"\x80" * 4)
    assert [item["type"] for item in calls["sheet"]["content"]] == ["text", "image", "image"]
    shown = json.loads(calls["sheet"]["text"])["data"]
    assert shown[0] == "red" and shown[1]["data"] == "[image/png, 69 bytes: content item 2]"
    palette = calls["palette"]
    assert palette["content"][1] == {
        "type": "resource",
        "resource": {
            "uri": "media://palette.json",
            "mimeType": "application/json",
            "text": '{"colors": ["red", "blue"]}',
        },
    }
    assert palette["structuredContent"]["type"] == "resource"


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_typescript_client_answers_questions_within_the_call(
    tmp_path: Path, transport: str
) -> None:
    plan = {"tools": {"use": {"name": "salt"}}, "elicit": {"action": "accept", "value": "lunch"}}
    if transport == "stdio":
        seen = drive(tmp_path, {"command": [sys.executable, str(PANTRY), "--mcp"]}, plan)
    else:
        server = HttpServer(PANTRY)
        try:
            seen = drive(tmp_path, {"url": server.url}, plan)
        finally:
            server.stop(signal.SIGTERM)
    assert seen["calls"]["use"]["structuredContent"] == {"name": "salt", "count": 0}
    assert [question["message"] for question in seen["asked"]] == [
        "Take the last salt?",
        "For which meal?",
    ]
    assert seen["logs"] == [{"level": "info", "logger": "use", "data": "salt taken for lunch"}]
