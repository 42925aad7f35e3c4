# burgee: joins tail 260
# burgee: section mcp
# burgee: section clients after mcp: _print_config _cached_start _codex_toml _ENV_SPELLING
# burgee: section clients after mcp: _mcp_help
# burgee: section clients: _MCP_HELP
# NOTE: a client's config (`--mcp --print-config`, `--mcp --help`): what a session never needs.
"""The MCP server's transport pieces: JSON without `import json`, stdout while serving,
reading stdin, and the client configuration.

The MCP server's transport pieces: `_wire` (a message as bytes, stdio and HTTP alike: a lone
surrogate as JSON's escape; `_wire_slices`, an answer of media from its parts a slice at a
time, `_wire_size` its length), JSON via `_json` (no `import json`; its reader is
`jsonread._json_scanner`), reading stdin, the protocol versions, `_arguments` (a call's or a
prompt's arguments); `_McpOptions` (what follows `--mcp`: `--print-config --client/--env`,
`--cwd`, `--http`, `--path`, `--token-env`/`--token-file`, `--allow-host`, `--allow-origin`,
`--help`: `_MCP_HELP`/`_mcp_help`), `_read_token` (a token from a variable or a file, read once;
each problem a usage error), `_endpoint_path`/`_origin` (the values of
`--path`/`--allow-origin`, the ASGI variables too), `_mcp_env()` (the `<TOOL>_MCP_` prefix of
the ASGI application's variables, from `Program.debug_env`), `_print_config` (each client's
shape, Codex's TOML; the server started as `_invoked_as()` says, a script as `python -m` runs
a module, from its `.pyc`: `_cached_start`), `_http_address` and `_url`
(the endpoint's URL, loopback for a wildcard address, `--path` its path).
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

from burgee.runtime.answers.output import _dumps
from burgee.runtime.core.errors import UsageError, _command_line, _invoked_as
from burgee.runtime.core.jsonread import _json_scanner, _load_json, _refused_member

if TYPE_CHECKING:
    import threading
    from collections.abc import Callable, Iterator
    from typing import Protocol

    from burgee.runtime.program import Program

    class _Server(Protocol):
        """The MCP server (`mcp._McpServer`) as the modules it imports take it (questions,
        methods, the HTTP endpoint): they cannot import its class, which imports them."""

        program: Program
        lock: threading.Lock
        config: str | None
        session: str | None
        version: str
        elicits: bool
        gone: bool
        asked: int
        inflight: dict[str, Any]
        awaited: dict[str, tuple[Any, list[Any]]]
        batches: dict[int, list[str]]
        sinks: dict[int, Callable[[str | list[str]], None]]
        streams: dict[int, Any]
        unstreamed: set[int]

        def thread(self) -> int: ...

        def write(self, text: str) -> None: ...

        def dumps(self, value: object) -> str: ...

        def complete(self, result: str, meta: str = "") -> str: ...

        def abandon(self) -> None: ...

    class _WholeServer(_Server, Protocol):
        """The server with its reading of messages (`mcp._McpServer.read`), as the HTTP
        endpoint takes it."""

        def read(self, message: object) -> None: ...


#: The one protocol version with JSON-RPC batches (added in it, removed in the next).
_MCP_BATCHES = "2025-03-26"
#: The protocol versions of the handshake era, newest first, and of the stateless one.
_MCP_LEGACY = ("2025-11-25", "2025-06-18", _MCP_BATCHES, "2024-11-05")
_MCP_MODERN = "2026-07-28"
#: The prefix of the protocol's own `_meta` keys.
_MCP_META = "io.modelcontextprotocol/"


def _mcp_env(program: Program) -> str:
    """The prefix of the environment variables the ASGI application reads (`PANTRY_MCP_TOKEN`):
    the tool's own, as in its `*_DEBUG`."""
    return program.debug_env[: -len("DEBUG")] + "MCP_"


