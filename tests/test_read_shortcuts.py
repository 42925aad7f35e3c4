"""The generator's shortcuts agree with what they stand in for: `plain_words` with `shlex`
(an example's words), `statements_naming` with the whole-word pattern it replaces."""

from __future__ import annotations

import random
import re
import shlex

import pytest

from burgee.describe.clispec import plain_words
from burgee.read.source import statements_naming, statements_with

#: Characters a shell reads specially, whitespace `shlex` does and does not split at, others.
ALPHABET = "ab -=_.,/:\t\r\n\x0b\x0c\xa0é'\"\\#;&|<>()*?~$`!{}[]"


def test_plain_words_are_shlex_words() -> None:
    rng = random.Random(34)
    plain = 0
    for _ in range(20000):
        line = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 12)))
        words = plain_words(line)
        if words is None:
            continue
        plain += 1
        lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        assert words == shlex.split(line) == list(lexer), repr(line)
    assert plain > 1000


@pytest.mark.parametrize(
    "line", ["tool greet 'Ada'", 'tool a "b c"', "tool a\\ b", "tool x # note", "tool a | jq ."]
)
def test_a_line_a_shell_reads_specially_is_left_to_shlex(line: str) -> None:
    assert plain_words(line) is None


SOURCE = '''"""Doc."""
import os

def read(): return 1

def read_only(): return os.read(0, 1)

X = read_only() + reader
def f():
    é_read = 1
    return é_read, _read, read2, xread
def g():
    return read, reader, os
'''


@pytest.mark.parametrize(
    "words", [("read",), ("os",), ("read", "reader"), ("é_read",), ("import",), ("missing",)]
)
@pytest.mark.parametrize("inside", [False, True])
def test_statements_naming_finds_what_the_whole_word_pattern_finds(
    words: tuple[str, ...], inside: bool
) -> None:
    pattern = r"\b(?:" + "|".join(re.escape(word) for word in words) + r")\b"
    expected = statements_with(SOURCE, pattern, inside=inside)
    assert statements_naming(SOURCE, words, inside=inside) == expected
    # NOTE: every word but the last two is in some statement's body.
    assert expected or words in (("import",), ("missing",))
