"""Read: the handlers file's `ast` tree (never importing it) → the IR, or diagnostics."""