def _wire(text: str) -> bytes:
    """A protocol message as bytes. A lone surrogate (bytes a handler decoded with
    `surrogateescape`) has no UTF-8; written as `\\udcXX` it is JSON's own escape of it, inside
    the string it sits in, so the message stays valid JSON and says what the handler returned."""
    return text.encode("utf-8", "backslashreplace")


#: How much of a long message's text is encoded at a time: an answer of media is written from
#: its parts (`_McpWire.pieces`), its base64 never copied whole.
_WIRE_SLICE = 1 << 20


def _wire_slices(text: str | list[str]) -> Iterator[bytes]:
    """A message (its text, or its parts: an answer of media) as bytes, at most about
    `_WIRE_SLICE` at a time: short parts together, a long one a slice at a time."""
    run: list[str] = []
    size = 0
    for part in (text,) if isinstance(text, str) else text:
        if size + len(part) <= _WIRE_SLICE:
            run.append(part)
            size += len(part)
            continue
        if run:
            yield _wire("".join(run))
        run, size = [], 0
        for start in range(0, len(part), _WIRE_SLICE):
            piece = part[start : start + _WIRE_SLICE]
            if len(piece) < _WIRE_SLICE:
                run, size = [piece], len(piece)  # NOTE: its end goes with what follows
            else:
                yield _wire(piece)
    if run:
        yield _wire("".join(run))


def _wire_size(text: str | list[str]) -> int:
    """How many bytes `_wire_slices` gives (ASCII, a media answer's base64: one per character)."""
    parts = (text,) if isinstance(text, str) else text
    return sum(len(part) if part.isascii() else len(_wire(part)) for part in parts)


def _first(text: str | list[str]) -> str:
    """A message's text, or its first part: how it begins (`{"jsonrpc":"2.0","id":` an answer)."""
    return text if isinstance(text, str) else text[0]


class _Codec:
    """JSON for the protocol, from CPython's C accelerator when there is one.

    `import json` costs more start-up time than the rest of the server (it imports `re`);
    `_json` is what `json` itself runs on, so the results are the same.
    """

    def __init__(self) -> None:
        load = _json_scanner()
        if load is None:
            import json

            def compact(value: object) -> str:
                return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

            self.load: Callable[[str], Any] = _load_json
            self.compact: Callable[[object], str] = compact
            self.envelope: Callable[[object], str] = _dumps
            self.string: Callable[[str], str] = compact
            return
        import _json

        codec: Any = _json
        # NOTE: compact for the protocol; an envelope goes through `_dumps`, so it is byte for
        # byte what `--json` prints.
        encoder = codec.make_encoder
        quote = codec.encode_basestring
        packed = encoder(None, self.default, quote, None, ":", ",", False, False, True)
        self.load = load
        self.compact = lambda value: "".join(packed(value, 0))
        self.string = quote
        self.envelope = _dumps

    @staticmethod
    def default(value: object) -> object:
        raise TypeError(f"{type(value).__name__} is not JSON")

    def refused(self, text: str) -> tuple[str, int, str]:
        """The error of a message the reader refused: a request refused as a value (a number
        too large, an integer of too many digits, nesting past the bound) whose id could be
        read is answered under its id, `-32602` when the value is within its params, else
        `-32600`; anything else is a parse error, without an id (`null`)."""
        found = _refused_member(text, "id")
        if found is None:
            return "null", -32700, "Parse error"
        ident, member, why = found
        if isinstance(ident, bool) or not isinstance(ident, (str, int)):
            return "null", -32700, "Parse error"
        if member == "params":
            return self.compact(ident), -32602, f"Invalid params: {why}"
        return self.compact(ident), -32600, f"Invalid Request: {member}: {why}"


def _arguments(params: dict[str, Any]) -> dict[str, Any]:
    """The `arguments` of a `tools/call` or a `prompts/get`: an object, or none given."""
    arguments = params.get("arguments")
    if arguments is None:
        return {}
    if not isinstance(arguments, dict):
        raise _McpError(-32602, "Invalid params: arguments must be an object")
    return arguments


