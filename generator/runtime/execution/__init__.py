"""The runtime's execution modules (see docs/architecture.md)."""
