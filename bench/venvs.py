"""Virtual environments for the peers, one per peer, cached under a directory.

Each venv is made with `python -m venv --without-pip`, as pipx makes its venvs, and packages
are installed into it by one shared pip (`pip --python <venv python> install ...`). So no venv
carries setuptools' `distutils-precedence.pth`, which would add about 0.7 ms to every start
of a Python 3.11 venv made with pip. A venv is rebuilt when what it should contain changes.

The shared pip is the current one (`CURRENT_PIP`); installer "pip-bundled" uses the pip that
`python -m venv` bundles instead (why both: bench/README.md).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

PIP_VENV = "_pip"
BUNDLED_PIP_VENV = "_pip-bundled"
#: The first pip whose console-script wrapper does not import `re`.
CURRENT_PIP = "pip>=25.2"
STAMP = "bench-stamp.json"


class VenvError(RuntimeError):
    """A venv could not be created or its packages could not be installed."""


def install_env() -> dict[str, str]:
    """The environment for pip: the user's, minus what would change the installed result."""
    env = dict(os.environ)
    for name in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV"):
        env.pop(name, None)
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def file_digest(*paths: Path) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@dataclass(frozen=True)
class Venv:
    name: str
    path: Path

    @property
    def python(self) -> Path:
        return self.path / "bin" / "python"

    def script(self, name: str) -> Path:
        return self.path / "bin" / name


class VenvManager:
    """Creates and caches the venvs under `root`, all from one base interpreter."""

    def __init__(
        self,
        root: Path,
        base_python: str,
        *,
        rebuild: bool = False,
        log: Callable[[str], None] = print,
    ) -> None:
        self.root = root
        self.base_python = base_python
        self.rebuild = rebuild
        self.log = log
        self._fresh: set[str] = set()
        #: What installed the venvs of this run, by installer name ("pip", "pip-bundled", "uv").
        self.installers: dict[str, str] = {}
        root.mkdir(parents=True, exist_ok=True)

    def _run(self, argv: Sequence[str], what: str, timeout: float = 900.0) -> None:
        proc = subprocess.run(
            list(argv),
            capture_output=True,
            env=install_env(),
            timeout=timeout,
            check=False,
            stdin=subprocess.DEVNULL,
        )
        if proc.returncode != 0:
            tail = (proc.stderr or proc.stdout).decode(errors="replace").strip().splitlines()
            raise VenvError(f"{what} failed (exit {proc.returncode}): {' | '.join(tail[-4:])}")

    def _pip(self, bundled: bool = False) -> Venv:
        """The venv that holds the one pip used to install into every other venv: the current
        pip, or with `bundled` the one `python -m venv` put there."""
        name = BUNDLED_PIP_VENV if bundled else PIP_VENV
        venv = Venv(name, self.root / name)
        if not venv.python.exists():
            self.log(f"creating {venv.path} (the shared pip)")
            self._run([self.base_python, "-m", "venv", str(venv.path)], "venv with pip")
        key = "pip-bundled" if bundled else "pip"
        if key not in self.installers:
            version = self.versions(venv, ["pip"]).get("pip", "?")
            if not bundled and _older(version, CURRENT_PIP.split(">=")[1]):
                self.log(f"upgrading the shared pip ({version}) to {CURRENT_PIP}")
                self._run(
                    [str(venv.python), "-m", "pip", "install", "--upgrade", CURRENT_PIP],
                    "pip install --upgrade pip",
                )
                version = self.versions(venv, ["pip"]).get("pip", "?")
            self.installers[key] = f"pip {version}"
        return venv

    def _uv(self) -> Path:
        """uv, installed from PyPI into the shared pip's venv on first use."""
        pip = self._pip()
        uv = pip.script("uv")
        if not uv.exists():
            self.log("installing uv into the shared pip's venv")
            self._run([str(pip.python), "-m", "pip", "install", "uv"], "pip install uv")
        if "uv" not in self.installers:
            self.installers["uv"] = f"uv {self.versions(pip, ['uv']).get('uv', '?')}"
        return uv

    def ensure(
        self,
        name: str,
        requirements: Sequence[str] = (),
        *,
        editable: Path | None = None,
        local: Path | None = None,
        stamp: str = "",
        installer: str = "pip",
    ) -> Venv:
        """A venv called `name` holding exactly the given packages; rebuilt if they changed.

        `requirements` are PyPI requirement strings, `editable` a project to install with
        `-e`, `local` a project directory to install normally. `stamp` is any extra text whose
        change should force a rebuild (for example a digest of a local project's files).
        `installer` is "pip", "pip-bundled" or "uv" (`uv pip install`; each writes its own
        console scripts).
        """
        venv = Venv(name, self.root / name)
        want = {
            "base": self.base_python,
            "base_version": sys.version if self.base_python == sys.executable else "",
            "requirements": list(requirements),
            "editable": str(editable) if editable else None,
            "local": str(local) if local else None,
            "stamp": stamp,
            "installer": self._installer(installer),
        }
        stamp_file = venv.path / STAMP
        if name in self._fresh:
            return venv
        current = json.loads(stamp_file.read_text()) if stamp_file.exists() else None
        if not self.rebuild and venv.python.exists() and current == want:
            return venv
        args: list[str] = list(requirements)
        if editable is not None:
            args += ["-e", str(editable)]
        if local is not None:
            args.append(str(local))
        self.log(f"building venv {name} ({' '.join(args) or 'no packages'})")
        if venv.path.exists():
            shutil.rmtree(venv.path)
        self._run([self.base_python, "-m", "venv", "--without-pip", str(venv.path)], f"venv {name}")
        if args and installer == "uv":
            self._run(
                [str(self._uv()), "pip", "install", "--python", str(venv.python), *args],
                f"uv pip install {' '.join(args)} into {name}",
            )
        elif args:
            pip = self._pip(bundled=installer == "pip-bundled")
            self._run(
                [str(pip.python), "-m", "pip", "--python", str(venv.python), "install", *args],
                f"pip install {' '.join(args)} into {name}",
            )
        stamp_file.write_text(json.dumps(want, indent=1))
        self._fresh.add(name)
        return venv

    def _installer(self, installer: str) -> str:
        """The installer and its version, so a venv is rebuilt when a newer one would write
        different console scripts."""
        if installer == "uv":
            self._uv()
        else:
            self._pip(bundled=installer == "pip-bundled")
        return self.installers[installer]

    def versions(self, venv: Venv, dists: Sequence[str]) -> dict[str, str]:
        """Installed versions of the given distributions in a venv (missing ones left out)."""
        code = (
            "import json, sys\nfrom importlib import metadata\nout = {}\n"
            "for d in sys.argv[1:]:\n"
            "    try: out[d] = metadata.version(d)\n"
            "    except metadata.PackageNotFoundError: pass\n"
            "print(json.dumps(out))"
        )
        proc = subprocess.run(
            [str(venv.python), "-c", code, *dists], capture_output=True, check=False
        )
        if proc.returncode != 0:
            return {}
        result: dict[str, str] = json.loads(proc.stdout)
        return result


def _older(version: str, than: str) -> bool:
    """Whether a dotted version is below another, by the leading digits of each part (a
    pre-release such as 25.3b1 counts as 25.3); one with no number at all counts as older."""

    def parts(text: str) -> tuple[int, ...]:
        return tuple(int(m[1]) for m in map(re.compile(r"^(\d+)").match, text.split(".")) if m)

    mine = parts(version)
    return not mine or mine[:3] < parts(than)
