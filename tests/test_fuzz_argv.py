"""Random command lines against every golden tool: whatever comes in, the answer keeps the
contract. No traceback; an exit code the tool documents; on failure the last line of stderr is
the JSON error; with --json, stdout is exactly one valid UTF-8 JSON document; a secret's value
never appears anywhere.

Bounded for CI (`BURGEE_FUZZ_EXAMPLES`, default 60 per program, raises it for a longer run).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import GOLDEN
from tests.regen import golden_output

PROGRAMS = ["minimal", "kitchen", "settings", "clikit"]
SECRET = "S3CR3T-4b1d"
EXAMPLES = int(os.environ.get("BURGEE_FUZZ_EXAMPLES", "60"))
#: Commands a fuzzer must not call: they sleep for as long as they are told to.
SLOW = {"store shelf nap", "fetch"}
GLOBAL = [
    "--json",
    "-o",
    "json",
    "text",
    "--output",
    "--debug",
    "--timeout",
    "--schema",
    "--field",
    "--explain",
    "--llms",
    "--version",
    "--help",
    "-h",
    "--",
    "-",
    "schema",
]


class Tool:
    def __init__(self, program: str, work: Path) -> None:
        source = golden_output(GOLDEN / program)
        self.path = work / source.name
        shutil.copy(source, self.path)
        self.work = work
        self.env = {
            k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "SYSTEMROOT")
        }
        document = json.loads(self.run(["schema"]).stdout)
        self.commands = [c for c in document["commands"] if c["name"] not in SLOW]
        self.codes = {0} | {error["exit_code"] for error in document["errors"]}
        self.secrets = [a for c in self.commands for a in c.get("args", []) if a.get("secret")]
        for arg in self.secrets:
            if arg.get("env"):
                self.env[arg["env"]] = SECRET

    def run(self, argv: list[str]) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            [sys.executable, str(self.path), *argv],
            capture_output=True,
            cwd=self.work,
            env=self.env,
            timeout=60,
            check=False,
            stdin=subprocess.DEVNULL,
        )


@pytest.fixture(scope="module", params=PROGRAMS)
def tool(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Tool:
    return Tool(request.param, tmp_path_factory.mktemp(request.param))


VALUES = st.one_of(
    st.text(max_size=12).filter(lambda text: "\x00" not in text),
    st.integers(-(10**20), 10**20).map(str),
    st.floats().map(repr),
    st.sampled_from(["", "[", "{", '{"a": 1}', "[1, 2]", "true", "null", "nan", "1e400", "-1"]),
)


def _argv(tool: Tool) -> st.SearchStrategy[list[str]]:
    def words(command: dict[str, Any]) -> st.SearchStrategy[list[str]]:
        names = [a["name"] for a in command.get("args", []) if a["name"].startswith("-")]
        token = st.one_of(
            st.sampled_from(names + ["--no-" + n[2:] for n in names] or ["--x"]),
            st.sampled_from(GLOBAL),
            VALUES,
            st.builds(lambda n, v: f"{n}={v}", st.sampled_from(names or ["--x"]), VALUES),
        )
        secret = st.sampled_from(
            [f"{a['name']}={SECRET}" for a in command.get("args", []) if a.get("secret")] or [""]
        )
        return st.tuples(st.lists(token, max_size=6), secret, st.lists(token, max_size=3)).map(
            lambda parts: [
                *command["name"].split(),
                *parts[0],
                *([parts[1]] if parts[1] else []),
                *parts[2],
            ]
        )

    return st.one_of(
        st.sampled_from(tool.commands).flatmap(words),
        st.lists(st.one_of(st.sampled_from(GLOBAL), VALUES), max_size=4),
    )


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_any_command_line_keeps_the_contract(tool: Tool, data: st.DataObject) -> None:
    argv = data.draw(_argv(tool))
    result = tool.run(argv)
    out, err = result.stdout, result.stderr
    assert b"Traceback" not in err, (argv, err)
    assert result.returncode in tool.codes, (argv, result.returncode, err)
    assert SECRET.encode() not in out + err, argv
    err.decode("utf-8")
    text = out.decode("utf-8")
    if result.returncode != 0:
        last = err.decode("utf-8").strip().splitlines()[-1]
        assert json.loads(last)["ok"] is False, (argv, last)
    asked_json = "--json" in argv[: argv.index("--")] if "--" in argv else "--json" in argv
    describing = any(flag in argv for flag in ("--help", "-h", "--schema", "--llms", "schema"))
    if asked_json and not describing and result.returncode != 0:
        assert text.count("\n") == 1, (argv, text)
        assert json.loads(text)["ok"] is False
