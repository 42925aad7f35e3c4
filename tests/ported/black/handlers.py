"""black 25 (https://github.com/psf/black), ported: one Click command with many options.

Every option of `black --help` with its spellings, types and defaults; the handler returns what
it was given, so `--json` shows the parsed values that tests/test_ported.py compares with
black's own Click parser. Black's `--config` is a file of defaults; here it is only its path.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated, Any

from burgee import Argument, Option, command, program

program(name="black", version="25.12.0", description="The uncompromising code formatter.")


class TargetVersion(Enum):
    """A Python version Black's output supports."""

    PY33 = "py33"
    PY34 = "py34"
    PY35 = "py35"
    PY36 = "py36"
    PY37 = "py37"
    PY38 = "py38"
    PY39 = "py39"
    PY310 = "py310"
    PY311 = "py311"
    PY312 = "py312"
    PY313 = "py313"
    PY314 = "py314"


class UnstableFeature(Enum):
    """A feature of the unstable style."""

    STRING_PROCESSING = "string_processing"
    HUG_PARENS_WITH_BRACES_AND_SQUARE_BRACKETS = "hug_parens_with_braces_and_square_brackets"
    WRAP_LONG_DICT_VALUES_IN_PARENS = "wrap_long_dict_values_in_parens"
    MULTILINE_STRING_HANDLING = "multiline_string_handling"
    ALWAYS_ONE_NEWLINE_AFTER_IMPORT = "always_one_newline_after_import"
    FIX_FMT_SKIP_IN_ONE_LINERS = "fix_fmt_skip_in_one_liners"
    STANDARDIZE_TYPE_COMMENTS = "standardize_type_comments"
    WRAP_COMPREHENSION_IN = "wrap_comprehension_in"
    REMOVE_PARENS_AROUND_EXCEPT_TYPES = "remove_parens_around_except_types"
    NORMALIZE_CR_NEWLINES = "normalize_cr_newlines"
    FIX_MODULE_DOCSTRING_DETECTION = "fix_module_docstring_detection"
    FIX_TYPE_EXPANSION_SPLIT = "fix_type_expansion_split"
    REMOVE_PARENS_FROM_ASSIGNMENT_LHS = "remove_parens_from_assignment_lhs"


@command(effects="idempotent", root=True, examples=["black --check --diff -l 100 src"])
def format_(
    src: Annotated[list[Path], Argument(metavar="SRC", exists=True, allow_dash=True)] = [],
    code: Annotated[str | None, Option("-c", help="Format the code passed in as a string.")] = None,
    line_length: Annotated[int, Option("-l", help="How many characters per line to allow.")] = 88,
    target_version: Annotated[
        list[TargetVersion], Option("-t", help="Python versions that should be supported.")
    ] = [],
    pyi: Annotated[
        bool, Option(off=False, help="Format all input files like typing stubs.")
    ] = False,
    ipynb: Annotated[
        bool, Option(off=False, help="Format all input files like notebooks.")
    ] = False,
    python_cell_magics: Annotated[list[str], Option(help="Add a known python magic.")] = [],
    skip_source_first_line: Annotated[
        bool, Option("-x", off=False, help="Skip the first line of the source code.")
    ] = False,
    skip_string_normalization: Annotated[
        bool, Option("-S", off=False, help="Don't normalize string quotes or prefixes.")
    ] = False,
    skip_magic_trailing_comma: Annotated[
        bool, Option("-C", off=False, help="Don't use trailing commas as a reason to split lines.")
    ] = False,
    preview: Annotated[bool, Option(off=False, help="Enable the next year's style.")] = False,
    unstable: Annotated[bool, Option(off=False, help="Enable the unstable style.")] = False,
    enable_unstable_feature: Annotated[
        list[UnstableFeature], Option(help="Enable one feature of --unstable.")
    ] = [],
    check: Annotated[bool, Option(off=False, help="Don't write the files back.")] = False,
    diff: Annotated[bool, Option(off=False, help="Output a diff of the changes.")] = False,
    color: Annotated[bool, Option(help="Show (or do not show) colored diff.")] = False,
    line_ranges: Annotated[
        list[str], Option(metavar="START-END", help="Only format these lines.")
    ] = [],
    fast: Annotated[
        bool, Option("--fast", off="--safe", help="Skip (or run) the AST safety check.")
    ] = False,
    required_version: Annotated[str | None, Option(help="Require this version of Black.")] = None,
    exclude: Annotated[str | None, Option(help="A regex of paths to exclude.")] = None,
    extend_exclude: Annotated[str | None, Option(help="Like --exclude, added to it.")] = None,
    force_exclude: Annotated[str | None, Option(help="Like --exclude, even for args.")] = None,
    stdin_filename: Annotated[str | None, Option(help="The name of the file on stdin.")] = None,
    include: Annotated[str, Option(help="A regex of paths to include.")] = r"(\.pyi?|\.ipynb)$",
    workers: Annotated[int | None, Option("-W", min=1, help="Parallel workers.")] = None,
    quiet: Annotated[
        bool, Option("-q", off=False, help="Stop emitting non-critical output.")
    ] = False,
    verbose: Annotated[bool, Option("-v", off=False, help="Say more.")] = False,
    config: Annotated[
        Path | None,
        Option(help="Read options from a config file.", exists=True, dir_okay=False),
    ] = None,
    no_cache: Annotated[bool, Option(help="Skip reading and writing the cache.")] = False,
) -> dict[str, Any]:
    """Format Python source files (here: answer with the options given)."""
    return dict(locals())
