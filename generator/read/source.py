"""The handlers file as text, checked before any parser that could crash on it sees it.

- `decode()`: bytes → text, honouring a PEP 263 coding cookie (and a UTF-8 BOM); bytes that
  do not decode are reported at their line and column.
- `check()`: refuses NUL bytes, brackets nested deeper than `MAX_NESTING` and integer literals
  longer than Python converts (the standard tokenizer places them, run only when a quick look
  at the text finds them possible), then Python's own compiler reports the first syntax
  error, as the interpreter that runs the tool would.
- `tree()`: the `ast` tree every step reads, parsed once; `Text`: the file's lines, to turn
  ast's places (UTF-8 byte columns) into characters and take a node's text as written;
  `statements_with()`: the top-level statements whose text holds a word, the only ones a walk
  looking for it need enter; `nested_imports()`: the imports inside other statements;
  `imports()`: every import, without walking the statements that name none.
"""

from __future__ import annotations

import ast
import bisect
import codecs
import io
import re
import sys
import token
import tokenize
import warnings
from collections import deque
from dataclasses import dataclass
from functools import lru_cache

from burgee.model.diagnostics import Diagnostic, GenerationError, SourceSpan

#: How deep brackets (`(`, `[`, `{`) may nest in a handlers file. Python itself stops at 200;
#: burgee reads annotations and literals recursively, and stops well before.
MAX_NESTING = 100
#: What the quick look at the text skips: comments and strings (the brackets in them are text).
_SKIPPED = re.compile(
    r"#[^\r\n]*"
    r"|'''(?:[^'\\]|\\.|'(?!''))*(?:'''|$)"
    r'|"""(?:[^"\\]|\\.|"(?!""))*(?:"""|$)'
    r"|'(?:[^'\\\r\n]|\\.)*'?"
    r'|"(?:[^"\\\r\n]|\\.)*"?',
    re.DOTALL,
)
_NOT_BRACKETS = re.compile(r"[^()\[\]{}]+")
#: Every bracket as a round one: how deep they nest is all the look asks.
_ROUND = str.maketrans("[{]}", "(())")
_OPEN = frozenset("([{")
_CLOSE = frozenset(")]}")


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
    #: The most tokens of one of its logical lines.
    longest: int = 0


#: How the lines begin that cut a generated tool's code into pieces (`runtime/start/boot._pieces`,
#: `render/sections`): one in the handlers' code would cut it wrong.
_MARKER = "# ---- burgee:"


def marker_lines(source: str, path: str) -> list[Diagnostic]:
    """Each line of the handlers' code that begins as burgee's own marker lines do."""
    message = f"a line may not begin with {_MARKER!r}: burgee marks its own code so"
    return [
        _at(path, number, 1, message)
        for number, line in enumerate(source.splitlines(), 1)
        if line.startswith(_MARKER)
    ]


def check(source: str, path: str) -> None:
    """Refuse what a parser cannot take, or Python would not run (GenerationError)."""
    nul = source.find("\0")
    if nul >= 0:
        before = source[:nul]
        line = before.count("\n") + 1
        column = nul - (before.rfind("\n") + 1) + 1
        message = "the file contains a NUL byte, which Python refuses"
        raise GenerationError([_at(path, line, column, message)])
    if _suspect(source):
        _scan(source, path)
    _compile(source, path)


def _suspect(source: str) -> bool:
    """Whether the file may nest brackets too deep or hold a too long integer literal: the
    exact check (`_scan`, the tokenizer in pure Python) costs a tenth of a second for a
    thousand commands, this look at the text a few milliseconds."""
    digits = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 0
    if digits and re.search(f"[0-9][0-9_]{{{digits},}}", source):
        return True
    # NOTE: half the limit: the look may miss a string's end the tokenizer would find.
    limit = MAX_NESTING // 2
    brackets = _NOT_BRACKETS.sub("", _SKIPPED.sub("", source)).translate(_ROUND)
    # NOTE: each round takes away the innermost pairs, so the rounds are how deep the pairs
    # nest; with the brackets never closed, a bound on the depth (no Python step per bracket).
    rounds = 0
    while "()" in brackets:
        rounds += 1
        if rounds > limit:
            return True
        brackets = brackets.replace("()", "")
    return rounds + brackets.count("(") > limit


