"""Model: the frozen pydantic IR and the leaf facts every stage shares."""
