"""sqlite-utils 3.39 (https://github.com/simonw/sqlite-utils), ported: a Click group with many
commands.

A representative 17 of its 46 commands, each with every option it has: `query` (the group's
default command, so `sqlite-utils data.db "select 1"` runs it: here the root command), the
readers (`tables`, `rows`, `search`), the writers (`insert`, `upsert`), the schema changers
(`create-table`, `create-index`, `enable-fts`, `add-column`, `drop-table`, `rename-table`,
`duplicate`, `transform`, `extract`) and the maintenance ones (`vacuum`, `optimize`). Each
handler returns what it was given, so `--json` shows the parsed values that
tests/test_ported.py compares with sqlite-utils' own Click parser. Left out: `schema`, a
command name the generated tool keeps for itself, and 28 others (`views`, `triggers`,
`indexes`, `bulk`, `memory`, `convert`, `insert-files`, the foreign-key, FTS-maintenance, WAL,
counts, spatial and plugin ones), which use no idiom these do not.
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


@command(effects="idempotent", root=True)
def query(
    path: Annotated[Path, Argument()],
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
def tables(
    path: Annotated[Path, Argument()],
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
def rows(
    path: Annotated[Path, Argument()],
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
def search(
    path: Annotated[Path, Argument()],
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
def insert(
    path: Annotated[Path, Argument()],
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
    """Insert records from FILE into a table, creating the table if it."""
    return dict(locals())


@command(effects="idempotent")
def upsert(
    path: Annotated[Path, Argument()],
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
    """Upsert records based on their primary key. Works like 'insert' but if."""
    return dict(locals())


@command(effects="idempotent")
def create_table(
    path: Annotated[Path, Argument()],
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
    """Add a table with the specified columns. Columns should be specified using."""
    return dict(locals())


@command(effects="idempotent")
def create_index(
    path: Annotated[Path, Argument()],
    table: Annotated[str, Argument()],
    column: Annotated[list[str], Argument()],
    name: Annotated[str | None, Option(help="Explicit name for the new index")] = None,
    unique: Annotated[bool, Option(off=False, help="Make this a unique index")] = False,
    if_not_exists: Annotated[
        bool, Option(off=False, help="Ignore if index already exists")
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
    path: Annotated[Path, Argument()],
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
def add_column(
    path: Annotated[Path, Argument()],
    table: Annotated[str, Argument()],
    col_name: Annotated[str, Argument()],
    col_type: Annotated[
        Literal["integer", "int", "float", "text", "str", "blob", "bytes"] | None, Argument()
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
def drop_table(
    path: Annotated[Path, Argument()],
    table: Annotated[str, Argument()],
    ignore: Annotated[bool, Option(off=False, help="If table does not exist, do nothing")] = False,
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Drop the specified table."""
    return dict(locals())


@command(effects="idempotent")
def rename_table(
    path: Annotated[Path, Argument()],
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
def duplicate(
    path: Annotated[Path, Argument()],
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
def transform(
    path: Annotated[Path, Argument()],
    table: Annotated[str, Argument()],
    type: Annotated[
        list[tuple[str, Literal["INTEGER", "TEXT", "FLOAT", "BLOB"]]],
        Option(help="Change column type to INTEGER, TEXT, FLOAT or BLOB"),
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
    path: Annotated[Path, Argument()],
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
def vacuum(
    path: Annotated[Path, Argument()],
) -> dict[str, Any]:
    """Run VACUUM against the database."""
    return dict(locals())


@command(effects="idempotent")
def optimize(
    path: Annotated[Path, Argument()],
    tables: Annotated[list[str], Argument()] = [],
    no_vacuum: Annotated[bool, Option(help="Don't run VACUUM")] = False,
    load_extension: Annotated[
        list[str], Option(help="Path to SQLite extension, with optional :entrypoint")
    ] = [],
) -> dict[str, Any]:
    """Optimize all full-text search tables and then run VACUUM."""
    return dict(locals())