def _scan(source: str, path: str) -> list[Statement]:
    """Each top-level statement with its longest logical line; brackets nested too deep and
    too long integer literals refused at their place."""
    digits = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 0
    statements: list[Statement] = []
    current: Statement | None = None
    depth = indent = count = 0
    line_start = True
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
                current = Statement(first=tok.start[0], last=tok.end[0])
                statements.append(current)
            line_start = False
            count += 1
            assert current is not None
            current.last = tok.end[0]
            if kind == token.OP and tok.string in _OPEN:
                depth += 1
                if depth > MAX_NESTING:
                    message = (
                        f"brackets nested more than {MAX_NESTING} deep; burgee reads no deeper "
                        "(move the data into a file or build it in code)"
                    )
                    raise GenerationError([_at(path, tok.start[0], tok.start[1] + 1, message)])
            elif kind == token.OP and tok.string in _CLOSE:
                depth = max(depth - 1, 0)
            elif kind == token.NUMBER and digits and _too_long(tok.string, digits):
                message = (
                    f"integer literal with {len(tok.string)} digits; Python reads at most {digits}"
                )
                raise GenerationError([_at(path, tok.start[0], tok.start[1] + 1, message)])
    except (tokenize.TokenError, SyntaxError):
        # NOTE: the compiler, next, words and places the problem.
        pass
    return statements


def longest_line(source: str) -> int:
    """The first line of the statement with the longest logical line (for a RecursionError)."""
    longest = max(_scan(source, "<handlers>"), key=lambda s: s.longest, default=None)
    return longest.first if longest is not None else 1


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


def _compile(source: str, path: str) -> None:
    """Python's own verdict on the file: its first syntax error, or a recursion limit."""
    try:
        # NOTE: the parser's errors come from parsing the tree every step reads; the
        # compiler's own (`return` outside a function, ...) from compiling that tree, which
        # is half the work of compiling the text again. An AST object is converted
        # recursively, once per operator of a flat expression, where the compiler reading
        # text is not: too deep a tree is compiled from the text.
        parsed = tree(source)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                compile(parsed, path, "exec", dont_inherit=True)
            except RecursionError:
                compile(source, path, "exec", dont_inherit=True)
    except SyntaxError as error:
        line = error.lineno or 1
        column = max(error.offset or 1, 1)
        raise GenerationError([_at(path, line, column, f"syntax error: {error.msg}")]) from None
    except (RecursionError, MemoryError) as error:
        message = (
            f"Python cannot compile this file ({type(error).__name__}: {error}); "
            "an expression here is too long or too deeply nested: split it up"
        )
        raise GenerationError([_at(path, longest_line(source), 1, message)]) from None
    except (ValueError, OverflowError) as error:
        message = f"Python cannot compile this file: {error}"
        raise GenerationError([_at(path, 1, 1, message)]) from None


#: A line and its end (`\r\n`, `\r` or `\n`: where Python's tokenizer ends lines).
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


class Text:
    """The lines of a source, to place `ast` nodes (whose columns count UTF-8 bytes) in it."""

    def __init__(self, source: str) -> None:
        self.source = source
        #: Each line with its line break.
        self.lines: list[str] = _LINE.findall(source)
        starts = [0]
        for line in self.lines:
            starts.append(starts[-1] + len(line))
        #: Where each line starts in `source` (and, last, the end).
        self.starts = starts

    def offset(self, line: int, column: int) -> int:
        """The index in `source` of a 1-based line and an ast (byte) column."""
        if line > len(self.lines):
            return len(self.source)
        text = self.lines[line - 1]
        if not text.isascii():
            column = len(text.encode("utf-8")[:column].decode("utf-8", errors="replace"))
        return self.starts[line - 1] + column

    def column(self, line: int, column: int) -> int:
        """The 1-based character column of an ast (byte) column."""
        return self.offset(line, column) - self.starts[min(line, len(self.lines) + 1) - 1] + 1

    def start(self, node: ast.AST) -> int:
        """Where a node starts in `source`."""
        return self.offset(node.lineno, node.col_offset)  # type: ignore[attr-defined]

    def end(self, node: ast.AST) -> int:
        """Where a node ends in `source`."""
        return self.offset(node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]

    def code(self, node: ast.AST) -> str:
        """A node's text, as written."""
        return self.source[self.start(node) : self.end(node)]

    def line_of(self, index: int) -> int:
        """The 1-based line of an index of `source`."""
        return bisect.bisect_right(self.starts, index)


