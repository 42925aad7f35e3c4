"""A handler's questions (`ctx.confirm`, `ctx.ask`), a missing `Option(prompt=)` and a command
that asks first, on every surface: a person at a terminal is asked; an MCP client that declared
elicitation is asked within the call (stdio and HTTP, both eras, through the official Python
SDK client); anywhere else the call stops with `action_required` whose `next` reruns it with
`--answer NAME=VALUE`."""

from __future__ import annotations

import asyncio
import http.client
import importlib.util
import json
import shlex
import shutil
import signal
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters
from mcp_types import ElicitResult

from burgee.runtime.core.errors import BUILTIN_ERRORS
from tests.helpers import GOLDEN, invoked, load_tool, run
from tests.mcp_wire import INIT, MODERN_META, Server, exchange, line
from tests.node_clients import HttpServer, Uvicorn
from tests.test_clikit import _at_a_terminal

PANTRY = GOLDEN / "pantry" / "pantry.py"
CLIKIT = GOLDEN / "clikit" / "clikit.py"


@pytest.fixture(scope="module")
def pantry() -> Any:
    """The pantry golden tool, imported in this process (its `invoke()`)."""
    spec = importlib.util.spec_from_file_location("pantry_asks", PANTRY)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _rerun(pantry: Any, step: dict[str, str]) -> Any:
    """Run a `next` step's command line, as an agent would (in this process: the tool's name,
    then its words)."""
    name, *words = shlex.split(step["command"])
    assert name == "pantry"
    return pantry.invoke(words)


def test_nobody_to_ask_stops_with_the_lines_that_answer(pantry: Any) -> None:
    first = pantry.invoke(["use", "salt", "--json"])
    assert first.exit_code == 4
    stopped = first.envelope
    assert (stopped["status"], stopped["reason"]) == ("action_required", "answer")
    assert "Take the last salt?" in stopped["error"]["message"]
    assert [step["command"] for step in stopped["next"]] == [
        "pantry use salt --answer use-last=yes --json",
        "pantry use salt --answer use-last=no --json",
    ]
    # NOTE: each rerun answers one more question: the earlier answers stay on the line.
    second = _rerun(pantry, stopped["next"][0])
    assert (second.exit_code, second.envelope["reason"]) == (4, "answer")
    meals = [step["command"] for step in second.envelope["next"]]
    assert meals[1] == "pantry use salt --answer use-last=yes --answer for-which-meal=lunch --json"
    assert len(meals) == 3
    done = _rerun(pantry, second.envelope["next"][1])
    assert (done.exit_code, done.envelope["data"]) == (0, {"name": "salt", "count": 0})
    kept = _rerun(pantry, stopped["next"][1])
    assert (kept.exit_code, kept.envelope["data"]) == (0, {"name": "salt", "count": 1})


def test_a_wrong_answer_fails_the_call(pantry: Any) -> None:
    """Found once the handler asks: `failed_after_run`, not `usage` (the handler ran)."""
    wrong = pantry.invoke(["use", "salt", "--answer", "use-last=maybe", "--json"])
    assert wrong.exit_code == 126
    assert wrong.envelope["error"]["message"] == "answer use-last: expected yes or no, got 'maybe'"
    meal = pantry.invoke(["use", "flour", "--answer", "for-which-meal=tea", "--json"])
    assert meal.exit_code == 126 and "one of breakfast, lunch, dinner" in meal.stderr
    bare = pantry.invoke(["use", "flour", "--answer", "lunch"])
    assert bare.exit_code == 2 and "--answer: expected NAME=VALUE" in bare.stderr


def test_an_answer_no_question_asked_for_is_warned_about_once_it_ran(pantry: Any) -> None:
    """Which questions a handler asks shows only as it runs (a name may be made of the
    question's words): an answer it did not use is a warning on stderr, not in the envelope."""
    ran = pantry.invoke(
        ["use", "flour", "--answer", "for-which-meal=lunch", "--answer", "use_last=no", "--json"]
    )
    assert ran.exit_code == 0 and "warning" not in json.dumps(ran.envelope)
    assert ran.stderr == (
        "pantry: warning: --answer use_last=... was not used: no question of the command is"
        " named 'use_last' (questions it asked: for-which-meal)\n"
    )
    none = pantry.invoke(["stock", "salt", "--answer", "x=y"])
    assert none.exit_code == 0
    assert none.stderr.endswith("named 'x' (it asked none)\n")
    used = pantry.invoke(["use", "flour", "--answer", "for-which-meal=lunch"])
    assert (used.exit_code, used.stderr) == (0, "")


