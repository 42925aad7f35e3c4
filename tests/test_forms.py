"""`ctx.form(message, Form)`: several values asked at once, the fields of a dataclass, through
the one way a question is asked (`context._ask_fields`): answered ahead with `--answer
FIELD=VALUE`, at a terminal one field after another, by an MCP client's user as one
elicitation (stdio and HTTP, both eras, through the official Python SDK client), and anywhere
else `action_required` whose `next` is the line that answers; gen checks the form."""

from __future__ import annotations

import asyncio
import json
import shlex
import signal
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters
from mcp_types import ElicitResult

from tests.helpers import burgee_in_process, generate, import_tool
from tests.mcp_wire import MODERN_META, exchange, line
from tests.node_clients import HttpServer
from tests.test_clikit import _at_a_terminal

HANDLERS = '''
"""Orders."""

from dataclasses import dataclass, field
from enum import Enum
from typing import Literal

from burgee import Context, command, program

program(name="orders", version="1.0")


class Size(Enum):
    SMALL = "s"
    EXTRA_LARGE = "xl"


@dataclass
class Order:
    """An order.

    Attributes:
        item: What to order
        count: How many
    """

    item: str
    count: int = 1
    price: float = 2.5
    size: Size = Size.SMALL
    toppings: list[Literal["cheese", "ham"]] = field(default_factory=list)
    gift: bool = False


@command(effects="read_only")
def order(ctx: Context = None) -> dict:
    """Order something."""
    chosen = ctx.form("Your order", Order)
    shown = {**chosen.__dict__, "size": chosen.size.value}
    return shown


@command(effects="read_only")
def old(ctx: Context = None) -> str:
    """Order the way older clients show sizes."""
    return ctx.form("Your order", Order, legacy_titles=["size"]).size.value
'''


