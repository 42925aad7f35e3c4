from typing import Optional

from burgee import Context, command, prompt


@command(effects="read_only")
def sync(run: Optional[Context] = None) -> str:
    """The Context parameter may have any name; what it reads must be Context's."""
    run.progess(1, 2)
    run.cancelled.is_set()
    run.seen = True  # an attribute the handler sets is its own
    print(run.seen, run.json, run.agent, run.interactive)

    def inner(run: int) -> int:
        return run.real  # another `run`, not the Context

    if run.confirm("Sure?") and run.ask("Who?", choices=["a"], name="who"):
        run.confrim("Really?")
    if run.is_agent:
        run.action_required(reason="x", message="y", next=["sync --yes"])
    return "ok"


@prompt
def review(topic: str, ctx: Context = None) -> str:
    """A prompt's Context is checked too."""
    return f"{topic} {ctx.comand}"
