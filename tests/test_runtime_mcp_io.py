"""The MCP server's transport, in-process: JSON without `import json` (and with it, where
`_json` is missing), stdout while serving, reading stdin; and the method table."""

from __future__ import annotations

import io
import json
import math
import sys
import threading
from collections.abc import Callable
from typing import Any

import pytest

from burgee.runtime.answers.output import _Stdout
from burgee.runtime.core import jsonread
from burgee.runtime.core.jsonread import _load_json
from burgee.runtime.mcpserver.mcp import _MCP_METHODS, _McpServer
from burgee.runtime.mcpserver.mcp_io import _Codec, _read_line
from burgee.runtime.mcpserver.mcp_methods import (
    _mcp_discover,
    _mcp_initialize,
    _mcp_ping,
    _mcp_tools_list,
)

TRICKY = [
    "plain",
    "héllo wörld ☃ 日本語 🎉",
    "\u2028line\u2029separators",
    "control \x00\x01\x08\t\n\r\x0c\x1f\x7f",
    'quote " backslash \\ slash /',
    "\ud800 lone surrogate",
    "",
]
VALUES: list[Any] = [
    *TRICKY,
    {"ok": True, "data": {"text": TRICKY, "n": [0, -1, 2**70, 0.1, -0.0, 1e300, None]}},
    {"é": {"\u2028": []}, "": {}, "nested": [[], [{}], [1, [2, [3]]]]},
    [True, False, None, 1.5, "x"],
    {2: "int key", False: "bool key", None: "null key", 1.5: "float key"},
]


def _fallback(monkeypatch: pytest.MonkeyPatch) -> _Codec:
    """A codec made where the C accelerator cannot be imported (none made before it)."""
    with monkeypatch.context() as patch:
        patch.setitem(sys.modules, "_json", None)
        patch.setattr(jsonread, "_SCANNERS", [])
        codec = _Codec()
    return codec