def test_a_batch_call_stops_with_the_batch_line_that_answers() -> None:
    line = '{"id": 1, "command": "use", "input": {"name": "salt"}}\n'
    stopped = run(PANTRY, "--batch", stdin=line)
    answer = json.loads(stopped.out.splitlines()[0])
    assert answer["reason"] == "answer"
    alone = (
        f"""{invoked(PANTRY, PANTRY.parent)} use --json '{{"name": "salt"}}' --answer use-last=no"""
    )
    assert answer["next"][1]["command"] == alone
    ran = run(PANTRY, *shlex.split(alone)[5:])
    assert ran.json()["data"] == {"name": "salt", "count": 1}


def test_at_a_terminal_a_person_is_asked_until_the_answer_fits() -> None:
    code, seen = _at_a_terminal(
        PANTRY,
        ["use", "salt"],
        [
            (b"Take the last salt? [y/N] ", b"y\n"),
            (b"For which meal? (breakfast/lunch/dinner) [dinner]: ", b"tea\n"),
            (b"answer breakfast, lunch, dinner", b"\n"),
        ],
    )
    assert code == 0, seen
    assert seen.count("For which meal?") == 2  # NOTE: asked again; empty takes the default
    assert seen.rstrip().endswith("count: 0"), seen


def _answering(action: str, asked: list[tuple[str, dict[str, Any]]], value: str = "lunch") -> Any:
    async def on_elicit(context: Any, params: Any) -> ElicitResult:
        schema = params.requested_schema
        asked.append((params.message, schema))
        if action != "accept":
            return ElicitResult(action=action)  # type: ignore[arg-type]
        key, field = next(iter(schema["properties"].items()))
        return ElicitResult(action="accept", content={key: field["type"] == "boolean" or value})

    return on_elicit


def _calls(server: Any, mode: str, action: str, calls: list[tuple[str, dict[str, Any]]]) -> Any:
    asked: list[tuple[str, dict[str, Any]]] = []

    async def go() -> list[Any]:
        callback = None if action == "none" else _answering(action, asked)
        async with Client(server, mode=mode, elicitation_callback=callback) as client:  # type: ignore[arg-type]
            return [await client.call_tool(name, arguments) for name, arguments in calls]

    results = asyncio.run(go())
    return [json.loads(result.content[0].text) for result in results], asked


def _stdio(tool: Path) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=[str(tool), "--mcp"])


@pytest.fixture(scope="module")
def http_pantry() -> Any:
    server = HttpServer(PANTRY)
    yield server
    server.stop(signal.SIGTERM)


@pytest.mark.parametrize("transport", ["stdio", "http"])
@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_an_mcp_client_that_elicits_answers_within_the_call(
    transport: str, mode: str, http_pantry: HttpServer
) -> None:
    server = _stdio(PANTRY) if transport == "stdio" else http_pantry.url
    calls = [("use", {"name": "salt"})]
    (taken,), asked = _calls(server, mode, "accept", calls)
    assert taken["data"] == {"name": "salt", "count": 0}
    boolean = {"type": "boolean", "title": "Take the last salt?", "default": False}
    assert asked[0] == (
        "Take the last salt?",
        {"type": "object", "properties": {"use-last": boolean}, "required": ["use-last"]},
    )
    meal = asked[1][1]["properties"]["for-which-meal"]
    assert meal == {
        "type": "string",
        "title": "For which meal?",
        "enum": ["breakfast", "lunch", "dinner"],
        "default": "dinner",
    }
    calls = [("use", {"name": "salt"}), ("use", {"name": "flour"})]
    (kept, stopped), asked = _calls(server, mode, "decline", calls)
    assert kept["data"] == {"name": "salt", "count": 1}  # NOTE: a declined confirm is False
    assert (stopped["reason"], stopped["error"]["kind"]) == ("declined", "action_required")
    assert [message for message, _ in asked] == ["Take the last salt?", "For which meal?"]
    (cancelled,), _ = _calls(server, mode, "cancel", [("use", {"name": "salt"})])
    assert cancelled["reason"] == "cancelled"


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_a_client_without_elicitation_gets_the_line_that_answers(mode: str) -> None:
    (stopped,), _ = _calls(_stdio(PANTRY), mode, "none", [("use", {"name": "salt"})])
    assert (stopped["reason"], stopped["error"]["kind"]) == ("answer", "action_required")
    line = stopped["next"][0]["command"]
    assert line.endswith(f"""{PANTRY} use --json '{{"name":"salt"}}' --answer use-last=yes""")


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_prompted_options_and_confirmations_are_elicited_too(mode: str) -> None:
    calls = [("login", {"token": "s3cret"}), ("delete", {"name": "report"})]
    (login, deleted), asked = _calls(_stdio(CLIKIT), mode, "accept", calls)
    assert login["data"] == {"user": "lunch", "token_length": 6}
    assert login["meta"]["provenance"]["user"]["source"] == "prompt"
    assert deleted["data"] == {"deleted": "report"}
    assert [message for message, _ in asked] == ["Your name", "Delete report for good?"]
    # NOTE: a secret is never asked of a client (the spec forbids it): its answer is the rerun.
    (stopped,), asked = _calls(_stdio(CLIKIT), mode, "accept", [("login", {"user": "ada"})])
    assert stopped["error"]["kind"] == "usage" and asked == []


