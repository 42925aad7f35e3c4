"""Case 2: MCP stdio servers: spawn → first answers, and tools/call throughput.

Servers, each from its own venv: the burgee-generated tool (`hello-mcp --mcp`, installed as a
console script), the official SDK's `MCPServer` (mcp>=2), the `fastmcp` package, and two
reference rows: a 75-line stdlib json line loop, and `/bin/cat` echoing each request (the floor
set by the pipes and the client). The client is `mcp_client` (raw subprocess pipes).

Each repetition runs one session per server, in a reshuffled order, and times
`python -c pass` three times with the same Popen-based client. The whole series runs twice:
with free scheduling, and with client and server pinned to one CPU.
"""

from __future__ import annotations

import math
import os
import statistics
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import programs
from burgee_tool import Burgee
from context import Context, Goal, Section, Table, fmt_int, fmt_ms, fmt_ratio
from harness import BenchError, clean_env, percentile
from mcp_client import SessionResult, probe, run_session

#: Issue 12's goals: spawn → initialize installed and as a script; lock-step against the SDK.
GOAL_INIT_RATIO = 1.2
GOAL_INIT_SCRIPT_RATIO = 2.0
#: Issue 34's goal: spawn → initialize → tools/list, installed, whatever the handlers import.
GOAL_LIST_RATIO = 1.4
GOAL_LOCKSTEP_VS_SDK = 15.0


@dataclass(frozen=True)
class Server:
    key: str
    label: str
    argv: tuple[str, ...]
    echo: bool = False


def servers(ctx: Context) -> list[Server]:
    """Every server that answers initialize, tools/list and a greet call; others skipped."""
    if "mcp-servers" in ctx.memo:
        return ctx.memo["mcp-servers"]  # type: ignore[return-value]
    directory = ctx.work / "mcp"
    env = clean_env()
    found = [Server("cat", "IPC floor: /bin/cat echo, no server", ("/bin/cat",), echo=True)]
    stdlib = programs.write_mcp_server(directory, "stdlib")
    candidates = [Server("stdlib", "stdlib json line loop", (str(ctx.base().python), str(stdlib)))]
    burgee = Burgee.get(ctx)
    if burgee is not None:
        try:
            handlers = programs.write_mcp_server(directory, "burgee")
            module = burgee.generate(handlers, directory / "hello_mcp.py")
            installed = burgee.install("burgee-hello-mcp", module, "hello-mcp")
            argv = (str(installed.script("hello-mcp")), "--mcp")
            candidates.insert(0, Server("burgee", "burgee `hello-mcp --mcp`", argv))
            script = (str(ctx.base().python), str(module), "--mcp")
            candidates.insert(
                1, Server("burgee-script", "burgee `python hello_mcp.py --mcp`", script)
            )
        except BenchError as exc:
            ctx.skip(f"MCP: burgee row skipped: {exc}")
        else:
            # NOTE: the goal is judged on the pip row; this one shows uv's launcher.
            try:
                by_uv = burgee.install("burgee-hello-mcp-uv", module, "hello-mcp", installer="uv")
                argv = (str(by_uv.script("hello-mcp")), "--mcp")
                label = "burgee `hello-mcp --mcp`, installed by uv"
                candidates.insert(1, Server("burgee-uv", label, argv))
            except BenchError as exc:
                ctx.skip(f"MCP: the uv-installed burgee row skipped: {exc}")
        try:
            # NOTE: issue 34: tools/list must not wait for what the handlers import.
            handlers = programs.write_pydantic_handlers(directory)
            module = burgee.generate(handlers, directory / "shop.py")
            shop = burgee.install("burgee-shop", module, "shop", requirements=("pydantic",))
            label = "burgee `shop --mcp` (handlers import pydantic)"
            candidates.insert(
                1, Server("burgee-pydantic", label, (str(shop.script("shop")), "--mcp"))
            )
        except BenchError as exc:
            ctx.skip(f"MCP: the pydantic tool's row skipped: {exc}")
    for name, label in (("mcp-sdk", "official SDK 2.x MCPServer"), ("fastmcp", "fastmcp")):
        venv = ctx.peer(name)
        if venv is not None:
            path = programs.write_mcp_server(directory, name)
            candidates.append(Server(name, label, (str(venv.python), str(path))))
    for server in candidates:
        reason = probe(server.argv, env, timeout=60.0)
        if reason is None:
            found.append(server)
        elif server.key == "burgee":
            ctx.skip(f"MCP: burgee row skipped: `hello-mcp --mcp` does not answer yet ({reason})")
        else:
            ctx.skip(f"MCP: {server.label} skipped: {reason}")
    ctx.memo["mcp-servers"] = found
    return found


