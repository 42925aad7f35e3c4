"""The embedded documents, in-process: a run decompresses only the document it reads, and one
command's input is read without the other commands' (a wide tool's `tools/list`, its first
`tools/call` and `--json` input)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tracemalloc
import zlib
from pathlib import Path
from typing import Any

import pytest

from burgee.describe.documents import inputs
from burgee.render.embedded import SHORT, decode, pack, unpack
from burgee.runtime.core import embedded
from burgee.runtime.execution.inputs import _input_schema
from burgee.runtime.program import Program
from tests.helpers import generate, in_process
from tests.mcp_wire import INIT, MODERN_META, exchange, line
from tests.runtime_program import program
from tests.test_runtime_boot import WIDE_HANDLERS

SCHEMA = {
    "commands": [
        {
            "name": "vault peek",
            "args": [{"name": "--token", "secret": True}, {"name": "--limit"}],
            "input_schema": {"type": "object", "properties": {"limit": {"type": "integer"}}},
        },
        {"name": "vault", "input_schema": {"type": "object", "properties": {}}},
        {"name": "add"},
    ]
}


def _tool() -> Program:
    """A program whose documents are read, none of them yet."""
    return program(
        documents={"schema": json.dumps(SCHEMA), "inputs": inputs(SCHEMA), "mcp_tools": "[1]"}
    )


def _decoded(tool: Program) -> set[str]:
    """The documents of `tool` decompressed so far (one of their parts or more)."""
    return {name for made, name, _ in embedded._DOCUMENT_PARTS if made is tool}


def test_each_document_is_decompressed_alone() -> None:
    tool = _tool()
    assert embedded._document("mcp_tools", tool) == "[1]"
    assert _decoded(tool) == {"mcp_tools"}
    assert json.loads(embedded._document("schema", tool)) == SCHEMA
    assert _decoded(tool) == {"mcp_tools", "schema"}
    with pytest.raises(KeyError):
        embedded._document("nothing", tool)


def test_one_commands_input_is_read_without_the_schema() -> None:
    tool = _tool()
    schema, secrets = _input_schema("vault peek", tool)
    assert schema == SCHEMA["commands"][0]["input_schema"]
    assert secrets == {"token"}
    # NOTE: a command whose path begins another's is its own line.
    assert _input_schema("vault", tool) == ({"type": "object", "properties": {}}, frozenset())
    assert _input_schema("add", tool) == (None, frozenset())
    assert _input_schema("missing", tool) == (None, frozenset())
    assert _decoded(tool) == {"inputs"}


def test_pack_and_unpack_are_inverse() -> None:
    documents = {"a": "x" * 1000, "b": "", "c": "é\n\t{}"}
    assert unpack(pack(documents)) == documents
    # NOTE: a document in parts (a wide tool's `inputs`) reads back whole.
    assert unpack(pack({"a": ["x", "", "yé"]})) == {"a": "xyé"}


def _wide_schema(count: int) -> dict[str, Any]:
    """A clispec document of `count` commands, each with an input schema of its own."""
    return {
        "commands": [
            {
                "name": f"cmd{n:03d}",
                "args": [{"name": "--token", "secret": True}] if n % 7 == 0 else [],
                "input_schema": {
                    "type": "object",
                    "properties": {
                        f"name{n}": {"type": "string", "description": f"The name of {n}: " * 80}
                    },
                },
            }
            for n in range(count)
        ]
    }


def test_a_wide_tools_command_input_decompresses_its_part_alone() -> None:
    """At 500 commands a first `tools/call` (or `--json` input) decompressed the whole
    `inputs` document to read one line of it; it reads the part that holds its line."""
    schema = _wide_schema(500)
    tool = program(documents={"inputs": inputs(schema)})
    whole = sum(map(len, inputs(schema)))
    tracemalloc.start()
    try:
        found = _input_schema("cmd321", tool)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert found == (schema["commands"][321]["input_schema"], frozenset())
    assert peak < whole / 3, (peak, whole)
    for entry in schema["commands"]:
        secrets = frozenset(["token"]) if entry["args"] else frozenset()
        assert _input_schema(entry["name"], tool) == (entry["input_schema"], secrets)


#: Loads a generated tool (argv[1]) with its memory traced, runs `--mcp` on stdin and says on
#: stderr the most memory the session held above what the loaded tool held.
_TRACED_SESSION = """
import sys, tracemalloc
namespace = {"__file__": sys.argv[1], "__name__": "tool"}
with open(sys.argv[1], encoding="utf-8") as source:
    exec(compile(source.read(), sys.argv[1], "exec"), namespace)
