"""Allow `python -m burgee`."""

from burgee.cli import command

raise SystemExit(command())
