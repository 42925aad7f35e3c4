# burgee: joins tail 360
# burgee: section mcp
"""Prompts (`@prompt`), resources (`@resource`) and logging, over MCP and on the command line.

Only a tool whose handlers declare them carries this module: its generated tables
(`_MCP_EXTRA`, `_EXTRA_COMMANDS`) name the functions below. A prompt or a resource is a
`_Command` of its own table (`PROMPTS`, `RESOURCES`), run by `_execute` like any command.

(only in tools with prompts, resources or logging): `prompts/*`, `resources/*`,
`completion/complete` (`_mcp_complete`: choices, then `complete._offered`, at most 100 values),
`logging/setLevel` and the CLI's `prompt`/`resource` commands; a prompt or resource runs through
`_execute` as a `_Command`, and what an agent reads of it goes through `_deliver` (`_for_agent`:
never cut).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from burgee.runtime.answers.deliver import _deliver, _failure_envelope
from burgee.runtime.answers.output import _PRINTED, _dumps, _jsonable
from burgee.runtime.commandline.argv import _read_json_input
from burgee.runtime.commandline.argv_parser import _new_parser
from burgee.runtime.commandline.complete import _coerce, _offered
from burgee.runtime.core.context import _LOG_LEVELS, Context, _Command
from burgee.runtime.core.embedded import _document, _document_data
from burgee.runtime.core.errors import (
    UsageError,
    _command_line,
    _from_ctrl_c,
    _Internal,
    _success,
)
from burgee.runtime.core.flags import HELP_FLAGS
from burgee.runtime.core.kinds import _Any
from burgee.runtime.execution.execute import _as_error, _debugging, _execute
from burgee.runtime.execution.sources import _Sources
from burgee.runtime.execution.values import _Call
from burgee.runtime.mcpserver.mcp_io import _arguments, _McpError
from burgee.runtime.mcpserver.mcp_methods import _MCP_READ_CACHE, _mcp_page
from burgee.runtime.rows import _McpSlotRow, _ResourceRow

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypeVar

    from burgee.runtime.commandline.argv import _Invocation
    from burgee.runtime.mcpserver.mcp import _McpServer
    from burgee.runtime.program import Program

    _T = TypeVar("_T")

#: The roles a prompt message may have.
_ROLES = ("user", "assistant")


def _messages(data: object) -> list[dict[str, Any]]:
    """A prompt's result as MCP messages: a `str` is one user message."""
    if isinstance(data, str):
        return [{"role": "user", "content": {"type": "text", "text": data}}]
    problem = "a prompt returns a str or a list of {'role': ..., 'content': ...} messages"
    if not isinstance(data, list):
        raise _Internal(problem)
    messages = []
    for item in data:
        if not isinstance(item, dict) or item.get("role") not in _ROLES or "content" not in item:
            raise _Internal(problem, hint="role is 'user' or 'assistant'")
        content = item["content"]
        if isinstance(content, str):
            content = {"type": "text", "text": content}
        elif not isinstance(content, dict) or not isinstance(content.get("type"), str):
            raise _Internal(problem, hint="content is a str or an MCP content block")
        messages.append({"role": item["role"], "content": content})
    return messages


def _get_prompt(
    name: str, arguments: dict[str, Any], context: Context, source: str, agent: bool
) -> Any:
    """`prompts/get` and `mytool prompt NAME`: the prompt's description and messages; for an
    agent, delivered as a tool's answer is (`_for_agent`)."""
    program = context._program
    command = program.prompts[name]
    call = _Call(arguments, source, context, _Sources(context.command, program))
    try:
        data = _execute(command, call)["data"]
    finally:
        context.close()
    if agent:
        data = _for_agent(data, command, program)
    result: dict[str, Any] = {"messages": _messages(data)}
    if command.summary:
        result["description"] = command.summary
    return result


def _for_agent(data: object, command: _Command, program: Program) -> Any:
    """A prompt's or a resource's data as an agent may read it: through `_deliver`, like every
    tool answer (secrets out, control tokens neutralised), never cut: a client asked for this
    prompt or resource as a whole, and its shape has no room for a `meta.truncated`."""
    return _deliver(_success(data), command, program, agent=True, limit=0)["data"]


def _match(uri: str, program: Program) -> tuple[str, dict[str, str]] | None:
    """The resource of `program` `uri` names, and its placeholders' values: a fixed URI first, then
    each template in file order (a placeholder's value is not empty and has no `/`)."""
    if uri in program.resources and "{" not in uri:
        return uri, {}
    for template in program.resources:
        if "{" not in template:
            continue
        values: dict[str, str] = {}
        rest, position = template, 0
        while rest:
            literal, _, rest = rest.partition("{")
            if not uri.startswith(literal, position):
                break
            position += len(literal)
            if not rest:
                if position == len(uri):
                    return template, values
                break
            name, _, rest = rest.partition("}")
            stop = rest.partition("{")[0]
            end = uri.find(stop, position) if stop else len(uri)
            value = uri[position:end] if end >= 0 else ""
            if not value or "/" in value:
                break
            values[name] = value
            position = end
            if not rest and position == len(uri):
                return template, values
    return None