ASKING_INIT = {**INIT, "params": {**INIT["params"], "capabilities": {"elicitation": {}}}}


def test_a_call_cancelled_while_it_waits_for_its_answer_ends_unanswered() -> None:
    server = Server(PANTRY)
    try:
        server.send(ASKING_INIT)
        server.read()
        server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        call = {"name": "use", "arguments": {"name": "salt"}}
        server.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call})
        asked = server.read()
        assert (asked["method"], asked["params"]["message"]) == (
            "elicitation/create",
            "Take the last salt?",
        )
        server.send(
            {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}}
        )
        server.send({"jsonrpc": "2.0", "id": 2, "method": "ping"})
        assert server.read() == {"jsonrpc": "2.0", "id": 2, "result": {}}
        # NOTE: an answer that comes too late, or to nothing asked, is ignored.
        late = {"action": "accept", "content": {"use-last": True}}
        server.send({"jsonrpc": "2.0", "id": asked["id"], "result": late})
        server.send({"jsonrpc": "2.0", "id": "elicit-99", "result": late})
        server.send({"jsonrpc": "2.0", "id": 3, "method": "ping"})
        assert server.read() == {"jsonrpc": "2.0", "id": 3, "result": {}}
    finally:
        server.proc.stdin.close()  # type: ignore[union-attr]
        out, _, code = server.close()
    assert (out, code) == (b"", 0)


