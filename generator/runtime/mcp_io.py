"""The MCP server's transport pieces: JSON without `import json`, stdout while serving,
reading stdin, and the client configuration."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

from burgee.runtime.output import _dumps
from burgee.runtime.program import PROGRAM

if TYPE_CHECKING:
    from collections.abc import Callable


class _Codec:
    """JSON for the protocol, from CPython's C accelerator when there is one.

    `import json` costs more start-up time than the rest of the server (it imports `re`);
    `_json` is what `json` itself runs on, so the results are the same.
    """

    def __init__(self) -> None:
        try:
            import _json
        except ImportError:
            import json

            def compact(value: object) -> str:
                return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

            def load_json(text: str) -> Any:
                return json.loads(text, parse_constant=_not_a_number)

            self.load: Callable[[str], Any] = load_json
            self.compact: Callable[[object], str] = compact
            self.envelope: Callable[[object], str] = _dumps
            self.string: Callable[[str], str] = compact
            return
        self.strict = True
        self.object_hook = self.object_pairs_hook = None
        self.parse_float, self.parse_int = float, int
        self.parse_constant = _not_a_number
        codec: Any = _json
        scan = codec.make_scanner(self)
        # NOTE: compact for the protocol; an envelope goes through `_dumps`, so it is byte for
        # byte what `--json` prints.
        encoder = codec.make_encoder
        quote = codec.encode_basestring
        packed = encoder(None, self.default, quote, None, ":", ",", False, False, True)

        def load(text: str) -> Any:
            text = text.strip(" \t\r\n")
            try:
                value, end = scan(text, 0)
            except Exception:  # noqa: BLE001
                # NOTE: StopIteration, or SystemError: the scanner reports its errors through
                # json.decoder, which is not imported.
                raise ValueError("not JSON") from None
            if end != len(text):
                raise ValueError("extra data after the JSON value")
            return value

        self.load = load
        self.compact = lambda value: "".join(packed(value, 0))
        self.string = quote
        self.envelope = _dumps

    @staticmethod
    def default(value: object) -> object:
        raise TypeError(f"{type(value).__name__} is not JSON")


def _not_a_number(name: str) -> Any:
    """NaN and the infinities: Python's json reads them, JSON (and so MCP) has no such values."""
    raise ValueError(f"{name} is not JSON")


class _McpError(Exception):
    """A JSON-RPC error answer: code, message and optional data."""

    def __init__(self, code: int, message: str, data: object = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data


class _Stdout:
    """sys.stdout while serving: a call's prints go to its buffer, anything else to stderr."""

    def __init__(self, fallback: Any) -> None:
        import _thread

        self.buffers: dict[int, list[str]] = {}
        self.fallback = fallback
        self.encoding = "utf-8"
        self.thread = _thread.get_ident

    def write(self, text: str) -> int:
        buffer = self.buffers.get(self.thread())
        if buffer is None:
            return int(self.fallback.write(text))
        buffer.append(text)
        return len(text)

    def flush(self) -> None:
        self.fallback.flush()

    def isatty(self) -> bool:
        return False


def _read_line(readline: Callable[[], bytes]) -> bytes:
    """The next line of stdin; a stdin that fails (a terminal gone, a closed descriptor) ends
    the input like an end of file, whichever thread was reading it."""
    try:
        return readline()
    except (OSError, ValueError) as error:
        sys.stderr.write(f"{PROGRAM}: mcp: cannot read stdin ({error}); stopping\n")
        return b""


def _print_config() -> int:
    """Print the `mcpServers` block that starts this tool as an MCP server."""
    import json
    import shutil

    name = os.path.basename(sys.argv[0] or "")
    found = shutil.which(name) if name and not name.endswith(".py") else None
    if found and os.path.realpath(found) == os.path.realpath(sys.argv[0]):
        server: dict[str, Any] = {"command": name, "args": ["--mcp"]}
    else:
        # NOTE: in a generated tool, `__file__` is the tool itself.
        module = os.path.abspath(__file__)
        server = {"command": sys.executable or "python", "args": [module, "--mcp"]}
    sys.stdout.write(json.dumps({"mcpServers": {PROGRAM: server}}, indent=2) + "\n")
    return 0