def _contents(uri: str, mime: str | None, data: object) -> dict[str, Any]:
    """One `resources/read` content: text, a base64 blob for bytes, or JSON text for data."""
    if isinstance(data, (bytes, bytearray)):
        import base64

        blob = base64.b64encode(bytes(data)).decode("ascii")
        return {"uri": uri, "mimeType": mime or "application/octet-stream", "blob": blob}
    if isinstance(data, str):
        return {"uri": uri, "mimeType": mime or "text/plain", "text": data}
    return {"uri": uri, "mimeType": mime or "application/json", "text": _dumps(data)}


def _read_resource(uri: str, context: Context, agent: bool) -> dict[str, Any] | None:
    """`resources/read` and `mytool resource URI`: the contents, or None for an unknown URI;
    text and data delivered for an agent as a tool's answer is (`_for_agent`)."""
    program = context._program
    found = _match(uri, program)
    if found is None:
        return None
    template, values = found
    resource = _ResourceRow(program.resources[template])
    mime, command = resource.mime, resource.command
    kept: list[object] = []

    def run(call: _Call) -> object:
        # NOTE: bytes are not JSON; the result is kept as it is and checked here instead.
        kept.append(command.run(call))
        return None

    runner = _Command(command.summary, command.keys, command.build, run, _Any, description="")
    call = _Call(values, "uri", context, _Sources(context.command, program))
    try:
        _execute(runner, call)
    finally:
        context.close()
    data = kept[0]
    if not isinstance(data, (str, bytes, bytearray)):
        try:
            data = _jsonable(data)
        except TypeError as error:
            raise _Internal(str(error)) from None
    if agent and not isinstance(data, (bytes, bytearray)):
        data = _for_agent(data, command, program)
    return {"contents": [_contents(uri, mime, data)]}


def _mcp_failure(error: BaseException, server: _McpServer) -> _McpError:
    """A failed prompt or resource as a JSON-RPC error: bad input is -32602, the rest -32603;
    `data` is the tool's failure envelope."""
    failure = _as_error(error, server.debug, server.program)
    code = -32602 if isinstance(failure, UsageError) else -32603
    envelope = _deliver(_failure_envelope(failure, True), None, server.program, agent=True)
    return _McpError(code, failure.message, envelope)


def _answered(work: Callable[[], _T], server: _McpServer) -> _T:
    """What a prompt or a resource answers; every failure is a JSON-RPC error, a handler's own
    KeyboardInterrupt too (a real Ctrl-C, recorded in `_SIGINTS`, stops the server)."""
    try:
        return work()
    except KeyboardInterrupt as error:
        if _from_ctrl_c(error):
            raise
        raise _mcp_failure(error, server) from None
    except Exception as error:  # noqa: BLE001 (every failure is a JSON-RPC error)
        raise _mcp_failure(error, server) from None


def _unknown_prompt(name: object, program: Program) -> UsageError:
    """The error of a prompt the program does not have, on the command line and over MCP."""
    return UsageError(f"unknown prompt {name!r}", hint=f"prompts: {', '.join(program.prompts)}")


def _mcp_context(server: _McpServer, path: str) -> Context:
    context = Context(path, True, server.program)
    context._log = lambda level, message, data: server.log(None, level, message, data)
    return context


def _mcp_prompts_list(
    server: _McpServer, ident: str, params: dict[str, Any], modern: bool
) -> bytes:
    return _mcp_page(server, params, modern, _document_data("mcp_prompts", server.program))


def _mcp_prompt_get(server: _McpServer, ident: str, params: dict[str, Any], modern: bool) -> str:
    name = params.get("name")
    if not isinstance(name, str):
        raise _McpError(-32602, "Invalid params: name must be a string")
    if name not in server.program.prompts:
        raise _mcp_failure(_unknown_prompt(name, server.program), server)
    arguments = _arguments(params)
    context = _mcp_context(server, "prompt " + name)
    result = _answered(lambda: _get_prompt(name, arguments, context, "json", True), server)
    text = server.dumps(result)
    return server.complete(text) if modern else text


def _mcp_resources_list(
    server: _McpServer, ident: str, params: dict[str, Any], modern: bool
) -> bytes:
    return _mcp_page(server, params, modern, _document_data("mcp_resources", server.program))


