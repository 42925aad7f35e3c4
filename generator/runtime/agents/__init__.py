"""The runtime's agents modules (see docs/architecture.md)."""
