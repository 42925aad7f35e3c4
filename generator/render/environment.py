"""The Jinja environment that renders every template (the generated module)."""

from __future__ import annotations

import jinja2


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    """Compiled templates kept between runs (Jinja's private per-user temp directory):
    compiling the templates was a third of a small `burgee gen`."""
    try:
        return jinja2.FileSystemBytecodeCache()
    except (OSError, RuntimeError):
        return None  # NOTE: no usable temp directory: compile every time, as before


#: The one Jinja environment: `cli/` holds the generated module.
ENVIRONMENT = jinja2.Environment(
    loader=jinja2.PackageLoader("burgee.templates", ""),
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
    autoescape=False,
    # NOTE: comments use another spelling than `{#`, which Python and shell code may contain.
    comment_start_string="<#--",
    comment_end_string="--#>",
    bytecode_cache=_bytecode_cache(),
)
