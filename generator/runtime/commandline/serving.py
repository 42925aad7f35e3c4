# burgee: joins tail 345
# burgee: section mcp
"""`--mcp` from the command line: the server (`mcpserver/mcp._McpServer`) started with the
tool-wide flags given, over stdio or HTTP (`--http`), or its client configuration printed.

`_serve_mcp`: `--mcp`, `--mcp --help`, `--mcp --print-config`; `_served_flags`: the tool-wide
flags given with `--mcp` that a client must repeat (`--config`, `--max-output`, ...).
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from burgee.runtime.answers.output import _stdin_apart
from burgee.runtime.core.errors import _exit_code, _here, _on_sigint, _on_sigterm, _Terminated
from burgee.runtime.execution.execute import _debugging
from burgee.runtime.execution.sources import _config_file
from burgee.runtime.mcpserver.mcp import _McpServer
from burgee.runtime.mcpserver.mcp_http import _serve_http
from burgee.runtime.mcpserver.mcp_io import _mcp_help, _McpOptions, _print_config

if TYPE_CHECKING:
    from burgee.runtime.commandline.argv import _Invocation


def _served_flags(invocation: _Invocation, config: str | None, cwd: str | None) -> list[str]:
    """The tool-wide flags given with `--mcp` that every call reads, as a client must repeat
    them; a path made absolute (from `--cwd`, where the server reads it), since a client starts
    the server from a folder of its own."""
    base = os.path.abspath(cwd or os.curdir)
    words: list[str] = []
    if config is not None:
        path = os.path.join(base, config)
        # NOTE: checked now, as `--cwd` is: a registration whose every call would fail is refused.
        _config_file(path, config)
        words += ["--config", path]
    if invocation.max_output is not None:
        words += ["--max-output", str(invocation.max_output)]
    if invocation.spill_dir is not None:
        words += ["--spill-dir", os.path.join(base, invocation.spill_dir)]
    if invocation.debug:
        words.append("--debug")
    return words


def _serve_mcp(invocation: _Invocation) -> int:
    """`--mcp`: serve until stdin ends; `--mcp --print-config`: print the client configuration."""
    program = invocation.program
    options = _McpOptions(invocation.rest, invocation.print_config, program.name)
    if options.help:
        return _mcp_help(program)
    config = invocation.config()
    if options.print_config:
        return _print_config(
            options, tuple(_served_flags(invocation, config, options.cwd)), program
        )

    def make(debug: bool, shared: _McpServer | None = None) -> _McpServer:
        server = _McpServer(program, debug, shared)
        server.limit, server.spill_dir = invocation.max_output, invocation.spill_dir
        server.config = config
        return server

    if options.cwd:
        os.chdir(options.cwd)
        _here()  # NOTE: the folder a line that runs a call again starts from (`cd ... &&`)
    # NOTE: a handler that reads standard input finds it empty, never the requests.
    requests = _stdin_apart()
    if options.http is not None:
        requests.close()
        return _serve_http(options, _debugging(invocation.debug, program), make, program)
    server = make(_debugging(invocation.debug, program))
    _on_sigterm()
    _on_sigint()
    try:
        return server.serve(requests)
    except (KeyboardInterrupt, _Terminated) as error:
        server.stop()
        if server.relaying:
            # NOTE: the watchdog is blocked reading stdin, and the interpreter's shutdown would
            # wait for that read's lock (and abort); nothing is left to flush but stderr.
            sys.stderr.flush()
            kind = "interrupted" if isinstance(error, KeyboardInterrupt) else "terminated"
            os._exit(_exit_code(kind, program))
        raise