def _modern_call(ident: int, **more: Any) -> dict[str, Any]:
    meta = {**MODERN_META, "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}}
    params = {"name": "use", "arguments": {"name": "salt"}, "_meta": meta, **more}
    return {"jsonrpc": "2.0", "id": ident, "method": "tools/call", "params": params}


def test_a_2026_call_asks_with_input_required_and_runs_again_with_the_answers() -> None:
    yes = {"action": "accept", "content": {"use-last": True}}
    lunch = {"action": "accept", "content": {"for-which-meal": "lunch"}}
    first, _, _, _ = exchange(PANTRY, line(_modern_call(1)))
    asked = first[0]["result"]
    assert asked["resultType"] == "input_required"
    request = asked["inputRequests"]["use-last"]
    assert (request["method"], request["params"]["mode"]) == ("elicitation/create", "form")
    second, _, _, _ = exchange(
        PANTRY,
        line(_modern_call(2, inputResponses={"use-last": yes}, requestState=asked["requestState"])),
    )
    again = second[0]["result"]
    assert list(again["inputRequests"]) == ["for-which-meal"]
    # NOTE: the last round gives only its own answer: the first comes back in requestState.
    third, _, _, _ = exchange(
        PANTRY,
        line(
            _modern_call(
                3, inputResponses={"for-which-meal": lunch}, requestState=again["requestState"]
            )
        ),
    )
    done = third[0]["result"]
    assert (done["resultType"], done["structuredContent"]) == (
        "complete",
        {"name": "salt", "count": 0},
    )
    # NOTE: a state that is not the server's own is no answer: the question is asked again.
    forged, _, _, _ = exchange(PANTRY, line(_modern_call(4, requestState="not base64!")))
    assert list(forged[0]["result"]["inputRequests"]) == ["use-last"]


def test_an_http_client_that_takes_one_json_answer_is_not_asked(http_pantry: HttpServer) -> None:
    def post(body: Any, session: str = "") -> tuple[dict[str, str], bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", http_pantry.port, timeout=30)
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if session:
            headers["Mcp-Session-Id"] = session
        connection.request("POST", "/mcp", json.dumps(body).encode(), headers)
        response = connection.getresponse()
        answer = dict(response.getheaders()), response.read()
        connection.close()
        return answer

    headers, _ = post(ASKING_INIT)
    session = headers["Mcp-Session-Id"]
    call = {"name": "use", "arguments": {"name": "salt"}}
    _, body = post({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call}, session)
    answer = json.loads(json.loads(body)["result"]["content"][0]["text"])
    assert (answer["reason"], answer["error"]["kind"]) == ("answer", "action_required")


SECRET_ASK = '''
from burgee import Context, command


@command(effects="read_only")
def connect(ctx: Context = None) -> str:
    """Connect with a token asked for."""
    token = ctx.ask("Your token?", secret=True, name="token", default="fallback-token")
    return f"connected with {token}"
'''


def test_a_secret_answer_is_never_written_and_never_asked_of_a_client(tmp_path: Path) -> None:
    tool = load_tool(tmp_path, SECRET_ASK, "secret_ask")
    given = tool.invoke(["connect", "--answer", "token=s3cret-value", "--json"])
    assert given.envelope["data"] == "connected with <secret:token>"
    (stopped,), asked = _calls(_stdio(tmp_path / "tool.py"), "legacy", "accept", [("connect", {})])
    assert asked == [] and stopped["reason"] == "answer"
    assert "a secret is never asked of an MCP client" in stopped["error"]["message"]
    assert stopped["next"][0]["command"].endswith("--answer token=VALUE")
    assert "fallback-token" not in json.dumps(stopped)  # NOTE: not even its default


def test_a_prompted_option_is_answered_by_its_parameter_name() -> None:
    ran = run(CLIKIT, "login", "--token", "t", "--answer", "user=ada", "--json")
    assert ran.json()["data"] == {"user": "ada", "token_length": 1}


def test_the_end_of_input_ends_a_call_waiting_for_its_answer() -> None:
    call = {"name": "use", "arguments": {"name": "salt"}}
    requests = [ASKING_INIT, {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call}]
    messages, _, _, code = exchange(PANTRY, b"".join(map(line, requests)), timeout=30)
    assert messages[1]["method"] == "elicitation/create"
    answer = json.loads(messages[2]["result"]["content"][0]["text"])
    # NOTE: the client is gone, which nobody's cancel is: no way on is offered either.
    assert (code, answer["error"]["kind"]) == (0, "failed_after_run")
    assert "the client's input ended" in answer["error"]["message"]


def test_a_session_ended_while_its_call_waits_for_an_answer_ends_the_call(
    http_pantry: HttpServer,
) -> None:
    def request(method: str, body: Any, session: str = "") -> http.client.HTTPResponse:
        connection = http.client.HTTPConnection("127.0.0.1", http_pantry.port, timeout=30)
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
        }
        if session:
            headers["Mcp-Session-Id"] = session
        connection.request(method, "/mcp", json.dumps(body).encode() if body else None, headers)
        return connection.getresponse()

    opened = request("POST", ASKING_INIT)
    session = opened.getheader("Mcp-Session-Id") or ""
    opened.read()
    call = {"name": "use", "arguments": {"name": "salt"}}
    stream = request(
        "POST", {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call}, session
    )
    first = stream.readline()
    while not first.startswith(b"data: "):
        first = stream.readline()
    assert json.loads(first[6:])["method"] == "elicitation/create"
    ended = request("DELETE", None, session)
    assert ended.status == 200
    rest = [json.loads(raw[6:]) for raw in stream.read().splitlines() if raw.startswith(b"data: ")]
    answer = json.loads(rest[-1]["result"]["content"][0]["text"])
    # NOTE: nobody cancelled it: the session is lost, and the answer names it.
    assert answer["error"]["kind"] == "failed_after_run" and answer.get("next") is None
    assert f"the session {session} ended" in answer["error"]["message"], answer
    assert "person" not in answer["error"]["message"]


def test_an_answer_for_a_session_this_process_does_not_hold_is_refused_at_once(
    http_pantry: HttpServer,
) -> None:
    """An answer to a question that reaches another process (or a lost session): refused at
    once, naming the session, never left for its question to wait on until a timeout."""
    lost = "0123456789abcdef0123456789abcdef"
    answer = {"jsonrpc": "2.0", "id": "elicit-1", "result": {"action": "accept", "content": {}}}
    connection = http.client.HTTPConnection("127.0.0.1", http_pantry.port, timeout=30)
    headers = {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "Mcp-Session-Id": lost,
    }
    connection.request("POST", "/mcp", json.dumps(answer).encode(), headers)
    response = connection.getresponse()
    body = json.loads(response.read())
    connection.close()
    assert response.status == 404
    message = body["error"]["message"]
    assert f"session {lost}" in message and "elicit-1" in message, message


WHO = '''
from burgee import Context, command


@command(effects="read_only")
def greet(ctx: Context = None) -> str:
    """Greet whoever answers."""
    return "hello " + ctx.ask("Who?")
'''


@pytest.mark.parametrize(
    ("content", "expected"),
    [({"who": "ada"}, "hello ada"), ({}, "answer who: expected text, got None")],
)
def test_an_accepted_answer_without_a_value_is_no_answer(
    tmp_path: Path, content: dict[str, Any], expected: str
) -> None:
    tool = load_tool(tmp_path, WHO, f"who_{len(content)}")
    server = Server(Path(tool.__file__))
    try:
        server.send(ASKING_INIT)
        server.read()
        call = {"name": "greet", "arguments": {}}
        server.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call})
        asked = server.read()
        assert list(asked["params"]["requestedSchema"]["properties"]) == ["who"]
        reply = {"action": "accept", "content": content}
        server.send({"jsonrpc": "2.0", "id": asked["id"], "result": reply})
        answer = json.loads(server.read()["result"]["content"][0]["text"])
    finally:
        server.close()
    assert answer.get("data", answer.get("error", {}).get("message")) == expected


