"""`mytool --mcp` on the wire: raw JSON lines for the protocol's edge cases."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import GOLDEN, burgee_in_process, generate, run
from tests.mcp_tool import HANDLERS
from tests.mcp_wire import INIT, MODERN_META, Server, exchange, line


@pytest.fixture(scope="module")
def tool(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate(tmp_path_factory.mktemp("wire"), HANDLERS)


def by_id(messages: list[Any]) -> dict[Any, Any]:
    answers = [m for m in messages if "id" in m]
    assert len({repr(m["id"]) for m in answers if m["id"] is not None}) == len(
        [m for m in answers if m["id"] is not None]
    ), "an id was answered twice"
    return {m["id"]: m for m in answers if m["id"] is not None}


def test_errors_before_and_after_initialize(tool: Path) -> None:
    data = b"".join(
        [
            line({"jsonrpc": "2.0", "id": "d", "method": "server/discover"}),
            line({"jsonrpc": "2.0", "id": 1, "method": "prompts/list"}),
            line({"jsonrpc": "2.0", "id": 2, "method": "ping"}),
            b"{not json\n",
            b"[1, 2]\n",
            b'"just a string"\n',
            b"\n   \n",
            line({"jsonrpc": "2.0", "id": None, "method": "ping"}),
            line({"jsonrpc": "2.0", "id": 3}),
            line({"jsonrpc": "1.0", "id": 4, "method": "ping"}),
            line(INIT),
            line({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            line({"jsonrpc": "2.0", "method": "notifications/whatever", "params": [1]}),
            line({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "nope"}}),
            line({"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"arguments": {}}}),
            line(
                {
                    "jsonrpc": "2.0",
                    "id": 7,
                    "method": "tools/call",
                    "params": {"name": "greet", "arguments": [1]},
                }
            ),
            line(
                {"jsonrpc": "2.0", "id": 8, "method": "tools/list", "params": {"cursor": "page-2"}}
            ),
            line({"jsonrpc": "2.0", "id": 9, "method": "tools/list", "params": "x"}),
            line(
                {
                    "jsonrpc": "2.0",
                    "id": 10,
                    "method": "logging/setLevel",
                    "params": {"level": "info"},
                }
            ),
            line({"jsonrpc": "2.0", "id": 11, "result": {}}),
        ]
    )
    messages, _, _, code = exchange(tool, data)
    assert code == 0
    answers = by_id(messages)
    nulls = [m["error"]["code"] for m in messages if m.get("id", "") is None]
    assert nulls == [-32700, -32600, -32600, -32600]
    assert answers["d"]["error"]["code"] == -32602  # discover needs the 2026 _meta
    assert answers[1]["error"]["code"] == -32601
    assert answers[2]["result"] == {}
    assert answers[4]["error"]["code"] == -32600
    assert answers[0]["result"]["protocolVersion"] == "2025-11-25"
    assert answers[0]["result"]["capabilities"] == {"tools": {"listChanged": False}}
    assert answers[5]["error"] == {"code": -32602, "message": "Unknown tool: nope"}
    assert [answers[i]["error"]["code"] for i in (6, 7, 8, 9, 10)] == [-32602] * 4 + [-32601]
    # NOTE: a request with a usable id is answered with it, even when it has no method.
    assert answers[3]["error"]["code"] == -32600
    assert 11 not in answers


@pytest.mark.parametrize("version", ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"])
def test_legacy_versions_are_echoed(tool: Path, version: str) -> None:
    init = {**INIT, "params": {**INIT["params"], "protocolVersion": version}}  # type: ignore[dict-item]
    messages, _, _, _ = exchange(tool, line(init))
    assert messages[0]["result"]["protocolVersion"] == version


def test_unknown_version_gets_the_latest(tool: Path) -> None:
    init = {**INIT, "params": {"protocolVersion": "1999-01-01"}}
    messages, _, _, _ = exchange(tool, line(init))
    assert messages[0]["result"]["protocolVersion"] == "2025-11-25"


def test_modern_era(tool: Path) -> None:
    meta = {"_meta": MODERN_META}
    data = b"".join(
        [
            line({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": meta}),
            line({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": meta}),
            line(
                {
                    "jsonrpc": "2.0",
                    "id": 3,
                    "method": "tools/call",
                    "params": {**meta, "name": "count", "arguments": {"limit": 2}},
                }
            ),
            line({"jsonrpc": "2.0", "id": 4, "method": "ping", "params": meta}),
            line(
                {
                    "jsonrpc": "2.0",
                    "id": 5,
                    "method": "tools/list",
                    "params": {
                        "_meta": {
                            **MODERN_META,
                            "io.modelcontextprotocol/protocolVersion": "2099-01-01",
                        }
                    },
                }
            ),
            line(
                {
                    "jsonrpc": "2.0",
                    "id": 6,
                    "method": "tools/list",
                    "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}},
                }
            ),
            line(INIT),  # a late initialize still works: the process is never locked to one era
            line({"jsonrpc": "2.0", "id": 7, "method": "ping"}),
        ]
    )
    answers = by_id(exchange(tool, data)[0])
    discover = answers[1]["result"]
    assert discover["resultType"] == "complete"
    assert discover["supportedVersions"][0] == "2026-07-28"
    assert discover["_meta"]["io.modelcontextprotocol/serverInfo"] == {
        "name": "mcptool",
        "version": "3.1.0",
    }
    listed = answers[2]["result"]
    assert listed["resultType"] == "complete" and listed["cacheScope"] == "public"
    # NOTE: six commands and the built-in `output`.
    assert len(listed["tools"]) == 7
    call = answers[3]["result"]
    assert call["resultType"] == "complete" and call["structuredContent"] == {"result": [1, 2]}
    assert answers[4]["error"]["code"] == -32601
    assert answers[5]["error"]["code"] == -32022
    assert answers[5]["error"]["data"]["requested"] == "2099-01-01"
    assert answers[6]["error"]["code"] == -32602
    assert answers[0]["result"]["protocolVersion"] == "2025-11-25"
    assert answers[7]["result"] == {}


def test_stdout_carries_only_protocol(tool: Path) -> None:
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "greet", "arguments": {"name": "x"}},
    }
    messages, raw, stderr, _ = exchange(tool, line(INIT) + line(call))
    assert all(m["jsonrpc"] == "2.0" for m in messages)
    assert len(raw.splitlines()) == 2
    # NOTE: the handler's print is on stdout only JSON-encoded, inside its answer's content.
    assert raw.count(b"greeting x") == raw.count(b'"greeting x\\n"') == 1
    result = by_id(messages)[1]["result"]
    assert result["content"][1] == {"type": "text", "text": "greeting x\n"}
    assert "to stderr" in stderr


def test_cancellation_sends_no_answer(tool: Path) -> None:
    server = Server(tool)
    server.send(INIT)
    assert server.read()["id"] == 0
    server.send(
        {
            "jsonrpc": "2.0",
            "id": "long",
            "method": "tools/call",
            "params": {
                "name": "slow",
                "arguments": {"steps": 400, "delay": 0.05},
                "_meta": {"progressToken": "t"},
            },
        }
    )
    first = server.read()
    assert first["method"] == "notifications/progress"
    assert first["params"] == {
        "progressToken": "t",
        "progress": 1,
        "total": 400,
        "message": "step 1",
    }
    server.send(
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "long"}}
    )
    server.send(
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "unknown"}}
    )
    server.send({"jsonrpc": "2.0", "id": 2, "method": "ping"})
    later: list[Any] = []
    while True:
        message = server.read()
        if message.get("id") == 2:
            break
        later.append(message)
    server.send(
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {"name": "count", "arguments": {}},
        }
    )
    out, stderr, code = server.close()
    rest = [json.loads(raw) for raw in out.splitlines()]
    everything = later + rest
    assert code == 0
    assert not [m for m in everything if m.get("id") == "long"]
    progress = [
        m["params"]["progress"] for m in everything if m.get("method") == "notifications/progress"
    ]
    assert progress == sorted(set(progress))
    assert [m["result"]["structuredContent"] for m in rest if m.get("id") == 3] == [
        {"result": [1, 2, 3]}
    ]
    assert stderr.count("slow: cancelled") == 1 and stderr.count("slow: on_exit ran") == 1


def test_calls_run_concurrently(tool: Path) -> None:
    calls = b"".join(
        line(
            {
                "jsonrpc": "2.0",
                "id": i + 1,
                "method": "tools/call",
                "params": {"name": "slow", "arguments": {"steps": 4, "delay": 0.1}},
            }
        )
        for i in range(8)
    )
    start = time.perf_counter()
    messages, _, _, _ = exchange(tool, line(INIT) + calls)
    elapsed = time.perf_counter() - start
    answers = by_id(messages)
    assert all(answers[i + 1]["result"]["structuredContent"] == {"result": 4} for i in range(8))
    assert elapsed < 8 * 0.4 * 0.75, elapsed


def test_duplicate_in_flight_id(tool: Path) -> None:
    slow = {
        "jsonrpc": "2.0",
        "id": 9,
        "method": "tools/call",
        "params": {"name": "slow", "arguments": {"steps": 2, "delay": 0.2}},
    }
    messages, _, _, _ = exchange(tool, line(slow) + line(slow))
    assert sorted(("error" in m) for m in messages) == [False, True]


def test_cli_mcp_flags(tool: Path) -> None:
    assert run(tool, "--print-config").error_line()["error"]["kind"] == "usage"
    assert run(tool, "--mcp", "greet").error_line()["error"]["kind"] == "usage"


def test_cli_timeout(tool: Path) -> None:
    finished = run(tool, "slow", "--steps", "2", "--delay", "0.01", "--timeout", "5", "--json")
    assert finished.code == 0 and finished.json()["data"] == 2
    cancelled = run(tool, "slow", "--steps", "100", "--delay", "0.05", "--timeout", "0.2", "--json")
    assert cancelled.code == 124
    assert cancelled.json()["error"]["kind"] == "timeout"
    assert "slow: cancelled" in cancelled.err and "slow: on_exit ran" in cancelled.err
    bad = run(tool, "count", "--timeout", "soon")
    assert bad.code == 2


def test_colliding_tool_names_are_refused(tmp_path: Path) -> None:
    (tmp_path / "handlers.py").write_text(
        "from burgee import command, group\n\n"
        "tasks = group('tasks')\n\n\n"
        "@tasks.command(effects='read_only')\n"
        "def purge() -> int:\n    return 1\n\n\n"
        "@command(effects='read_only', name='tasks_purge')\n"
        "def other() -> int:\n    return 2\n",
        encoding="utf-8",
    )
    proc = burgee_in_process("gen", "handlers.py", "-o", "out.py", cwd=tmp_path)
    assert proc.returncode == 2
    assert "MCP tool name 'tasks_purge' is also the name of 'tasks purge'" in proc.stderr


#: Requests the reader refuses as a value, not as text, each with its id readable: answered
#: under that id (-32602 within params, else -32600); what is no JSON at all stays -32700.
REFUSED_VALUES = [
    (b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"x": 1e400}}', 1, -32602),
    (b'{"jsonrpc": "2.0", "method": "ping", "params": {"x": -1e400}, "id": "a"}', "a", -32602),
    (
        b'{"jsonrpc": "2.0", "id": 3, "method": "ping", "params": {"x": ' + b"9" * 4400 + b"}}",
        3,
        -32602,
    ),
    (
        b'{"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "echo", '
        b'"arguments": {"x": ' + b"[" * 5000 + b'"]}"' + b"]" * 5000 + b"}}}",
        4,
        -32602,
    ),
    (b'{"jsonrpc": "2.0", "id": 5, "method": "ping", "extra": 2e999}', 5, -32600),
    (b'{"jsonrpc": "2.0", "id": 1e400, "method": "ping"}', None, -32700),
    (b'{"jsonrpc": "2.0", "id": 6, "params": {"x": [[[}', None, -32700),
    (b'{"jsonrpc": "2.0", "id": 7, "params": {"x": 1e400}} and more', None, -32700),
]


def test_a_request_refused_as_a_value_is_answered_under_its_id(tool: Path) -> None:
    data = line(INIT) + b"".join(raw + b"\n" for raw, _, _ in REFUSED_VALUES)
    messages, _, _, code = exchange(tool, data)
    assert code == 0
    answers = [(m["id"], m["error"]["code"]) for m in messages[1:]]
    assert answers == [(ident, code) for _, ident, code in REFUSED_VALUES]
    assert messages[1]["error"]["message"] == "Invalid params: 1e400 is too large a number"
    assert messages[4]["error"]["message"] == "Invalid params: nested too deeply"


def test_a_grouped_command_is_called_by_its_tool_name_and_by_its_llms_name() -> None:
    """`tools/list` names `store shelf count` `store_shelf_count` (a tool name has no space);
    `--llms` and the skill name it by its path: a call by either name reaches it."""
    kitchen = GOLDEN / "kitchen" / "kitchen.py"
    calls = [
        {
            "jsonrpc": "2.0",
            "id": name,
            "method": "tools/call",
            "params": {"name": name, "arguments": {"names": ["ab"]}},
        }
        for name in ("store_shelf_count", "store shelf count", "store  shelf count", "store nap")
    ]
    messages, _, _, code = exchange(kitchen, line(INIT) + b"".join(map(line, calls)))
    answers = by_id(messages)
    assert code == 0
    assert answers["store shelf count"]["result"] == answers["store_shelf_count"]["result"]
    assert answers["store_shelf_count"]["result"]["structuredContent"] == {
        "result": [{"name": "ab", "letters": 2}]
    }
    # NOTE: only the path as `--llms` spells it; a withheld command by neither name.
    assert answers["store  shelf count"]["error"]["message"] == "Unknown tool: store  shelf count"
    assert answers["store nap"]["error"]["code"] == -32602
