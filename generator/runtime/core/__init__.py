"""The runtime's core modules: what every other part shares (see docs/architecture.md)."""