@pytest.fixture(scope="module")
def orders(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    path = generate(tmp_path_factory.mktemp("forms"), HANDLERS)
    return path, import_tool(path, "tool_forms")


def test_nobody_to_ask_stops_with_the_line_that_answers_every_field(
    orders: tuple[Path, Any],
) -> None:
    _, tool = orders
    stopped = tool.invoke(["order", "--json"])
    assert stopped.exit_code == 4
    envelope = stopped.envelope
    assert (envelope["status"], envelope["reason"]) == ("action_required", "answer")
    assert "--answer FIELD=VALUE for each of item, count, price" in envelope["error"]["message"]
    (step,) = envelope["next"]
    assert step["command"].endswith(
        "order --answer item=VALUE --answer count=1 --answer price=2.5 --answer size=s"
        " --answer toppings= --answer gift=no --json"
    )
    assert "in place of VALUE" in step["when"]
    # NOTE: the line runs as given once VALUE is replaced (here, without its interpreter).
    words = shlex.split(step["command"].replace("item=VALUE", "item=tea"))
    done = tool.invoke(words[words.index("order") :])
    assert done.exit_code == 0, done.stdout
    assert done.envelope["data"] == {
        "item": "tea",
        "count": 1,
        "price": 2.5,
        "size": "s",
        "toppings": [],
        "gift": False,
    }


def test_answers_given_ahead_are_checked_per_field(orders: tuple[Path, Any]) -> None:
    """Every field answered ahead: nothing is asked (one left out would be, as `ask`'s would,
    or the call stops)."""
    _, tool = orders
    answers = ["--answer", "item=tea", "--answer", "size=xl", "--answer", "toppings=ham,cheese"]
    answers += ["--answer", "price=2.5", "--answer", "gift=y"]
    done = tool.invoke(["order", "--json", *answers, "--answer", "count=3"])
    assert done.envelope["data"] == {
        "item": "tea",
        "count": 3,
        "price": 2.5,
        "size": "xl",
        "toppings": ["ham", "cheese"],
        "gift": True,
    }
    wrong = tool.invoke(["order", "--json", *answers, "--answer", "count=many"])
    assert wrong.exit_code == 126  # NOTE: failed_after_run: the handler was asking
    message = wrong.envelope["error"]["message"]
    assert message == "answer count: expected a whole number, got 'many'"
    unknown = tool.invoke(["order", "--json", *answers, "--answer", "size=huge"])
    assert unknown.envelope["error"]["message"] == "answer size: expected one of s, xl, got 'huge'"


def test_at_a_terminal_each_field_is_asked_in_turn(orders: tuple[Path, Any]) -> None:
    path, _ = orders
    code, seen = _at_a_terminal(
        path,
        ["order"],
        [
            (b"item (What to order): ", b"\n"),  # NOTE: no default: asked again
            (b"item (What to order): ", b"tea\n"),
            (b"count (How many) [1]: ", b"two\n"),
            (b"answer a whole number", b"2\n"),
            (b"price [2.5]: ", b"\n"),
            (b"size (s/xl) [s]: ", b"xl\n"),
            (b"toppings (cheese/ham, several: a,b): ", b"ham\n"),
            (b"gift [y/N] ", b"y\n"),
        ],
    )
    assert code == 0, seen
    assert seen.startswith("Your order\n"), seen
    assert seen.endswith(
        "item:     tea\ncount:    2\nprice:    2.5\nsize:     xl\n"
        'toppings: ["ham"]\ngift:     yes\n'
    ), seen


def _client(server: Any, mode: str, calls: list[str], answer: dict[str, Any] | None) -> Any:
    """Each call's envelope, and what the client's user was asked (accepting `answer`, or
    declining when it is None)."""
    asked: list[tuple[str, dict[str, Any]]] = []

    async def on_elicit(context: Any, params: Any) -> ElicitResult:
        asked.append((params.message, params.requested_schema))
        if answer is None:
            return ElicitResult(action="decline")
        return ElicitResult(action="accept", content=answer)

    async def go() -> list[Any]:
        async with Client(server, mode=mode, elicitation_callback=on_elicit) as client:  # type: ignore[arg-type]
            return [await client.call_tool(name, {}) for name in calls]

    results = asyncio.run(go())
    return [json.loads(result.content[0].text) for result in results], asked


@pytest.mark.parametrize("transport", ["stdio", "http"])
@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_an_mcp_client_fills_in_the_form_within_the_call(
    orders: tuple[Path, Any], transport: str, mode: str
) -> None:
    path, _ = orders
    http = HttpServer(path) if transport == "http" else None
    server = (
        http.url
        if http is not None
        else StdioServerParameters(command=sys.executable, args=[str(path), "--mcp"])
    )
    try:
        answer = {"item": "tea", "size": "xl", "toppings": ["ham"]}
        (done, legacy), asked = _client(server, mode, ["order", "old"], answer)
        (declined,), _ = _client(server, mode, ["order"], None)
    finally:
        if http is not None:
            http.stop(signal.SIGTERM)
    # NOTE: the fields the client left out have their defaults.
    assert done["data"] == {
        "item": "tea",
        "count": 1,
        "price": 2.5,
        "size": "xl",
        "toppings": ["ham"],
        "gift": False,
    }
    message, schema = asked[0]
    assert message == "Your order"
    assert schema["required"] == ["item"]
    fields = schema["properties"]
    assert fields["item"] == {"type": "string", "title": "item", "description": "What to order"}
    assert fields["count"] == {
        "type": "integer",
        "title": "count",
        "description": "How many",
        "default": 1,
    }
    assert fields["price"] == {"type": "number", "title": "price", "default": 2.5}
    assert fields["size"] == {
        "type": "string",
        "title": "size",
        "oneOf": [{"const": "s", "title": "Small"}, {"const": "xl", "title": "Extra large"}],
        "default": "s",
    }
    assert fields["toppings"] == {
        "type": "array",
        "title": "toppings",
        "items": {"type": "string", "enum": ["cheese", "ham"]},
        "default": [],
    }
    assert fields["gift"] == {"type": "boolean", "title": "gift", "default": False}
    # NOTE: `legacy_titles`: the titles as `enumNames`, for clients that read no `oneOf`.
    assert legacy["data"] == "xl"
    assert asked[1][1]["properties"]["size"] == {
        "type": "string",
        "title": "size",
        "enum": ["s", "xl"],
        "enumNames": ["Small", "Extra large"],
        "default": "s",
    }
    assert (declined["reason"], declined["error"]["kind"]) == ("declined", "action_required")
    # NOTE: the person's no is final: no line answers the form in their place.
    assert declined["next"] == [] and "the person declined" in declined["error"]["message"]


def test_a_2026_call_asks_the_form_with_input_required(orders: tuple[Path, Any]) -> None:
    """2026-07-28: the form is one `inputRequests` entry (named as its class); the retried call
    with its answer runs the handler again, the form filled in."""
    path, _ = orders
    meta = {**MODERN_META, "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}}

    def call(ident: int, **more: Any) -> bytes:
        params = {"name": "order", "arguments": {}, "_meta": meta, **more}
        return line({"jsonrpc": "2.0", "id": ident, "method": "tools/call", "params": params})

    first, _, _, _ = exchange(path, call(1))
    asked = first[0]["result"]
    assert asked["resultType"] == "input_required"
    request = asked["inputRequests"]["Order"]
    assert request["params"]["message"] == "Your order"
    assert list(request["params"]["requestedSchema"]["properties"]) == [
        "item",
        "count",
        "price",
        "size",
        "toppings",
        "gift",
    ]
    answer = {"action": "accept", "content": {"item": "tea", "count": 4, "gift": True}}
    state = asked["requestState"]
    second, _, _, _ = exchange(path, call(2, inputResponses={"Order": answer}, requestState=state))
    done = second[0]["result"]
    assert done["resultType"] == "complete"
    assert done["structuredContent"] == {
        "item": "tea",
        "count": 4,
        "price": 2.5,
        "size": "s",
        "toppings": [],
        "gift": True,
    }


def test_a_typeddict_is_a_form_too(tmp_path: Path) -> None:
    """Its fields have no defaults: each is asked, or answered ahead; the answer a dict."""
    source = (
        "from typing import Literal, TypedDict\n"
        "from burgee import Context, command\n"
        "class Profile(TypedDict):\n"
        "    name: str\n"
        '    tier: Literal["free", "pro"]\n'
        '@command(effects="read_only")\n'
        "def setup(ctx: Context = None) -> dict:\n"
        '    """Set up."""\n'
        '    return dict(ctx.form("Your profile", Profile))\n'
    )
    tool = import_tool(generate(tmp_path, source), "tool_profiles")
    stopped = tool.invoke(["setup", "--json"]).envelope
    assert stopped["next"][0]["when"] == "with the answers in place of VALUE"
    answered = tool.invoke(["setup", "--json", "--answer", "name=ada", "--answer", "tier=pro"])
    assert answered.envelope["data"] == {"name": "ada", "tier": "pro"}


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('ctx.form("x", Bad)', "ctx.form(Bad): field where is dict[str, int]; a form's field is"),
        ('ctx.form("x", Order, legacy_titles=["count"])', "Order has no Enum field 'count'"),
        ('ctx.form("x", Size)', "ctx.form takes a dataclass or TypedDict; Size is neither"),
        ('ctx.form("x", order)', "ctx.form takes a dataclass or TypedDict this file defines"),
    ],
)
def test_gen_checks_each_form(tmp_path: Path, line: str, message: str) -> None:
    source = (
        "from dataclasses import dataclass\n"
        "from enum import Enum\n"
        "from burgee import Context, command\n"
        "class Size(Enum):\n"
        '    S = "s"\n'
        "@dataclass\n"
        "class Bad:\n"
        "    where: dict[str, int]\n"
        "@dataclass\n"
        "class Order:\n"
        "    count: int = 1\n"
        "    size: Size = Size.S\n"
        '@command(effects="read_only")\n'
        "def order(ctx: Context = None) -> str:\n"
        '    """Order."""\n'
        f"    return str({line})\n"
    )
    (tmp_path / "handlers.py").write_text(source, encoding="utf-8")
    result = burgee_in_process("gen", str(tmp_path / "handlers.py"), "-o", str(tmp_path / "bad.py"))
    assert result.returncode == 2, result.stderr
    assert "handlers.py:16:" in result.stderr and message in result.stderr, result.stderr


def test_a_form_no_handler_asks_for_is_an_error_that_says_where_to_ask(tmp_path: Path) -> None:
    """gen reads `ctx.form` where a command's function calls it on its Context: a helper that
    asks for a form gen never saw fails with a message that says so, not a KeyError."""
    source = (
        "from dataclasses import dataclass\n"
        "from burgee import Context, command\n"
        "@dataclass\n"
        "class Order:\n"
        "    count: int = 1\n"
        "def ask(asker, form):\n"
        '    return asker.form("x", form)\n'
        '@command(effects="read_only")\n'
        "def order(ctx: Context = None) -> int:\n"
        '    """Order."""\n'
        "    return ask(ctx, Order).count\n"
    )
    tool = import_tool(generate(tmp_path, source), "tool_unseen_form")
    failed = tool.invoke(["order", "--json"]).envelope["error"]
    assert failed["kind"] == "internal"
    assert "ctx.form(message, 'Order'): no handler asks for it" in failed["message"]
