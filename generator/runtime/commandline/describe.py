# burgee: joins tail 220
# burgee: section describe
# burgee: always: _describe
"""The tool describes itself: `schema`/`--schema`, `--llms`, and `CMD --explain OPTION`."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

from burgee.runtime.answers.output import _PRINTED, _dumps
from burgee.runtime.commandline.argv import _did_you_mean, _find
from burgee.runtime.core.embedded import _document
from burgee.runtime.core.errors import UsageError, _Explained, _run_hint
from burgee.runtime.core.flags import HELP_FLAGS
from burgee.runtime.core.jsonread import _load_json
from burgee.runtime.execution.quickargs import _HIDDEN, _long

if TYPE_CHECKING:
    import argparse

    from burgee.runtime.commandline.argv import _Invocation
    from burgee.runtime.core.context import _Command
    from burgee.runtime.execution.values import _Call


def _for_agents(name: str) -> str:
    """The root help's closing paragraph (of the tool `name`): every surface an agent can use,
    in one place (one line: help wraps it to the terminal's width)."""
    return (
        f"For agents: `{name} schema` (or --schema) prints every command as JSON; --json"
        " answers one JSON envelope; --llms lists the commands as MCP tools and --mcp serves"
        f" them; `{name} COMMAND --explain OPTION` says where an option's value came from;"
        f" `{name} --skill` prints an Agent Skill{_agents_md()}."
    )


def _agents_md() -> str:
    """`; read AGENTS.md` when one sits beside the tool or one directory up, else nothing."""
    # NOTE: in a generated tool, `__file__` is the tool itself.
    here = os.path.dirname(os.path.abspath(__file__))
    for folder in (here, os.path.dirname(here)):
        agents = os.path.join(folder, "AGENTS.md")
        if os.path.isfile(agents):
            shown = os.path.relpath(agents) if agents.startswith(os.getcwd()) else agents
            return f"; read {shown}"
    return ""


def _describe(invocation: _Invocation) -> object | None:
    """Answer `schema`, `--schema` or `--llms` from the embedded documents; else None."""
    asked, rest, program = invocation.asked, invocation.rest, invocation.program
    if "--llms" in asked:
        return _print_json(_document("llms", program), asked.get("--field"))
    if rest[:1] == ["schema"]:
        words = [word for word in rest[1:] if word not in HELP_FLAGS]
        # NOTE: `schema ls`, as `ls --schema`
        path = program.aliases.get(" ".join(words), " ".join(words))
    elif "--schema" in asked:
        path, extra = _find(rest, program) if rest else ("", [])
        if len(extra) == len(rest):
            extra = []  # NOTE: the root command, named by no word: its words are values
        # NOTE: the command's own options (and their values) say nothing of which command, as
        # with --help: `tool login --token T --schema` is login's schema.
        extra = extra[: next((i for i, word in enumerate(extra) if word[:1] == "-"), None)]
        path = " ".join((path, *extra)).strip()
    else:
        return None
    document = _load_json(_document("schema", program))
    commands = document["commands"]
    if not path:
        document["commands"] = [c for c in commands if not c.get("hidden")]
        return _print_json(document, asked.get("--field"), json_text=False)
    chosen = [c for c in commands if c["name"] == path or c["name"].startswith(path + " ")]
    if not chosen:
        # NOTE: the commands and groups help shows (`schema stor pik`: `store pick`?).
        shown = [c["name"] for c in commands if not c.get("hidden")]
        shown += sorted({name.rpartition(" ")[0] for name in shown} - {""})
        hint = _did_you_mean(path, shown, f"{_run_hint('schema', program.name)} for all")
        raise UsageError(f"unknown command {path!r}", hint=hint)
    if len(chosen) == 1 and chosen[0]["name"] == path and "--field" in asked:
        return _print_json(chosen[0], asked["--field"], json_text=False)
    document["commands"] = [c for c in chosen if not c.get("hidden") or c["name"] == path]
    return _print_json(document, asked.get("--field"), json_text=False)


def _print_json(data: Any, field: str | None, *, json_text: bool = True) -> object:
    """Print one JSON document (or the part at the dotted path `field`); indented for people.
    Neither the reader nor the one line for programs imports `json` (`_load_json`, `_dumps`):
    it would be a third of a `schema`."""
    if json_text:
        data = _load_json(data)
    for part in field.split(".") if field else ():
        data = _part(data, part, field or "")
    if sys.stdout.isatty():
        import json

        text = json.dumps(data, ensure_ascii=False, indent=2)
    else:
        text = _dumps(data)
    sys.stdout.write(text + "\n")
    return _PRINTED


def _part(data: Any, part: str, field: str) -> Any:
    """One step of a `--field` path: a key, a list index, or the item with that `name`."""
    if isinstance(data, dict) and part in data:
        return data[part]
    if isinstance(data, list):
        if part.isdecimal() and int(part) < len(data):
            return data[int(part)]
        for item in data:
            if isinstance(item, dict) and item.get("name") in (part, f"--{part}"):
                return item
    raise UsageError(f"--field {field}: nothing at {part!r}")


def _loosen(parser: argparse.ArgumentParser) -> None:
    """Under --explain, positional arguments may be left out."""
    for action in parser._actions:
        if not action.option_strings and action.nargs in (None, "+"):
            action.nargs = "?" if action.nargs is None else "*"
            action.required = False


def _explain(command: _Command, call: _Call, invocation: _Invocation) -> object:
    """`CMD --explain OPTION`: where the option's value came from, and what it beat."""
    option = invocation.asked["--explain"]
    call.sources.full = True
    try:
        command.run(call)
    except _Explained:
        pass
    key = option.lstrip("-").replace("-", "_")
    known = (*command.keys, *call.provenance)  # NOTE: with a model's leaf options
    if key not in known or key not in call.provenance:
        # NOTE: a flag named otherwise than its parameter (`Option("--from")` on `source`):
        # found by the spelling its place was read under.
        label = "flag " + (option if option.startswith("-") else "--" + option)
        key = next(
            (k for k, e in call.provenance.items() if e["candidates"][0]["from"] == label),
            key if key in command.keys else "",
        )
    if key not in known:
        # NOTE: the options by their flags, as help shows them (an argument has nothing to
        # explain, and a hidden option is not shown).
        row = invocation.program.commands.get(call.context.command)
        flags = [
            _long(flags)
            for _, flags, _, _, options in (row[3] if row else ())
            if flags and ("help", _HIDDEN) not in options
        ]
        raise UsageError(
            f"{call.context.command} has no option {option!r}",
            hint=f"options: {', '.join(flags)}" if flags else "it has no options",
        )
    entry = call.provenance.get(key)
    if entry is None:
        raise UsageError(f"{key} is an argument: its value always comes from the command line")
    labels = (entry["from"], entry["from"].removeprefix("flag "), key)
    problems = [p for p in call.problems if p.split(":")[0] in labels]
    if invocation.json:
        return {"option": key, **entry, "problems": problems}
    if entry.get("secret"):
        shown = "<secret>"
    else:
        shown = _dumps(entry["value"]) if "value" in entry else "(no valid value)"
    lines = [f"{key} = {shown}   from {entry['from']}"]
    candidates = []
    for candidate in entry["candidates"]:
        if "value" not in candidate and not candidate.get("set"):
            candidates.append(f"{candidate['from']} (unset)")
        elif entry.get("secret") and "value" not in candidate:
            candidates.append(f"{candidate['from']} (set)")
        else:
            candidates.append(f"{candidate['from']} {_dumps(candidate['value'])}")
    lines.append("  candidates: " + ", ".join(candidates))
    lines += [f"  problem: {problem}" for problem in problems]
    sys.stdout.write("\n".join(lines) + "\n")
    return _PRINTED
