"""The layout's rules, checked by walking every module's imports with `ast` (no import runs)."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

#: Modules may be this long; a longer one has more than one job.
MAX_MODULE_LINES = 400
#: Functions may be this long unless a `# long: <reason>` comment on or above the def says why.
MAX_FUNCTION_LINES = 60
LONG_REASON = "# long:"


@dataclass(frozen=True)
class Import:
    """One import: the module that has it, the riverbed-relative target, where."""

    source: str  # dotted module name below the package: "index.store", "errors"
    target: str  # what it names: "index.model", "errors", or "" for the package facade
    external: str  # the top-level name for an import from outside the package ("" if inside)
    line: int
    in_function: bool


def module_name(root: Path, path: Path) -> str:
    """`index/store.py` → `index.store`; `index/__init__.py` → `index`."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def package_of(name: str) -> str:
    """The first part of a module name: the package (or root module) it belongs to."""
    return name.split(".", 1)[0]


def modules(root: Path) -> Iterator[Path]:
    """Every Python module of the package at `root`."""
    yield from sorted(root.rglob("*.py"))


def _resolve(root: Path, base: str, name: str) -> str:
    """The target of `from <base> import <name>`: a submodule if one exists, else `base`."""
    candidate = f"{base}.{name}" if base else name
    path = root.joinpath(*candidate.split("."))
    return candidate if path.with_suffix(".py").exists() or path.is_dir() else base


def imports(root: Path, package: str = "riverbed") -> Iterator[Import]:
    """Every import of every module below `root`, riverbed's own resolved relative to it."""
    for path in modules(root):
        source = module_name(root, path)
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        functions = {
            id(inner)
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            for inner in ast.walk(node)
        }
        is_package = path.name == "__init__.py"
        for node in ast.walk(tree):
            inside = id(node) in functions
            if isinstance(node, ast.Import):
                for alias in node.names:
                    yield _absolute(root, package, source, alias.name, node.lineno, inside)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    here = source.split(".") if source else []
                    keep = len(here) - node.level + (1 if is_package else 0)
                    base = ".".join(here[:keep] + ([node.module] if node.module else []))
                    dotted = f"{package}.{base}" if base else package
                else:
                    dotted = node.module or ""
                for alias in node.names:
                    if dotted == package or dotted.startswith(package + "."):
                        inner = dotted[len(package) + 1 :]
                        target = _resolve(root, inner, alias.name)
                        yield Import(source, target, "", node.lineno, inside)
                    else:
                        yield _absolute(root, package, source, dotted, node.lineno, inside)


def _absolute(
    root: Path, package: str, source: str, dotted: str, line: int, inside: bool
) -> Import:
    if dotted == package or dotted.startswith(package + "."):
        return Import(source, dotted[len(package) + 1 :], "", line, inside)
    return Import(source, "", package_of(dotted), line, inside)


def _own(imp: Import) -> bool:
    return not imp.external


def _where(imp: Import) -> str:
    shown = imp.target or "riverbed (the facade)"
    return f"{imp.source}:{imp.line} imports {shown}"


def index_violations(root: Path) -> list[str]:
    """index/ imports nothing else of riverbed but `errors` and `text`."""
    return _layer_violations(root, "index", {"index", "errors", "text"})


def merging_violations(root: Path) -> list[str]:
    """merging/ (combining indexes) imports nothing of riverbed but the store below it."""
    return _layer_violations(root, "merging", {"merging", "index", "errors", "text"})


def _layer_violations(root: Path, package: str, allowed: set[str]) -> list[str]:
    return [
        _where(imp)
        for imp in imports(root)
        if _own(imp) and package_of(imp.source) == package
        if not imp.target or package_of(imp.target) not in allowed
    ]


#: The packages that apply memory, read findings and evals: pure of every host.
CORE = ("memory", "findings", "evals", "organisation")
#: The hosts: GitHub I/O, the action, the CLI, the agents' servers and hooks.
HOSTS = ("github", "action", "cli", "agents")


def core_violations(root: Path) -> list[str]:
    """memory/, findings/ and evals/ never import github/, action/, cli/ or agents/."""
    return [
        _where(imp)
        for imp in imports(root)
        if _own(imp) and package_of(imp.source) in CORE
        if imp.target and package_of(imp.target) in HOSTS
    ]


#: Outside libraries the kit may use: the `test` extra's validator, imported on first use.
KIT_EXTRAS = frozenset({"openapi_schema_validator"})


def kit_violations(root: Path) -> list[str]:
    """Only demo/ imports testing/; testing/ imports only stdlib, riverbed.github and errors."""
    found = []
    for imp in imports(root):
        package = package_of(imp.source)
        if package == "testing":
            if imp.external:
                if imp.external not in sys.stdlib_module_names | KIT_EXTRAS | {"__future__"}:
                    found.append(f"{imp.source}:{imp.line} imports {imp.external}")
            elif not imp.target or package_of(imp.target) not in {"testing", "github", "errors"}:
                found.append(_where(imp))
        elif imp.target and package_of(imp.target) == "testing" and package != "demo":
            found.append(_where(imp))
    return found


def package_graph(root: Path) -> dict[str, set[str]]:
    """Package → the other packages its modules import (the facade `riverbed` left out)."""
    graph: dict[str, set[str]] = {}
    for imp in imports(root):
        if not imp.source or package_of(imp.source) == "__main__":
            continue  # riverbed/__init__.py is the public facade over everything
        graph.setdefault(package_of(imp.source), set())
        if _own(imp) and imp.target and package_of(imp.target) != package_of(imp.source):
            graph[package_of(imp.source)].add(package_of(imp.target))
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one package (Tarjan), each sorted."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        order[node] = low[node] = len(order)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in order:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], order[nxt])
        if low[node] == order[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in order:
            visit(node)
    return sorted(groups)


def long_modules(root: Path) -> dict[str, int]:
    """Modules over MAX_MODULE_LINES lines → their length."""
    lengths = {
        module_name(root, path): len(path.read_text(encoding="utf-8").splitlines())
        for path in modules(root)
    }
    return {name: n for name, n in lengths.items() if n > MAX_MODULE_LINES}


def long_functions(root: Path) -> dict[str, int]:
    """Functions over MAX_FUNCTION_LINES lines with no `# long:` reason → their length."""
    found: dict[str, int] = {}
    for path in modules(root):
        lines = path.read_text(encoding="utf-8").splitlines()
        tree = ast.parse("\n".join(lines), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length <= MAX_FUNCTION_LINES:
                continue
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            nearby = lines[first - 2 : node.lineno] if first >= 2 else lines[: node.lineno]
            if any(LONG_REASON in line for line in nearby):
                continue
            found[f"{module_name(root, path)}.{_qualified(tree, node)}"] = length
    return found


def _qualified(tree: ast.Module, target: ast.AST) -> str:
    """`Class.method` or `function` (nested functions as `outer.inner`)."""

    def search(node: ast.AST, trail: list[str]) -> list[str] | None:
        for child in ast.iter_child_nodes(node):
            named = isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            path = [*trail, child.name] if named else trail  # type: ignore[attr-defined]
            if child is target:
                return path
            found = search(child, path)
            if found is not None:
                return found
        return None

    return ".".join(search(tree, []) or ["?"])
