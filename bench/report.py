"""The machine description and the Markdown report (also what is printed to the terminal)."""

from __future__ import annotations

import datetime
import os
import platform
import subprocess
from pathlib import Path

from context import Context, Section, Table


def _read(path: str) -> str:
    try:
        return Path(path).read_text()
    except OSError:
        return ""


def cpu_model() -> str:
    info = _read("/proc/cpuinfo").splitlines()
    virtual = any(line.startswith("flags") and " hypervisor" in line for line in info)
    suffix = " (virtual machine)" if virtual else ""
    for line in info:
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip() + suffix
    return (platform.processor() or platform.machine()) + suffix


def memory_gib() -> str:
    for line in _read("/proc/meminfo").splitlines():
        if line.startswith("MemTotal:"):
            return f"{int(line.split()[1]) / 1024 / 1024:.0f} GiB"
    return "?"


def os_name() -> str:
    for line in _read("/etc/os-release").splitlines():
        if line.startswith("PRETTY_NAME="):
            return line.split("=", 1)[1].strip('"')
    return platform.system()


def git_describe(repo: Path) -> str:
    def git(*args: str) -> str:
        proc = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=False)
        return proc.stdout.decode().strip()

    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    dirty = git("status", "--porcelain", "--", "generator", "templates", "pyproject.toml")
    return commit + (" (generator has uncommitted changes)" if dirty else "")


def load_average() -> str:
    try:
        return " / ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def interpreter(python: str) -> str:
    """Version, location and build flags of the interpreter every venv is made from."""
    code = (
        "import platform, sys, sysconfig\n"
        "c = sysconfig.get_config_var('CONFIG_ARGS') or ''\n"
        "f = [x for x in ('--enable-shared', '--enable-optimizations', '--with-lto') if x in c]\n"
        "print(platform.python_implementation(), platform.python_version(),\n"
        '      f\'({sys.base_prefix}; build flags: {" ".join(f) or "no shared/PGO/LTO"})\')'
    )
    proc = subprocess.run([python, "-c", code], capture_output=True, check=False)
    return proc.stdout.decode().strip() or python


def machine(ctx: Context, load_before: str) -> list[str]:
    """Bullet lines describing where and on what the numbers were measured."""
    cpus = os.cpu_count() or 0
    versions = ", ".join(f"{k} {v}" for k, v in sorted(ctx.versions.items())) or "none"
    roles = {"pip": "", "pip-bundled": " (as `python -m venv` bundles it)", "uv": ""}
    installers = ", ".join(f"{v}{roles[k]}" for k, v in sorted(ctx.venvs.installers.items()))
    return [
        f"Date: {datetime.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}",
        f"CPU: {cpu_model()}, {cpus} logical CPUs; memory {memory_gib()}",
        f"OS: {os_name()}, Linux {platform.release()}",
        f"Python: {interpreter(ctx.venvs.base_python)}; every venv is made from it",
        f"Load average (1/5/15 min): {load_before} at start, {load_average()} at end",
        f"burgee checkout: {git_describe(ctx.repo)}",
        f"Peer versions: {versions}",
        f"Installers: {installers or 'none'}",
        f"Mode: {'QUICK smoke run: too few repetitions to quote' if ctx.quick else 'full'}",
    ]


def render_table(table: Table) -> list[str]:
    widths = [len(h) for h in table.headers]
    for row in table.rows:
        widths = [max(w, len(c)) for w, c in zip(widths, row, strict=True)]

    def line(cells: list[str]) -> str:
        parts = [
            c.rjust(w) if i in table.right else c.ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "| " + " | ".join(parts) + " |"

    rule = ["-" * (w + 1) + (":" if i in table.right else "-") for i, w in enumerate(widths)]
    return [
        line(table.headers),
        "|" + "|".join(rule) + "|",
        *(line(r) for r in table.rows),
    ]


def render_section(section: Section) -> list[str]:
    out = [f"## {section.title}", ""]
    for para in section.intro:
        out += [para, ""]
    for title, table in section.tables:
        if title:
            out += [f"**{title}**", ""]
        out += [*render_table(table), ""]
    for note in section.notes:
        out += [f"- {note}"]
    if section.notes:
        out.append("")
    return out


def goals_table(sections: list[Section]) -> Table:
    table = Table(["goal", "measured", "verdict"])
    for section in sections:
        for goal in section.goals:
            table.rows.append([goal.text, goal.measured, goal.verdict()])
    return table


def document(ctx: Context, sections: list[Section], load_before: str, command: str) -> str:
    lines = [
        "# burgee benchmark results",
        "",
        f"Produced by `{command}`; the method is in [README.md](README.md).",
        "",
    ]
    if ctx.quick:
        lines += [
            "> **Quick smoke run**: tiny repetition counts, so these figures are not to be "
            "quoted. The full benchmark is `python bench/run.py`.",
            "",
        ]
    lines += [
        "## Machine",
        "",
        *(f"- {item}" for item in machine(ctx, load_before)),
        "",
    ]
    goals = goals_table(sections)
    if goals.rows:
        lines += ["## Goals", "", *render_table(goals), ""]
    for section in sections:
        lines += render_section(section)
    if ctx.skipped:
        lines += ["## Left out of this run", "", *(f"- {s}" for s in ctx.skipped), ""]
    return "\n".join(lines).rstrip() + "\n"
