"""sqlite-utils 3.39 (https://github.com/simonw/sqlite-utils), ported: a Click group with many
commands, one of them (`query`) the default.

45 of its 46 commands, each with every option and argument it has, in sqlite-utils' order;
`query` is the root command (`sqlite-utils data.db "select 1"` runs it, as Click's
DefaultGroup does). Each handler returns what it was given, so `--json` shows the parsed values
that tests/test_ported.py compares with sqlite-utils' own Click parser. Every command is
`idempotent`: none asks first, as none of sqlite-utils' does. Left out: `schema`, a command the
generated tool keeps for itself. `memory`'s `[PATHS]...` before `SQL` takes one path or more
here: burgee refuses a default on a list argument that is not the last.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from burgee import Argument, Option, command, program

program(
    name="sqlite-utils",
    version="3.39.1",
    description="Commands for interacting with a SQLite database",
)


@command(effects="idempotent")
def tables(
    path: Annotated[Path, Argument(exists=True, dir_okay=False)],
    fts4: Annotated[bool, Option(off=False, help="Just show FTS4 enabled tables")] = False,
    fts5: Annotated[bool, Option(off=False, help="Just show FTS5 enabled tables")] = False,
    counts: Annotated[bool, Option(off=False, help="Include row counts per table")] = False,
    nl: Annotated[bool, Option(off=False, help="Output newline-delimited JSON")] = False,
    arrays: Annotated[
        bool, Option(off=False, help="Output rows as arrays instead of objects")
    ] = False,
    csv: Annotated[bool, Option(off=False, help="Output CSV")] = False,
    tsv: Annotated[bool, Option(off=False, help="Output TSV")] = False,
    no_headers: Annotated[bool, Option(help="Omit CSV headers")] = False,
    table: Annotated[bool, Option("-t", off=False, help="Output as a formatted table")] = False,
    fmt: Annotated[
        str | None,
        Option(help="Table format (asciidoc, github, grid, pipe, plain, psql, rst, simple, ...)"),
    ] = None,
    json_cols: Annotated[
        bool,
        Option(off=False, help="Detect JSON cols and output them as JSON, not escaped strings"),
    ] = False,
    columns: Annotated[
        bool, Option(off=False, help="Include list of columns for each table")
    ] = False,
    schema: Annotated[
        bool, Option(off=False, shadows=True, help="Include schema for each table")
    ] = False,
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """List the tables in the database."""
    return dict(locals())


@command(effects="idempotent")
def views(
    path: Annotated[Path, Argument(exists=True, dir_okay=False)],
    counts: Annotated[bool, Option(off=False, help="Include row counts per view")] = False,
    nl: Annotated[bool, Option(off=False, help="Output newline-delimited JSON")] = False,
    arrays: Annotated[
        bool, Option(off=False, help="Output rows as arrays instead of objects")
    ] = False,
    csv: Annotated[bool, Option(off=False, help="Output CSV")] = False,
    tsv: Annotated[bool, Option(off=False, help="Output TSV")] = False,
    no_headers: Annotated[bool, Option(help="Omit CSV headers")] = False,
    table: Annotated[bool, Option("-t", off=False, help="Output as a formatted table")] = False,
    fmt: Annotated[
        str | None,
        Option(help="Table format (asciidoc, github, grid, pipe, plain, psql, rst, simple, ...)"),
    ] = None,
    json_cols: Annotated[
        bool,
        Option(off=False, help="Detect JSON cols and output them as JSON, not escaped strings"),
    ] = False,
    columns: Annotated[
        bool, Option(off=False, help="Include list of columns for each view")
    ] = False,
    schema: Annotated[
        bool, Option(off=False, shadows=True, help="Include schema for each view")
    ] = False,
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """List the views in the database."""
    return dict(locals())


@command(effects="idempotent")
def optimize(
    path: Annotated[Path, Argument(exists=True, dir_okay=False)],
    tables: Annotated[list[str], Argument()] = [],
    no_vacuum: Annotated[bool, Option(help="Don't run VACUUM")] = False,
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Optimize all full-text search tables and then run VACUUM."""
    return dict(locals())


