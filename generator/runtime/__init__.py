"""The generated tool's runtime: ordinary modules that `burgee gen` joins into each tool.

Each module here is stdlib-only Python >= 3.9, linted, type-checked and unit-tested like the
rest of burgee. `burgee.render.join` copies the definitions a program uses into its one
generated file (`catalog` lists the modules and their order). Two modules are never copied:
`program` holds stand-ins for the names each generated file defines, and `catalog` is the
generator's view of the others.
"""
