"""The handlers' imports sorted into standard library, sibling modules and third party.

Sibling modules (`from helpers import double`, `from .models import Point`, a group defined in
`notes.py`) are bundled: their code is put in place of the import, so the tool stays one file
and the reader sees their classes and groups as if they were written in the handlers file.
Each line of the result remembers where it came from, so diagnostics name the right file.
Third-party modules are listed with the distribution that provides them, for the tool's PEP 723
block and its `missing_dependency` hint. Where bundling could change what the code means, gen
refuses at the import line.
"""

from __future__ import annotations

import ast
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from burgee.model.diagnostics import Diagnostic, GenerationError, SourceSpan
from burgee.model.reserved import RUNTIME_IMPORTS, RUNTIME_NAMES
from burgee.read.runtime_use import is_type_checking
from burgee.read.source import check, decode, nested_imports
from burgee.read.source import tree as parsed

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

#: Import names whose distribution is named otherwise (what `pip install` needs).
_DISTRIBUTIONS = {
    "yaml": "PyYAML",
    "PIL": "Pillow",
    "bs4": "beautifulsoup4",
    "sklearn": "scikit-learn",
    "cv2": "opencv-python",
    "dateutil": "python-dateutil",
    "dotenv": "python-dotenv",
    "jwt": "PyJWT",
    "attr": "attrs",
    "google": "protobuf",
}
_REQUIREMENT_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


@dataclass
class Bundle:
    """The handlers file with its siblings' code in place, and what it imports from outside."""

    source: str
    #: Each line's origin (path, line), when anything was bundled; else None.
    origins: list[tuple[str, int]] | None = None
    #: Third-party module (top-level name) -> where it is first imported.
    third_party: dict[str, SourceSpan] = field(default_factory=dict)
    #: The sibling files bundled, in the order their code appears.
    siblings: list[str] = field(default_factory=list)

    def place(self, span: SourceSpan) -> SourceSpan:
        """Where a place in the bundled source really is."""
        if self.origins is None or not 1 <= span.line <= len(self.origins):
            return span
        path, line = self.origins[span.line - 1]
        return SourceSpan(path=path, line=line, column=span.column)


def requirement(module: str, dependencies: tuple[str, ...]) -> str:
    """What to install for `module`: its declared requirement as written (`humanize>=4.9`:
    the version pin is part of what to install), else the usual distribution name for it."""
    wanted = _normal(_DISTRIBUTIONS.get(module, module))
    for declared in dependencies:
        found = _REQUIREMENT_NAME.match(declared)
        if found and _normal(found[1]) in (wanted, _normal(module)):
            return declared.strip()
    return _DISTRIBUTIONS.get(module, module)


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def nearest_pyproject(path: str | Path) -> Path | None:
    """The nearest pyproject.toml in the folder of `path` or above it."""
    for folder in Path(path).resolve().parents:
        if (folder / "pyproject.toml").is_file():
            return folder / "pyproject.toml"
    return None


