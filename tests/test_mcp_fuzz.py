"""Random and malformed messages mixed with valid ones: the server never crashes, answers every
request with an id exactly once (never a cancelled one), and writes only protocol to stdout."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import generate
from tests.mcp_tool import HANDLERS
from tests.mcp_wire import INIT, MODERN_META, exchange, line

#: Slow: a fuzzer (`pytest -m "not slow"` leaves it out).
pytestmark = pytest.mark.slow

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    # NOTE: no infinities: they are not JSON, and a line holding one is a parse error.
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
TOOLS = st.sampled_from(["greet", "count", "tasks_purge", "slow", "liar", "secret", "nope", ""])
METHODS = st.sampled_from(
    ["initialize", "ping", "tools/list", "tools/call", "server/discover", "resources/list", "x"]
)
ARGUMENTS = st.one_of(
    st.fixed_dictionaries({"name": st.text(max_size=5)}),
    st.fixed_dictionaries(
        {}, optional={"limit": st.integers(-2, 5), "mode": st.sampled_from(["up", "down", "x"])}
    ),
    st.fixed_dictionaries({"ids": st.lists(st.integers(), max_size=3)}),
    st.fixed_dictionaries({"steps": st.integers(0, 3), "delay": st.just(0.001)}),
    st.dictionaries(st.text(max_size=5), JSON, max_size=3),
    JSON,
)


@st.composite
def request(draw: st.DrawFn, ident: int) -> dict[str, Any]:
    method = draw(METHODS)
    params: Any = {}
    if method == "tools/call":
        params = {"name": draw(TOOLS), "arguments": draw(ARGUMENTS)}
        if draw(st.integers(0, 3)) == 0:
            # NOTE: 3 steps of 4 ms outlast the server's patience: the watchdog takes over
            # reading stdin while the call runs, and hands reading back afterwards.
            params = {"name": "slow", "arguments": {"steps": 3, "delay": 0.004}}
        if draw(st.booleans()):
            params["_meta"] = {"progressToken": f"p{ident}"}
    elif method == "initialize":
        params = {"protocolVersion": draw(st.sampled_from(["2025-11-25", "2024-11-05", "bogus"]))}
    if draw(st.booleans()):
        params["_meta"] = {**params.get("_meta", {}), **MODERN_META}
    if draw(st.integers(0, 9)) == 0:
        params = draw(JSON)
    return {
        "jsonrpc": "2.0",
        "id": draw(st.sampled_from([ident, f"s{ident}"])),
        "method": method,
        "params": params,
    }


JUNK = st.one_of(
    st.binary(max_size=30).map(lambda b: b.replace(b"\n", b" ") + b"\n"),
    JSON.map(line),
    st.text(max_size=20).map(
        lambda t: t.replace("\n", " ").encode("utf-8", "surrogatepass") + b"\n"
    ),
    st.sampled_from(
        [
            b"{}\n",
            b"[]\n",
            b"null\n",
            b'{"jsonrpc":"2.0"}\n',
            b'{"id":"junk"}\n',
            b"\n",
            # NOTE: NaN is not JSON: a parse error, answered without an id.
            b'{"jsonrpc":"2.0","id":"junk","method":"ping","params":{"x":NaN}}\n',
        ]
    ),
    JSON.map(lambda v: line({"jsonrpc": "2.0", "method": "notifications/progress", "params": v})),
)


#: Values the reader refuses (not JSON's, or past its bounds): a request holding one in its
#: params is answered under its id all the same (-32602), never once more, never not at all.
REFUSED = st.sampled_from([b"1e400", b"-2E+999", b"9" * 4400, b"[" * 3000 + b"]" * 3000])


def _refused_line(message: dict[str, Any], value: bytes) -> bytes:
    """`message` as a line whose params hold `value` where a placeholder was."""
    text = json.dumps({**message, "params": {"x": "REFUSED-HERE"}}).encode()
    return text.replace(b'"REFUSED-HERE"', value) + b"\n"


@st.composite
def session(draw: st.DrawFn) -> tuple[bytes, dict[str, bool]]:
    """A byte stream, and for each request id sent (as JSON text): whether it was cancelled."""
    chunks = [line(INIT)]
    expected: dict[str, bool] = {json.dumps(0): False}
    for ident in range(1, draw(st.integers(1, 60)) + 1):
        if draw(st.integers(0, 2)) == 0:
            chunks.append(draw(JUNK))
            continue
        message = draw(request(ident))
        key = json.dumps(message["id"])
        expected[key] = False
        if draw(st.integers(0, 9)) == 0:
            chunks.append(_refused_line(message, draw(REFUSED)))
            continue
        chunks.append(line(message))
        if message["method"] == "tools/call" and draw(st.integers(0, 4)) == 0:
            chunks.append(
                line(
                    {
                        "jsonrpc": "2.0",
                        "method": "notifications/cancelled",
                        "params": {"requestId": message["id"]},
                    }
                )
            )
            expected[key] = True
    return b"".join(chunks), expected


@pytest.fixture(scope="module")
def tool(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate(tmp_path_factory.mktemp("fuzz"), HANDLERS)


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=session())
def test_random_sessions(tool: Path, data: tuple[bytes, dict[str, bool]]) -> None:
    stream, expected = data
    messages, raw, stderr, code = exchange(tool, stream)
    assert code == 0, stderr
    assert "internal error" not in stderr, stderr
    # NOTE: never empty: initialize is always answered (checked below).
    assert raw.endswith(b"\n")
    answered: dict[str, int] = {}
    for message in messages:
        assert isinstance(message, dict) and message["jsonrpc"] == "2.0"
        if "method" in message:
            assert message["method"] == "notifications/progress"
            continue
        assert ("result" in message) != ("error" in message)
        if message["id"] == "junk":
            # NOTE: an invalid request with a usable id is answered with that id, as an error.
            assert message["error"]["code"] == -32600
        elif message["id"] is not None:
            key = json.dumps(message["id"])
            answered[key] = answered.get(key, 0) + 1
    for key, cancelled in expected.items():
        count = answered.pop(key, 0)
        # NOTE: a cancellation may arrive after the answer went out; then there is one answer.
        assert count == 1 or (cancelled and count == 0), (key, count)
    assert not answered, answered