tracemalloc.start()
before = tracemalloc.get_traced_memory()[0]
namespace["main"](["--mcp"])
sys.stderr.write(f"{tracemalloc.get_traced_memory()[1] - before}\\n")
"""


def _session_peak(tool: Path, messages: list[dict[str, Any]], cache: Path) -> tuple[int, bytes]:
    """The most memory a stdio session of `messages` held (`_TRACED_SESSION`), its output."""
    found = subprocess.run(
        [sys.executable, "-c", _TRACED_SESSION, str(tool)],
        input=b"".join(line(message) for message in messages),
        capture_output=True,
        env={**os.environ, "BURGEE_CACHE_DIR": str(cache)},
        check=False,
    )
    assert found.returncode == 0, found.stderr
    return int(found.stderr.decode().splitlines()[-1]), found.stdout


def test_a_wide_tools_list_goes_out_as_its_documents_bytes(tmp_path: Path) -> None:
    """`tools/list` of a tool whose list is long (out of `_MCP_LISTS`) answers the bytes its
    document was decompressed to: no decoded, joined or encoded copy of it (three copies of
    370 kB at 500 commands, each a fresh buffer); and the answer is the document the
    generator wrote."""
    tool = generate(tmp_path, WIDE_HANDLERS)
    document = decode(tool.read_text(encoding="utf-8"))["mcp_tools"].encode("utf-8")
    assert len(document) > SHORT * 10
    listing = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    started, _ = _session_peak(tool, [INIT], tmp_path / "cache")
    listed, out = _session_peak(tool, [INIT, listing], tmp_path / "cache")
    assert out.splitlines()[1] == b'{"jsonrpc":"2.0","id":1,"result":' + document + b"}"
    assert listed - started < 2.5 * len(document), (listed, started, len(document))


def test_a_wide_tools_list_is_its_document_where_answers_are_text(tmp_path: Path) -> None:
    """Where an answer is text (a 2025-03-26 batch's array, `invoke()`'s capture) and in a
    2026-07-28 result, the long list is the document the generator wrote as well."""
    tool = generate(tmp_path, WIDE_HANDLERS)
    document = json.loads(decode(tool.read_text(encoding="utf-8"))["mcp_tools"])
    old = {**INIT, "params": {**INIT["params"], "protocolVersion": "2025-03-26"}}
    listing = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    messages, _, _, code = exchange(tool, line(old) + line([listing]))
    assert code == 0 and messages[1] == [{"jsonrpc": "2.0", "id": 1, "result": document}]
    modern = {**listing, "params": {"_meta": MODERN_META}}
    messages, _, _, code = exchange(tool, line(modern))
    assert code == 0 and messages[0]["result"]["tools"] == document["tools"]
    assert messages[0]["result"]["resultType"] == "complete"
    inputs_text = "".join(json.dumps(m) + "\n" for m in (INIT, listing))
    found = in_process(tool).run("--mcp", stdin=inputs_text)
    assert json.loads(found.out.splitlines()[1])["result"] == document


def test_a_commands_input_part_is_its_paths_crc32() -> None:
    """`_input_part` (gen's split and the run's lookup alike) is CRC-32 of the path, reckoned
    without zlib, whose import a run that reads the kept documents never pays."""
    for path in ["", "a", "cmd001", "vault peek", "é ü", "x" * 300]:
        for parts in (1, 2, 7, 16, 17, 32):
            expected = zlib.crc32(path.encode("utf-8")) % parts
            assert embedded._input_part(path, parts) == expected, (path, parts)


#: A wide tool's session: its list, and a call (whose input is checked against its schema).
_SESSION = [
    INIT,
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
    {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {"name": "cmd007", "arguments": {"name": "x", "tag": ["a"]}},
    },
]


def _session(tool: Path, cache: str) -> tuple[bytes, set[str]]:
    """The answers of `_SESSION` and the modules the run imported (no site-packages)."""
    found = subprocess.run(
        [sys.executable, "-S", "-X", "importtime", str(tool), "--mcp"],
        input=b"".join(line(message) for message in _SESSION),
        capture_output=True,
        env={"BURGEE_CACHE_DIR": cache, "PATH": ""},
        check=False,
    )
    assert found.returncode == 0, found.stderr[-2000:]
    imported = {row.rsplit("|", 1)[-1].strip() for row in found.stderr.decode().splitlines()}
    return found.stdout, imported


def test_a_sessions_documents_are_kept_decompressed(tmp_path: Path) -> None:
    """A wide tool's long list and its commands' inputs are kept decompressed in the private
    cache: the sessions after the first read them without zlib and binascii (their imports
    and the decoding were a sixth of `tools/list`), and answer the same; a kept file that is
    cut short or changed is not believed, nor is one with no cache at all."""
    tool = generate(tmp_path, WIDE_HANDLERS)
    cache = tmp_path / "cache"
    first, imported = _session(tool, str(cache))
    assert b'"isError":false' in first.splitlines()[-1]
    assert {"zlib", "binascii"} <= imported  # NOTE: the check sees them: decoded once
    again, imported = _session(tool, str(cache))
    assert again == first
    assert not imported & {"zlib", "binascii"}
    assert "_json" in imported  # NOTE: the check sees the imports: the requests were read
    (kept,) = cache.glob("*.documents")
    whole = kept.read_bytes()
    kept.write_bytes(whole[:100] + bytes([whole[100] ^ 1]) + whole[101:])
    assert _session(tool, str(cache))[0] == first
    kept.write_bytes(whole[: len(whole) // 2])
    assert _session(tool, str(cache))[0] == first
    # NOTE: a file whose index is not there (its end points past it) is written again whole.
    kept.write_bytes(whole[:100] + (1 << 40).to_bytes(8, "little"))
    assert _session(tool, str(cache))[0] == first
    assert kept.read_bytes() == whole
    # NOTE: nor is an index that reads well but was changed (a part more, one's digest right:
    # the count of parts picks the part a command's inputs are in) believed: written again.
    start = int.from_bytes(whole[-8:], "little")
    index = whole[start:-16]
    first_part = index.split(b",")[0]
    changed = index + b"," + first_part
    kept.write_bytes(whole[:start] + changed + whole[-16:-8] + whole[-8:])
    assert _session(tool, str(cache))[0] == first
    assert kept.read_bytes() == whole
    assert not _session(tool, str(cache))[1] & {"zlib", "binascii"}
    assert _session(tool, "off")[0] == first
