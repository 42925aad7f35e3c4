"""The programs every peer is measured on, written out as source files.

CLI programs: N commands, `greet` and `cmd01…cmdNN` (three digits from 100 commands up). Every
command takes `--name` (required str), `--count` (int, default 1) and `--shout` (flag), has a
help string, and prints `Hello, <name>!`. Each peer's file is written the way a person would
write it with that library: one function per command, nothing generated in loops at run time.

MCP servers: one tool, `greet(name: str) -> dict`, returning `{"greeting": "Hello, <name>!"}`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

CLI_PEERS = ("argparse", "click", "typer", "cyclopts")
DESCRIPTION = "Hello: {n} commands."


def command_names(n: int) -> list[str]:
    """`greet` plus n-1 numbered commands, zero-padded to a common width (at least 2)."""
    width = max(2, len(str(n - 1)))
    return ["greet"] + [f"cmd{i:0{width}d}" for i in range(1, n)]


def help_text(name: str) -> str:
    return "Say hello." if name == "greet" else f"Say hello ({name})."


def _join(header: str, block: str, footer: str, n: int) -> str:
    body = "".join(block.format(fn=name, help=help_text(name)) for name in command_names(n))
    return header.format(desc=DESCRIPTION.format(n=n)) + body + footer


ARGPARSE_HEADER = '''"""{desc}"""

import argparse
import sys

'''
ARGPARSE_FUNC = '''
def {fn}(args: argparse.Namespace) -> int:
    """{help}"""
    text = f"Hello, {{args.name}}!"
    print(text.upper() if args.shout else text)
    return 0

'''
ARGPARSE_BUILD = """
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hello", description="{desc}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
"""
ARGPARSE_SUB = """
    p = sub.add_parser("{fn}", help="{help}", description="{help}")
    p.add_argument("--name", required=True)
    p.add_argument("--count", type=int, default=1)
    p.add_argument("--shout", action=argparse.BooleanOptionalAction, default=False)
    p.set_defaults(func={fn})
"""
ARGPARSE_FOOTER = """    return parser