def load_toml(path: Path) -> dict[str, Any] | None:
    """A TOML file's data, or None when it cannot be read."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None


def toml_error(path: Path) -> str | None:
    """Why a TOML file cannot be read, as a located error where it has a place
    (`pyproject.toml:9:10: Expected ...`); None when it reads."""
    try:
        tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        return f"{path}: cannot read it: {error.strerror}"
    except UnicodeDecodeError:
        return f"{path}: not UTF-8 text"
    except tomllib.TOMLDecodeError as error:
        text = str(error)
        at = re.search(r" \(at line (\d+), column (\d+)\)$", text)
        if at is None:
            return f"{path}: {text}"
        return f"{path}:{at[1]}:{at[2]}: {text[: at.start()]}"
    return None


def pyproject_dependencies(path: str) -> tuple[str, ...]:
    """`[project].dependencies` of the nearest pyproject.toml above the handlers file."""
    found = nearest_pyproject(path)
    data = load_toml(found) if found is not None else None
    project = data.get("project") if data is not None else None
    listed = project.get("dependencies") if isinstance(project, dict) else None
    return tuple(d for d in listed if isinstance(d, str)) if isinstance(listed, list) else ()


def project_version(path: str) -> str | None:
    """`[project].version` of the nearest pyproject.toml, when that project generates its tool
    with burgee (it has `[tool.burgee]`): the version then has one source."""
    found = nearest_pyproject(path)
    data = load_toml(found) if found is not None else None
    if data is None or not isinstance(data.get("tool", {}).get("burgee"), dict):
        return None
    project = data.get("project")
    version = project.get("version") if isinstance(project, dict) else None
    return version if isinstance(version, str) else None


def installed_version(path: str, distribution: str | None = None) -> str | None:
    """The version of the installed distribution whose package holds `path` (or of the one
    named `distribution`, installed beside it): its `*.dist-info/METADATA` beside the
    package's top folder (what Click's `version_option()` with no version reads when the
    program runs, and `importlib.metadata.version(distribution)`)."""
    package = Path(path).resolve().parent
    if not (package / "__init__.py").is_file():
        return None
    while (package.parent / "__init__.py").is_file():
        package = package.parent
    wanted = _normal(distribution or package.name)
    for info in sorted(package.parent.glob("*.dist-info")):
        if _normal(info.name.split("-", 1)[0]) != wanted:
            continue
        try:
            text = (info / "METADATA").read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None
        found = re.search(r"^Version:\s*(\S+)", text, re.MULTILINE)
        return found[1] if found else None
    return None


class _Bundler:
    def __init__(self, path: str) -> None:
        #: The handlers file as the user named it: siblings are named the same way.
        self.path = path
        self.problems: list[Diagnostic] = []
        self.third_party: dict[str, SourceSpan] = {}
        #: Sibling files already bundled (resolved path), and those being bundled now.
        self.done: set[Path] = set()
        self.active: list[Path] = []
        #: Bundled files, relative to the handlers file's directory.
        self.siblings: list[str] = []
        #: Top-level names defined (not imported) by bundled siblings: name -> file.
        self.bound: dict[str, str] = {}
        #: Every top-level name of each bundled sibling, imports included.
        self.exports: dict[str, set[str]] = {}
        #: Each bundled sibling's names that are called otherwise in the one module: a name
        #: another module defines too is renamed in the later one (file -> name -> new name).
        self.renamed: dict[str, dict[str, str]] = {}
        #: Sibling modules imported as modules (`from . import fmt`): file -> the name of the
        #: namespace that stands for it in the one module, once written.
        self.namespaces: dict[str, str] = {}
        #: A sibling's modules its functions import (`lines` to `sibling`).
        self.pending: dict[str, list[tuple[ast.ImportFrom, list[Path]]]] = {}
        #: A sibling's names that clash and cannot be renamed, reported at its import.
        self.clashes: dict[str, list[str]] = {}

    def error(self, path: str, node: ast.AST, message: str) -> None:
        span = SourceSpan(
            path=path,
            line=getattr(node, "lineno", 1),
            column=getattr(node, "col_offset", 0) + 1,
        )
        self.problems.append(Diagnostic(span=span, message=message))

    def module_file(self, folder: Path, module: str, level: int) -> Path | None:
        """The sibling file `module` (relative by `level`) names, or None."""
        base = folder
        for _ in range(max(level - 1, 0)):
            base = base.parent
        parts = module.split(".") if module else []
        if not parts:
            return base / "__init__.py" if (base / "__init__.py").is_file() else None
        for candidate in (
            base.joinpath(*parts).with_suffix(".py"),
            base.joinpath(*parts, "__init__.py"),
        ):
            if candidate.is_file():
                return candidate
        return None

    def lines(self, source: str, path: str, *, top: bool) -> list[tuple[str, tuple[str, int]]]:
        """The lines of one file, its sibling imports replaced by their code."""
        tree = parsed(source)
        folder = Path(path).resolve().parent
        text = source.splitlines()
        #: This module's names as the one module calls them, where that differs.
        names: dict[str, str] = {}
        #: Line index -> replacement lines for a statement starting there.
        replace: dict[int, list[tuple[str, tuple[str, int]]]] = {}
        blank: set[int] = set()
        inserted: list[tuple[str, tuple[str, int]]] = []
        first_sibling: int | None = None
        later = self.imports_found(source, tree, path, replace, blank)
        for index, statement in enumerate(tree.body):
            start, end = statement.lineno, statement.end_lineno or statement.lineno
            drop = False
            if not top and index == 0 and _is_docstring(statement):
                drop = True
            elif isinstance(statement, ast.ImportFrom) and statement.module == "__future__":
                drop = not top
            elif not top and _is_main_block(statement):
                drop = True
            elif (
                not top
                and isinstance(statement, ast.ImportFrom)
                and not statement.level
                and not self.is_sibling(folder, statement.module or "")
                and self.renamed_import(statement, tree, text, path) is not None
            ):
                line, renamed = self.renamed_import(statement, tree, text, path) or ("", {})
                names.update(renamed)
                replace[start] = [(line, (path, start))]
                drop = True
            elif isinstance(statement, ast.ImportFrom) and self.modules_imported(statement, folder):
                if first_sibling is None:
                    first_sibling = start
                code, aliases = self.modules_bundled(path, statement, folder)
                inserted += code
                replace[start] = [(line, (path, start)) for line in aliases]
                drop = True
            elif isinstance(statement, ast.ImportFrom):
                target = self.module_file(folder, statement.module or "", statement.level)
                if target is not None and target.stem == "click_default_group":
                    # NOTE: a vendored click-default-group (towncrier's): the Click reader
                    # reads its DefaultGroup as the package's and leaves the import out
                    target = None
                if target is not None and (
                    statement.level or self.is_sibling(folder, statement.module or "")
                ):
                    code = self.sibling(path, statement, target)
                    if first_sibling is None:
                        first_sibling = start
                    inserted += code
                    theirs = self.renamed.get(_shown(target, self.path), {})
                    aliases = []
                    for alias in statement.names:
                        local = alias.asname or alias.name
                        bound = theirs.get(alias.name, alias.name)
                        # NOTE: a sibling's own code is renamed where it can be; the handlers
                        # file keeps its names (the reader reads them) and gets an alias
                        if local != bound and (top or _renames(tree, text, local, bound) is None):
                            aliases.append(f"{local} = {bound}")
                        elif local != bound:
                            names[local] = bound
                    replace[start] = [(line, (path, start)) for line in aliases]
                    drop = True
            if drop:
                blank.update(range(start, end + 1))
        if not top:
            names.update(self.own_names(tree, text, path))
            self.renamed[path] = dict(names)
        _rename_in(tree, text, names)
        if top and later:
            inserted += self.later(path, later)
            if first_sibling is None:  # NOTE: after the handlers file's imports
                ends = [s.end_lineno or s.lineno for s in tree.body if _is_import(s)]
                first_sibling = min(max(ends, default=0) + 1, len(text))
        if not top:
            self.pending[path] = later
        return _assembled(text, path, (first_sibling, inserted), replace, blank)

    def modules_bundled(
        self, path: str, statement: ast.ImportFrom, folder: Path
    ) -> tuple[list[tuple[str, tuple[str, int]]], list[str]]:
        """`from . import fmt, util`: each sibling module's code, bundled as a namespace, and
        the lines that bind the names the statement bound to them."""
        code: list[tuple[str, tuple[str, int]]] = []
        aliases = []
        imported = self.modules_imported(statement, folder)
        for alias, module in zip(statement.names, imported, strict=True):
            code += self.module(path, statement, module)
            local = alias.asname or alias.name
            aliases.append(f"{local} = {self.namespace_name(module)}")
        return code, aliases

    def imports_found(
        self,
        source: str,
        tree: ast.Module,
        path: str,
        replace: dict[int, list[tuple[str, tuple[str, int]]]],
        blank: set[int],
    ) -> list[tuple[ast.ImportFrom, list[Path]]]:
        """Each import of the file classified (`classify`); a sibling module imported in a
        function (`from . import fmt`): bundled once this module's code is (a module imported
        there may import this one), the statement binding its namespace (`replace`, `blank`)
        and returned."""
        folder = Path(path).resolve().parent
        # NOTE: in the order `ast.walk` finds them: the top level first; only the statements
        # whose text says `import` are entered.
        found = [
            (node, False) for node in tree.body if isinstance(node, ast.Import | ast.ImportFrom)
        ]
        found += [(node, True) for node in nested_imports(source)]
        later: list[tuple[ast.ImportFrom, list[Path]]] = []
        deferred = _deferred_lines(tree) if len(found) > len(tree.body) else set()
        for node, nested in found:
            modules = self.modules_imported(node, folder)
            named = self.names_imported(node, folder) if node.lineno in deferred else None
            if isinstance(node, ast.ImportFrom) and named is not None:
                # NOTE: `from .parts import size` in a function (or for type checkers only):
                # each name read from the module's namespace, bundled after this module's code
                later.append((node, [named]))
                indent = " " * node.col_offset
                space = self.namespace_name(named)
                replace[node.lineno] = [
                    (f"{indent}{a.asname or a.name} = {space}.{a.name}", (path, node.lineno))
                    for a in node.names
                ]
                blank.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
            elif isinstance(node, ast.ImportFrom) and modules and nested:
                later.append((node, modules))
                indent = " " * node.col_offset
                replace[node.lineno] = [
                    (
                        f"{indent}{a.asname or a.name} = {self.namespace_name(m)}",
                        (path, node.lineno),
                    )
                    for a, m in zip(node.names, modules, strict=True)
                ]
                blank.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    self.classify(path, node, alias.name, 0, folder, nested=nested)
            elif not modules:
                self.classify(path, node, node.module or "", node.level, folder, nested=nested)
        return later

    def renamed_import(
        self, statement: ast.ImportFrom, tree: ast.Module, text: list[str], path: str
    ) -> tuple[str, dict[str, str]] | None:
        """A sibling's `from click import Context, UsageError`, whose names the generated
        module defines too: the statement importing them under the sibling's own names, and
        those names; None when it imports none such (or one cannot be renamed)."""
        if statement.module is None or any(a.name == "*" for a in statement.names):
            return None
        stem = re.sub(r"\W", "_", Path(path).stem.strip("_")) or "module"
        renamed: dict[str, str] = {}
        parts = []
        for alias in statement.names:
            local = alias.asname or alias.name
            if local in RUNTIME_NAMES:
                renamed[local] = f"{local}__{stem}"
                if _renames(tree, text, local, renamed[local]) is None:
                    return None
            parts.append(f"{alias.name} as {renamed[local]}" if local in renamed else local)
        if not renamed:
            return None
        return f"from {statement.module} import {', '.join(parts)}", renamed

    def later(
        self, path: str, later: list[tuple[ast.ImportFrom, list[Path]]]
    ) -> list[tuple[str, tuple[str, int]]]:
        """The code of the modules a function of `path` imports as modules."""
        code: list[tuple[str, tuple[str, int]]] = []
        for node, modules in later:
            for module in modules:
                code += self.module(path, node, module)
        return code

    def modules_imported(self, node: ast.Import | ast.ImportFrom, folder: Path) -> list[Path]:
        """The sibling files `from . import fmt, util` imports as modules, one per name; empty
        unless every name it imports is a sibling module."""
        if not isinstance(node, ast.ImportFrom) or node.module == "__future__":
            return []
        base = node.module or ""
        if not node.level and not self.is_sibling(folder, base or "."):
            return []
        found = []
        for alias in node.names:
            name = f"{base}.{alias.name}" if base else alias.name
            target = self.module_file(folder, name, node.level)
            if target is None or (
                target.name == "__init__.py" and alias.name != target.parent.name
            ):
                return []
            found.append(target)
        return found

    def names_imported(self, node: ast.Import | ast.ImportFrom, folder: Path) -> Path | None:
        """The sibling file `from .parts import size, Part` imports names of (not modules);
        None for any other import."""
        if not isinstance(node, ast.ImportFrom) or self.modules_imported(node, folder):
            return None
        if any(alias.name == "*" for alias in node.names):
            return None
        if not node.level and not self.is_sibling(folder, node.module or "."):
            return None
        return self.module_file(folder, node.module or "", node.level)

    def namespace_name(self, module: Path) -> str:
        # NOTE: named relative to the handlers file: the same inputs write the same file
        relative = os.path.relpath(module.resolve(), Path(self.path).resolve().parent)
        stem = re.sub(r"\W", "_", os.path.splitext(relative)[0]).strip("_")
        return f"_burgee_module_{stem}"

    def module(
        self, path: str, node: ast.ImportFrom, target: Path
    ) -> list[tuple[str, tuple[str, int]]]:
        """A sibling imported as a module: its code (once), then the namespace standing for it
        (once): each of its top-level names as the one module calls it."""
        shown = _shown(target, self.path)
        code = self.sibling(path, node, target, names=False)
        if shown in self.namespaces or shown not in self.exports:
            return code
        name = self.namespace_name(target)
        self.namespaces[shown] = name
        theirs = self.renamed.get(shown, {})
        members = ", ".join(
            f"{n}={theirs.get(n, n)}" for n in sorted(self.exports[shown]) if n.isidentifier()
        )
        line = f"{name} = __import__('types').SimpleNamespace({members})"
        return [*code, (line, (shown, 1))]

    def is_sibling(self, folder: Path, module: str) -> bool:
        root = module.split(".", maxsplit=1)[0]
        if not root or root in sys.stdlib_module_names or root in ("burgee", "__future__"):
            return False
        return self.module_file(folder, module, 0) is not None

    def classify(
        self,
        path: str,
        node: ast.Import | ast.ImportFrom,
        module: str,
        level: int,
        folder: Path,
        *,
        nested: bool,
    ) -> None:
        root = module.split(".", maxsplit=1)[0]
        if level == 0 and (
            not root or root in sys.stdlib_module_names or root in ("burgee", "__future__")
        ):
            return
        if level or self.is_sibling(folder, module):
            if nested:
                self.error(
                    path,
                    node,
                    f"the sibling module {'.' * level}{module} is imported inside a block; burgee "
                    "bundles sibling modules imported at the top level only: move the import there",
                )
            elif isinstance(node, ast.Import):
                self.error(
                    path,
                    node,
                    f"import {module}: burgee bundles a sibling module into the tool, so import "
                    f"its names instead: from {module} import NAME",
                )
            elif level and self.module_file(folder, module, level) is None:
                self.error(path, node, f"cannot find the module {'.' * level}{module} to bundle")
            return
        if root not in self.third_party:
            self.third_party[root] = SourceSpan(
                path=path, line=node.lineno, column=node.col_offset + 1
            )

    def sibling(
        self, path: str, statement: ast.ImportFrom, target: Path, *, names: bool = True
    ) -> list[tuple[str, tuple[str, int]]]:
        resolved = target.resolve()
        shown = _shown(target, self.path)
        if any(alias.name == "*" for alias in statement.names):
            self.error(
                path,
                statement,
                f"from {statement.module} import *: import the names you use, so burgee can "
                f"bundle {shown}",
            )
            return []
        if resolved in self.active:
            self.error(
                path, statement, f"{shown} imports itself in a cycle; burgee cannot bundle it"
            )
            return []
        if resolved in self.done:
            if names and shown in self.exports:  # NOTE: not when the file could not be read
                self.check_names(path, statement, shown)
            return []
        try:
            source = decode(target.read_bytes(), shown)
            check(source, shown)
        except OSError as error:
            self.error(
                path, statement, f"cannot read {shown} to bundle it: {error.strerror or error}"
            )
            return []
        except GenerationError as error:
            # NOTE: the sibling's own bad bytes or syntax, at their place; the other siblings
            # are still read, so one run reports every file's problems.
            self.problems += error.diagnostics
            self.done.add(resolved)
            return []
        self.active.append(resolved)
        try:
            code = self.lines(source, shown, top=False)
        finally:
            self.active.pop()
        self.done.add(resolved)
        # NOTE: what its functions import as modules, after it: they may import from it
        code += self.later(shown, self.pending.pop(shown, []))
        # NOTE: the tool names it relative to the handlers file, wherever gen ran from: the
        # same inputs write the same file.
        self.siblings.append(os.path.relpath(target, Path(self.path).resolve().parent))
        tree = parsed(source)
        self.exports[shown] = _bindings(tree, imports=True)
        for name in self.clashes.pop(shown, []):
            self.error(
                path,
                statement,
                f"{shown} and {self.bound[name]} both define {name!r}; bundled into one module, "
                "one would replace the other",
            )
        if names:
            self.check_names(path, statement, shown)
        return code

    def own_names(self, tree: ast.Module, text: list[str], shown: str) -> dict[str, str]:
        """The new names of a sibling's top-level names that an earlier module (or the
        handlers file) defines too: `_main` of check.py is `_main__check`. One that cannot be
        renamed safely (bound inside a function too) is a clash, reported at its import."""
        renamed: dict[str, str] = {}
        stem = re.sub(r"\W", "_", Path(shown).stem.strip("_")) or "module"
        for name in sorted(_bindings(tree, imports=False) - {"__all__"}):
            if name not in self.bound:
                self.bound[name] = shown
                continue
            new, count = f"{name}__{stem}", 1
            while new in self.bound:
                count += 1
                new = f"{name}__{stem}{count}"
            if _renames(tree, text, name, new) is not None:
                renamed[name] = new
                self.bound[new] = shown
            else:
                self.clashes.setdefault(shown, []).append(name)
        self.renamed[shown] = renamed
        return renamed

    def check_names(self, path: str, statement: ast.ImportFrom, shown: str) -> None:
        for alias in statement.names:
            if alias.name not in self.exports.get(shown, set()):
                self.error(
                    path, statement, f"{shown} has no top-level name {alias.name!r} to import"
                )


def bundle(source: str, path: str) -> Bundle:
    """Sort the imports of a handlers file and bundle its sibling modules; raise
    GenerationError where a sibling cannot be bundled safely."""
    bundler = _Bundler(path)
    # NOTE: the handlers file keeps its names: a sibling's that clash with them, or with the
    # generated module's own (burgee's runtime), are renamed
    bundler.bound = dict.fromkeys(RUNTIME_NAMES | set(RUNTIME_IMPORTS), "the generated module")
    bundler.bound.update(dict.fromkeys(_bindings(parsed(source), imports=False), Path(path).name))
    lines = bundler.lines(source, path, top=True)
    if not bundler.siblings:
        if bundler.problems:
            raise GenerationError(bundler.problems)
        return Bundle(source=source, third_party=bundler.third_party)
    if bundler.problems:
        raise GenerationError(
            sorted(
                bundler.problems,
                key=lambda d: (d.span.path != path, d.span.path, d.span.line, d.span.column),
            )
        )
    text = "\n".join(line for line, _ in lines) + "\n"
    return Bundle(
        source=text,
        origins=[origin for _, origin in lines],
        third_party=bundler.third_party,
        siblings=bundler.siblings,
    )


def _shown(target: Path, handlers: str) -> str:
    """A sibling file named as the handlers file is (relative to the same directory, or
    absolute), so its diagnostics open in an editor from where gen ran."""
    relative = os.path.relpath(target, Path(handlers).resolve().parent)
    return os.path.normpath(os.path.join(os.path.dirname(handlers), relative))


def _is_import(statement: ast.stmt) -> bool:
    return isinstance(statement, ast.Import | ast.ImportFrom)


def _is_docstring(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def _is_main_block(statement: ast.stmt) -> bool:
    """`if __name__ == "__main__":`, which does not run when a module is imported."""
    test = statement.test if isinstance(statement, ast.If) else None
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
        and len(test.comparators) == 1
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value == "__main__"
    )


_SCOPES = (
    ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef,
    ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp,
)  # fmt: skip


def _renames(
    tree: ast.Module, text: list[str], name: str, new: str
) -> list[tuple[int, int, int, str]] | None:
    """Where a module's global `name` is written, as edits (line index, start, end, text) that
    call it `new`; None when that is not safe: a function, class or comprehension binds the
    name for itself (a parameter, an assignment without `global`, ...), or a place is not
    where the parse says."""
    edits: list[tuple[int, int, int, str]] = []

    def at(line: int, byte: int) -> int:
        return len(text[line - 1].encode()[:byte].decode(errors="ignore"))

    def word(line: int, start: int, pattern: str) -> bool:
        found = re.compile(pattern).search(text[line - 1], start)
        if found is None:
            return False
        edits.append((line - 1, found.start(1), found.end(1), new))
        return True

    def visit(node: ast.AST, scope: ast.AST | None, global_here: bool) -> bool:
        if isinstance(node, ast.Name) and node.id == name:
            if scope is not None and not isinstance(node.ctx, ast.Load) and not global_here:
                return False
            start = at(node.lineno, node.col_offset)
            if text[node.lineno - 1][start : start + len(name)] != name:
                return False
            edits.append((node.lineno - 1, start, start + len(name), new))
        elif isinstance(node, ast.arg | ast.alias | ast.Nonlocal | ast.ExceptHandler):
            bound = getattr(node, "arg", None) or getattr(node, "asname", None)
            bound = bound or getattr(node, "name", None)
            if bound == name or name in getattr(node, "names", ()):
                return False
        elif isinstance(node, ast.Global) and name in node.names:
            if not word(node.lineno, at(node.lineno, node.col_offset), rf"\b({re.escape(name)})\b"):
                return False
        if isinstance(node, _SCOPES):
            if getattr(node, "name", None) == name:
                if scope is not None:
                    return False
                pattern = rf"(?:def|class)\s+({re.escape(name)})\b"
                if not word(node.lineno, at(node.lineno, node.col_offset), pattern):
                    return False
            scope, global_here = node, _declares_global(node, name)
        return all(visit(child, scope, global_here) for child in ast.iter_child_nodes(node))

    for statement in tree.body:
        if isinstance(statement, ast.Import | ast.ImportFrom):
            continue
        if not visit(statement, None, False):
            return None
    return edits


def _declares_global(scope: ast.AST, name: str) -> bool:
    """Whether a function says `global name` (its nested functions left out)."""
    queue = list(ast.iter_child_nodes(scope))
    while queue:
        node = queue.pop()
        if isinstance(node, ast.Global) and name in node.names:
            return True
        if not isinstance(node, _SCOPES):
            queue.extend(ast.iter_child_nodes(node))
    return False


def _bindings(tree: ast.Module, *, imports: bool) -> set[str]:
    """The names a module binds at its top level (with or without those its imports bind):
    in its statements and in the blocks of its `if`, `try`, `with`, `for`, `while` and `match`
    statements (`if sys.version_info < (3, 11): def f(): ...`, `try: import x as y`), never
    in a function's or a class's body, a comprehension's or an `if TYPE_CHECKING:` block's,
    which binds nothing when the module runs."""
    found: set[str] = set()
    blocks: list[list[ast.stmt]] = [tree.body]
    while blocks:
        for statement in blocks.pop():
            if _is_main_block(statement):
                continue
            if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                found.add(statement.name)
            elif isinstance(statement, ast.Import | ast.ImportFrom):
                future = isinstance(statement, ast.ImportFrom) and statement.module == "__future__"
                if imports and not future:
                    found |= {
                        a.asname or a.name.split(".")[0] for a in statement.names if a.name != "*"
                    }
            else:
                found |= _stored(statement)
                blocks += _blocks(statement)
    return found


def _stored(statement: ast.stmt) -> set[str]:
    """The names a statement binds itself: its own expressions, not its blocks' statements nor
    a lambda's or comprehension's own names."""
    found: set[str] = set()
    nodes: list[ast.AST] = list(ast.iter_child_nodes(statement))
    while nodes:
        node = nodes.pop()
        if isinstance(node, ast.stmt | ast.Lambda | ast.ListComp | ast.SetComp | ast.DictComp):
            continue
        if isinstance(node, ast.GeneratorExp):
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            found.add(node.id)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            found.add(node.name)
        nodes += ast.iter_child_nodes(node)
    return found


def _blocks(statement: ast.stmt) -> list[list[ast.stmt]]:
    """The blocks of statements a compound statement runs at the module's level."""
    if isinstance(statement, ast.If) and is_type_checking(statement.test):
        return [statement.orelse]
    found = [
        getattr(statement, field)
        for field in ("body", "orelse", "finalbody")
        if isinstance(getattr(statement, field, None), list)
    ]
    found += [handler.body for handler in getattr(statement, "handlers", [])]
    found += [case.body for case in getattr(statement, "cases", [])]
    return found


