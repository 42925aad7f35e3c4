"""The runtime's commandline modules (see docs/architecture.md)."""