@pytest.fixture(params=["_json", "json"])
def codec(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> _Codec:
    return _Codec() if request.param == "_json" else _fallback(monkeypatch)


def test_the_fallback_is_taken_without_json_accelerator(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _Codec().load is not _load_json
    assert _fallback(monkeypatch).load is _load_json


def test_load_a_valid_message(codec: _Codec) -> None:
    text = ' \r\n{"jsonrpc": "2.0", "id": 1, "params": {"x": [1, 2.5, "é\\u2028", null]}}\n'
    assert codec.load(text) == json.loads(text)
    assert codec.load(text)["params"]["x"] == [1, 2.5, "é\u2028", None]


GARBAGE = ['{"a": 1} x', '{"a": 1}{"b": 2}', "[1] ]", '"a" "b"', "1 2"]


@pytest.mark.parametrize("text", GARBAGE)
def test_load_trailing_garbage(text: str) -> None:
    with pytest.raises(ValueError, match=r"^extra data after the JSON value$"):
        _Codec().load(text)


@pytest.mark.parametrize("text", GARBAGE)
def test_load_trailing_garbage_without_json_accelerator(
    monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    with pytest.raises(ValueError, match=r"^Extra data: "):
        _fallback(monkeypatch).load(text)


@pytest.mark.parametrize("text", ["", "nope", "{", '{"a": }', "[1,]", "{'a': 1}", "\x00"])
def test_load_not_json(codec: _Codec, text: str) -> None:
    # NOTE: the message differs by path (test_load_not_json_message checks the _json one).
    with pytest.raises(ValueError):
        codec.load(text)


def test_load_not_json_message() -> None:
    with pytest.raises(ValueError, match=r"^not JSON$"):
        _Codec().load("nope")


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_load_refuses_nan_and_infinities(codec: _Codec, constant: str) -> None:
    # NOTE: JSON has no such values; Python's json reads them, the server must not.
    with pytest.raises(ValueError):
        codec.load('{"a": [1, ' + constant + "]}")


@pytest.mark.parametrize("value", VALUES)
def test_encodings_equal_json_dumps(codec: _Codec, value: Any) -> None:
    assert codec.compact(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    assert codec.envelope(value) == json.dumps(value, ensure_ascii=False)


def test_non_finite_numbers_encode_like_json_dumps(codec: _Codec) -> None:
    value = [math.nan, math.inf, -math.inf]
    assert (
        codec.compact(value)
        == json.dumps(value, separators=(",", ":"))
        == "[NaN,Infinity,-Infinity]"
    )
    assert codec.envelope(value) == json.dumps(value)


@pytest.mark.parametrize("text", TRICKY)
def test_string_equals_json_dumps(codec: _Codec, text: str) -> None:
    assert codec.string(text) == json.dumps(text, ensure_ascii=False)


def test_non_ascii_and_line_separators_stay_as_they_are() -> None:
    codec = _Codec()
    assert codec.compact({"k": "é\u2028"}) == '{"k":"é\u2028"}'
    assert codec.envelope({"k": ["\x00"]}) == '{"k": ["\\u0000"]}'


def test_the_fallback_encodes_and_loads_identically(monkeypatch: pytest.MonkeyPatch) -> None:
    fast, slow = _Codec(), _fallback(monkeypatch)
    for value in VALUES:
        assert slow.compact(value) == fast.compact(value)
        assert slow.envelope(value) == fast.envelope(value)
        assert slow.load(fast.compact(value)) == fast.load(fast.compact(value))
    for text in TRICKY:
        assert slow.string(text) == fast.string(text)


def test_what_is_not_json_is_refused(codec: _Codec) -> None:
    with pytest.raises(TypeError):
        codec.compact({"a": object()})
    with pytest.raises(TypeError):
        codec.envelope([{1, 2}])


def test_stdout_routes_each_threads_writes() -> None:
    fallback = io.StringIO()
    out = _Stdout(fallback)
    assert out.write("before ") == 7
    mine: list[str] = []
    out.buffers[threading.get_ident()] = mine
    assert out.write("mine") == 4
    theirs: list[str] = []
    # NOTE: both threads live until both have written: a finished thread's id may be reused.
    barrier = threading.Barrier(2, timeout=5)

    def worker(buffer: list[str] | None, text: str) -> None:
        if buffer is not None:
            out.buffers[threading.get_ident()] = buffer
        barrier.wait()
        out.write(text)
        barrier.wait()

    threads = [
        threading.Thread(target=worker, args=(buffer, text))
        for buffer, text in ((theirs, "theirs"), (None, "nobody's"))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(5)
        assert not thread.is_alive()
    assert mine == ["mine"]
    assert theirs == ["theirs"]
    assert fallback.getvalue() == "before nobody's"
    assert out.isatty() is False
    assert out.encoding == "utf-8"


def test_stdout_flush_flushes_the_fallback() -> None:
    flushed: list[bool] = []

    class Fallback(io.StringIO):
        def flush(self) -> None:
            flushed.append(True)

    _Stdout(Fallback()).flush()
    assert flushed == [True]


def _raising(error: Exception) -> Callable[[], bytes]:
    def readline() -> bytes:
        raise error

    return readline


@pytest.mark.parametrize(
    ("error", "shown"),
    [
        (OSError(5, "Input/output error"), "[Errno 5] Input/output error"),
        (ValueError("I/O operation on closed file."), "I/O operation on closed file."),
    ],
)
def test_read_line_ends_the_input_when_stdin_fails(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    error: Exception,
    shown: str,
) -> None:
    assert _read_line(_raising(error), "tool") == b""
    captured = capsys.readouterr()
    assert captured.err == f"tool: mcp: cannot read stdin ({shown}); stopping\n"
    assert captured.out == ""


def test_read_line_returns_the_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert _read_line(io.BytesIO(b'{"id": 1}\nrest\n').readline, "tool") == b'{"id": 1}\n'
    assert capsys.readouterr().err == ""


def test_mcp_methods_are_exactly_these() -> None:
    assert _MCP_METHODS == {
        "initialize": _mcp_initialize,
        "ping": _mcp_ping,
        "server/discover": _mcp_discover,
        "tools/list": _mcp_tools_list,
        "tools/call": _McpServer.call,
    }