def _mcp_templates_list(
    server: _McpServer, ident: str, params: dict[str, Any], modern: bool
) -> bytes:
    return _mcp_page(server, params, modern, _document_data("mcp_templates", server.program))


def _mcp_resource_read(server: _McpServer, ident: str, params: dict[str, Any], modern: bool) -> str:
    uri = params.get("uri")
    if not isinstance(uri, str):
        raise _McpError(-32602, "Invalid params: uri must be a string")
    context = _mcp_context(server, "resource " + uri)
    result = _answered(lambda: _read_resource(uri, context, True), server)
    if result is None:
        # NOTE: -32602, as the 2025-11-25 spec and the SDKs have it (-32002 is retired).
        raise _McpError(-32602, "Resource not found", {"uri": uri})
    if modern:
        return server.complete(server.dumps({**_MCP_READ_CACHE, **result}))
    return server.dumps(result)


#: The most values one `completion/complete` answer may hold.
_MCP_MOST_VALUES = 100


def _mcp_complete(server: _McpServer, ident: str, params: dict[str, Any], modern: bool) -> str:
    """`completion/complete`: the values a prompt's argument or a resource template's
    placeholder may take that start with what is typed: its choices, then what its `complete=`
    function offers (called as TAB calls it, `complete._offered`)."""
    program = server.program
    ref, argument = params.get("ref"), params.get("argument")
    if not isinstance(ref, dict) or not isinstance(argument, dict):
        raise _McpError(-32602, "Invalid params: ref and argument must be objects")
    kind = ref.get("type")
    if kind == "ref/prompt":
        name = ref.get("name")
        if name not in program.prompts:
            raise _McpError(-32602, f"Invalid params: unknown prompt {name!r}")
        key, keys, what = f"prompt {name}", program.prompts[name].keys, f"prompt {name!r}"
    elif kind == "ref/resource":
        uri = ref.get("uri")
        if not isinstance(uri, str) or "{" not in uri or uri not in program.resources:
            raise _McpError(-32602, f"Invalid params: unknown resource template {uri!r}")
        key, keys = f"resource {uri}", _ResourceRow(program.resources[uri]).command.keys
        what = f"resource template {uri!r}"
    else:
        raise _McpError(-32602, "Invalid params: ref.type must be ref/prompt or ref/resource")
    wanted, partial = argument.get("name"), argument.get("value", "")
    if wanted not in keys:
        raise _McpError(-32602, f"Invalid params: {what} has no argument {wanted!r}")
    if not isinstance(partial, str):
        raise _McpError(-32602, "Invalid params: argument.value must be a string")
    given = params.get("context")
    given = given.get("arguments") if isinstance(given, dict) else None
    raw = {
        name: text
        for name, text in (given.items() if isinstance(given, dict) else ())
        if name != wanted and name in keys and isinstance(text, str)
    }
    slots = {slot.name: slot for slot in map(_McpSlotRow, program.mcp_completions.get(key, ()))}
    values: list[str] = []
    slot = slots.get(str(wanted))  # NOTE: one of `keys`, so a string
    if slot is not None:
        # NOTE: the context a shell's completer gets: the other values, converted where they
        # convert (`complete._coerce`), and as typed.
        options = {name: _coerce(slots[name].convert, text) for name, text in raw.items()}
        context = {"path": key, "options": options, "positionals": [], "raw": raw}
        values = [choice for choice in slot.choices if choice.startswith(partial)]
        if slot.complete is not None:
            offered = _offered(slot.complete, slot.arity, partial, context, program)
            values += [value for value, _ in offered]
        values = list(dict.fromkeys(values))
    found: dict[str, Any] = {"values": values[:_MCP_MOST_VALUES], "total": len(values)}
    found["hasMore"] = len(values) > _MCP_MOST_VALUES
    text = server.dumps({"completion": found})
    return server.complete(text) if modern else text


def _mcp_set_level(server: _McpServer, ident: str, params: dict[str, Any], modern: bool) -> str:
    """`logging/setLevel`: send `ctx.log` messages of this level and above (legacy era)."""
    if modern:
        raise _McpError(-32601, "Method not found: logging/setLevel (removed in 2026-07-28)")
    level = params.get("level")
    if level not in _LOG_LEVELS:
        raise _McpError(-32602, f"Invalid params: level must be one of {', '.join(_LOG_LEVELS)}")
    server.level = level
    return "{}"


