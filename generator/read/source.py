"""The handlers file as text, checked before any parser that could crash on it sees it.

- `decode()`: bytes → text, honouring a PEP 263 coding cookie (and a UTF-8 BOM); bytes that
  do not decode are reported at their line and column.
- `check()`: one pass of the standard library's tokenizer (pure Python, iterative) refuses
  what would crash a parser or take it minutes: brackets nested deeper than `MAX_NESTING`,
  integer literals longer than Python converts, NUL bytes; then Python's own compiler reports
  the first syntax error, as the interpreter that runs the tool would.
- `mask()`: top-level statements of plain helper code with very long lines are handed to
  libcst as placeholders of the same height, and copied into the tool as written. libcst's
  parser and code generator recurse once per operator of a flat expression (`1 + 1 + ...`):
  a few hundred make a RecursionError, thousands take minutes or crash the process.
"""

from __future__ import annotations

import ast
import codecs
import io
import keyword
import re
import sys
import token
import tokenize
import warnings
from dataclasses import dataclass, field
from functools import lru_cache

from burgee.model.diagnostics import Diagnostic, GenerationError, SourceSpan

#: How deep brackets (`(`, `[`, `{`) may nest in a handlers file. Python itself stops at 200;
#: libcst's parser (native code) can crash the process well before that.
MAX_NESTING = 100
#: A logical line with more tokens than this, in plain helper code, is not given to libcst.
LONG_LINE = 200
#: Top-level statements that start like this always go to libcst: they may be burgee's.
_ALWAYS_READ = {"import", "from", "class", "async", "@"}
_CONTINUES = {"else", "elif", "except", "finally"}


def decode(data: bytes, path: str) -> str:
    """The text of a handlers file, or GenerationError with the place of the first bad byte."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        message = "the file is UTF-16; save it as UTF-8 (Python reads no UTF-16 source)"
        raise GenerationError([_at(path, 1, 1, message)])
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as error:
        if "encoding declaration" not in str(error):
            # NOTE: an unknown encoding, or one that contradicts a UTF-8 BOM: the cookie's line.
            lines = data.split(b"\n", 2)[:2]
            line = next((i + 1 for i, text in enumerate(lines) if b"coding" in text), 1)
            raise GenerationError([_at(path, line, 1, f"cannot read the file: {error}")]) from None
        # NOTE: the first lines do not decode; the decoder says where.
        encoding = "utf-8"
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as error:
        before = data[: error.start].decode(encoding, errors="replace")
        line = before.count("\n") + 1
        column = len(before) - (before.rfind("\n") + 1) + 1
        bad = data[error.start]
        name = codecs.lookup(encoding).name
        message = (
            f"cannot decode byte 0x{bad:02x} as {name}; save the file as UTF-8 "
            "or declare its encoding (# coding: ...)"
        )
        raise GenerationError([_at(path, line, column, message)]) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return text


def _at(path: str, line: int, column: int, message: str) -> Diagnostic:
    return Diagnostic(span=SourceSpan(path=path, line=line, column=column), message=message)


@dataclass
class Statement:
    """One top-level statement, as the tokenizer sees it (lines are 1-based, inclusive)."""

    first: int
    last: int
    kind: str
    names: set[str] = field(default_factory=set)
    longest: int = 0
    #: The name a `def` statement defines.
    defines: str | None = None


def check(source: str, path: str) -> list[Statement]:
    """Refuse what a parser cannot take (GenerationError); return the top-level statements."""
    nul = source.find("\0")
    if nul >= 0:
        before = source[:nul]
        line = before.count("\n") + 1
        column = nul - (before.rfind("\n") + 1) + 1
        message = "the file contains a NUL byte, which Python refuses"
        raise GenerationError([_at(path, line, column, message)])
    statements = _scan(source, path)
    _compile(source, path, statements)
    return statements


def _scan(source: str, path: str) -> list[Statement]:
    digits = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 0
    statements: list[Statement] = []
    current: Statement | None = None
    depth = indent = count = 0
    line_start = True
    after_decorator = False
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            kind = tok.type
            if kind in (token.NL, token.COMMENT, token.ENCODING, token.ENDMARKER):
                continue
            if kind == token.INDENT:
                indent += 1
                continue
            if kind == token.DEDENT:
                indent -= 1
                continue
            if kind == token.NEWLINE:
                if current is not None:
                    current.longest = max(current.longest, count)
                count = 0
                line_start = True
                continue
            # NOTE: a file may start indented (Python refuses it, and the compiler says so).
            if line_start and (indent == 0 or current is None):
                word = tok.string
                if current is None or not (after_decorator or word in _CONTINUES):
                    current = Statement(first=tok.start[0], last=tok.end[0], kind=word)
                    statements.append(current)
                after_decorator = word == "@"
            line_start = False
            count += 1
            assert current is not None
            current.last = tok.end[0]
            if kind == token.NAME:
                if current.kind == "def" and current.defines is None and tok.string != "def":
                    current.defines = tok.string
                current.names.add(tok.string)
            elif kind == token.OP and tok.string in "([{":
                depth += 1
                if depth > MAX_NESTING:
                    raise GenerationError(
                        [
                            _at(
                                path,
                                tok.start[0],
                                tok.start[1] + 1,
                                f"brackets nested more than {MAX_NESTING} deep; burgee reads "
                                "no deeper (move the data into a file or build it in code)",
                            )
                        ]
                    )
            elif kind == token.OP and tok.string in ")]}":
                depth = max(depth - 1, 0)
            elif kind == token.NUMBER and digits and _too_long(tok.string, digits):
                raise GenerationError(
                    [
                        _at(
                            path,
                            tok.start[0],
                            tok.start[1] + 1,
                            f"integer literal with {len(tok.string)} digits; Python reads at "
                            f"most {digits}",
                        )
                    ]
                )
    except (tokenize.TokenError, SyntaxError):
        # NOTE: the compiler, next, words and places the problem.
        pass
    return statements


def _too_long(number: str, digits: int) -> bool:
    text = number.replace("_", "")
    return len(text) > digits and text.isdigit()


#: The oldest Python 3 a generated tool runs on (`read.python_version`).
OLDEST = 9


def tree(source: str) -> ast.Module:
    """The file's `ast` tree, parsed once for every step that reads it (each used to parse the
    file again: a large file took a tenth of a second a time). Callers must not change it."""
    return _parsed(source)[0]


def parses_on_oldest(source: str) -> bool:
    """Whether the file's syntax parses on Python 3.OLDEST (`ast.parse(feature_version=...)`)."""
    return _parsed(source)[1]