def main(argv: "list[str] | None" = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
"""


def argparse_program(n: int) -> str:
    """Hand-written argparse: builds the whole parser, as most hand-written tools do."""
    funcs = _join(ARGPARSE_HEADER, ARGPARSE_FUNC, "", n)
    build = _join(ARGPARSE_BUILD, ARGPARSE_SUB, ARGPARSE_FOOTER, n)
    return funcs + build


CLICK_HEADER = '''"""{desc}"""

import click


@click.group()
def cli() -> None:
    """{desc}"""

'''
CLICK_CMD = """
@cli.command(help="{help}")
@click.option("--name", required=True)
@click.option("--count", type=int, default=1)
@click.option("--shout/--no-shout", default=False)
def {fn}(name: str, count: int, shout: bool) -> None:
    text = f"Hello, {{name}}!"
    click.echo(text.upper() if shout else text)

"""
CLICK_FOOTER = """
if __name__ == "__main__":
    cli()
"""

TYPER_HEADER = '''"""{desc}"""

from typing import Annotated

import typer

app = typer.Typer()


@app.callback()
def main() -> None:
    """{desc}"""

'''
TYPER_CMD = """
@app.command(help="{help}")
def {fn}(name: Annotated[str, typer.Option()], count: int = 1, shout: bool = False) -> None:
    text = f"Hello, {{name}}!"
    print(text.upper() if shout else text)

"""
TYPER_FOOTER = """
if __name__ == "__main__":
    app()
"""

CYCLOPTS_HEADER = '''"""{desc}"""

from cyclopts import App

app = App(name="hello", help="{desc}")

'''
CYCLOPTS_CMD = """
@app.command(help="{help}")
def {fn}(*, name: str, count: int = 1, shout: bool = False) -> None:
    text = f"Hello, {{name}}!"
    print(text.upper() if shout else text)

"""
CYCLOPTS_FOOTER = """
if __name__ == "__main__":
    app()
"""

BURGEE_HEADER = '''"""{desc}"""

from burgee import command, program

program(name="hello", version="1.0.0")

'''
BURGEE_CMD = '''
@command(effects="read_only")
def {fn}(name: str, count: int = 1, shout: bool = False) -> str:
    """{help}"""
    text = f"Hello, {{name}}!"
    return text.upper() if shout else text

'''


#: The same program written as docs/handlers.md shows handlers: typing imports, `Annotated`
#: options with help, a `Literal` choice, a repeatable list option, and an example per command
#: (`burgee gen` parses every example). The start-up case times this shape (issue 34: a tool
#: that copied `from typing import ...` imported typing on every run).
BURGEE_EXAMPLES_HEADER = '''"""{desc}"""

from typing import Annotated, Literal

from burgee import Option, command, program

program(name="hello", version="1.0.0")

'''
BURGEE_EXAMPLES_CMD = '''
@command(effects="read_only", examples=["hello {fn} --name Ada --count 2 --shout"])
def {fn}(
    name: Annotated[str, Option(help="Who to greet")],
    count: Annotated[int, Option(help="How many greetings")] = 1,
    shout: Annotated[bool, Option(help="Greet in capitals")] = False,
    style: Literal["plain", "formal"] = "plain",
    tag: Annotated[list[str], Option("-t", help="A tag; repeat for more")] = [],
) -> str:
    """{help}"""
    text = f"Good day, {{name}}." if style == "formal" else f"Hello, {{name}}!"
    return text.upper() if shout else text

'''


def click_program(n: int) -> str:
    return _join(CLICK_HEADER, CLICK_CMD, CLICK_FOOTER, n)


def typer_program(n: int) -> str:
    return _join(TYPER_HEADER, TYPER_CMD, TYPER_FOOTER, n)


def cyclopts_program(n: int) -> str:
    return _join(CYCLOPTS_HEADER, CYCLOPTS_CMD, CYCLOPTS_FOOTER, n)


def burgee_handlers(n: int) -> str:
    """The handlers file that `burgee gen` turns into the same N-command program."""
    return _join(BURGEE_HEADER, BURGEE_CMD, "", n)


def burgee_examples_handlers(n: int) -> str:
    """`burgee_handlers` with typing imports, `Annotated` options and an example per command."""
    return _join(BURGEE_EXAMPLES_HEADER, BURGEE_EXAMPLES_CMD, "", n)


WRITERS: dict[str, Callable[[int], str]] = {
    "argparse": argparse_program,
    "click": click_program,
    "typer": typer_program,
    "cyclopts": cyclopts_program,
    "burgee": burgee_handlers,
    "burgee-examples": burgee_examples_handlers,
}


def write_program(directory: Path, peer: str, n: int) -> Path:
    """Write peer's N-command program (for burgee: its handlers file) and return its path."""
    directory.mkdir(parents=True, exist_ok=True)
    stem = f"handlers_{n}" if peer == "burgee" else f"hello_{peer}_{n}".replace("-", "_")
    path = directory / f"{stem}.py"
    path.write_text(WRITERS[peer](n))
    return path


#: A tool whose handlers import a heavy library (issue 34): pydantic validates inside the
#: handlers' bodies, so `--help`, `schema`, TAB and MCP's lists need not import it, and a
#: command does. `greet` answers as the MCP servers' tool does; `add --category` has a
#: `complete=` function, which is what TAB runs the tool for.
BURGEE_PYDANTIC_HANDLERS = '''"""Shop: a tool whose handlers validate with pydantic."""

from typing import Annotated, Any, Literal

import pydantic

from burgee import Option, command, program

program(name="shop", version="1.0.0")

CATEGORIES = ("books", "games", "garden", "kitchen", "tools")


def categories(partial: str) -> list[str]:
    """The categories TAB offers."""
    return [c for c in CATEGORIES if c.startswith(partial)]


def greeting_model() -> type[pydantic.BaseModel]:
    class Greeting(pydantic.BaseModel):
        greeting: str

    return Greeting


@command(effects="read_only", examples=["shop greet --name Ada"])
def greet(name: Annotated[str, Option(help="Who to greet")]) -> dict[str, str]:
    """Say hello, through a pydantic model."""
    return greeting_model().model_validate({"greeting": f"Hello, {name}!"}).model_dump()


@command(effects="read_only")
def add(
    name: Annotated[str, Option(help="The item's name")],
    price: Annotated[float, Option(help="Its price")] = 1.0,
    category: Annotated[str, Option(help="Its category", complete=categories)] = "books",
    state: Literal["new", "used"] = "new",
) -> dict[str, Any]:
    """Add an item, validated by a pydantic model."""

    class Item(pydantic.BaseModel):
        name: str
        price: pydantic.PositiveFloat
        category: str
        state: str

    item = Item(name=name, price=price, category=category, state=state)
    return item.model_dump()
'''


def write_pydantic_handlers(directory: Path) -> Path:
    """Write the pydantic tool's handlers file and return its path."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "handlers_pydantic.py"
    path.write_text(BURGEE_PYDANTIC_HANDLERS)
    return path


# --- MCP servers -------------------------------------------------------------------------

STDLIB_MCP_SERVER = '''"""A stdlib MCP stdio server: one JSON-RPC message per line, one tool."""

import json
import sys

VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
TOOL = {
    "name": "greet",
    "description": "Say hello.",
    "inputSchema": {
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "required": ["name"],
    },
    "outputSchema": {
        "type": "object",
        "properties": {"greeting": {"type": "string"}},
        "required": ["greeting"],
    },
}


class RpcError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def greet(name):
    return {"greeting": f"Hello, {name}!"}


def handle(method, params):
    if method == "initialize":
        asked = params.get("protocolVersion")
        return {
            "protocolVersion": asked if asked in VERSIONS else VERSIONS[0],
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "hello", "version": "1.0.0"},
        }
    if method == "ping":
        return {}
    if method == "tools/list":
        return {"tools": [TOOL]}
    if method == "tools/call":
        if params.get("name") != "greet":
            raise RpcError(-32602, "unknown tool")
        try:
            out = greet(**params.get("arguments", {}))
        except TypeError as exc:
            return {"content": [{"type": "text", "text": str(exc)}], "isError": True}
        text = json.dumps(out)
        return {"content": [{"type": "text", "text": text}], "structuredContent": out}
    raise RpcError(-32601, f"method not found: {method}")


def main():
    write, flush = sys.stdout.write, sys.stdout.flush
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        msg = json.loads(line)
        if "id" not in msg:
            continue
        try:
            reply = {"jsonrpc": "2.0", "id": msg["id"],
                     "result": handle(msg.get("method"), msg.get("params") or {})}
        except RpcError as exc:
            reply = {"jsonrpc": "2.0", "id": msg["id"],
                     "error": {"code": exc.code, "message": str(exc)}}
        write(json.dumps(reply) + "\\n")
        flush()


main()
'''

SDK_MCP_SERVER = '''"""The official MCP SDK (2.x) server with one tool."""

from mcp.server.mcpserver import MCPServer

mcp = MCPServer("hello")


@mcp.tool()
def greet(name: str) -> dict[str, str]:
    """Say hello."""
    return {"greeting": f"Hello, {name}!"}


if __name__ == "__main__":
    mcp.run()
'''

SDK_HTTP_SERVER = '''"""The official MCP SDK (2.x) server with one tool, over streamable HTTP
under uvicorn (JSON answers, sessions): `python server_mcp-sdk-http.py PORT`."""

import sys

import uvicorn
from mcp.server.mcpserver import MCPServer

mcp = MCPServer("hello")


@mcp.tool()
def greet(name: str) -> dict[str, str]:
    """Say hello."""
    return {"greeting": f"Hello, {name}!"}


if __name__ == "__main__":
    app = mcp.streamable_http_app(json_response=True)
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
'''

FASTMCP_SERVER = '''"""The fastmcp package's server with one tool."""

from fastmcp import FastMCP

mcp = FastMCP("hello")


@mcp.tool
def greet(name: str) -> dict[str, str]:
    """Say hello."""
    return {"greeting": f"Hello, {name}!"}


if __name__ == "__main__":
    mcp.run(show_banner=False)
'''

BURGEE_MCP_HANDLERS = '''"""Hello over MCP: one tool."""

from burgee import command, program

program(name="hello-mcp", version="1.0.0")


@command(effects="read_only")
def greet(name: str) -> dict[str, str]:
    """Say hello."""
    return {"greeting": f"Hello, {name}!"}


# NOTE: a second command keeps the tool named `greet`: a single-command program's one tool
# is named after the program.
@command(effects="read_only")
def ping() -> str:
    """Answer pong."""
    return "pong"
'''

MCP_SOURCES = {
    "stdlib": STDLIB_MCP_SERVER,
    "mcp-sdk": SDK_MCP_SERVER,
    "mcp-sdk-http": SDK_HTTP_SERVER,
    "fastmcp": FASTMCP_SERVER,
    "burgee": BURGEE_MCP_HANDLERS,
}


def write_mcp_server(directory: Path, server: str) -> Path:
    """Write one MCP server (for burgee: its handlers file) and return its path."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / ("handlers_mcp.py" if server == "burgee" else f"server_{server}.py")
    path.write_text(MCP_SOURCES[server])
    return path
