"""The secrets sweep: every type a secret may have, through every way in (a flag, an env var,
a config file, `--json` input, a `--batch` line, MCP arguments) and every way out (the
result, what the handler prints, an error it raises, a crash, a refused call's hint and next
lines, log lines, progress messages, values derived from it, a cut answer's saved output):
its text never appears in stdout, stderr, an MCP message or a file the tool writes.

Each way in gives all twelve secrets at once, and each way out shows them all, so a cell of
the matrix is one call; a leak names its cell and the texts that leaked."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters
from mcp.types import ElicitResult

from tests.helpers import InProcessTool, generate, in_process

PARAMS = """
    out: str = "result",
    token: Annotated[str, Option(secret=True, env="VAULT_TOKEN")] = "",
    place: Annotated[Optional[Path], Option(secret=True, env="VAULT_PLACE")] = None,
    day: Annotated[Optional[date], Option(secret=True, env="VAULT_DAY")] = None,
    moment: Annotated[Optional[datetime], Option(secret=True, env="VAULT_MOMENT")] = None,
    hour: Annotated[Optional[time], Option(secret=True, env="VAULT_HOUR")] = None,
    key: Annotated[Optional[uuid.UUID], Option(secret=True, env="VAULT_KEY")] = None,
    amount: Annotated[Optional[Decimal], Option(secret=True, env="VAULT_AMOUNT")] = None,
    level: Annotated[Literal["public", "classified"], Option(secret=True, env="VAULT_LEVEL")] = (
        "public"
    ),
    shade: Annotated[Shade, Option(secret=True, env="VAULT_SHADE")] = Shade.plain,
    names: Annotated[list[str], Option(secret=True, env="VAULT_NAMES")] = [],
    pair: Annotated[tuple[str, str], Option(secret=True, env="VAULT_PAIR")] = ("", ""),
    headers: Annotated[dict[str, str], Option(secret=True, env="VAULT_HEADERS")] = {},
    ctx: Context = None,