@contextmanager
def pinned_to_one_cpu(pin: bool) -> Iterator[None]:
    """Pin this process (and so every child it spawns) to one CPU, and restore afterwards."""
    if not pin:
        yield
        return
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(before)})
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)


def popen_pass_ms(python: str) -> float:
    start = time.perf_counter()
    subprocess.Popen(
        [python, "-c", "pass"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=clean_env(),
    ).wait()
    return (time.perf_counter() - start) * 1e3


def measure(
    ctx: Context, found: list[Server], pin: bool
) -> tuple[dict[str, list[SessionResult]], list[float]]:
    budget = ctx.budget
    results: dict[str, list[SessionResult]] = {s.key: [] for s in found}
    pass_ms: list[float] = []
    python = str(ctx.base().python)
    order = list(found)
    with pinned_to_one_cpu(pin):
        for rep in range(budget.mcp_warmup + budget.mcp_spawns):
            ctx.rng.shuffle(order)
            warm = rep < budget.mcp_warmup
            calls = min(budget.mcp_calls, 100) if warm else budget.mcp_calls
            for server in order:
                got = run_session(server.argv, clean_env(), calls, echo=server.echo)
                if not warm:
                    results[server.key].append(got)
            times = [popen_pass_ms(python) for _ in range(3)]
            if not warm:
                pass_ms.extend(times)
            ctx.log(
                f"MCP ({'pinned' if pin else 'free'}): spawn {rep + 1}/"
                f"{budget.mcp_warmup + budget.mcp_spawns}"
            )
    return results, pass_ms


def _span(values: list[float]) -> str:
    return f"{fmt_int(statistics.median(values))} ({fmt_int(min(values))}-{fmt_int(max(values))})"


def paired_vs_sdk(results: dict[str, list[SessionResult]], key: str) -> float:
    """The median over spawns of the server's lock-step rate over the SDK's in the same
    repetition: a slow stretch of the machine slows both, so it cancels out (every server runs
    once per repetition, so the i-th results of two servers are from the same one)."""
    rs, sdk = results.get(key), results.get("mcp-sdk")
    if not rs or not sdk:
        return float("nan")
    return statistics.median(
        mine.lockstep_per_s / theirs.lockstep_per_s for mine, theirs in zip(rs, sdk, strict=True)
    )


def table(found: list[Server], results: dict[str, list[SessionResult]], pass_ms: float) -> Table:
    out = Table(
        [
            "server",
            "spawn→initialize ms",
            "x python -c pass",
            "spawn→tools/list ms",
            "x python -c pass",
            "lock-step calls/s (min-max)",
            "latency median / p99 µs",
            "pipelined calls/s (min-max)",
            "lock-step x SDK (paired)",
            "exit after stdin close ms",
        ],
        right=set(range(1, 10)),
    )
    sdk = results.get("mcp-sdk")
    sdk_rate = statistics.median(r.lockstep_per_s for r in sdk) if sdk else float("nan")
    for server in found:
        rs = results[server.key]
        init = statistics.median(r.init_ms for r in rs)
        listed = statistics.median(r.list_ms for r in rs)
        lock = [r.lockstep_per_s for r in rs]
        lat = [x for r in rs for x in r.latencies_us]
        out.rows.append(
            [
                server.label,
                fmt_ms(init),
                fmt_ratio(init / pass_ms),
                fmt_ms(listed),
                fmt_ratio(listed / pass_ms),
                _span(lock),
                f"{statistics.median(lat):,.0f} / {percentile(lat, 99):,.0f}",
                _span([r.pipelined_per_s for r in rs]),
                f"{fmt_ratio(statistics.median(lock) / sdk_rate)}"
                f" ({fmt_ratio(paired_vs_sdk(results, server.key))})",
                fmt_ms(statistics.median(r.exit_ms for r in rs)),
            ]
        )
    return out


def run(ctx: Context) -> Section:
    section = Section("MCP stdio servers")
    found = servers(ctx)
    budget = ctx.budget
    section.intro.append(
        f"{budget.mcp_spawns} spawns per server ({budget.mcp_warmup} warm-up dropped), each "
        f"with {budget.mcp_calls:,} lock-step then {budget.mcp_calls:,} pipelined "
        "`tools/call greet`; servers reshuffled every repetition; `python -c pass` timed 3x "
        "per repetition with the same Popen-based client. Medians over spawns."
    )
    can_pin = hasattr(os, "sched_setaffinity") and len(os.sched_getaffinity(0)) > 1
    summary: dict[str, dict[str, float]] = {}
    for pin in (False, True) if can_pin else (False,):
        mode = "pinned to one CPU" if pin else "free scheduling"
        results, pass_ms = measure(ctx, found, pin)
        base = statistics.median(pass_ms)
        section.tables.append(
            (
                f"{mode[0].upper()}{mode[1:]} (python -c pass: {fmt_ms(base)} ms)",
                table(found, results, base),
            )
        )
        summary[mode] = mode_summary(results, base)
    section.notes.append(
        "Free scheduling makes lock-step figures bimodal (client and server on the same or on "
        "different CPUs); quote the pinned ones for per-call comparisons."
    )
    section.notes.append(
        "lock-step x SDK: the ratio of the medians (what the goal is judged on), and in brackets "
        "the median of the per-repetition ratios, which a slow stretch of the machine moves less."
    )
    section.goals.extend(goals(summary))
    return section


def mode_summary(results: dict[str, list[SessionResult]], pass_ms: float) -> dict[str, float]:
    def med_lock(key: str) -> float:
        rs = results.get(key)
        return statistics.median(r.lockstep_per_s for r in rs) if rs else float("nan")

    def init(key: str) -> float:
        rs = results.get(key)
        return statistics.median(r.init_ms for r in rs) / pass_ms if rs else float("nan")

    def listed(key: str) -> float:
        rs = results.get(key)
        return statistics.median(r.list_ms for r in rs) / pass_ms if rs else float("nan")

    return {
        "list_ratio": listed("burgee"),
        "list_ratio_pydantic": listed("burgee-pydantic"),
        "init_ratio": init("burgee"),
        "init_ratio_uv": init("burgee-uv"),
        "init_ratio_script": init("burgee-script"),
        "vs_sdk": med_lock("burgee") / med_lock("mcp-sdk"),
        "vs_sdk_paired": paired_vs_sdk(results, "burgee"),
    }


def goals(summary: dict[str, dict[str, float]]) -> list[Goal]:
    free = summary.get("free scheduling", {})
    pinned = summary.get("pinned to one CPU", free)
    vs_sdk = pinned.get("vs_sdk", float("nan"))
    paired = pinned.get("vs_sdk_paired", float("nan"))
    free_vs = free.get("vs_sdk", float("nan"))
    rows = (
        ("init_ratio", "installed by pip", GOAL_INIT_RATIO),
        ("init_ratio_uv", "installed by uv", GOAL_INIT_RATIO),
        ("init_ratio_script", "as a script", GOAL_INIT_SCRIPT_RATIO),
    )
    found = []
    for key, how, limit in rows:
        init = free.get(key, float("nan"))
        found.append(
            Goal(
                f"MCP spawn→initialize, {how}, ≤ {limit}x python -c pass (free scheduling)",
                fmt_ratio(init) if not math.isnan(init) else "not measured",
                None if math.isnan(init) else init <= limit,
            )
        )
    for key, what in (
        ("list_ratio", "`hello-mcp --mcp`"),
        ("list_ratio_pydantic", "`shop --mcp`, whose handlers import pydantic"),
    ):
        listed = free.get(key, float("nan"))
        found.append(
            Goal(
                f"MCP spawn→initialize→tools/list, {what}, installed by pip, "
                f"≤ {GOAL_LIST_RATIO}x python -c pass (free scheduling)",
                fmt_ratio(listed) if not math.isnan(listed) else "not measured",
                None if math.isnan(listed) else listed <= GOAL_LIST_RATIO,
            )
        )
    return [
        *found,
        Goal(
            f"MCP lock-step tools/call ≥ {GOAL_LOCKSTEP_VS_SDK:g}x the SDK server (pinned)",
            "not measured"
            if math.isnan(vs_sdk)
            else f"{fmt_ratio(vs_sdk)} pinned (paired: {fmt_ratio(paired)}), "
            f"{fmt_ratio(free_vs)} free",
            None if math.isnan(vs_sdk) else vs_sdk >= GOAL_LOCKSTEP_VS_SDK,
        ),
    ]
