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
--json); `_OUTPUT_WORD`, the one spelling of the word that names the built-in `output` command
(the command itself, which reads a page back, is `execution/table._OUTPUT`).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from burgee.runtime.answers.output import _dumps, _emit, _text
from burgee.runtime.answers.sanitize import _neutralise, _quarantined, _redact, _sanitized
from burgee.runtime.answers.spill import _spill
from burgee.runtime.answers.truncate import _over, _truncate
from burgee.runtime.core.context import _SECRETS, _agent, _Command
from burgee.runtime.core.errors import CommandError, _command_line, _exit_code_of, _failure
from burgee.runtime.core.kinds import _is_media

if TYPE_CHECKING:
    from burgee.runtime.program import Program

#: The limit for agents, in characters of the serialized data, when neither the command nor
#: the program sets one: about 10,000 tokens, a generous tool result that leaves the context
#: room for the task.
_AGENT_LIMIT = 40_000
#: Where a command's data comes from that an agent must not take as instructions.
_QUARANTINED = ("external", "untrusted")


def _output_limit(
    program: Program, command: _Command | None, asked: int | None, agent: bool
) -> int:
    """The limit of this call: `--max-output` when given, else the command's or the
    `program`'s `max_output` for an agent (else `_AGENT_LIMIT`), else none (0)."""
    if asked is not None:
        return asked
    if not agent:
        return 0
    if command is not None and command.max_output is not None:
        return command.max_output
    return program.max_output if program.max_output is not None else _AGENT_LIMIT


def _deliver(
    envelope: dict[str, Any],
    command: _Command | None,
    program: Program,
    *,
    agent: bool,
    limit: int | None = None,
    spill_dir: str | None = None,
    text: bool = False,
) -> dict[str, Any]:
    """`envelope` (of `command`, of `program`) as this caller may see it (see the module's
    docstring)."""
    return _delivered(envelope, command, program, agent, limit, spill_dir, text)[0]


def _delivered(
    envelope: dict[str, Any],
    command: _Command | None,
    program: Program,
    agent: bool,
    limit: int | None = None,
    spill_dir: str | None = None,
    text: bool = False,
) -> tuple[dict[str, Any], str | None]:
    """`_deliver`, and the envelope's JSON text (`_dumps`) when it was made on the way: an MCP
    answer carries that text, and encoding it twice was a tenth of a call."""
    quarantine = agent and command is not None and command.trust in _QUARANTINED
    most = _output_limit(program, command, limit, agent)
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
    ref = _spill(full, program.name, spill_dir)
    shape = command.returns if command is not None else None
    cut = _truncate(envelope, most, ref, shape, program.records)
    if ref is not None:
        cut["next"] = [
            {"command": _page_line(ref, 0, most, text, program.name), "when": _PAGE_WHEN}
        ]
    return cut, None


#: What the line that reads a cut answer back is for (`next[].when`).
_PAGE_WHEN = "to read the full answer, a page at a time"


def _page_line(ref: str, offset: int, most: int, text: bool, name: str) -> str:
    """The command line that reads the page of a cut answer at `offset`, each page within
    `most`, the limit that cut it (`--max-output`: `output` serves it with a shorter page)."""
    line = f"{_OUTPUT_WORD} {ref} --offset {offset} --max-output {most}"
    return _command_line(line if text else line + " --json", name)


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


def _write_error(error: CommandError, json_mode: bool, program: Program) -> int:
    """Report an error of `program`: the envelope on stdout in JSON mode, and last on stderr for
    programs and agents; a person at a terminal (stderr a terminal, no --json, no agent) reads only
    the message and hint. An error with its own text for people shows only that, without --json."""
    if error.text is not None and not json_mode:
        _emit(sys.stderr, error.text if error.text.endswith("\n") else error.text + "\n")
        return _exit_code_of(error, program)
    text = f"{program.name}: error: {error.message}\n" + (
        f"hint: {error.hint}\n" if error.hint else ""
    )
    if not json_mode and _agent() is None and _is_terminal(sys.stderr):
        _emit(sys.stderr, text)
        return _exit_code_of(error, program)
    agent = json_mode and _agent() is not None
    line = _dumps(_deliver(_failure_envelope(error, agent), None, program, agent=agent))
    if json_mode:
        _emit(sys.stdout, line + "\n", redact=False)
    else:
        _emit(sys.stderr, text)
    _emit(sys.stderr, line + "\n", redact=False)
    return _exit_code_of(error, program)


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, OSError, ValueError):
        return False  # NOTE: a closed or replaced stream is nobody's terminal


#: The word that names the built-in `output` command, a word of the tool's own: no command or
#: group of a program may have it (`shells._TOOL_WORDS`).
_OUTPUT_WORD = "output"