def _deferred_lines(tree: ast.Module) -> set[int]:
    """The lines of a module that do not run while it is imported: its functions' bodies, and
    its `if TYPE_CHECKING:` blocks (which never run)."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
        elif isinstance(node, ast.If) and is_type_checking(node.test):
            body = node.body
        else:
            continue
        lines.update(range(body[0].lineno, (body[-1].end_lineno or body[-1].lineno) + 1))
    return lines


def _assembled(
    text: list[str],
    path: str,
    siblings: tuple[int | None, list[tuple[str, tuple[str, int]]]],
    replace: dict[int, list[tuple[str, tuple[str, int]]]],
    blank: set[int],
) -> list[tuple[str, tuple[str, int]]]:
    """A file's lines, each with its origin: the siblings' code (`siblings`: inserted before
    that line), a statement's replacement lines in its place, the lines left out blank."""
    first_sibling, inserted = siblings
    own = [(line, (path, number)) for number, line in enumerate(text, start=1)]
    result: list[tuple[str, tuple[str, int]]] = []
    for number, (line, origin) in enumerate(own, start=1):
        if number == first_sibling:
            result += inserted
        if number in replace:
            result += replace[number]
            blank.discard(number)
            continue
        result.append(("" if number in blank else line, origin))
    return result


def _rename_in(tree: ast.Module, text: list[str], names: dict[str, str]) -> None:
    """Each name of `names` renamed in the lines `text` of `tree`, where it can be."""
    edits = [e for name, new in names.items() for e in _renames(tree, text, name, new) or ()]
    for index, start, end, new in sorted(edits, reverse=True):
        text[index] = text[index][:start] + new + text[index][end:]