@lru_cache(maxsize=4)
def _parsed(source: str) -> tuple[ast.Module, bool]:
    # NOTE: the 3.9 grammar first: it gives the same tree for what it accepts, and
    # `needed_minor` asks that question of nearly every file.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return ast.parse(source, feature_version=(3, OLDEST)), True
        except SyntaxError:
            return ast.parse(source), False


def _compile(source: str, path: str, statements: list[Statement]) -> None:
    """Python's own verdict on the file: its first syntax error, or a recursion limit."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            # NOTE: the text, not the shared tree: compiling an AST object recurses once per
            # operator of a flat expression, where the compiler reading text does not.
            compile(source, path, "exec", dont_inherit=True)
    except SyntaxError as error:
        line = error.lineno or 1
        column = max(error.offset or 1, 1)
        raise GenerationError([_at(path, line, column, f"syntax error: {error.msg}")]) from None
    except (RecursionError, MemoryError) as error:
        longest = max(statements, key=lambda s: s.longest, default=None)
        line = longest.first if longest is not None else 1
        message = (
            f"Python cannot compile this file ({type(error).__name__}: {error}); "
            "an expression here is too long or too deeply nested: split it up"
        )
        raise GenerationError([_at(path, line, 1, message)]) from None
    except (ValueError, OverflowError) as error:
        message = f"Python cannot compile this file: {error}"
        raise GenerationError([_at(path, 1, 1, message)]) from None


@dataclass
class Masked:
    """The source libcst reads, and the original text of each statement it does not."""

    source: str
    #: Placeholder text (as it appears in `source`) → the original lines it stands for.
    originals: dict[str, str] = field(default_factory=dict)
    #: Names of the functions defined by masked statements.
    functions: set[str] = field(default_factory=set)
    #: Function bodies libcst was not given, by index: (placeholder text, original lines).
    bodies: list[tuple[str, str]] = field(default_factory=list)


#: The placeholder of a function body (`mask`): indent, `__burgee_body__(N`, newlines, `)`.
BODY = re.compile(r"^[ \t]*__burgee_body__\((\d+)[\r\n]*\)\r?\n?", re.MULTILINE)


def mask(source: str, statements: list[Statement]) -> Masked:
    """Replace plain top-level statements with long lines, and the bodies of top-level
    functions after their docstrings, by placeholders of the same height.

    A statement is plain when it is no import, class or decorated statement and names nothing
    an import of burgee binds; a placeholder is a call spanning the same lines, so every other
    statement keeps its line and column."""
    keep = {"burgee"}
    for statement in statements:
        if statement.kind in ("import", "from") and "burgee" in statement.names:
            keep |= statement.names - set(keyword.kwlist)
    lines = source.splitlines(keepends=True)
    masked = Masked(source=source)
    chosen = [
        s
        for s in statements
        if s.longest > LONG_LINE and s.kind not in _ALWAYS_READ and not (s.names & keep)
    ]
    if not lines:
        return masked
    newline = "\r\n" if lines[0].endswith("\r\n") else "\n"
    # NOTE: a module imported whole (`import burgee`) may be used as `burgee.X` in any body.
    whole = any(s.kind == "import" and "burgee" in s.names for s in statements)
    # NOTE: line numbers are the tokenizer's; a file with other line breaks (\f, \x85, ...)
    # that `splitlines` also splits at is read whole.
    same = len(lines) == source.count("\n") + (not source.endswith("\n"))
    bodies = _bodies(source, lines, chosen) if same and not whole else []
    for index, (first, last) in enumerate(bodies):
        height = last - first + 1
        line = lines[first - 1]
        indent = line[: len(line) - len(line.lstrip(" \t"))]
        placeholder = f"{indent}__burgee_body__({index}" + newline * (height - 1) + ")" + newline
        original = "".join(lines[first - 1 : last])
        masked.bodies.append((placeholder, original))
        lines[first - 1 : last] = [placeholder] + [""] * (height - 1)
    for index, statement in enumerate(chosen):
        height = statement.last - statement.first + 1
        placeholder = f"__burgee_plain__({index}" + newline * (height - 1) + ")" + newline
        masked.originals[placeholder] = "".join(lines[statement.first - 1 : statement.last])
        if not masked.originals[placeholder].endswith("\n"):
            masked.originals[placeholder] += newline
        lines[statement.first - 1 : statement.last] = [placeholder] + [""] * (height - 1)
        if statement.defines is not None:
            masked.functions.add(statement.defines)
    masked.source = "".join(lines)
    return masked


def _bodies(source: str, lines: list[str], chosen: list[Statement]) -> list[tuple[int, int]]:
    """The lines (first, last) of each top-level function's body after its docstring: burgee
    reads a function's decorators, signature and docstring only, and copies the body as
    written, so libcst need not parse it (most of a big handlers file is bodies)."""
    taken = [(s.first, s.last) for s in chosen]
    found = []
    for node in tree(source).body:
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        body = node.body
        start = 1 if _is_docstring(body[0]) else 0
        if start >= len(body) or any(a <= node.lineno <= b for a, b in taken):
            continue
        statement = body[start]
        first, last = statement.lineno, node.end_lineno or body[-1].lineno
        before = lines[first - 1].encode("utf-8")[: statement.col_offset]
        decorators = getattr(statement, "decorator_list", None)
        if decorators:
            # NOTE: a decorated statement starts at its first `@` (ast places it at `def`).
            first = min(d.lineno for d in decorators)
            before = lines[first - 1].encode("utf-8")[: decorators[0].col_offset]
            before = before.rstrip(b" \t").removesuffix(b"@")
        # NOTE: whole lines only: not a body on the `def` line, nor after the docstring's `;`.
        if not before.strip(b" \t"):
            found.append((first, last))
    return found


def _is_docstring(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )
