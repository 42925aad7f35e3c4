"""Case: a wide tool (issue 49): what MCP and JSON input cost at 50 and 500 commands, installed.

The burgee program of the start-up case (`programs.BURGEE_EXAMPLES_CMD`, 50 and 500 commands),
installed by pip as a console script, in one interleaved, shuffled series of rounds with
`python -c pass`:

- an MCP session over stdio, spawn -> `initialize` -> `tools/list` answered, and the same
  session on to its first `tools/call greet` answered (then stdin closed); timed with the same
  Popen client as `python -c pass`'s row for MCP (`mcp_client.Session`), so the pipes cost both.
  An answer is timed when its line has been read; the client parses the answers after the
  clock stops (`_answered`): at 500 commands its `json.loads` of the 369 KB `tools/list` took
  2.3-8 ms, a quarter to most of `python -c pass`, the client's cost and not the server's;
- `hello greet --json '{"name": "x"}'` (the command's input as JSON) against the same call given
  as flags, `hello greet --name x --json`, each round's ratio of the two.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import time

import programs
from burgee_tool import Burgee
from context import Context, Goal, Section, Table, fmt_ms, fmt_ratio
from harness import (
    BenchError,
    Command,
    Sample,
    check_output,
    clean_env,
    interleaved_rounds,
    spawn_once,
)
from mcp_client import INITIALIZED, Session, _line, call_request, initialize_request

SIZES = (50, 500)
#: Issue 49's goals at 500 commands, installed: spawn -> initialize -> tools/list, and on to the
#: first tools/call, as ratios to `python -c pass`; JSON input against the same call as flags.
GOAL_LIST = 1.5
GOAL_CALL = 1.6
GOAL_JSON_VS_FLAGS = 1.2
JSON_INPUT = '{"name": "x"}'


def _session(argv: tuple[str, ...], call: bool) -> Sample:
    """One MCP session: initialize, tools/list, with `call` the first tools/call; the wall time
    from spawn to the last answer (the exit is not timed, as in the mcp case)."""
    session = Session(argv, clean_env(), timeout=120.0)
    try:
        session.send(initialize_request(0))
        lines = _answered(session, 0)
        session.send(INITIALIZED + _line({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))
        lines += _answered(session, 1)
        if call:
            session.send(call_request(2, "first"))
            lines += _answered(session, 2)
        wall = time.perf_counter() - session.started
        answers = {}
        for raw in lines:
            msg = json.loads(raw)
            if "method" not in msg:
                answers[msg["id"]] = raw
        if b'"greet"' not in answers[1]:
            raise BenchError(f"tools/list lacks greet: {answers[1][:200]!r}")
        if call and b"Hello, first!" not in answers[2]:
            raise BenchError(f"tools/call greet failed: {answers[2][:200]!r}")
        session.stdin.close()
        # NOTE: the CPU time of the whole process (its exit too): wait4's rusage.
        _, status, usage = os.wait4(session.proc.pid, 0)
        session.proc.returncode = os.waitstatus_to_exitcode(status)
    finally:
        session.kill()
    cpu = round((usage.ru_utime + usage.ru_stime) * 1e9)
    return Sample(round(wall * 1e9), cpu, usage.ru_maxrss, session.proc.returncode)


def _answered(session: Session, msg_id: int) -> list[bytes]:
    """The lines read up to the answer to msg_id, unparsed: the server writes an answer as
    `{"jsonrpc":"2.0","id":N,...` (a notification: `...,"method":...`); parsed by the caller
    once the clock has stopped, so the client's JSON decoding is not timed as the server's."""
    head = b'{"jsonrpc":"2.0","id":%d,' % msg_id
    lines = []
    while True:
        raw = session.stdout.readline()
        if not raw:
            raise BenchError(f"the server closed stdout before answering {msg_id}")
        lines.append(raw)
        if raw.startswith(head):
            return lines


def _popen_pass(argv: tuple[str, ...]) -> Sample:
    """`python -c pass` through the same Popen pipes as a session, to its exit."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.close()
    proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    proc.stdout.close()
    wall = round((time.perf_counter() - started) * 1e9)
    cpu = round((usage.ru_utime + usage.ru_stime) * 1e9)
    return Sample(wall, cpu, usage.ru_maxrss, proc.returncode)


def build(ctx: Context) -> list[Command]:
    """The commands of this case: references, each size's installed tool run four ways."""
    py = str(ctx.base().python)
    commands = [
        Command("pass", "python -c pass", (py, "-c", "pass")),
        Command(
            "pass-popen",
            "python -c pass, Popen with pipes (the MCP rows' reference)",
            (py, "-c", "pass"),
        ),
    ]
    burgee = Burgee.get(ctx)
    if burgee is None:
        return commands
    directory = ctx.work / "startup"
    for n in SIZES:
        try:
            handlers = programs.write_program(directory, "burgee-examples", n)
            module = burgee.generate(handlers, directory / f"hello_{n}.py")
            hello = str(burgee.install(f"burgee-hello-{n}", module, "hello").script("hello"))
        except BenchError as exc:
            ctx.skip(f"wide, {n} commands: {exc}")
            continue
        flags = Command(
            f"flags/{n}",
            f"`hello greet --name x --json`, {n} cmd",
            (hello, "greet", "--name", "x", "--json"),
            "Hello, x!",
        )
        given = Command(
            f"json/{n}",
            f"`hello greet --json '{JSON_INPUT}'`, {n} cmd",
            (hello, "greet", "--json", JSON_INPUT),
            "Hello, x!",
        )
        for cmd in (flags, given):
            check_output(cmd, clean_env())
        commands += [
            flags,
            given,
            Command(
                f"mcp-list/{n}", f"spawn -> initialize -> `tools/list`, {n} cmd", (hello, "--mcp")
            ),
            Command(
                f"mcp-call/{n}", f"spawn -> ... -> first `tools/call`, {n} cmd", (hello, "--mcp")
            ),
        ]
    return commands


def run(ctx: Context) -> Section:
    section = Section("A wide tool: MCP and JSON input at 50 and 500 commands, installed")
    commands = build(ctx)

    def runner(cmd: Command) -> Sample:
        if cmd.key.startswith("mcp-"):
            return _session(cmd.argv, call=cmd.key.startswith("mcp-call"))
        if cmd.key == "pass-popen":
            return _popen_pass(cmd.argv)
        return spawn_once(cmd.argv, {**clean_env(), **dict(cmd.env)}, cmd.stdin)

    budget = ctx.budget
    ctx.log(f"wide: {len(commands)} commands x {budget.rounds} rounds")
    series = interleaved_rounds(
        commands,
        "pass",
        warmup=budget.warmup,
        rounds=budget.rounds,
        rng=ctx.rng,
        progress=ctx.log,
        runner=runner,
    )

    def paired(key: str, reference: str, cpu: bool = False) -> float:
        """The median of each round's ratio of `key` to `reference` (same round): wall time, or
        with `cpu` the process's CPU time (user + sys), which a loaded machine moves less."""
        mine, theirs = series[key].samples, series[reference].samples
        if cpu:
            return statistics.median(a.cpu_ns / b.cpu_ns for a, b in zip(mine, theirs, strict=True))
        return statistics.median(a.wall_ns / b.wall_ns for a, b in zip(mine, theirs, strict=True))

    section.intro.append(
        f"Installed by pip; wall time, median of {budget.rounds} interleaved rounds "
        f"({budget.warmup} warm-up rounds dropped); ratios are medians of each round's ratio. "
        "MCP rows against `python -c pass` started through the same Popen pipes; the CLI rows "
        "against `python -c pass` spawned as they are. CPU x: the same for the process's CPU "
        "time (user + sys, from wait4), which a loaded machine moves less."
    )
    table = Table(
        ["run", "wall median ms", "x python -c pass", "CPU x", "x the call as flags (CPU x)"],
        right={1, 2, 3, 4},
    )
    measured: dict[str, float] = {}
    for cmd in commands:
        if cmd.key.startswith("pass"):
            continue
        reference = "pass-popen" if cmd.key.startswith("mcp-") else "pass"
        measured[cmd.key] = paired(cmd.key, reference)
        versus = "-"
        if cmd.key.startswith("json/"):
            flags = cmd.key.replace("json/", "flags/")
            measured[cmd.key.replace("json/", "json-vs-flags/")] = paired(cmd.key, flags)
            by_cpu = fmt_ratio(paired(cmd.key, flags, cpu=True))
            versus = f"{fmt_ratio(paired(cmd.key, flags))} ({by_cpu})"
        table.rows.append(
            [
                cmd.label,
                fmt_ms(series[cmd.key].median_ms()),
                fmt_ratio(measured[cmd.key]),
                fmt_ratio(paired(cmd.key, reference, cpu=True)),
                versus,
            ]
        )
    section.tables.append(("Wide tool, installed", table))
    section.notes.append(
        f"`python -c pass` median {fmt_ms(series['pass'].median_ms())} ms spawned, "
        f"{fmt_ms(series['pass-popen'].median_ms())} ms through Popen's pipes."
    )
    for key, limit, text in (
        ("mcp-list/500", GOAL_LIST, "spawn -> initialize -> tools/list, 500 commands, installed"),
        ("mcp-call/500", GOAL_CALL, "spawn -> ... -> first tools/call, 500 commands, installed"),
    ):
        got = measured.get(key)
        section.goals.append(
            Goal(f"{text}: ≤ {limit}x python -c pass", "not measured", None)
            if got is None
            else Goal(f"{text}: ≤ {limit}x python -c pass", fmt_ratio(got), got <= limit)
        )
    got = measured.get("json-vs-flags/500")
    text = f"--json input, 500 commands, installed: ≤ {GOAL_JSON_VS_FLAGS}x the same call as flags"
    section.goals.append(
        Goal(text, "not measured", None)
        if got is None
        else Goal(text, fmt_ratio(got), got <= GOAL_JSON_VS_FLAGS)
    )
    return section
