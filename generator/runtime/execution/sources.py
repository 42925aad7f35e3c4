# burgee: joins tail 130
"""Where an option's value comes from: the call, its env var, the config file, pyproject.toml,
or its default; recorded for --explain and `meta.provenance`.

`_Sources`: where an option's value comes from (flag/JSON, env, config file, pyproject.toml,
default), recorded for `--explain` and `meta.provenance`; `_CONFIG_FILES`, where the config file
is looked for (clispec's `config.files` lists the same); `_stray_keys()`, the config keys no
command reads (warned about once per file); `_config_text()`: a config file (a pyproject.toml
too) read only up to `_CONFIG_BYTES` (1 MiB), a usage error naming it beyond.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

from burgee.runtime.answers.output import _PLAIN, _dumps, _jsonable
from burgee.runtime.core.errors import UsageError
from burgee.runtime.core.jsonread import _load_json
from burgee.runtime.execution.quickargs import _long, _Recorder
from burgee.runtime.execution.values import _REQUIRED
from burgee.runtime.rows import _CommandRow

if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import TypeVar

    from burgee.runtime.execution.values import _Call
    from burgee.runtime.program import Program

    _T = TypeVar("_T")

#: What `_Sources.pick` finds when no place has a value and there is no default.
_NOWHERE: tuple[str, str, Any] = ("", "", _REQUIRED)

#: Where a pyproject.toml holds the tool's table (`%s`: its name, escaped).
_OUR_PYPROJECT_TABLE = r"""^\s*\[?\s*tool\s*\.\s*["']?%s["']?\s*[.\]=]"""


def _config_file(path: str, given: str) -> None:
    """A usage error when `--config` (as `given`) names no regular file at `path`, saying what
    it names instead (`/dev/null`: a character device, not an empty config file)."""
    import stat

    try:
        mode = os.stat(path).st_mode
    except OSError:
        raise UsageError(f"--config {given}: no such file") from None
    if stat.S_ISDIR(mode):
        raise UsageError(f"--config {given}: a directory, not a file")
    if not stat.S_ISREG(mode):
        kinds = (
            (stat.S_ISCHR, "a character device"),
            (stat.S_ISBLK, "a block device"),
            (stat.S_ISFIFO, "a pipe"),
            (stat.S_ISSOCK, "a socket"),
        )
        what = next((name for test, name in kinds if test(mode)), "something else")
        raise UsageError(f"--config {given}: not a regular file ({what})")


#: The most a config file (a pyproject.toml too) may hold: 1 MiB, far more than any real one
#: needs; a bigger one would be read whole (a 200 MB JSON took 425 MB of memory, and TOML takes
#: about a second a MiB to read).
_CONFIG_BYTES = 1 << 20


def _config_text(path: str, errors: str = "strict") -> str:
    """A config file's text; a usage error naming it when it holds more than `_CONFIG_BYTES`
    (checked as it is read: a file's size may not say, or may change)."""
    with open(path, "rb") as file:
        data = file.read(_CONFIG_BYTES + 1)
    if len(data) > _CONFIG_BYTES:
        raise UsageError(
            f"{path}: larger than {_CONFIG_BYTES >> 20} MiB, more than a config file may hold",
            hint="a config file holds option values; keep data in files of other names",
        )
    return data.decode("utf-8", errors)


#: Config files already read: (source, --config path) -> (where, table).
_FILES: dict[tuple[str, str | None], tuple[str, dict[str, Any]]] = {}


def _meta(call: _Call) -> dict[str, Any]:
    """The envelope's `meta`: where each option's value came from."""
    return {"provenance": call.provenance} if call.provenance else {}


def _candidate(kind: str, place: str, value: Any, secret: bool) -> dict[str, Any]:
    """One place a value could have come from, for --explain."""
    shown: dict[str, Any] = {"source": kind, "from": place}
    if value is not _REQUIRED and secret and value is not None:
        # NOTE: None, a secret's usual default, hides nothing: it is shown as the value it is.
        shown["set"] = True
    elif value is not _REQUIRED:
        shown["value"] = _jsonable(value)
    return shown


#: Where the config file is looked for, the first found wins (`{config}`: $XDG_CONFIG_HOME,
#: else ~/.config); the clispec document lists the same places (`config_paths`).
_CONFIG_FILES = (
    "{name}.toml",
    "{name}.json",
    "{config}/{name}/config.toml",
    "{config}/{name}/config.json",
)


def _stray_keys(table: dict[str, Any], program: Program) -> list[str]:
    """The keys of a config table that no command or prompt of `program` reads (a typo, a renamed
    option), dotted (`add.priorty`): warned about, not refused, as the file may be meant for another
    version of the tool. A table named after a command or group holds that command's options."""
    if not table:
        return []
    options: dict[tuple[str, ...], set[str]] = {}
    for path, row in program.commands.items():
        # NOTE: as `_lookup` reads them: an option's name or its long flag (positionals never).
        options[tuple(path.split())] = {
            spelling
            for each in _CommandRow(row).inputs
            if each.flags
            for spelling in (each.name, _long(each.flags).lstrip("-"))
        }
    for name, prompt in program.prompts.items():
        # NOTE: a prompt's table is `[prompt.NAME]`; its arguments are all options.
        recorder = _Recorder()
        prompt.build(recorder)
        flags = {flag[2:] for flag in recorder.options if flag[:2] == "--"}
        options[("prompt", name)] = flags | set(prompt.keys)
    stray: list[str] = []
    # NOTE: a stack, not recursion: a hostile file may nest tables very deep.
    scopes: list[tuple[tuple[str, ...], dict[str, Any]]] = [((), table)]
    while scopes:
        prefix, scope = scopes.pop()
        under = [found for found in options if found[: len(prefix)] == prefix]
        known = set().union(*(options[found] for found in under))
        for key, value in scope.items():
            where = (*prefix, key)
            if isinstance(value, dict) and any(found[: len(where)] == where for found in under):
                scopes.append((where, value))
            elif isinstance(value, dict) and any(name.startswith(f"{key}.") for name in known):
                # NOTE: a record's leaf options as TOML nests them (`[add.ship_to]`, `city`).
                inner = [(f"{key}.{k}", v) for k, v in value.items()]
                while inner:
                    dotted, found_value = inner.pop()
                    deeper = any(name.startswith(f"{dotted}.") for name in known)
                    if isinstance(found_value, dict) and deeper:
                        inner += [(f"{dotted}.{k}", v) for k, v in found_value.items()]
                    elif dotted not in known:
                        stray.append(repr(".".join((*prefix, dotted))))
            elif key not in known:
                import difflib

                # NOTE: a table may be a misspelled command's or group's (`[ad]`, `["tasks
                # purge"]`), as a key an option's: named as from here (`add`, `tasks.purge`).
                tables = {".".join(found[len(prefix) :]) for found in under if found != prefix}
                names = known | tables if isinstance(value, dict) else known
                close = difflib.get_close_matches(key, sorted(names), n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                # NOTE: TOML's own spelling of the key: a part with a dot or a space is quoted.
                dotted = ".".join(part if _bare(part) else _dumps(part) for part in where)
                stray.append(f"{dotted!r}{hint}")
    return sorted(stray)


def _bare(key: str) -> bool:
    """A TOML bare key: ASCII letters, digits, '-' and '_'."""
    return bool(key) and all(c.isascii() and (c.isalnum() or c in "-_") for c in key)


def _config_places(name: str) -> list[str]:
    """Where the config file of the tool `name` is looked for, as a person would write the
    paths."""
    return [pattern.format(name=name, config="~/.config") for pattern in _CONFIG_FILES]


def _layered(flag: str | None, env: str | tuple[str, ...] | None, program: Program) -> bool:
    """Whether an env var or a config file may give an input its value: an option's (it has a
    flag), through its env var or the program's config file (`burgee gen` asks this of a
    required option an example leaves out)."""
    return flag is not None and bool(env or program.config)


class _Sources:
    """Where a command's values come from: the call, then for an option its env var, the
    config file and `[tool.<name>]` in the nearest pyproject.toml, then the default."""

    def __init__(
        self, command: str, program: Program, config: str | None = None, full: bool = False
    ) -> None:
        self.command = command
        #: The program the command is of: its config file is named after it.
        self.program = program
        self.config_path = config
        #: Record every candidate of every value (for --explain and meta.provenance).
        self.full = full

    def pick(
        self,
        call: _Call,
        key: str,
        flag: str | None,
        env: str | tuple[str, ...] | None,
        default: Any,
        secret: bool,
    ) -> tuple[str, str, Any]:
        """The first place that has a value for `key`: (source, label, raw value); the source
        is "default" when none has, and then the value is the default itself."""
        given = call.raw.get(key, _REQUIRED)
        if call.source == "flag":
            first = ("flag", f"flag {flag}" if flag else f"argument {key}", given)
        else:
            first = (call.source, call.source + " " + key, given)
        layered = _layered(flag, env, self.program) and (given is _REQUIRED or self.full)
        # NOTE: another option of its group was given (`values._apart`): the call wins.
        layered = layered and key not in call.unread
        if layered or call.explaining:
            found = [first]
            if layered:
                for layer in self._layers(key, flag, env):  # type: ignore[arg-type]
                    found.append(layer)
                    if layer[2] is not _REQUIRED and not self.full:
                        break
            if default is not _REQUIRED:
                found.append(("default", "default", default))
            for chosen in found:
                if chosen[2] is not _REQUIRED:
                    break
            else:
                chosen = _NOWHERE
        elif given is not _REQUIRED:
            # NOTE: no env var or config file to look at, and nothing to list: the call's own
            # value, else the default, without building the list (an MCP server's every call).
            chosen = first
        else:
            chosen = ("default", "default", default) if default is not _REQUIRED else _NOWHERE
        if chosen[0] == "env" and env:
            call.context._environ.append(chosen[1][len("env ") :])
        if self.full and flag is not None:
            where = chosen[1]
            entry: dict[str, Any] = {"source": chosen[0] or "missing", "from": where or "nowhere"}
            if call.explaining:
                entry["candidates"] = [_candidate(*found_one, secret) for found_one in found]
            elif layered:
                # NOTE: the envelope names only the places whose value lost; --explain lists all.
                # (Without layers the call's own value and the default are all there is, and a
                # default never counts as beaten.)
                beaten = [
                    place
                    for kind, place, value in found
                    if value is not _REQUIRED and place != where and kind != "default"
                ]
                if beaten:
                    entry["overrides"] = beaten
            if secret:
                entry["secret"] = True
            call.provenance[key] = entry
        return chosen

    def settle(self, call: _Call, key: str, value: _T, secret: bool = False) -> _T:
        """Record the value a parameter ends up with (never a secret's); return it."""
        entry = call.provenance.get(key)
        if entry is not None and "secret" not in entry:
            entry["value"] = value if type(value) in _PLAIN else _jsonable(value)
        if call.confirm is not None:
            # NOTE: a secret's default too is never shown (`--help` hides it as well).
            call.settled[key] = f"<secret:{key}>" if secret else value
        return value

    def _layers(
        self, key: str, flag: str, env: str | tuple[str, ...] | None
    ) -> Iterator[tuple[str, str, Any]]:
        # NOTE: several names (a Click option's): each in turn, the first set and not empty
        # wins, as Click's `Option.resolve_envvar_value` reads them.
        for name in (env,) if isinstance(env, str) else env or ():
            yield "env", f"env {name}", os.environ.get(name) or _REQUIRED
        if not self.program.config:
            return
        for source in ("config", "pyproject"):
            path, table = self._file(source)
            where = f"{source} {path}" if path else f"{source} (no file found)"
            value, name = self._lookup(table, self.command, key, flag)
            # NOTE: the key too, when it is there: a bad value's error names it, as an env
            # var's names the variable (`config tool.toml show.retries: ...`).
            yield source, f"{where} {name}" if name else where, value

    def _file(self, source: str) -> tuple[str, dict[str, Any]]:
        # NOTE: read once per process, so an MCP server does not search the disk on every call.
        key = (source, self.config_path)
        if key not in _FILES:
            name = self.program.name
            if source == "config":
                read = self._read_config(name, self.config_path)
            else:
                read = self._pyproject(name)
            _FILES[key] = read
            for stray in _stray_keys(read[1], self.program):
                sys.stderr.write(f"{name}: warning: {source} {read[0]}: no command reads {stray}\n")
        return _FILES[key]

    @staticmethod
    def _lookup(table: dict[str, Any], command: str, key: str, flag: str) -> tuple[Any, str]:
        """A key in the command's own table (`[add]`, `[tasks.purge]`), else at the top level:
        its value and its dotted name (`tasks.purge.force`); `_REQUIRED` and "" when absent."""
        scopes: list[tuple[str, dict[str, Any]]] = [("", table)]
        section: Any = table
        words = command.split()
        for depth, part in enumerate(words, 1):
            section = section.get(part) if isinstance(section, dict) else None
            if isinstance(section, dict):
                scopes.insert(0, (".".join(words[:depth]) + ".", section))
        for prefix, scope in scopes:
            for name in (key, flag.lstrip("-")):
                if name in scope:
                    return scope[name], prefix + name
                if "." in name:
                    # NOTE: a record's leaf option (`ship_to.city`), as TOML nests a dotted
                    # key or a table (`[place.ship_to]`).
                    inner: Any = scope
                    for part in name.split("."):
                        inner = inner.get(part, _REQUIRED) if isinstance(inner, dict) else _REQUIRED
                    if inner is not _REQUIRED:
                        return inner, prefix + name
        return _REQUIRED, ""

    @staticmethod
    def _read_config(name: str, explicit: str | None) -> tuple[str, dict[str, Any]]:
        """The config file of the tool `name`: `--config PATH`, else ./<name>.toml|json, else
        the user config dir."""
        if explicit is not None:
            _config_file(explicit, explicit)
            return explicit, _Sources._load(name, explicit)
        home = os.environ.get("XDG_CONFIG_HOME", "")
        if not os.path.isabs(home):  # NOTE: the XDG spec: a relative one is to be ignored
            home = os.path.join(os.path.expanduser("~"), ".config")
        for pattern in _CONFIG_FILES:
            if "{config}" in pattern and not os.path.isabs(home):
                continue  # NOTE: no home (`~` unexpanded): never a folder of the working directory
            path = os.path.normpath(pattern.format(name=name, config=home))
            if os.path.isfile(path):
                return path, _Sources._load(name, path)
        return "", {}

    @staticmethod
    def _pyproject(name: str) -> tuple[str, dict[str, Any]]:
        """`[tool.<name>]` of the nearest pyproject.toml, where this Python can read TOML."""
        directory = os.getcwd()
        while True:
            path = os.path.join(directory, "pyproject.toml")
            if os.path.isfile(path):
                return _Sources._tool_table(name, path)
            parent = os.path.dirname(directory)
            if parent == directory:
                return "", {}
            directory = parent

    @staticmethod
    def _tool_table(name: str, path: str) -> tuple[str, dict[str, Any]]:
        """`[tool.<name>]` of a pyproject.toml, someone else's file perhaps (anything may sit
        where ours would, and it may be mid-edit): what cannot be read is a warning and an
        empty table, never a tool that stops working in that folder."""
        where = f"{path} [tool.{name}]"
        try:
            import tomllib  # novermin (Python < 3.11 lands in the except)  # noqa: F401
        except ImportError:
            # NOTE: no TOML reader before Python 3.11: said when the file has our table.
            try:
                text = _config_text(path, "replace")
            except (OSError, UsageError):
                text = ""
            import re

            # NOTE: `[tool.NAME]`, `[tool.NAME.add]`, `[tool."NAME"]` or a dotted key
            # `tool.NAME.level = 1`: any of them is our table.
            ours = re.search(_OUR_PYPROJECT_TABLE % re.escape(name), text, re.MULTILINE)
            if ours:
                sys.stderr.write(
                    f"{name}: warning: {where} not read: reading TOML needs Python 3.11 or later\n"
                )
            return f"{where} (not read: TOML needs Python 3.11 or later)", {}
        try:
            data = _Sources._load(name, path)
        except UsageError as error:
            sys.stderr.write(f"{name}: warning: {error.message}; [tool.{name}] not read\n")
            return f"{where} (not read)", {}
        tools = data.get("tool")
        table = tools.get(name, {}) if isinstance(tools, dict) else {}
        return where, table if isinstance(table, dict) else {}

    @staticmethod
    def _load(name: str, path: str) -> dict[str, Any]:
        """A TOML or JSON file as a table (the config of the tool `name`); a usage error names
        the file when it cannot be read."""
        try:
            text = _config_text(path)
            if path.endswith(".json"):
                data = _load_json(text)
            else:
                try:
                    import tomllib  # novermin (Python < 3.11 lands in the except)
                except ImportError:
                    raise UsageError(
                        f"{path}: reading TOML needs Python 3.11 or later",
                        hint=f"use {name}.json instead",
                    ) from None
                data = tomllib.loads(text)
        except (OSError, ValueError) as error:
            raise UsageError(f"{path}: {error}") from None
        except RecursionError:
            raise UsageError(f"{path}: nested too deeply") from None
        if not isinstance(data, dict):
            # NOTE: often a data file that happens to have the config file's name (notes.json
            # of a tool named notes): say which file is read, and why.
            raise UsageError(
                f"{path}: expected a table of option values (it is read as {name}'s config file)",
                hint=f"keep data in a file of another name, or name the config file with "
                f"--config PATH; {name} looks for {', '.join(_config_places(name))}",
            )
        return data
