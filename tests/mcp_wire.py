"""Raw JSON lines to and from `mytool --mcp`, for protocol edge cases."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

INIT = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"},
    },
}
MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
}


def line(message: Any) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


def exchange(tool: Path, data: bytes, timeout: float = 60) -> tuple[list[Any], bytes, str, int]:
    """Send everything, close stdin, and return (parsed messages, raw stdout, stderr, exit code)."""
    proc = subprocess.run(
        [sys.executable, str(tool), "--mcp"],
        input=data,
        capture_output=True,
        timeout=timeout,
        check=False,
    )
    messages = [json.loads(raw) for raw in proc.stdout.splitlines()]
    return messages, proc.stdout, proc.stderr.decode("utf-8", "replace"), proc.returncode


class Server:
    """A running server for lock-step exchanges."""

    def __init__(
        self,
        tool: Path,
        cwd: Path | None = None,
        env: dict[str, str] | None = None,
        python: str = sys.executable,
    ) -> None:
        self.proc = subprocess.Popen(
            [python, str(tool), "--mcp"],
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )

    def send(self, message: Any) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(message if isinstance(message, bytes) else line(message))
        self.proc.stdin.flush()

    def read(self) -> Any:
        assert self.proc.stdout is not None
        raw = self.proc.stdout.readline()
        assert raw, "the server closed stdout"
        return json.loads(raw)

    def close(self) -> tuple[bytes, str, int]:
        if self.proc.stdin is not None and self.proc.stdin.closed:
            self.proc.stdin = None
        out, err = self.proc.communicate(timeout=30)
        return out, err.decode("utf-8", "replace"), self.proc.returncode
