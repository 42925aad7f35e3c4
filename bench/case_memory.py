"""Case 4: peak RSS of one command (`hello greet --name x`), and of each MCP server's session.

Peak RSS is wait4's ru_maxrss. A child's ru_maxrss never reads below the RSS of the process
that spawned it (the kernel carries the parent's high-water mark across exec), so the commands
are run through GNU time, which forks from a ~2 MiB process, when it is installed. The floor is
shown by `/bin/true`, and the floor of spawning straight from the harness is given as well.
"""

from __future__ import annotations

import os
import statistics

import case_mcp
import case_startup
from context import Context, Goal, Section, Table
from harness import Command, RssProbe, clean_env, spawn_once
from mcp_client import INITIALIZED, call_request, initialize_request

#: Issue 49's goal: the peak RSS of `python tool.py` at 500 commands.
GOAL_SCRIPT_500_MIB = 30.0


def mcp_input(ctx: Context) -> str:
    """A file of requests to feed an MCP server on stdin; it exits at end of input."""
    path = ctx.work / "mcp" / "session.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    listing = b'{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n'
    path.write_bytes(initialize_request(0) + INITIALIZED + listing + call_request(2, "x"))
    return str(path)


def run(ctx: Context) -> Section:
    section = Section("Memory: peak RSS")
    measured = case_startup.build_commands(ctx)
    commands = list(measured.commands)
    stdin = mcp_input(ctx)
    for server in case_mcp.servers(ctx):
        if not server.echo:
            commands.append(
                Command(f"mcp/{server.key}", f"MCP: {server.label}", server.argv, stdin=stdin)
            )
    probe = RssProbe()
    runs = ctx.budget.mem_runs
    rss: dict[str, list[int]] = {c.key: [] for c in commands}
    try:
        for index in range(runs):
            order = list(commands)
            ctx.rng.shuffle(order)
            for cmd in order:
                sample = probe.run(cmd)
                if sample.returncode == 0 and sample.maxrss_kib > 0:
                    rss[cmd.key].append(sample.maxrss_kib)
            ctx.log(f"memory: run {index + 1}/{runs}")
    finally:
        probe.close()
    direct = statistics.median(spawn_once(("/bin/true",), clean_env()).maxrss_kib for _ in range(3))
    section.intro.append(
        f"Median of {runs} runs, {probe.describe()}. "
        f"Floor of spawning straight from the harness (pid {os.getpid()}): "
        f"{direct / 1024:.1f} MiB for `/bin/true`."
    )
    section.tables.append(("Commands: peak RSS MiB", command_table(measured, rss)))
    # NOTE: issue 49: a script compiles its handlers on every run; the code cache keeps the rest.
    script = rss.get("burgee-script/500")
    text = f"peak RSS, burgee run as a script, 500 commands: ≤ {GOAL_SCRIPT_500_MIB} MiB"
    if script:
        mib = statistics.median(script) / 1024
        section.goals.append(Goal(text, f"{mib:.1f} MiB", mib <= GOAL_SCRIPT_500_MIB))
    else:
        section.goals.append(Goal(text, "not measured", None))
    mcp_rows = [c for c in commands if c.key.startswith("mcp/")]
    if mcp_rows:
        table = Table(
            ["MCP server (initialize, tools/list, one call, exit)", "peak RSS MiB"], right={1}
        )
        table.rows.extend([c.label.removeprefix("MCP: "), _mib(rss[c.key])] for c in mcp_rows)
        section.tables.append(("MCP servers: peak RSS MiB", table))
    return section


def _mib(values: list[int]) -> str:
    return "failed" if not values else f"{statistics.median(values) / 1024:.1f}"


def command_table(measured: case_startup.Measured, rss: dict[str, list[int]]) -> Table:
    sizes = sorted(set(measured.sizes.values()))
    table = Table(["command", *(f"{n} cmd" for n in sizes)], right=set(range(1, len(sizes) + 1)))
    for key, label in case_startup.REFERENCES:
        table.rows.append([label, *([_mib(rss[key])] * len(sizes))])
    for variant, label in case_startup.VARIANTS:
        cells = [
            _mib(rss[f"{variant}/{n}"]) if f"{variant}/{n}" in rss else "skipped" for n in sizes
        ]
        if any(c != "skipped" for c in cells):
            table.rows.append([label, *cells])
    return table
