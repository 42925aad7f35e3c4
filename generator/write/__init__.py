"""Write: the pipeline in one call, and the files `burgee gen` writes (atomically, or --check)."""
