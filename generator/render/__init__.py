"""Render: the IR into the generated module and completion scripts, with one Jinja environment."""
