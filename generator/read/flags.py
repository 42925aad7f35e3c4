"""An option's flags as `Option(...)` spells them: its names, a bool's off form
(`off=`, `--no-input`), the word shown for its value (`metavar=`) and `deprecated=`.

An option's flags as `Option(...)` spells them: its names (`Option("--shallow/--deep")` answered
with the `off=` spelling), a bool's off forms (`off="--deep"`, `off=False`, a `--no-X` flag as
the off form alone, a `no_x` parameter's `--no-x` with none) and the default they must be able
to change, `metavar=` (one word, on an input that takes a value), `deprecated=`.
"""

from __future__ import annotations

import ast
import re
from typing import Literal

from burgee.model.ir import TypeRef, cli_word
from burgee.read.markers import FLAG_KEYS
from burgee.read.reader import Parameter, Reader

_LONG = re.compile(r"^--[A-Za-z0-9][A-Za-z0-9_-]*$")
#: A metavar: one word, as argparse's usage lines need it.
_METAVAR = re.compile(r"^[^\s\[\]()|]+$")


def names(
    reader: Reader, param: Parameter, settings: dict[str, object], name: str
) -> tuple[str | None, str | None, tuple[str, ...]]:
    """`Option("--from", "-f")`: a short flag, long ones, or both, in any order: the first long
    flag names the option, the others (`Param.aliases`) are more spellings of it."""
    short = long = None
    more: list[str] = []
    for key in FLAG_KEYS:
        flag = settings.get(key)
        if flag is None:
            continue
        if isinstance(flag, str) and _LONG.match(flag) and long is None:
            long = flag
        elif isinstance(flag, str) and _LONG.match(flag) and flag not in (long, *more):
            more.append(flag)
        elif isinstance(flag, str) and _valid_short(flag) and short is None:
            short = flag
        elif isinstance(flag, str) and "/" in flag:
            on, _, off = flag.partition("/")
            reader.error(
                param,
                f"flag {flag!r} of {name!r}: burgee names the off form apart: "
                f"Option({on.strip()!r}, off={off.strip()!r})",
            )
        else:
            reader.error(
                param,
                f"flag {flag!r} of {name!r} must look like -x or --long-name (one short flag at "
                "most, each flag once)",
            )
    return short, long, tuple(more)


def off_forms(
    reader: Reader,
    param: Parameter,
    settings: dict[str, object],
    ref: TypeRef,
    names: tuple[str | None, str | None],
) -> tuple[str, ...] | Literal[False] | None:
    """A bool option's flags that set it False (`Param.off`); False after an error.

    `Option(off="--deep")` names one, `off=False` none; a flag spelled `--no-...` is itself the
    off form (`Option("--no-input")` sets `input` False), unless the parameter's own name says
    no (`no_input`: `--no-input` sets it True, with no `--no-no-input`)."""
    name = param.name
    short, long = names
    flag = long or "--" + cli_word(name)
    if ref.kind != "bool":
        if "off" in settings:
            reader.error(param, f"off= of {name!r} needs a bool option, not {ref.source}")
            return False
        return None
    negated = flag.startswith("--no-") and not name.startswith("no_")
    if "off" not in settings:
        if not flag.startswith("--no-"):
            return None
        return tuple(n for n in (short, flag) if n) if negated else ()
    off = settings["off"]
    if off is False:
        found: tuple[str, ...] = ()
    elif isinstance(off, str) and (_LONG.match(off) or _valid_short(off)):
        found = (off,)
    else:
        reader.error(param, f"off= of {name!r} must be a flag (-x or --long-name) or False")
        return False
    if negated:
        reader.error(
            param,
            f"{flag} of {name!r} is already its off form (it sets {name!r} False); remove off=",
        )
        return False
    if off in (short, flag):
        reader.error(param, f"off={off!r} of {name!r} is also its on form; give another flag")
        return False
    return found


def off_default(
    reader: Reader,
    param: Parameter,
    names: tuple[str | None, str | None],
    off: tuple[str, ...],
    *,
    default: object,
    required: bool,
) -> bool:
    """A bool option's flags must be able to change its default: a flag that only sets False
    needs the default True, one with no off form the default False."""
    name = param.name
    flag = names[1] or "--" + cli_word(name)
    if flag in off and (required or default is False):
        reader.error(
            param,
            f"{flag} only sets {name!r} False (it is the off form): give {name!r} the default True",
        )
        return False
    if not off and (required or default is True):
        reader.error(
            param,
            f"{flag} of {name!r} has no off form (off=False), so it only sets {name!r} True: "
            f"give {name!r} the default False",
        )
        return False
    return True


def _valid_short(short: str) -> bool:
    return len(short) == 2 and short[0] == "-" and short[1].isascii() and short[1].isalnum()


def deprecation(given: object) -> str | None:
    """`deprecated=`: None (False), "" (True) or the reason."""
    return None if given is False else "" if given is True else str(given)


def metavar_fits(
    reader: Reader, node: ast.expr, shown: object, ref: TypeRef, name: str, *, takes: int | None
) -> bool:
    """`metavar=` names a value: one word, on an input that takes one; on an option that
    takes N (`nargs=N`, a tuple), N words may name each (`metavar="KEY VALUE"`, as Click's
    `nargs=2` shows it, argparse's `metavar=("KEY", "VALUE")`). `takes`: how many values it
    takes (None: any number)."""
    if ref.kind in ("bool", "count"):
        reader.error(node, f"metavar= of {name!r}: a {ref.kind} option takes no value to name")
        return False
    words = shown.split(" ") if isinstance(shown, str) else [None]
    fit = all(isinstance(w, str) and _METAVAR.match(w) and w.isprintable() for w in words)
    if not fit or (len(words) > 1 and takes in (1, None)):
        several = "any number of values" if takes is None else "one value"
        reader.error(
            node,
            f"metavar= of {name!r} must be one word (no brackets, parentheses or |): the option"
            f" takes {several} (several words name the values of nargs=N or a tuple, one each)",
        )
        return False
    if len(words) != 1 and len(words) != takes:
        reader.error(
            node,
            f"metavar= of {name!r} has {len(words)} words, but the option takes {takes} values:"
            " give one word, or one for each value",
        )
        return False
    return True
