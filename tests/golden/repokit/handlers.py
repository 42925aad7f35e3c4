"""Repokit: options many commands share, given before the command or after it.

A Click group's options, a Typer callback's, argparse's `parents=`: declared once as an
alias, listed in `options=` of the program or of a group, taken by each of its commands.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from burgee import Argument, Option, command, group, program

Quiet = Annotated[bool, Option("-q", help="Say nothing but the answer.")]
Verbose = Annotated[int, Option("-v", count=True, help="Say more (repeat for more).")]
RepoHome = Annotated[str, Option("--repo-home", "-H", help="Where repositories live.")]
DryRun = Annotated[bool, Option(help="Show what would change, change nothing.")]


def remotes(partial: str) -> list[str]:
    """The remotes `-r` completes to."""
    return ["origin", "upstream"]


Remote = Annotated[str, Option("-r", help="The remote to use.", complete=remotes)]

program(name="repokit", env_prefix="REPOKIT", options=[Quiet, RepoHome])
remote = group("remote", help="Manage remotes.", options=[Remote, DryRun, Verbose])


@command(effects="read_only", examples=["repokit -q clone src dst", "repokit clone src -H /srv"])
def clone(
    src: Annotated[str, Argument(help="What to clone.")],
    dst: Annotated[str, Argument(help="Where to put it.")] = ".",
    depth: int = 0,
    quiet: Quiet = False,
    repo_home: RepoHome = "~/repos",
) -> dict[str, Any]:
    """Clone a repository."""
    return {"src": src, "dst": dst, "depth": depth, "quiet": quiet, "repo_home": repo_home}


@command(effects="read_only")
def status(
    paths: Annotated[list[str], Argument(help="Limit to these paths.")] = [],
    quiet: Quiet = False,
    repo_home: RepoHome = "~/repos",
) -> dict[str, Any]:
    """Show the working tree's status."""
    return {"paths": paths, "quiet": quiet, "repo_home": repo_home}


@remote.command(effects="idempotent", examples=["repokit remote -v -r origin add https://x"])
def add(
    url: Annotated[str, Argument(help="The remote's URL.")],
    remote: Remote = "origin",
    dry_run: DryRun = False,
    verbose: Verbose = 0,
    quiet: Quiet = False,
    repo_home: RepoHome = "~/repos",
    mode: Literal["fetch", "push", "both"] = "both",
) -> dict[str, Any]:
    """Add a remote."""
    return {
        "url": url,
        "remote": remote,
        "dry_run": dry_run,
        "verbose": verbose,
        "quiet": quiet,
        "repo_home": repo_home,
        "mode": mode,
    }


@remote.command(effects="destructive", confirm=False)
def prune(
    remote: Remote = "origin",
    dry_run: DryRun = False,
    verbose: Verbose = 0,
    quiet: Quiet = False,
    repo_home: RepoHome = "~/repos",
) -> dict[str, Any]:
    """Delete the branches a remote no longer has."""
    return {
        "remote": remote,
        "dry_run": dry_run,
        "verbose": verbose,
        "quiet": quiet,
        "repo_home": repo_home,
    }
