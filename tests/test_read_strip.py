"""The user code carried into the tool: the handlers file with burgee's markers cut out at the
places `ast` gives, everything else as written (`read/strip.py`). The expected texts are what
the libcst reader produced for the same files (checked against it on 1,100 random files)."""

from __future__ import annotations

import textwrap

from burgee.write.generate import read

EDGE = textwrap.dedent(
    '''\
    """Edge cases."""
    # header comment
    from __future__ import annotations

    import os  # os
    from typing import Annotated, Literal, Optional

    import burgee
    from burgee import Argument, Context, Option, command, group, program

    program(name="edge", version="1.0")

    # a comment before the group
    tasks = group("tasks", help="Tasks.")


    def helper(x):
        return x  # keep
        # indented trailing comment

    # dedented comment


    class Oops(burgee.CommandError):
        """An oops."""

        kind = "oops"
        exit_code = 9


    @command(effects="read_only")  # decorator comment
    # between
    @staticmethod
    def add(
        name: Annotated[str, Argument(help="The name.")],
        count: Annotated[int, "meta", Option("--count", "-c", min=0)] = 1,
        *,
        kind: Annotated[Literal["a", "b"], Option(help="Kind")] = "a",
        ctx: Context = None,
    ) -> dict[str, int]:
        """Add a thing.

        Args:
            name: the name
        """
        if not name:
            raise burgee.CommandError("no")  # burgee attr
        x = 1; y = 2
        return {"n": count + x + y}


    @command(effects="read_only")
    def two(a: Annotated[Optional[str], Option(), "meta"] = None) -> str: return a or ""
    # footer comment
    '''
)

EDGE_CODE = textwrap.dedent(
    '''\
    def helper(x):
        return x  # keep
        # indented trailing comment

    # dedented comment


    class Oops(CommandError):
        """An oops."""

        kind = "oops"
        exit_code = 9


    # between
    @staticmethod
    def add(
        name: str,
        count: Annotated[int, "meta", ] = 1,
        *,
        kind: Literal["a", "b"] = "a",
        ctx: Context = INJECTED,
    ) -> dict[str, int]:
        """Add a thing.

        Args:
            name: the name
        """
        if not name:
            raise CommandError("no")  # burgee attr
        x = 1; y = 2
        return {"n": count + x + y}


    def two(a: Annotated[Optional[str], "meta"] = None) -> str: return a or ""
    '''
)


def test_markers_are_cut_out_and_everything_else_is_kept_as_written() -> None:
    program = read(EDGE, "handlers.py")
    assert program.user_code == EDGE_CODE
    # NOTE: `from __future__` goes (the tool has its own); typing names still used stay, under
    # `if TYPE_CHECKING:` since only annotations use them.
    # NOTE: an import nothing uses waits for the first command, as one only functions use.
    assert program.user_imports == ""
    assert program.user_deferred == "import os\n"
    assert program.user_checking == "from typing import Annotated, Literal, Optional\n"


def test_windows_line_endings_are_kept() -> None:
    program = read(EDGE.replace("\n", "\r\n"), "handlers.py")
    assert program.user_code == EDGE_CODE.replace("\n", "\r\n")


def test_places_count_characters_where_ast_counts_bytes() -> None:
    source = textwrap.dedent(
        '''\
        from typing import Annotated
        import burgee
        from burgee import Option, command

        # é comment
        @command(name="gruss", effects="read_only")   # é
        async def grüß(name: Annotated[str, Option("--name", help="Ü")] = "wö", ctx: C = N) -> str:
            """Grüße. é"""
            x = "é"; raise burgee.CommandError("é")  # é
        '''
    ).replace("C = N", "burgee.Context = None")
    program = read(source, "handlers.py")
    assert program.user_code == textwrap.dedent(
        '''\
        # é comment
        async def grüß(name: str = "wö", ctx: Context = INJECTED) -> str:
            """Grüße. é"""
            x = "é"; raise CommandError("é")  # é
        '''
    )
    assert program.user_imports == ""


def test_a_body_indented_with_tabs_is_copied_as_written() -> None:
    # NOTE: the libcst reader put a placeholder of its own in the tool here.
    source = (
        "from burgee import command\n\n\n@command(effects='read_only')\n"
        'def f(x: int) -> int:\n\t"""F."""\n\treturn x\n\t# tab\n  # two\n\n'
    )
    assert read(source, "handlers.py").user_code == (
        'def f(x: int) -> int:\n\t"""F."""\n\treturn x\n\t# tab\n'
    )


def test_blank_and_comment_lines_indented_as_the_body_stay_with_the_function() -> None:
    source = (
        "from burgee import command\n\n\n@command(effects='read_only')\n"
        'def f(x: int) -> int:\n    """F."""\n    return x\n\n     \n# gone\n'
    )
    assert read(source, "handlers.py").user_code == (
        'def f(x: int) -> int:\n    """F."""\n    return x\n\n     \n'
    )