def _bypasses(answer: dict[str, Any]) -> list[str]:
    """The lines of an answer that would run past a question: `--yes` or `--answer`."""
    text = json.dumps({key: answer.get(key) for key in ("next", "error")})
    return [flag for flag in ("--yes", "--answer") if flag in text]


@pytest.mark.parametrize("action", ["decline", "cancel"])
@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_a_person_who_declines_is_not_overridden(mode: str, action: str) -> None:
    """A person's no is final: after a declined or cancelled question, no line answers it for
    them (`--yes`, `--answer`), and the message says the person did."""
    calls = [("delete", {"name": "report"})]
    (deleted,), asked = _calls(_stdio(CLIKIT), mode, action, calls)
    assert [message for message, _ in asked] == ["Delete report for good?"]
    (meal,), _ = _calls(_stdio(PANTRY), mode, action, [("use", {"name": "flour"})])
    ended = "declined" if action == "decline" else "cancelled"
    for answer in (deleted, meal):
        assert (answer["reason"], answer["next"]) == (ended, [])
        assert _bypasses(answer) == [] and "hint" not in answer["error"]
        assert f"the person {ended}" in answer["error"]["message"]


def test_at_a_terminal_a_no_is_final() -> None:
    code, seen = _at_a_terminal(CLIKIT, ["delete", "report"], [(b"[y/N] ", b"n\n")])
    assert code == 4, seen
    assert "the person declined" in seen and "--yes" not in seen, seen


TIDY = '''
from dataclasses import dataclass

from burgee import Context, command


@dataclass
class Order:
    """An order."""

    count: int = 1
    size: str = "s"


@command(effects="idempotent")
def tidy(ctx: Context = None) -> str:
    """Tidy up the logs."""
    if not ctx.confirm("Remove the old logs?", name="old-logs"):
        return "kept"
    if ctx.confirm("Empty the bin too?"):
        return "removed and emptied"
    return "removed"


@command(effects="read_only")
def pick(ctx: Context = None) -> str:
    """Pick a meal and an order."""
    meal = ctx.ask("For which meal?", choices=["lunch", "dinner"])
    order = ctx.form("Your order", Order)
    return f"{meal} x{order.count}"
'''


