"""One declaration orders the runtime: each runtime module's header says where it joins and
which section it (or a function of it) goes to; `catalog` derives the join order, the
sections and the stubs' order from those headers alone."""

from __future__ import annotations

import ast

import pytest

from burgee.runtime import catalog


def test_every_runtime_module_declares_its_place_exactly_once() -> None:
    declared = catalog.declarations()
    assert set(declared) == set(catalog._folders()) - {"catalog"}
    order = (catalog.BOOT, *catalog.HEAD, *catalog.TAIL)
    assert sorted(order) == sorted(declared), "each module joins exactly once"
    for place in ("head", "tail"):
        ranks = [d.rank for d in declared.values() if d.place == place]
        assert len(ranks) == len(set(ranks)), f"two {place} modules share a rank"


def test_a_second_or_missing_join_line_is_refused() -> None:
    with pytest.raises(ValueError, match="joins twice"):
        catalog._declared("x", "# burgee: joins tail 10\n# burgee: joins tail 20\n'''x'''\n")
    with pytest.raises(ValueError, match="no `# burgee: joins`"):
        catalog._declared("x", "# burgee: section agent\n'''x'''\n")
    with pytest.raises(ValueError, match="not understood"):
        catalog._declared("x", "# burgee: joins tail 10\n# burgee: sectoin agent\n'''x'''\n")


def test_the_sections_name_what_each_module_binds() -> None:
    """A renamed function must not silently drop out of its section or of `ALWAYS`."""
    for module, declared in catalog.declarations().items():
        bound = {n for c in catalog.parse(module)[0] for n in c.binds}
        assert set(declared.names) <= bound, module
        assert declared.always <= bound, module
        assert not declared.always or declared.section, module
    assert set(catalog.AFTER) <= set(catalog.SECTIONS.values())
    assert set(catalog.AFTER.values()) <= set(catalog.SECTIONS.values())
    boot = {n for c in catalog.parse(catalog.BOOT)[0] for n in c.binds}
    assert catalog.IN_THE_CODE and catalog.IN_THE_CODE <= boot
    assert not catalog.IN_THE_CODE & catalog.ON_A_MISS


def test_in_the_code_is_the_start_up_codes_alone() -> None:
    """`# burgee: in the code: ...` moves start-up code into the compiled-once code: only the
    start-up module can say it (any other's code is there already)."""
    found = catalog._declared("x", "# burgee: joins boot\n# burgee: in the code: a b\n'''x'''\n")
    assert found.in_the_code == {"a", "b"}
    with pytest.raises(ValueError, match="start-up code alone"):
        catalog._declared("x", "# burgee: joins tail 10\n# burgee: in the code: a\n'''x'''\n")


def _run_at_import(node: ast.stmt) -> list[ast.AST]:
    """The parts of a top-level statement Python runs when the module is run: not a
    function's body, nor (under `from __future__ import annotations`) an annotation."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        defaults = [d for d in node.args.kw_defaults if d is not None]
        return [*node.decorator_list, *node.args.defaults, *defaults]
    if isinstance(node, ast.ClassDef):
        body = [p for item in node.body for p in _run_at_import(item)]
        return [*node.decorator_list, *node.bases, *node.keywords, *body]
    if isinstance(node, ast.Assign | ast.AnnAssign):
        # NOTE: the names it stores are its own (a class attribute may share a function's).
        return [node.value] if node.value else []
    return [node]


def test_the_join_order_respects_what_each_module_uses_at_import_time() -> None:
    """A module's code that runs as the tool starts may use only names of modules joined
    before it (the tables, between `HEAD` and `TAIL`, use only `HEAD`'s)."""
    order = (*catalog.HEAD, *catalog.TAIL)
    home: dict[str, str] = {}
    for module in order:
        for chunk in catalog.parse(module)[0]:
            if not chunk.text.startswith("\t"):
                for name in chunk.binds:
                    home.setdefault(name, module)
    late = []
    for place, module in enumerate(order):
        earlier = set(order[: place + 1])
        for chunk in catalog.parse(module)[0]:
            if chunk.text.startswith("\t"):
                continue
            tree = ast.parse(chunk.text)
            for node in tree.body:
                for part in _run_at_import(node):
                    for name in catalog.names_used(part):
                        if name in home and home[name] not in earlier:
                            late.append(f"{module} uses {name} of {home[name]}")
    assert not late


def test_no_two_joined_modules_bind_the_same_name() -> None:
    """The modules are joined into one namespace: a second module's `_parts` silently took the
    place of the first's, and a wide tool's `tools/list` failed with an internal error."""
    where: dict[str, str] = {}
    for module in (*catalog.HEAD, *catalog.TAIL):
        # NOTE: not what type checkers alone read (`_T`; the catalog marks it with a tab).
        for chunk in (c for c in catalog.parse(module)[0] if not c.text.startswith("\t")):
            for name in chunk.binds:
                assert where.setdefault(name, module) == module, (name, where[name], module)
