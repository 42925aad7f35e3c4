"""Describe: what the generated tool says about itself (schemas, --llms, SKILL.md, MCP tools)."""
