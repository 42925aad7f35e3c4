# burgee: joins tail 300
# burgee: section mcp
"""The MCP methods that describe the server: `initialize`, `ping`, `server/discover` and
`tools/list`, with what they share (the capabilities, one page of a `*/list`, the cache hints).

Each takes (server, request id, params, whether the request is of the 2026-07-28 era) and
returns its result as JSON text (a `*/list`: its UTF-8 bytes), as every entry of
`mcp._MCP_METHODS` does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from burgee.runtime.core.embedded import _document_data
from burgee.runtime.mcpserver.mcp_ask import _NO_ELICITATION
from burgee.runtime.mcpserver.mcp_io import _MCP_LEGACY, _MCP_META, _MCP_MODERN, _McpError

if TYPE_CHECKING:
    from burgee.runtime.program import Program

if TYPE_CHECKING:
    from burgee.runtime.mcpserver.mcp_io import _Server

#: How long a 2026-07-28 client may keep what the server describes, and with whom: the tables
#: are fixed when the tool is generated (`server/discover` and every `*/list`).
_MCP_CACHE = {"ttlMs": 3600000, "cacheScope": "public"}
#: The hint of a `resources/read`: read anew each time (a handler makes it), and perhaps the
#: user's own data, so never shared across users.
_MCP_READ_CACHE = {"ttlMs": 0, "cacheScope": "private"}


# NOTE: each method is given the `mcp._McpServer` it answers for (that module imports this one).
def _mcp_initialize(server: _Server, ident: str, params: dict[str, Any], modern: bool) -> str:
    asked = params.get("protocolVersion")
    program = server.program
    info: dict[str, Any] = {"name": program.name, "version": program.version}
    if program.description:
        info["description"] = program.description
    server.version = asked if asked in _MCP_LEGACY else _MCP_LEGACY[0]
    capabilities = params.get("capabilities")
    server.elicits = (
        isinstance(capabilities, dict)
        and isinstance(capabilities.get("elicitation"), dict)
        and server.version not in _NO_ELICITATION
    )
    result: dict[str, Any] = {
        "protocolVersion": server.version,
        "capabilities": _capabilities(False, program),
        "serverInfo": info,
    }
    if program.description:
        result["instructions"] = program.description
    text: str = server.dumps(result)
    return text


def _mcp_ping(server: _Server, ident: str, params: dict[str, Any], modern: bool) -> str:
    if modern:
        raise _McpError(-32601, "Method not found: ping (removed in 2026-07-28)")
    return "{}"


def _mcp_discover(server: _Server, ident: str, params: dict[str, Any], modern: bool) -> str:
    if not modern:
        raise _McpError(-32602, f"Invalid params: _meta {_MCP_META}protocolVersion is required")
    program = server.program
    discover: dict[str, Any] = {
        "supportedVersions": [_MCP_MODERN, *_MCP_LEGACY],
        "capabilities": _capabilities(True, program),
        **_MCP_CACHE,
    }
    if program.description:
        discover["instructions"] = program.description
    text: str = server.complete(server.dumps(discover))
    return text


def _capabilities(modern: bool, program: Program) -> dict[str, Any]:
    """Tools, and prompts, resources, completions and logging when `program` has them."""
    found: dict[str, Any] = {"tools": {"listChanged": False}}
    if "prompts/list" in program.mcp_extra:
        found["prompts"] = {"listChanged": False}
    if "resources/list" in program.mcp_extra:
        found["resources"] = {"subscribe": False, "listChanged": False}
    if "completion/complete" in program.mcp_extra:
        found["completions"] = {}
    if "logging/setLevel" in program.mcp_extra and not modern:
        found["logging"] = {}
    return found


def _mcp_tools_list(server: _Server, ident: str, params: dict[str, Any], modern: bool) -> bytes:
    return _mcp_page(server, params, modern, _document_data("mcp_tools", server.program))


def _mcp_page(server: _Server, params: dict[str, Any], modern: bool, data: bytes) -> bytes:
    """A `*/list` result (one page, the embedded JSON's bytes, as they are for a client of
    2025's protocols: `mcp_wire.reply` writes them so)."""
    cursor = params.get("cursor")
    if cursor is not None and cursor != "":
        raise _McpError(-32602, "Invalid params: unknown cursor")
    if modern:
        data = server.complete(server.dumps(_MCP_CACHE))[:-1].encode("ascii") + b"," + data[1:]
    return data
