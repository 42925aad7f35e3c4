"""The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned in
tests/node/), all its server scenarios, against the tool generated from
tests/mcp_conformance.py: served by `--mcp --http`, and by its `asgi` under uvicorn. Exactly
the scenarios of `EXPECTED_FAILURES` fail; every other passes."""

from __future__ import annotations

import json
import re
import signal
import subprocess
from pathlib import Path

import pytest

from tests.helpers import generate
from tests.mcp_conformance import EXPECTED_FAILURES, HANDLERS
from tests.node_clients import CONFORMANCE, HttpServer, Uvicorn, node

#: Every server scenario of the pinned suite (0.1.16, `--suite all`).
SCENARIOS = 32


def outcomes(out: Path) -> dict[str, bool]:
    """Each scenario run, and whether it passed: a check succeeded, and none failed or warned."""
    passed: dict[str, bool] = {}
    for checks in sorted(out.glob("*/checks.json")):
        # NOTE: the folder is server-<scenario>-<ISO time with dashes>.
        name = re.sub(r"-\d{4}-\d\d-\d\dT[\d-]+Z$", "", checks.parent.name.removeprefix("server-"))
        statuses = {check["status"] for check in json.loads(checks.read_text())}
        passed[name] = "SUCCESS" in statuses and not statuses & {"FAILURE", "WARNING"}
    return passed


@pytest.mark.slow  # NOTE: a Node client, the conformance suite (docs/contributing.md)
@pytest.mark.parametrize("served", ["http", "asgi"])
def test_conformance_suite(tmp_path: Path, served: str) -> None:
    binary = node()
    tool = generate(tmp_path, HANDLERS)
    if served == "http":
        server = HttpServer(tool)
        url, stop = server.url, lambda: server.stop(signal.SIGTERM)
    else:
        # NOTE: one worker: the suite's scenarios open sessions (the handshake era), which
        # live in the process that opened them.
        asgi = Uvicorn(tool, 1, {})
        url, stop = asgi.url, asgi.stop
    out = tmp_path / "out"
    suite = [str(binary), str(CONFORMANCE), "server", "--suite", "all", "-o", str(out)]
    try:
        result = subprocess.run(
            [*suite, "--url", url],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
    finally:
        stop()
    passed = outcomes(out)
    assert len(passed) == SCENARIOS, result.stdout[-3000:]
    failed = sorted(name for name, ok in passed.items() if not ok)
    assert failed == sorted(EXPECTED_FAILURES), result.stdout[-3000:]


def test_the_docs_give_the_same_failures_and_reasons() -> None:
    page = (Path(__file__).resolve().parent.parent / "docs" / "mcp.md").read_text()
    section = page.partition("\n### Conformance\n")[2].partition("\n#")[0]
    rows = re.findall(r"^\| `([a-z0-9-]+)` \| (.+) \|$", section, re.MULTILINE)
    assert dict(rows) == EXPECTED_FAILURES
