"""The runtime's answers modules (see docs/architecture.md)."""