class _McpError(Exception):
    """A JSON-RPC error answer: code, message and optional data."""

    def __init__(self, code: int, message: str, data: object = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data


def _read_line(readline: Callable[[], bytes], name: str) -> bytes:
    """The next line of stdin (of the tool `name`'s server); a stdin that fails (a terminal
    gone, a closed descriptor) ends the input like an end of file, whichever thread was reading
    it."""
    try:
        return readline()
    except (OSError, ValueError) as error:
        sys.stderr.write(f"{name}: mcp: cannot read stdin ({error}); stopping\n")
        return b""


#: The clients `--print-config --client` knows: name -> (top-level key, stdio "type", URL key).
#: None for the default: the common `mcpServers` shape most clients read.
_CLIENTS: dict[str, tuple[str, str | None, str]] = {
    "claude-desktop": ("mcpServers", None, ""),
    "claude-code": ("mcpServers", "stdio", "url"),
    "cursor": ("mcpServers", None, "url"),
    "vscode": ("servers", "stdio", "url"),
    "windsurf": ("mcpServers", None, "serverUrl"),
    "codex": ("mcp_servers", None, "url"),
}
#: How each client's config spells an environment variable in a header value.
_ENV_SPELLING = {"vscode": "${env:%s}", "cursor": "${env:%s}", "windsurf": "${env:%s}"}


#: `mytool --mcp --help`.
_MCP_HELP = """\
usage: {program} --mcp [--cwd DIR] [--http [HOST:]PORT [--path PATH] [--token-env NAME |
       --token-file PATH] [--allow-host NAME]... [--allow-origin ORIGIN]...]
       {program} --mcp --print-config [--client NAME] [--env NAME=VALUE]... [the above]

Serve every command as an MCP tool: over stdio, or over streamable HTTP with --http.

  --cwd DIR              change into DIR first
  --http [HOST:]PORT     serve over HTTP (loopback unless HOST is given; port 0: a free one)
  --path PATH            the endpoint's path (default /mcp); GET /health answers 200 without
                         auth
  --token-env NAME       require `Authorization: Bearer <value of $NAME>`
  --token-file PATH      the same, the token read from PATH once at start
  --allow-host NAME      also serve requests whose Host is NAME (repeatable; * for any)
  --allow-origin ORIGIN  also serve browser pages of ORIGIN (scheme://host[:port]; CORS)
                         (repeatable)
  --print-config         print the client configuration that starts this server
  --client NAME          in NAME's shape, one of:
                         {clients}
  --env NAME=VALUE       an environment variable of the server (repeatable)

The generated module also exposes `asgi`, an ASGI 3 application of the same endpoint
(`uvicorn {module}:asgi`), configured by {prefix}* environment variables (see the
MCP page of the tool's documentation: "Deploying").
"""
#: What follows `--mcp` that takes a value.
_MCP_VALUED = (
    "--client",
    "--env",
    "--cwd",
    "--http",
    "--path",
    "--token-env",
    "--token-file",
    "--allow-host",
    "--allow-origin",
)
#: What goes only with `--http`.
_MCP_HTTP_ONLY = ("--path", "--token-env", "--token-file", "--allow-host", "--allow-origin")


def _env_setting(value: str) -> tuple[str, str]:
    """`--env NAME=VALUE`: the variable's name and value."""
    key, equals, setting = value.partition("=")
    if not equals:
        raise UsageError(f"--env {value!r}: write NAME=VALUE")
    if not (key.isascii() and key.replace("_", "a").isalnum()) or key[0].isdigit():
        raise UsageError(
            f"--env {value!r}: {key!r} is not a variable name (ASCII letters, "
            "digits and '_', not starting with a digit)"
        )
    return key, setting


class _McpOptions:
    """What follows `--mcp`: `--print-config [--client NAME] [--env NAME=VALUE]...`, `--cwd DIR`,
    `--http [HOST:]PORT`, `--path PATH`, `--token-env NAME` or `--token-file PATH`,
    `--allow-host NAME`, `--allow-origin ORIGIN`, `--help`. Not tool-wide flags: a command may
    have options of these names."""

    def __init__(self, rest: list[str], print_config: bool, name: str) -> None:
        self.print_config = print_config
        self.help = False
        self.client: str | None = None
        self.env: dict[str, str] = {}
        self.cwd: str | None = None
        self.http: str | None = None
        self.path = "/mcp"
        self.token_env: str | None = None
        self.token_file: str | None = None
        #: `--allow-host`: more names the `Host` of a request may give (lower case).
        self.allow_hosts: list[str] = []
        #: `--allow-origin`: more origins a request may come from (`_origin`).
        self.allow_origins: list[str] = []
        given: list[str] = []
        tokens = list(rest)
        while tokens:
            token = tokens.pop(0)
            if token in ("--help", "-h"):
                self.help = True
                continue
            name, has_value, value = token.partition("=")
            if name not in _MCP_VALUED:
                raise UsageError(
                    f"unexpected {token!r} with --mcp",
                    hint=_command_line("--mcp --help", name),
                )
            if not has_value:
                if not tokens or (tokens[0].startswith("--") and name != "--env"):
                    raise UsageError(f"{name} needs a value")
                value = tokens.pop(0)
            given.append(name)
            if name == "--client":
                if value not in _CLIENTS:
                    raise UsageError(
                        f"unknown client {value!r}", hint=f"clients: {', '.join(_CLIENTS)}"
                    )
                self.client = value
            elif name == "--env":
                key, setting = _env_setting(value)
                self.env[key] = setting
            elif name == "--cwd":
                if not os.path.isdir(value):
                    raise UsageError(f"--cwd {value!r}: not a directory")
                self.cwd = os.path.abspath(value)
            elif name == "--http":
                self.http = value
            elif name == "--path":
                self.path = _endpoint_path(value, "--path")
            elif name == "--allow-host":
                self.allow_hosts.append(value.strip().lower())
            elif name == "--allow-origin":
                self.allow_origins.append(_origin(value, "--allow-origin"))
            elif name == "--token-file":
                self.token_file = value
            else:
                self.token_env = value
        if self.help:
            return
        if not print_config and (self.client or self.env):
            raise UsageError(
                "--client and --env go with --print-config",
                hint=_command_line(
                    f"--mcp --print-config --client {self.client or 'vscode'} --env NAME=VALUE",
                    name,
                ),
            )
        alone = next((name for name in given if name in _MCP_HTTP_ONLY), None)
        if self.http is None and alone is not None:
            raise UsageError(
                f"{alone} goes with --http", hint=_command_line("--mcp --http 8000", name)
            )
        if self.token_env is not None and self.token_file is not None:
            raise UsageError("--token-env and --token-file: give one of them")


def _endpoint_path(value: str, source: str) -> str:
    """An endpoint's path: `/` and more, no query; never `/health` (that one is taken)."""
    if not value.startswith("/") or "?" in value or "#" in value or value == "/health":
        raise UsageError(f"{source} {value!r}: write a path such as /mcp (not /health)")
    return value


def _origin(value: str, source: str) -> str:
    """An origin as browsers send it, lower case: `scheme://host[:port]`, no path."""
    origin = value.strip().lower().rstrip("/")
    scheme, sep, rest = origin.partition("://")
    if not sep or scheme not in ("http", "https") or not rest or "/" in rest:
        raise UsageError(f"{source} {value!r}: write an origin, https://HOST[:PORT]")
    return origin


def _read_token(*, env: str | None = None, file: str | None = None, source: str = "") -> str | None:
    """The bearer token: the value of the variable `env`, or the content of `file` (read once,
    surrounding whitespace and its last newline dropped); None when neither is named. An empty
    or unset variable, or a missing, unreadable or empty file, one others may write, or what is
    no regular file, is a usage error."""
    if env is not None:
        token = os.environ.get(env, "")
        if not token:
            raise UsageError(f"{source or '--token-env'} {env}: that variable is empty or unset")
        return token
    if file is None:
        return None
    import stat

    where = f"{source or '--token-file'} {file}"
    try:
        # NOTE: O_NONBLOCK: a FIFO would block the open, and start-up, until a writer came.
        handle = os.open(file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise UsageError(f"{where}: cannot read it ({error.strerror or error})") from None
    found = os.fstat(handle)
    problem = ""
    if not stat.S_ISREG(found.st_mode):
        problem = "not a regular file"
    elif found.st_mode & 0o022 and os.name == "posix":
        # NOTE: as ssh refuses a key others may change: whoever can write the token can call
        # every tool, and the file says nothing of who did.
        problem = f"others may write it (mode {stat.S_IMODE(found.st_mode):o})"
    if problem:
        os.close(handle)
        raise UsageError(
            f"{where}: {problem}", hint=f"chmod go-w {file}" if "mode" in problem else None
        )
    with open(handle, "rb") as stream:
        data = stream.read(64 * 1024 + 1)
    try:
        token = data.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise UsageError(f"{where}: not UTF-8 text") from None
    if len(data) > 64 * 1024:
        raise UsageError(f"{where}: longer than 64 KiB, not a token")
    if not token:
        raise UsageError(f"{where}: the file is empty")
    if any(c in token for c in "\r\n"):
        raise UsageError(f"{where}: more than one line; write the token alone")
    return token


def _print_config(options: _McpOptions, flags: tuple[str, ...], program: Program) -> int:
    """Print the configuration that starts `program` as an MCP server, in the shape the client
    reads (`--client`), with `--env`, `--cwd` and the tool-wide `flags` given with `--mcp`
    (`--config`, `--max-output`, ...: the server the person just tried); for `--http`, the URL
    to connect to."""
    import json

    client = options.client
    top, kind, url_key = _CLIENTS.get(client or "", ("mcpServers", None, "url"))
    server: dict[str, Any]
    if options.http is not None:
        if not url_key:
            raise UsageError(
                f"{client} reads only stdio servers from its configuration file",
                hint="leave out --http, or add the URL in the client's own settings",
            )
        server = {url_key: _url(*_http_address(options.http), options.path)}
        if kind or client == "claude-code":
            server = {"type": "http", **server}
        # NOTE: a client's configuration reads a token from its environment, never from a
        # file: with --token-file, the variable the ASGI application reads is named.
        named = options.token_env or (_mcp_env(program) + "TOKEN" if options.token_file else None)
        if named:
            if client == "codex":
                server["bearer_token_env_var"] = named
            else:
                variable = _ENV_SPELLING.get(client or "", "${%s}") % named
                server["headers"] = {"Authorization": f"Bearer {variable}"}
            if options.token_file:
                sys.stderr.write(
                    f"{program.name}: note: set {named}, where the client runs, to the token in"
                    f" {options.token_file}\n"
                )
    else:
        # NOTE: in a generated tool, `__file__` is the tool itself (imported by another
        # program, it is what runs). A client started from a desktop does not see this shell's
        # PATH: the interpreter's path is absolute.
        # NOTE: under `uv run`, `uv run --script TOOL` (`_invoked_as`): uv's cached
        # environment is removed by `uv cache clean`.
        words = _invoked_as() or [sys.executable or "python", os.path.abspath(__file__)]
        if words[1:] == [os.path.abspath(__file__)]:
            words[1:] = _cached_start(words[1]) or words[1:]
        server = {"command": words[0], "args": [*words[1:], "--mcp", *flags]}
        if options.cwd:
            # NOTE: the tool changes directory itself: not every client has a `cwd` setting.
            server["args"] += ["--cwd", options.cwd]
        if kind:
            server = {"type": kind, **server}
    if options.env:
        server["env"] = dict(options.env)
    if client == "codex":
        sys.stdout.write(_codex_toml(program.name, server))
        return 0
    sys.stdout.write(json.dumps({top: {program.name: server}}, indent=2) + "\n")
    return 0


def _cached_start(path: str) -> list[str]:
    """The interpreter's arguments that run the tool at `path` as `python -m` runs a module,
    from the `.pyc` Python caches beside it (a script's whole source is compiled on every run),
    with its folder first on the path as for `python PATH`, and never the current folder (which
    `-m` puts there); none when a module of its name in its folder is another file."""
    folder, file = os.path.split(path)
    name, suffix = os.path.splitext(file)
    if suffix != ".py" or "." in name:
        return []
    from importlib.machinery import PathFinder

    # NOTE: a package or an extension module of the same name in the folder comes first.
    spec = PathFinder.find_spec(name, [folder])
    origin = spec.origin if spec is not None else None
    if not origin or os.path.normcase(os.path.realpath(origin)) != os.path.normcase(
        os.path.realpath(path)
    ):
        return []
    # NOTE: what `runpy.run_module` does, without its imports (`importlib.util`, `contextlib`:
    # 4 ms): the module's code from the folder alone (never a module of that name already
    # imported, nor one of the standard library), run as `__main__` with its own file's
    # names; the path is set first, so nothing is imported from the current folder.
    start = f"import sys; sys.path = [{folder!r}, *(p for p in sys.path if p)]"
    find = "from importlib.machinery import PathFinder; "
    find += f"spec = PathFinder.find_spec({name!r}, sys.path[:1])"
    names = "__file__=spec.origin, __cached__=spec.cached, __loader__=spec.loader, __spec__=spec"
    run = f"exec(spec.loader.get_code({name!r}), globals())"
    return ["-c", f"{start}; {find}; globals().update({names}); sys.argv[0] = spec.origin; {run}"]


def _codex_toml(name: str, server: dict[str, Any]) -> str:
    """Codex's `~/.codex/config.toml` table of one server."""
    import json

    def key(text: str) -> str:
        # NOTE: a TOML bare key is ASCII letters, digits, '_' and '-'; anything else is quoted.
        bare = text.isascii() and text.replace("_", "a").replace("-", "a").isalnum()
        return text if bare else json.dumps(text)

    lines = [f"[mcp_servers.{key(name)}]"]
    env = server.pop("env", None)
    for setting, value in server.items():
        lines.append(f"{setting} = {json.dumps(value, ensure_ascii=False)}")
    if env:
        lines += ["", f"[mcp_servers.{key(name)}.env]"]
        lines += [f"{key(k)} = {json.dumps(v, ensure_ascii=False)}" for k, v in env.items()]
    return "\n".join(lines) + "\n"


def _http_address(text: str) -> tuple[str, int]:
    """`--http [HOST:]PORT`: loopback unless a host is named (`[::1]:8000` for IPv6)."""
    host, colon, port = text.rpartition(":")
    host = host.strip("[]") if colon else "127.0.0.1"
    digits = port.isascii() and port.isdigit()  # NOTE: str.isdigit alone takes a superscript two
    if not digits or not 0 <= int(port) <= 65535 or (colon and not host):
        raise UsageError(f"--http {text!r}: write PORT or HOST:PORT", hint="--http 8000")
    return host, int(port)


#: The addresses that mean every address of the machine.
_WILDCARDS = ("0.0.0.0", "::")


def _url(host: str, port: int, path: str = "/mcp") -> str:
    """The URL of the endpoint for a client on this machine (loopback for a wildcard)."""
    if host in _WILDCARDS:
        host = "127.0.0.1"
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}{path}"


def _mcp_help(program: Program) -> int:
    """`--mcp --help` of `program`."""
    module = os.path.splitext(os.path.basename(__file__))[0]
    names = ", ".join(_CLIENTS)
    prefix = _mcp_env(program)
    text = _MCP_HELP.format(program=program.name, module=module, prefix=prefix, clients=names)
    sys.stdout.write(text)
    return 0
