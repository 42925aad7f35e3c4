# burgee: joins tail 120
"""What reaches the caller: secrets out, control tokens neutralised, untrusted text
quarantined, long output truncated with the full text saved to page back (`output REF`).

Every surface delivers through `_deliver`: the command line, `--batch` and MCP. A person at a
terminal gets everything (secrets aside) unless they ask with `--max-output`; an agent (MCP,
`--batch`, or the command line, text or `--json`, when the environment names an agent) gets it
made safe.

`_deliver`, what every surface does to an answer before the caller sees it (redact, sanitize,
quarantine, truncate + spill, by who the caller is); `_failure_envelope`, every surface's
failure envelope (for an agent, an error an external or untrusted command's handler raised is
quarantined); `_write_error` (an error's own `text=` replaces the lines for people, without
--json); the built-in `output` command (`_OUTPUT`, named by `_OUTPUT_WORD`, the one spelling of
that word).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from burgee.runtime.answers.output import _dumps, _emit, _text
from burgee.runtime.answers.sanitize import _neutralise, _quarantined, _redact, _sanitized
from burgee.runtime.answers.spill import _PAGE, _read_spill, _spill
from burgee.runtime.answers.truncate import _over, _truncate
from burgee.runtime.execution.context import _SECRETS, _agent, _Command
from burgee.runtime.execution.errors import CommandError, _command_line, _failure
from burgee.runtime.execution.kinds import _Any, _Int, _is_media, _Str
from burgee.runtime.execution.values import _within
from burgee.runtime.program import PROGRAM

if TYPE_CHECKING:
    import argparse

    from burgee.runtime.execution.values import _Call

#: The limit for agents, in characters of the serialized data, when neither the command nor
#: the program sets one: about 10,000 tokens, a generous tool result that leaves the context
#: room for the task.
_AGENT_LIMIT = 40_000
#: Where a command's data comes from that an agent must not take as instructions.
_QUARANTINED = ("external", "untrusted")


def _output_limit(command: _Command | None, asked: int | None, agent: bool) -> int:
    """The limit of this call: `--max-output` when given, else the command's or the
    program's `max_output` for an agent (else `_AGENT_LIMIT`), else none (0)."""
    if asked is not None:
        return asked
    if not agent:
        return 0
    if command is not None and command.max_output is not None:
        return command.max_output
    return PROGRAM.max_output if PROGRAM.max_output is not None else _AGENT_LIMIT


def _deliver(
    envelope: dict[str, Any],
    command: _Command | None,
    *,
    agent: bool,
    limit: int | None = None,
    spill_dir: str | None = None,
    text: bool = False,
) -> dict[str, Any]:
    """`envelope` as this caller may see it (see the module's docstring)."""
    return _delivered(envelope, command, agent, limit, spill_dir, text)[0]


def _delivered(
    envelope: dict[str, Any],
    command: _Command | None,
    agent: bool,
    limit: int | None = None,
    spill_dir: str | None = None,
    text: bool = False,
) -> tuple[dict[str, Any], str | None]:
    """`_deliver`, and the envelope's JSON text (`_dumps`) when it was made on the way: an MCP
    answer carries that text, and encoding it twice was a tenth of a call."""
    quarantine = agent and command is not None and command.trust in _QUARANTINED
    most = _output_limit(command, limit, agent)
    trusted = command is not None and not command.sanitize
    if not agent and most <= 0 and not _SECRETS:
        return envelope, None  # a person, no limit asked for, nothing secret: as it is

    whole: str | None = None
    encoded = envelope
    clean = False
    data = envelope.get("data")
    media = _is_media(data) or (type(data) is list and any(map(_is_media, data)))
    if not _SECRETS and not quarantine and not media:
        # NOTE: the common case, in one C-speed pass: the whole envelope as text says whether
        # anything needs neutralising and whether the data can be over the limit (the text is
        # longer than the data's), so most answers skip the walks below. Not an answer of
        # media: its base64 is over any limit, and the text would be one more copy of it.
        whole = _dumps(envelope)
        clean = trusted or not agent or _neutralise(whole) is whole
        if clean and (most <= 0 or len(whole) <= most):
            return envelope, whole
    if _SECRETS:
        envelope = _redact(envelope, _SECRETS)
    if agent and not trusted and not clean:
        # NOTE: not when the text above had nothing to neutralise: no string in it has either
        # (walking a long answer to find nothing was a quarter of the call).
        envelope = _sanitized(envelope)
    if not envelope.get("ok"):
        return envelope, None
    if quarantine:
        meta = {**envelope.get("meta", {}), "trust": command.trust}  # type: ignore[union-attr]
        envelope = {**envelope, "data": _quarantined(envelope["data"]), "meta": meta}
    if not _over(envelope, most):
        return envelope, None
    # NOTE: saved before it is cut: the full `--json` envelope (the text made above, when
    # nothing has changed the envelope since: encoding a long answer again was a sixth of the
    # call), or the full text output.
    if text:
        full = _text(envelope["data"])
    else:
        full = whole if whole is not None and envelope is encoded else _dumps(envelope)
    ref = _spill(full, spill_dir)
    cut = _truncate(envelope, most, ref, command.returns if command is not None else None)
    if ref is not None:
        cut["next"] = [{"command": _page_line(ref, 0, most, text), "when": _PAGE_WHEN}]
    return cut, None


