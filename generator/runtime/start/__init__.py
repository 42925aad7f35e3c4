"""The runtime's start modules (see docs/architecture.md)."""