def test_yes_answers_every_yes_no_question_of_the_command(tmp_path: Path) -> None:
    """`--yes` means "answer yes", as `apt -y` does: a handler's `ctx.confirm` too."""
    tool = load_tool(tmp_path, TIDY, "tidy")
    ran = tool.invoke(["tidy", "--yes", "--json"])
    assert (ran.exit_code, ran.envelope.get("data")) == (0, "removed and emptied"), ran.stderr
    short = tool.invoke(["tidy", "-y", "--answer", "empty-the-bin-too=no", "--json"])
    assert short.envelope.get("data") == "removed"  # NOTE: an answer given by name wins
    # NOTE: `--yes` answers no question that is not yes or no.
    asked = tool.invoke(["pick", "--yes", "--json"])
    assert asked.exit_code == 2 and "does not ask" in asked.stderr


def test_help_and_descriptions_name_the_questions(tmp_path: Path) -> None:
    tool = load_tool(tmp_path, TIDY, "tidy_help")
    shown = tool.invoke(["tidy", "--help"]).stdout
    assert "--yes" in shown and "Remove the old logs?" in shown, shown
    assert "--answer old-logs=" in shown and "--answer empty-the-bin-too=" in shown, shown
    picked = tool.invoke(["pick", "--help"]).stdout
    assert "--answer for-which-meal=" in picked and "count, size" in picked, picked
    schema = tool.invoke(["schema"]).envelope
    tidy = next(c for c in schema["commands"] if c["name"] == "tidy")
    assert tidy["confirmation_bypass_arg"] == "--yes"
    assert tidy["burgee_questions"] == [
        {"kind": "confirm", "question": "Remove the old logs?", "answers": ["old-logs"]},
        {"kind": "confirm", "question": "Empty the bin too?", "answers": ["empty-the-bin-too"]},
    ]
    pick = next(c for c in schema["commands"] if c["name"] == "pick")
    assert [q["answers"] for q in pick["burgee_questions"]] == [
        ["for-which-meal"],
        ["count", "size"],
    ]
    llms = json.loads(tool.invoke(["--llms"]).stdout)
    described = {t["name"]: t["description"] for t in llms["tools"]}
    assert "Remove the old logs?" in described["tidy"] and "old-logs" in described["tidy"]
    skill = tool.invoke(["--skill"]).stdout
    assert "--answer old-logs=" in skill and "--answer for-which-meal=" in skill, skill


def test_a_failure_after_the_handler_ran_is_no_usage_error(pantry: Any, tmp_path: Path) -> None:
    """`usage` (exit 2) says nothing ran: an agent may fix the call and retry. An answer given
    ahead that does not fit is found once the handler asks, and an answer that cannot be
    written once it has run: their kind says the handler ran."""
    wrong = pantry.invoke(["use", "salt", "--answer", "use-last=maybe", "--json"])
    assert (wrong.exit_code, wrong.envelope["error"]["kind"]) == (126, "failed_after_run")
    assert "answer use-last: expected yes or no, got 'maybe'" in wrong.envelope["error"]["message"]
    full = pantry.invoke(["stock", "salt", "--output-file", "/dev/full"])
    assert full.exit_code == 126 and '"kind": "failed_after_run"' in full.stderr, full.stderr


def test_the_contract_lists_every_built_in_kind_with_its_code() -> None:
    """The kinds and their exit codes have one home, `errors.BUILTIN_ERRORS`: the contract's
    table says the same."""
    page = (Path(__file__).parent.parent / "docs" / "contract.md").read_text(encoding="utf-8")
    table = page.split("## Exit codes", 1)[1].split("\n\n", 2)[1]
    rows = {}
    for row in table.splitlines()[2:]:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        if cells[1].startswith("`"):
            rows[cells[1].strip("`")] = cells[0]
    assert rows == {kind: str(code) for kind, (code, _) in BUILTIN_ERRORS.items()}


def _asking_session(port: int) -> str:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    connection.request("POST", "/mcp", json.dumps(ASKING_INIT).encode(), headers)
    opened = connection.getresponse()
    opened.read()
    connection.close()
    return opened.getheader("Mcp-Session-Id") or ""


def _ask(port: int, session: str) -> tuple[Any, Any]:
    """A call that asks (`use salt`) on a stream of its own: the connection, and the first
    message the server sent on it (the question, or the call's answer)."""
    call = {"name": "use", "arguments": {"name": "salt"}}
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call})
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    head = (
        f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(body)}\r\n"
        "Content-Type: application/json\r\nAccept: text/event-stream\r\n"
        f"Mcp-Session-Id: {session}\r\n\r\n"
    )
    sock.sendall(head.encode() + body.encode())
    stream = sock.makefile("rb")
    while True:
        raw = stream.readline()
        assert raw, "the stream ended before any message"
        if raw.startswith(b"data: "):
            return sock, json.loads(raw[6:])


