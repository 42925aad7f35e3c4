"""The runtime's mcpserver modules (see docs/architecture.md)."""