@command(effects="idempotent")
def rebuild_fts(
    path: Annotated[Path, Argument(exists=True, dir_okay=False)],
    tables: Annotated[list[str], Argument()] = [],
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Rebuild all or specific full-text search tables."""
    return dict(locals())


@command(effects="idempotent")
def analyze(
    path: Annotated[Path, Argument(exists=True, dir_okay=False)],
    names: Annotated[list[str], Argument()] = [],
) -> dict[str, Any]:
    """Run ANALYZE against the whole database, or against specific named indexes and tables."""
    return dict(locals())


@command(effects="idempotent")
def vacuum(
    path: Annotated[Path, Argument(exists=True, dir_okay=False)],
) -> dict[str, Any]:
    """Run VACUUM against the database."""
    return dict(locals())


@command(effects="idempotent")
def dump(
    path: Annotated[Path, Argument(exists=True, dir_okay=False)],
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Output a SQL dump of the schema and full contents of the database."""
    return dict(locals())


@command(effects="idempotent")
def add_column(
    path: Annotated[Path, Argument(exists=True, dir_okay=False)],
    table: Annotated[str, Argument()],
    col_name: Annotated[str, Argument()],
    col_type: Annotated[
        Literal["integer", "int", "float", "text", "str", "blob", "bytes"] | None,
        Argument(case_sensitive=False),
    ] = None,
    fk: Annotated[str | None, Option(help="Table to reference as a foreign key")] = None,
    fk_col: Annotated[
        str | None,
        Option(help="Referenced column on that foreign key table"),
    ] = None,
    not_null_default: Annotated[
        str | None, Option(help="Add NOT NULL DEFAULT 'TEXT' constraint")
    ] = None,
    ignore: Annotated[bool, Option(off=False, help="If column already exists, do nothing")] = False,
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Add a column to the specified table."""
    return dict(locals())


@command(effects="idempotent")
def add_foreign_key(
    path: Annotated[Path, Argument(exists=True, dir_okay=False)],
    table: Annotated[str, Argument()],
    column: Annotated[str, Argument()],
    other_table: Annotated[str | None, Argument()] = None,
    other_column: Annotated[str | None, Argument()] = None,
    ignore: Annotated[
        bool, Option(off=False, help="If foreign key already exists, do nothing")
    ] = False,
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Add a new foreign key constraint to an existing table."""
    return dict(locals())


@command(effects="idempotent")
def add_foreign_keys(
    path: Annotated[Path, Argument(exists=True, dir_okay=False)],
    foreign_key: Annotated[list[str], Argument()] = [],
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Add multiple new foreign key constraints to a database."""
    return dict(locals())


@command(effects="idempotent")
def index_foreign_keys(
    path: Annotated[Path, Argument(exists=True, dir_okay=False)],
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Ensure every foreign key column has an index on it."""
    return dict(locals())


@command(effects="idempotent")
def create_index(
    path: Annotated[Path, Argument(exists=True, dir_okay=False)],
    table: Annotated[str, Argument()],
    column: Annotated[list[str], Argument()],
    name: Annotated[str | None, Option(help="Explicit name for the new index")] = None,
    unique: Annotated[bool, Option(off=False, help="Make this a unique index")] = False,
    if_not_exists: Annotated[
        bool,
        Option("--if-not-exists", "--ignore", off=False, help="Ignore if index already exists"),
    ] = False,
    analyze: Annotated[
        bool, Option(off=False, help="Run ANALYZE after creating the index")
    ] = False,
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Add an index to the specified table for the specified columns."""
    return dict(locals())


@command(effects="idempotent")
def enable_fts(
    path: Annotated[Path, Argument(exists=True, dir_okay=False)],
    table: Annotated[str, Argument()],
    column: Annotated[list[str], Argument()],
    fts4: Annotated[bool, Option(off=False, help="Use FTS4")] = False,
    fts5: Annotated[bool, Option(off=False, help="Use FTS5")] = False,
    tokenize: Annotated[str | None, Option(help="Tokenizer to use, e.g")] = None,
    create_triggers: Annotated[
        bool,
        Option(
            off=False, help="Create triggers to update the FTS tables when the parent table changes"
        ),
    ] = False,
    replace: Annotated[
        bool, Option(off=False, help="Replace existing FTS configuration if it exists")
    ] = False,
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Enable full-text search for specific table and columns."""
    return dict(locals())


@command(effects="idempotent")
def populate_fts(
    path: Annotated[Path, Argument(exists=True, dir_okay=False)],
    table: Annotated[str, Argument()],
    column: Annotated[list[str], Argument()],
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Re-populate full-text search for specific table and columns."""
    return dict(locals())


@command(effects="idempotent")
def disable_fts(
    path: Annotated[Path, Argument(exists=True, dir_okay=False)],
    table: Annotated[str, Argument()],
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Disable full-text search for specific table."""
    return dict(locals())


@command(effects="idempotent")
def enable_wal(
    path: Annotated[list[Path], Argument(exists=True, dir_okay=False)],
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Enable WAL for database files."""
    return dict(locals())


@command(effects="idempotent")
def disable_wal(
    path: Annotated[list[Path], Argument(exists=True, dir_okay=False)],
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Disable WAL for database files."""
    return dict(locals())


@command(effects="idempotent")
def enable_counts(
    path: Annotated[Path, Argument(exists=True, dir_okay=False)],
    tables: Annotated[list[str], Argument()] = [],
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Configure triggers to update a _counts table with row counts."""
    return dict(locals())


@command(effects="idempotent")
def reset_counts(
    path: Annotated[Path, Argument(exists=True, dir_okay=False)],
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Reset calculated counts in the _counts table."""
    return dict(locals())


@command(effects="idempotent")
def insert(
    path: Annotated[Path, Argument(dir_okay=False)],
    table: Annotated[str, Argument()],
    file: Annotated[Path, Argument()],
    pk: Annotated[list[str], Option(help="Columns to use as the primary key, e.g")] = [],
    flatten: Annotated[
        bool,
        Option(
            off=False, help="Flatten nested JSON objects, so {'a': {'b': 1}} becomes {'a_b': 1}"
        ),
    ] = False,
    nl: Annotated[bool, Option(off=False, help="Expect newline-delimited JSON")] = False,
    csv: Annotated[bool, Option("-c", off=False, help="Expect CSV input")] = False,
    tsv: Annotated[bool, Option(off=False, help="Expect TSV input")] = False,
    empty_null: Annotated[bool, Option(off=False, help="Treat empty strings as NULL")] = False,
    lines: Annotated[
        bool, Option(off=False, help="Treat each line as a single value called 'line'")
    ] = False,
    text: Annotated[
        bool, Option(off=False, help="Treat input as a single value called 'text'")
    ] = False,
    convert: Annotated[str | None, Option(help="Python code to convert each item")] = None,
    imports: Annotated[list[str], Option("--import", help="Python modules to import")] = [],
    delimiter: Annotated[str | None, Option(help="Delimiter to use for CSV files")] = None,
    quotechar: Annotated[str | None, Option(help="Quote character to use for CSV/TSV")] = None,
    sniff: Annotated[bool, Option(off=False, help="Detect delimiter and quote character")] = False,
    no_headers: Annotated[bool, Option(help="CSV file has no header row")] = False,
    encoding: Annotated[
        str | None, Option(help="Character encoding for input, defaults to utf-8")
    ] = None,
    batch_size: Annotated[int, Option(help="Commit every X records")] = 100,
    stop_after: Annotated[int | None, Option(help="Stop after X records")] = None,
    alter: Annotated[
        bool, Option(off=False, help="Alter existing table to add any missing columns")
    ] = False,
    not_null: Annotated[list[str], Option(help="Columns that should be created as NOT NULL")] = [],
    default: Annotated[
        list[tuple[str, str]], Option(help="Default value that should be set for a column")
    ] = [],
    detect_types: Annotated[
        bool,
        Option(
            "-d",
            off=False,
            env="SQLITE_UTILS_DETECT_TYPES",
            help="Detect types for columns in CSV/TSV data",
        ),
    ] = False,
    analyze: Annotated[
        bool, Option(off=False, help="Run ANALYZE at the end of this operation")
    ] = False,
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
    silent: Annotated[bool, Option(off=False, help="Do not show progress bar")] = False,
    strict: Annotated[bool, Option(off=False, help="Apply STRICT mode to created table")] = False,
    ignore: Annotated[bool, Option(off=False, help="Ignore records if pk already exists")] = False,
    replace: Annotated[
        bool, Option(off=False, help="Replace records if pk already exists")
    ] = False,
    truncate: Annotated[
        bool,
        Option(off=False, help="Truncate table before inserting records, if table already exists"),
    ] = False,
) -> dict[str, Any]:
    """Insert records from FILE into a table, creating the table if it does not already exist."""
    return dict(locals())


@command(effects="idempotent")
def upsert(
    path: Annotated[Path, Argument(dir_okay=False)],
    table: Annotated[str, Argument()],
    file: Annotated[Path, Argument()],
    flatten: Annotated[
        bool,
        Option(
            off=False, help="Flatten nested JSON objects, so {'a': {'b': 1}} becomes {'a_b': 1}"
        ),
    ] = False,
    nl: Annotated[bool, Option(off=False, help="Expect newline-delimited JSON")] = False,
    csv: Annotated[bool, Option("-c", off=False, help="Expect CSV input")] = False,
    tsv: Annotated[bool, Option(off=False, help="Expect TSV input")] = False,
    empty_null: Annotated[bool, Option(off=False, help="Treat empty strings as NULL")] = False,
    lines: Annotated[
        bool, Option(off=False, help="Treat each line as a single value called 'line'")
    ] = False,
    text: Annotated[
        bool, Option(off=False, help="Treat input as a single value called 'text'")
    ] = False,
    convert: Annotated[str | None, Option(help="Python code to convert each item")] = None,
    imports: Annotated[list[str], Option("--import", help="Python modules to import")] = [],
    delimiter: Annotated[str | None, Option(help="Delimiter to use for CSV files")] = None,
    quotechar: Annotated[str | None, Option(help="Quote character to use for CSV/TSV")] = None,
    sniff: Annotated[bool, Option(off=False, help="Detect delimiter and quote character")] = False,
    no_headers: Annotated[bool, Option(help="CSV file has no header row")] = False,
    encoding: Annotated[
        str | None, Option(help="Character encoding for input, defaults to utf-8")
    ] = None,
    batch_size: Annotated[int, Option(help="Commit every X records")] = 100,
    stop_after: Annotated[int | None, Option(help="Stop after X records")] = None,
    alter: Annotated[
        bool, Option(off=False, help="Alter existing table to add any missing columns")
    ] = False,
    not_null: Annotated[list[str], Option(help="Columns that should be created as NOT NULL")] = [],
    default: Annotated[
        list[tuple[str, str]], Option(help="Default value that should be set for a column")
    ] = [],
    detect_types: Annotated[
        bool,
        Option(
            "-d",
            off=False,
            env="SQLITE_UTILS_DETECT_TYPES",
            help="Detect types for columns in CSV/TSV data",
        ),
    ] = False,
    analyze: Annotated[
        bool, Option(off=False, help="Run ANALYZE at the end of this operation")
    ] = False,
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
    silent: Annotated[bool, Option(off=False, help="Do not show progress bar")] = False,
    strict: Annotated[bool, Option(off=False, help="Apply STRICT mode to created table")] = False,
    *,
    pk: Annotated[list[str], Option(help="Columns to use as the primary key, e.g")],
) -> dict[str, Any]:
    """Upsert records based on their primary key."""
    return dict(locals())


@command(effects="idempotent")
def bulk(
    path: Annotated[Path, Argument(dir_okay=False)],
    sql: Annotated[str, Argument()],
    file: Annotated[Path, Argument()],
    batch_size: Annotated[int, Option(help="Commit every X records")] = 100,
    functions: Annotated[
        list[str], Option(help="Python code or file path defining custom SQL functions")
    ] = [],
    flatten: Annotated[
        bool,
        Option(
            off=False, help="Flatten nested JSON objects, so {'a': {'b': 1}} becomes {'a_b': 1}"
        ),
    ] = False,
    nl: Annotated[bool, Option(off=False, help="Expect newline-delimited JSON")] = False,
    csv: Annotated[bool, Option("-c", off=False, help="Expect CSV input")] = False,
    tsv: Annotated[bool, Option(off=False, help="Expect TSV input")] = False,
    empty_null: Annotated[bool, Option(off=False, help="Treat empty strings as NULL")] = False,
    lines: Annotated[
        bool, Option(off=False, help="Treat each line as a single value called 'line'")
    ] = False,
    text: Annotated[
        bool, Option(off=False, help="Treat input as a single value called 'text'")
    ] = False,
    convert: Annotated[str | None, Option(help="Python code to convert each item")] = None,
    imports: Annotated[list[str], Option("--import", help="Python modules to import")] = [],
    delimiter: Annotated[str | None, Option(help="Delimiter to use for CSV files")] = None,
    quotechar: Annotated[str | None, Option(help="Quote character to use for CSV/TSV")] = None,
    sniff: Annotated[bool, Option(off=False, help="Detect delimiter and quote character")] = False,
    no_headers: Annotated[bool, Option(help="CSV file has no header row")] = False,
    encoding: Annotated[
        str | None, Option(help="Character encoding for input, defaults to utf-8")
    ] = None,
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Execute parameterized SQL against the provided list of documents."""
    return dict(locals())


@command(effects="idempotent")
def create_database(
    path: Annotated[Path, Argument(dir_okay=False)],
    enable_wal: Annotated[
        bool, Option(off=False, help="Enable WAL mode on the created database")
    ] = False,
    init_spatialite: Annotated[
        bool, Option(off=False, help="Enable SpatiaLite on the created database")
    ] = False,
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Create a new empty database file."""
    return dict(locals())


@command(effects="idempotent")
def create_table(
    path: Annotated[Path, Argument(dir_okay=False)],
    table: Annotated[str, Argument()],
    columns: Annotated[list[str], Argument()],
    pks: Annotated[list[str], Option("--pk", help="Column to use as primary key")] = [],
    not_null: Annotated[list[str], Option(help="Columns that should be created as NOT NULL")] = [],
    default: Annotated[
        list[tuple[str, str]], Option(help="Default value that should be set for a column")
    ] = [],
    fk: Annotated[
        list[tuple[str, str, str]],
        Option(help="Column, other table, other column to set as a foreign key"),
    ] = [],
    ignore: Annotated[bool, Option(off=False, help="If table already exists, do nothing")] = False,
    replace: Annotated[bool, Option(off=False, help="If table already exists, replace it")] = False,
    transform: Annotated[
        bool, Option(off=False, help="If table already exists, try to transform the schema")
    ] = False,
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
    strict: Annotated[bool, Option(off=False, help="Apply STRICT mode to created table")] = False,
) -> dict[str, Any]:
    """Add a table with the specified columns."""
    return dict(locals())


@command(effects="idempotent")
def duplicate(
    path: Annotated[Path, Argument(dir_okay=False)],
    table: Annotated[str, Argument()],
    new_table: Annotated[str, Argument()],
    ignore: Annotated[bool, Option(off=False, help="If table does not exist, do nothing")] = False,
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Create a duplicate of this table, copying across the schema and all row data."""
    return dict(locals())


@command(effects="idempotent")
def rename_table(
    path: Annotated[Path, Argument(dir_okay=False)],
    table: Annotated[str, Argument()],
    new_name: Annotated[str, Argument()],
    ignore: Annotated[bool, Option(off=False, help="If table does not exist, do nothing")] = False,
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Rename this table."""
    return dict(locals())


@command(effects="idempotent")
def drop_table(
    path: Annotated[Path, Argument(dir_okay=False)],
    table: Annotated[str, Argument()],
    ignore: Annotated[bool, Option(off=False, help="If table does not exist, do nothing")] = False,
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Drop the specified table."""
    return dict(locals())


@command(effects="idempotent")
def create_view(
    path: Annotated[Path, Argument(dir_okay=False)],
    view: Annotated[str, Argument()],
    select: Annotated[str, Argument()],
    ignore: Annotated[bool, Option(off=False, help="If view already exists, do nothing")] = False,
    replace: Annotated[bool, Option(off=False, help="If view already exists, replace it")] = False,
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Create a view for the provided SELECT query."""
    return dict(locals())


@command(effects="idempotent")
def drop_view(
    path: Annotated[Path, Argument(dir_okay=False)],
    view: Annotated[str, Argument()],
    ignore: Annotated[bool, Option(off=False, help="If view does not exist, do nothing")] = False,
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Drop the specified view."""
    return dict(locals())


@command(effects="idempotent", root=True)
def query(
    path: Annotated[Path, Argument(dir_okay=False)],
    sql: Annotated[str, Argument()],
    attach: Annotated[
        list[tuple[str, Path]],
        Option(help="Additional databases to attach - specify alias and filepath"),
    ] = [],
    nl: Annotated[bool, Option(off=False, help="Output newline-delimited JSON")] = False,
    arrays: Annotated[
        bool, Option(off=False, help="Output rows as arrays instead of objects")
    ] = False,
    csv: Annotated[bool, Option(off=False, help="Output CSV")] = False,
    tsv: Annotated[bool, Option(off=False, help="Output TSV")] = False,
    no_headers: Annotated[bool, Option(help="Omit CSV headers")] = False,
    table: Annotated[bool, Option("-t", off=False, help="Output as a formatted table")] = False,
    fmt: Annotated[
        str | None,
        Option(help="Table format (asciidoc, github, grid, pipe, plain, psql, rst, simple, ...)"),
    ] = None,
    json_cols: Annotated[
        bool,
        Option(off=False, help="Detect JSON cols and output them as JSON, not escaped strings"),
    ] = False,
    raw: Annotated[
        bool, Option("-r", off=False, help="Raw output, first column of first row")
    ] = False,
    raw_lines: Annotated[
        bool, Option(off=False, help="Raw output, first column of each row")
    ] = False,
    param: Annotated[
        list[tuple[str, str]], Option("-p", help="Named :parameters for SQL query")
    ] = [],
    functions: Annotated[
        list[str], Option(help="Python code or file path defining custom SQL functions")
    ] = [],
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Execute SQL query and return the results as JSON."""
    return dict(locals())


@command(effects="idempotent")
def memory(
    paths: Annotated[list[Path], Argument(dir_okay=False)],
    sql: Annotated[str, Argument()],
    functions: Annotated[
        list[str], Option(help="Python code or file path defining custom SQL functions")
    ] = [],
    attach: Annotated[
        list[tuple[str, Path]],
        Option(help="Additional databases to attach - specify alias and filepath"),
    ] = [],
    flatten: Annotated[
        bool,
        Option(
            off=False, help="Flatten nested JSON objects, so {'a': {'b': 1}} becomes {'a_b': 1}"
        ),
    ] = False,
    nl: Annotated[bool, Option(off=False, help="Output newline-delimited JSON")] = False,
    arrays: Annotated[
        bool, Option(off=False, help="Output rows as arrays instead of objects")
    ] = False,
    csv: Annotated[bool, Option(off=False, help="Output CSV")] = False,
    tsv: Annotated[bool, Option(off=False, help="Output TSV")] = False,
    no_headers: Annotated[bool, Option(help="Omit CSV headers")] = False,
    table: Annotated[bool, Option("-t", off=False, help="Output as a formatted table")] = False,
    fmt: Annotated[
        str | None,
        Option(help="Table format (asciidoc, github, grid, pipe, plain, psql, rst, simple, ...)"),
    ] = None,
    json_cols: Annotated[
        bool,
        Option(off=False, help="Detect JSON cols and output them as JSON, not escaped strings"),
    ] = False,
    raw: Annotated[
        bool, Option("-r", off=False, help="Raw output, first column of first row")
    ] = False,
    raw_lines: Annotated[
        bool, Option(off=False, help="Raw output, first column of each row")
    ] = False,
    param: Annotated[
        list[tuple[str, str]], Option("-p", help="Named :parameters for SQL query")
    ] = [],
    encoding: Annotated[
        str | None, Option(help="Character encoding for CSV input, defaults to utf-8")
    ] = None,
    no_detect_types: Annotated[
        bool, Option("-n", help="Treat all CSV/TSV columns as TEXT")
    ] = False,
    schema: Annotated[
        bool, Option(off=False, shadows=True, help="Show SQL schema for in-memory database")
    ] = False,
    dump: Annotated[bool, Option(off=False, help="Dump SQL for in-memory database")] = False,
    save: Annotated[
        Path | None, Option(dir_okay=False, help="Save in-memory database to this file")
    ] = None,
    analyze: Annotated[
        bool, Option(off=False, help="Analyze resulting tables and output results")
    ] = False,
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Execute SQL query against an in-memory database, optionally populated by imported
    data."""
    return dict(locals())


@command(effects="idempotent")
def search(
    path: Annotated[Path, Argument(dir_okay=False)],
    dbtable: Annotated[str, Argument()],
    q: Annotated[str, Argument()],
    order: Annotated[
        str | None, Option("-o", shadows=True, help="Order by ('column' or 'column desc')")
    ] = None,
    column: Annotated[list[str], Option("-c", help="Columns to return")] = [],
    limit: Annotated[
        int | None, Option(help="Number of rows to return - defaults to everything")
    ] = None,
    show_sql: Annotated[
        bool, Option("--sql", off=False, help="Show SQL query that would be run")
    ] = False,
    quote: Annotated[
        bool, Option(off=False, help="Apply FTS quoting rules to search term")
    ] = False,
    nl: Annotated[bool, Option(off=False, help="Output newline-delimited JSON")] = False,
    arrays: Annotated[
        bool, Option(off=False, help="Output rows as arrays instead of objects")
    ] = False,
    csv: Annotated[bool, Option(off=False, help="Output CSV")] = False,
    tsv: Annotated[bool, Option(off=False, help="Output TSV")] = False,
    no_headers: Annotated[bool, Option(help="Omit CSV headers")] = False,
    table: Annotated[bool, Option("-t", off=False, help="Output as a formatted table")] = False,
    fmt: Annotated[
        str | None,
        Option(help="Table format (asciidoc, github, grid, pipe, plain, psql, rst, simple, ...)"),
    ] = None,
    json_cols: Annotated[
        bool,
        Option(off=False, help="Detect JSON cols and output them as JSON, not escaped strings"),
    ] = False,
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Execute a full-text search against this table."""
    return dict(locals())


@command(effects="idempotent")
def rows(
    path: Annotated[Path, Argument(dir_okay=False)],
    dbtable: Annotated[str, Argument()],
    column: Annotated[list[str], Option("-c", help="Columns to return")] = [],
    where: Annotated[str | None, Option(help="Optional where clause")] = None,
    order: Annotated[
        str | None, Option("-o", shadows=True, help="Order by ('column' or 'column desc')")
    ] = None,
    param: Annotated[
        list[tuple[str, str]], Option("-p", help="Named :parameters for where clause")
    ] = [],
    limit: Annotated[
        int | None, Option(help="Number of rows to return - defaults to everything")
    ] = None,
    offset: Annotated[int | None, Option(help="SQL offset to use")] = None,
    nl: Annotated[bool, Option(off=False, help="Output newline-delimited JSON")] = False,
    arrays: Annotated[
        bool, Option(off=False, help="Output rows as arrays instead of objects")
    ] = False,
    csv: Annotated[bool, Option(off=False, help="Output CSV")] = False,
    tsv: Annotated[bool, Option(off=False, help="Output TSV")] = False,
    no_headers: Annotated[bool, Option(help="Omit CSV headers")] = False,
    table: Annotated[bool, Option("-t", off=False, help="Output as a formatted table")] = False,
    fmt: Annotated[
        str | None,
        Option(help="Table format (asciidoc, github, grid, pipe, plain, psql, rst, simple, ...)"),
    ] = None,
    json_cols: Annotated[
        bool,
        Option(off=False, help="Detect JSON cols and output them as JSON, not escaped strings"),
    ] = False,
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Output all rows in the specified table."""
    return dict(locals())


@command(effects="idempotent")
def triggers(
    path: Annotated[Path, Argument(dir_okay=False)],
    tables: Annotated[list[str], Argument()] = [],
    nl: Annotated[bool, Option(off=False, help="Output newline-delimited JSON")] = False,
    arrays: Annotated[
        bool, Option(off=False, help="Output rows as arrays instead of objects")
    ] = False,
    csv: Annotated[bool, Option(off=False, help="Output CSV")] = False,
    tsv: Annotated[bool, Option(off=False, help="Output TSV")] = False,
    no_headers: Annotated[bool, Option(help="Omit CSV headers")] = False,
    table: Annotated[bool, Option("-t", off=False, help="Output as a formatted table")] = False,
    fmt: Annotated[
        str | None,
        Option(help="Table format (asciidoc, github, grid, pipe, plain, psql, rst, simple, ...)"),
    ] = None,
    json_cols: Annotated[
        bool,
        Option(off=False, help="Detect JSON cols and output them as JSON, not escaped strings"),
    ] = False,
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Show triggers configured in this database."""
    return dict(locals())


@command(effects="idempotent")
def indexes(
    path: Annotated[Path, Argument(dir_okay=False)],
    tables: Annotated[list[str], Argument()] = [],
    aux: Annotated[bool, Option(off=False, help="Include auxiliary columns")] = False,
    nl: Annotated[bool, Option(off=False, help="Output newline-delimited JSON")] = False,
    arrays: Annotated[
        bool, Option(off=False, help="Output rows as arrays instead of objects")
    ] = False,
    csv: Annotated[bool, Option(off=False, help="Output CSV")] = False,
    tsv: Annotated[bool, Option(off=False, help="Output TSV")] = False,
    no_headers: Annotated[bool, Option(help="Omit CSV headers")] = False,
    table: Annotated[bool, Option("-t", off=False, help="Output as a formatted table")] = False,
    fmt: Annotated[
        str | None,
        Option(help="Table format (asciidoc, github, grid, pipe, plain, psql, rst, simple, ...)"),
    ] = None,
    json_cols: Annotated[
        bool,
        Option(off=False, help="Detect JSON cols and output them as JSON, not escaped strings"),
    ] = False,
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Show indexes for the whole database or specific tables."""
    return dict(locals())


@command(effects="idempotent")
def transform(
    path: Annotated[Path, Argument(dir_okay=False)],
    table: Annotated[str, Argument()],
    type: Annotated[
        list[tuple[str, Literal["INTEGER", "TEXT", "FLOAT", "BLOB"]]],
        Option(help="Change column type to INTEGER, TEXT, FLOAT or BLOB", case_sensitive=False),
    ] = [],
    drop: Annotated[list[str], Option(help="Drop this column")] = [],
    rename: Annotated[list[tuple[str, str]], Option(help="Rename this column to X")] = [],
    column_order: Annotated[list[str], Option("-o", shadows=True, help="Reorder columns")] = [],
    not_null: Annotated[list[str], Option(help="Set this column to NOT NULL")] = [],
    not_null_false: Annotated[list[str], Option(help="Remove NOT NULL from this column")] = [],
    pk: Annotated[list[str], Option(help="Make this column the primary key")] = [],
    pk_none: Annotated[
        bool, Option(off=False, help="Remove primary key (convert to rowid table)")
    ] = False,
    default: Annotated[
        list[tuple[str, str]], Option(help="Set default value for this column")
    ] = [],
    default_none: Annotated[list[str], Option(help="Remove default from this column")] = [],
    add_foreign_keys: Annotated[
        list[tuple[str, str, str]],
        Option(
            "--add-foreign-key",
            help="Add a foreign key constraint from a column to another table with another column",
        ),
    ] = [],
    drop_foreign_keys: Annotated[
        list[str], Option("--drop-foreign-key", help="Drop foreign key constraint for this column")
    ] = [],
    sql: Annotated[bool, Option(off=False, help="Output SQL without executing it")] = False,
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Transform a table beyond the capabilities of ALTER TABLE."""
    return dict(locals())


@command(effects="idempotent")
def extract(
    path: Annotated[Path, Argument(dir_okay=False)],
    table: Annotated[str, Argument()],
    columns: Annotated[list[str], Argument()],
    other_table: Annotated[
        str | None, Option("--table", help="Name of the other table to extract columns to")
    ] = None,
    fk_column: Annotated[
        str | None, Option(help="Name of the foreign key column to add to the table")
    ] = None,
    rename: Annotated[
        list[tuple[str, str]], Option(help="Rename this column in extracted table")
    ] = [],
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Extract one or more columns into a separate table."""
    return dict(locals())


@command(effects="idempotent")
def insert_files(
    path: Annotated[Path, Argument(dir_okay=False)],
    table: Annotated[str, Argument()],
    file_or_dir: Annotated[list[Path], Argument()],
    column: Annotated[list[str], Option("-c", help="Column definitions for the table")] = [],
    pks: Annotated[list[str], Option("--pk", help="Column to use as primary key")] = [],
    alter: Annotated[bool, Option(off=False, help="Alter table to add missing columns")] = False,
    replace: Annotated[
        bool, Option(off=False, help="Replace files with matching primary key")
    ] = False,
    upsert: Annotated[
        bool, Option(off=False, help="Upsert files with matching primary key")
    ] = False,
    name: Annotated[str | None, Option(help="File name to use")] = None,
    text: Annotated[bool, Option(off=False, help="Store file content as TEXT, not BLOB")] = False,
    encoding: Annotated[
        str | None, Option(help="Character encoding for input, defaults to utf-8")
    ] = None,
    silent: Annotated[bool, Option("-s", off=False, help="Don't show a progress bar")] = False,
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Insert one or more files using BLOB columns in the specified table."""
    return dict(locals())


@command(effects="idempotent")
def analyze_tables(
    path: Annotated[Path, Argument(exists=True, dir_okay=False)],
    tables: Annotated[list[str], Argument()] = [],
    columns: Annotated[
        list[str], Option("--column", "-c", help="Specific columns to analyze")
    ] = [],
    save: Annotated[bool, Option(off=False, help="Save results to _analyze_tables table")] = False,
    common_limit: Annotated[int, Option(help="How many common values")] = 10,
    no_most: Annotated[bool, Option(help="Skip most common values")] = False,
    no_least: Annotated[bool, Option(help="Skip least common values")] = False,
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Analyze the columns in one or more tables."""
    return dict(locals())


@command(effects="idempotent")
def install(
    packages: Annotated[list[str], Argument()] = [],
    upgrade: Annotated[
        bool, Option("-U", off=False, help="Upgrade packages to latest version")
    ] = False,
    editable: Annotated[
        str | None, Option("-e", help="Install a project in editable mode from this path")
    ] = None,
) -> dict[str, Any]:
    """Install packages from PyPI into the same environment as sqlite-utils."""
    return dict(locals())


@command(effects="idempotent")
def uninstall(
    packages: Annotated[list[str], Argument()],
    yes: Annotated[bool, Option("-y", off=False, help="Don't ask for confirmation")] = False,
) -> dict[str, Any]:
    """Uninstall Python packages from the sqlite-utils environment."""
    return dict(locals())


@command(effects="idempotent")
def convert(
    db_path: Annotated[Path, Argument(dir_okay=False)],
    table: Annotated[str, Argument()],
    columns: Annotated[list[str], Argument()],
    code: Annotated[str, Argument()],
    imports: Annotated[list[str], Option("--import", help="Python modules to import")] = [],
    dry_run: Annotated[
        bool, Option(off=False, help="Show results of running this against first 10 rows")
    ] = False,
    multi: Annotated[
        bool, Option(off=False, help="Populate columns for keys in returned dictionary")
    ] = False,
    where: Annotated[str | None, Option(help="Optional where clause")] = None,
    param: Annotated[
        list[tuple[str, str]], Option("-p", help="Named :parameters for where clause")
    ] = [],
    output: Annotated[
        str | None,
        Option(shadows=True, help="Optional separate column to populate with the output"),
    ] = None,
    output_type: Annotated[
        Literal["integer", "float", "blob", "text"],
        Option(help="Column type to use for the output column"),
    ] = "text",
    drop: Annotated[bool, Option(off=False, help="Drop original column afterwards")] = False,
    no_skip_false: Annotated[bool, Option(help="Don't skip falsey values")] = False,
    silent: Annotated[bool, Option("-s", off=False, help="Don't show a progress bar")] = False,
    pdb_: Annotated[
        bool, Option("--pdb", off=False, help="Open pdb debugger on first error")
    ] = False,
) -> dict[str, Any]:
    """Convert columns using Python code you supply."""
    return dict(locals())


@command(effects="idempotent")
def add_geometry_column(
    db_path: Annotated[Path, Argument(dir_okay=False)],
    table: Annotated[str, Argument()],
    column_name: Annotated[str, Argument()],
    geometry_type: Annotated[
        Literal[
            "POINT",
            "LINESTRING",
            "POLYGON",
            "MULTIPOINT",
            "MULTILINESTRING",
            "MULTIPOLYGON",
            "GEOMETRYCOLLECTION",
            "GEOMETRY",
        ],
        Option(
            "--type", "-t", help="Specify a geometry type for this column", case_sensitive=False
        ),
    ] = "GEOMETRY",
    srid: Annotated[int, Option(help="Spatial Reference ID")] = 4326,
    coord_dimension: Annotated[str, Option("--dimensions", help="Coordinate dimensions")] = "XY",
    not_null: Annotated[bool, Option(off=False, help="Add a NOT NULL constraint")] = False,
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Add a SpatiaLite geometry column to an existing table."""
    return dict(locals())


@command(effects="idempotent")
def create_spatial_index(
    db_path: Annotated[Path, Argument(dir_okay=False)],
    table: Annotated[str, Argument()],
    column_name: Annotated[str, Argument()],
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Create a spatial index on a SpatiaLite geometry column."""
    return dict(locals())


@command(effects="idempotent", name="plugins")
def plugins_list() -> dict[str, Any]:
    """List installed plugins."""
    return dict(locals())
