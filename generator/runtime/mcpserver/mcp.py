# burgee: joins tail 340
# burgee: section mcp
"""`--mcp`: every command served as an MCP tool, over stdio, in both protocol eras.

The transport is `_McpServer.serve` (reading lines, `mcp_loop`) and `write` (writing frames,
`mcp_wire`); each request method is one entry of `_MCP_METHODS`; a `tools/call` runs through
`_execute` (`mcp_call`), the same path as the command line, so its text content is byte for
byte the `--json` envelope.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from burgee.runtime.mcpserver.mcp_ask import _handed_back
from burgee.runtime.mcpserver.mcp_call import _DUPLICATE, _McpCalls
from burgee.runtime.mcpserver.mcp_io import (
    _MCP_BATCHES,
    _MCP_LEGACY,
    _MCP_META,
    _MCP_MODERN,
    _McpError,
)
from burgee.runtime.mcpserver.mcp_methods import (
    _mcp_discover,
    _mcp_initialize,
    _mcp_ping,
    _mcp_tools_list,
)

if TYPE_CHECKING:
    from collections.abc import Callable


class _McpServer(_McpCalls):
    """A JSON-RPC 2.0 server on stdin/stdout, one message per line, both protocol eras: each
    line `_McpLoop` reads is `dispatch`ed here."""

    def dispatch(self, line: bytes) -> None:
        if line.strip():
            try:
                self.handle(line)
            except Exception as error:  # noqa: BLE001 (the server must outlive any message)
                sys.stderr.write(f"{self.program.name}: mcp: internal error: {error!r}\n")
                self.fail("null", -32603, "Internal error")

    def handle(self, line: bytes) -> None:
        try:
            text = line.decode("utf-8")
            message = self.codec.load(text)
        except UnicodeDecodeError:
            self.fail("null", -32700, "Parse error")
            return
        except (ValueError, RecursionError):
            self.fail(*self.codec.refused(text))
            return
        self.read(message)

    def read(self, message: object) -> None:
        """One message or batch, read (over HTTP, by the endpoint, which routes it by what it
        holds: read once)."""
        if isinstance(message, list):
            self.batch(message)
            return
        self.message(message)

    def batch(self, messages: list[Any]) -> None:
        """A JSON-RPC batch (protocol 2025-03-26 only): one array of the answers, in order,
        none for notifications; each call runs on this thread."""
        if self.version != _MCP_BATCHES or not messages:
            why = f"batches need protocol {_MCP_BATCHES}"
            if self.version == _MCP_BATCHES:
                why = "an empty batch"
            self.fail("null", -32600, f"Invalid Request: {why}")
            return
        thread = self.thread()
        with self.lock:
            self.batches[thread] = []
        try:
            for message in messages:
                if isinstance(message, dict) and message.get("method") == "initialize":
                    why = "Invalid Request: initialize cannot be part of a batch"
                    self.fail(self.ident(message.get("id")) or "null", -32600, why)
                    continue
                try:
                    self.message(message)
                except Exception as error:  # noqa: BLE001 (the other calls still answer)
                    sys.stderr.write(f"{self.program.name}: mcp: internal error: {error!r}\n")
                    self.fail("null", -32603, "Internal error")
        finally:
            with self.lock:
                answers = self.batches.pop(thread)
        if answers:
            self.send("[" + ",".join(answers) + "]")

    def ident(self, request_id: object) -> str | None:
        """A request's id as the answer gives it back (JSON text); None if it is no id."""
        # NOTE: JSON gives exact ints and strs; a bool, a float, null or an object is no id.
        if type(request_id) is int:
            return str(request_id)
        return self.dumps(request_id) if type(request_id) is str else None

    def message(self, message: object) -> None:
        """One JSON-RPC message: a request, a notification, or an answer to ignore."""
        if not isinstance(message, dict):
            self.fail("null", -32600, "Invalid Request: expected one JSON-RPC object")
            return
        method = message.get("method")
        if "id" not in message:
            if isinstance(method, str):
                self.notify(method, message.get("params"))
            else:
                self.fail("null", -32600, "Invalid Request: no method")
            return
        ident = self.ident(message["id"])
        if not isinstance(method, str):
            if "result" not in message and "error" not in message:
                self.fail(ident or "null", -32600, "Invalid Request: no method")
            elif ident is not None and self.awaited:
                _handed_back(self, ident, message)
            return
        if ident is None:
            self.fail("null", -32600, "Invalid Request: id must be a string or an integer")
            return
        try:
            if message.get("jsonrpc") != "2.0":
                raise _McpError(-32600, 'Invalid Request: jsonrpc must be "2.0"')
            self.request(ident, method, message.get("params"))
        except _McpError as error:
            # NOTE: a second request with the id of one in flight is answered without an id:
            # the id's one answer belongs to the first.
            shown = "null" if error.message == _DUPLICATE[1] else ident
            self.fail(shown, error.code, error.message, error.data)

    def notify(self, method: str, params: object) -> None:
        if method != "notifications/cancelled" or not isinstance(params, dict):
            return
        ident = self.ident(params.get("requestId"))
        if ident is None:
            return
        with self.lock:
            request = self.inflight.get(ident)
            if request is not None:
                request.cancelled = True
        if request is not None:
            request.context.cancelled.set()

    def request(self, ident: str, method: str, params: object) -> None:
        handler = _MCP_METHODS.get(method) or self.program.mcp_extra.get(method)
        if handler is None:
            raise _McpError(-32601, f"Method not found: {method}")
        if params is None:
            params = {}
        if not isinstance(params, dict):
            raise _McpError(-32602, "Invalid params: expected an object")
        modern = method != "initialize" and "_meta" in params and self.modern(params)
        result = handler(self, ident, params, modern)
        if result is not None:
            self.reply(ident, result)

    def modern(self, params: dict[str, Any]) -> bool:
        """True for a 2026-07-28 request (its `_meta` names the version); check its fields."""
        meta = params.get("_meta")
        if not isinstance(meta, dict) or _MCP_META + "protocolVersion" not in meta:
            return False
        version = meta[_MCP_META + "protocolVersion"]
        if version != _MCP_MODERN:
            raise _McpError(
                -32022,
                "Unsupported protocol version",
                {"supported": [_MCP_MODERN, *_MCP_LEGACY], "requested": version},
            )
        if not isinstance(meta.get(_MCP_META + "clientCapabilities"), dict):
            raise _McpError(
                -32602, f"Invalid params: _meta {_MCP_META}clientCapabilities is required"
            )
        return True


#: Each request method and the server's handler of it; a handler returns the result as JSON
#: text (a `*/list`: its bytes, `mcp_methods._mcp_page`), or None when it answers by itself
#: (a tools/call may answer later, from a worker).
_MCP_METHODS: dict[str, Callable[[_McpServer, str, dict[str, Any], bool], str | bytes | None]] = {
    "initialize": _mcp_initialize,
    "ping": _mcp_ping,
    "server/discover": _mcp_discover,
    "tools/list": _mcp_tools_list,
    "tools/call": _McpServer.call,
}