def _stock(port: int, session: str) -> tuple[int, float]:
    """Another client's quick call while questions wait: its status, and how long it took."""
    started = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    call = {"name": "stock", "arguments": {"name": "salt"}}
    headers = {
        "Content-Type": "application/json",
        "Accept": "application/json",
        "Mcp-Session-Id": session,
    }
    message = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call}
    connection.request("POST", "/mcp", json.dumps(message).encode(), headers)
    answered = connection.getresponse()
    answered.read()
    connection.close()
    return answered.status, time.monotonic() - started


@pytest.mark.parametrize(("vanish", "served"), [(False, "http"), (True, "http"), (True, "asgi")])
def test_questions_waiting_over_http_hold_no_more_than_their_places(
    vanish: bool, served: str, tmp_path: Path
) -> None:
    """33 clients that ask and never answer (staying, or gone): the others are still served at
    once. Calls wait for an answer in at most half the request places; a question past that
    ends at once (unanswered: `next` is the line that answers); a question whose
    client's stream ended ends too, and gives its place back. The stdlib server, and the
    ASGI application under uvicorn (one worker: a session lives in one)."""
    if served == "asgi":
        pytest.importorskip("uvicorn")
        shutil.copy(PANTRY, tmp_path / "pantry.py")
        server: Any = Uvicorn(tmp_path / "pantry.py", 1, {})
    else:
        server = HttpServer(PANTRY)
    try:
        port = server.port
        sessions = [_asking_session(port) for _ in range(33)]
        asked = [_ask(port, session) for session in sessions]
        questions = [first for _, first in asked if first.get("method") == "elicitation/create"]
        ended = [first for _, first in asked if "result" in first]
        assert len(questions) == 16 and len(ended) == 17
        answer = json.loads(ended[0]["result"]["content"][0]["text"])
        # NOTE: asked of nobody, which no person's cancel is: the line that answers stands.
        assert (answer["reason"], answer["error"]["kind"]) == ("answer", "action_required")
        assert "--answer use-last=yes" in answer["next"][0]["command"]
        if vanish:
            for sock, _ in asked:
                sock.close()
            time.sleep(1)
            # NOTE: the vanished clients' questions ended: as many may be asked again.
            again = [_ask(port, session) for session in sessions[:16]]
            assert all(first.get("method") == "elicitation/create" for _, first in again)
            asked += again
        status, took = _stock(port, sessions[0])
        assert status == 200 and took < 5
        for sock, _ in asked:
            sock.close()
    finally:
        server.stop(*(() if served == "asgi" else (signal.SIGTERM,)))


def test_a_question_waits_a_bounded_time(tmp_path: Path) -> None:
    """A client that asked and never answers (its input still open) holds its call no longer
    than `_ASK_SECONDS`. Nobody said no, so the answer does not say the person cancelled: it
    says no answer came (`reason: "unanswered"`), and, a person having been asked, offers no
    line that answers in their place. The bound is made short in the server's process: its
    MCP sections loaded first (`invoke`), then the constant set."""
    wrapper = tmp_path / "short_bound.py"
    wrapper.write_text(
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('pantry', {str(PANTRY)!r})\n"
        "tool = importlib.util.module_from_spec(spec)\n"
        "sys.modules['pantry'] = tool\n"
        "spec.loader.exec_module(tool)\n"
        "tool.invoke(['--mcp'])\n"
        "tool._ASK_SECONDS = 0.5\n"
        "sys.exit(tool.main(['--mcp']))\n"
    )
    server = Server(wrapper)
    # NOTE: a call that waits for ever is ended here, so the test fails instead of hanging.
    guard = threading.Timer(20, server.proc.kill)
    guard.start()
    try:
        server.send(ASKING_INIT)
        server.read()
        call = {"name": "use", "arguments": {"name": "salt"}}
        started = time.monotonic()
        server.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call})
        assert server.read()["method"] == "elicitation/create"
        answer = json.loads(server.read()["result"]["content"][0]["text"])
        assert answer["reason"] == "unanswered" and time.monotonic() - started < 15
        assert "no answer came within" in answer["error"]["message"]
        assert "cancelled" not in answer["error"]["message"]
        assert answer["next"] == [] and "--yes" not in json.dumps(answer)
    finally:
        guard.cancel()
        server.proc.kill()
        server.close()
