"""Read: libcst walks the handlers file (never importing it) into the IR, or diagnostics."""