#: What the line that reads a cut answer back is for (`next[].when`).
_PAGE_WHEN = "to read the full answer, a page at a time"


def _page_line(ref: str, offset: int, most: int, text: bool) -> str:
    """The command line that reads the page of a cut answer at `offset`, each page within
    `most`, the limit that cut it (`--max-output`: `output` serves it with a shorter page)."""
    line = f"{_OUTPUT_WORD} {ref} --offset {offset} --max-output {most}"
    return _command_line(line if text else line + " --json")


def _failure_envelope(error: CommandError, agent: bool) -> dict[str, Any]:
    """The failure envelope of `error` for this caller. For an agent, what the handler of an
    external or untrusted command raised (`execute._execute` marks it) is quarantined as its
    answer would be: the message, the hint and the details, with `meta.trust`."""
    envelope = _failure(error)
    trust = getattr(error, "_trust", None)
    if agent and trust is not None:
        body = envelope["error"]
        for key in ("message", "hint", "details"):
            if key in body:
                body[key] = _quarantined(body[key])
        envelope["meta"] = {"trust": trust}
    return envelope


def _write_error(error: CommandError, json_mode: bool, prog: str) -> int:
    """Report an error: the envelope on stdout in JSON mode, and last on stderr for programs
    and agents; a person at a terminal (stderr a terminal, no --json, no agent) reads only the
    message and hint. An error with its own text for people shows only that, without --json."""
    if error.text is not None and not json_mode:
        _emit(sys.stderr, error.text if error.text.endswith("\n") else error.text + "\n")
        return error.exit_code
    text = f"{prog}: error: {error.message}\n" + (f"hint: {error.hint}\n" if error.hint else "")
    if not json_mode and _agent() is None and _is_terminal(sys.stderr):
        _emit(sys.stderr, text)
        return error.exit_code
    agent = json_mode and _agent() is not None
    line = _dumps(_deliver(_failure_envelope(error, agent), None, agent=agent))
    if json_mode:
        _emit(sys.stdout, line + "\n", redact=False)
    else:
        _emit(sys.stderr, text)
    _emit(sys.stderr, line + "\n", redact=False)
    return error.exit_code


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, OSError, ValueError):
        return False  # NOTE: a closed or replaced stream is nobody's terminal


#: The inputs of `output`, read by its reader, argparse, completion and every document that
#: describes it (`burgee.describe.builtins`): name, flag (None: the positional), metavar, the
#: least value and the default of an option, help.
_OUTPUT_INPUTS: tuple[tuple[str, str | None, str, int, int, str], ...] = (
    ("ref", None, "REF", 0, 0, "the reference a cut answer names (`full output: REF`)"),
    ("offset", "--offset", "CHARS", 0, 0, "where the page starts"),
    ("limit", "--limit", "CHARS", 1, _PAGE, "how long it is"),
)


def _output_help(flag: str | None, default: int, text: str) -> str:
    """An input's help line, with the default of an option."""
    return text if flag is None else f"{text} (default: {default})"


def _build_output(parser: argparse.ArgumentParser) -> None:
    for name, flag, metavar, _, default, text in _OUTPUT_INPUTS:
        help_text = _output_help(flag, default, text)
        if flag is None:
            parser.add_argument(name, metavar=metavar, help=help_text)
        else:
            parser.add_argument(flag, dest=name, metavar=metavar, help=help_text)


def _run_output(call: _Call) -> object:
    found: dict[str, Any] = {}
    for name, flag, _, least, default, _ in _OUTPUT_INPUTS:
        if flag is None:
            found[name] = call.value(name, _Str.convert)
        else:
            convert = _within(_Int.convert, least, None)
            found[name] = call.value(name, convert, default, flag=flag)
    call.check()
    return _read_spill(found["ref"], found["offset"], found["limit"], call.spill_dir, call.bound)


#: The word that names the built-in `output` command, a word of the tool's own: no command or
#: group of a program may have it (`shells._TOOL_WORDS`).
_OUTPUT_WORD = "output"

#: The built-in `output` command: every surface (flags, `--json` input, MCP, `--batch`) pages
#: a cut answer back through it. Never cut itself (max_output=0): a page is what was asked for.
_OUTPUT = _Command(
    "Read back the full text of an answer that was cut.",
    tuple(name for name, *_ in _OUTPUT_INPUTS),
    _build_output,
    _run_output,
    # NOTE: a page is a record of fixed keys (ref, offset, length, text, next), never a map:
    # cut, it loses the middle of its text, not a key.
    _Any,
    description="Read back the full text of an answer that was cut, a page at a time: the"
    " reference is in\nthe answer's marker and in meta.truncated.ref.",
    examples=(f"{_OUTPUT_WORD} 0123456789abcdef --offset 0 --limit {_PAGE}",),
    max_output=0,
)