"""

HANDLERS = f'''
"""A vault that tries to show its secrets every way it can."""

from __future__ import annotations

import enum
import logging
import sys
import uuid
from datetime import date, datetime, time
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Any, Literal, Optional

from burgee import CommandError, Context, Option, command, program

program(name="vault", version="1.0.0", config=True)


class Shade(str, enum.Enum):
    """A shade."""

    plain = "plain"
    deep = "ultraviolet-shade"


def shown_words(values: dict[str, object]) -> list[str]:
    """Every value as a handler writes it: str() of each, a list's items, a dict's pairs."""
    words: list[str] = []
    for value in values.values():
        if isinstance(value, dict):
            words += [f"{{name}}={{item}}" for name, item in value.items()]
        elif isinstance(value, (list, tuple)):
            words += [str(item) for item in value]
        elif isinstance(value, enum.Enum):
            words.append(str(value.value))
        else:
            words.append(str(value))
    return words


def show(out: str, values: dict[str, Any], ctx: Context) -> object:
    """Show the values the way `out` names."""
    words = shown_words(values)
    text = " ".join(words)
    if out == "print":
        print(f"printed {{text}}")
        print(f"printed to stderr {{text}}", file=sys.stderr)
        return "printed"
    if out == "raise":
        raise CommandError(f"raised {{text}}", hint=f"hinted {{text}}")
    if out == "crash":
        raise ValueError(f"crashed {{text}}")
    if out == "log":
        ctx.log("warning", f"logged {{text}}", text=text)
        # NOTE: a handler of its own on the stream, as a handler's module would set one up
        # (the root logger's may be a test runner's).
        logger = logging.getLogger("vault.sweep")
        logger.propagate = False
        logger.handlers = [logging.StreamHandler(sys.stderr)]
        logger.warning("logged by logging %s", text)
        return "logged"
    if out == "progress":
        ctx.progress(1, 2, f"progress {{text}}")
        return "reported"
    if out == "derive":
        token, amount = values["token"], values["amount"]
        derived: list[object] = [int(token), float(token), int(amount), float(amount)]
        derived += [word.upper() for word in words]
        print(f"derived {{derived}}")
        return {{"derived": derived, "upper": text.upper()}}
    if out == "spill":
        return {{"long": [text] * 400}}
    return {{"values": values, "text": text}}


@command(effects="read_only")
def use({PARAMS}) -> Any:
    """Show the secrets the way OUT names."""
    values = dict(locals())
    del values["out"], values["ctx"]
    return show(out, values, ctx)


@command(effects="destructive")
def wipe({PARAMS}) -> Any:
    """Wipe, once confirmed, and show the secrets the way OUT names."""
    values = dict(locals())
    del values["out"], values["ctx"]
    return show(out, values, ctx)
'''

KEY = "A1B2C3D4-0000-4000-8000-00000000ABCD"

#: Each secret option's value, as `--json` input and MCP arguments give it.
GIVEN: dict[str, Any] = {
    "token": "0072945813",
    "place": "./S3CR3T-dir/place",
    "day": "2031-04-05",
    "moment": "2032-05-06T07:08:09",
    "hour": "13:57:11",
    "key": KEY,
    "amount": "00987654321.500",
    "level": "classified",
    "shade": "ultraviolet-shade",
    "names": ["S3CR3T-name-one", "S3CR3T-name-two"],
    "pair": ["S3CR3T-pair-a", "S3CR3T-pair-b"],
    "headers": {"Authorization": "Bearer-S3CR3T-hdr"},
}

#: What must never appear of each: as given, as the tool writes it, as a handler derives it
#: (`str()` of a datetime, `int()` and `float()` of digits, `str.upper()`).
HIDDEN: dict[str, list[str]] = {
    "token": ["0072945813", "72945813"],
    "place": ["S3CR3T-dir", "S3CR3T-DIR"],
    "day": ["2031-04-05"],
    "moment": ["2032-05-06T07:08:09", "2032-05-06 07:08:09"],
    "hour": ["13:57:11"],
    "key": [KEY, KEY.lower()],
    "amount": ["987654321"],
    "level": ["classified", "CLASSIFIED"],
    "shade": ["ultraviolet", "ULTRAVIOLET"],
    "names": ["S3CR3T-name", "S3CR3T-NAME"],
    "pair": ["S3CR3T-pair", "S3CR3T-PAIR"],
    "headers": ["Bearer-S3CR3T", "BEARER-S3CR3T"],
}

#: The ways out, each a value of `out` (of `use`), and `refuse`: `wipe`, not confirmed.
OUTS = ("result", "print", "raise", "crash", "log", "progress", "derive", "spill", "refuse")


def _flags(values: dict[str, Any]) -> list[str]:
    """The command-line words that give `values`."""
    words: list[str] = []
    for name, value in values.items():
        if isinstance(value, dict):
            words += [f"--{name}", " ".join(f"{k}={v}" for k, v in value.items())]
        elif name == "names":
            for item in value:
                words += [f"--{name}", item]
        elif isinstance(value, list):
            words += [f"--{name}", *value]
        else:
            words += [f"--{name}", value]
    return words


def _env(values: dict[str, Any]) -> dict[str, str]:
    """The environment variables that give `values`."""
    return {
        f"VAULT_{name.upper()}": value if isinstance(value, str) else json.dumps(value)
        for name, value in values.items()
    }


def _leaks(texts: list[str]) -> list[str]:
    """Which secrets show in `texts`, and as what."""
    found = []
    for name, forms in HIDDEN.items():
        for form in forms:
            if any(form in text for text in texts):
                found.append(f"{name}: {form}")
    return found


def _shown(cell: str, out: str, texts: list[str]) -> list[str]:
    """What a cell shows: its leaks, and whether the call did what `out` asks (the secrets
    reached the handler and it showed them, redacted; a refused call was refused), so that a
    call refused for another reason cannot pass the sweep."""
    found = _leaks(texts)
    evidence = "action_required" if out == "refuse" else "<secret:"
    if out == "refuse" and cell.startswith("mcp"):
        evidence = "declined"
    if not (out == "progress" and not cell.startswith("mcp")):
        if not any(evidence in text for text in texts):
            found.append(f"(no {evidence!r} shown)")
    return found


def _files(*folders: Path) -> list[str]:
    """The text of every file under `folders` the tool wrote (cut answers saved, ...), but its
    own code compiled (`*.code`, the cache of the tool's module: the handlers' Literal) and its
    own documents kept decompressed (`*.documents`: the schema lists a Literal's choices)."""
    return [
        path.read_text("utf-8", "replace")
        for folder in folders
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.suffix not in (".code", ".documents")
    ]


@pytest.fixture(scope="module")
def tool(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate(tmp_path_factory.mktemp("sweep"), HANDLERS)


@pytest.fixture
def places(tmp_path: Path) -> dict[str, Path]:
    """A folder for saved outputs, a home and a cache of the tool's own, and one for the
    config file (which holds the secrets by design, so is not searched)."""
    folders = {name: tmp_path / name for name in ("spill", "home", "cache", "config")}
    for folder in folders.values():
        folder.mkdir()
    return folders


def _cli(
    asked: InProcessTool, way: str, out: str, places: dict[str, Path], agent: bool
) -> list[str]:
    """One cell over the command line (in this process): stdout and stderr."""
    command = "wipe" if out == "refuse" else "use"
    shown = "result" if out == "refuse" else out
    env = {"HOME": str(places["home"]), "XDG_CACHE_HOME": str(places["cache"])}
    if agent:
        env["CLAUDECODE"] = "1"
    tail = ["--json"] if agent else []
    spill = ["--spill-dir", str(places["spill"])]
    if out == "crash":
        spill.append("--debug")  # NOTE: the traceback too
    stdin = None
    if way == "flag":
        args = [command, *_flags(GIVEN), "--out", shown, *tail, *spill]
    elif way == "env":
        env.update(_env(GIVEN))
        args = [command, "--out", shown, *tail, *spill]
    elif way == "config":
        config = places["config"] / "vault.json"
        config.write_text(json.dumps({command: GIVEN}), encoding="utf-8")
        args = ["--config", str(config), command, "--out", shown, *tail, *spill]
    elif way == "json":
        args = [command, "--json", json.dumps({**GIVEN, "out": shown}), *spill]
    else:
        line = {"id": 1, "command": command, "input": {**GIVEN, "out": shown}}
        args, stdin = ["--batch", *spill], json.dumps(line) + "\n"
    done = asked.run(*args, stdin=stdin, env=env)
    return [done.out, done.err]


@pytest.mark.parametrize("way", ["flag", "env", "config", "json", "batch"])
def test_no_secret_leaves_by_the_command_line(
    tool: Path, places: dict[str, Path], way: str
) -> None:
    asked = in_process(tool)
    leaks: dict[str, list[str]] = {}
    for out in OUTS:
        for agent in (False, True) if way != "batch" else (True,):
            cell = f"{way} x {out}{' (agent)' if agent else ''}"
            found = _shown(cell, out, _cli(asked, way, out, places, agent))
            if found:
                leaks[cell] = found
    saved = _leaks(_files(places["spill"], places["home"], places["cache"]))
    if saved:
        leaks[f"{way} x files"] = saved
    assert not leaks, json.dumps(leaks, indent=1)


@pytest.mark.filterwarnings("ignore:The logging capability is deprecated")
def test_no_secret_leaves_by_mcp(tool: Path, places: dict[str, Path]) -> None:
    """Every way out over one MCP session (the official SDK's client): the answers, the
    progress and log notifications, the question a destructive call asks, the server's
    stderr and the files it saved."""
    stderr = places["home"] / "stderr.txt"
    python, script, spill = sys.executable, str(tool), str(places["spill"])
    params = StdioServerParameters(
        command="/bin/sh",
        args=["-c", f'exec "{python}" "{script}" --mcp --spill-dir "{spill}" 2>"{stderr}"'],
        env={"HOME": str(places["home"]), "XDG_CACHE_HOME": str(places["cache"])},
        cwd=str(tool.parent),
    )
    seen: list[str] = []

    async def on_log(params: Any) -> None:
        seen.append(json.dumps(params.model_dump(mode="json"), ensure_ascii=False))

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        seen.append(str(message))

    async def on_elicit(context: Any, params: Any) -> ElicitResult:
        seen.append(json.dumps(params.model_dump(mode="json"), ensure_ascii=False))
        return ElicitResult(action="decline")

    async def go() -> dict[str, list[str]]:
        said: dict[str, list[str]] = {}
        async with Client(
            params,
            mode="legacy",
            logging_callback=on_log,
            elicitation_callback=on_elicit,  # type: ignore[arg-type]
        ) as client:
            await client.set_logging_level("debug")
            for out in OUTS:
                seen.clear()
                name = "wipe" if out == "refuse" else "use"
                arguments = {**GIVEN, "out": "result" if out == "refuse" else out}
                result = await client.call_tool(name, arguments, progress_callback=on_progress)
                said[out] = [json.dumps(result.model_dump(mode="json"), ensure_ascii=False)]
                said[out] += seen
        return said

    said = asyncio.run(go())
    leaks = {f"mcp x {out}": _shown(f"mcp x {out}", out, texts) for out, texts in said.items()}
    leaks["mcp x stderr"] = _leaks([stderr.read_text("utf-8", "replace")])
    leaks["mcp x files"] = _leaks(_files(places["spill"], places["cache"]))
    leaks = {cell: found for cell, found in leaks.items() if found}
    assert not leaks, json.dumps(leaks, indent=1)
