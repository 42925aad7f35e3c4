"""Random command lines against every golden tool: whatever comes in, the answer keeps the
contract. No traceback; an exit code the tool documents; on failure the last line of stderr is
the JSON error; with --json, stdout is exactly one valid UTF-8 JSON document; a secret's value
never appears anywhere, in any spelling: as given, or as the tool writes it (a program of secret
options of every type a secret may have, given on the command line, in `--json` input and in an
env var, is fuzzed with the golden ones).

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

from tests.helpers import GOLDEN, generate
from tests.regen import golden_output

#: Slow: a fuzzer (`pytest -m "not slow"` leaves it out).
pytestmark = pytest.mark.slow

PROGRAMS = ["minimal", "kitchen", "settings", "clikit", "secrets"]
SECRET = "S3CR3T-4b1d"
KEY = "A1B2C3D4-0000-4000-8000-00000000ABCD"
#: The program of secret options of every type a secret may have (a number is refused at gen:
#: `tests/errors/secret_types.py`); its handler shows them every way it can.
SECRETS = '''
"""Secret options of every type a secret may have."""

from __future__ import annotations

import sys
import uuid
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Literal, Optional

from burgee import Option, command, program

program(name="vault", version="1.0.0")


@command(effects="read_only")
def unlock(
    token: Annotated[str, Option("--token", "-t", secret=True, env="VAULT_TOKEN")] = "",
    maybe: Annotated[Optional[str], Option(secret=True)] = None,
    keys: Annotated[list[str], Option(secret=True)] = [],
    pair: Annotated[tuple[str, str], Option(secret=True)] = ("", ""),
    headers: Annotated[dict[str, str], Option(secret=True)] = {},
    path: Annotated[Optional[Path], Option(secret=True)] = None,
    key: Annotated[Optional[uuid.UUID], Option(secret=True)] = None,
    amount: Annotated[Optional[Decimal], Option(secret=True)] = None,
    level: Annotated[Literal["public", "classified"], Option(secret=True)] = "public",
    count: int = 0,
    note: str = "",
) -> dict:
    """Says what it was given, every way it can."""
    said = {
        "token": token,
        "maybe": maybe,
        "keys": keys,
        "pair": list(pair),
        "headers": headers,
        "path": str(path),
        "key": str(key),
        "amount": str(amount),
        "level": level,
        "number": int(token) if token.isdigit() else count,
        "note": note,
    }
    print(said, file=sys.stderr)
    return said
'''
#: Each secret option of `SECRETS`: its value's words on the command line, its value in JSON
#: input, and every spelling of it that must never be written. Any other program's secret
#: option is given `SECRET`.
SPELLINGS: dict[str, tuple[list[str], Any, list[str]]] = {
    "--token": (["20261231"], "20261231", ["20261231"]),
    "--maybe": ([SECRET], SECRET, [SECRET]),
    "--keys": (["S3CR3T-key1"], ["S3CR3T-key1"], ["S3CR3T-key1"]),
    "--pair": (["S3CR3T-one", "S3CR3T-two"], ["S3CR3T-one", "S3CR3T-two"], ["S3CR3T-"]),
    "--headers": (["Authorization=S3CR3T-hdr"], {"Authorization": "S3CR3T-hdr"}, ["S3CR3T-hdr"]),
    "--path": (["./S3CR3T-dir/"], "./S3CR3T-dir/", ["S3CR3T-dir"]),
    "--key": ([KEY], KEY, [KEY, KEY.lower()]),
    "--amount": (["0020261232.50"], "0020261232.50", ["20261232.5"]),
    # NOTE: a secret choice is redacted too, but its choices are public (`schema` lists them).
    "--level": (["classified"], "classified", []),
}
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
        if program == "secrets":
            self.path = generate(work, SECRETS)
        else:
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
        #: The commands with a pass-through argument: from its first word on, `--json` is the
        #: app's (`Argument(passthrough=True)`), not the tool's.
        self.passing = {
            c["name"]
            for c in self.commands
            if any(a.get("burgee_passthrough") for a in c.get("args", []))
        }
        #: Every spelling of a secret's value that no output may hold.
        self.hidden = {SECRET}
        for arg in self.secrets:
            words, _, hidden = _spelled(arg)
            self.hidden.update(hidden)
            if arg.get("env"):
                self.env[arg["env"]] = words[0]

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


def _spelled(arg: dict[str, Any]) -> tuple[list[str], Any, list[str]]:
    return SPELLINGS.get(arg["name"], ([SECRET], SECRET, [SECRET]))


def _secret_words(command: dict[str, Any]) -> list[list[str]]:
    """Every way the command line gives a secret option of `command` its value: `--flag=V`,
    `--flag V`, `-fV`, and `--json` input that holds them all."""
    ways: list[list[str]] = []
    given: dict[str, Any] = {}
    for arg in command.get("args", []):
        if not arg.get("secret"):
            continue
        words, value, _ = _spelled(arg)
        name = arg["name"]
        ways += [[f"{name}={words[0]}"], [name, *words]]
        if arg.get("short"):
            ways.append([arg["short"] + words[0]])
        given[arg.get("burgee_key", name[2:].replace("-", "_"))] = value
    if given:
        ways.append(["--json", json.dumps(given)])
    return ways


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
        path = command["name"].split()
        secret = st.sampled_from(_secret_words(command) or [[]])
        noisy = st.tuples(st.lists(token, max_size=6), secret, st.lists(token, max_size=3)).map(
            lambda parts: [*path, *parts[0], *parts[1], *parts[2]]
        )
        # NOTE: secrets alone too, so that many lines reach the handler, which shows them.
        clean = st.tuples(
            st.lists(secret, min_size=1, max_size=3), st.sampled_from([[], ["--json"]])
        )
        return st.one_of(
            noisy,
            clean.map(lambda parts: [*path, *(w for way in parts[0] for w in way), *parts[1]]),
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
    for hidden in tool.hidden:
        assert hidden.encode() not in out + err, (hidden, argv, out + err)
    err.decode("utf-8")
    text = out.decode("utf-8")
    if result.returncode != 0:
        last = err.decode("utf-8").strip().splitlines()[-1]
        assert json.loads(last)["ok"] is False, (argv, last)
    asked_json = "--json" in argv[: argv.index("--")] if "--" in argv else "--json" in argv
    if argv[:1] and argv[0] in tool.passing and "--json" in argv[1:]:
        # NOTE: where the app's words begin, its `--json` included, depends on the line;
        # what holds whoever's it is: one error envelope, the last line of stderr (above).
        asked_json = False
    describing = any(flag in argv for flag in ("--help", "-h", "--schema", "--llms", "schema"))
    if asked_json and not describing and result.returncode != 0:
        assert text.count("\n") == 1, (argv, text)
        assert json.loads(text)["ok"] is False
