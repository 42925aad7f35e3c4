"""Settings: env vars, a config file, pyproject.toml, a secret, bounds and action_required."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

import burgee
from burgee import Context, Option, group

burgee.program(name="settings", version="0.3.0", env_prefix="SETTINGS", config=True)


class Refused(burgee.CommandError):
    """The server refused the connection."""

    kind = "refused"
    exit_code = 5
    retryable = True


@dataclass
class Connection:
    """Where `connect` would connect, and how."""

    host: str
    port: int
    mode: str
    retries: int
    verbose: bool
    tags: list[str]
    authenticated: bool
    ratio: float


@burgee.command(effects="read_only", examples=["settings connect --host example.org --port 443"])
def connect(
    host: str = "localhost",
    port: Annotated[int, Option("-p", help="The TCP port", min=1, max=65535)] = 8080,
    token: Annotated[str | None, Option(help="The API token", secret=True)] = None,
    mode: Literal["fast", "safe"] = "safe",
    retries: Annotated[int, Option(env="RETRIES", min=0)] = 3,
    verbose: Annotated[bool, Option(env=False)] = False,
    tag: list[str] = [],
    ratio: Annotated[float, Option(min=0.0, max=1.0)] = 0.5,
) -> Connection:
    """Say where it would connect; nothing is contacted.

    Args:
        host: The server's host name.
        mode: How careful to be.
        retries: How often to retry (env RETRIES).
        verbose: Talk more (never from the environment).
        tag: Tags to send; repeat for more.
        ratio: A fraction between 0 and 1.
    """
    if host == "refuse":
        raise Refused(f"{host} refused the connection")
    return Connection(
        host=host, port=port, mode=mode, retries=retries, verbose=verbose, tags=tag,
        authenticated=token is not None, ratio=ratio,
    )


@burgee.command(effects="idempotent", examples=["settings apply --yes"])
def apply(yes: bool = False, ctx: Context = None) -> dict[str, Any]:
    """Apply the settings; asks first, or stops when nobody can answer.

    Args:
        yes: Apply without asking.
    """
    if not yes and not ctx.interactive:
        ctx.action_required(
            reason="confirm",
            message="applying the settings needs confirmation",
            next=[{"command": "apply --yes", "when": "once you have reviewed them"}],
        )
    return {"changed": True, "interactive": ctx.interactive, "agent": ctx.agent}


remote = group("remote", help="The remote end.")


@remote.command(effects="read_only")
def show(name: str = "origin") -> str:
    """Show one remote by name.

    Args:
        name: The remote's name.
    """
    return f"remote {name}"


@remote.command(effects="withheld")
def forget(name: str) -> None:
    """Forget a remote (people only)."""