def statements_with(source: str, pattern: str, *, inside: bool = False) -> list[ast.stmt]:
    """The top-level statements whose lines hold a match of `pattern` (a regular expression):
    the only ones a walk looking for it needs to enter (`inside`: below their first line,
    that of `def`, `class`, `if`, ...)."""
    return _statements_on(source, _lines_with(source, pattern), inside)


def statements_naming(
    source: str, words: tuple[str, ...], *, inside: bool = False
) -> list[ast.stmt]:
    """`statements_with` of a pattern of whole words (`\\b(?:word|...)\\b`), found by each
    word's text: `re` tries a pattern that starts with `\\b` at every character (for a
    thousand commands, a hundredth of a second or more each time)."""
    return _statements_on(source, _lines_naming(source, words), inside)


def _statements_on(source: str, found: list[int], inside: bool) -> list[ast.stmt]:
    """The top-level statements whose lines include one of `found` (sorted line numbers)."""
    if not found:
        return []
    chosen = []
    for statement in tree(source).body:
        first = statement.lineno
        decorators = getattr(statement, "decorator_list", None)
        if inside:
            first += 1
        elif decorators:
            first = min(first, decorators[0].lineno)
        index = bisect.bisect_left(found, first)
        if index < len(found) and found[index] <= (statement.end_lineno or first):
            chosen.append(statement)
    return chosen


@lru_cache(maxsize=16)
def _lines_with(source: str, pattern: str) -> list[int]:
    text = _text(source)
    lines = [text.line_of(match.start()) for match in re.finditer(pattern, source)]
    return sorted(set(lines))


#: A word character, as `\\b` tells one.
_WORD_CHARACTER = re.compile(r"\w")


@lru_cache(maxsize=16)
def _lines_naming(source: str, words: tuple[str, ...]) -> list[int]:
    text = _text(source)
    lines = set()
    for word in words:
        for match in re.finditer(re.escape(word) + r"\b", source):
            start = match.start()
            if start == 0 or _WORD_CHARACTER.match(source, start - 1) is None:
                lines.add(text.line_of(start))
    return sorted(lines)


@lru_cache(maxsize=4)
def _text(source: str) -> Text:
    return Text(source)


def text(source: str) -> Text:
    """The file's `Text`, made once."""
    return _text(source)


@lru_cache(maxsize=4)
def nested_imports(source: str) -> tuple[ast.Import | ast.ImportFrom, ...]:
    """The import statements inside other statements (functions, `if`, `try`, ...), in the
    order `ast.walk` of the whole tree finds them; only statements whose text says `import`
    are entered."""
    queue: deque[ast.AST] = deque()
    for statement in statements_naming(source, ("import",)):
        if not isinstance(statement, ast.Import | ast.ImportFrom):
            queue.append(statement)
    found: list[ast.Import | ast.ImportFrom] = []
    # NOTE: breadth first, as `ast.walk`.
    while queue:
        node = queue.popleft()
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        queue.extend(ast.iter_child_nodes(node))
    return tuple(found)


def imports(source: str) -> tuple[ast.Import | ast.ImportFrom, ...]:
    """Every import statement of the file, in the order `ast.walk` of the whole tree finds
    them: the top level's, then `nested_imports`."""
    top = tuple(node for node in tree(source).body if isinstance(node, ast.Import | ast.ImportFrom))
    return top + nested_imports(source)