def _prompt_cli(invocation: _Invocation) -> object:
    """`mytool prompt`: list the prompts; `mytool prompt NAME [--ARG VALUE ...]`: its messages."""
    program = invocation.program
    rest = invocation.rest[1:]
    if rest[:1] and rest[0] in HELP_FLAGS:
        return _surface_help(
            program.name,
            "prompt [-h] [NAME [--ARG VALUE ...]]",
            "List the prompts, or print one's messages (its arguments: prompt NAME --help).",
            _document("mcp_prompts", program),
        )
    if not rest or rest[0].startswith("-"):
        if rest:
            raise UsageError(
                f"unexpected {rest[0]!r}", hint=_command_line("prompt NAME --help", program.name)
            )
        return _listing(invocation, "prompts", _document("mcp_prompts", program))
    name = rest[0]
    command = program.prompts.get(name)
    if command is None:
        raise _unknown_prompt(name, program)
    source = "flag"
    if invocation.json_input is not None:
        # NOTE: the arguments as one JSON object, as `prompts/get` takes them.
        if rest[1:]:
            raise UsageError(
                f"unexpected {rest[1]!r}: with --json input, give every value in the JSON object"
            )
        raw, source = _read_json_input(invocation.json_input), "json"
    else:
        parser = _new_parser(program, f"{program.name} prompt {name}", command.description, "")
        command.build(parser)
        raw = vars(parser.parse_args(rest[1:]))
    context = Context("prompt " + name, invocation.json, program)
    context._verbose = _debugging(invocation.debug, program)
    agent = invocation.json and context.agent is not None
    result = _get_prompt(name, raw, context, source, agent)
    if invocation.json:
        return _success(result)
    single = len(result["messages"]) == 1 and result["messages"][0]["role"] == "user"
    for message in result["messages"]:
        content = message["content"]
        text = content["text"] if content["type"] == "text" else _dumps(content)
        sys.stdout.write(text + "\n" if single else f"[{message['role']}]\n{text}\n\n")
    return _PRINTED


def _resource_cli(invocation: _Invocation) -> object:
    """`mytool resource`: list the resources and templates; `mytool resource URI`: read it."""
    program = invocation.program
    rest = invocation.rest[1:]
    if rest[:1] and rest[0] in HELP_FLAGS:
        return _surface_help(
            program.name,
            "resource [-h] [URI]",
            "List the resources and resource templates, or read one by its URI.",
            _document("mcp_resources", program),
            _document("mcp_templates", program),
        )
    if not rest:
        return _listing(
            invocation,
            "resources",
            _document("mcp_resources", program),
            _document("mcp_templates", program),
        )
    if len(rest) > 1 or rest[0].startswith("-"):
        raise UsageError(
            f"unexpected {rest[-1]!r}", hint=_command_line("resource URI", program.name)
        )
    context = Context("resource " + rest[0], invocation.json, program)
    context._verbose = _debugging(invocation.debug, program)
    agent = invocation.json and context.agent is not None
    result = _read_resource(rest[0], context, agent)
    if result is None:
        listing = _command_line("resource", program.name)
        raise UsageError(
            f"no resource at {rest[0]!r}", hint=f"'{listing}' lists the URIs and templates"
        )
    content = result["contents"][0]
    if invocation.json:
        return _success(content)
    if "blob" in content:
        import base64

        sys.stdout.flush()
        sys.stdout.buffer.write(base64.b64decode(content["blob"]))
        return _PRINTED
    text = content["text"]
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return _PRINTED


def _surface_help(name: str, usage: str, description: str, *texts: str) -> object:
    """`prompt --help`, `resource --help` (of the tool `name`): usage, what it does, and what there
    is to name."""
    lines = [f"usage: {name} {usage}", "", description]
    for kind, entries in _entries(texts).items():
        if entries:
            lines += ["", f"{kind.replace('resourceTemplates', 'templates')}:"]
        lines += [f"  {shown}" + (f"  {summary}" if summary else "") for shown, summary in entries]
    sys.stdout.write("\n".join(lines) + "\n")
    return _PRINTED


def _listing(invocation: _Invocation, what: str, *texts: str) -> object:
    """Every prompt, or every resource and template: JSON data, or one line each."""
    import json

    data: dict[str, Any] = {}
    for text in texts:
        data.update(json.loads(text))
    if invocation.json:
        return _success(data)
    for entries in _entries(texts).values():
        for shown, summary in entries:
            sys.stdout.write(f"{shown}\n" + (f"    {summary}\n" if summary else ""))
    if not data or not any(data.values()):
        raise UsageError(f"this tool has no {what}")
    return _PRINTED


def _entries(texts: tuple[str, ...]) -> dict[str, list[tuple[str, str]]]:
    """Each list of the documents (prompts, resources, templates): every entry as its name (or
    URI, or URI template) and the first line of its description."""
    import json

    found: dict[str, list[tuple[str, str]]] = {}
    for text in texts:
        for kind, entries in json.loads(text).items():
            found[kind] = [
                (
                    entry.get("uri") or entry.get("uriTemplate") or entry["name"],
                    entry.get("description", "").split("\n")[0],
                )
                for entry in entries
            ]
    return found
