"""twine 6 (https://github.com/pypa/twine), ported: argparse subcommands.

`twine upload`, `twine check` and `twine register`, each with every argument its own parser
has. twine's settings (`-r`, `-u`, `-p`, ... from `Settings.register_argparse_arguments`) are
written out on `upload` and `register` alike; twine's `--no-color`, which its top-level parser
takes before the command, is a shared option (`program(options=[NoColor])`). Each handler
returns what it was given, so `--json` shows the parsed values that tests/test_ported.py
compares with twine's own argparse parsers.
"""

from __future__ import annotations

from typing import Annotated, Any

from burgee import Argument, Option, command, program

NoColor = Annotated[bool, Option(off=False, help="Disable colored output.")]

program(
    name="twine",
    version="6.2.0",
    description="Collection of utilities for publishing packages on PyPI",
    options=[NoColor],
)


@command(effects="non_idempotent")
def upload(
    dists: Annotated[list[str], Argument(metavar="dist", help="The distribution files to upload.")],
    repository: Annotated[
        str,
        Option("-r", env="TWINE_REPOSITORY", help="The repository (package index) to upload to."),
    ] = "pypi",
    repository_url: Annotated[
        str | None,
        Option(env="TWINE_REPOSITORY_URL", help="The repository URL; overrides --repository."),
    ] = None,
    attestations: Annotated[
        bool, Option(off=False, help="Upload each file's attestations.")
    ] = False,
    sign: Annotated[bool, Option("-s", off=False, help="Sign files to upload using GPG.")] = False,
    sign_with: Annotated[str, Option(help="GPG program used to sign uploads.")] = "gpg",
    identity: Annotated[str | None, Option("-i", help="GPG identity used to sign files.")] = None,
    username: Annotated[
        str | None, Option("-u", env="TWINE_USERNAME", help="The username to authenticate as.")
    ] = None,
    password: Annotated[
        str | None, Option("-p", env="TWINE_PASSWORD", help="The password to authenticate with.")
    ] = None,
    non_interactive: Annotated[
        bool,
        Option(off=False, env="TWINE_NON_INTERACTIVE", help="Never prompt for credentials."),
    ] = False,
    comment: Annotated[
        str | None, Option("-c", help="The comment to include with the file.")
    ] = None,
    config_file: Annotated[str, Option(help="The .pypirc config file to use.")] = "~/.pypirc",
    skip_existing: Annotated[
        bool, Option(off=False, help="Continue uploading files if one already exists.")
    ] = False,
    cert: Annotated[
        str | None,
        Option(env="TWINE_CERT", metavar="path", help="Path to alternate CA bundle."),
    ] = None,
    client_cert: Annotated[
        str | None, Option(metavar="path", help="Path to SSL client certificate.")
    ] = None,
    verbose: Annotated[bool, Option(off=False, help="Show verbose output.")] = False,
    disable_progress_bar: Annotated[
        bool, Option(off=False, help="Disable the progress bar.")
    ] = False,
    no_color: NoColor = False,
) -> dict[str, Any]:
    """Upload distributions to a repository (package index)."""
    return dict(locals())


@command(effects="read_only")
def check(
    dists: Annotated[list[str], Argument(metavar="dist", help="The distribution files to check.")],
    strict: Annotated[bool, Option(off=False, help="Fail on warnings.")] = False,
    no_color: NoColor = False,
) -> dict[str, Any]:
    """Check that a distribution will render correctly on PyPI."""
    return dict(locals())


@command(effects="non_idempotent")
def register(
    package: Annotated[str, Argument(metavar="package", help="The file to read metadata from.")],
    repository: Annotated[
        str,
        Option("-r", env="TWINE_REPOSITORY", help="The repository (package index) to upload to."),
    ] = "pypi",
    repository_url: Annotated[
        str | None,
        Option(env="TWINE_REPOSITORY_URL", help="The repository URL; overrides --repository."),
    ] = None,
    attestations: Annotated[
        bool, Option(off=False, help="Upload each file's attestations.")
    ] = False,
    sign: Annotated[bool, Option("-s", off=False, help="Sign files to upload using GPG.")] = False,
    sign_with: Annotated[str, Option(help="GPG program used to sign uploads.")] = "gpg",
    identity: Annotated[str | None, Option("-i", help="GPG identity used to sign files.")] = None,
    username: Annotated[
        str | None, Option("-u", env="TWINE_USERNAME", help="The username to authenticate as.")
    ] = None,
    password: Annotated[
        str | None, Option("-p", env="TWINE_PASSWORD", help="The password to authenticate with.")
    ] = None,
    non_interactive: Annotated[
        bool,
        Option(off=False, env="TWINE_NON_INTERACTIVE", help="Never prompt for credentials."),
    ] = False,
    comment: Annotated[
        str | None, Option("-c", help="The comment to include with the file.")
    ] = None,
    config_file: Annotated[str, Option(help="The .pypirc config file to use.")] = "~/.pypirc",
    skip_existing: Annotated[
        bool, Option(off=False, help="Continue uploading files if one already exists.")
    ] = False,
    cert: Annotated[
        str | None,
        Option(env="TWINE_CERT", metavar="path", help="Path to alternate CA bundle."),
    ] = None,
    client_cert: Annotated[
        str | None, Option(metavar="path", help="Path to SSL client certificate.")
    ] = None,
    verbose: Annotated[bool, Option(off=False, help="Show verbose output.")] = False,
    disable_progress_bar: Annotated[
        bool, Option(off=False, help="Disable the progress bar.")
    ] = False,
    no_color: NoColor = False,
) -> dict[str, Any]:
    """Pre-register a name with a repository (not required with PyPI.org)."""
    return dict(locals())
